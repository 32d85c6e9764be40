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
    let host = host(&dir, [Sitter::Remote, Sitter::Computer(tablero::players::Kind::Random)]);
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
    let host = host(&dir, [Sitter::Remote, Sitter::Computer(tablero::players::Kind::Random)]);
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

/// A request of the seat `link` to its host: the status and the body.
fn ask(link: &str, method: &str, path: &str, body: Option<&str>) -> (u16, String) {
    let inv = tablero::net::Invitation::parse(link).unwrap();
    tablero::net::join::request(&inv, method, path, body).expect("the host answers")
}

fn seat_view(link: &str) -> tablero::net::SeatView {
    let (status, body) = ask(link, "GET", "/seat", None);
    assert_eq!(status, 200, "{body}");
    serde_json::from_str(&body).unwrap()
}

#[test]
fn an_undo_at_a_seat_is_asked_of_the_other_side_and_its_answer_lays_the_table_out() {
    use tablero::gui::frame::session::Command;
    let dir = std::env::temp_dir().join(format!("tablero-seat-undo-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let host = host(&dir, [Sitter::Remote, Sitter::Remote]);
    let (mine, theirs) = (host.invitations()[0].1.clone(), host.invitations()[1].1.clone());
    let mut app = tablero::gui::headless_join_app(&mine).expect("the seat joins");
    let mv = session(&app).game.legal_moves()[0].clone();
    app.world_mut().write_message(MoveChosen { mv, by: By::Person });
    assert!(until(&mut app, |_| seat_view(&theirs).your_turn), "the host has the move");
    let reply = host.game().legal_moves()[0].to_string();
    assert_eq!(ask(&theirs, "POST", "/seat/move", Some(&format!(r#"{{"seq":1,"move":"{reply}"}}"#))).0, 200);
    assert!(until(&mut app, |a| session(a).history.len() == 2), "the reply arrived");
    settle(&mut app);
    // Undo at the seat asks the other side; the table keeps its moves meanwhile.
    app.world_mut().write_message(Command::Undo);
    assert!(until(&mut app, |_| seat_view(&theirs).asked.is_some_and(|a| !a.mine)), "the other side is asked");
    assert!(until(&mut app, |a| notice(a).contains("waiting for its answer")), "{}", notice(&app));
    assert_eq!(session(&app).history.len(), 2);
    assert_eq!(ask(&theirs, "POST", "/seat/answer", Some(r#"{"yes":true}"#)).0, 200);
    assert!(until(&mut app, |a| session(a).history.is_empty()), "taken back here too: {}", notice(&app));
    settle(&mut app);
    assert_scene_matches(&mut app);
    assert_eq!(session(&app).seat, Some(Side::First), "still the seat");
    // The other side asks: the table says so, Escape refuses and Y agrees.
    let mv = session(&app).game.legal_moves()[0].clone();
    app.world_mut().write_message(MoveChosen { mv, by: By::Person });
    assert!(until(&mut app, |_| seat_view(&theirs).your_turn));
    let reply = host.game().legal_moves()[0].to_string();
    assert_eq!(ask(&theirs, "POST", "/seat/move", Some(&format!(r#"{{"seq":1,"move":"{reply}"}}"#))).0, 200);
    assert_eq!(ask(&theirs, "POST", "/seat/ask", Some(r#"{"seq":2,"what":"undo"}"#)).0, 200);
    assert!(until(&mut app, |a| notice(a).contains("Y to agree")), "{}", notice(&app));
    app.world_mut().write_message(Command::Cancel);
    assert!(until(&mut app, |_| seat_view(&theirs).asked.is_none()), "refused");
    assert_eq!(host.game().to_string(), session(&app).game.to_string());
    assert_eq!(ask(&theirs, "POST", "/seat/ask", Some(r#"{"seq":2,"what":"undo"}"#)).0, 200);
    assert!(until(&mut app, |a| notice(a).contains("Y to agree")), "{}", notice(&app));
    app.world_mut().write_message(Command::Agree);
    assert!(until(&mut app, |a| session(a).history.len() == 1), "their move taken back: {}", notice(&app));
    assert_eq!(host.game().to_string(), session(&app).game.to_string());
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn the_menus_host_switch_and_ctrl_h_at_the_table_host_the_game() {
    use crate::saving::{fresh_dir, press, press_player};
    use tablero::gui::frame::remote::{Hosting, RemoteSeat};
    use tablero::gui::frame::session::{Command, PlayerKind};
    let dir = fresh_dir("host-menu");
    let mut app = tablero::gui::headless_menu_app(dir.clone());
    press(&mut app, "Crossings");
    press(&mut app, "Host this game on the network");
    let choice = app.world().resource::<tablero::gui::screens::choice::MenuChoice>();
    assert!(choice.host && choice.players == [PlayerKind::Person; 2], "the other side is a person elsewhere");
    press(&mut app, "Start");
    assert!(until(&mut app, |a| session(a).seat == Some(Side::First)), "{}", notice(&app));
    assert!(app.world().contains_resource::<Hosting>());
    assert!(until(&mut app, |a| notice(a).contains("/join#seat=second&token=")), "{}", notice(&app));
    let link = notice(&app).split_whitespace().find(|w| w.starts_with("http://")).unwrap().to_string();
    let mv = session(&app).game.legal_moves()[0].clone();
    app.world_mut().write_message(MoveChosen { mv, by: By::Person });
    assert!(until(&mut app, |_| seat_view(&link).moves.len() == 1), "the other machine sees the move");
    // A game at the table, hosted by Ctrl+H as it stands, and no longer by Ctrl+H again.
    app.world_mut().remove_resource::<Hosting>();
    app.world_mut().remove_resource::<RemoteSeat>();
    app.world_mut().resource_mut::<NextState<tablero::gui::Screen>>().set(tablero::gui::Screen::Menu);
    app.update();
    app.update();
    press(&mut app, "Host this game on the network");
    press_player(&mut app, Side::Second, PlayerKind::Person);
    press(&mut app, "Start");
    assert!(until(&mut app, |a| session(a).seat.is_none() && session(a).record_path.is_some()));
    let mv = session(&app).game.legal_moves()[0].clone();
    app.world_mut().write_message(MoveChosen { mv, by: By::Person });
    settle(&mut app);
    app.world_mut().write_message(Command::Host);
    assert!(until(&mut app, |a| notice(a).contains("/join#seat=second&token=")), "{}", notice(&app));
    assert!(until(&mut app, |a| session(a).seat == Some(Side::First) && session(a).history.len() == 1));
    let link = notice(&app).split_whitespace().find(|w| w.starts_with("http://")).unwrap().to_string();
    let v = seat_view(&link);
    assert_eq!((v.moves.len(), v.your_turn), (1, true), "the game as it stood, the other seat on turn");
    app.world_mut().write_message(Command::Host);
    assert!(until(&mut app, |a| !a.world().contains_resource::<Hosting>() && session(a).seat.is_none()));
    assert_eq!(session(&app).history.len(), 1, "the game goes on here");
    assert!(until(&mut app, |a| notice(a).contains("no longer hosting")), "{}", notice(&app));
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn the_menus_host_through_a_relay_hosts_the_game_on_the_relay_of_the_settings() {
    use crate::saving::{fresh_dir, press};
    use tablero::gui::frame::session::PlayerKind;
    let Some(relay) = crate::common::NatsServer::start(&[]) else { return };
    let dir = fresh_dir("host-relay");
    let mut app = tablero::gui::headless_menu_app(dir.clone());
    press(&mut app, "Crossings");
    press(&mut app, "Host through a relay");
    let choice = app.world().resource::<tablero::gui::screens::choice::MenuChoice>();
    assert!(choice.host && choice.relay && choice.players == [PlayerKind::Person; 2]);
    // No relay in the settings yet: Start says how to give it.
    press(&mut app, "Start");
    assert!(!app.world().contains_resource::<tablero::gui::frame::remote::Hosting>());
    let said = app
        .world_mut()
        .query::<&Text>()
        .iter(app.world())
        .any(|t| t.0.contains("cannot host through a relay: copy its address"));
    assert!(said, "the menu says where to give the relay");
    app.world_mut().resource_mut::<tablero::settings::Settings>().relay = Some(relay.url());
    press(&mut app, "Start");
    assert!(until(&mut app, |a| session(a).seat == Some(Side::First)), "{}", notice(&app));
    let prefix = format!("{}/", relay.url());
    assert!(until(&mut app, |a| notice(a).contains("#seat=second&token=")), "{}", notice(&app));
    let link = notice(&app).split_whitespace().find(|w| w.starts_with(&prefix)).unwrap().to_string();
    // The other machine takes the seat through the relay and sees the table's move.
    let other = tablero::net::Invitation::parse(&link).unwrap().connect().unwrap();
    let mv = session(&app).game.legal_moves()[0].clone();
    app.world_mut().write_message(MoveChosen { mv: mv.clone(), by: By::Person });
    let seen = |_: &mut App| other.view(None).ok().flatten().is_some_and(|v| v.moves == [mv.to_string()]);
    assert!(until(&mut app, seen), "the other machine sees the move through the relay");
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn a_seat_chooses_its_teams_secret_squares_at_its_own_table() {
    use tablero::gui::frame::session::{SecretCommand, TableIntent};
    use tablero::table::{Intent, SecretPhase};
    let dir = std::env::temp_dir().join(format!("tablero-seat-secrets-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let start: tablero::rules::AnyGame =
        "ctor8 ......../......../......../......../......../......../......../........ b 1 P1M0L0 1v1 0"
            .parse()
            .unwrap();
    let host = Host::open(HostOptions {
        secrets: true,
        record: Some(dir.join("game.json")),
        ..HostOptions::remote(start, "127.0.0.1:0".parse().unwrap())
    })
    .unwrap();
    let (mine, theirs) = (host.invitations()[0].1.clone(), host.invitations()[1].1.clone());
    let mut app = tablero::gui::headless_join_app(&mine).expect("the seat joins");
    assert!(matches!(session(&app).secrets, SecretPhase::Choosing(Side::First, _)), "{:?}", session(&app).secrets);
    assert!(until(&mut app, |a| notice(a).contains("choose your team's 5 secret squares")), "{}", notice(&app));
    // Five squares clicked, then Done: they go to the host, and nowhere else.
    let tablero::rules::AnyGame::Ctor(g) = &session(&app).game else { unreachable!() };
    let cells: Vec<_> = [3u16, 12, 21, 30, 39].iter().map(|sq| g.cell(*sq)).collect();
    for c in cells {
        app.world_mut().write_message(TableIntent(Intent::SecretClick(c)));
        app.update();
    }
    app.world_mut().write_message(SecretCommand::Done);
    assert!(until(&mut app, |_| seat_view(&mine).secrets == [3, 12, 21, 30, 39]), "the host has them");
    let other = seat_view(&theirs);
    assert!(other.choose_secrets && other.secrets.is_empty() && other.revealed.is_empty());
    assert!(until(&mut app, |a| notice(a).contains("other team is choosing")), "{}", notice(&app));
    assert_eq!(
        ask(&theirs, "POST", "/seat/secrets", Some(r#"{"squares":[60,61,62,63,64]}"#)).0,
        200,
        "the other team chooses at its machine"
    );
    assert!(until(&mut app, |a| notice(a).contains("your move")), "{}", notice(&app));
    let tablero::rules::AnyGame::Ctor(g) = &session(&app).game else { unreachable!() };
    assert_eq!(g.secrets(Side::First).len(), 5, "this table knows its team's squares");
    assert!(g.secrets(Side::Second).is_empty(), "and not the other team's");
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn a_team_members_table_chooses_its_blind_put_and_sees_the_teams_puts_played() {
    let dir = std::env::temp_dir().join(format!("tablero-seat-member-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let start: tablero::rules::AnyGame =
        "ctor8 ......../......../......../......../......../......../......../........ b 1 P1M0L0 2v2 0"
            .parse()
            .unwrap();
    let host = Host::open(HostOptions {
        record: Some(dir.join("game.json")),
        ..HostOptions::remote(start, "127.0.0.1:0".parse().unwrap())
    })
    .unwrap();
    let links: Vec<String> = host.invitations().into_iter().map(|(_, l)| l).collect();
    let (b1, w1, w2) = (&links[0], &links[2], &links[3]);
    let mut app = tablero::gui::headless_join_app(w1).expect("the member joins");
    assert_eq!(ask(b1, "POST", "/seat/move", Some(r#"{"seq":0,"move":"P1"}"#)).0, 200);
    assert_eq!(ask(b1, "POST", "/seat/move", Some(r#"{"seq":1,"move":"E"}"#)).0, 200);
    assert!(until(&mut app, |a| notice(a).contains("choose 1 blind Put (seat second.1)")), "{}", notice(&app));
    let put = session(&app).game.parse_move("P10").unwrap();
    app.world_mut().write_message(MoveChosen { mv: put, by: By::Person });
    assert!(until(&mut app, |_| seat_view(w1).chosen == ["P10"]), "the host keeps the choice");
    assert!(seat_view(w2).chosen.is_empty() && seat_view(b1).moves.len() == 2, "unseen by the others");
    assert!(until(&mut app, |a| notice(a).contains("waiting for your team-mates")), "{}", notice(&app));
    assert_eq!(ask(w2, "POST", "/seat/move", Some(r#"{"seq":2,"move":"P11"}"#)).0, 200);
    assert!(until(&mut app, |a| session(a).history.len() == 4), "{}", notice(&app));
    settle(&mut app);
    assert_eq!(session(&app).game.to_string(), host.game().to_string(), "the team's Puts played here as at the host");
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn at_a_seat_the_hosts_sand_glass_ends_the_turn_and_a_rematch_is_asked_with_y() {
    use tablero::gui::frame::session::Command;
    let dir = std::env::temp_dir().join(format!("tablero-seat-sand-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let start: tablero::rules::AnyGame =
        "ctor8 ......../......../......../......../......../......../......../........ b 1 P1M0L0 1v1 0"
            .parse()
            .unwrap();
    let hosting = Host::open(HostOptions {
        timer: Some(5),
        record: Some(dir.join("game.json")),
        seats: [vec![Sitter::Remote], vec![Sitter::Computer(tablero::players::Kind::Random)]],
        ..HostOptions::remote(start, "127.0.0.1:0".parse().unwrap())
    })
    .unwrap();
    let _clock = hosting.play_in_background();
    let mine = hosting.invitations()[0].1.clone();
    let mut app = tablero::gui::headless_join_app(&mine).expect("the seat joins");
    // The table's own clock runs with the host's (time passes fast in a headless app) but does
    // not end the turn: the host does, after its 5 s.
    let started = std::time::Instant::now();
    assert!(until(&mut app, |a| session(a).history.first().is_some_and(|(_, m)| m.to_string() == "T")));
    assert!(started.elapsed() >= std::time::Duration::from_secs(4), "the host's 5 s, not the table's");
    assert!(until(&mut app, |a| session(a).game.to_string() == hosting.game().to_string()), "the table follows");
    drop(app);
    drop(hosting);
    std::fs::remove_dir_all(&dir).ok();
    // After the end, Y asks the other side for a rematch; the computer agrees, and the table
    // lays out the new game.
    let dir = std::env::temp_dir().join(format!("tablero-seat-rematch-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let host = host(&dir, [Sitter::Remote, Sitter::Computer(tablero::players::Kind::Random)]);
    let _computer = host.play_in_background();
    let mut app = tablero::gui::headless_join_app(&host.invitations()[0].1).expect("the seat joins");
    let mut k = 0u64;
    while host.game().outcome().is_none() {
        if session(&app).game.side_to_move() == Side::First && !moving(&mut app) {
            let moves = session(&app).game.legal_moves();
            k = k.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            let mv = moves[(k >> 33) as usize % moves.len()].clone();
            app.world_mut().write_message(MoveChosen { mv, by: By::Person });
        }
        app.update();
        std::thread::sleep(std::time::Duration::from_millis(15));
    }
    assert!(until(&mut app, |a| notice(a).contains("Y asks the other side for a rematch")), "{}", notice(&app));
    app.world_mut().write_message(Command::Agree);
    assert!(
        until(&mut app, |a| session(a).history.is_empty() && session(a).game.outcome().is_none()),
        "{}",
        notice(&app)
    );
    assert!(host.game().outcome().is_none(), "a new game at the host");
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn a_seats_table_never_waits_on_a_stalled_host() {
    use std::io::BufRead;
    use tablero::gui::frame::session::Command;
    let dir = std::env::temp_dir().join(format!("tablero-seat-stall-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    // A host in its own process, both seats remote; stopped (SIGSTOP) while the seat plays, its
    // connections are taken by the system but never answered.
    let record = dir.join("game.json");
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_tablero"))
        .args(["host", "crossings", "--headless", "--port", "0", "--linger", "0", "--record"])
        .arg(&record)
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::null())
        .spawn()
        .expect("the host starts");
    let mut out = std::io::BufReader::new(child.stdout.take().unwrap());
    let mut links = Vec::new();
    while links.len() < 2 {
        let mut line = String::new();
        assert!(out.read_line(&mut line).unwrap() > 0, "the host ended before serving");
        if let Some((_, link)) = line.trim().strip_prefix("invite ").and_then(|l| l.split_once(": ")) {
            links.push(link.to_string());
        }
    }
    let mut app = tablero::gui::headless_join_app(&links[0]).expect("the seat joins");
    let pid = child.id().to_string();
    let signal = |s: &str| std::process::Command::new("kill").args([s, &pid]).status().unwrap();
    assert!(signal("-STOP").success());
    // A move of this seat and the other seat's invitation pasted, while the host says nothing:
    // each update stays short (the requests wait on threads of their own).
    let mv = session(&app).game.legal_moves()[0].clone();
    app.world_mut().write_message(MoveChosen { mv, by: By::Person });
    app.world_mut().write_message(Command::Open(links[1].clone()));
    let stalled = std::time::Instant::now();
    let mut longest = std::time::Duration::ZERO;
    let mut updates = 0;
    while stalled.elapsed() < std::time::Duration::from_secs(4) {
        let update = std::time::Instant::now();
        app.update();
        longest = longest.max(update.elapsed());
        updates += 1;
        std::thread::sleep(std::time::Duration::from_millis(10));
    }
    assert!(signal("-CONT").success());
    eprintln!("the host stalled 4 s: {updates} updates, the longest {longest:?}");
    assert!(longest < std::time::Duration::from_secs(1), "an update waited on the host: {longest:?}");
    assert_eq!(session(&app).seat, Some(Side::First), "the table stays the first seat's meanwhile");
    // The host back: the pasted invitation's seat is taken, and the move is at the host.
    assert!(until(&mut app, |a| session(a).seat == Some(Side::Second)), "{}", notice(&app));
    assert!(until(&mut app, |a| session(a).history.len() == 1), "the first seat's move reached the host");
    let _ = child.kill();
    let _ = child.wait();
    std::fs::remove_dir_all(&dir).ok();
}

/// The person at the host's own table plays through the host in this process, not through its
/// port: with every request the host serves at once taken by the other seat's waits (each up
/// to 20 s), the person's move still reaches the host's record within a few frames.
#[test]
fn the_person_at_the_hosts_table_plays_without_the_network() {
    use crate::saving::{fresh_dir, press};
    use std::io::Write;
    let dir = fresh_dir("host-local");
    let mut app = tablero::gui::headless_menu_app(dir.clone());
    press(&mut app, "Crossings");
    press(&mut app, "Host this game on the network");
    press(&mut app, "Start");
    assert!(until(&mut app, |a| notice(a).contains("/join#seat=second&token=")), "{}", notice(&app));
    let link = notice(&app).split_whitespace().find(|w| w.starts_with("http://")).unwrap().to_string();
    let inv = tablero::net::Invitation::parse(&link).unwrap();
    let version = seat_view(&link).version;
    let waits: Vec<std::net::TcpStream> = (0..tablero::net::host::IN_FLIGHT)
        .map(|_| {
            let mut s = std::net::TcpStream::connect(&inv.addr).unwrap();
            let head =
                format!("GET /seat?wait={version} HTTP/1.1\r\nHost: t\r\nAuthorization: Bearer {}\r\n\r\n", inv.token);
            s.write_all(head.as_bytes()).unwrap();
            s
        })
        .collect();
    let started = std::time::Instant::now();
    while ask(&link, "GET", "/seat", None).0 != 503 {
        assert!(started.elapsed() < std::time::Duration::from_secs(10), "the host's requests were all taken");
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
    let hosted_moves = || -> usize {
        std::fs::read_dir(dir.join("games"))
            .unwrap()
            .flatten()
            .filter(|e| e.file_name().to_string_lossy().ends_with("-hosted.json"))
            .map(|e| tablero::record::load(&e.path()).map_or(0, |(r, _)| r.moves.len()))
            .sum()
    };
    assert_eq!(hosted_moves(), 0);
    let mv = session(&app).game.legal_moves()[0].clone();
    app.world_mut().write_message(MoveChosen { mv, by: By::Person });
    assert!(until(&mut app, |_| hosted_moves() == 1), "the host has the move while its port is full: {}", notice(&app));
    drop(waits);
    std::fs::remove_dir_all(&dir).ok();
}

/// The clipboard (X11 under Xvfb); None, with the reason printed, where there is no display and
/// `CI` is unset.
fn clipboard() -> Option<arboard::Clipboard> {
    match arboard::Clipboard::new() {
        Ok(c) => Some(c),
        Err(e) => {
            assert!(std::env::var_os("CI").is_none(), "no clipboard under CI: {e}");
            eprintln!("skipped: no clipboard here ({e}); run under xvfb-run");
            None
        }
    }
}

/// *Watch a game* with a game's address on the clipboard: the menu opens the table as that
/// game's spectator (through the relay), its moves come as they are played, nothing can be
/// played here, and Ctrl+W copies the address watched for the next spectator.
#[test]
fn the_menus_watch_a_game_follows_a_game_on_the_relay_and_ctrl_w_copies_its_address() {
    use crate::saving::{fresh_dir, press};
    use tablero::gui::frame::session::Command;
    let Some(relay) = crate::common::NatsServer::start(&[]) else { return };
    let Some(mut clip) = clipboard() else { return };
    let dir = fresh_dir("watch-relay");
    let host = Host::open(HostOptions {
        record: Some(dir.join("game.json")),
        relay: Some(relay.url()),
        ..HostOptions::remote(Variant::Crossings.initial(), "127.0.0.1:0".parse().unwrap())
    })
    .unwrap();
    host.reach_relay(std::time::Duration::from_secs(10)).unwrap();
    let address = host.relay.as_ref().unwrap().watch_link();
    let seats: Vec<std::sync::Arc<dyn tablero::net::Link>> = host
        .invitations()
        .iter()
        .map(|(_, l)| tablero::net::Invitation::parse(l).unwrap().connect().unwrap())
        .collect();
    let before = [crate::common::one_move(&seats), crate::common::one_move(&seats)];
    let mut app = tablero::gui::headless_menu_app(dir.clone());
    // Something else on the clipboard: the menu says what to copy.
    clip.set_text("hello").unwrap();
    press(&mut app, "Watch a game from the address you copied");
    let said =
        |app: &mut App, words: &str| app.world_mut().query::<&Text>().iter(app.world()).any(|t| t.0.contains(words));
    assert!(said(&mut app, "copy a game's address for spectators"), "the menu says what to copy");
    clip.set_text(address.clone()).unwrap();
    press(&mut app, "Watch a game from the address you copied");
    assert!(
        until(&mut app, |a| a
            .world()
            .get_resource::<tablero::gui::frame::session::Session>()
            .is_some_and(|s| s.spectator)),
        "the table opens as a spectator"
    );
    assert_eq!(session(&app).game.variant(), Variant::Crossings, "the hosted game");
    let shown = |a: &App| session(a).history.iter().map(|(_, m)| m.to_string()).collect::<Vec<_>>();
    assert_eq!(shown(&app), before, "the game so far");
    let next = crate::common::one_move(&seats);
    assert!(until(&mut app, |a| shown(a).len() == 3), "the next move comes: {}", notice(&app));
    assert_eq!(shown(&app)[2], next);
    // Nothing is played here: a spectator's move is refused.
    let mv = session(&app).game.legal_moves()[0].clone();
    app.world_mut().write_message(MoveChosen { mv, by: By::Person });
    settle(&mut app);
    assert_eq!(shown(&app).len(), 3, "a spectator plays nothing");
    // Ctrl+W: the address watched, for the next spectator.
    clip.set_text("something else").unwrap();
    app.world_mut().write_message(Command::CopyWatch);
    assert!(until(&mut app, |a| notice(a).contains("copied the address for spectators")), "{}", notice(&app));
    assert_eq!(clip.get_text().unwrap(), address);
    drop(host);
    std::fs::remove_dir_all(&dir).ok();
}
