//! Taking a seat with its invitation: the seat's view read from the host, and its moves sent
//! there. A dropped connection is tried again (after 0.25 s, doubling to 8 s) and the game
//! found as it is; nothing the seat did is lost, since the host keeps every move.

use super::{Answer, Invitation, NetError, Post, SeatView, SentMove};
use crate::matches::STOP;
use crate::rules::{AnyGame, Game};
use std::io::Write;
use std::sync::atomic::Ordering;
use std::time::Duration;

/// The most bytes an answer may have (a seat's view of a long game is some kilobytes).
const MAX_ANSWER: usize = 4 << 20;

/// How long an answer may take (a view waited on answers within 20 s).
const ANSWER_TIME: Duration = Duration::from_secs(40);

/// One HTTP/1.1 request to the host (a connection each, over TLS when the invitation pins a
/// certificate; see [`crate::link`]), with the seat's token: the status and the body.
/// Blocking: it runs on the calling thread (a seat's own threads, never the window's).
pub fn request(inv: &Invitation, method: &str, path: &str, body: Option<&str>) -> Result<(u16, String), NetError> {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(|e| NetError::Unreachable { addr: inv.addr.clone(), why: e.to_string() })?;
    runtime.block_on(exchange(inv, method, path, body.unwrap_or("").to_string()))
}

/// Posts `body` to its path at the host (see [`request`]).
pub fn post<T: Post>(inv: &Invitation, body: &T) -> Result<(u16, String), NetError> {
    let text = serde_json::to_string(body).map_err(|e| NetError::Garbled(e.to_string()))?;
    request(inv, "POST", T::PATH, Some(&text))
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

/// The seat's view, waiting for a change of its `version` if given; tried again while the host
/// cannot be reached.
fn view(inv: &Invitation, after: Option<u64>, first: bool, err: &mut dyn Write) -> Result<SeatView, NetError> {
    let started = std::time::Instant::now();
    let mut path = match after {
        Some(n) => format!("/seat?wait={n}"),
        None => "/seat".to_string(),
    };
    let mut backoff = crate::retry::Backoff::default();
    let mut said = false;
    loop {
        if STOP.load(Ordering::Relaxed) {
            return Err(NetError::Stopped);
        }
        match request(inv, "GET", &path, None) {
            Ok((200, body)) => {
                if said {
                    let _ = writeln!(err, "tablero: connected again");
                }
                return serde_json::from_str(&body).map_err(|e| NetError::Garbled(e.to_string()));
            }
            Ok((429 | 503, _)) => std::thread::sleep(Duration::from_millis(200)),
            Ok((status, text)) => return Err(NetError::Refused { status, text: text.trim().to_string() }),
            // A host never reached at the start is said at once, after 10 s.
            Err(e @ NetError::Unreachable { .. }) if first && started.elapsed() > Duration::from_secs(10) => {
                return Err(e);
            }
            Err(NetError::Unreachable { why, .. }) => {
                // Back, the game is read at once (not waited on).
                path = "/seat".to_string();
                if !said {
                    let _ = writeln!(err, "tablero: the host cannot be reached ({why}): reconnecting");
                    said = true;
                }
                std::thread::sleep(backoff.failed());
            }
            Err(e) => return Err(e),
        }
    }
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
fn computer_moves(v: &SeatView, player: &str, seed: u64) -> Result<Vec<String>, NetError> {
    let game = game_of(v)?;
    if v.puts_to_choose > 0 {
        let AnyGame::Ctor(g) = &game else { return Err(NetError::Garbled("blind Puts outside CTOR".into())) };
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
    let game = if crate::net::host::is_team_game(&game) { crate::team::after_round(&game) } else { game };
    let mut p = crate::players::by_name(player, seed)?;
    let mv = p.choose(&game).ok_or_else(|| NetError::Rules("no move in a game that is not over".into()))?;
    Ok(vec![mv.to_string()])
}

/// `tablero join <invitation> --as <player>`: the computer (or the random mover) plays the seat
/// until the game ends, and the result line is printed. It agrees when the other side asks to
/// take back a move.
pub fn run_as(inv: &Invitation, player: &str, out: &mut dyn Write, err: &mut dyn Write) -> Result<(), NetError> {
    let mut after = None;
    let mut ply_seed = 0u64;
    let mut first = true;
    let mut saving = Saving::default();
    loop {
        let v = view(inv, after, first, err)?;
        first = false;
        saving.save(&v, player, err);
        if let Some(result) = &v.result {
            writeln!(out, "{result}")?;
            return Ok(());
        }
        if v.choose_secrets {
            let AnyGame::Ctor(g) = game_of(&v)? else { return Err(NetError::Garbled("secrets outside CTOR".into())) };
            let squares = crate::team::random_secrets(&g, v.game ^ ply_seed ^ v.seat.len() as u64);
            match post(inv, &super::Secrets { squares }) {
                // Chosen, or a team-mate chose first.
                Ok((200 | 409, _)) => {}
                Ok((status, text)) => return Err(NetError::Refused { status, text: text.trim().to_string() }),
                Err(_) => std::thread::sleep(Duration::from_millis(250)),
            }
            after = None;
            continue;
        }
        if v.asked.as_ref().is_some_and(|a| !a.mine) {
            let _ = post(inv, &Answer { yes: true });
            after = None;
            continue;
        }
        if !v.your_turn {
            after = Some(v.version);
            continue;
        }
        ply_seed = ply_seed.wrapping_add(1);
        let seed = v.seq.wrapping_mul(0x9E37_79B9).wrapping_add(ply_seed);
        after = None;
        for mv in computer_moves(&v, player, seed)? {
            match post(inv, &SentMove { seq: v.seq, mv }) {
                Ok((200, _)) => {}
                // Stale (the host moved on), or the square taken: the next view says what now.
                Ok((409 | 422, _)) if v.puts_to_choose > 0 => break,
                Ok((409, _)) => break,
                Ok((429 | 503, _)) => {
                    std::thread::sleep(Duration::from_millis(200));
                    break;
                }
                Ok((status, text)) => return Err(NetError::Refused { status, text: text.trim().to_string() }),
                Err(NetError::Unreachable { .. }) => break,
                Err(e) => return Err(e),
            }
        }
    }
}

/// A seat's own copy of the record (its machine saves the game too), in the data folder.
#[derive(Default)]
struct Saving {
    /// The file, the game it holds and the moves written.
    at: Option<(std::path::PathBuf, u64)>,
    written: usize,
    said: bool,
}

impl Saving {
    fn save(&mut self, v: &SeatView, player: &str, err: &mut dyn Write) {
        if self.at.as_ref().is_some_and(|(_, game)| *game != v.game) {
            (self.at, self.written) = (None, 0); // a rematch: a file of its own
        }
        if self.at.is_some() && self.written == v.moves.len() {
            return;
        }
        let Ok(start) = start_of(v) else { return };
        let Some(seat) = super::SeatId::parse(&v.seat) else { return };
        let kind = if player == "random" { "computer:random".to_string() } else { player.to_string() };
        let mine = (format!("{player} (seat {})", v.seat), kind);
        let host = ("the host's other seats".to_string(), "human".to_string());
        let players = if seat.side == crate::rules::Side::First { [mine, host] } else { [host, mine] };
        let mut record = crate::record::Record::new(&start, players);
        record.created_ms = v.game;
        let mut game = start;
        for m in &v.moves {
            if game.play_text(m).is_err() {
                return;
            }
            record.push(m, &game);
        }
        let path = match &self.at {
            Some((path, _)) => path.clone(),
            None => crate::record::new_game_path(&crate::record::data_dir(), &record),
        };
        match crate::record::write_atomic(&path, &record.to_json()) {
            Ok(()) => {
                self.at = Some((path, v.game));
                self.written = v.moves.len();
            }
            Err(e) if !self.said => {
                let _ =
                    writeln!(err, "tablero: the seat's copy of the record cannot be saved at {}: {e}", path.display());
                self.said = true;
            }
            Err(_) => {}
        }
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
    /// The host refused the seat (a wrong invitation, a move it does not take).
    Refused(String),
}

type Wake = std::sync::Arc<std::sync::Mutex<Option<Box<dyn Fn() + Send>>>>;

/// A seat's connection for the 3D table: a thread that waits on the host for each change and
/// hands the seat's view over, and the moves sent to the host in order. Dropping it stops both.
pub struct Follower {
    pub heard: std::sync::mpsc::Receiver<Heard>,
    inv: Invitation,
    tx: std::sync::mpsc::Sender<Heard>,
    moves: std::sync::mpsc::Sender<SentMove>,
    stop: std::sync::Arc<std::sync::atomic::AtomicBool>,
    wake: Wake,
}

impl Follower {
    pub fn start(inv: Invitation) -> Follower {
        use std::sync::atomic::AtomicBool;
        use std::sync::{Arc, Mutex, mpsc};
        let (tx, heard) = mpsc::channel();
        let (moves, to_send) = mpsc::channel::<SentMove>();
        let stop = Arc::new(AtomicBool::new(false));
        let wake: Wake = Arc::new(Mutex::new(None));
        let wake_now = {
            let wake = wake.clone();
            move || {
                if let Some(f) = &*wake.lock().unwrap_or_else(|e| e.into_inner()) {
                    f();
                }
            }
        };
        let (listen_inv, listen_tx, listen_stop, listen_wake) =
            (inv.clone(), tx.clone(), stop.clone(), wake_now.clone());
        std::thread::Builder::new()
            .name("tablero-seat".into())
            .spawn(move || {
                let mut after: Option<u64> = None;
                let mut backoff = crate::retry::Backoff::default();
                while !listen_stop.load(Ordering::Relaxed) {
                    let path = after.map_or("/seat".to_string(), |n| format!("/seat?wait={n}"));
                    let heard = match request(&listen_inv, "GET", &path, None) {
                        Ok((200, body)) => match serde_json::from_str::<SeatView>(&body) {
                            Ok(v) => {
                                backoff.worked();
                                // After the end too: a rematch or an answer may follow.
                                after = Some(v.version);
                                Heard::View(v)
                            }
                            Err(e) => Heard::Refused(format!("the host sent what is not a seat's view: {e}")),
                        },
                        Ok((429 | 503, _)) => {
                            std::thread::sleep(Duration::from_millis(200));
                            continue;
                        }
                        Ok((status, text)) => Heard::Refused(format!("the host said {status}: {}", text.trim())),
                        // Another certificate than the invitation's: never taken, said.
                        Err(e @ NetError::OtherCertificate { .. }) => Heard::Refused(e.to_string()),
                        Err(e) => {
                            // Back, the game is read at once (not waited on).
                            after = None;
                            let retry_in = backoff.pause().as_secs_f64();
                            let _ = listen_tx.send(Heard::Lost { why: e.to_string(), retry_in });
                            listen_wake();
                            std::thread::sleep(backoff.failed());
                            continue;
                        }
                    };
                    let refused = matches!(heard, Heard::Refused(_));
                    if listen_tx.send(heard).is_err() {
                        return;
                    }
                    listen_wake();
                    if refused {
                        std::thread::sleep(Duration::from_secs(2));
                    }
                }
            })
            .expect("a thread for the seat");
        let (send_inv, send_stop, say_tx) = (inv.clone(), stop.clone(), tx.clone());
        std::thread::Builder::new()
            .name("tablero-seat-moves".into())
            .spawn(move || {
                for m in to_send {
                    let mut backoff = crate::retry::Backoff::default();
                    // A move is sent until the host has it or refuses it (it then says why).
                    loop {
                        if send_stop.load(Ordering::Relaxed) {
                            return;
                        }
                        match post(&send_inv, &m) {
                            // Taken, or stale (the host has moved on: its next view says how).
                            Ok((200 | 409, _)) => break,
                            Ok((429 | 503, _)) | Err(NetError::Unreachable { .. }) => {
                                std::thread::sleep(backoff.failed());
                            }
                            Ok((status, text)) => {
                                let _ = tx.send(Heard::Refused(format!(
                                    "the host did not take {}: {status} {}",
                                    m.mv,
                                    text.trim()
                                )));
                                wake_now();
                                break;
                            }
                            Err(e) => {
                                let _ = tx.send(Heard::Refused(e.to_string()));
                                wake_now();
                                break;
                            }
                        }
                    }
                }
            })
            .expect("a thread for the seat's moves");
        Follower { heard, inv, tx: say_tx, moves, stop, wake }
    }

    /// Asks the other side ([`super::Ask`]) or answers its question ([`Answer`]), from a
    /// thread of its own; a refusal is heard as one.
    pub fn say<T: Post + Send + 'static>(&self, body: T) {
        let inv = self.inv.clone();
        let (tx, wake) = (self.tx.clone(), self.wake.clone());
        std::thread::spawn(move || {
            let said = match post(&inv, &body) {
                Ok((200, _)) => return,
                Ok((status, text)) => format!("the host said {status}: {}", text.trim()),
                Err(e) => e.to_string(),
            };
            let _ = tx.send(Heard::Refused(said));
            if let Some(f) = &*wake.lock().unwrap_or_else(|e| e.into_inner()) {
                f();
            }
        });
    }

    /// Sends a move of this seat, made after `seq` moves.
    pub fn send(&self, seq: u64, mv: String) {
        let _ = self.moves.send(SentMove { seq, mv });
    }

    /// Calls `f` whenever something is heard (the window wakes with it).
    pub fn on_heard(&self, f: impl Fn() + Send + 'static) {
        *self.wake.lock().unwrap_or_else(|e| e.into_inner()) = Some(Box::new(f));
    }
}

impl Drop for Follower {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::Relaxed);
    }
}
