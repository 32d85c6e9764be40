//! CTOR's team play at one table, driven as people drive it: the menu's team block, each
//! member's blind Puts behind the hand-over screen (clicks on squares), a collision and the
//! later member choosing again, the acting seat ending the turn, members leaving and players
//! joining between turns, computer members, the record and its check, and what the broadcast
//! and the live feed may show.

use crate::saving::{fresh_dir, press, press_player, saved};
use crate::table::{click, session, settle};
use bevy::prelude::*;
use std::collections::BTreeMap;
use tablero::gui::frame::session::SecretCommand;
use tablero::gui::frame::session::{PlayerKind, Session};
use tablero::gui::screens::choice::MenuSeats;
use tablero::record::{PlayerInfo, Record};
use tablero::rules::ctor::Square;
use tablero::rules::{AnyGame, Game, Side};
use tablero::table::{Intent, Table};
use tablero::table::{RoundPhase, TeamRound};
use tablero::team::{Lead, TeamRecord, shares};

fn send(app: &mut App, c: SecretCommand) {
    app.world_mut().write_message(c);
    app.update();
    app.update();
}

fn round(app: &App) -> TeamRound {
    app.world().resource::<Session>().round.clone()
}

fn ctor(app: &App) -> tablero::rules::ctor::Ctor {
    match &session(app).game {
        AnyGame::Ctor(g) => g.clone(),
        _ => panic!("a CTOR game"),
    }
}

/// What a game played out saw.
#[derive(Default, Debug)]
struct Seen {
    hand_overs: usize,
    collisions: usize,
    /// (turn, member) of every hand-over.
    handed: Vec<(u32, u8)>,
    prompts: Vec<String>,
}

/// Plays the team game at the table to its end by clicks and the hand-over screen's
/// buttons. Member `m` clicks free squares counted from its own offset, so that members do
/// not collide, except in turn `collide_at`, where the second member clicks the first's
/// square. The seat acting ends each turn. `between` runs as each turn begins.
fn play_out(app: &mut App, collide_at: u32, between: impl FnMut(&mut App, u32)) -> Seen {
    play_until(app, collide_at, |g| g.outcome().is_some(), between)
}

/// [`play_out`] until `done` says so of the game at the table. A person who plays alone (no
/// team) clicks free squares while Puts are left, then ends the turn.
fn play_until(
    app: &mut App,
    collide_at: u32,
    done: impl Fn(&tablero::rules::ctor::Ctor) -> bool,
    mut between: impl FnMut(&mut App, u32),
) -> Seen {
    let mut seen = Seen::default();
    let mut turn = 0;
    for _ in 0..4000 {
        settle(app);
        let g = ctor(app);
        if done(&g) {
            return seen;
        }
        if g.turn() != turn {
            turn = g.turn();
            between(app, turn);
            app.update();
            app.update();
        }
        let r = round(app);
        match r.phase {
            RoundPhase::HandOver(m, _) => {
                let prompt = session(app).round_prompt().unwrap();
                let name = session(app).member_name(g.side_to_move(), m);
                assert!(prompt.contains(&format!("hand the screen to {name}")), "{prompt}");
                seen.hand_overs += 1;
                seen.handed.push((turn, m));
                seen.prompts.push(prompt);
                send(app, SecretCommand::Proceed);
            }
            RoundPhase::Choosing(m, n, _) => {
                let n2 = g.size() as Square * g.size() as Square;
                let mut picks: Vec<Square> = Vec::new();
                if turn == collide_at && m == 1 && seen.collisions == 0 {
                    // The first member's square.
                    let first = r.choices.iter().find(|(x, _)| *x == 0).expect("the first member chose").1;
                    picks.push(first);
                }
                let offset = m as Square * 23;
                // Squares no team-mate chose, then (a nearly full field) any free one.
                for mates_too in [false, true] {
                    for k in 0..n2 {
                        let sq = (offset + k) % n2 + 1;
                        let mate = r.choices.iter().any(|(_, s)| *s == sq);
                        if picks.len() < n as usize
                            && g.disc(sq).is_none()
                            && !picks.contains(&sq)
                            && (mates_too || !mate)
                        {
                            picks.push(sq);
                        }
                    }
                }
                let want = picks.len();
                for sq in picks {
                    click(app, g.cell(sq));
                }
                assert_eq!(round(app).choosing().map(|(_, s)| s.len()), Some(want), "the clicks chose");
                send(app, SecretCommand::PutsDone);
                let after = round(app);
                if after.revealed.contains("both chose") {
                    seen.collisions += 1;
                    seen.prompts.push(after.revealed.clone());
                }
            }
            RoundPhase::Placing | RoundPhase::Open => app.update(),
            RoundPhase::Idle
                if session(app).person_to_move()
                    && session(app).record.team.as_ref().is_none_or(|t| {
                        t.seats_at(session(app).history.len())[g.side_to_move().index()].len() == 1
                    })
                    && g.left().puts > 0
                    && g.count(Side::First) + g.count(Side::Second) < g.size() as u32 * g.size() as u32 =>
            {
                let n2 = g.size() as Square * g.size() as Square;
                let sq = (1..=n2).find(|s| g.disc(*s).is_none()).unwrap();
                click(app, g.cell(sq));
            }
            RoundPhase::Idle if session(app).person_to_move() => {
                app.world_mut().write_message(tablero::gui::frame::session::Command::EndTurn);
                app.update();
            }
            RoundPhase::Idle => app.update(),
        }
    }
    panic!("the game did not end");
}

/// Every turn's Puts, member by member, as the session recorded them.
fn puts_by_turn(s: &Session) -> BTreeMap<(u32, u8), u8> {
    let mut out = BTreeMap::new();
    for ((before, mv), member) in s.history.iter().zip(&s.members) {
        let AnyGame::Ctor(b) = before else { continue };
        if tablero::team::is_put(mv) {
            *out.entry((b.turn(), member.expect("a team game's Put has its member"))).or_insert(0) += 1;
        }
    }
    out
}

/// A 2 against 2 game from the menu: the members named there, each Put chosen blind behind
/// the hand-over screen, a collision in black's first full turn, the captain ending each
/// turn; saved after every move, and the file passes the check.
#[test]
fn a_two_against_two_game_is_played_by_clicks_with_hand_overs_and_a_collision() {
    let dir = fresh_dir("team-2v2");
    let mut app = tablero::gui::headless_menu_app(dir.clone());
    press(&mut app, "CTOR 8x8");
    press(&mut app, "Teams");
    for side in [Side::First, Side::Second] {
        press_player(&mut app, side, PlayerKind::Person);
    }
    // The second black member's name, typed in the menu.
    press(&mut app, "Black 2");
    assert!(app.world().resource::<MenuSeats>().editing.is_some());
    type_text(&mut app, "\u{8}Bo");
    assert_eq!(app.world().resource::<MenuSeats>().names[0][1], "Black Bo");
    press(&mut app, "Start");
    let team = session(&app).record.team.clone().expect("a team game");
    assert_eq!(team.seats[0].iter().map(|p| p.name.as_str()).collect::<Vec<_>>(), ["Black 1", "Black Bo"]);
    assert_eq!(session(&app).record.players[0].name, "Black 1, Black Bo");
    let seen = play_out(&mut app, 3, |_, _| {});
    let s = session(&app);
    assert!(s.game.outcome().is_some());
    assert!(seen.collisions >= 1, "{:?}", seen.prompts);
    assert!(
        seen.prompts
            .iter()
            .any(|p| p.contains("Black 1 and Black Bo both chose") && p.contains("Black Bo chooses again")),
        "{:?}",
        seen.prompts
    );
    // Turn 3: Bo is handed the screen twice (once more after the collision).
    assert_eq!(seen.handed.iter().filter(|h| **h == (3, 1)).count(), 2, "{:?}", seen.handed);
    // Every full turn: each member made exactly their share, one Put each; the third turn's
    // three opening Puts are shared two and one.
    let puts = puts_by_turn(s);
    assert_eq!((puts.get(&(3, 0)), puts.get(&(3, 1))), (Some(&2), Some(&1)), "{puts:?}");
    let full_turns: Vec<u32> = (4..s.history.last().map(|(b, _)| ctor_turn(b)).unwrap()).collect();
    for t in full_turns {
        assert_eq!((puts.get(&(t, 0)), puts.get(&(t, 1))), (Some(&1), Some(&1)), "turn {t}: {puts:?}");
    }
    assert_eq!(puts.get(&(1, 0)), Some(&1), "the opening Put is the first member's");
    assert!(seen.hand_overs >= 40, "{} hand-overs", seen.hand_overs);
    // The file: every Put with its member, and it passes the check.
    let files = saved(&dir);
    assert_eq!(files.len(), 1);
    let rec = &files[0].1;
    assert_eq!(rec.moves.len(), s.history.len());
    assert_eq!(rec.moves.iter().map(|m| m.member).collect::<Vec<_>>(), s.members);
    rec.replay().expect("the record passes the team check");
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_tablero")).arg("check").arg(&files[0].0).output().unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
}

fn ctor_turn(g: &AnyGame) -> u32 {
    match g {
        AnyGame::Ctor(c) => c.turn(),
        _ => 0,
    }
}

/// Types `text` into the focused field, one key event a character (`\u{8}` is Backspace).
fn type_text(app: &mut App, text: &str) {
    use bevy::input::ButtonState;
    use bevy::input::keyboard::{Key, KeyboardInput, NativeKey, NativeKeyCode};
    let window = Entity::PLACEHOLDER;
    for ch in text.chars() {
        let logical_key = if ch == '\u{8}' { Key::Backspace } else { Key::Character(ch.to_string().into()) };
        app.world_mut().write_message(KeyboardInput {
            key_code: KeyCode::Unidentified(NativeKeyCode::Unidentified),
            logical_key,
            state: ButtonState::Pressed,
            text: None,
            repeat: false,
            window,
        });
        app.update();
    }
    let _ = NativeKey::Unidentified;
}

fn seat(name: &str, kind: &str) -> PlayerInfo {
    PlayerInfo { name: name.into(), kind: kind.into() }
}

/// A team game at the table with these seats (no menu).
fn team_table(sizes: [u8; 2], seats: [Vec<PlayerInfo>; 2], lead: Lead) -> App {
    use tablero::rules::ctor::{Ctor, Options, Teams};
    let game = AnyGame::Ctor(Ctor::new(8, Teams::new(sizes), Options::default()));
    let mut s = Table::new(game, [PlayerKind::Person; 2], 3);
    s.record.team = Some(TeamRecord::new(seats, lead));
    let mut app = tablero::gui::headless_app_with(s);
    app.insert_resource(tablero::gui::frame::animate::Speed::Instant);
    app
}

/// A 3 against 3 game with a computer member, the Moves in rotation, a member leaving (the
/// team of two then shares three Puts as 2 and 1), a player joining, a fourth refused, and a
/// collision; the record keeps it all and replays.
#[test]
fn a_three_against_three_game_with_a_computer_member_a_leave_and_a_join() {
    let seats = [
        vec![seat("Ana", "human"), seat("Bo", "human"), seat("Cy", "human")],
        vec![seat("Di", "human"), seat("Ed", "human"), seat("Hal", "ai:easy")],
    ];
    let mut app = team_table([3, 3], seats, Lead::Rotation);
    let mut refused = String::new();
    let seen = play_out(&mut app, 5, |app, turn| {
        match turn {
            // Before black's turn 7: the computer leaves white (a team of two in a 3v3).
            7 => send(app, SecretCommand::Leave(Side::Second, 2)),
            // Before black's turn 13: a player joins white, and a fourth may not.
            13 => {
                send(app, SecretCommand::Join(Side::Second));
                send(app, SecretCommand::Join(Side::Second));
                refused = app.world().resource::<tablero::gui::frame::session::Notice>().0.clone();
            }
            _ => {}
        }
    });
    assert!(refused.contains("nobody more may join"), "{refused}");
    let s = session(&app);
    assert!(s.game.outcome().is_some());
    assert!(seen.collisions >= 1, "{:?}", seen.prompts);
    let team = s.record.team.clone().unwrap();
    assert_eq!(team.changes.len(), 2, "{:?}", team.changes);
    assert_eq!(
        team.seats_at(s.history.len())[1].iter().map(|p| p.name.as_str()).collect::<Vec<_>>(),
        ["Di", "Ed", "White 1"]
    );
    // White's turns: the computer chose without a hand-over while seated; after it left, Di
    // made two Puts a turn and Ed one; after the join, one each.
    let puts = puts_by_turn(s);
    assert!(
        !seen.handed.iter().any(|(t, m)| t % 2 == 0 && *m == 2 && *t < 7),
        "the computer is never handed the screen"
    );
    assert_eq!(puts.get(&(6, 2)), Some(&1), "Hal's Put in turn 6: {puts:?}");
    for t in [8, 10, 12] {
        assert_eq!((puts.get(&(t, 0)), puts.get(&(t, 1)), puts.get(&(t, 2))), (Some(&2), Some(&1), None), "turn {t}");
    }
    assert_eq!((puts.get(&(14, 0)), puts.get(&(14, 1)), puts.get(&(14, 2))), (Some(&1), Some(&1), Some(&1)));
    assert_eq!(shares(3, 2), vec![2, 1]);
    // The ends of turn are the acting seat's: in rotation, the team's n-th turn its n-th member.
    for ((before, mv), member) in s.history.iter().zip(&s.members) {
        if mv.to_string() == "E" {
            let AnyGame::Ctor(b) = before else { unreachable!() };
            let n = team.seats_at(0)[b.side_to_move().index()].len();
            let n = if b.side_to_move() == Side::Second && (7..13).contains(&b.turn()) { 2 } else { n };
            assert_eq!(*member, Some(((b.turn() as usize - 1) / 2 % n) as u8), "turn {}", b.turn());
        }
    }
    let back = Record::from_json(&s.record.to_json()).unwrap();
    assert_eq!(back, s.record);
    back.replay().expect("the 3v3 record passes the check");
    // Replayed, the record shows the same Puts by the same members.
    let mut replay = Table::replay(back).unwrap();
    replay.apply(Intent::Jump(usize::MAX)).unwrap();
    assert_eq!(replay.members, s.members);
}

/// A computer member chooses from its team's view alone: its choice does not change when
/// the team-mate's pending choice or the opponent's secret squares change.
#[test]
fn a_computer_member_never_reads_a_team_mates_choice_or_the_opponents_secrets() {
    let mut choices = Vec::new();
    for (mate, secrets) in
        [(20u16, [1u16, 2, 3, 4, 5]), (40, [1, 2, 3, 4, 5]), (20, [30, 31, 33, 34, 35]), (33, [60, 61, 62, 63, 64])]
    {
        let seats =
            [vec![seat("Ana", "human"), seat("Bo", "human")], vec![seat("Di", "human"), seat("Hal", "ai:hard")]];
        let mut app = team_table([2, 2], seats, Lead::Captain);
        app.world_mut().resource_mut::<Session>().apply(Intent::Secrets(Side::First, secrets.to_vec())).unwrap();
        // Black's opening Put, then white's turn: Di chooses `mate`, then Hal at once.
        send(&mut app, SecretCommand::Proceed);
        let cell = ctor(&app).cell(10);
        click(&mut app, cell);
        send(&mut app, SecretCommand::PutsDone);
        settle(&mut app);
        app.world_mut().write_message(tablero::gui::frame::session::Command::EndTurn);
        app.update();
        settle(&mut app);
        assert_eq!(ctor(&app).side_to_move(), Side::Second);
        assert!(matches!(round(&app).phase, RoundPhase::HandOver(0, 1)), "{:?}", round(&app).phase);
        send(&mut app, SecretCommand::Proceed);
        let cell = ctor(&app).cell(mate);
        click(&mut app, cell);
        app.update();
        let before_done = round(&app);
        assert!(before_done.choices.is_empty(), "Di's choice is pending until Done");
        // One frame: the choices as revealed, before a collision sends Hal to choose again.
        app.world_mut().write_message(SecretCommand::PutsDone);
        app.update();
        let hal: Vec<Square> = round(&app).choices.iter().filter(|(m, _)| *m == 1).map(|(_, s)| *s).collect();
        assert_eq!(hal.len(), 1);
        choices.push(hal[0]);
    }
    assert!(choices.windows(2).all(|w| w[0] == w[1]), "{choices:?}");
}

/// The broadcast and the live feed see a turn's Puts only once revealed: the member's marks
/// stay on the player's layer, and the feed's moves do not hold the Put until it is placed.
#[test]
fn the_broadcast_and_the_live_feed_show_puts_only_when_revealed() {
    use bevy::camera::visibility::RenderLayers;
    use tablero::gui::sets::torus::marks::ChoiceMark;
    use tablero::gui::stream::broadcast::{BroadcastCamera, OpenBroadcast};
    let seats = [vec![seat("Ana", "human"), seat("Bo", "human")], vec![seat("Di", "human"), seat("Ed", "human")]];
    let mut app = team_table([2, 2], seats, Lead::Captain);
    app.add_plugins(tablero::gui::stream::broadcast::plugin);
    app.world_mut().write_message(OpenBroadcast);
    app.update();
    app.update();
    let feed = app.world().resource::<tablero::gui::stream::feed::LiveFeed>().feed.clone();
    let feed_moves = |feed: &std::sync::Arc<tablero::feed::Feed>| feed.state().shown.map_or(0, |s| s.moves.len());
    // Space (the key that ends a turn) is Continue on the hand-over screen.
    assert!(matches!(round(&app).phase, RoundPhase::HandOver(0, 1)), "{:?}", round(&app).phase);
    app.world_mut().write_message(tablero::gui::frame::session::Command::EndTurn);
    app.update();
    assert!(matches!(round(&app).phase, RoundPhase::Choosing(0, 1, _)), "{:?}", round(&app).phase);
    let cell = ctor(&app).cell(12);
    click(&mut app, cell);
    app.update();
    let world = app.world_mut();
    let cam: RenderLayers = world
        .query_filtered::<Option<&RenderLayers>, With<BroadcastCamera>>()
        .single(world)
        .unwrap()
        .cloned()
        .unwrap_or_default();
    let marks: Vec<Option<RenderLayers>> =
        world.query::<(&ChoiceMark, Option<&RenderLayers>)>().iter(world).map(|(_, l)| l.cloned()).collect();
    assert_eq!(marks.len(), 1, "Ana sees her choice at the table");
    assert!(marks.iter().all(|l| !l.clone().unwrap_or_default().intersects(&cam)), "the broadcast does not");
    assert_eq!(feed_moves(&feed), 0, "nor does the feed");
    assert_eq!(ctor(&app).disc(12), None);
    // Space (the key that ends a turn) is Done while choosing.
    app.world_mut().write_message(tablero::gui::frame::session::Command::EndTurn);
    app.update();
    app.update();
    settle(&mut app);
    assert_eq!(ctor(&app).disc(12), Some(Side::First), "revealed and placed");
    assert_eq!(ctor(&app).turn(), 1, "Space did not end the turn as well");
    app.update();
    assert_eq!(feed_moves(&feed), 1, "the feed has the Put once revealed: {:?}", feed.state());
    let world = app.world_mut();
    assert_eq!(world.query::<&ChoiceMark>().iter(world).count(), 0);
}

/// The seed: "the team that plays first puts 1 disc, the second team puts 2 discs, and then the
/// first team may put 3 discs; after this the game returns to the normal rules (the table)". A
/// new CTOR game from the menu, in each of the nine formats the menu offers (people at every
/// seat, the Puts chosen by clicks, behind the hand-over screen in a team): turns 1 to 3 only
/// Put, 1, 2 and 3 discs, and the fourth turn is the table's row.
#[test]
fn a_new_ctor_game_from_the_menu_opens_one_two_three_in_every_format() {
    use tablero::gui::screens::choice::{MenuChoice, TEAMS};
    use tablero::rules::ctor::Allowance;
    for (k, sizes) in TEAMS.iter().enumerate() {
        let dir = fresh_dir(&format!("opening-{k}"));
        let mut app = tablero::gui::headless_menu_app(dir);
        press(&mut app, "CTOR 8x8");
        for _ in 0..k {
            press(&mut app, "Teams");
        }
        for side in [Side::First, Side::Second] {
            press_player(&mut app, side, PlayerKind::Person);
        }
        assert_eq!(app.world().resource::<MenuChoice>().ctor_teams().sizes, *sizes);
        press(&mut app, "Start");
        assert_eq!(ctor(&app).teams().sizes, *sizes, "the table plays the format chosen");
        let mut begun: Vec<(u32, Allowance)> = Vec::new();
        let mut discs_after_three = None;
        play_until(
            &mut app,
            0,
            |g| g.turn() > 4,
            |app, turn| {
                let g = ctor(app);
                begun.push((turn, g.left()));
                if turn == 4 {
                    discs_after_three = Some((g.count(Side::First), g.count(Side::Second)));
                }
            },
        );
        let only_puts = |n: u8| Allowance { puts: n, steps: 0, landings: 0 };
        let normal = if sizes[0].max(sizes[1]) == 3 {
            Allowance { puts: 3, steps: 3, landings: 0 }
        } else if *sizes == [1, 1] {
            Allowance { puts: 2, steps: 2, landings: 1 }
        } else {
            Allowance { puts: 2, steps: 2, landings: 0 }
        };
        assert_eq!(
            begun,
            [(1, only_puts(1)), (2, only_puts(2)), (3, only_puts(3)), (4, normal)],
            "{}v{}",
            sizes[0],
            sizes[1]
        );
        assert_eq!(discs_after_three, Some((4, 2)), "{}v{}: black put 1 and 3, white 2", sizes[0], sizes[1]);
    }
}
