//! Play by keyboard: a whole game of every variant, chosen in the menu and played by key
//! events alone (Tab and Enter over the menu's buttons; arrows to the cells, Enter, the
//! number keys for the list, L for a CTOR Landing, Space to end a CTOR turn), each move the
//! one meant, the table's record right after every move.

use crate::table::{picking, session, settle};
use bevy::prelude::*;
use rand::{Rng, SeedableRng, rngs::StdRng};
use tablero::gui::frame::session::PlayerKind;
use tablero::gui::screens::keyboard::{ButtonFocus, Cursor};
use tablero::rules::{AnyGame, AnyMove, Cell, Game, Variant};

/// One key pressed and released, as the input system would (a frame each).
pub(crate) fn key(app: &mut App, code: KeyCode) {
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
    if let Some((a, b, d)) = game.landing_cells(mv) {
        key(app, KeyCode::KeyL);
        for c in [a, b, d] {
            go_and_enter(app, c);
        }
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

/// The first words on the button the keyboard has reached in the menu.
fn focused(app: &mut App) -> Option<String> {
    let e = app.world().resource::<ButtonFocus>().0?;
    // Its first words in the tree's order (a card's title, a button's words).
    let world = app.world_mut();
    let mut stack = vec![e];
    while let Some(x) = stack.pop() {
        if let Some(t) = world.get::<Text>(x) {
            return Some(t.0.clone());
        }
        if let Some(kids) = world.get::<Children>(x) {
            stack.extend(kids.iter().rev());
        }
    }
    Some(String::new())
}

/// Tab (Shift+Tab when `back`) until the button reached passes `want`, then Enter.
fn tab_to_and_press(app: &mut App, back: bool, what: &str, want: impl Fn(&mut App) -> bool) {
    for _ in 0..80 {
        if back {
            app.world_mut().resource_mut::<ButtonInput<KeyCode>>().press(KeyCode::ShiftLeft);
        }
        key(app, KeyCode::Tab);
        app.world_mut().resource_mut::<ButtonInput<KeyCode>>().release(KeyCode::ShiftLeft);
        if want(app) {
            key(app, KeyCode::Enter);
            return;
        }
    }
    panic!("Tab never reached {what}");
}

#[test]
fn a_whole_game_of_every_variant_is_chosen_and_played_by_keys_alone() {
    use tablero::gui::screens::choice::MenuChoice;
    use tablero::gui::screens::menu::PlayerButton;
    use tablero::rules::Side;
    let mut landings = 0;
    for variant in Variant::ALL {
        let dir = crate::saving::fresh_dir(&format!("keys-{variant}"));
        let mut app = tablero::gui::headless_menu_app(dir.clone());
        app.init_resource::<ButtonInput<KeyCode>>();
        app.update();
        // The menu: the game's card, a person for the second side, Start.
        tab_to_and_press(&mut app, false, variant.title(), |app| focused(app).as_deref() == Some(variant.title()));
        assert_eq!(app.world().resource::<MenuChoice>().variant(), variant, "Enter chose the card");
        tab_to_and_press(&mut app, false, "the second side's Person", |app| {
            let e = app.world().resource::<ButtonFocus>().0;
            e.and_then(|e| app.world().get::<PlayerButton>(e).copied())
                == Some(PlayerButton { side: Side::Second, kind: PlayerKind::Person })
        });
        assert_eq!(app.world().resource::<MenuChoice>().players, [PlayerKind::Person; 2]);
        tab_to_and_press(&mut app, true, "Start", |app| focused(app).as_deref() == Some("Start"));
        app.update();
        assert_eq!(*app.world().resource::<State<tablero::gui::Screen>>().get(), tablero::gui::Screen::Playing);
        assert_eq!(session(&app).game.variant(), variant, "{variant}: the game chosen by keys");
        app.update();
        let mut rng = StdRng::seed_from_u64(7);
        let mut played = 0;
        while session(&app).game.outcome().is_none() && played < 400 {
            let game = session(&app).game.clone();
            // CTOR: now and then a Landing (there can be tens of thousands to choose from).
            let moves: Vec<AnyMove> = match &game {
                AnyGame::Ctor(g) => match g.random_landing(&mut rng).filter(|_| rng.random_bool(0.15)) {
                    Some(l) => vec![AnyMove::Ctor(l)],
                    None => g.moves_without_landings().into_iter().map(AnyMove::Ctor).collect(),
                },
                g => g.legal_moves(),
            };
            let mv = moves[rng.random_range(0..moves.len())].clone();
            landings += game.landing_cells(&mv).is_some() as usize;
            let before = session(&app).history.len();
            play_by_keys(&mut app, &game, &mv);
            settle(&mut app);
            let s = session(&app);
            assert_eq!(s.history.len(), before + 1, "{variant}: {mv} by keys: {}", crate::table::notice(&app));
            assert_eq!(s.history[before].1, mv, "{variant}: the move meant");
            played += 1;
        }
        println!("{variant}: {played} moves by keys, {:?}", session(&app).game.outcome().map(|o| o.reason));
        // Every move was played by keys (checked above, move by move); a game reaches its end
        // within the 400 moves, except CTOR's, whose random Puts can fill a field slowly.
        assert!(played > 0, "{variant}: no move by keys");
        if !matches!(variant, Variant::Ctor8 | Variant::Ctor10) {
            assert!(session(&app).game.outcome().is_some(), "{variant}: not over after {played} moves by keys");
        }
        let _ = std::fs::remove_dir_all(dir);
    }
    assert!(landings >= 2, "CTOR Landings were played by keys: {landings}");
}

/// In the menu, and in the settings panel while it is open, Tab walks only the buttons shown
/// (a game's options only while it is chosen; only the panel's while it is open), round again
/// after the last; Enter presses the one reached, which wears the outline.
#[test]
fn tab_walks_the_menu_buttons_shown_and_enter_presses_them() {
    use tablero::gui::screens::prefs::{Setting, SettingsOpen};
    let dir = crate::saving::fresh_dir("keys-menu");
    let mut app = tablero::gui::headless_menu_app(dir.clone());
    app.init_resource::<ButtonInput<KeyCode>>();
    app.update();
    let walk = |app: &mut App| -> Vec<String> {
        let mut seen = Vec::new();
        for _ in 0..100 {
            key(app, KeyCode::Tab);
            let w = focused(app).unwrap();
            if seen.first() == Some(&w) {
                break;
            }
            seen.push(w);
        }
        seen
    };
    let ordo = walk(&mut app);
    assert_eq!(ordo.first().map(String::as_str), Some("Ordo Classic"), "the first card first");
    assert!(ordo.iter().any(|w| w == "Start") && ordo.iter().any(|w| w == "Settings (S)"), "{ordo:?}");
    assert!(!ordo.iter().any(|w| w.starts_with("Teams")), "CTOR's options are not shown for Ordo: {ordo:?}");
    let e = app.world().resource::<ButtonFocus>().0.unwrap();
    assert!(app.world().get::<Outline>(e).is_some(), "the button reached wears the outline");
    // Choose CTOR 8 x 8 by keys: its options are walked now.
    tab_to_and_press(&mut app, false, "CTOR", |app| focused(app).as_deref() == Some("CTOR 8x8"));
    app.update();
    let ctor = walk(&mut app);
    assert!(ctor.iter().any(|w| w.starts_with("Teams")), "{ctor:?}");
    // The settings panel: only its buttons, and Enter changes a setting.
    app.insert_resource(SettingsOpen(true));
    app.update();
    let panel = walk(&mut app);
    assert!(panel.iter().all(|w| !w.starts_with("Start")), "{panel:?}");
    assert!(panel.iter().any(|w| w.starts_with("Reduced motion")), "{panel:?}");
    tab_to_and_press(&mut app, false, "Reduced motion", |app| {
        let e = app.world().resource::<ButtonFocus>().0;
        e.and_then(|e| app.world().get::<Setting>(e).copied()) == Some(Setting::ReducedMotion)
    });
    assert!(app.world().resource::<tablero::settings::Settings>().reduced_motion, "Enter pressed it");
    let _ = std::fs::remove_dir_all(dir);
}

/// Tab walks the pieces that can move (Shift+Tab back), and once one is chosen, the squares
/// it can go to; the list's number keys are not camera views while the list is open.
#[test]
fn tab_walks_the_pieces_that_can_move_then_their_squares() {
    let mut app = tablero::gui::headless_app(Variant::Ordo.initial(), [PlayerKind::Person; 2]);
    app.add_plugins(tablero::gui::screens::keyboard::plugin);
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

/// One keymap: no chord means two things (besides the number keys, which choose among the moves
/// offered while a list is open and turn the camera otherwise, and Enter and Space, which press
/// the button in focus), every button at the table that has a key shows the keymap's words for
/// it, and a key and its button do the same.
#[test]
fn one_keymap_gives_every_key_one_action_and_the_buttons_show_it() {
    use std::collections::HashMap;
    use tablero::gui::frame::keymap::{Action, KEYMAP, keys_of, shown};
    let mut seen: HashMap<String, Vec<Action>> = HashMap::new();
    for (action, chords) in KEYMAP {
        assert!(!chords.is_empty(), "{action:?} has a key");
        for c in *chords {
            seen.entry(format!("{:?} {:?} {:?}", c.key, c.ctrl, c.shift)).or_default().push(*action);
        }
    }
    for (chord, actions) in &seen {
        let shared_by_design =
            actions.iter().all(|a| matches!(a, Action::ViewFirst | Action::ViewSecond | Action::Choice(_)));
        assert!(actions.len() == 1 || shared_by_design, "{chord} means {actions:?}");
    }
    assert_eq!(keys_of(Action::Undo), "U or Ctrl+Z");
    assert_eq!(shown(Action::Labels, 1), "N");
    let help = tablero::gui::frame::keymap::help();
    assert!(help.lines().any(|l| l.starts_with("F8") && l.contains("broadcast window")), "{help}");

    // The table's buttons show the keymap's keys.
    let mut app = tablero::gui::headless_app(Variant::Ctor8.initial(), crate::table::PEOPLE);
    app.init_resource::<ButtonInput<KeyCode>>();
    app.add_plugins((tablero::gui::screens::hud::plugin, tablero::gui::frame::input::plugin));
    app.add_message::<tablero::gui::look::camera::View>();
    // The panel is spawned on entering the table: leave it and come back.
    app.world_mut().resource_mut::<NextState<tablero::gui::Screen>>().set(tablero::gui::Screen::Menu);
    app.update();
    app.world_mut().resource_mut::<NextState<tablero::gui::Screen>>().set(tablero::gui::Screen::Playing);
    app.update();
    app.update();
    let world = app.world_mut();
    let labels: Vec<String> = world.query::<&Text>().iter(world).map(|t| t.0.clone()).collect();
    // The controls along the bottom: few, each with its key.
    for (words, action, i) in [
        ("Undo", Action::Undo, 0),
        ("Hint", Action::Hint, 0),
        ("View", Action::ViewNext, 0),
        ("End turn", Action::Space, 0),
        ("Rules", Action::Rules, 0),
        ("Menu", Action::Actions, 0),
    ] {
        let want = format!("{words} ({})", shown(action, i));
        assert!(labels.contains(&want), "a button {want:?} among {labels:?}");
    }
    // The table's menu: each action's words beside its key, as the keymap says.
    let rows = menu_rows(&mut app);
    for (words, action, i) in [
        ("Evaluation bar", Action::Evaluation, 0),
        ("Square numbers", Action::Labels, 1),
        ("My team's secret squares", Action::MySecrets, 0),
        ("New game", Action::NewGame, 0),
        ("Copy the position", Action::CopyPosition, 0),
    ] {
        let row = rows.iter().find(|(_, w, _)| w == words).unwrap_or_else(|| panic!("{words} in the menu: {rows:?}"));
        assert_eq!(row.2, shown(action, i), "{words}'s key");
    }
    // E and the *Evaluation* button do the same.
    let shown_now = |app: &App| app.world().resource::<tablero::gui::stream::eval::Evaluation>().shown;
    let before = shown_now(&app);
    key(&mut app, KeyCode::KeyE);
    assert_ne!(shown_now(&app), before, "E shows or hides the bar");
    let button = menu_rows(&mut app).into_iter().find(|(_, w, _)| w == "Evaluation bar").unwrap().0;
    app.world_mut().trigger(tablero::gui::screens::keyboard::click_on(button));
    app.update();
    assert_eq!(shown_now(&app), before, "the button shows or hides it back");
}

/// At the table Tab goes on from the last piece to the controls along the bottom (each wearing
/// the outline when reached, Enter pressing it), and from the last control back to the pieces;
/// the table's menu (K) is walked by Tab alone while it is open, and Enter presses its action.
#[test]
fn tab_reaches_the_tables_controls_and_its_menu() {
    use tablero::gui::screens::hud::ActionsOpen;
    let mut app = tablero::gui::headless_app(Variant::Ordo.initial(), [PlayerKind::Person; 2]);
    app.init_resource::<ButtonInput<KeyCode>>();
    app.add_plugins((
        tablero::gui::screens::hud::plugin,
        tablero::gui::frame::input::plugin,
        tablero::gui::screens::keyboard::plugin,
    ));
    app.add_message::<tablero::gui::look::camera::View>();
    app.world_mut().resource_mut::<NextState<tablero::gui::Screen>>().set(tablero::gui::Screen::Menu);
    app.update();
    app.world_mut().resource_mut::<NextState<tablero::gui::Screen>>().set(tablero::gui::Screen::Playing);
    app.update();
    app.update();
    let game = session(&app).game.clone();
    let movable: std::collections::BTreeSet<Cell> =
        game.legal_moves().iter().flat_map(|m| m.paths(0)).map(|(f, _)| f).collect();
    for _ in 0..movable.len() {
        key(&mut app, KeyCode::Tab);
        assert!(app.world().resource::<Cursor>().0.is_some(), "the pieces first");
    }
    // Past the last piece: the controls, in order, each with the outline.
    let mut controls = Vec::new();
    for _ in 0..6 {
        key(&mut app, KeyCode::Tab);
        let Some(words) = focused(&mut app) else { break };
        let e = app.world().resource::<ButtonFocus>().0.unwrap();
        assert!(app.world().get::<Outline>(e).is_some(), "{words} wears the outline");
        assert_eq!(app.world().resource::<Cursor>().0, None, "the board's cursor is put away");
        controls.push(words);
    }
    assert_eq!(controls, ["Undo (U)", "Hint (I)", "View (V)", "Rules (F1)", "Menu (K)"], "at most six controls");
    // Past the last control: back to the first piece.
    key(&mut app, KeyCode::Tab);
    assert_eq!(app.world().resource::<ButtonFocus>().0, None);
    assert!(app.world().resource::<Cursor>().0.is_some_and(|c| movable.contains(&c)), "back on a piece");
    // Shift+Tab from the first piece: the last control, Menu; Enter opens the table's menu.
    while app.world().resource::<ButtonFocus>().0.is_none() {
        app.world_mut().resource_mut::<ButtonInput<KeyCode>>().press(KeyCode::ShiftLeft);
        key(&mut app, KeyCode::Tab);
        app.world_mut().resource_mut::<ButtonInput<KeyCode>>().release(KeyCode::ShiftLeft);
    }
    assert_eq!(focused(&mut app).as_deref(), Some("Menu (K)"));
    key(&mut app, KeyCode::Enter);
    assert!(app.world().resource::<ActionsOpen>().0, "Enter on Menu opened it");
    // Its actions by Tab: Evaluation bar reached and pressed shows the bar, and closes the menu.
    let before = app.world().resource::<tablero::gui::stream::eval::Evaluation>().shown;
    tab_to_and_press(&mut app, false, "Evaluation bar", |app| focused(app).as_deref() == Some("Evaluation bar"));
    assert_ne!(app.world().resource::<tablero::gui::stream::eval::Evaluation>().shown, before, "pressed");
    assert!(!app.world().resource::<ActionsOpen>().0, "an action closes the menu");
    // K opens it again, Escape closes it.
    key(&mut app, KeyCode::KeyK);
    assert!(app.world().resource::<ActionsOpen>().0);
    key(&mut app, KeyCode::Escape);
    assert!(!app.world().resource::<ActionsOpen>().0);
}

/// The menu's level control: Computer brings back the level last chosen for the side, and
/// the levels show only while the computer plays it.
#[test]
fn the_menus_level_control_follows_person_and_computer() {
    use tablero::gui::screens::choice::MenuChoice;
    use tablero::gui::screens::menu::{ComputerButton, PlayerButton};
    use tablero::rules::Side;
    let dir = crate::saving::fresh_dir("keys-levels");
    let mut app = tablero::gui::headless_menu_app(dir.clone());
    let find = |app: &mut App, f: &dyn Fn(Option<&PlayerButton>, Option<&ComputerButton>) -> bool| -> Entity {
        let world = app.world_mut();
        let mut q = world.query::<(Entity, Option<&PlayerButton>, Option<&ComputerButton>)>();
        q.iter(world).find(|(_, p, c)| f(*p, *c)).map(|(e, _, _)| e).expect("the segment")
    };
    let hard = find(&mut app, &|p, _| p == Some(&PlayerButton { side: Side::Second, kind: PlayerKind::Ai(2) }));
    crate::table::click_entity(&mut app, hard);
    app.update();
    let person = find(&mut app, &|p, _| p == Some(&PlayerButton { side: Side::Second, kind: PlayerKind::Person }));
    crate::table::click_entity(&mut app, person);
    app.update();
    assert_eq!(app.world().resource::<MenuChoice>().players[1], PlayerKind::Person);
    // The levels are hidden while a person plays the side.
    let level_shown = |app: &mut App| {
        let world = app.world_mut();
        let parent = world.get::<ChildOf>(hard).unwrap().parent();
        world.get::<Node>(parent).unwrap().display != Display::None
    };
    assert!(!level_shown(&mut app));
    let computer = find(&mut app, &|_, c| c == Some(&ComputerButton(Side::Second)));
    crate::table::click_entity(&mut app, computer);
    app.update();
    assert_eq!(app.world().resource::<MenuChoice>().players[1], PlayerKind::Ai(2), "the level last chosen");
    assert!(level_shown(&mut app));
    let _ = std::fs::remove_dir_all(dir);
}

/// The rows of the table's menu: the button, its words, its key.
fn menu_rows(app: &mut App) -> Vec<(Entity, String, String)> {
    let world = app.world_mut();
    let mut rows = Vec::new();
    let buttons: Vec<(Entity, Vec<Entity>)> = world
        .query_filtered::<(Entity, &Children), With<Button>>()
        .iter(world)
        .map(|(e, kids)| (e, kids.iter().collect()))
        .collect();
    for (e, kids) in buttons {
        let words: Vec<String> = kids.iter().filter_map(|k| world.get::<Text>(*k).map(|t| t.0.clone())).collect();
        if let [what, key] = words.as_slice() {
            rows.push((e, what.clone(), key.clone()));
        }
    }
    rows
}

/// docs/playing.md lists every key as the keymap (and `tablero keys`) says.
#[test]
fn the_playing_page_lists_every_key_as_the_keymap_says() {
    let page = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/docs/playing.md")).unwrap();
    let start = page.find("<!-- keys: the output of `tablero keys` -->").expect("the list of keys on the page");
    let body = page[start..]
        .split("```text\n")
        .nth(1)
        .and_then(|b| b.split("\n```").next())
        .expect("the keys in a code block");
    assert_eq!(body, tablero::gui::frame::keymap::help(), "docs/playing.md: run `tablero keys` and paste its list");
}
