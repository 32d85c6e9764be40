//! Volterra: the check figures, every fixture row (both build rules), notation round-trips,
//! hand-built positions for each rule, free setup, scoring, and a seeded soak.
mod common;

use common::*;
use rand::{Rng, SeedableRng, rngs::StdRng};
use tablero::rules::volterra::{Options, Phase, Volterra, VolterraMove};
use tablero::rules::{AnyGame, Cell, Effect, Game, Reason, Side};

fn parse(s: &str) -> AnyGame {
    s.parse().unwrap_or_else(|e| panic!("{s}: {e}"))
}

fn v(s: &str) -> Volterra {
    s.parse().unwrap_or_else(|e| panic!("{s}: {e}"))
}

fn has(g: &Volterra, mv: &str) -> bool {
    g.legal_moves().iter().any(|m| m.to_string() == mv)
}

#[test]
fn check_figures_86_and_54() {
    let start = Volterra::initial(Options::default());
    assert_eq!(start.legal_moves().len(), 86);
    assert_eq!(start.perft(2), 7718);
    let near = Volterra::initial(Options { build_near_source: true });
    assert_eq!(near.legal_moves().len(), 54);
    assert_eq!(near.perft(2), 2898);
}

#[test]
fn fixtures() {
    let bad = check_fixture("volterra.tsv", parse);
    assert!(bad.is_empty(), "{} mismatches:\n{}", bad.len(), bad.join("\n"));
}

#[test]
fn fixtures_build_near_source() {
    let bad = check_fixture("volterra_build_near_source.tsv", |s| parse(&format!("{s} build-near-source")));
    assert!(bad.is_empty(), "{} mismatches:\n{}", bad.len(), bad.join("\n"));
}

#[test]
fn every_legal_move_round_trips_and_positions_print_back() {
    for row in fixture("volterra.tsv") {
        let g = parse(&row.position);
        assert_eq!(g.to_string(), row.position);
        check_round_trip(&g);
        let near = parse(&format!("{} build-near-source", row.position));
        assert_eq!(near.to_string(), format!("{} build-near-source", row.position));
    }
}

#[test]
fn an_interior_tower_next_to_a_hole_has_a_free_side() {
    // b2 is interior; with the full grid it has no free side, with a hole on b1 it has one.
    let full = v("volterra D,L,D,L/L,D,L,D/D,Ll,Dd,L/L,D,L,D/D,L,D,L l");
    assert!(!full.has_free_side(5));
    let holed = v("volterra D,L,D,L/L,D,L,D/D,Ll,Dd,L/L,D,L,D/D,-,D,LL l");
    assert!(holed.has_free_side(5), "b2 touches the hole b1");
    // c2 (light, interior, next to the light pawn on b3): buildable only once it has a free side.
    assert!(!has(&full, "c2-b2,Pb3-c4"));
    let err = full.parse_move("c2-b2,Pb3-a4").unwrap_err().to_string();
    assert!(err.contains("no free side"), "{err}");
    let holed_c1 = v("volterra D,L,D,L/L,D,L,D/D,Ll,Dd,L/L,D,L,D/D,L,-,LD l");
    assert!(has(&holed_c1, "c2-b2,Pb3-a4"));
}

#[test]
fn two_tiles_whose_lower_one_is_the_opponents_move_together() {
    // a2 holds D then L (light on top): light lifts both onto a3.
    let g = v("volterra -,L,D,L/L,D,L,D/D,Ll,Dd,L/DL,D,L,D/D,L,D,L l");
    assert!(has(&g, "a2=a3,Pb3-a4"));
    let mut after = g.clone();
    let fx = after.play_text("a2=a3,Pb3-a4").unwrap();
    assert_eq!(
        fx[0],
        Effect::Stacked {
            from: "a2".parse().unwrap(),
            to: "a3".parse().unwrap(),
            tiles: vec![Side::Second, Side::First],
            from_height: 2,
            to_height: 1
        }
    );
    assert!(after.tower("a2".parse().unwrap()).unwrap().is_hole(), "the source emptied");
    assert_eq!(after.tower("a3".parse().unwrap()).unwrap().tiles(), [Side::Second, Side::Second, Side::First]);
    assert_eq!(after.to_string(), "volterra -,L,D,L/Ll,D,L,D/DDL,L,Dd,L/-,D,L,D/D,L,D,L d");
}

#[test]
fn a_build_that_empties_a_cell_leaves_a_hole() {
    let mut g = Volterra::initial(Options::default());
    let fx = g.play_text("a2-b2,Pb3-a4").unwrap();
    assert!(matches!(fx[0], Effect::Stacked { from_height: 1, to_height: 1, .. }));
    assert!(g.tower("a2".parse().unwrap()).unwrap().is_hole());
    assert_eq!(g.to_string(), "volterra D,L,D,L/Ll,D,L,D/D,L,Dd,L/-,DL,L,D/D,L,D,L d");
}

#[test]
fn a_split_removes_every_part_without_a_pawn() {
    // a1 hangs on the rest only through a2; light lifts a2 onto c4 and a1 falls away.
    let g = v("volterra -,-,-,-/-,-,D,-/-,Ll,Dd,-/L,-,-,-/D,-,-,- l");
    let mut after = g.clone();
    let fx = after.play_text("a2-c4,Pb3-c4").unwrap();
    assert_eq!(fx[1], Effect::Removed { at: "a1".parse().unwrap() });
    assert_eq!(after.to_string(), "volterra -,-,-,-/-,-,DLl,-/-,L,Dd,-/-,-,-,-/-,-,-,- d");
}

#[test]
fn a_split_that_separates_the_pawns_keeps_both_parts() {
    let g = v("volterra -,-,-,-/D,-,-,-/Ll,L,Dd,-/-,-,-,-/-,-,-,- l");
    let mut after = g.clone();
    let fx = after.play_text("b3-a4,Pa3-a4").unwrap();
    assert!(!fx.iter().any(|e| matches!(e, Effect::Removed { .. })), "both parts hold a pawn: {fx:?}");
    assert_eq!(after.to_string(), "volterra -,-,-,-/DLl,-,-,-/L,-,Dd,-/-,-,-,-/-,-,-,- d");
    // Dark, alone on c3, has no complete turn: the game ends and the towers are compared.
    let out = after.outcome().unwrap();
    assert_eq!((out.winner, out.reason), (Some(Side::First), Reason::TallerTowers));
    assert_eq!(after.heights(Side::First), [2, 1]);
    assert_eq!(after.heights(Side::Second), [1]);
}

#[test]
fn each_player_goes_on_alone_on_its_own_part() {
    // Separate boards: light on the a/b side, dark on the d side, each can still play.
    let g = v("volterra L,D,-,D/D,L,-,L/Ll,D,-,Dd/D,L,-,L/L,D,-,D l");
    let moves = g.legal_moves();
    assert!(!moves.is_empty());
    for mv in &moves {
        let VolterraMove::Turn(..) = mv else { panic!() };
        let text = mv.to_string();
        assert!(!text.contains('c') && !text.contains('d'), "light stays on its part: {text}");
    }
}

/// A finished position: light's pawn alone on a1, towers elsewhere.
fn finished(light: &str, dark: &str) -> Volterra {
    v(&format!("volterra {light},-,{dark},-/-,-,-,-/L,-,DD,-/-,-,-,-/LLLl,-,DDDd,- l"))
}

#[test]
fn scoring_compares_tallest_first() {
    // Light [3, 2, 1] against dark [3, 2, 2]: the third tower decides for dark.
    let g = finished("LL", "DD");
    assert_eq!(g.heights(Side::First), [3, 2, 1]);
    assert_eq!(g.heights(Side::Second), [3, 2, 2]);
    assert_eq!(g.outcome().map(|o| (o.winner, o.reason)), Some((Some(Side::Second), Reason::TallerTowers)));
    // Light [3, 3, 1] against dark [3, 2, 2]: the second decides for light.
    let g = finished("LLL", "DD");
    assert_eq!(g.outcome().unwrap().winner, Some(Side::First));
    // Light [3, 2, 1] against dark [3, 2, 2] minus one tower: a missing tower counts 0.
    let g = v("volterra LL,-,D,-/-,-,-,-/L,-,DD,-/-,-,-,-/LLLl,-,DDDd,- l");
    assert_eq!(g.heights(Side::Second), [3, 2, 1]);
    assert_eq!(g.outcome().map(|o| (o.winner, o.reason)), Some((None, Reason::EqualTowers)), "identical lists draw");
    let g = v("volterra LL,-,-,-/-,-,-,-/L,-,DD,-/-,-,-,-/LLLl,-,DDDd,- l");
    assert_eq!(g.outcome().unwrap().winner, Some(Side::First), "[3,2,1] beats [3,2]");
}

#[test]
fn free_setup_lays_alternately_then_places_pawns() {
    let mut g = Volterra::free_setup(Options::default());
    assert_eq!(g.to_string(), "volterra-free -,-,-,-/-,-,-,-/-,-,-,-/-,-,-,-/-,-,-,- l");
    assert_eq!(g.legal_moves().len(), 20);
    let mut rng = StdRng::seed_from_u64(3);
    for n in 0..20 {
        assert_eq!(g.phase(), Phase::Laying);
        assert_eq!(g.side_to_move(), if n % 2 == 0 { Side::First } else { Side::Second });
        let moves = g.legal_moves();
        assert_eq!(moves.len(), 20 - n);
        let mv = moves[rng.random_range(0..moves.len())];
        let fx = g.play(&mv).unwrap();
        assert!(matches!(fx[0], Effect::Placed { .. }));
    }
    assert_eq!(g.phase(), Phase::PlacingPawns);
    assert_eq!(g.side_to_move(), Side::First);
    assert_eq!(g.legal_moves().len(), 10, "light may put its pawn on any of its 10 towers");
    assert!(g.parse_move("Pa1-a2,a3-a4").unwrap_err().to_string().contains("@cell"));
    let mv = g.legal_moves()[0];
    g.play(&mv).unwrap();
    assert_eq!(g.side_to_move(), Side::Second);
    let mv = g.legal_moves()[0];
    g.play(&mv).unwrap();
    assert_eq!(g.phase(), Phase::Play);
    assert_eq!(g.side_to_move(), Side::First);
    // The printed setup position reads back the same.
    let back: Volterra = g.to_string().parse().unwrap();
    assert_eq!(back, g);
}

/// The seed: "each player chooses a colour and the starting player is designated". Dark may
/// start: in the game from the initial grid, and in the free setup, where the first player lays
/// the first tile, puts their pawn first and then plays first.
#[test]
fn the_players_choose_who_starts() {
    let dark = Volterra::initial(Options::default()).first_player(Side::Second);
    assert_eq!(dark.to_string(), "volterra D,L,D,L/L,D,L,D/D,Ll,Dd,L/L,D,L,D/D,L,D,L d");
    assert_eq!(dark.side_to_move(), Side::Second);
    assert!(dark.legal_moves().iter().all(|m| m.to_string().contains("Pc3") || !m.to_string().contains('P')));
    assert_eq!(dark.legal_moves().len(), 86, "the initial grid is symmetric: dark has light's 86 turns");
    let mut g = Volterra::free_setup(Options::default()).first_player(Side::Second);
    assert_eq!(g.to_string(), "volterra-free -,-,-,-/-,-,-,-/-,-,-,-/-,-,-,-/-,-,-,- d");
    let mut rng = StdRng::seed_from_u64(5);
    for n in 0..22 {
        let expected = if n % 2 == 0 { Side::Second } else { Side::First };
        assert_eq!(g.side_to_move(), expected, "setup move {n}: dark lays first and puts its pawn first");
        let back: Volterra = g.to_string().parse().unwrap_or_else(|e| panic!("{g}: {e}"));
        assert_eq!(back, g, "every setup position reads back");
        let moves = g.legal_moves();
        g.play(&moves[rng.random_range(0..moves.len())]).unwrap();
    }
    assert_eq!(g.phase(), Phase::Play);
    assert_eq!(g.side_to_move(), Side::Second, "dark plays the first turn");
}

#[test]
fn bad_positions_are_refused_with_the_reason() {
    let cases = [
        ("volterra D,L,D,L/L,D,L,D/D,Ll,Dd,L/L,D,L,D/D,L,D,X l", "unknown character 'X' in cell d1"),
        ("volterra DDDDDDDDDDD,L,D,L/L,D,L,D/D,Ll,Dd,L/L,D,L,D/D,L,D,L l", "more than 10 dark tiles"),
        ("volterra D,L,D,L/L,D,L,D/D,Ll,Dd,L/L,D,L,D/D,L,D,LL l", "more than 10 light tiles"),
        ("volterra D,L,D,L/L,D,L,D/D,-l,Dd,L/L,D,L,D/D,L,D,L l", "a pawn stands on the hole b3"),
        (
            "volterra D,L,D,L/L,D,L,D/Dl,L,Dd,L/L,D,L,D/D,L,D,L l",
            "light pawn on a3 stands on a tower of the other colour",
        ),
        ("volterra D,L,D,L/Ll,D,L,D/D,Ll,Dd,L/L,D,L,D/D,L,D,L l", "two light pawns"),
        ("volterra D,L,D,L/L,D,L,D/D,L,Dd,L/L,D,L,D/D,L,D,L l", "the light pawn is missing"),
        ("volterra D,L,D,L/L,D,L,D/D,Ll,Dd,L/L,D,L,D l", "the board has 4 ranks"),
        ("volterra D,L,D/L,D,L,D/D,Ll,Dd,L/L,D,L,D/D,L,D,L l", "rank 5 has 3 cells"),
        ("volterra D,L,D,L/L,D,L,D/D,Ll,Dd,L/L,D,L,D/D,L,D,L x", "side field is 'x'"),
        ("volterra D,L,D,L/L,D,L,D/D,Ll,Dd,L/L,D,L,D/D,L,D,L l fast", "unknown option 'fast'"),
        ("volterra D,L,D,L/L,D,L,D/D,Ll,Dd,L/L,D,L,D/D,L,D,L", "missing the side field"),
        ("volterra D,L,D,L/L,D,L,D/D,Ll,Dd,L/L,,L,D/D,L,D,L l", "cell b2 is empty"),
        ("volterra-free L,-,-,-/-,-,-,-/-,-,-,-/-,-,-,-/-,-,-,- l", "but tiles are laid alternately"),
        ("volterra-free D,-,-,-/-,-,-,-/-,-,-,-/-,-,-,-/-,-,-,- d", "but tiles are laid alternately"),
        ("volterra-free D,D,-,-/-,-,-,-/-,-,-,-/-,-,-,-/-,-,-,- l", "0 light and 2 dark tiles"),
    ];
    for (text, needle) in cases {
        let err = text.parse::<AnyGame>().unwrap_err().to_string();
        assert!(err.contains(needle), "{text}: '{err}' lacks '{needle}'");
    }
}

#[test]
fn soak() {
    let mut rng = StdRng::seed_from_u64(17);
    let mut endings = std::collections::HashMap::new();
    for game in 0..1500 {
        let opts = Options { build_near_source: game % 4 == 3 };
        let mut g = if game % 2 == 0 { Volterra::initial(opts) } else { Volterra::free_setup(opts) };
        while g.outcome().is_none() {
            let moves = g.legal_moves();
            assert!(!moves.is_empty(), "no move but no outcome: {g}");
            let mv = moves[rng.random_range(0..moves.len())];
            let count = |g: &Volterra, s: Side| -> usize {
                (0..5u8)
                    .flat_map(|r| (0..4u8).map(move |f| tablero::rules::Cell::new(f, r)))
                    .map(|c| g.tower(c).unwrap().tiles().iter().filter(|t| **t == s).count())
                    .sum()
            };
            let before = [count(&g, Side::First), count(&g, Side::Second)];
            let mut pawns = [g.pawn(Side::First), g.pawn(Side::Second)];
            let pre = g.clone();
            let fx = g.play(&mv).unwrap();
            let after = [count(&g, Side::First), count(&g, Side::Second)];
            let removed = fx.iter().any(|e| matches!(e, Effect::Removed { .. }));
            let laid = fx.iter().any(|e| matches!(e, Effect::Placed { .. }));
            for s in 0..2 {
                assert!(after[s] <= before[s] + laid as usize, "a tile appeared: {mv} in {pre}");
                assert!(removed || laid || after[s] == before[s], "a tile vanished: {mv} in {pre}");
            }
            for e in &fx {
                match e {
                    Effect::PawnMoved { side, to, .. } => pawns[side.index()] = Some(*to),
                    Effect::Stacked { to, tiles, to_height, .. } => {
                        assert!(tiles.len() <= 2, "{mv}");
                        assert!(*to_height > 0, "tiles landed on a hole: {mv} in {pre}");
                        assert!(!pawns.contains(&Some(*to)), "tiles landed under a pawn: {mv} in {pre}");
                    }
                    _ => {}
                }
            }
        }
        *endings.entry(format!("{:?}", g.outcome().unwrap().reason)).or_insert(0) += 1;
    }
    eprintln!("volterra endings: {endings:?}");
    for want in ["TallerTowers", "EqualTowers"] {
        assert!(endings.contains_key(want), "no random game ended by {want}: {endings:?}");
    }
}

#[test]
fn the_searchs_successors_and_counts_agree_with_listing_and_playing_every_move() {
    // `successors` and `count_moves` play actions without describing them and remove cut-off
    // parts by bit masks; listing and playing each move (with its effects) must agree, in
    // order, in every position of random games of each rule set and of free setup.
    let starts = [
        Volterra::initial(Options::default()),
        Volterra::initial(Options { build_near_source: true }),
        Volterra::free_setup(Options::default()),
    ];
    let (mut positions, mut removals) = (0, 0);
    for (k, start) in starts.into_iter().enumerate() {
        for seed in 0..20u64 {
            let mut rng = StdRng::seed_from_u64(seed * 3 + k as u64);
            let mut g = start.clone();
            loop {
                let moves = g.legal_moves();
                assert_eq!(g.count_moves(), moves.len() as u64, "{g}");
                for (mv, played, effects) in check_successors(&g) {
                    if played.phase() == Phase::Play {
                        assert!(every_part_holds_a_pawn(&played), "{g}: {mv} leaves {played}");
                    }
                    // Each removal the effects name is a hole afterwards.
                    for e in &effects {
                        if let Effect::Removed { at } = e {
                            removals += 1;
                            assert!(played.tower(*at).unwrap().is_hole(), "{g}: {mv} removes {at}");
                        }
                    }
                }
                positions += 1;
                if moves.is_empty() {
                    assert!(g.outcome().is_some(), "{g}: no move and no result");
                    break;
                }
                assert!(g.outcome().is_none(), "{g}: moves left and a result");
                g.play_unchecked(&moves[rng.random_range(0..moves.len())]);
            }
        }
    }
    assert!(positions > 1000 && removals > 100, "{positions} positions, {removals} removals");
}

/// Whether every tower can be reached from a pawn through touching towers (corners count).
fn every_part_holds_a_pawn(g: &Volterra) -> bool {
    let cells: Vec<Cell> = (0..5).flat_map(|r| (0..4).map(move |f| Cell::new(f, r))).collect();
    let occupied = |c: Cell| g.tower(c).is_some_and(|t| !t.is_hole());
    let mut reached: Vec<Cell> = [Side::First, Side::Second].iter().filter_map(|&s| g.pawn(s)).collect();
    let mut i = 0;
    while i < reached.len() {
        let at = reached[i];
        for &c in &cells {
            let near = (c.file as i32 - at.file as i32).abs() <= 1 && (c.rank as i32 - at.rank as i32).abs() <= 1;
            if near && occupied(c) && !reached.contains(&c) {
                reached.push(c);
            }
        }
        i += 1;
    }
    cells.iter().all(|&c| !occupied(c) || reached.contains(&c))
}
