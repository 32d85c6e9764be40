//! A seat of a game hosted elsewhere (`tablero join`), headless: the seat's moves go to the
//! host, the host's come back and are animated, the other seat's moves cannot be made here,
//! and the table says when the host cannot be reached.

use crate::table::{assert_scene_matches, moving, notice, session, settle};
use bevy::prelude::*;
use tablero::gui::frame::session::{By, MoveChosen};
use tablero::net::host::{Host, HostOptions, Sitter};
use tablero::rules::{Game, Side, Variant};

fn host(dir: &std::path::Path, seats: [Sitter; 2]) -> Host {
    Host::open(HostOptions {
        seats: seats.map(|s| vec![s]),
        record: Some(dir.join("game.json")),
        ..HostOptions::remote(Variant::Crossings.initial(), "127.0.0.1:0".parse().unwrap())
    })
    .unwrap()
}

/// Updates `app` until `done` (at most 10 s).
fn until(app: &mut App, mut done: impl FnMut(&mut App) -> bool) -> bool {
    let start = std::time::Instant::now();
    while start.elapsed() < std::time::Duration::from_secs(10) {
        app.update();
        if done(app) {
            return true;
        }
        std::thread::sleep(std::time::Duration::from_millis(5));
    }
    false
}

#[test]
fn a_seat_plays_its_moves_through_the_host_and_sees_the_others_animated() {
    let dir = std::env::temp_dir().join(format!("tablero-seat-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let host = host(&dir, [Sitter::Remote, Sitter::Computer("random".into())]);
    let _computer = host.play_in_background();
    let link = host.invitations()[0].1.clone();
    let mut app = tablero::gui::headless_join_app(&link).expect("the seat joins");
    assert_eq!(session(&app).seat, Some(Side::First));
    assert!(until(&mut app, |a| notice(a).contains("your move")), "{}", notice(&app));
    let mut animated = false;
    for k in 0..5 {
        let game = session(&app).game.clone();
        let mv = game.legal_moves()[k % 3].clone();
        app.world_mut().write_message(MoveChosen { mv: mv.clone(), by: By::Person });
        // The host has it, the computer there answers, and the answer comes back here.
        assert!(
            until(&mut app, |a| {
                animated |= moving(a);
                session(a).history.len() == 2 * k + 2
            }),
            "move {}: {}",
            k + 1,
            notice(&app)
        );
        assert_eq!(host.game().to_string(), session(&app).game.to_string(), "the same game at both");
        settle(&mut app);
        assert_scene_matches(&mut app);
    }
    assert!(animated, "the host's moves are animated here");
    // The host gone: the table says it is reconnecting.
    drop(host);
    assert!(until(&mut app, |a| notice(a).contains("reconnecting")), "{}", notice(&app));
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn the_other_seats_moves_cannot_be_made_at_a_seat() {
    let dir = std::env::temp_dir().join(format!("tablero-seat-other-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let host = host(&dir, [Sitter::Remote, Sitter::Remote]);
    let mut app = tablero::gui::headless_join_app(&host.invitations()[0].1).expect("the seat joins");
    let mine = session(&app).game.legal_moves()[0].clone();
    app.world_mut().write_message(MoveChosen { mv: mine, by: By::Person });
    assert!(
        until(&mut app, |_| host.game().to_string() != Variant::Crossings.initial().to_string()),
        "the host has it"
    );
    settle(&mut app);
    let theirs = session(&app).game.legal_moves()[0].clone();
    app.world_mut().write_message(MoveChosen { mv: theirs, by: By::Person });
    app.update();
    app.update();
    assert_eq!(session(&app).history.len(), 1, "nothing played for the other seat");
    assert!(notice(&app).contains("other seat"), "{}", notice(&app));
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn an_invitation_pasted_at_the_table_takes_the_seat_and_a_new_game_lets_it_go() {
    use tablero::gui::frame::remote::RemoteSeat;
    use tablero::gui::frame::session::Command;
    let dir = std::env::temp_dir().join(format!("tablero-seat-paste-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let host = host(&dir, [Sitter::Remote, Sitter::Computer("random".into())]);
    let _computer = host.play_in_background();
    let link = host.invitations()[0].1.clone();
    let people = [tablero::gui::frame::session::PlayerKind::Person; 2];
    let mut app = tablero::gui::headless_app(Variant::Ordo.initial(), people);
    app.world_mut().write_message(Command::Open(link));
    assert!(until(&mut app, |a| session(a).seat == Some(Side::First)), "{}", notice(&app));
    assert_eq!(session(&app).game.variant(), Variant::Crossings, "the host's game");
    let mv = session(&app).game.legal_moves()[0].clone();
    app.world_mut().write_message(MoveChosen { mv, by: By::Person });
    assert!(until(&mut app, |a| session(a).history.len() == 2), "the host's computer answered: {}", notice(&app));
    // A game of one's own: the host is let go, and its moves no longer come here.
    let fresh = tablero::table::Table::new(Variant::Ordo.initial(), people, 1);
    app.world_mut()
        .write_message(tablero::gui::frame::session::TableIntent(tablero::table::Intent::Replace(Box::new(fresh))));
    assert!(until(&mut app, |a| !a.world().contains_resource::<RemoteSeat>()), "the seat is let go");
    assert_eq!(session(&app).game.variant(), Variant::Ordo);
    // A bad invitation says so and changes nothing.
    app.world_mut().write_message(Command::Open(
        "http://127.0.0.1:1/join#seat=first&token=0123456789abcdef0123456789abcdef".into(),
    ));
    assert!(until(&mut app, |a| notice(a).contains("cannot be used")), "{}", notice(&app));
    assert_eq!(session(&app).game.variant(), Variant::Ordo);
    std::fs::remove_dir_all(&dir).ok();
}
