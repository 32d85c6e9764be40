//! The live feed at the table: the game here served on the feed (`--feed`, the menu's switch),
//! and the table as a spectator of another table's feed (`tablero watch <url>`).

use crate::feed::client::{Heard, Watcher};
use crate::feed::server::Server;
use crate::feed::{Feed, Phase, View};
use crate::gui::frame::session::{FeedOutOfStep, Notice, Session, TableIntent};
use crate::gui::frame::steps::Mode;
use crate::rules::{AnyGame, AnyMove};
use crate::table::{Intent, Table};
use bevy::prelude::*;
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
                Err(e) => self.error = Some(e.to_string()),
            }
        }
    }

    pub fn stop(&mut self) {
        self.server = None;
    }

    pub fn toggle(&mut self) {
        if self.server.is_some() { self.stop() } else { self.start() }
    }

    /// What a spectator watches it with while it serves (`tablero watch`, *Watch a game*).
    pub fn watch_link(&self) -> Option<String> {
        self.server.as_ref().map(|s| s.watch_link())
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

pub(crate) fn plugin(app: &mut App) {
    app.init_resource::<LiveFeed>()
        .add_systems(Update, publish.in_set(crate::gui::frame::steps::TableSystems::Present))
        .add_systems(Update, copy_watch.run_if(resource_exists::<Session>))
        .add_systems(PreUpdate, follow.run_if(spectating).in_set(crate::gui::frame::steps::TableSystems::Pick));
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

/// After every change at the table, the feed is told what changed and what it shows now.
pub(crate) fn publish(
    live: Res<LiveFeed>,
    session: Res<Session>,
    mode: Res<State<Mode>>,
    table: Res<crate::gui::frame::clock::CtorTable>,
    mut changed: MessageReader<crate::gui::frame::session::TableChanged>,
) {
    let changes: Vec<crate::table::Change> = changed.read().flat_map(|c| c.0.iter().cloned()).collect();
    // Told even while it does not serve: when it serves again, it is up to date.
    if !(session.is_changed() || mode.is_changed() || live.is_changed()) {
        return;
    }
    let moves: Vec<AnyMove> = session.history.iter().map(|(_, m)| m.clone()).collect();
    let times: Vec<u64> = session.record.moves.iter().map(|m| m.at_ms).collect();
    let sand = match &session.game {
        AnyGame::Ctor(g) if crate::gui::frame::clock::sand_running(&session) => {
            g.options().timer.map(|per| (per, ((per as f32 - table.clock).max(0.0) * 1000.0) as u64))
        }
        _ => None,
    };
    // The table's own mode: the state follows it a frame later.
    live.feed.publish_changes(&view_of(&session, &moves, &times, Mode::from(session.mode()), sand), &changes);
}

/// *Copy the address for spectators* (Ctrl+W): a hosted game's (on its relay, or its host's
/// feed), else the game watched here, else this table's live feed while it serves.
fn copy_watch(
    mut commands: MessageReader<crate::gui::frame::session::Command>,
    hosting: Option<Res<crate::gui::frame::remote::Hosting>>,
    spectating: Option<Res<Spectating>>,
    live: Res<LiveFeed>,
    session: Res<Session>,
    mut notice: ResMut<Notice>,
) {
    if !commands.read().any(|c| *c == crate::gui::frame::session::Command::CopyWatch) {
        return;
    }
    let address = hosting
        .and_then(|h| h.watch_link())
        .or_else(|| spectating.filter(|_| session.spectator).map(|s| s.url.clone()))
        .or_else(|| live.watch_link());
    notice.0 = match address {
        None => "nobody can watch this game from elsewhere yet: host it through a relay (the menu's Across machines), or turn the live feed on".into(),
        Some(a) => match crate::gui::frame::clipboard::copy(&a) {
            Ok(()) => format!("copied the address for spectators: {a} (tablero watch, or the menu's Watch a game)"),
            Err(e) => format!("the clipboard is not available ({e}); the address for spectators is {a}"),
        },
    };
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
}

impl Spectating {
    pub fn new(url: String, watcher: Watcher) -> Spectating {
        Spectating { url, watcher: std::sync::Mutex::new(watcher), status: String::new(), said: String::new() }
    }
}

/// A spectator of the feed at `url` (`http://HOST:PORT`, or `nats://RELAY:PORT/GAME` through a
/// relay): its first state read (waiting up to `wait`) as a table, and the connection that
/// follows on from it.
pub fn spectator(url: &str, wait: std::time::Duration) -> Result<(Table, Spectating), crate::gui::error::GuiError> {
    use crate::feed::client::Heard;
    let base = crate::feed::client::base_url(url)?;
    // The first state before the window opens: a feed that is not there is said at once.
    let watcher = crate::feed::client::watch(&base)?;
    let deadline = std::time::Instant::now() + wait;
    let mut last_why = String::from("no answer");
    let table = loop {
        let left = deadline.saturating_duration_since(std::time::Instant::now());
        match watcher.heard.recv_timeout(left) {
            Ok(Heard::State(state)) => break Table::from_feed_state(&state)?,
            Ok(Heard::Lost { why, .. }) => last_why = why,
            Ok(Heard::Event(_)) => {}
            Err(_) => return Err(crate::gui::error::GuiError::Watch { base, why: last_why }),
        }
    };
    let mut spectating = Spectating::new(base.clone(), watcher);
    spectating.status = format!("watching {base}");
    Ok((table, spectating))
}

/// The window wakes when the feed is heard (it sleeps until something happens).
pub(crate) fn wake_on_feed(spectating: Res<Spectating>, proxy: Option<Res<bevy::winit::EventLoopProxyWrapper>>) {
    spectating.wake(proxy.as_deref());
}

impl Spectating {
    /// Wakes the window (if there is one) whenever the feed is heard.
    pub fn wake(&self, proxy: Option<&bevy::winit::EventLoopProxyWrapper>) {
        if let Some(proxy) = proxy {
            self.watcher.lock().unwrap_or_else(|e| e.into_inner()).on_heard(crate::gui::frame::steps::waker(proxy));
        }
    }
}

/// The spectator's pick step: what the feed says happened goes to the rules step, to be
/// played here and animated like a move at this table (a state read replaces the game here
/// if it does not follow); when the table finds the feed out of step, its state is read again.
fn follow(
    mut spectating: ResMut<Spectating>,
    mut out_of_step: MessageReader<FeedOutOfStep>,
    mut notice: ResMut<Notice>,
    mut intents: MessageWriter<TableIntent>,
) {
    if out_of_step.read().count() > 0 {
        // Something here does not match the feed: the next state read fixes it.
        spectating.watcher.lock().unwrap_or_else(|e| e.into_inner()).resync();
    }
    let heard: Vec<Heard> = spectating.watcher.lock().unwrap_or_else(|e| e.into_inner()).heard.try_iter().collect();
    for h in heard {
        match h {
            Heard::State(state) => match Table::from_feed_state(&state) {
                Ok(fresh) => {
                    intents.write(TableIntent(Intent::FeedState(Box::new(fresh))));
                    spectating.status = format!("watching {}", spectating.url);
                }
                Err(why) => spectating.status = format!("the feed's game cannot be shown: {why}"),
            },
            Heard::Event(event) => {
                intents.write(TableIntent(Intent::FeedEvent(*event)));
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
