//! The live feed at the table: the game here served on the feed (`--feed`, the menu's switch),
//! and the table as a spectator of another table's feed (`tablero watch <url>`).

use super::Mode;
use super::session::{By, Notice, Played, PlayerKind, Session};
use super::table::Rebuild;
use crate::feed::client::{Heard, Watcher};
use crate::feed::server::Server;
use crate::feed::{Feed, Phase, View};
use crate::record::PlayerInfo;
use crate::rules::ctor::SecretState;
use crate::rules::{AnyGame, AnyMove, Effect, Game, Side};
use bevy::prelude::*;
use serde_json::Value;
use std::net::SocketAddr;
use std::sync::Arc;

/// The feed of the game at the table, and its server while it is on.
#[derive(Resource)]
pub struct LiveFeed {
    pub feed: Arc<Feed>,
    server: Option<Server>,
    /// Where it serves (127.0.0.1:7878 unless asked otherwise).
    pub addr: SocketAddr,
    /// Why it could not start, until it starts.
    pub error: Option<String>,
}

impl Default for LiveFeed {
    fn default() -> LiveFeed {
        LiveFeed {
            feed: Feed::new(),
            server: None,
            addr: SocketAddr::from((std::net::Ipv4Addr::LOCALHOST, crate::feed::DEFAULT_PORT)),
            error: None,
        }
    }
}

impl LiveFeed {
    /// A feed that starts serving on `addr` at once.
    pub fn on(addr: SocketAddr) -> LiveFeed {
        let mut live = LiveFeed { addr, ..default() };
        live.start();
        live
    }

    /// The feed's address while it serves (`http://127.0.0.1:7878`).
    pub fn url(&self) -> Option<String> {
        self.server.as_ref().map(|s| s.url())
    }

    pub fn start(&mut self) {
        if self.server.is_none() {
            match crate::feed::server::serve(self.feed.clone(), self.addr) {
                Ok(s) => {
                    self.addr = s.addr;
                    self.server = Some(s);
                    self.error = None;
                }
                Err(e) => self.error = Some(e),
            }
        }
    }

    pub fn stop(&mut self) {
        self.server = None;
    }

    pub fn toggle(&mut self) {
        if self.server.is_some() { self.stop() } else { self.start() }
    }

    /// One line for the menu and the panel.
    pub fn line(&self) -> String {
        match (&self.server, &self.error) {
            (Some(s), _) => format!("live feed: {}/overlay (state, events)", s.url()),
            (None, Some(e)) => format!("live feed off: {e}"),
            (None, None) => "live feed: off".into(),
        }
    }
}

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<LiveFeed>().add_systems(Update, publish.in_set(super::TableSystems::Present)).add_systems(
        Update,
        follow.run_if(spectating).in_set(super::TableSystems::Rules).before(super::follow_mode_now),
    );
}

/// Watching a feed, and the game at the table is the feed's (a spectator who went to the menu
/// and started a game of their own plays it undisturbed).
fn spectating(spectating: Option<Res<Spectating>>, session: Option<Res<Session>>) -> bool {
    spectating.is_some() && session.is_some_and(|s| s.spectator)
}

/// What the table shows, for the feed.
pub fn view_of<'a>(
    session: &'a Session,
    moves: &'a [AnyMove],
    times: &'a [u64],
    mode: Mode,
    sand: Option<(u8, u64)>,
) -> View<'a> {
    View {
        game: session.record.created_ms,
        // The start with its secret squares (chosen after the table opened).
        start: session.history.first().map(|(g, _)| g).unwrap_or(&session.game),
        moves,
        times,
        started_ms: session.record.created_ms,
        players: &session.record.players,
        phase: match mode {
            Mode::Live => Phase::Play,
            Mode::Secrets => Phase::Secrets,
            Mode::Replay => Phase::Replay,
        },
        sand,
    }
}

/// After every change at the table, the feed is told what it shows now.
pub(super) fn publish(
    live: Res<LiveFeed>,
    session: Option<Res<Session>>,
    mode: Option<Res<State<Mode>>>,
    table: Option<Res<super::ctor_table::CtorTable>>,
) {
    let (Some(session), Some(mode)) = (session, mode) else { return };
    // Told even while it does not serve: when it serves again, it is up to date.
    if !(session.is_changed() || mode.is_changed() || live.is_changed()) {
        return;
    }
    let moves: Vec<AnyMove> = session.history.iter().map(|(_, m)| m.clone()).collect();
    let times: Vec<u64> = session.record.moves.iter().map(|m| m.at_ms).collect();
    let sand = match (&session.game, table) {
        (AnyGame::Ctor(g), Some(t)) if super::ctor_table::sand_running(&session) => {
            g.options().timer.map(|per| (per, ((per as f32 - t.clock).max(0.0) * 1000.0) as u64))
        }
        _ => None,
    };
    live.feed.publish(&view_of(&session, &moves, &times, *mode.get(), sand));
}

/// Watching another table's feed.
#[derive(Resource)]
pub struct Spectating {
    pub url: String,
    /// (A mutex only to make the resource shareable; one system reads it.)
    watcher: std::sync::Mutex<Watcher>,
    /// What was last heard about the connection, for the message line.
    pub status: String,
    /// The status last put on the message line.
    said: String,
    /// Events that do not follow from the session here (a mismatch): the next state read
    /// replaces the session.
    stale: bool,
}

impl Spectating {
    pub fn new(url: String, watcher: Watcher) -> Spectating {
        Spectating {
            url,
            watcher: std::sync::Mutex::new(watcher),
            status: String::new(),
            said: String::new(),
            stale: false,
        }
    }
}

/// The window wakes when the feed is heard (it sleeps until something happens).
pub(super) fn wake_on_feed(spectating: Res<Spectating>, proxy: Option<Res<bevy::winit::EventLoopProxyWrapper>>) {
    if let Some(proxy) = proxy {
        let proxy = (**proxy).clone();
        spectating.watcher.lock().unwrap_or_else(|e| e.into_inner()).on_heard(move || {
            let _ = proxy.send_event(bevy::winit::WinitUserEvent::WakeUp);
        });
    }
}

/// The spectator's session from a feed's `/state`: the start, with the secret squares revealed
/// so far (they work again exactly when they worked), and every move played.
pub fn session_from_state(state: &Value) -> Result<Session, String> {
    let text = |v: &Value, key: &str| v.get(key).and_then(Value::as_str).map(str::to_string);
    let start = text(state, "start").ok_or("the feed has no game yet")?;
    let mut game: AnyGame = start.parse().map_err(|e: crate::rules::PositionError| e.to_string())?;
    if let (AnyGame::Ctor(g), Some(list)) = (&mut game, state.pointer("/after/revealed").and_then(Value::as_array)) {
        for r in list {
            if let (Some(owner), Some(sq)) =
                (owner_of(&text(r, "owner").unwrap_or_default(), g.variant()), r.get("square").and_then(Value::as_u64))
            {
                g.know_secret(owner, sq as u16, SecretState::Hidden);
            }
        }
    }
    let players: Vec<PlayerInfo> = state
        .get("players")
        .and_then(Value::as_array)
        .map(|a| {
            a.iter()
                .map(|p| PlayerInfo {
                    name: text(p, "name").unwrap_or_default(),
                    kind: text(p, "kind").unwrap_or_default(),
                })
                .collect()
        })
        .unwrap_or_default();
    let kinds = [0, 1].map(|i| players.get(i).map(|p| PlayerKind::from_record(&p.kind)).unwrap_or(PlayerKind::Person));
    let mut session = Session::new(game, kinds, 1);
    session.spectator = true;
    if let [a, b] = &players[..] {
        session.record.players = [a.clone(), b.clone()];
    }
    for (i, m) in state.get("moves").and_then(Value::as_array).into_iter().flatten().enumerate() {
        let t = text(m, "move").unwrap_or_default();
        let mv = session.game.parse_move(&t).map_err(|e| format!("the feed's move {} ({t}): {e}", i + 1))?;
        session.play(&mv)?;
    }
    Ok(session)
}

fn owner_of(name: &str, v: crate::rules::Variant) -> Option<Side> {
    [Side::First, Side::Second].into_iter().find(|s| v.side_name(*s) == name)
}

/// The spectator's step of the rules: what the feed says happened is played here, animated
/// like a move at this table; a state read replaces the session if it does not follow.
fn follow(
    mut spectating: ResMut<Spectating>,
    mut session: ResMut<Session>,
    mut notice: ResMut<Notice>,
    mut played: MessageWriter<Played>,
    mut rebuild: MessageWriter<Rebuild>,
) {
    let heard: Vec<Heard> = spectating.watcher.lock().unwrap_or_else(|e| e.into_inner()).heard.try_iter().collect();
    for h in heard {
        match h {
            Heard::State(state) => match session_from_state(&state) {
                Ok(fresh) => {
                    if spectating.stale || !catch_up(&mut session, &fresh, &mut played) {
                        *session = fresh;
                        rebuild.write(Rebuild);
                    }
                    spectating.stale = false;
                    spectating.status = format!("watching {}", spectating.url);
                }
                Err(why) => spectating.status = format!("the feed's game cannot be shown: {why}"),
            },
            Heard::Event { kind, data } => {
                if spectating.stale {
                    continue;
                }
                if !apply(&mut session, &kind, &data, &mut played, &mut rebuild) {
                    // Something here does not match the feed: the next state read fixes it.
                    spectating.stale = true;
                    spectating.watcher.lock().unwrap_or_else(|e| e.into_inner()).resync();
                }
            }
            Heard::Lost { why, retry_in } => {
                spectating.status = format!("the feed dropped ({why}): trying again in {retry_in:.1} s");
            }
        }
    }
    if spectating.said != spectating.status {
        spectating.said = spectating.status.clone();
        notice.0 = spectating.status.clone();
    }
}

/// If the feed's game (`fresh`, read from its state) continues the session here, plays the
/// moves it has beyond ours, animated; false if it does not (the session is to be replaced).
fn catch_up(session: &mut Session, fresh: &Session, played: &mut MessageWriter<Played>) -> bool {
    let ours = &session.history;
    if session.start.to_string() != fresh.start.to_string()
        || fresh.history.len() < ours.len()
        || fresh.record.players != session.record.players
        || ours.iter().zip(&fresh.history).any(|((_, a), (_, b))| a != b)
    {
        return false;
    }
    // Secrets revealed since: the fresh replay knows them; ours must too before playing on.
    if fresh.history.len() > ours.len() && matches!(session.game, AnyGame::Ctor(_)) {
        return false;
    }
    let missing: Vec<AnyMove> = fresh.history[ours.len()..].iter().map(|(_, m)| m.clone()).collect();
    for mv in missing {
        let Ok(parts) = session.play(&mv) else { return false };
        played.write(Played { mv, by: By::History, parts, shown: 0 });
    }
    session.game == fresh.game
}

/// One event from the feed; false if it does not follow from the session here.
fn apply(
    session: &mut Session,
    kind: &str,
    data: &Value,
    played: &mut MessageWriter<Played>,
    rebuild: &mut MessageWriter<Rebuild>,
) -> bool {
    let after = data.pointer("/after/position").and_then(Value::as_str);
    match kind {
        "move" | "redo" => {
            let text = data.get("move").and_then(Value::as_str).unwrap_or_default();
            let Ok(mv) = session.game.parse_move(text) else { return false };
            let parts: Vec<Vec<Effect>> =
                data.get("parts").and_then(|p| serde_json::from_value(p.clone()).ok()).unwrap_or_default();
            // A secret square that works with this move: the spectator learns it now, just
            // before, so that the rules here turn the same discs as at the feed's table.
            if let AnyGame::Ctor(g) = &mut session.game {
                for e in parts.iter().flatten() {
                    if let Effect::SecretRevealed { at, owner } = e
                        && let Some(sq) = g.square(*at)
                    {
                        g.know_secret(*owner, sq, SecretState::Pending);
                    }
                }
            }
            let Ok(ours) = session.play(&mv) else { return false };
            if ours != parts || Some(session.game.to_string().as_str()) != after {
                return false;
            }
            played.write(Played { mv, by: By::History, parts: ours, shown: 0 });
            true
        }
        "undo" => {
            let ply = data.get("ply").and_then(Value::as_u64).unwrap_or(u64::MAX);
            if !session.undo()
                || session.history.len() as u64 != ply
                || Some(session.game.to_string().as_str()) != after
            {
                return false;
            }
            rebuild.write(Rebuild);
            true
        }
        "new_game" => match data.get("state").map(session_from_state) {
            Some(Ok(s)) => {
                *session = s;
                rebuild.write(Rebuild);
                true
            }
            _ => false,
        },
        // The session knows the result and the phase from its own rules.
        _ => true,
    }
}
