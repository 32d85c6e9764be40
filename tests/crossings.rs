mod common;

use common::*;
use tablero::rules::AnyGame;

fn parse(s: &str) -> AnyGame {
    s.parse().unwrap_or_else(|e| panic!("{s}: {e}"))
}

#[test]
fn fixtures() {
    let bad = check_fixture("crossings.tsv", parse);
    assert!(
        bad.is_empty(),
        "{} mismatches:\n{}",
        bad.len(),
        bad.join("\n")
    );
}
