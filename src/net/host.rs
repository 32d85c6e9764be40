//! The host: the game, its seats and the server a remote seat plays through (see the module
//! above for the protocol). The host's rules decide every move; the record is saved after each,
//! and the seats' tokens beside it, readable by the owner only, so that a host started again
//! with the same record reopens the same seats with the same invitations.

use super::{Invitation, NetError, SeatView, SentMove, Token, seat_name};
use crate::matches::STOP;
use crate::record::Record;
use crate::rules::{AnyGame, Game, Side};
use axum::Router;
use axum::extract::{Query, State};
use axum::http::{HeaderMap, StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use std::collections::HashMap;
use std::io::Write;
use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Condvar, Mutex};
use std::time::{Duration, Instant};

/// The most bytes a request's body may have.
pub const MAX_BODY: usize = 1024;
/// How long a request's body may take to arrive.
pub const BODY_TIME: Duration = Duration::from_secs(5);
/// The longest a `GET /seat?wait=N` waits.
pub const LONGEST_WAIT: Duration = Duration::from_secs(20);
/// Requests a second one seat may make.
pub const RATE: u32 = 100;
/// Requests served at once; more wait their turn with 503.
pub const IN_FLIGHT: usize = 64;
/// A remote seat not heard from for this long is shown as away.
pub const AWAY: Duration = Duration::from_secs(10);

/// Who sits at a seat.
#[derive(Clone, Debug, PartialEq)]
pub enum Sitter {
    /// A player on another machine, with the seat's invitation.
    Remote,
    /// A person at the host's own table (`tablero host` with a window).
    Person,
    /// The computer at the host: `ai:<level>` or `random`.
    Computer(String),
}

impl Sitter {
    pub fn parse(text: &str) -> Result<Sitter, NetError> {
        match text {
            "remote" => Ok(Sitter::Remote),
            "person" => Ok(Sitter::Person),
            _ if text == "random" || text.starts_with("ai:") => {
                crate::players::by_name(text, 0).map_err(|_| NetError::Sitter(text.to_string()))?;
                Ok(Sitter::Computer(text.to_string()))
            }
            _ => Err(NetError::Sitter(text.to_string())),
        }
    }

    fn record_player(&self, side: Side) -> (String, String) {
        match self {
            Sitter::Remote => (format!("remote ({})", seat_name(side)), "human".into()),
            Sitter::Person => ("person at the host".into(), "human".into()),
            Sitter::Computer(c) if c == "random" => ("random mover".into(), "computer:random".into()),
            Sitter::Computer(c) => (format!("computer ({})", c.trim_start_matches("ai:")), c.clone()),
        }
    }
}

/// What a host is asked to do.
pub struct HostOptions {
    pub start: AnyGame,
    pub seats: [Sitter; 2],
    pub addr: SocketAddr,
    /// The record's file; a new one in the data folder unless given. A record that exists is
    /// resumed, with the seats' tokens kept beside it.
    pub record: Option<PathBuf>,
    /// Seconds the host serves on after the end, so that remote seats see the result.
    pub linger: f64,
}

/// The game and what goes with it, under one lock.
struct Table {
    game: AnyGame,
    record: Record,
    path: PathBuf,
    save_error: Option<String>,
}

struct Shared {
    table: Mutex<Table>,
    /// Woken after every move.
    moved: Condvar,
    seq: tokio::sync::watch::Sender<u64>,
    tokens: [Option<Token>; 2],
    sitters: [Sitter; 2],
    heard: Mutex<[Option<Instant>; 2]>,
    rate: Mutex<[(Instant, u32); 2]>,
    in_flight: AtomicUsize,
    /// Set when the host closes: the computer's seats stop playing.
    closed: std::sync::atomic::AtomicBool,
}

type Refusal = (StatusCode, String);

fn refuse(status: StatusCode, why: impl Into<String>) -> Refusal {
    (status, why.into())
}

impl Shared {
    fn view(&self, side: Side) -> SeatView {
        let t = self.table.lock().unwrap_or_else(|e| e.into_inner());
        let variant = t.game.variant();
        let other = side.other();
        let other_is = match &self.sitters[other.index()] {
            Sitter::Computer(c) => c.clone(),
            Sitter::Person => "here".into(),
            Sitter::Remote => {
                let heard = self.heard.lock().unwrap_or_else(|e| e.into_inner())[other.index()];
                if heard.is_some_and(|h| h.elapsed() < AWAY) { "remote".into() } else { "away".into() }
            }
        };
        let over = t.game.outcome();
        SeatView {
            seat: seat_name(side).into(),
            side: variant.side_name(side).into(),
            variant: variant.name().into(),
            start: t.record.start.clone(),
            moves: t.record.moves.iter().map(|m| m.mv.clone()).collect(),
            seq: t.record.moves.len() as u64,
            your_turn: over.is_none() && t.game.side_to_move() == side,
            other: other_is,
            result: over.map(|o| crate::matches::result_line(variant, o)),
        }
    }

    /// Plays `text` for `side` if it is the seat's turn and `seq` the moves played so far.
    fn play(&self, side: Option<Side>, seq: Option<u64>, text: &str) -> Result<u64, Refusal> {
        let mut t = self.table.lock().unwrap_or_else(|e| e.into_inner());
        if t.game.outcome().is_some() {
            return Err(refuse(StatusCode::FORBIDDEN, "the game is over"));
        }
        if let Some(side) = side
            && t.game.side_to_move() != side
        {
            return Err(refuse(StatusCode::FORBIDDEN, "not this seat's turn"));
        }
        let played = t.record.moves.len() as u64;
        if let Some(seq) = seq
            && seq != played
        {
            return Err(refuse(
                StatusCode::CONFLICT,
                format!("seq {seq} is not the moves played ({played}): read /seat again"),
            ));
        }
        let mv = t.game.parse_move(text).map_err(|e| refuse(StatusCode::UNPROCESSABLE_ENTITY, e.to_string()))?;
        t.game.play(&mv).map_err(|e| refuse(StatusCode::UNPROCESSABLE_ENTITY, e.to_string()))?;
        let after = t.game.clone();
        t.record.push(&mv.to_string(), &after);
        let saved = crate::record::write_atomic(&t.path, &t.record.to_json());
        t.save_error = saved.err().map(|e| format!("saving {} failed: {e}", t.path.display()));
        let seq = t.record.moves.len() as u64;
        drop(t);
        self.moved.notify_all();
        self.seq.send_replace(seq);
        Ok(seq)
    }

    /// The seat whose token the request carries, compared in constant time with every seat's.
    fn seat_of(&self, headers: &HeaderMap) -> Result<Side, Refusal> {
        let given = headers
            .get(header::AUTHORIZATION)
            .and_then(|v| v.as_bytes().strip_prefix(b"Bearer "))
            .ok_or_else(|| refuse(StatusCode::UNAUTHORIZED, "a seat's requests carry its token"))?;
        let mut found = None;
        for side in [Side::First, Side::Second] {
            if let Some(token) = &self.tokens[side.index()]
                && token.matches(given)
            {
                found = Some(side);
            }
        }
        let side = found.ok_or_else(|| refuse(StatusCode::UNAUTHORIZED, "no seat has this token"))?;
        let now = Instant::now();
        let mut rate = self.rate.lock().unwrap_or_else(|e| e.into_inner());
        let (since, n) = &mut rate[side.index()];
        if now.duration_since(*since) >= Duration::from_secs(1) {
            (*since, *n) = (now, 0);
        }
        *n += 1;
        if *n > RATE {
            return Err(refuse(StatusCode::TOO_MANY_REQUESTS, "too many requests: at most 100 a second"));
        }
        self.heard.lock().unwrap_or_else(|e| e.into_inner())[side.index()] = Some(now);
        Ok(side)
    }
}

fn answer(r: Result<Response, Refusal>) -> Response {
    match r {
        Ok(r) => r,
        Err((status, why)) => (status, format!("{why}\n")).into_response(),
    }
}

async fn seat(State(s): State<Arc<Shared>>, headers: HeaderMap, Query(q): Query<HashMap<String, String>>) -> Response {
    answer(
        async {
            let side = s.seat_of(&headers)?;
            if let Some(k) = q.keys().find(|k| k.as_str() != "wait") {
                return Err(refuse(StatusCode::BAD_REQUEST, format!("unknown parameter '{}'", crate::rules::quote(k))));
            }
            if let Some(w) = q.get("wait") {
                let after: u64 = crate::rules::number(w)
                    .ok_or_else(|| refuse(StatusCode::BAD_REQUEST, "wait takes a number of moves"))?;
                let mut rx = s.seq.subscribe();
                let _ = tokio::time::timeout(LONGEST_WAIT, rx.wait_for(|seq| *seq != after)).await;
            }
            Ok(axum::Json(s.view(side)).into_response())
        }
        .await,
    )
}

async fn seat_move(State(s): State<Arc<Shared>>, headers: HeaderMap, body: axum::body::Body) -> Response {
    answer(
        async {
            let side = s.seat_of(&headers)?;
            let bytes = match tokio::time::timeout(BODY_TIME, axum::body::to_bytes(body, MAX_BODY)).await {
                Err(_) => return Err(refuse(StatusCode::REQUEST_TIMEOUT, "the move did not arrive within 5 s")),
                Ok(Err(_)) => return Err(refuse(StatusCode::PAYLOAD_TOO_LARGE, "a move is at most 1 KiB")),
                Ok(Ok(b)) => b,
            };
            let sent: SentMove = serde_json::from_slice(&bytes).map_err(|e| {
                refuse(StatusCode::BAD_REQUEST, format!("not a move: {}", crate::rules::one_line(&e.to_string())))
            })?;
            let seq = s.play(Some(side), Some(sent.seq), &sent.mv)?;
            Ok(axum::Json(serde_json::json!({ "seq": seq })).into_response())
        }
        .await,
    )
}

async fn join_page() -> Response {
    (
        [(header::CONTENT_TYPE, "text/plain; charset=utf-8")],
        "tablero: this is a seat's invitation. Open it with tablero: tablero join '<the whole link>'\n",
    )
        .into_response()
}

async fn index() -> Response {
    "tablero host: a game's seats, for their invitations (tablero join). Spectators watch the live feed.\n"
        .into_response()
}

async fn not_found(uri: axum::http::Uri) -> Response {
    (StatusCode::NOT_FOUND, format!("no page {} here\n", crate::rules::quote(uri.path()))).into_response()
}

fn router(shared: Arc<Shared>) -> Router {
    let limit = shared.clone();
    Router::new()
        .route("/", get(index))
        .route("/join", get(join_page))
        .route("/seat", get(seat))
        .route("/seat/move", post(seat_move))
        .fallback(not_found)
        .with_state(shared)
        .layer(axum::middleware::from_fn(move |req: axum::extract::Request, next: axum::middleware::Next| {
            let limit = limit.clone();
            async move {
                if limit.in_flight.fetch_add(1, Ordering::SeqCst) >= IN_FLIGHT {
                    limit.in_flight.fetch_sub(1, Ordering::SeqCst);
                    return (StatusCode::SERVICE_UNAVAILABLE, "busy: try again\n").into_response();
                }
                let mut r = next.run(req).await;
                limit.in_flight.fetch_sub(1, Ordering::SeqCst);
                r.headers_mut().insert(header::CACHE_CONTROL, axum::http::HeaderValue::from_static("no-store"));
                r
            }
        }))
}

/// The file beside a record that keeps its seats' tokens.
pub fn seats_path(record: &Path) -> PathBuf {
    let mut name = record.file_name().unwrap_or_default().to_os_string();
    name.push(".seats");
    record.with_file_name(name)
}

/// Writes the tokens, readable and writable by the owner only (created so, then renamed).
fn save_tokens(path: &Path, tokens: &[Option<Token>; 2]) -> std::io::Result<()> {
    use std::os::unix::fs::OpenOptionsExt;
    let text = serde_json::json!({
        "first": tokens[0].map(|t| t.hex()),
        "second": tokens[1].map(|t| t.hex()),
    })
    .to_string();
    let dir = path.parent().filter(|p| !p.as_os_str().is_empty()).unwrap_or(Path::new("."));
    std::fs::create_dir_all(dir)?;
    let tmp = dir.join(format!(".seats.{}.tmp", std::process::id()));
    let mut f = std::fs::OpenOptions::new().write(true).create(true).truncate(true).mode(0o600).open(&tmp)?;
    f.write_all(text.as_bytes())?;
    f.sync_all()?;
    std::fs::rename(&tmp, path)
}

fn load_tokens(path: &Path) -> Result<[Option<Token>; 2], NetError> {
    let bad = |why: String| NetError::Seats { path: path.display().to_string(), why };
    let text = std::fs::read_to_string(path).map_err(|e| bad(e.to_string()))?;
    let v: serde_json::Value = serde_json::from_str(&text).map_err(|e| bad(e.to_string()))?;
    let read = |k: &str| match v.get(k) {
        None | Some(serde_json::Value::Null) => Ok(None),
        Some(serde_json::Value::String(s)) => {
            Token::from_hex(s).map(Some).ok_or_else(|| bad(format!("{k} is not a token")))
        }
        Some(_) => Err(bad(format!("{k} is not a token"))),
    };
    Ok([read("first")?, read("second")?])
}

/// A host serving its seats; dropping it stops the server.
pub struct Host {
    shared: Arc<Shared>,
    pub addr: SocketAddr,
    pub path: PathBuf,
    stop: Option<tokio::sync::oneshot::Sender<()>>,
    thread: Option<std::thread::JoinHandle<()>>,
}

impl Drop for Host {
    fn drop(&mut self) {
        self.shared.closed.store(true, Ordering::Relaxed);
        if let Some(tx) = self.stop.take() {
            let _ = tx.send(());
        }
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }
}

impl Host {
    /// Opens the seats: resumes the record if it exists (with its seats' tokens), else starts
    /// one; binds the address and serves.
    pub fn open(o: HostOptions) -> Result<Host, NetError> {
        let path = match &o.record {
            Some(p) => p.clone(),
            None => {
                let record = Record::new(
                    &o.start,
                    [o.seats[0].record_player(Side::First), o.seats[1].record_player(Side::Second)],
                );
                crate::record::new_game_path(&crate::record::data_dir(), &record)
            }
        };
        let seats_file = seats_path(&path);
        let (record, game, tokens) = if path.exists() {
            let (record, positions) = crate::record::load(&path)?;
            if record.start_game()?.to_string() != o.start.to_string() {
                return Err(NetError::OtherStart { path: path.display().to_string() });
            }
            let mut tokens = if seats_file.exists() { load_tokens(&seats_file)? } else { [None, None] };
            for side in [Side::First, Side::Second] {
                match o.seats[side.index()] {
                    Sitter::Remote | Sitter::Person if tokens[side.index()].is_none() => {
                        tokens[side.index()] = Some(Token::new()?)
                    }
                    Sitter::Computer(_) => tokens[side.index()] = None,
                    _ => {}
                }
            }
            (record, positions.last().cloned().unwrap_or_else(|| o.start.clone()), tokens)
        } else {
            let record =
                Record::new(&o.start, [o.seats[0].record_player(Side::First), o.seats[1].record_player(Side::Second)]);
            let mut tokens = [None, None];
            for side in [Side::First, Side::Second] {
                if matches!(o.seats[side.index()], Sitter::Remote | Sitter::Person) {
                    tokens[side.index()] = Some(Token::new()?);
                }
            }
            crate::record::write_atomic(&path, &record.to_json())?;
            (record, o.start.clone(), tokens)
        };
        save_tokens(&seats_file, &tokens)?;
        let seq = record.moves.len() as u64;
        let shared = Arc::new(Shared {
            table: Mutex::new(Table { game, record, path: path.clone(), save_error: None }),
            moved: Condvar::new(),
            seq: tokio::sync::watch::Sender::new(seq),
            tokens,
            sitters: o.seats.clone(),
            heard: Mutex::new([None, None]),
            rate: Mutex::new([(Instant::now(), 0); 2]),
            in_flight: AtomicUsize::new(0),
            closed: std::sync::atomic::AtomicBool::new(false),
        });
        let listener =
            std::net::TcpListener::bind(o.addr).map_err(|source| NetError::Listen { addr: o.addr, source })?;
        let addr = listener.local_addr()?;
        listener.set_nonblocking(true)?;
        let runtime = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(2)
            .thread_name("tablero-host")
            .enable_all()
            .build()?;
        let (stop, thread) = crate::feed::server::spawn(runtime, listener, router(shared.clone()), "tablero-host")?;
        Ok(Host { shared, addr, path, stop: Some(stop), thread: Some(thread) })
    }

    /// Each remote seat's invitation.
    pub fn invitations(&self) -> Vec<(Side, String)> {
        [Side::First, Side::Second]
            .into_iter()
            .filter(|side| self.shared.sitters[side.index()] == Sitter::Remote)
            .filter_map(|side| self.seat_link(side).map(|l| (side, l)))
            .collect()
    }

    /// The link of any seat with a token (a person at the host's table connects through it).
    pub fn seat_link(&self, side: Side) -> Option<String> {
        self.shared.tokens[side.index()].map(|t| Invitation::link(&self.addr, side, &t))
    }

    /// Who sits at `side`.
    pub fn sitter(&self, side: Side) -> &Sitter {
        &self.shared.sitters[side.index()]
    }

    /// The game now.
    pub fn game(&self) -> AnyGame {
        self.shared.table.lock().unwrap_or_else(|e| e.into_inner()).game.clone()
    }

    /// Plays the game out: the computer's seats move here, the remote ones through the server.
    /// Returns when the game is over, or with [`NetError::Stopped`] after Ctrl-C (the record
    /// keeps every move played).
    pub fn play_out(&self) -> Result<AnyGame, NetError> {
        play_out(&self.shared)
    }

    /// [`Host::play_out`] on a thread of its own, until the game ends or the host closes.
    pub fn play_in_background(&self) -> std::thread::JoinHandle<()> {
        let shared = self.shared.clone();
        std::thread::spawn(move || {
            let _ = play_out(&shared);
        })
    }
}

fn play_out(shared: &Shared) -> Result<AnyGame, NetError> {
    let created = shared.table.lock().unwrap_or_else(|e| e.into_inner()).record.created_ms;
    let mut said_error = None;
    loop {
        if STOP.load(Ordering::Relaxed) || shared.closed.load(Ordering::Relaxed) {
            return Err(NetError::Stopped);
        }
        let t = shared.table.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(e) = &t.save_error
            && said_error.as_ref() != Some(e)
        {
            eprintln!("tablero: {e}");
            said_error = Some(e.clone());
        }
        if t.game.outcome().is_some() {
            return Ok(t.game.clone());
        }
        let side = t.game.side_to_move();
        match &shared.sitters[side.index()] {
            Sitter::Computer(name) => {
                let (game, ply) = (t.game.clone(), t.record.moves.len() as u64);
                drop(t);
                let seed = crate::matches::game_seed(created, ply as u32).wrapping_add(ply);
                let mut player = crate::players::by_name(name, seed)?;
                let mv = player.choose(&game).ok_or_else(|| NetError::Rules("the computer found no move".into()))?;
                shared.play(None, Some(ply), &mv.to_string()).map_err(|(_, why)| NetError::Rules(why))?;
            }
            Sitter::Remote | Sitter::Person => {
                let _ = shared.moved.wait_timeout(t, Duration::from_millis(100));
            }
        }
    }
}

/// `tablero host "<position>" --headless`: prints each remote seat's invitation, plays the game
/// out, prints the result line, and serves on for `linger` seconds so that the seats see it.
pub fn run_headless(o: HostOptions, out: &mut dyn Write) -> Result<(), NetError> {
    let linger = o.linger;
    let host = Host::open(o)?;
    for (side, link) in host.invitations() {
        writeln!(out, "invite {}: {link}", seat_name(side))?;
    }
    writeln!(out, "record: {}", host.path.display())?;
    out.flush()?;
    let end = host.play_out()?;
    let outcome = end.outcome().expect("a game played out is over");
    writeln!(out, "{}", crate::matches::result_line(end.variant(), outcome))?;
    out.flush()?;
    let until = Instant::now() + Duration::from_secs_f64(linger.clamp(0.0, 3600.0));
    while Instant::now() < until && !STOP.load(Ordering::Relaxed) {
        std::thread::sleep(Duration::from_millis(50));
    }
    Ok(())
}
