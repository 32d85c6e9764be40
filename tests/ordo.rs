mod common;

use common::*;
use tablero::rules::{AnyGame, Game};

fn parse(s: &str) -> AnyGame {
    s.parse().unwrap_or_else(|e| panic!("{s}: {e}"))
}

#[test]
fn classic_fixtures() {
    let bad = check_fixture("ordo_classic.tsv", parse);
    assert!(bad.is_empty(), "{} mismatches:\n{}", bad.len(), bad.join("\n"));
}

#[test]
fn x_fixtures() {
    let bad = check_fixture("ordo_x.tsv", parse);
    assert!(bad.is_empty(), "{} mismatches:\n{}", bad.len(), bad.join("\n"));
}
