//! A seat of a game hosted on another machine (`tablero join <invitation>`): the host's moves
//! reach the rules step as a `Hosted` intent and are animated like any move; this seat's moves,
//! once the rules here took them, go to the host, which decides.

use crate::gui::error::GuiError;
use crate::gui::frame::session::{Command, Notice, Session, TableIntent};
use crate::net::join::{Follower, Heard};
use crate::rules::AnyGame;
use crate::rules::Side;
use crate::table::Intent;
use crate::table::{PlayerKind, Table};
use bevy::prelude::*;

/// The seat's connection to its host.
#[derive(Resource)]
pub struct RemoteSeat {
    /// (A mutex only to make the resource shareable; one system reads it.)
    follower: std::sync::Mutex<Follower>,
    pub seat: Side,
    /// The moves the host has (its last view), and the moves of this table sent to it.
    host_has: usize,
    sent: usize,
    /// What is said of the connection and the other seat, for the message line.
    pub status: String,
    said: String,
    /// At the host's table: the other seat's invitation, said while that seat is away.
    pub invite: Option<String>,
}

impl RemoteSeat {
    pub fn new(follower: Follower, seat: Side, host_has: usize) -> RemoteSeat {
        RemoteSeat {
            follower: std::sync::Mutex::new(follower),
            seat,
            host_has,
            sent: host_has,
            status: String::new(),
            said: String::new(),
            invite: None,
        }
    }
}

pub(crate) fn plugin(app: &mut App) {
    app.add_systems(Update, wake_on_host.run_if(resource_added::<RemoteSeat>))
        .add_systems(PreUpdate, join_pasted.in_set(crate::gui::frame::steps::TableSystems::Pick))
        .add_systems(
            PreUpdate,
            (
                follow.run_if(resource_exists::<RemoteSeat>.and_then(seated)),
                let_go.run_if(resource_exists::<RemoteSeat>.and_then(not(seated))),
            )
                .in_set(crate::gui::frame::steps::TableSystems::Pick)
                .after(join_pasted),
        )
        .add_systems(
            Update,
            send.run_if(resource_exists::<RemoteSeat>.and_then(seated))
                .in_set(crate::gui::frame::steps::TableSystems::Present),
        );
}

/// The window wakes when the host is heard (it sleeps until something happens).
fn wake_on_host(seat: Res<RemoteSeat>, proxy: Option<Res<bevy::winit::EventLoopProxyWrapper>>) {
    if let Some(proxy) = proxy {
        seat.follower.lock().unwrap_or_else(|e| e.into_inner()).on_heard(crate::gui::frame::steps::waker(&proxy));
    }
}

/// An invitation pasted at the table (`Ctrl+V`, or text opened): the table becomes that seat.
fn join_pasted(
    mut commands: MessageReader<Command>,
    mut intents: MessageWriter<TableIntent>,
    mut notice: ResMut<Notice>,
    mut world: Commands,
) {
    for c in commands.read() {
        let text = match c {
            Command::Open(text) => text.clone(),
            Command::Paste => match arboard::Clipboard::new().and_then(|mut c| c.get_text()) {
                Ok(text) => text,
                Err(_) => continue,
            },
            _ => continue,
        };
        if crate::net::Invitation::parse(&text).is_err() {
            continue;
        }
        match seat_table(&text, std::time::Duration::from_secs(2)) {
            Ok((table, seat)) => {
                world.insert_resource(seat);
                intents.write(TableIntent(crate::table::Intent::Replace(Box::new(table))));
            }
            Err(e) => notice.0 = format!("the invitation cannot be used: {e}"),
        }
    }
}

/// Whether the table is still the seat's (a table just replaced counts as the seat's until its
/// next frame, when a pasted invitation's game has arrived).
fn seated(seat: Res<RemoteSeat>, session: Res<Session>) -> bool {
    session.seat == Some(seat.seat) || session.is_changed()
}

/// A table that is no longer the seat's (a new game of one's own) lets the host go.
fn let_go(mut world: Commands) {
    world.remove_resource::<RemoteSeat>();
}

/// What the host says: its moves to the rules step, the connection and the other seat to the
/// message line.
fn follow(mut seat: ResMut<RemoteSeat>, mut intents: MessageWriter<TableIntent>, mut notice: ResMut<Notice>) {
    let heard: Vec<Heard> = seat.follower.lock().unwrap_or_else(|e| e.into_inner()).heard.try_iter().collect();
    for h in heard {
        match h {
            Heard::View(v) => {
                seat.host_has = v.moves.len();
                seat.sent = seat.sent.max(v.moves.len());
                seat.status = match (&v.result, v.your_turn) {
                    (Some(r), _) => r.clone(),
                    (None, _) if v.other == "away" && seat.invite.is_some() => format!(
                        "waiting for the other seat: its invitation (copied to the clipboard) is {}",
                        seat.invite.as_deref().unwrap_or_default()
                    ),
                    (None, true) => format!("your move ({} seat)", v.side),
                    (None, false) if v.other == "away" => "the other seat is away: waiting for it".to_string(),
                    (None, false) => format!("the other seat ({}) is to move", v.other),
                };
                intents.write(TableIntent(Intent::Hosted(v.moves)));
            }
            Heard::Lost { why, retry_in } => {
                seat.status = format!("reconnecting to the host ({why}): trying again in {retry_in:.1} s")
            }
            Heard::Refused(why) => seat.status = why,
        }
    }
    // Said again when it changes, or when a move here cleared the line.
    if seat.said != seat.status || (notice.0.is_empty() && !seat.status.is_empty()) {
        seat.said = seat.status.clone();
        notice.0 = seat.status.clone();
    }
}

/// This seat's moves played here and not yet sent go to the host, in order.
fn send(mut seat: ResMut<RemoteSeat>, session: Res<Session>) {
    let played = session.history.len();
    while seat.sent < played {
        let (before, mv) = &session.history[seat.sent];
        use crate::rules::Game;
        if before.side_to_move() != seat.seat {
            // The other seat's move (from the host): nothing to send.
            seat.sent += 1;
            continue;
        }
        seat.follower.lock().unwrap_or_else(|e| e.into_inner()).send(seat.sent as u64, mv.to_string());
        seat.sent += 1;
    }
    if played < seat.sent && played >= seat.host_has {
        // The table went back (the host's game laid out again): send from there.
        seat.sent = played;
    }
}

/// A seat's table: the host's game read (waiting up to `wait` for the host), this seat's side
/// played here, and the connection that follows the host from there.
pub fn seat_table(invitation: &str, wait: std::time::Duration) -> Result<(Table, RemoteSeat), GuiError> {
    let inv = crate::net::Invitation::parse(invitation)?;
    let deadline = std::time::Instant::now() + wait;
    let view = loop {
        match crate::net::join::request(&inv, "GET", "/seat", None) {
            Ok((200, body)) => {
                break serde_json::from_str::<crate::net::SeatView>(&body)
                    .map_err(|e| crate::net::NetError::Garbled(e.to_string()))?;
            }
            Ok((status, text)) => {
                return Err(crate::net::NetError::Refused { status, text: text.trim().to_string() }.into());
            }
            Err(e) if std::time::Instant::now() > deadline => return Err(e.into()),
            Err(_) => std::thread::sleep(std::time::Duration::from_millis(250)),
        }
    };
    let start: AnyGame = view.start.parse()?;
    let mut table = Table::new(start, [PlayerKind::Person; 2], 1);
    table.seat = Some(inv.seat);
    let _ = table.apply(crate::table::Intent::Hosted(view.moves.clone()));
    let seat = RemoteSeat::new(crate::net::join::Follower::start(inv.clone()), inv.seat, view.moves.len());
    Ok((table, seat))
}
