//! Taking a seat with its invitation: the seat's view read from the host, and its moves sent
//! there. A dropped connection is tried again (after 0.25 s, doubling to 8 s) and the game
//! found as it is; nothing the seat did is lost, since the host keeps every move.

use super::{Answer, Invitation, Link, NetError, Post, Posted, Said, SeatView, SentMove};
use crate::matches::STOP;
use crate::rules::{AnyGame, Game};
use crate::table::{Intent, Table};
use std::io::Write;
use std::sync::atomic::Ordering;
use std::time::Duration;

/// The most bytes an answer may have (a seat's view of a long game is some kilobytes).
const MAX_ANSWER: usize = 4 << 20;

/// How long an answer may take (a view waited on answers within 20 s).
const ANSWER_TIME: Duration = Duration::from_secs(40);

/// A seat's connection to its host: every request on one small runtime of its own, each over
/// a connection of its own (over TLS when the invitation pins a certificate; see
/// [`crate::link`]), with the seat's token. Blocking: it runs on the calling thread (a seat's
/// own threads, never the window's).
pub struct Client {
    inv: Invitation,
    runtime: tokio::runtime::Runtime,
}

impl Client {
    pub fn new(inv: &Invitation) -> Result<Client, NetError> {
        // One worker drives the connections; each thread that asks waits on its own answer
        // (a seat's long wait for its view does not hold up its moves).
        let runtime = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(1)
            .thread_name("tablero-seat-io")
            .enable_all()
            .build()
            .map_err(|e| NetError::Unreachable { addr: inv.addr.clone(), why: e.to_string() })?;
        Ok(Client { inv: inv.clone(), runtime })
    }

    /// One request: the status and the body.
    pub fn request(&self, method: &str, path: &str, body: Option<&str>) -> Result<(u16, String), NetError> {
        self.runtime.block_on(exchange(&self.inv, method, path, body.unwrap_or("").to_string()))
    }

    /// Posts `body` to its path.
    pub fn post<T: Post>(&self, body: &T) -> Result<(u16, String), NetError> {
        let text = serde_json::to_string(body).map_err(|e| NetError::Garbled(e.to_string()))?;
        self.request("POST", T::PATH, Some(&text))
    }
}

impl Link for Client {
    /// Busy (429, 503): `Ok(None)`, to ask again shortly.
    fn view(&self, after: Option<u64>) -> Result<Option<SeatView>, NetError> {
        let path = after.map_or("/seat".to_string(), |n| format!("/seat?wait={n}"));
        match self.request("GET", &path, None)? {
            (200, body) => serde_json::from_str(&body).map(Some).map_err(|e| NetError::Garbled(e.to_string())),
            (429 | 503, _) => Ok(None),
            (status, text) => Err(NetError::Refused { status, text: text.trim().to_string() }),
        }
    }

    fn say(&self, said: &Said) -> Result<Posted, NetError> {
        let (status, text) = match said {
            Said::Move(m) => self.post(m),
            Said::Secrets(s) => self.post(s),
            Said::Ask(a) => self.post(a),
            Said::Answer(a) => self.post(a),
        }?;
        Ok(match status {
            200 => Posted::Taken,
            409 => Posted::Stale,
            429 | 503 => Posted::Busy,
            _ => Posted::Refused { status, text: text.trim().to_string() },
        })
    }
}

/// One request to the host with the seat's token (see [`Client`]): the status and the body.
pub fn request(inv: &Invitation, method: &str, path: &str, body: Option<&str>) -> Result<(u16, String), NetError> {
    Client::new(inv)?.request(method, path, body)
}

async fn exchange(inv: &Invitation, method: &str, path: &str, body: String) -> Result<(u16, String), NetError> {
    use http_body_util::BodyExt;
    let unreachable = |why: String| NetError::Unreachable { addr: inv.addr.clone(), why };
    let target = crate::link::Target { addr: inv.addr.clone(), pin: inv.cert };
    let request = crate::link::builder(&target, method, path)
        .header(hyper::header::AUTHORIZATION, format!("Bearer {}", inv.token))
        .header(hyper::header::CONTENT_TYPE, "application/json")
        .body(http_body_util::Full::new(hyper::body::Bytes::from(body)))
        .map_err(|e| NetError::Garbled(e.to_string()))?;
    let work = async {
        let answer = crate::link::send(&target, request).await.map_err(|e| match e {
            crate::link::LinkError::OtherCertificate => NetError::OtherCertificate { addr: inv.addr.clone() },
            crate::link::LinkError::Unreachable(why) => unreachable(why),
        })?;
        let status = answer.status().as_u16();
        let body = http_body_util::Limited::new(answer.into_body(), MAX_ANSWER)
            .collect()
            .await
            .map_err(|e| unreachable(format!("the answer was cut short: {e}")))?
            .to_bytes();
        Ok((status, String::from_utf8_lossy(&body).to_string()))
    };
    tokio::time::timeout(ANSWER_TIME, work).await.unwrap_or_else(|_| Err(unreachable("no answer in time".into())))
}

/// The game a view shows: its start and every move, played here through the rules.
pub fn game_of(v: &SeatView) -> Result<AnyGame, NetError> {
    let mut game = start_of(v)?;
    for (i, m) in v.moves.iter().enumerate() {
        game.play_text(m).map_err(|e| NetError::Rules(format!("move {}: {e}", i + 1)))?;
    }
    Ok(game)
}

/// The start a view shows, with what the seat knows of the secret squares: its own team's, and
/// the other team's that have worked (each works again exactly where it worked, since it was
/// hit at the same moment).
pub fn start_of(v: &SeatView) -> Result<AnyGame, NetError> {
    use crate::rules::ctor::SecretState;
    let mut game: AnyGame = v.start.parse()?;
    if let AnyGame::Ctor(g) = &mut game {
        g.set_timer(v.timer);
        let side = super::SeatId::parse(&v.seat).map_or(crate::rules::Side::First, |s| s.side);
        for &sq in &v.secrets {
            g.know_secret(side, sq, SecretState::Hidden);
        }
        for &sq in &v.revealed {
            g.know_secret(side.other(), sq, SecretState::Hidden);
        }
    }
    Ok(game)
}

/// What the computer at a seat sends now: its blind Puts (a team's member), else its move.
fn computer_moves(game: &AnyGame, v: &SeatView, player: &str, seed: u64) -> Result<Vec<String>, NetError> {
    if v.puts_to_choose > 0 {
        let AnyGame::Ctor(g) = game else { return Err(NetError::Garbled("blind Puts outside CTOR".into())) };
        let side = g.side_to_move();
        let kind = player.parse().unwrap_or(crate::players::Kind::Random);
        let mut squares = crate::team::computer_puts(&g.view(side), v.puts_to_choose, kind, seed);
        squares.retain(|sq| !v.chosen.contains(&format!("P{sq}")));
        if squares.is_empty() {
            return Ok(vec!["E".to_string()]);
        }
        return Ok(squares.iter().map(|sq| format!("P{sq}")).collect());
    }
    // A team's acting member plays on after the blind Puts: no more Puts of its own.
    let game = if crate::net::host::is_team_game(game) { crate::team::after_round(game) } else { game.clone() };
    let mut p = crate::players::by_name(player, seed)?;
    let mv = p.choose(&game).ok_or_else(|| NetError::Rules("no move in a game that is not over".into()))?;
    Ok(vec![mv.to_string()])
}

/// `tablero join <invitation> --as <player>`: the computer (or the random mover) plays the seat
/// until the game ends, and the result line is printed. It agrees when the other side asks to
/// take back a move. It follows the host as the seat's table does (a [`Follower`]): a host
/// never reached is said after 10 s; one lost on the way is tried again until it is back.
pub fn run_as(inv: &Invitation, player: &str, out: &mut dyn Write, err: &mut dyn Write) -> Result<(), NetError> {
    let follower = Follower::start(inv)?;
    let started = std::time::Instant::now();
    let (mut reached, mut lost) = (false, false);
    // The view's version acted on last: each is acted on once.
    let mut acted = None;
    let mut ply_seed = 0u64;
    let mut copy = Copy::default();
    loop {
        if STOP.load(Ordering::Relaxed) {
            return Err(NetError::Stopped);
        }
        let v = match follower.heard.recv_timeout(Duration::from_millis(100)) {
            Err(std::sync::mpsc::RecvTimeoutError::Timeout) => continue,
            Err(std::sync::mpsc::RecvTimeoutError::Disconnected) => return Err(NetError::Stopped),
            Ok(Heard::Lost { why, .. }) if !reached && started.elapsed() > Duration::from_secs(10) => {
                return Err(NetError::Unreachable { addr: inv.addr.clone(), why });
            }
            Ok(Heard::Lost { why, .. }) => {
                if !lost {
                    let _ = writeln!(err, "tablero: the host cannot be reached ({why}): reconnecting");
                    lost = true;
                }
                continue;
            }
            Ok(Heard::Refused(e)) => return Err(e),
            // A move or an answer the host did not take: the next view says what now.
            Ok(Heard::NotTaken(_)) => {
                acted = None;
                continue;
            }
            Ok(Heard::View(v)) => v,
        };
        reached = true;
        if lost {
            let _ = writeln!(err, "tablero: connected again");
            lost = false;
        }
        let table = copy.follow(&v, player, err)?;
        if let Some(result) = &v.result {
            writeln!(out, "{result}")?;
            return Ok(());
        }
        if acted == Some(v.version) {
            continue;
        }
        acted = Some(v.version);
        ply_seed = ply_seed.wrapping_add(1);
        if v.choose_secrets {
            // Chosen, or a team-mate chose first (then not taken, and nothing lost).
            let AnyGame::Ctor(g) = &table.game else { return Err(NetError::Garbled("secrets outside CTOR".into())) };
            let squares = crate::team::random_secrets(g, v.game ^ ply_seed ^ v.seat.len() as u64);
            follower.say(Said::Secrets(super::Secrets { squares }));
        } else if v.asked.as_ref().is_some_and(|a| !a.mine) {
            follower.say(Said::Answer(Answer { yes: true }));
        } else if v.your_turn {
            let seed = v.seq.wrapping_mul(0x9E37_79B9).wrapping_add(ply_seed);
            for mv in computer_moves(&table.game, &v, player, seed)? {
                follower.send(v.seq, mv);
            }
        }
    }
}

/// The seat's own table: the host's game as this seat knows it (its own team's secret
/// squares, the other team's that worked), following the host's changes, its record saved in
/// the data folder (this machine keeps the game too).
#[derive(Default)]
struct Copy {
    table: Option<Table>,
    /// The view the table stands at, and the secret squares it knew.
    version: Option<u64>,
    secrets: (Vec<u16>, Vec<u16>),
    said: bool,
}

impl Copy {
    /// Follows `v`: its changes where they follow from the last view, else the game laid out
    /// afresh (a new game, a secret square learnt, a view after the connection was lost).
    fn follow(&mut self, v: &SeatView, player: &str, err: &mut dyn Write) -> Result<&Table, NetError> {
        let secrets = (v.secrets.clone(), v.revealed.clone());
        let same = self.table.as_ref().is_some_and(|t| t.record.created_ms == v.game) && secrets == self.secrets;
        let follows = same && v.changes_after.is_some() && v.changes_after == self.version;
        self.version = Some(v.version);
        self.secrets = secrets;
        match &mut self.table {
            Some(table) if follows => {
                let _ = table.apply(Intent::Follow { changes: v.changes.clone(), moves: v.moves.clone() });
            }
            Some(table) if same => {
                let _ = table.apply(Intent::Hosted(v.moves.clone()));
            }
            _ => self.table = Some(Copy::table_of(v, player)?),
        }
        let table = self.table.as_ref().expect("just set");
        if let Some(e) = &table.save_error
            && !self.said
        {
            let _ = writeln!(err, "tablero: the seat's copy of the record: {e}");
            self.said = true;
        }
        if table.history.len() != v.moves.len() {
            return Err(NetError::Rules(format!(
                "the host's moves do not follow from its start: {}",
                v.moves.join(" ")
            )));
        }
        Ok(table)
    }

    /// A new game's table, its record in a file of its own.
    fn table_of(v: &SeatView, player: &str) -> Result<Table, NetError> {
        let start = start_of(v)?;
        let seat = super::SeatId::parse(&v.seat).ok_or_else(|| NetError::Garbled(format!("seat '{}'", v.seat)))?;
        let kind = if player == "random" { "computer:random".to_string() } else { player.to_string() };
        let mine = (format!("{player} (seat {})", v.seat), kind);
        let host = ("the host's other seats".to_string(), "human".to_string());
        let players = if seat.side == crate::rules::Side::First { [mine, host] } else { [host, mine] };
        // The game as this seat knows it (the secret squares it knows work in it), its record
        // named as the seat sees the players.
        let kinds = players.clone().map(|(_, kind)| crate::players::Kind::from_record(&kind));
        let mut table = Table::new(start, kinds, 1);
        table.record.players = players.map(|(name, kind)| crate::record::PlayerInfo { name, kind });
        table.record.created_ms = v.game;
        table.seat = Some(seat.side);
        let path = crate::record::new_game_path(&crate::record::data_dir(), &table.record);
        let mut table = table.saved_to(path);
        let _ = table.apply(Intent::Hosted(v.moves.clone()));
        Ok(table)
    }
}

/// What a seat's table hears from the host.
#[derive(Debug)]
pub enum Heard {
    View(SeatView),
    /// The host cannot be reached now; tried again after `retry_in` seconds.
    Lost {
        why: String,
        retry_in: f64,
    },
    /// The host refused the seat itself (a wrong invitation, another certificate): asked again
    /// after 2 s.
    Refused(NetError),
    /// The host did not take a move, a question or an answer of this seat: why.
    NotTaken(String),
}

type Wake = std::sync::Arc<std::sync::Mutex<Option<Box<dyn Fn() + Send>>>>;

/// A seat's connection for the 3D table: a thread that waits on the host for each change and
/// hands the seat's view over, and the moves sent to the host in order. Dropping it stops both.
pub struct Follower {
    pub heard: std::sync::mpsc::Receiver<Heard>,
    link: std::sync::Arc<dyn Link>,
    tell: Tell,
    moves: std::sync::mpsc::Sender<SentMove>,
    stop: std::sync::Arc<std::sync::atomic::AtomicBool>,
}

impl Follower {
    /// Follows the seat of an invitation, at a host on another machine (or this one's port).
    pub fn start(inv: &Invitation) -> Result<Follower, NetError> {
        Ok(Follower::over(inv.connect()?))
    }

    /// Follows a seat through `link`: a thread waits on the host for each change and hands the
    /// seat's view over; another sends the seat's moves in order.
    pub fn over(link: std::sync::Arc<dyn Link>) -> Follower {
        use std::sync::atomic::AtomicBool;
        use std::sync::{Arc, Mutex, mpsc};
        let (tx, heard) = mpsc::channel();
        let (moves, to_send) = mpsc::channel::<SentMove>();
        let stop = Arc::new(AtomicBool::new(false));
        let wake: Wake = Arc::new(Mutex::new(None));
        let tell = Tell { tx, wake };
        let (listen_link, listen_tell, listen_stop) = (link.clone(), tell.clone(), stop.clone());
        std::thread::Builder::new()
            .name("tablero-seat".into())
            .spawn(move || listen(&*listen_link, &listen_tell, &listen_stop))
            .expect("a thread for the seat");
        let (send_link, send_tell, send_stop) = (link.clone(), tell.clone(), stop.clone());
        std::thread::Builder::new()
            .name("tablero-seat-moves".into())
            .spawn(move || {
                for m in to_send {
                    let mut backoff = crate::retry::Backoff::default();
                    let mv = m.mv.clone();
                    let said = Said::Move(m);
                    // A move is sent until the host has it or refuses it (it then says why).
                    loop {
                        if send_stop.load(Ordering::Relaxed) {
                            return;
                        }
                        match send_link.say(&said) {
                            // Taken, or stale (the host has moved on: its next view says how).
                            Ok(Posted::Taken | Posted::Stale) => break,
                            Ok(Posted::Busy) | Err(NetError::Unreachable { .. }) => {
                                std::thread::sleep(backoff.failed());
                            }
                            Ok(Posted::Refused { status, text }) => {
                                send_tell.say(Heard::NotTaken(format!("the host did not take {mv}: {status} {text}")));
                                break;
                            }
                            Err(e) => {
                                send_tell.say(Heard::NotTaken(e.to_string()));
                                break;
                            }
                        }
                    }
                }
            })
            .expect("a thread for the seat's moves");
        Follower { heard, link, tell, moves, stop }
    }

    /// Says to the host what is not a move: a team's secret squares, a question to the other
    /// side or the answer to its question, from a thread of its own; what the host does not
    /// take is heard as [`Heard::NotTaken`].
    pub fn say(&self, said: Said) {
        let (link, tell) = (self.link.clone(), self.tell.clone());
        std::thread::spawn(move || {
            let why = match link.say(&said) {
                // Stale: the host has moved on (a team-mate chose first); its next view says how.
                Ok(Posted::Taken | Posted::Stale) => return,
                Ok(Posted::Busy) => "the host is busy: say it again".to_string(),
                Ok(Posted::Refused { status, text }) => format!("the host said {status}: {text}"),
                Err(e) => e.to_string(),
            };
            tell.say(Heard::NotTaken(why));
        });
    }

    /// Sends a move of this seat, made after `seq` moves.
    pub fn send(&self, seq: u64, mv: String) {
        let _ = self.moves.send(SentMove { seq, mv });
    }

    /// Calls `f` whenever something is heard (the window wakes with it).
    pub fn on_heard(&self, f: impl Fn() + Send + 'static) {
        *self.tell.wake.lock().unwrap_or_else(|e| e.into_inner()) = Some(Box::new(f));
    }
}

/// Hands what is heard to the follower's owner, and wakes it.
#[derive(Clone)]
struct Tell {
    tx: std::sync::mpsc::Sender<Heard>,
    wake: Wake,
}

impl Tell {
    /// False once nobody listens.
    fn say(&self, heard: Heard) -> bool {
        let sent = self.tx.send(heard).is_ok();
        if let Some(f) = &*self.wake.lock().unwrap_or_else(|e| e.into_inner()) {
            f();
        }
        sent
    }
}

/// The seat's views, each as its version changes (the host answers a wait within 20 s), until
/// `stop`; a host that cannot be reached is tried again (0.25 s, doubling to 8 s) and read at
/// once when it is back.
fn listen(link: &dyn Link, tell: &Tell, stop: &std::sync::atomic::AtomicBool) {
    let mut after: Option<u64> = None;
    let mut backoff = crate::retry::Backoff::default();
    while !stop.load(Ordering::Relaxed) {
        let heard = match link.view(after) {
            Ok(Some(v)) => {
                backoff.worked();
                // After the end too: a rematch or an answer may follow.
                after = Some(v.version);
                Heard::View(v)
            }
            Ok(None) => {
                std::thread::sleep(Duration::from_millis(200));
                continue;
            }
            Err(NetError::Unreachable { why, .. }) => {
                // Back, the game is read at once (not waited on).
                after = None;
                let retry_in = backoff.pause().as_secs_f64();
                if !tell.say(Heard::Lost { why, retry_in }) {
                    return;
                }
                std::thread::sleep(backoff.failed());
                continue;
            }
            // Refused, another certificate than the invitation's (never taken), or garbled.
            Err(e) => Heard::Refused(e),
        };
        let refused = matches!(heard, Heard::Refused(_));
        if !tell.say(heard) {
            return;
        }
        if refused {
            std::thread::sleep(Duration::from_secs(2));
        }
    }
}

impl Drop for Follower {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::Relaxed);
    }
}
