//! The computer's view at the table, headless: the evaluation follows the position on the
//! broadcast's bar and the live feed, and stops when nobody looks; the replay's *Review*
//! marks the moves `tablero review` names.

use crate::table::session;
use bevy::prelude::*;
use std::io::{Read, Write};
use std::time::{Duration, Instant};
use tablero::gui::frame::computer::ComputerPace;
use tablero::gui::frame::session::{Command, Notice, PlayerKind};
use tablero::gui::stream::broadcast::OpenBroadcast;
use tablero::gui::stream::eval::{Bar, Evaluation, Review};
use tablero::gui::stream::feed::LiveFeed;
use tablero::rules::{AnyMove, Game, Side, Variant};

fn get_state(url: &str) -> serde_json::Value {
    let addr = url.trim_start_matches("http://");
    let mut s = std::net::TcpStream::connect(addr).unwrap();
    s.set_read_timeout(Some(Duration::from_secs(5))).unwrap();
    s.write_all(b"GET /state HTTP/1.1\r\nHost: t\r\nConnection: close\r\n\r\n").unwrap();
    let mut out = String::new();
    let _ = s.read_to_string(&mut out);
    let body = out.split("\r\n\r\n").nth(1).unwrap_or("");
    serde_json::from_str(body).unwrap_or_else(|e| panic!("{e}: {out}"))
}

/// Runs frames until `done`, for at most `limit`.
fn until(app: &mut App, limit: Duration, mut done: impl FnMut(&mut App) -> bool) -> bool {
    let started = Instant::now();
    while started.elapsed() < limit {
        app.update();
        if done(app) {
            return true;
        }
        std::thread::sleep(Duration::from_millis(5));
    }
    false
}

/// The share of the broadcast bar's fill for each side (percent), and whether it shows.
fn broadcast_bar(app: &mut App) -> (Vec<(f32, bool)>, bool) {
    let world = app.world_mut();
    let bars: Vec<(Entity, Visibility)> = world
        .query::<(Entity, &Bar, &Visibility)>()
        .iter(world)
        .filter(|(_, b, _)| b.broadcast)
        .map(|(e, _, v)| (e, *v))
        .collect();
    assert_eq!(bars.len(), 1, "one bar on the broadcast");
    let (bar, vis) = bars[0];
    let mut fills = Vec::new();
    let mut stack = vec![bar];
    while let Some(e) = stack.pop() {
        if let Some(node) = world.get::<Node>(e)
            && let Val::Percent(p) = node.height
        {
            fills.push((p, world.get::<BackgroundColor>(e).is_some()));
        }
        if let Some(children) = world.get::<Children>(e) {
            stack.extend(children.iter());
        }
    }
    (fills, vis != Visibility::Hidden)
}

#[test]
fn the_evaluation_follows_the_table_on_the_broadcast_bar_and_the_live_feed() {
    let random = [PlayerKind::Random, PlayerKind::Random];
    let mut app = tablero::gui::headless_app(Variant::Ordo.initial(), random);
    app.add_plugins(tablero::gui::stream::broadcast::plugin);
    app.insert_resource(tablero::gui::frame::animate::Speed::Instant);
    app.world_mut().write_message(OpenBroadcast);
    app.update();
    // Nobody looks: nothing is weighed.
    for _ in 0..5 {
        app.update();
    }
    assert!(app.world().resource::<Evaluation>().value.is_none());
    assert!(!broadcast_bar(&mut app).1, "the bar is off until asked for");
    app.insert_resource(LiveFeed::on("127.0.0.1:0".parse().unwrap()));
    app.world_mut().resource_mut::<Evaluation>().broadcast = true;
    let url = app.world().resource::<LiveFeed>().url().expect("the feed serves");
    // A few moves, then the computers pause and the table rests.
    assert!(until(&mut app, Duration::from_secs(30), |app| session(app).history.len() >= 5));
    app.world_mut().resource_mut::<ComputerPace>().paused = true;
    let weighed = until(&mut app, Duration::from_secs(60), |app| {
        let g = session(app).game.clone();
        app.world().resource::<Evaluation>().of(&g).is_some() && !crate::table::moving(app)
    });
    assert!(weighed, "the position at the table is weighed");
    let game = session(&app).game.clone();
    let value = app.world().resource::<Evaluation>().of(&game).unwrap();
    assert_eq!(value, tablero::ai::evaluation(&game), "the same value as the search gives");
    // The broadcast's bar shows it: the first side's share at the bottom.
    app.update();
    let (fills, shown) = broadcast_bar(&mut app);
    assert!(shown);
    let first_share = fills.iter().map(|f| f.0).collect::<Vec<_>>();
    assert!(first_share.iter().any(|p| (p - (value * 100.0) as f32).abs() < 0.01), "{first_share:?} lacks {value}");
    assert!(first_share.iter().any(|p| (p - ((1.0 - value) * 100.0) as f32).abs() < 0.01));
    // The feed has it for the position it shows.
    let state = get_state(&url);
    assert_eq!(state["eval"]["ply"], session(&app).history.len());
    assert_eq!(state["eval"]["first"].as_f64(), Some(value));
    let side = game.variant().side_name(Side::First);
    assert_eq!(state["eval"]["chances"][side].as_f64(), Some(value));
    // Hidden again.
    app.world_mut().resource_mut::<Evaluation>().broadcast = false;
    app.update();
    assert!(!broadcast_bar(&mut app).1);
}

#[test]
fn review_in_a_replay_marks_the_moves_that_lost_most() {
    let (record, _) = crate::common::random_record(Variant::Crossings.initial(), 4, 14);
    let mut app = tablero::gui::headless_app_with(tablero::table::Table::replay(record.clone()).unwrap());
    app.world_mut().write_message(Command::Review);
    app.update();
    assert!(app.world().resource::<Notice>().0.starts_with("review: weighing 15 positions... "));
    assert!(app.world().resource::<Review>().progress().is_some());
    let done = until(&mut app, Duration::from_secs(120), |app| app.world().resource::<Review>().marks.is_some());
    assert!(done, "the review ends");
    // The same marks as the review of the record outside the table.
    let positions = record.replay().unwrap();
    let moves: Vec<AnyMove> = record.moves.iter().zip(&positions).map(|(m, g)| g.parse_move(&m.mv).unwrap()).collect();
    let weighed = tablero::ai::review(&positions, &std::sync::atomic::AtomicBool::new(false), &mut |_| {});
    let expected = tablero::ai::mistakes(&positions, &moves, &weighed, tablero::gui::stream::eval::MARKS);
    let review = app.world().resource::<Review>();
    let (id, marks) = review.marks.clone().unwrap();
    assert_eq!(id, record.created_ms);
    assert_eq!(marks, expected);
    let notice = app.world().resource::<Notice>().0.clone();
    assert_eq!(notice, tablero::gui::stream::eval::summary(&positions, &moves, &marks));
    for m in &marks {
        assert!(review.mark(record.created_ms, m.ply).is_some());
        assert!(notice.contains(&format!("{}. {}", m.ply, moves[m.ply - 1])), "{notice}");
    }
    let unmarked = (1..=moves.len()).find(|p| marks.iter().all(|m| m.ply != *p)).unwrap();
    assert!(review.mark(record.created_ms, unmarked).is_none());
    assert!(review.mark(record.created_ms + 1, marks.first().map_or(1, |m| m.ply)).is_none(), "another record");
    // A live game has no review.
    let mut live = tablero::gui::headless_app(Variant::Crossings.initial(), [PlayerKind::Person, PlayerKind::Person]);
    live.world_mut().write_message(Command::Review);
    live.update();
    assert!(live.world().resource::<Review>().progress().is_none());
}
