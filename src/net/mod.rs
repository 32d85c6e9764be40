//! Playing across machines: a host serves a game's seats over HTTP, and a player (or the
//! computer) on another machine takes a seat with its invitation.
//!
//! The protocol, in a few lines:
//!
//! - An invitation is `http://HOST:PORT/join#seat=SEAT&token=TOKEN`: the token (128 random bits,
//!   hex) is after `#`, so it never travels in a request line or a server's log.
//! - A seat's requests carry `Authorization: Bearer TOKEN`. `GET /seat` answers the seat's view
//!   as JSON (`SeatView`); `GET /seat?wait=N` waits (up to 20 s) until the game has moved past
//!   `N` moves. `POST /seat/move` with `{"seq": N, "move": "c2-c4"}` plays a move when `N` is the
//!   number of moves played so far (a stale or doubled move is refused) and the seat is on turn.
//! - The host's rules decide every move. Refusals are 4xx with one line of text: 401 no or
//!   another token, 403 not the seat's turn or the game over, 409 a stale `seq`, 422 an illegal
//!   move, 400 a malformed request, 413 a body over 1 KiB, 408 a body that does not arrive within
//!   5 s, 429 more than 100 requests a second from one seat (a seat then waits a moment), 503
//!   more than 64 requests at once.

pub mod host;
pub mod join;

use crate::rules::{Side, Variant};

/// A seat's secret: 128 random bits.
#[derive(Clone, Copy, PartialEq, Eq)]
pub struct Token(pub [u8; 16]);

impl Token {
    /// A new token from the system's random source.
    pub fn new() -> std::io::Result<Token> {
        use std::io::Read;
        let mut bytes = [0u8; 16];
        std::fs::File::open("/dev/urandom")?.read_exact(&mut bytes)?;
        Ok(Token(bytes))
    }

    pub fn hex(&self) -> String {
        self.0.iter().map(|b| format!("{b:02x}")).collect()
    }

    pub fn from_hex(text: &str) -> Option<Token> {
        if text.len() != 32 || !text.bytes().all(|b| b.is_ascii_hexdigit()) {
            return None;
        }
        let mut bytes = [0u8; 16];
        for (i, b) in bytes.iter_mut().enumerate() {
            *b = u8::from_str_radix(&text[2 * i..2 * i + 2], 16).ok()?;
        }
        Some(Token(bytes))
    }

    /// Whether `text` is this token, in a time that does not depend on where they differ.
    pub fn matches(&self, text: &[u8]) -> bool {
        let mut given = [0u8; 32];
        let long = text.len() != 32;
        for (i, b) in text.iter().take(32).enumerate() {
            given[i] = *b;
        }
        let mine = self.hex();
        let diff = mine.as_bytes().iter().zip(given.iter()).fold(0u8, |d, (a, b)| d | (a ^ b));
        diff == 0 && !long
    }
}

/// Never shown: a token in a debug print says only that it is one.
impl std::fmt::Debug for Token {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Token(…)")
    }
}

/// The seat of a side: `first` or `second`, or the variant's name for the side (`white`,
/// `blue`, `red`, `black`, `light`, `dark`).
pub fn seat_side(variant: Variant, name: &str) -> Option<Side> {
    match name {
        "first" => Some(Side::First),
        "second" => Some(Side::Second),
        _ => [Side::First, Side::Second].into_iter().find(|s| variant.side_name(*s) == name),
    }
}

pub fn seat_name(side: Side) -> &'static str {
    match side {
        Side::First => "first",
        Side::Second => "second",
    }
}

/// What a seat sees of the game.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct SeatView {
    /// `first` or `second`.
    pub seat: String,
    /// The side's name in this variant.
    pub side: String,
    pub variant: String,
    pub start: String,
    /// Every move played, in the notation.
    pub moves: Vec<String>,
    /// The number of moves played: a move is sent with it.
    pub seq: u64,
    pub your_turn: bool,
    /// The other seat: `here` (at the host), `remote`, `away` (remote and not heard from for
    /// 10 s) or the computer's kind.
    pub other: String,
    /// `result: … wins (…)` once the game is over.
    pub result: Option<String>,
}

/// A move sent by a seat.
#[derive(Clone, Debug, serde::Serialize, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SentMove {
    pub seq: u64,
    #[serde(rename = "move")]
    pub mv: String,
}

/// What hosting or joining fails at.
#[derive(Debug, thiserror::Error)]
pub enum NetError {
    #[error("'{}' is not an invitation (like http://127.0.0.1:7979/join#seat=first&token=…)", crate::rules::quote(.0))]
    Invitation(String),
    #[error("'{}' is not a seat of {variant} (first, second, {}, {})", crate::rules::quote(.name), .variant.side_name(Side::First), .variant.side_name(Side::Second))]
    Seat { name: String, variant: Variant },
    #[error("'{}' is not who sits there (remote, ai:<level>, random)", crate::rules::quote(.0))]
    Sitter(String),
    #[error("the {0} seat is given twice")]
    Twice(&'static str),
    #[error("'{}' is not an address (a port like 7979, or host:port like 127.0.0.1:7979)", crate::rules::quote(.0))]
    Address(String),
    #[error("a person at the host needs the table: leave out --headless, or seat remote players and the computer")]
    PersonHeadless,
    #[error("the host's table seats one person (--seat SIDE=person); the other seat is remote or the computer")]
    OnePerson,
    #[error("the host serves only this machine (127.0.0.1) unless asked: use --listen {0} to serve other machines")]
    NotLocal(std::net::SocketAddr),
    #[error("the record {path} starts from another position than the one given")]
    OtherStart { path: String },
    #[error("the seats file {path} cannot be used: {why}")]
    Seats { path: String, why: String },
    #[error("the host cannot listen on {addr}: {source}")]
    Listen { addr: std::net::SocketAddr, source: std::io::Error },
    #[error("the host said {status}: {text}")]
    Refused { status: u16, text: String },
    #[error("the host sent what is not a seat's view: {0}")]
    Garbled(String),
    #[error("the host at {addr} cannot be reached: {why}")]
    Unreachable { addr: String, why: String },
    #[error("the host saw a move the rules refuse: {0}")]
    Rules(String),
    #[error(transparent)]
    Position(#[from] crate::rules::PositionError),
    #[error(transparent)]
    Record(#[from] crate::record::RecordError),
    #[error(transparent)]
    Player(#[from] crate::players::UnknownPlayer),
    #[error("the host stopped by Ctrl-C")]
    Stopped,
    #[error("{0}")]
    Io(#[from] std::io::Error),
}

/// An invitation's parts.
#[derive(Clone, Debug, PartialEq)]
pub struct Invitation {
    /// `host:port`.
    pub addr: String,
    pub seat: Side,
    pub token: String,
}

impl Invitation {
    pub fn link(addr: &std::net::SocketAddr, seat: Side, token: &Token) -> String {
        format!("http://{addr}/join#seat={}&token={}", seat_name(seat), token.hex())
    }

    pub fn parse(text: &str) -> Result<Invitation, NetError> {
        let bad = || NetError::Invitation(text.to_string());
        let rest = text.trim().strip_prefix("http://").ok_or_else(bad)?;
        let (addr, rest) = rest.split_once("/join#").ok_or_else(bad)?;
        if addr.is_empty() || addr.contains('/') || !addr.contains(':') {
            return Err(bad());
        }
        let (mut seat, mut token) = (None, None);
        for part in rest.split('&') {
            match part.split_once('=') {
                Some(("seat", "first")) => seat = Some(Side::First),
                Some(("seat", "second")) => seat = Some(Side::Second),
                Some(("token", t)) if Token::from_hex(t).is_some() => token = Some(t.to_string()),
                _ => return Err(bad()),
            }
        }
        Ok(Invitation { addr: addr.to_string(), seat: seat.ok_or_else(bad)?, token: token.ok_or_else(bad)? })
    }
}
