//! The live feed at the table, headless: the game at the table is on the feed as it is
//! played; a spectator (`tablero watch`) plays the feed's moves with the same animations,
//! cannot move, says when the feed drops, and catches up when it is back; a CTOR spectator
//! turns the same discs when a secret square works, without ever knowing an unrevealed one.

use crate::saving::press;
use crate::table::{assert_scene_matches, click, moving, notice, session, settle};
use bevy::prelude::*;
use tablero::gui::frame::session::{Command, PlayerKind};
use tablero::gui::stream::feed::LiveFeed;
use tablero::rules::ctor::{Ctor, SecretState};
use tablero::rules::{AnyGame, Cell, Game, Side, Variant};
use tablero::table::Table;

const RANDOM: [PlayerKind; 2] = [PlayerKind::Random, PlayerKind::Random];

/// A table serving its game on a feed on a free port.
fn table_with_feed(session: Table) -> (App, String) {
    let mut app = tablero::gui::headless_app_with(session);
    app.insert_resource(LiveFeed::on("127.0.0.1:0".parse().unwrap()));
    app.update();
    let url = app.world().resource::<LiveFeed>().url().expect("the feed serves");
    (app, url)
}

fn public(app: &App) -> String {
    session(app).game.to_string()
}

/// Runs both tables until the spectator shows what the table shows, at rest.
fn follow(table: &mut App, watcher: &mut App) -> bool {
    for _ in 0..400 {
        watcher.update();
        std::thread::sleep(std::time::Duration::from_millis(2));
        if public(watcher) == public(table)
            && session(watcher).history.len() == session(table).history.len()
            && !moving(watcher)
        {
            return true;
        }
    }
    false
}

#[test]
fn a_spectator_follows_the_table_s_feed_with_the_same_moves_and_cannot_move() {
    let (mut table, url) = table_with_feed(Table::new(Variant::Ordo.initial(), RANDOM, 3));
    // The table plays a few moves before the spectator joins: it joins in the middle.
    while session(&table).history.len() < 4 {
        table.update();
    }
    settle(&mut table);
    table.world_mut().resource_mut::<tablero::gui::frame::computer::ComputerPace>().paused = true;
    table.update();
    let mut watcher = tablero::gui::headless_watch_app(&url).expect("the spectator joins");
    assert!(session(&watcher).spectator);
    assert!(follow(&mut table, &mut watcher), "joined: {} vs {}", public(&watcher), public(&table));
    assert_eq!(session(&watcher).record.players, session(&table).record.players);
    // Moves at the table arrive and are animated at the spectator's.
    table.world_mut().resource_mut::<tablero::gui::frame::computer::ComputerPace>().paused = false;
    let mut animated = false;
    for _ in 0..6 {
        let n = session(&table).history.len();
        while session(&table).history.len() == n {
            table.update();
        }
        table.world_mut().resource_mut::<tablero::gui::frame::computer::ComputerPace>().paused = true;
        settle(&mut table);
        for _ in 0..100 {
            watcher.update();
            std::thread::sleep(std::time::Duration::from_millis(2));
            animated |= moving(&mut watcher);
            if session(&watcher).history.len() == n + 1 {
                break;
            }
        }
        assert!(follow(&mut table, &mut watcher), "after move {}: {} vs {}", n + 1, public(&watcher), public(&table));
        assert_scene_matches(&mut watcher);
        table.world_mut().resource_mut::<tablero::gui::frame::computer::ComputerPace>().paused = false;
    }
    assert!(animated, "the spectator's pieces moved as they do at the table");
    table.world_mut().resource_mut::<tablero::gui::frame::computer::ComputerPace>().paused = true;
    settle(&mut table);
    assert!(follow(&mut table, &mut watcher));
    // The spectator cannot move, undo or start a game of the feed's.
    let before = public(&watcher);
    let game = session(&watcher).game.clone();
    if let Some(mv) = game.legal_moves().first() {
        let text = mv.to_string();
        if let Some((from, to)) = text.split_once('-') {
            click(&mut watcher, from.parse::<Cell>().unwrap());
            click(&mut watcher, to.parse::<Cell>().unwrap());
        }
    }
    watcher.world_mut().write_message(Command::Undo);
    watcher.update();
    assert!(notice(&watcher).contains("watching a live feed"), "{}", notice(&watcher));
    assert_eq!(public(&watcher), before, "nothing moved at the spectator's");
    // An undo at the table is undone at the spectator's.
    table.world_mut().write_message(Command::Undo);
    table.update();
    settle(&mut table);
    assert!(follow(&mut table, &mut watcher), "undo: {} vs {}", public(&watcher), public(&table));
    // The feed drops: the spectator says so; it comes back: the spectator catches up.
    table.world_mut().resource_mut::<LiveFeed>().stop();
    let mut said = false;
    for _ in 0..400 {
        watcher.update();
        std::thread::sleep(std::time::Duration::from_millis(5));
        if notice(&watcher).contains("the feed dropped") {
            said = true;
            break;
        }
    }
    assert!(said, "the spectator says the feed dropped: {}", notice(&watcher));
    table.world_mut().resource_mut::<tablero::gui::frame::computer::ComputerPace>().paused = false;
    let n = session(&table).history.len();
    while session(&table).history.len() < n + 3 && session(&table).game.outcome().is_none() {
        table.update();
    }
    table.world_mut().resource_mut::<tablero::gui::frame::computer::ComputerPace>().paused = true;
    settle(&mut table);
    table.world_mut().resource_mut::<LiveFeed>().start();
    assert!(table.world().resource::<LiveFeed>().url().is_some(), "the feed is back on its port");
    let mut caught_up = false;
    for _ in 0..3000 {
        watcher.update();
        std::thread::sleep(std::time::Duration::from_millis(5));
        if public(&watcher) == public(&table) && !moving(&mut watcher) {
            caught_up = true;
            break;
        }
    }
    assert!(caught_up, "caught up after the drop: {} vs {} ({})", public(&watcher), public(&table), notice(&watcher));
    assert!(notice(&watcher).starts_with("watching"), "{}", notice(&watcher));
    assert_scene_matches(&mut watcher);
}

#[test]
fn a_ctor_spectator_turns_the_same_discs_when_a_secret_works_and_never_knows_an_unrevealed_one() {
    let mut g: Ctor = "ctor8 ......../......../......../......../......../......../......../........ b 1 P1M0L0 1v1 0"
        .parse()
        .unwrap();
    g.set_secrets(Side::First, &[1, 10, 19, 28, 37]).unwrap();
    g.set_secrets(Side::Second, &[8, 15, 22, 29, 36]).unwrap();
    let (mut table, url) = table_with_feed(Table::new(AnyGame::Ctor(g), RANDOM, 5));
    table.insert_resource(tablero::gui::frame::animate::Speed::Instant);
    let mut watcher = tablero::gui::headless_watch_app(&url).expect("the spectator joins");
    watcher.insert_resource(tablero::gui::frame::animate::Speed::Instant);
    let revealed = |app: &App| -> usize {
        match &session(app).game {
            AnyGame::Ctor(g) => [Side::First, Side::Second]
                .iter()
                .map(|&s| g.secrets(s).iter().filter(|x| x.1 == SecretState::Revealed).count())
                .sum(),
            _ => 0,
        }
    };
    let mut frames = 0;
    while revealed(&table) < 2 && session(&table).game.outcome().is_none() && frames < 20_000 {
        table.update();
        watcher.update();
        frames += 1;
        // What the spectator knows of the secrets is only what has been revealed.
        if let (AnyGame::Ctor(w), AnyGame::Ctor(t)) = (&session(&watcher).game, &session(&table).game) {
            for side in [Side::First, Side::Second] {
                for (sq, st) in w.secrets(side) {
                    let theirs = t.secrets(side).iter().find(|x| x.0 == *sq).map(|x| x.1);
                    assert!(
                        *st == SecretState::Revealed && theirs == Some(SecretState::Revealed)
                            || *st == SecretState::Hidden && theirs == Some(SecretState::Revealed),
                        "the spectator knows {side:?}'s square {sq} as {st:?} (at the table {theirs:?})"
                    );
                }
            }
        }
    }
    assert!(revealed(&table) >= 1, "a secret worked during the game");
    table.world_mut().resource_mut::<tablero::gui::frame::computer::ComputerPace>().paused = true;
    settle(&mut table);
    assert!(follow(&mut table, &mut watcher), "{} vs {}", public(&watcher), public(&table));
    assert_eq!(revealed(&watcher), revealed(&table), "the same secrets revealed");
    assert_eq!(watcher.world().resource::<tablero::gui::frame::animate::Resyncs>().0, 0);
}

fn menu_text(app: &mut App) -> String {
    let world = app.world_mut();
    world.query::<&Text>().iter(world).map(|t| t.0.clone()).collect::<Vec<_>>().join("\n")
}

#[test]
fn the_menu_s_switch_serves_the_game_started_from_the_menu() {
    let dir = std::env::temp_dir().join(format!("tablero-feed-menu-{}", std::process::id()));
    let mut app = tablero::gui::headless_menu_app(dir.clone());
    // A free port, so that the test never meets another program on 7878.
    app.world_mut().resource_mut::<LiveFeed>().addr = "127.0.0.1:0".parse().unwrap();
    assert!(menu_text(&mut app).contains("Live feed for streaming tools: off"));
    press(&mut app, "Live feed for streaming tools");
    let url = app.world().resource::<LiveFeed>().url().expect("the switch starts the feed");
    assert!(menu_text(&mut app).contains(&format!("live feed: {url}/overlay")), "{}", menu_text(&mut app));
    press(&mut app, "Start");
    for _ in 0..5 {
        app.update();
    }
    let feed = app.world().resource::<LiveFeed>().feed.clone();
    let state = serde_json::to_value(feed.state()).unwrap();
    assert_eq!(state["variant"], session(&app).game.variant().name());
    assert_eq!(state["after"]["position"], public(&app));
    assert_eq!(state["players"][0]["name"], session(&app).record.players[0].name);
    // Off again: the address no longer answers.
    app.world_mut().resource_mut::<LiveFeed>().toggle();
    let addr = url.trim_start_matches("http://").to_string();
    assert!(std::net::TcpStream::connect(addr).is_err(), "the feed stopped");
    let _ = std::fs::remove_dir_all(dir);
}
