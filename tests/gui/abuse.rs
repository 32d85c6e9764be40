//! The table under abuse: thousands of random clicks, keys' commands, undos and redos, menu
//! buttons, pastes, replays and timeline jumps, during animations, while the computer thinks
//! and during CTOR's secret-square setup, in every game the menu offers. After every step:
//! no panic, the scene matches the rules whenever the pieces rest, and the record on disk
//! loads and is the game at the table.

use crate::saving::{buttons, fresh_dir, screen};
use crate::table::records::in_step;
use crate::table::{click, click_entity, mode, moving, notice, picking, session, shown};
use bevy::prelude::*;
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use tablero::gui::Mode;
use tablero::gui::Screen;
use tablero::gui::frame::animate::Speed;
use tablero::gui::frame::session::SecretCommand;
use tablero::gui::frame::session::{Command, PlayerKind};
use tablero::gui::screens::choice::MenuChoice;
use tablero::record::Record;
use tablero::rules::Cell;

/// Steps per game of the menu.
const STEPS: usize = 400;

/// The menu's game cards, in its order, each with the option buttons pressed for it.
const GAMES: [(&str, &[&str]); 9] = [
    ("Ordo Classic", &[]),
    ("Ordo X", &[]),
    ("Crossings", &[]),
    ("Crossings", &["Exact phalanx"]),
    ("Volterra", &[]),
    ("Volterra", &["Build near the source"]),
    ("Volterra, free setup", &[]),
    ("CTOR 8x8", &["Secret squares"]),
    ("CTOR 10x10", &["Sand-glass"]),
];

fn press(app: &mut App, label: &str) {
    let b = buttons(app).into_iter().find(|(_, t)| t == label).unwrap_or_else(|| panic!("no button {label}")).0;
    click_entity(app, b);
}

/// Whether a node and every parent are in the layout.
fn laid_out(app: &App, mut e: Entity) -> bool {
    loop {
        if app.world().get::<Node>(e).is_some_and(|n| n.display == Display::None) {
            return false;
        }
        match app.world().get::<ChildOf>(e) {
            Some(p) => e = p.parent(),
            None => return true,
        }
    }
}

/// What must hold after every step.
fn check(app: &mut App, what: &str) {
    if screen(app) != Screen::Playing {
        return;
    }
    let resyncs = app.world().resource::<tablero::gui::frame::animate::Resyncs>().0;
    assert_eq!(resyncs, 0, "after {what}: the scene had to be rebuilt");
    if !moving(app) {
        diagnose(app, what);
        in_step(app);
    }
    let replaying = mode(app) == Mode::Replay;
    let s = session(app);
    if replaying {
        assert!(s.record_path.is_none(), "a replay writes nothing");
        return;
    }
    let path = s.record_path.clone().unwrap_or_else(|| panic!("after {what}: a live game without a file"));
    let text = std::fs::read_to_string(&path).unwrap();
    let rec = Record::from_json(&text).unwrap_or_else(|e| panic!("after {what}: {e}"));
    let positions = rec.replay().unwrap_or_else(|e| panic!("after {what}: {e}"));
    assert_eq!(rec.moves.len(), s.history.len(), "after {what}");
    assert_eq!(positions.last().unwrap().to_string(), s.game.to_string(), "after {what}: the record is the game");
    assert!(s.save_error.is_none(), "{:?}", s.save_error);
}

/// One random action; returns what it was, for messages.
fn act(app: &mut App, rng: &mut StdRng) -> String {
    if screen(app) == Screen::Menu {
        // Any button of the menu: games, players, options, resume, replays, Start (not the
        // live feed's switch, which would serve on this machine's port 7878, nor *Watch a
        // game*, which follows whatever game's address another test of this binary left on the
        // clipboard). Only those shown: a page or a level row out of the layout cannot be pressed.
        let all: Vec<_> = buttons(app)
            .into_iter()
            .filter(|(b, l)| !l.starts_with("Live feed") && !l.starts_with("Watch a game") && laid_out(app, *b))
            .collect();
        let (b, label) = all[rng.random_range(0..all.len())].clone();
        click_entity(app, b);
        return format!("menu button '{label}'");
    }
    let replaying = mode(app) == Mode::Replay;
    let choices = picking(app).choices.clone();
    let s = session(app);
    let (files, ranks) = s.game.board_size();
    let json = s.record.to_json();
    let moves_in_record = s.history.len() + s.redo.len();
    let what = match rng.random_range(0..100) {
        // A replay is left again soon, as a new game (play on) or by opening another game.
        0..=9 if replaying => Command::PlayOn,
        0..=44 => {
            let cell = Cell::new(rng.random_range(0..files as u8), rng.random_range(0..ranks as u8));
            click(app, cell);
            return format!("click on {cell}");
        }
        45..=49 => Command::Undo,
        50..=53 => Command::Redo,
        54..=55 => Command::Cancel,
        56..=59 => Command::EndTurn,
        60..=61 => Command::Landing,
        62..=65 if !choices.is_empty() && rng.random_range(0..3) > 0 => {
            Command::Choose(choices[rng.random_range(0..choices.len())].1.clone())
        }
        62..=65 => Command::Choose("x9-y0".into()),
        66 => Command::Hint,
        67 => Command::Open(json),
        69 => Command::Open("ordo not a position\n".into()),
        70..=72 => Command::Jump(rng.random_range(0..=moves_in_record + 2)),
        73..=74 => Command::StepForward,
        75 => Command::TogglePlay,
        76 => Command::Pace,
        77 => Command::PlayOn,
        78 => Command::NewGame,
        80..=84 => {
            let c = [SecretCommand::Proceed, SecretCommand::Done, SecretCommand::ShowMine][rng.random_range(0..3)];
            app.world_mut().write_message(c);
            app.update();
            return format!("secret command {c:?}");
        }
        85..=86 => {
            let speed = [Speed::Normal, Speed::Fast, Speed::Instant][rng.random_range(0..3)];
            app.insert_resource(speed);
            app.update();
            return format!("speed {speed:?}");
        }
        _ => {
            let n = rng.random_range(1..12);
            for _ in 0..n {
                app.update();
            }
            return format!("{n} frames");
        }
    };
    let text = format!("{what:?}");
    app.world_mut().write_message(what);
    app.update();
    text
}

/// Steps that ended in each situation.
#[derive(Debug, Default)]
struct Seen {
    moves: usize,
    replaying: usize,
    blocked: usize,
    thinking: usize,
    moving: usize,
    menu: usize,
}

#[test]
fn thousands_of_random_actions_in_every_game_leave_the_table_and_its_record_right() {
    let dir = fresh_dir("abuse");
    let mut app = tablero::gui::headless_menu_app(dir.clone());
    let mut rng = StdRng::seed_from_u64(14);
    let kinds = [PlayerKind::Person, PlayerKind::Person, PlayerKind::Random, PlayerKind::Ai(0)];
    let mut steps = 0;
    let mut seen = Seen::default();
    for (i, game) in GAMES.iter().enumerate() {
        if screen(&app) == Screen::Playing {
            app.world_mut().write_message(Command::NewGame);
            app.update();
            app.update();
        }
        // The game's own card and options as a player presses them (an option left on by
        // the game before is pressed off first), and the players.
        press(&mut app, game.0);
        app.update();
        {
            let mut choice = app.world_mut().resource_mut::<MenuChoice>();
            *choice = MenuChoice { game: choice.game, seed: choice.seed, ..MenuChoice::default() };
        }
        app.update();
        for option in game.1 {
            let b = buttons(&mut app).into_iter().find(|(_, t)| t.starts_with(option)).expect("the option's button").0;
            click_entity(&mut app, b);
            app.update();
        }
        {
            let mut choice = app.world_mut().resource_mut::<MenuChoice>();
            choice.players = [0, 1].map(|_| kinds[rng.random_range(0..kinds.len())]);
            if i == 7 {
                // A person's team chooses its secret squares behind the hand-over screen.
                choice.players[0] = PlayerKind::Person;
            }
            assert_eq!((choice.exact, choice.near_source, choice.secrets), (i == 3, i == 5, i == 7));
            assert_eq!(choice.timer, (i == 8).then_some(5));
        }
        press(&mut app, "Start");
        app.update();
        assert_eq!(screen(&app), Screen::Playing);
        for _ in 0..STEPS {
            let before = (screen(&app) == Screen::Playing).then(|| session(&app).history.len());
            let what = act(&mut app, &mut rng);
            // Shown when the test fails: the actions that led there.
            println!("{}: {what}", game.0);
            check(&mut app, &what);
            steps += 1;
            if screen(&app) == Screen::Playing {
                let s = session(&app);
                seen.moves += (before.is_some_and(|b| s.history.len() > b)) as usize;
                seen.replaying += (mode(&app) == Mode::Replay) as usize;
                seen.blocked += (mode(&app) == Mode::Secrets) as usize;
                seen.thinking += app.world().resource::<tablero::gui::frame::computer::ComputerThinking>().0 as usize;
                seen.moving += moving(&mut app) as usize;
            } else {
                seen.menu += 1;
            }
        }
    }
    println!("{steps} steps: {seen:?}");
    assert!(steps >= 3000, "{steps}");
    // The run reached every situation it is meant to abuse.
    assert!(seen.moves > 150 && seen.replaying > 50 && seen.blocked > 20, "{seen:?}");
    assert!(seen.thinking > 20 && seen.moving > 150 && seen.menu > 20, "{seen:?}");
    let _ = std::fs::remove_dir_all(dir);
}

/// Found by the test above: a move played in the same frame as a rebuild (an undo right
/// after the computer's instant move) was animated onto the rebuilt scene, which already
/// showed it, and CTOR had two discs on one square.
#[test]
fn a_move_and_a_rebuild_in_one_frame_put_each_piece_on_the_table_once() {
    use tablero::gui::frame::board::Rebuild;
    use tablero::gui::frame::session::{By, Played, Session};
    use tablero::rules::{Game, Variant};
    use tablero::table::Intent;
    for variant in [Variant::Ordo, Variant::Crossings, Variant::Volterra, Variant::Ctor8] {
        let mut app = tablero::gui::headless_app(variant.initial(), crate::table::PEOPLE);
        let mv = variant.initial().legal_moves()[0].clone();
        let out = app.world_mut().resource_mut::<Session>().apply(Intent::Play(mv.clone(), By::Person)).unwrap();
        let parts = out.played[0].parts.clone();
        app.world_mut().write_message(Played { mv, by: By::Person, parts, shown: 0 });
        app.world_mut().write_message(Rebuild);
        app.update();
        crate::table::settle(&mut app);
        in_step(&mut app);
    }
}

/// Prints how the torus differs from the position, before the check fails on it.
fn diagnose(app: &mut App, what: &str) {
    use tablero::gui::sets::torus::{Disc, Duplicate};
    let shown = shown(app);
    let tablero::rules::AnyGame::Ctor(g) = &shown else { return };
    let layout = *app.world().resource::<tablero::gui::frame::board::Layout>();
    let world = app.world_mut();
    let discs: Vec<(Entity, Disc, Transform)> =
        world.query::<(Entity, &Disc, &Transform)>().iter(world).map(|(e, a, b)| (e, *a, *b)).collect();
    let dups: Vec<(Duplicate, Transform)> =
        world.query::<(&Duplicate, &Transform)>().iter(world).map(|(a, b)| (*a, *b)).collect();
    let ok = tablero::gui::sets::torus::torus_matches(
        &shown,
        &layout,
        discs.iter().map(|(_, a, b)| (a, b)),
        dups.iter().map(|(a, b)| (a, b)),
    );
    if ok {
        return;
    }
    println!("after {what}: {shown}");
    for (e, d, tf) in &discs {
        let want = d.cell.and_then(|c| g.square(c)).and_then(|sq| g.disc(sq));
        let up = if (tf.rotation * Vec3::Y).y > 0.0 { "B" } else { "W" };
        let at = d.cell.map(|c| tablero::gui::sets::torus::disc_pos(&layout, c).distance(tf.translation));
        println!("  disc {e:?} {:?} up {:?} shows {up}, rules {want:?}, off by {at:?}", d.cell, d.up);
    }
    println!("  {} discs, {} duplicates", discs.len(), dups.len());
}

/// A redo while the first part of another move is on the table: the redone move is played
/// from the game, not from the preview, and the towers end as the rules say.
#[test]
fn a_redo_while_a_first_part_is_shown_leaves_the_scene_as_the_rules_say() {
    use crate::table::settle;
    let mut app = tablero::gui::headless_app(tablero::rules::Variant::Volterra.initial(), crate::table::PEOPLE);
    for cell in ["b3", "a4", "b5", "a5"] {
        click(&mut app, cell.parse().unwrap());
        settle(&mut app);
    }
    assert_eq!(session(&app).history.len(), 1, "{}", notice(&app));
    app.world_mut().write_message(Command::Undo);
    app.update();
    settle(&mut app);
    // Another first part than the undone move's goes on the table.
    use tablero::rules::Game;
    let undone = session(&app).redo.last().unwrap().clone();
    let other = session(&app)
        .game
        .legal_moves()
        .into_iter()
        .find(|m| !m.paths(0).is_empty() && m.paths(0) != undone.paths(0))
        .unwrap();
    let (from, to) = other.paths(0)[0];
    click(&mut app, from);
    click(&mut app, to);
    if let Some((_, part)) = picking(&app).choices.first().cloned() {
        app.world_mut().write_message(Command::Choose(part));
        app.update();
    }
    settle(&mut app);
    assert_eq!(picking(&app).picker.parts.len(), 1, "a first part is on the table: {}", notice(&app));
    app.world_mut().write_message(Command::Redo);
    app.update();
    settle(&mut app);
    assert_eq!(session(&app).history.len(), 1);
    in_step(&mut app);
}
