//! Crossings: the check figures, every fixture row, notation round-trips, each capture case,
//! the crossing/counter-crossing sequence, the three draws, and a seeded soak.
mod common;

use common::*;
use rand::{Rng, SeedableRng, rngs::StdRng};
use tablero::rules::crossings::{Crossings, Options};
use tablero::rules::{AnyGame, Cell, Effect, Game, Reason, Side};

fn parse(s: &str) -> AnyGame {
    s.parse().unwrap_or_else(|e| panic!("{s}: {e}"))
}

/// A position from lists of squares.
fn pos(red: &[&str], black: &[&str], side: char, quiet: u32) -> Crossings {
    let mut rows = vec![vec!['.'; 8]; 8];
    for (list, ch) in [(red, 'R'), (black, 'B')] {
        for sq in list {
            let c: Cell = sq.parse().unwrap();
            rows[7 - c.rank as usize][c.file as usize] = ch;
        }
    }
    let board: Vec<String> = rows.iter().map(|r| r.iter().collect()).collect();
    let text = format!("crossings {} {side} {quiet}", board.join("/"));
    text.parse().unwrap_or_else(|e| panic!("{text}: {e}"))
}

fn has(g: &Crossings, mv: &str) -> bool {
    g.legal_moves().iter().any(|m| m.to_string() == mv)
}

#[test]
fn check_figures_60_and_40_with_exact() {
    let start = Crossings::initial(Options::default());
    let moves = start.legal_moves();
    assert_eq!(moves.len(), 60);
    assert_eq!(moves.iter().filter(|m| !m.is_phalanx()).count(), 22);
    assert_eq!(start.perft(2), 3600);
    assert_eq!(Crossings::initial(Options { exact: true }).legal_moves().len(), 40);
}

#[test]
fn fixtures() {
    let bad = check_fixture("crossings.tsv", parse);
    assert!(bad.is_empty(), "{} mismatches:\n{}", bad.len(), bad.join("\n"));
}

#[test]
fn every_legal_move_round_trips_and_positions_print_back() {
    for row in fixture("crossings.tsv") {
        let g = parse(&row.position);
        assert_eq!(g.to_string(), row.position);
        check_round_trip(&g);
    }
    let exact: AnyGame =
        "crossings BBBBBBBB/BBBBBBBB/......../......../......../......../RRRRRRRR/RRRRRRRR r 0 exact".parse().unwrap();
    assert!(exact.to_string().ends_with(" exact"));
    check_round_trip(&exact);
}

#[test]
fn a_smaller_enemy_run_is_captured_front_stone_only() {
    // Three red stones a1-a3 against two black stones a5 a6: 2 < 3, the front one is taken.
    let g = pos(&["a1", "a2", "a3"], &["a5", "a6", "h8"], 'r', 0);
    assert!(has(&g, "a1:a3xa5"));
    let mut after = g.clone();
    let fx = after.play_text("a1:a3xa5").unwrap();
    assert_eq!(fx[0], Effect::Captured { at: "a5".parse().unwrap() });
    assert_eq!(after.stones(Side::Second).count_ones(), 2, "only the front enemy stone goes");
    assert_eq!(after.quiet(), 0);
    // A capture at distance k = 1 < L.
    let g = pos(&["a1", "a2", "a3"], &["a4", "h8"], 'r', 0);
    assert!(has(&g, "a1:a3xa4"));
    assert!(!has(&g, "a1:a3-a5"), "cannot pass an enemy stone");
}

#[test]
fn an_equal_or_larger_enemy_run_blocks() {
    let g = pos(&["a1", "a2"], &["a4", "a5", "h8"], 'r', 0);
    assert!(!has(&g, "a1:a2xa4"), "2 against 2 blocks");
    assert!(has(&g, "a1:a2-a3"));
    let g = pos(&["a1", "a2"], &["a4", "a5", "a6"], 'r', 0);
    assert!(!has(&g, "a1:a2xa4"), "2 against 3 blocks");
    let err = g.parse_move("a1:a2xa4").unwrap_err().to_string();
    assert!(err.contains("illegal"), "{err}");
}

#[test]
fn locked_stones_count_in_the_run_and_cannot_be_captured() {
    // Black a1 has crossed (locked). Red a3-a5 moving down meets a2 + a1: a run of 2 < 3.
    let g = pos(&["a3", "a4", "a5", "h1"], &["a1", "a2"], 'r', 0);
    assert!(has(&g, "a5:a3xa2"), "{:?}", g.legal_moves().iter().map(|m| m.to_string()).collect::<Vec<_>>());
    // With only two red stones the locked a1 makes the run 2, not fewer than 2.
    let g = pos(&["a3", "a4", "h1"], &["a1", "a2"], 'r', 0);
    assert!(!has(&g, "a4:a3xa2"));
    // A locked stone itself is never captured.
    let g = pos(&["a2", "a3", "a4", "h1"], &["a1", "h7"], 'r', 0);
    assert!(!has(&g, "a4:a2xa1"));
    // A locked red stone (crossed on rank 8) never moves.
    let g = pos(&["b8", "c1"], &["h1", "a5"], 'r', 0);
    assert!(g.legal_moves().iter().all(|m| m.front != 57 && m.rear != 57));
    assert!(g.parse_move("b8-b7").unwrap_err().to_string().contains("locked"));
}

#[test]
fn a_phalanx_cannot_reach_past_a_blocked_path() {
    // Red a1-a3 (L = 3) would reach a6 in 3 steps, but its own stone on a5 stops it at a4.
    let g = pos(&["a1", "a2", "a3", "a5"], &["a6", "h8"], 'r', 0);
    let from_a1: Vec<String> =
        g.legal_moves().iter().map(|m| m.to_string()).filter(|m| m.starts_with("a1:a3")).collect();
    assert_eq!(from_a1, ["a1:a3-a4"]);
    // A part of a line moves only if it includes the end stone in the direction of travel.
    let g = pos(&["a1", "a2", "a3"], &["h8"], 'r', 0);
    assert!(has(&g, "a2:a3-a4"));
    assert!(!g.legal_moves().iter().any(|m| m.to_string().starts_with("a1:a2")), "a3 is in the way");
}

#[test]
fn exact_moves_exactly_l_squares() {
    let text = "crossings ......../......../......../......../......../......../R......./R....... r 0 exact";
    let g: Crossings = text.parse().unwrap();
    let phalanx: Vec<String> = g.legal_moves().iter().filter(|m| m.is_phalanx()).map(|m| m.to_string()).collect();
    assert_eq!(phalanx, ["a1:a2-a4"]);
}

/// The seed: when the front stone of a moving group meets a single enemy stone, "the group's
/// move stops there and the enemy stone is captured". With `exact` a capture still ends where
/// the enemy stone stands, shorter than L; only a move onto empty squares is exactly L long.
#[test]
fn exact_still_captures_where_the_enemy_stone_stands() {
    let with = |exact: bool| {
        let g = pos(&["a1", "a2", "a3"], &["a4", "h8"], 'r', 0);
        let text = format!("{g}{}", if exact { " exact" } else { "" });
        text.parse::<Crossings>().unwrap()
    };
    // A phalanx of 3 meets the enemy stone on a4 after one square.
    let exact = with(true);
    assert!(has(&exact, "a1:a3xa4"), "a capture after 1 square of 3: {:?}", exact.legal_moves());
    assert!(!has(&exact, "a2:a3-a5") && !has(&exact, "a1:a3-a5"), "no move passes the enemy stone");
    // Onto empty squares, exactly L: the diagonal pair a1-b2 goes two squares, not one.
    let g = pos(&["a1", "b2"], &["h8"], 'r', 0);
    let exact_pair: Crossings = format!("{g} exact").parse().unwrap();
    assert!(has(&exact_pair, "a1:b2-d4") && !has(&exact_pair, "a1:b2-c3"));
    assert!(has(&g, "a1:b2-c3"), "without the option one square will do");
    // Without the option the capture is there as well.
    assert!(has(&with(false), "a1:a3xa4"));
}

#[test]
fn unanswered_crossing_wins_and_a_counter_crossing_goes_on() {
    // Red b7 crosses to b8; black does not answer: red wins.
    let g = pos(&["b7", "h2"], &["g2", "a7"], 'r', 0);
    let mut a = g.clone();
    let fx = a.play_text("b7-b8").unwrap();
    assert!(fx.contains(&Effect::Locked { at: "b8".parse().unwrap() }));
    assert!(a.outcome().is_none(), "black gets one move to answer");
    let mut quiet = a.clone();
    quiet.play_text("a7-a6").unwrap();
    let out = quiet.outcome().unwrap();
    assert_eq!((out.winner, out.reason), (Some(Side::First), Reason::UnansweredCrossing));
    // Black answers by crossing g2-g1: the game goes on, and the next crossing decides.
    a.play_text("g2-g1").unwrap();
    assert!(a.outcome().is_none());
    a.play_text("h2-h3").unwrap();
    assert!(a.outcome().is_none());
    a.play_text("a7-a6").unwrap();
    assert!(a.outcome().is_none());
    let mut b = a.clone();
    b.play_text("h3-h4").unwrap();
    b.play_text("a6-a5").unwrap();
    assert!(b.outcome().is_none(), "no new crossing, still level");
}

#[test]
fn draws_by_repetition_quiet_moves_and_no_move() {
    // Threefold repetition: both sides shuffle back and forth.
    let mut g = pos(&["a3", "h2"], &["a6", "h7"], 'r', 0);
    for mv in ["a3-a4", "a6-a5", "a4-a3", "a5-a6", "a3-a4", "a6-a5", "a4-a3"] {
        assert!(g.outcome().is_none(), "ended before {mv}");
        g.play_text(mv).unwrap();
    }
    assert!(g.outcome().is_none(), "the start position has occurred twice");
    g.play_text("a5-a6").unwrap();
    assert_eq!(g.outcome().map(|o| (o.winner, o.reason)), Some((None, Reason::Repetition)));
    // 100 moves without capture or crossing.
    let mut g = pos(&["a3", "h2"], &["a6", "h7"], 'r', 99);
    g.play_text("a3-a4").unwrap();
    assert_eq!(g.outcome().map(|o| o.reason), Some(Reason::QuietMoves));
    assert!(g.legal_moves().is_empty());
    // The player to move has no legal move: red's only stone is boxed in.
    let g = pos(&["a1"], &["a2", "b2", "b1", "h8", "g8"], 'r', 0);
    assert_eq!(g.outcome().map(|o| (o.winner, o.reason)), Some((None, Reason::NoLegalMove)));
}

#[test]
fn soak() {
    let mut rng = StdRng::seed_from_u64(5);
    let mut endings = std::collections::HashMap::new();
    for game in 0..3000 {
        let mut g = Crossings::initial(Options { exact: game % 3 == 0 });
        while g.outcome().is_none() {
            let moves = g.legal_moves();
            let mv = moves[rng.random_range(0..moves.len())];
            let mover = g.side_to_move();
            let locked = [g.locked(Side::First), g.locked(Side::Second)];
            let total = g.stones(Side::First).count_ones() + g.stones(Side::Second).count_ones();
            let mine = g.stones(mover).count_ones();
            let fx = g.play(&mv).unwrap();
            for s in [Side::First, Side::Second] {
                assert_eq!(
                    g.stones(s) & locked[s.index()],
                    locked[s.index()],
                    "a locked stone moved or was taken: {mv}"
                );
            }
            let now = g.stones(Side::First).count_ones() + g.stones(Side::Second).count_ones();
            let captured = fx.iter().filter(|e| matches!(e, Effect::Captured { .. })).count() as u32;
            assert!(captured <= 1 && now + captured == total && now <= total, "{mv}");
            assert_eq!(g.stones(mover).count_ones(), mine, "the mover loses no stone by its own move: {mv}");
        }
        *endings.entry(format!("{:?}", g.outcome().unwrap().reason)).or_insert(0) += 1;
    }
    eprintln!("crossings endings: {endings:?}");
    // Repetition and a side without a move have tests of their own; random games reach these.
    for want in ["UnansweredCrossing", "QuietMoves"] {
        assert!(endings.contains_key(want), "no random game ended by {want}: {endings:?}");
    }
}

/// The chooser's words for a Crossings move: the stone alone or the line, and where it goes.
#[test]
fn moves_are_described_in_words() {
    let g = Crossings::initial(Options::default());
    let words: Vec<String> = ["a2-a3", "a1:a2-a3"]
        .into_iter()
        .map(|m| tablero::rules::AnyMove::Crossings(g.parse_move(m).unwrap()).describe(0))
        .collect();
    assert_eq!(words, ["a2 alone to a3  (a2-a3)", "the line a1–a2, front to a3  (a1:a2-a3)"]);
    let g = pos(&["d3", "d4"], &["d5", "h8"], 'r', 0);
    let capture = g.parse_move("d3:d4xd5").unwrap();
    assert_eq!(capture.describe(), "the line d3–d4, front captures on d5");
}
