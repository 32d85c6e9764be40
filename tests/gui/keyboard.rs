//! Play by keyboard: a whole game of every variant played by key events alone (arrows to
//! the cells, Enter, the number keys for the list, Space to end a CTOR turn), each move the
//! one meant, the table's record right after every move.

use crate::table::{picking, session, settle};
use bevy::prelude::*;
use rand::{Rng, SeedableRng, rngs::StdRng};
use tablero::gui::keyboard::Cursor;
use tablero::gui::session::PlayerKind;
use tablero::rules::{AnyGame, AnyMove, Cell, Game, Variant};

/// One key pressed and released, as the input system would (a frame each).
fn key(app: &mut App, code: KeyCode) {
    app.world_mut().resource_mut::<ButtonInput<KeyCode>>().press(code);
    app.update();
    let mut input = app.world_mut().resource_mut::<ButtonInput<KeyCode>>();
    input.release(code);
    input.clear();
    app.update();
}

/// Arrows from the cursor to `to`, then Enter.
fn go_and_enter(app: &mut App, to: Cell) {
    if app.world().resource::<Cursor>().0.is_none() {
        key(app, KeyCode::ArrowRight); // places the cursor on a1
    }
    loop {
        let at = app.world().resource::<Cursor>().0.unwrap();
        let step = if at.file < to.file {
            KeyCode::ArrowRight
        } else if at.file > to.file {
            KeyCode::ArrowLeft
        } else if at.rank < to.rank {
            KeyCode::ArrowUp
        } else if at.rank > to.rank {
            KeyCode::ArrowDown
        } else {
            break;
        };
        key(app, step);
        assert_ne!(app.world().resource::<Cursor>().0, Some(at), "the cursor moves towards {to}");
    }
    key(app, KeyCode::Enter);
}

/// Answers the list, if it asks, with the number key of `part`.
fn answer_list(app: &mut App, part: &str) {
    let choices = picking(app).choices.clone();
    if let Some(i) = choices.iter().position(|(_, p)| p == part) {
        let digits = [KeyCode::Digit1, KeyCode::Digit2, KeyCode::Digit3, KeyCode::Digit4, KeyCode::Digit5];
        key(app, digits[i]);
    }
}

/// Plays `mv` by keys.
fn play_by_keys(app: &mut App, game: &AnyGame, mv: &AnyMove) {
    if mv.to_string() == "E" {
        key(app, KeyCode::Space);
        return;
    }
    if let Some(c) = game.click_cell(mv) {
        go_and_enter(app, c);
        return;
    }
    for (k, part) in mv.parts().iter().enumerate() {
        let (from, to) = game.move_paths(mv, k)[0];
        if picking(app).picker.selected != Some(from) {
            go_and_enter(app, from);
        }
        go_and_enter(app, to);
        answer_list(app, part);
        settle(app);
    }
}

#[test]
fn a_whole_game_of_every_variant_is_played_by_keys_alone() {
    for variant in Variant::ALL {
        let mut app = tablero::gui::headless_app(variant.initial(), [PlayerKind::Person; 2]);
        app.add_plugins(tablero::gui::keyboard::plugin);
        app.init_resource::<ButtonInput<KeyCode>>();
        app.world_mut().run_schedule(bevy::state::state::OnEnter(tablero::gui::Screen::Playing));
        app.update();
        let mut rng = StdRng::seed_from_u64(7);
        let mut played = 0;
        while session(&app).game.outcome().is_none() && played < 400 {
            let game = session(&app).game.clone();
            // CTOR's Landings are left out (a Landing is started with L, then clicked alike).
            let moves: Vec<AnyMove> = match &game {
                AnyGame::Ctor(g) => g.moves_without_landings().into_iter().map(AnyMove::Ctor).collect(),
                g => g.legal_moves(),
            };
            let mv = moves[rng.random_range(0..moves.len())].clone();
            let before = session(&app).history.len();
            play_by_keys(&mut app, &game, &mv);
            settle(&mut app);
            let s = session(&app);
            assert_eq!(s.history.len(), before + 1, "{variant}: {mv} by keys: {}", crate::table::notice(&app));
            assert_eq!(s.history[before].1, mv, "{variant}: the move meant");
            played += 1;
        }
        println!("{variant}: {played} moves by keys, {:?}", session(&app).game.outcome().map(|o| o.reason));
        assert!(session(&app).game.outcome().is_some() || played == 400, "{variant}");
    }
}

/// Tab walks the pieces that can move (Shift+Tab back), and once one is chosen, the squares
/// it can go to; the list's number keys are not camera views while the list is open.
#[test]
fn tab_walks_the_pieces_that_can_move_then_their_squares() {
    let mut app = tablero::gui::headless_app(Variant::Ordo.initial(), [PlayerKind::Person; 2]);
    app.add_plugins(tablero::gui::keyboard::plugin);
    app.init_resource::<ButtonInput<KeyCode>>();
    app.update();
    let game = session(&app).game.clone();
    let movable: std::collections::BTreeSet<Cell> =
        game.legal_moves().iter().flat_map(|m| m.paths(0)).map(|(f, _)| f).collect();
    let mut seen = Vec::new();
    for _ in 0..movable.len() {
        key(&mut app, KeyCode::Tab);
        seen.push(app.world().resource::<Cursor>().0.unwrap());
    }
    let walked: std::collections::BTreeSet<Cell> = seen.iter().copied().collect();
    assert_eq!(walked, movable, "every piece that can move, once");
    key(&mut app, KeyCode::Tab);
    assert_eq!(app.world().resource::<Cursor>().0, Some(seen[0]), "and round again");
    // Choose it: Tab now walks its squares.
    key(&mut app, KeyCode::Enter);
    let targets = picking(&app).picker.targets(&session(&app).game);
    assert!(!targets.is_empty());
    key(&mut app, KeyCode::Tab);
    assert!(targets.contains(&app.world().resource::<Cursor>().0.unwrap()));
}
