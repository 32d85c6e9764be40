//! The host: the game, its seats and the server a remote seat plays through (see the module
//! above for the protocol). The host's rules decide every move and its clock the sand-glass;
//! the record is saved after each move, and the seats' tokens beside it, readable by the owner
//! only, so that a host started again with the same record reopens the same seats with the same
//! invitations. Spectators watch the host's live feed, which never carries a token or a blind
//! Put before it is played.
//!
//! In rooms: this module opens the host (its options, the certificate, the address its
//! invitations name); [`seats`] holds the game and what the seats may do, refusing with a
//! typed [`Refused`]; [`server`] is the routes and the bounds on requests, where a refusal
//! gets its status code ([`status`]); [`local`] is the seat of a person at the host's own
//! table, in this process; [`tokens`] keeps the seats' tokens beside the record;
//! [`computer`] plays the computer's seats; [`headless`] is `tablero host --headless`.

mod computer;
mod headless;
mod local;
mod relay;
mod seats;
mod server;
mod tokens;

pub use headless::{run_headless, seat_names};
pub use local::LocalSeat;
pub use seats::{Refused, Why};
pub use server::status;
pub use tokens::seats_path;

use super::{Invitation, NetError, SeatId, Token};
use crate::feed::Feed;
use crate::matches::STOP;
use crate::players::Kind;
use crate::record::{PlayerInfo, Record};
use crate::rules::{AnyGame, Side};
use crate::team::{Lead, TeamRecord};
use seats::{Seat, Shared, Table};
use std::net::SocketAddr;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Condvar, Mutex};
use std::time::{Duration, Instant};

/// The most bytes a request's body may have.
pub const MAX_BODY: usize = 1024;
/// How long a request's body may take to arrive.
pub const BODY_TIME: Duration = Duration::from_secs(5);
/// The longest a `GET /seat?wait=V` waits.
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
    /// The computer at the host, as one of its players (never [`Kind::Person`]).
    Computer(Kind),
}

impl Sitter {
    pub fn parse(text: &str) -> Result<Sitter, NetError> {
        match text {
            "remote" => Ok(Sitter::Remote),
            "person" => Ok(Sitter::Person),
            _ => match text.parse::<Kind>() {
                Ok(Kind::Person) | Err(_) => Err(NetError::Sitter(text.to_string())),
                Ok(kind) => Ok(Sitter::Computer(kind)),
            },
        }
    }

    fn player(&self, seat: SeatId, team: bool) -> PlayerInfo {
        let name = match self {
            Sitter::Remote => format!("remote ({})", seat.name(team)),
            Sitter::Person => "person at the host".into(),
            Sitter::Computer(Kind::Random) => "random mover".into(),
            Sitter::Computer(kind) => kind.label(),
        };
        PlayerInfo { name, kind: self.kind().name() }
    }

    /// The player kind a record writes for the seat.
    pub fn kind(&self) -> Kind {
        match self {
            Sitter::Remote | Sitter::Person => Kind::Person,
            Sitter::Computer(kind) => *kind,
        }
    }

    fn is_computer(&self) -> bool {
        matches!(self, Sitter::Computer(_))
    }
}

/// What a host is asked to do.
pub struct HostOptions {
    pub start: AnyGame,
    /// Who sits at each side's seats: one, or in a CTOR team game one per member.
    pub seats: [Vec<Sitter>; 2],
    pub addr: SocketAddr,
    /// The record's file; a new one in the data folder unless given. A record that exists is
    /// resumed, with the seats' tokens kept beside it.
    pub record: Option<PathBuf>,
    /// Seconds the host serves on after the end, so that remote seats see the result (and may
    /// ask for a rematch).
    pub linger: f64,
    /// CTOR's sand-glass: seconds per turn, timed by the host.
    pub timer: Option<u8>,
    /// Where to serve the live feed for spectators, if anywhere.
    pub feed: Option<SocketAddr>,
    /// CTOR: each team chooses 5 secret squares before the first move (the computer's teams at
    /// once), sent to the host only.
    pub secrets: bool,
    /// HTTPS even on this machine's loopback (a host that other machines reach always serves
    /// HTTPS).
    pub tls: bool,
    /// Serve the seats through this relay (`nats://HOST:PORT`) instead of a port of the host's.
    pub relay: Option<String>,
}

impl HostOptions {
    /// Options with every seat remote (one per side, or one per member of a CTOR team).
    pub fn remote(start: AnyGame, addr: SocketAddr) -> HostOptions {
        let seats = [Side::First, Side::Second].map(|s| vec![Sitter::Remote; members(&start, s) as usize]);
        HostOptions {
            start,
            seats,
            addr,
            record: None,
            linger: 0.0,
            timer: None,
            feed: None,
            secrets: false,
            tls: false,
            relay: None,
        }
    }
}

/// The members of `side`'s team: 1, or in CTOR the team's size.
pub fn members(game: &AnyGame, side: Side) -> u8 {
    match game {
        AnyGame::Ctor(g) => g.teams().sizes[side.index()].max(1),
        _ => 1,
    }
}

/// Whether the game is a CTOR team game (a team of two or more).
pub fn is_team_game(game: &AnyGame) -> bool {
    members(game, Side::First) > 1 || members(game, Side::Second) > 1
}

/// The address an invitation names for a host listening on `addr`: `addr` itself, or where it
/// listens on every address, this machine's address on the route out (asked of the system by
/// a UDP socket aimed at a documentation address: nothing is sent), else the loopback.
pub fn reachable(addr: SocketAddr) -> SocketAddr {
    if !addr.ip().is_unspecified() {
        return addr;
    }
    let (any, probe): (SocketAddr, SocketAddr) = if addr.is_ipv4() {
        (([0, 0, 0, 0], 0).into(), ([192, 0, 2, 1], 9).into())
    } else {
        (([0u16; 8], 0).into(), ([0x2001, 0xdb8, 0, 0, 0, 0, 0, 1], 9).into())
    };
    let out = std::net::UdpSocket::bind(any).and_then(|s| s.connect(probe).and_then(|()| s.local_addr()));
    match out {
        Ok(a) if !a.ip().is_unspecified() => SocketAddr::new(a.ip(), addr.port()),
        _ => SocketAddr::new(
            if addr.is_ipv4() { [127, 0, 0, 1].into() } else { std::net::Ipv6Addr::LOCALHOST.into() },
            addr.port(),
        ),
    }
}

/// A host serving its seats; dropping it stops the server.
pub struct Host {
    shared: Arc<Shared>,
    /// The address the host listens on.
    pub addr: SocketAddr,
    /// The address its invitations name: `addr`, or where it listens on every address
    /// (`0.0.0.0`), this machine's address towards other machines.
    pub reach: SocketAddr,
    /// Over HTTPS: the SHA-256 of the certificate the invitations pin.
    pub cert: Option<super::tls::Fingerprint>,
    /// The record's file when the host opened (a rematch saves into a new one).
    pub path: PathBuf,
    /// The live feed's server, if asked for.
    pub feed: Option<crate::feed::server::Server>,
    /// Through a relay: where the game is there (the host then listens on no port: `addr`
    /// and `reach` are the address it was given, unused).
    pub relay: Option<super::relay::Place>,
    /// Through a relay: the host's connection to it.
    relay_client: Option<async_nats::Client>,
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
        let mut start = o.start.clone();
        if let Some(t) = o.timer {
            match &mut start {
                AnyGame::Ctor(g) if crate::rules::ctor::TIMERS.contains(&t) => g.set_timer(Some(t)),
                _ => return Err(NetError::Timer(t)),
            }
        }
        let team = is_team_game(&start);
        let mut seats = Vec::new();
        for side in [Side::First, Side::Second] {
            for m in 0..members(&start, side) {
                let sitter = o.seats[side.index()].get(m as usize).cloned().unwrap_or(Sitter::Remote);
                seats.push(Seat { id: SeatId::new(side, m), sitter, token: None });
            }
        }
        let players = |side: Side| -> Vec<PlayerInfo> {
            seats.iter().filter(|s| s.id.side == side).map(|s| s.sitter.player(s.id, team)).collect()
        };
        let fresh = || {
            let mut r = Record::new(
                &start,
                [Side::First, Side::Second].map(|s| {
                    let p = players(s);
                    let name = p.iter().map(|p| p.name.clone()).collect::<Vec<_>>().join(" & ");
                    (name, p[0].kind.clone())
                }),
            );
            if team {
                r.team = Some(TeamRecord::new([players(Side::First), players(Side::Second)], Lead::Captain));
            }
            r
        };
        let path = match &o.record {
            Some(p) => p.clone(),
            None => crate::record::new_game_path(&crate::record::data_dir(), &fresh()),
        };
        let seats_file = seats_path(&path);
        let ids: Vec<SeatId> = seats.iter().map(|s| s.id).collect();
        let (record, tokens) = if path.exists() {
            let (record, _) = crate::record::load(&path)?;
            if record.start_game()?.to_string() != start.to_string() {
                return Err(NetError::OtherStart { path: path.display().to_string() });
            }
            let tokens =
                if seats_file.exists() { tokens::load_tokens(&seats_file, &ids, team)? } else { vec![None; ids.len()] };
            (record, tokens)
        } else {
            let record = fresh();
            crate::record::write_atomic(&path, &record.to_json())?;
            (record, vec![None; ids.len()])
        };
        for (seat, token) in seats.iter_mut().zip(tokens) {
            seat.token = match seat.sitter {
                Sitter::Computer(_) => None,
                _ => Some(match token {
                    Some(t) => t,
                    None => Token::new()?,
                }),
            };
        }
        // Through a relay: the game's name there, kept beside the record with the tokens.
        let place = match &o.relay {
            Some(r) => Some(super::relay::Place {
                relay: super::relay::relay_address(r)?,
                game: match tokens::load_game(&seats_file) {
                    Some(game) => game,
                    None => super::relay::new_game()?,
                },
            }),
            None => None,
        };
        tokens::save_tokens(
            &seats_file,
            &seats.iter().map(|s| (s.id, s.token)).collect::<Vec<_>>(),
            team,
            place.as_ref().map(|p| p.game.as_str()),
        )?;
        let secret_squares = o.secrets && matches!(start, AnyGame::Ctor(_));
        // Through a relay, the feed's public events go to the relay too.
        let feed = (o.feed.is_some() || place.is_some()).then(Feed::new);
        let n = seats.len();
        let nobody = seats.iter().all(|s| s.sitter.is_computer());
        let shared = Arc::new(Shared {
            table: Mutex::new(Table {
                core: seats::holder(record, path.clone())?,
                turn_began: Instant::now(),
                turn_key: (u32::MAX, Side::First, 0),
                version: 0,
                pending: Vec::new(),
                log: std::collections::VecDeque::new(),
                log_from: 0,
            }),
            moved: Condvar::new(),
            version: tokio::sync::watch::Sender::new(0),
            seats,
            team,
            timer: o.timer,
            start,
            secret_squares,
            heard: Mutex::new(vec![None; n]),
            joined: Mutex::new(nobody.then(Instant::now)),
            rate: Mutex::new(vec![(Instant::now(), 0); n]),
            in_flight: AtomicUsize::new(0),
            closed: AtomicBool::new(false),
            feed: feed.clone(),
            relay_game: place.as_ref().map(|p| p.game.clone()),
        });
        {
            let mut t = shared.lock();
            t.place();
            shared.computer_secrets(&mut t);
            shared.changed(&mut t);
        }
        if let Some(place) = place {
            let feed_server = match (feed, o.feed) {
                (Some(feed), Some(feed_addr)) if feed_addr.ip().is_loopback() => Some(
                    crate::feed::server::serve_over(feed, feed_addr, None)
                        .map_err(|e| NetError::Feed(e.to_string()))?,
                ),
                (Some(_), Some(_)) => {
                    return Err(NetError::Feed(
                        "through a relay, the feed serves this machine only (its spectators elsewhere follow the relay)".into(),
                    ));
                }
                _ => None,
            };
            let (stop, thread, client) = relay::serve(shared.clone(), &place)?;
            return Ok(Host {
                shared,
                addr: o.addr,
                reach: o.addr,
                cert: None,
                path,
                feed: feed_server,
                relay: Some(place),
                relay_client: Some(client),
                stop: Some(stop),
                thread: Some(thread),
            });
        }
        let listener =
            std::net::TcpListener::bind(o.addr).map_err(|source| NetError::Listen { addr: o.addr, source })?;
        let addr = listener.local_addr()?;
        let reach = reachable(addr);
        // HTTPS for every host that other machines reach, and for its live feed where other
        // machines reach that (the overlay page for a streaming tool stays plain on 127.0.0.1),
        // with the certificate kept beside the record (a resumed host keeps it, and its
        // invitations).
        let tls_seats = o.tls || !addr.ip().is_loopback();
        let tls_feed = o.feed.is_some_and(|f| o.tls || !f.ip().is_loopback());
        let identity = if tls_seats || tls_feed {
            let names = vec!["localhost".to_string(), reach.ip().to_string(), addr.ip().to_string()];
            Some(super::tls::identity(&path, &names).map_err(NetError::Certificate)?)
        } else {
            None
        };
        let acceptor = match &identity {
            Some(i) => Some(i.acceptor().map_err(|e| NetError::Certificate(e.to_string()))?),
            None => None,
        };
        let pinned = identity.as_ref().map(|i| i.fingerprint());
        let cert = pinned.filter(|_| tls_seats);
        let feed_server = match (feed, o.feed) {
            (Some(feed), Some(feed_addr)) => {
                let tls = acceptor.clone().zip(pinned).filter(|_| tls_feed);
                Some(crate::feed::server::serve_over(feed, feed_addr, tls).map_err(|e| NetError::Feed(e.to_string()))?)
            }
            _ => None,
        };
        let acceptor = acceptor.filter(|_| tls_seats);
        listener.set_nonblocking(true)?;
        let runtime = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(2)
            .thread_name("tablero-host")
            .enable_all()
            .build()?;
        let (stop, thread) =
            crate::feed::server::spawn(runtime, listener, acceptor, server::router(shared.clone()), "tablero-host")?;
        Ok(Host {
            shared,
            addr,
            reach,
            cert,
            path,
            feed: feed_server,
            relay: None,
            relay_client: None,
            stop: Some(stop),
            thread: Some(thread),
        })
    }

    /// Through a relay: waits up to `limit` until the host is there (connected, and its
    /// subscriptions taken by the relay: it connects in the background), else says the relay
    /// cannot be reached. At once for a host on its own port.
    pub fn reach_relay(&self, limit: Duration) -> Result<(), NetError> {
        let (Some(client), Some(place)) = (&self.relay_client, &self.relay) else { return Ok(()) };
        let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build()?;
        let there = runtime.block_on(async {
            let until = Instant::now() + limit;
            crate::nats::until_connected(client, until).await
                && tokio::time::timeout(until.saturating_duration_since(Instant::now()), client.flush())
                    .await
                    .is_ok_and(|f| f.is_ok())
        });
        match there {
            true => Ok(()),
            false => Err(NetError::Unreachable {
                addr: super::relay::shown(&place.relay),
                why: "the relay cannot be reached".into(),
            }),
        }
    }

    /// Whether the game is a CTOR team game (its seats are members: `first.1`, …).
    pub fn is_team(&self) -> bool {
        self.shared.team
    }

    /// The game's address for spectators: on its relay, else its live feed's; none without either.
    pub fn watch_link(&self) -> Option<String> {
        self.relay.as_ref().map(|p| p.watch_link()).or_else(|| self.feed.as_ref().map(|f| f.watch_link()))
    }

    /// What a host says when it opens: `invite <seat>: <link>` for each remote seat, the game's
    /// address for spectators, the feed's, and the record's path.
    pub fn lines(&self) -> Vec<String> {
        let mut lines: Vec<String> =
            self.invitations().iter().map(|(id, link)| format!("invite {}: {link}", id.name(self.is_team()))).collect();
        if let Some(place) = &self.relay {
            lines.push(format!("watch: {}", place.watch_link()));
        }
        if let Some(feed) = &self.feed {
            lines.push(format!("feed: {} (for spectators: tablero watch '{}')", feed.url(), feed.watch_link()));
        }
        lines.push(format!("record: {}", self.path.display()));
        lines
    }

    /// Each remote seat's name and invitation.
    pub fn invitations(&self) -> Vec<(SeatId, String)> {
        self.shared
            .seats
            .iter()
            .filter(|s| s.sitter == Sitter::Remote)
            .filter_map(|s| self.seat_link(s.id).map(|l| (s.id, l)))
            .collect()
    }

    /// The link of any seat with a token (a person at the host's table connects through it).
    pub fn seat_link(&self, id: SeatId) -> Option<String> {
        let seat = &self.shared.seats[self.shared.index(id)?];
        seat.token.map(|t| match &self.relay {
            Some(place) => Invitation::relay_link(place, id, self.shared.team, &t),
            None => Invitation::link(&self.reach, id, self.shared.team, &t, self.cert.as_ref()),
        })
    }

    /// Seat `id` taken in this process: a person at the host's own table plays through it
    /// without the network.
    pub fn local_seat(&self, id: SeatId) -> Option<LocalSeat> {
        Some(LocalSeat { shared: self.shared.clone(), k: self.shared.index(id)? })
    }

    /// The seat a person at the host's table sits at.
    pub fn person(&self) -> Option<SeatId> {
        self.shared.seats.iter().find(|s| s.sitter == Sitter::Person).map(|s| s.id)
    }

    /// The game now.
    pub fn game(&self) -> AnyGame {
        self.shared.lock().game().clone()
    }

    /// The record's file now (a rematch saves into a new one).
    pub fn record_path(&self) -> PathBuf {
        self.shared.lock().core.record_path.clone().unwrap_or_default()
    }

    /// Plays the game out: the computer's seats move here, the remote ones through the server,
    /// and the sand-glass ends turns. Returns when the game is over, or with
    /// [`NetError::Stopped`] after Ctrl-C (the record keeps every move played).
    pub fn play_out(&self) -> Result<AnyGame, NetError> {
        computer::play_out(&self.shared)
    }

    /// Plays game after game (rematches) on a thread of its own, until the host closes.
    pub fn play_in_background(&self) -> std::thread::JoinHandle<()> {
        let shared = self.shared.clone();
        std::thread::spawn(move || {
            while !shared.closed.load(Ordering::Relaxed) && !STOP.load(Ordering::Relaxed) {
                if computer::play_out(&shared).is_err() {
                    return;
                }
                let t = shared.lock();
                let _ = shared.moved.wait_timeout(t, Duration::from_millis(200));
            }
        })
    }
}
