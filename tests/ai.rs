//! The computer opponent: a level plays the same move for the same seed, decides CTOR from its
//! own team's view only, and always answers with a legal move.

use tablero::ai::{self, LEVELS};
use tablero::rules::ctor::{Ctor, Options, Teams};
use tablero::rules::{AnyGame, Game, Side, Variant};

#[test]
fn a_level_is_deterministic_for_a_seed_and_plays_legal_moves() {
    let easy = LEVELS[0];
    for variant in Variant::ALL {
        let game = variant.initial();
        let a = ai::choose(&game, easy, 42).unwrap_or_else(|| panic!("{variant}: no move"));
        let b = ai::choose(&game, easy, 42).unwrap();
        assert_eq!(a, b, "{variant}");
        assert!(game.legal_moves().contains(&a), "{variant}: {a}");
    }
}

#[test]
fn ctor_decides_without_the_opponents_secret_squares() {
    // The same position; only white's secret squares differ. Black's choice must not change.
    let base = "ctor8 BB....../.B....W./......../...WW.../...B..../......../......../........ b 5 P2M2L1 1v1 0";
    for seed in 0..4 {
        let mut moves = Vec::new();
        for secrets in [[10, 11, 12, 13, 14], [40, 41, 42, 43, 44], [3, 4, 5, 6, 7]] {
            let mut g: Ctor = base.parse().unwrap();
            g.set_secrets(Side::First, &[60, 61, 62, 63, 64]).unwrap();
            g.set_secrets(Side::Second, &secrets).unwrap();
            moves.push(ai::choose(&AnyGame::Ctor(g), LEVELS[1], seed).unwrap().to_string());
        }
        assert!(moves.iter().all(|m| *m == moves[0]), "seed {seed}: {moves:?}");
    }
    // And from the empty start with a sand-glass and teams.
    let g =
        Ctor::new(10, Teams { sizes: [2, 2], members: [vec![], vec![]] }, Options { landing: None, timer: Some(10) });
    assert!(ai::choose(&AnyGame::Ctor(g), LEVELS[0], 1).is_some());
}

#[test]
fn a_finished_game_has_no_move() {
    let won: AnyGame = "ordo ...W....../..B......./........../........../........../........../........../.......... b"
        .parse()
        .unwrap();
    assert!(won.outcome().is_some());
    assert!(ai::choose(&won, LEVELS[3], 1).is_none());
}
