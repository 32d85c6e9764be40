//! Choosing moves by clicks (the logic behind the 3D table, without Bevy): every legal move
//! can be reached, selection shows exactly the rules' destinations, bad clicks are refused.
mod common;

use tablero::rules::{AnyGame, AnyMove, Cell, Game};
use tablero::table::pick::{Pick, Picker};

/// Plays a move through clicks: for each part, its front stone, then that stone's landing square.
fn click_through(game: &AnyGame, mv: &AnyMove) -> Pick {
    let mut picker = Picker::default();
    let parts = mv.parts();
    for (k, part) in parts.iter().enumerate() {
        let (from, to) = mv.paths(k)[0];
        if picker.selected != Some(from) {
            assert_eq!(picker.click(game, from), Pick::Selected, "{mv}: selecting {from}");
        }
        match picker.click(game, to) {
            Pick::Choose(options) => {
                assert!(options.iter().any(|(_, p)| p == part), "{mv}: {part} not offered in {options:?}");
                assert!(options.len() >= 2);
                match picker.choose_part(game, part) {
                    Pick::NextPart if k + 1 < parts.len() => {}
                    last => return last,
                }
            }
            Pick::NextPart if k + 1 < parts.len() => {}
            last => return last,
        }
    }
    panic!("{mv}: no move played")
}

#[test]
fn every_legal_move_can_be_chosen_by_clicks() {
    for name in ["ordo_classic.tsv", "ordo_x.tsv", "crossings.tsv", "volterra.tsv"] {
        for row in common::fixture(name).into_iter().step_by(7) {
            let game: AnyGame = row.position.parse().unwrap();
            let moves = game.legal_moves();
            for mv in moves.iter().step_by((moves.len() / 40).max(1)) {
                assert_eq!(click_through(&game, mv), Pick::Play(mv.clone()), "{game}");
            }
        }
    }
}

#[test]
fn selection_shows_exactly_the_rules_destinations() {
    let game = tablero::rules::Variant::Ordo.initial();
    let mut p = Picker::default();
    let c2: Cell = "c2".parse().unwrap();
    assert_eq!(p.click(&game, c2), Pick::Selected);
    let mut expected: Vec<Cell> = game
        .legal_moves()
        .iter()
        .flat_map(|m| m.paths(0))
        .filter(|(f, t)| *f == c2 && game.piece_at(*t).is_none())
        .map(|(_, t)| t)
        .collect();
    expected.sort();
    expected.dedup();
    assert_eq!(p.targets(&game).into_iter().collect::<Vec<_>>(), expected);
    assert!(p.targets(&game).contains(&"c4".parse().unwrap()), "the ordo c2-d2 can reach c4");
}

#[test]
fn bad_clicks_are_refused_with_a_reason_and_change_nothing() {
    let game = tablero::rules::Variant::Ordo.initial();
    let mut p = Picker::default();
    let before = p.clone();
    let Pick::Refused(why) = p.click(&game, "a7".parse().unwrap()) else { panic!() };
    assert!(why.contains("blue piece"), "{why}");
    let Pick::Refused(why) = p.click(&game, "e5".parse().unwrap()) else { panic!() };
    assert!(why.contains("select one of the white pieces"), "{why}");
    assert_eq!(p, before);
    p.click(&game, "e3".parse().unwrap());
    let Pick::Refused(why) = p.click(&game, "e6".parse().unwrap()) else { panic!() };
    assert!(why.contains("e3 to e6"), "{why}");
    // Ordo X: a sideways part, then the forward part from the new square.
    let x: AnyGame = "ordo-x ........../......B.../........../........../........../....W...../........../.......... w"
        .parse()
        .unwrap();
    let mut p = Picker::default();
    p.click(&x, "e3".parse().unwrap());
    assert_eq!(p.click(&x, "a3".parse().unwrap()), Pick::NextPart);
    assert_eq!(p.shown(&x).piece_at("a3".parse().unwrap()), Some(tablero::rules::Side::First));
    assert_eq!(p.click(&x, "a3".parse().unwrap()), Pick::Selected);
    let Pick::Play(mv) = p.click(&x, "a5".parse().unwrap()) else { panic!() };
    assert_eq!(mv.to_string(), "e3-a3,a3-a5");
}

#[test]
fn volterra_setup_and_refusals() {
    let mut game = tablero::rules::Variant::VolterraFree.initial();
    let mut p = Picker::default();
    // Free setup: one click lays a tile, later one click puts the pawn.
    let Pick::Play(mv) = p.click(&game, "b2".parse().unwrap()) else { panic!() };
    assert_eq!(mv.to_string(), "+b2");
    game.play(&mv).unwrap();
    // A tower without a free side says so.
    let v: AnyGame = "volterra D,L,D,L/L,D,L,D/D,Ll,Dd,L/L,D,L,D/D,L,D,L l".parse().unwrap();
    let mut p = Picker::default();
    let Pick::Refused(why) = p.click(&v, "c2".parse().unwrap()) else { panic!() };
    assert!(why.contains("no free side"), "{why}");
    let Pick::Refused(why) = p.click(&v, "c4".parse().unwrap()) else { panic!() };
    assert!(why.contains("no free side"), "{why}");
}

/// CTOR: with nothing left but the end of the turn, every click on the field says so, and
/// `only_end_left` is exact: it holds exactly when `E` is the only legal operation.
#[test]
fn a_ctor_turn_with_only_its_end_left_says_so() {
    use tablero::rules::ctor::Ctor;
    let start = "ctor8 ......../......../......../......../......../......../......../........ b 1 P1M0L0 1v1 0";
    let game: AnyGame = start.parse().unwrap();
    let AnyGame::Ctor(g) = &game else { panic!() };
    assert!(!g.only_end_left());
    let mut after = game.clone();
    after.play(&after.parse_move("P28").unwrap()).unwrap();
    let AnyGame::Ctor(g) = &after else { panic!() };
    assert!(g.only_end_left());
    let mut picker = Picker::default();
    for cell in [Cell::new(3, 4), Cell::new(0, 0), Cell::new(7, 7)] {
        match picker.click(&after, cell) {
            Pick::Refused(why) => assert!(why.contains("End turn"), "{why}"),
            other => panic!("{other:?}"),
        }
    }
    // Over many random positions, the test agrees with the list of moves.
    let mut rng = <rand::rngs::StdRng as rand::SeedableRng>::seed_from_u64(3);
    let mut g: Ctor = start.parse().unwrap();
    for _ in 0..400 {
        if g.outcome().is_some() {
            break;
        }
        let listed = g.legal_moves();
        assert_eq!(g.only_end_left(), listed.len() == 1, "{g}");
        let mv = g.random_move(&mut rng).unwrap();
        g.play(&mv).unwrap();
    }
}
