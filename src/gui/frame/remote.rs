//! A seat of a game hosted on another machine (`tablero join <invitation>`): the host's moves
//! reach the rules step as a `Hosted` intent and are animated like any move; this seat's moves,
//! once the rules here took them, go to the host, which decides. Undo asks the other side, and
//! Y answers its question (or asks for a rematch after the end), Escape refuses it. Hosting
//! from this machine (`tablero host`, the menu's switch, Ctrl+H at the table) makes the table
//! the seat of its person.

use crate::gui::error::GuiError;
use crate::gui::frame::session::{Command, Notice, Session, TableIntent};
use crate::net::host::{Host, HostOptions, Sitter};
use crate::net::join::{Follower, Heard};
use crate::net::{Answer, Ask, Link, Question, Said};
use crate::rules::Side;
use crate::rules::{AnyGame, Game};
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
    /// The host's last view: its number of moves, its game, whether this seat is choosing
    /// blind Puts (sent with the host's count), the question waiting, the end.
    host_seq: u64,
    game: u64,
    /// The version of the host's last view: the next view's changes follow from it.
    version: Option<u64>,
    blind: bool,
    asked: Option<crate::net::Asked>,
    over: bool,
    /// CTOR's secret squares: the team is to choose them, what the host said of its own and
    /// of the other team's that worked, and whether this table's choice was sent.
    choose_secrets: bool,
    secrets: (Vec<u16>, Vec<u16>),
    secrets_sent: bool,
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
            host_seq: host_has as u64,
            game: 0,
            version: None,
            blind: false,
            asked: None,
            over: false,
            choose_secrets: false,
            secrets: (Vec::new(), Vec::new()),
            secrets_sent: false,
        }
    }
}

pub(crate) fn plugin(app: &mut App) {
    app.add_systems(Update, wake_on_host.run_if(resource_added::<RemoteSeat>))
        .add_systems(
            PreUpdate,
            (join_pasted, pasted_joined.run_if(resource_exists::<PastedJoin>))
                .chain()
                .in_set(crate::gui::frame::steps::TableSystems::Pick),
        )
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
            PreUpdate,
            (
                ask.run_if(resource_exists::<RemoteSeat>.and_then(seated)),
                host_here_key.run_if(resource_exists::<Session>),
            )
                .in_set(crate::gui::frame::steps::TableSystems::Pick)
                .after(join_pasted),
        )
        .add_systems(
            Update,
            (send, send_secrets)
                .run_if(resource_exists::<RemoteSeat>.and_then(seated))
                .in_set(crate::gui::frame::steps::TableSystems::Present),
        );
}

/// The window wakes when the host is heard (it sleeps until something happens).
fn wake_on_host(seat: Res<RemoteSeat>, proxy: Option<Res<bevy::winit::EventLoopProxyWrapper>>) {
    if let Some(proxy) = proxy {
        seat.follower.lock().unwrap_or_else(|e| e.into_inner()).on_heard(crate::gui::frame::steps::waker(&proxy));
    }
}

/// Something asked of the network on a thread of its own (an invitation's seat, a spectator's
/// first state), so that the window never waits on it: the answer is handed back when it comes,
/// and the window woken.
pub struct Pending<T>(crate::background::Job<Result<T, String>>);

impl<T: Send + 'static> Pending<T> {
    pub fn start(
        name: &str,
        ask: impl FnOnce() -> Result<T, String> + Send + 'static,
        proxy: Option<&bevy::winit::EventLoopProxyWrapper>,
    ) -> Pending<T> {
        let then = crate::gui::frame::steps::wake_when_done(proxy);
        Pending(crate::background::Job::spawn(name, crate::background::Priority::Normal, ask, then))
    }

    /// The answer once it came, or why there is none; None while it is asked.
    pub fn poll(&self) -> Option<Result<T, String>> {
        self.0.poll().map(|answer| answer.unwrap_or_else(|_| Err("its thread could not start".into())))
    }
}

/// An invitation being taken: the host's game read (waiting `wait` for the host), the seat
/// handed back when the host answers.
pub type Joining = Pending<(Table, RemoteSeat)>;

/// Starts taking `invitation`'s seat on a thread of its own.
pub fn joining(
    invitation: String,
    wait: std::time::Duration,
    proxy: Option<&bevy::winit::EventLoopProxyWrapper>,
) -> Joining {
    Pending::start("tablero-join", move || seat_table(&invitation, wait).map_err(|e| e.to_string()), proxy)
}

/// An invitation pasted at the table, being taken.
#[derive(Resource)]
struct PastedJoin(Joining);

/// An invitation pasted at the table (`Ctrl+V`, or text opened): the host is asked on a thread
/// of its own, and the table becomes that seat when it answers ([`pasted_joined`]).
fn join_pasted(
    mut commands: MessageReader<Command>,
    mut notice: ResMut<Notice>,
    mut world: Commands,
    proxy: Option<Res<bevy::winit::EventLoopProxyWrapper>>,
) {
    for c in commands.read() {
        let text = match c {
            Command::Open(text) => text.clone(),
            Command::Paste => match crate::gui::frame::clipboard::text() {
                Ok(text) => text,
                Err(_) => continue,
            },
            _ => continue,
        };
        let Ok(inv) = crate::net::Invitation::parse(&text) else { continue };
        notice.0 = format!("joining the game at {}…", inv.addr);
        world.insert_resource(PastedJoin(joining(text, std::time::Duration::from_secs(2), proxy.as_deref())));
    }
}

/// The pasted invitation's seat, once its host answered: the table becomes that seat.
fn pasted_joined(
    joining: Res<PastedJoin>,
    mut intents: MessageWriter<TableIntent>,
    mut notice: ResMut<Notice>,
    mut world: Commands,
) {
    let Some(answer) = joining.0.poll() else { return };
    world.remove_resource::<PastedJoin>();
    match answer {
        Ok((table, seat)) => {
            world.insert_resource(seat);
            intents.write(TableIntent(crate::table::Intent::Replace(Box::new(table))));
        }
        Err(e) => notice.0 = format!("the invitation cannot be used: {e}"),
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

/// What the host says: its changes to the rules step (a new game lays the table out afresh),
/// the connection, the other seat and any question to the message line.
fn follow(mut seat: ResMut<RemoteSeat>, mut intents: MessageWriter<TableIntent>, mut notice: ResMut<Notice>) {
    let heard: Vec<Heard> = seat.follower.lock().unwrap_or_else(|e| e.into_inner()).heard.try_iter().collect();
    for h in heard {
        match h {
            Heard::View(v) => {
                // A secret square that worked here is learnt from the host: the field laid out
                // again knows it.
                let learnt = (v.secrets.clone(), v.revealed.clone()) != seat.secrets
                    || (seat.choose_secrets && !v.choose_secrets && !seat.secrets_sent);
                let went_back = v.game != seat.game || (v.moves.len() as u64) < seat.host_seq || learnt;
                seat.choose_secrets = v.choose_secrets;
                seat.secrets = (v.secrets.clone(), v.revealed.clone());
                if v.choose_secrets && v.game != seat.game {
                    seat.secrets_sent = false;
                }
                seat.host_has = v.moves.len();
                seat.host_seq = v.seq;
                seat.blind = v.puts_to_choose > 0 || !v.chosen.is_empty();
                seat.asked = v.asked.clone();
                seat.over = v.result.is_some();
                seat.status = say(&v, seat.invite.as_deref());
                // The host's changes since its last view, as its table made them (moves played,
                // moves taken back), where this seat heard that view.
                let follows =
                    v.game == seat.game && !learnt && v.changes_after.is_some() && v.changes_after == seat.version;
                if follows {
                    // (Moves taken back: this table sends from the host's count again.)
                    seat.sent = if went_back { v.moves.len() } else { seat.sent.max(v.moves.len()) };
                    intents.write(TableIntent(Intent::Follow { changes: v.changes, moves: v.moves }));
                } else if went_back && seat.game != 0 {
                    // A rematch, or moves taken back: the host's game laid out afresh.
                    match table_of(&v, seat.seat) {
                        Ok(table) => {
                            seat.sent = v.moves.len();
                            intents.write(TableIntent(Intent::Replace(Box::new(table))));
                        }
                        Err(e) => seat.status = e.to_string(),
                    }
                } else {
                    // (The first view, or one after the connection was lost: the host's moves.)
                    seat.sent = seat.sent.max(v.moves.len());
                    intents.write(TableIntent(Intent::Hosted(v.moves)));
                }
                seat.version = Some(v.version);
                seat.game = v.game;
            }
            Heard::Lost { why, retry_in } => {
                seat.status = format!("reconnecting to the host ({why}): trying again in {retry_in:.1} s")
            }
            Heard::Refused(why) => seat.status = why.to_string(),
            Heard::NotTaken(why) => seat.status = why,
        }
    }
    // Said again when it changes, or when a move here cleared the line.
    if seat.said != seat.status || (notice.0.is_empty() && !seat.status.is_empty()) {
        seat.said = seat.status.clone();
        notice.0 = seat.status.clone();
    }
}

/// The message line for a seat's view.
fn say(v: &crate::net::SeatView, invite: Option<&str>) -> String {
    let sand = v.sand_left_ms.map(|ms| format!(" ({} s left)", ms.div_ceil(1000))).unwrap_or_default();
    if v.choose_secrets {
        return "choose your team's 5 secret squares (nobody else sees them), then Done".into();
    }
    if v.secrets_pending {
        return "the other team is choosing its secret squares".into();
    }
    match (&v.asked, &v.result, v.your_turn) {
        (Some(a), _, _) if !a.mine && a.what == Question::Undo => {
            "the other side asks to take back its last move: Y to agree, Escape to refuse".into()
        }
        (Some(a), _, _) if !a.mine => "the other side asks for a rematch: Y to agree, Escape to refuse".into(),
        (Some(a), _, _) => format!("asked the other side for {}: waiting for its answer", a.what.with_article()),
        (None, Some(r), _) => format!("{r}. Y asks the other side for a rematch"),
        _ if v.other.contains("away") && invite.is_some() => format!(
            "waiting for the other seat: its invitation (copied to the clipboard) is {}",
            invite.unwrap_or_default()
        ),
        (None, None, true) if v.puts_to_choose > 0 => format!(
            "choose {} blind Put{} (seat {}): nobody else sees them until the team's Puts are played{sand}",
            v.puts_to_choose,
            if v.puts_to_choose == 1 { "" } else { "s" },
            v.seat
        ),
        (None, None, true) => format!("your move ({} seat){sand}", v.side),
        (None, None, false) if !v.chosen.is_empty() => {
            format!("your Puts {} are chosen: waiting for your team-mates{sand}", v.chosen.join(", "))
        }
        (None, None, false) if v.other.contains("away") => "the other seat is away: waiting for it".to_string(),
        (None, None, false) => format!("the other seat ({}) is to move{sand}", v.other),
    }
}

/// Undo asks the other side; Y answers its question yes (after the end, with no question,
/// asks for a rematch); Escape answers no.
fn ask(seat: Res<RemoteSeat>, mut commands: MessageReader<Command>, mut notice: ResMut<Notice>) {
    for c in commands.read() {
        let follower = seat.follower.lock().unwrap_or_else(|e| e.into_inner());
        let theirs = seat.asked.as_ref().is_some_and(|a| !a.mine);
        let ask = |what: Question| Ask { seq: seat.host_seq, what };
        match c {
            Command::Undo if seat.over => notice.0 = "the game is over: Y asks for a rematch".into(),
            Command::Undo => {
                follower.say(Said::Ask(ask(Question::Undo)));
                notice.0 = "asked the other side to take back your last move".into();
            }
            Command::Agree if theirs => follower.say(Said::Answer(Answer { yes: true })),
            Command::Agree if seat.over => {
                follower.say(Said::Ask(ask(Question::Rematch)));
                notice.0 = "asked the other side for a rematch".into();
            }
            Command::Cancel if theirs => follower.say(Said::Answer(Answer { yes: false })),
            _ => {}
        }
    }
}

/// The host behind a hosting table, kept as long as the table hosts.
#[derive(Resource)]
pub struct Hosting(std::sync::Mutex<Option<(Host, std::thread::JoinHandle<()>)>>);

impl Hosting {
    /// The hosted game's address for spectators ([`Host::watch_link`]).
    pub fn watch_link(&self) -> Option<String> {
        self.0.lock().unwrap_or_else(|e| e.into_inner()).as_ref().and_then(|(host, _)| host.watch_link())
    }
}

/// A game hosted from this machine with its person at this table.
pub struct HostedHere {
    pub table: Table,
    pub seat: RemoteSeat,
    pub hosting: Hosting,
    /// `invite <seat>: <link>`, then the feed's and the record's lines.
    pub lines: Vec<String>,
}

/// Hosts `options` (one seat a person here): the seats served, the computer's seats playing on
/// their own thread, and this table the person's seat, the first invitation copied.
pub fn host_here(options: HostOptions) -> Result<HostedHere, GuiError> {
    let host = Host::open(options)?;
    let person = host.person().ok_or(crate::net::NetError::OnePerson)?;
    let invites = host.invitations();
    let lines = host.lines();
    let computer = host.play_in_background();
    // The person here plays through the host in this process: no request, no wait on a port.
    let local = host.local_seat(person).ok_or(crate::net::NetError::OnePerson)?;
    let (table, mut seat) = seat_table_over(std::sync::Arc::new(local), person.side, std::time::Duration::ZERO)?;
    if let Some((_, first)) = invites.first() {
        let _ = crate::gui::frame::clipboard::copy(&first);
        seat.invite = Some(first.clone());
    }
    Ok(HostedHere { table, seat, hosting: Hosting(std::sync::Mutex::new(Some((host, computer)))), lines })
}

/// Who sits where when a table's game is hosted: the first person's side here, any other
/// person remote, the computer at the host.
pub fn sitters(game: &AnyGame, players: [PlayerKind; 2]) -> Result<[Vec<Sitter>; 2], GuiError> {
    let here = [Side::First, Side::Second]
        .into_iter()
        .find(|s| players[s.index()] == PlayerKind::Person)
        .ok_or(crate::net::NetError::OnePerson)?;
    Ok([Side::First, Side::Second].map(|side| {
        let who = match players[side.index()] {
            PlayerKind::Person => Sitter::Remote,
            kind => Sitter::Computer(kind),
        };
        let mut seats = vec![who; crate::net::host::members(game, side) as usize];
        if side == here {
            seats[0] = Sitter::Person;
        }
        seats
    }))
}

/// The address a table hosts on: 127.0.0.1:7979, or any free port if that one is taken.
pub fn host_addr() -> std::net::SocketAddr {
    let default = std::net::SocketAddr::from((std::net::Ipv4Addr::LOCALHOST, 7979));
    match std::net::TcpListener::bind(default) {
        Ok(_) => default,
        Err(_) => std::net::SocketAddr::from((std::net::Ipv4Addr::LOCALHOST, 0)),
    }
}

/// Ctrl+H at the table: hosts the game as it stands (its record resumed by the host, the
/// other person's seat remote, its invitation copied), or stops hosting it.
#[allow(clippy::too_many_arguments)]
fn host_here_key(
    mut commands: MessageReader<Command>,
    session: Res<Session>,
    hosting: Option<Res<Hosting>>,
    mut intents: MessageWriter<TableIntent>,
    mut notice: ResMut<Notice>,
    mut world: Commands,
    mut then: Local<Option<String>>,
) {
    // Said once the table laid out afresh has been shown (a new table clears the line).
    if let Some(said) = then.take() {
        notice.0 = said;
    }
    if !commands.read().any(|c| *c == Command::Host) {
        return;
    }
    if hosting.is_some() {
        world.remove_resource::<Hosting>();
        world.remove_resource::<RemoteSeat>();
        match session.record_path.clone().map(|p| (crate::record::load(&p), p)) {
            Some((Ok((record, _)), path)) => match Table::resume(record, Some(path)) {
                Ok(table) => {
                    intents.write(TableIntent(Intent::Replace(Box::new(table))));
                    *then = Some("no longer hosting: the game goes on at this table".into());
                }
                Err(e) => notice.0 = e.to_string(),
            },
            _ => notice.0 = "no longer hosting".into(),
        }
        return;
    }
    if session.seat.is_some() {
        notice.0 = "this table is a seat of a game hosted elsewhere".into();
        return;
    }
    let hosted = (|| -> Result<HostedHere, GuiError> {
        let path = session.record_path.clone().ok_or(GuiError::NotSaved)?;
        if session.game.outcome().is_some() || session.replay.is_some() {
            return Err(GuiError::NotLive);
        }
        let start = session.record.start_game()?;
        let seats = sitters(&session.game, session.players)?;
        host_here(HostOptions { seats, record: Some(path), linger: 0.0, ..HostOptions::remote(start, host_addr()) })
    })();
    match hosted {
        Ok(h) => {
            notice.0 = format!(
                "hosting on the network: {} (copied to the clipboard; Ctrl+H stops)",
                h.lines.first().cloned().unwrap_or_default()
            );
            world.insert_resource(h.seat);
            world.insert_resource(h.hosting);
            intents.write(TableIntent(Intent::Replace(Box::new(h.table))));
        }
        Err(e) => notice.0 = format!("cannot host this game: {e}"),
    }
}

/// The team's secret squares chosen here go to the host, once.
fn send_secrets(mut seat: ResMut<RemoteSeat>, session: Res<Session>) {
    if !seat.choose_secrets || seat.secrets_sent {
        return;
    }
    let AnyGame::Ctor(g) = &session.game else { return };
    let squares: Vec<u16> = g.secrets(seat.seat).iter().map(|(sq, _)| *sq).collect();
    if squares.len() != crate::rules::ctor::SECRETS {
        return;
    }
    seat.follower.lock().unwrap_or_else(|e| e.into_inner()).say(Said::Secrets(crate::net::Secrets { squares }));
    seat.secrets_sent = true;
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
        // A team member's blind Puts are not played at the host yet: each goes with its count.
        let seq = if seat.blind { seat.host_seq } else { seat.sent as u64 };
        seat.follower.lock().unwrap_or_else(|e| e.into_inner()).send(seq, mv.to_string());
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
    seat_table_over(inv.connect()?, inv.seat, wait)
}

/// A seat's table through `link`: a host elsewhere, or the host in this process.
fn seat_table_over(
    link: std::sync::Arc<dyn Link>,
    side: Side,
    wait: std::time::Duration,
) -> Result<(Table, RemoteSeat), GuiError> {
    let deadline = std::time::Instant::now() + wait;
    let view = loop {
        let why = match link.view(None) {
            Ok(Some(view)) => break view,
            Ok(None) => crate::net::NetError::Refused { status: 503, text: "the host is busy".into() },
            Err(e @ crate::net::NetError::Unreachable { .. }) => e,
            Err(e) => return Err(e.into()),
        };
        if std::time::Instant::now() > deadline {
            return Err(why.into());
        }
        std::thread::sleep(std::time::Duration::from_millis(250));
    };
    let table = table_of(&view, side)?;
    let mut seat = RemoteSeat::new(crate::net::join::Follower::over(link), side, view.moves.len());
    seat.game = view.game;
    seat.choose_secrets = view.choose_secrets;
    seat.secrets = (view.secrets.clone(), view.revealed.clone());
    Ok((table, seat))
}

/// The table of a seat's view: its game with every move, this seat's side played here.
fn table_of(view: &crate::net::SeatView, side: Side) -> Result<Table, GuiError> {
    let start = crate::net::join::start_of(view)?;
    let mut table = Table::new(start, [PlayerKind::Person; 2], 1);
    table.seat = Some(side);
    if view.choose_secrets {
        // Chosen here, at once: only this team looks at this screen.
        table.secrets = crate::table::SecretPhase::Choosing(side, Vec::new());
    }
    let _ = table.apply(crate::table::Intent::Hosted(view.moves.clone()));
    Ok(table)
}
