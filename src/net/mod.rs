//! Playing across machines: a host serves a game's seats over HTTP, and a player (or the
//! computer) on another machine takes a seat with its invitation.
//!
//! The protocol, in a few lines:
//!
//! - An invitation is `http://HOST:PORT/join#seat=SEAT&token=TOKEN`: the token (128 random bits,
//!   hex) is after `#`, so it never travels in a request line or a server's log. A seat is
//!   `first` or `second`; in a CTOR team game each member has one, `first.1`, `first.2`, ….
//! - A host that other machines reach (or one asked with `--tls`) serves HTTPS with a
//!   certificate it made itself, kept beside the record: its invitation is
//!   `https://HOST:PORT/join#seat=SEAT&token=TOKEN&cert=SHA256`, and the seat accepts that one
//!   certificate and no other (see [`tls`]). The TLS handshake is bounded like a request's head.
//! - A seat's requests carry `Authorization: Bearer TOKEN`. `GET /seat` answers the seat's view
//!   as JSON (`SeatView`); `GET /seat?wait=V` waits (up to 20 s) until the view's `version` is
//!   no longer `V` (a move, a member's blind Put, a question asked or answered, a new game),
//!   with the game's changes since `V` as the host's table made them (`changes`, the table's
//!   [`crate::table::Change`]: a move played, moves taken back, a new game), which the seat
//!   follows; the list of moves serves a first view and one after a lost connection.
//!   `POST /seat/move` with `{"seq": N, "move": "c2-c4"}` plays a move when `N` is the number of
//!   moves played so far (a stale or doubled move is refused) and it is the seat's to make. In a
//!   CTOR team game a member's Puts are blind: the host keeps them, unseen by anyone, until
//!   every member has chosen, then plays them (a member whose square was taken chooses again);
//!   the acting member then plays the Moves and Landings.
//! - CTOR's secret squares (`--secrets`): before the first move each team sends its 5 with
//!   `POST /seat/secrets` `{"squares": [...]}`; a seat's view holds its own team's squares and
//!   the other team's only once they have worked.
//! - `POST /seat/ask` with `{"seq": N, "what": "undo"}` (take back this seat's last move) or
//!   `"rematch"` (after the end) asks the other side; `POST /seat/answer` with `{"yes": true}`
//!   answers it. The computer at the host agrees at once.
//! - The host's rules decide every move, and its clock the sand-glass. Refusals are 4xx with one
//!   line of text: 401 no or another token, 403 not the seat's turn or the game over, 409 a
//!   stale `seq`, 422 an illegal move, 400 a malformed request, 413 a body over 1 KiB, 408 a
//!   body that does not arrive within 5 s, 429 more than 100 requests a second from one seat (a
//!   seat then waits a moment), 503 more than 64 requests at once. Connections are bounded too:
//!   256 at once, each request's head within 5 s.
//! - Spectators watch the host's live feed (`--feed`), which carries the moves played and
//!   nothing of the seats: no token, no blind Put before it is played.

pub mod host;
pub mod join;
pub mod relay;
pub use crate::tls;

use crate::rules::{Side, Variant};

/// A seat's secret: 128 random bits.
#[derive(Clone, Copy, PartialEq, Eq)]
pub struct Token(pub [u8; 16]);

impl Token {
    /// A new token from the system's random source.
    pub fn new() -> std::io::Result<Token> {
        let mut bytes = [0u8; 16];
        getrandom::fill(&mut bytes).map_err(|e| std::io::Error::other(e.to_string()))?;
        Ok(Token(bytes))
    }

    pub fn hex(&self) -> String {
        crate::hex::encode(&self.0)
    }

    /// 32 hexadecimal digits (either case).
    pub fn from_hex(text: &str) -> Option<Token> {
        crate::hex::decode(text).map(Token)
    }

    /// Whether `text` is this token, in a time that does not depend on where they differ.
    pub fn matches(&self, text: &[u8]) -> bool {
        use subtle::ConstantTimeEq;
        // A length other than 32 says nothing about the token (every token has 32 digits).
        text.len() == 32 && bool::from(self.hex().as_bytes().ct_eq(text))
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

/// A seat: a side, and in a CTOR team game one member of its team (from 0).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct SeatId {
    pub side: Side,
    pub member: u8,
}

impl SeatId {
    pub fn new(side: Side, member: u8) -> SeatId {
        SeatId { side, member }
    }

    /// `first`, `second`, or in a team game `first.1` (members counted from 1).
    pub fn name(self, team: bool) -> String {
        if team { format!("{}.{}", seat_name(self.side), self.member + 1) } else { seat_name(self.side).to_string() }
    }

    /// A seat's name in an invitation: `first`, `second`, `first.N`, `second.N` (N from 1 to 3).
    pub fn parse(text: &str) -> Option<SeatId> {
        let (side, member) = match text.split_once('.') {
            Some((side, n)) => (side, n.parse::<u8>().ok().filter(|n| (1..=3).contains(n))? - 1),
            None => (text, 0),
        };
        let side = match side {
            "first" => Side::First,
            "second" => Side::Second,
            _ => return None,
        };
        Some(SeatId { side, member })
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
    /// `first` or `second` (`first.2`… for a team's member).
    pub seat: String,
    /// The side's name in this variant.
    pub side: String,
    pub variant: String,
    pub start: String,
    /// CTOR's sand-glass: seconds per turn.
    #[serde(default)]
    pub timer: Option<u8>,
    /// Tells one game from the next (a rematch is a new game).
    #[serde(default)]
    pub game: u64,
    /// Every move played, in the notation.
    pub moves: Vec<String>,
    /// The number of moves played: a move is sent with it.
    pub seq: u64,
    /// Changes with everything the seat may see: `GET /seat?wait=V` waits for it to change.
    #[serde(default)]
    pub version: u64,
    /// Whether the seat has something to do now: a move, or (a team's member) blind Puts.
    pub your_turn: bool,
    /// CTOR team play: the blind Puts this member is to choose now, and those it has chosen
    /// that are not played yet (only this member sees them).
    #[serde(default)]
    pub puts_to_choose: u8,
    #[serde(default)]
    pub chosen: Vec<String>,
    /// The other side: `here` (at the host), `remote`, `away` (remote and not heard from for
    /// 10 s) or the computer's kind (in a team game, its members' joined by `, `).
    pub other: String,
    /// Milliseconds left on the sand-glass of the turn, while it runs.
    #[serde(default)]
    pub sand_left_ms: Option<u64>,
    /// CTOR's secret squares: whether this seat's team is to choose its 5 now (the game waits
    /// for both teams), the team's own squares, and the other team's that have worked.
    #[serde(default)]
    pub choose_secrets: bool,
    /// The game waits for a team's secret squares.
    #[serde(default)]
    pub secrets_pending: bool,
    #[serde(default)]
    pub secrets: Vec<u16>,
    #[serde(default)]
    pub revealed: Vec<u16>,
    /// A question waiting: `undo` or `rematch`, asked by this side (`mine`) or the other.
    #[serde(default)]
    pub asked: Option<Asked>,
    /// `result: … wins (…)` once the game is over.
    pub result: Option<String>,
    /// The game's changes since the version the seat asked after (`GET /seat?wait=V`), in
    /// order, and that version; `changes_after` is none where the host no longer has them all
    /// (or none was asked after): the seat then lays the game out from `moves`.
    #[serde(default)]
    pub changes: Vec<crate::table::Change>,
    #[serde(default)]
    pub changes_after: Option<u64>,
}

/// A team's secret squares, sent by one of its members: `{"squares": [3, 17, 22, 40, 58]}`.
#[derive(Clone, Debug, serde::Serialize, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Secrets {
    pub squares: Vec<u16>,
}

/// What one side may ask the other (the table core's questions).
pub use crate::table::Question;

/// A question one side asked the other.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Asked {
    pub what: Question,
    /// Whether this seat's side asked it.
    pub mine: bool,
}

/// A question a seat asks: `{"seq": N, "what": "undo" | "rematch"}`.
#[derive(Clone, Debug, serde::Serialize, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Ask {
    pub seq: u64,
    pub what: Question,
}

/// An answer: `{"yes": true}`.
#[derive(Clone, Debug, serde::Serialize, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Answer {
    pub yes: bool,
}

/// A move sent by a seat.
#[derive(Clone, Debug, serde::Serialize, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SentMove {
    pub seq: u64,
    #[serde(rename = "move")]
    pub mv: String,
}

/// What a seat posts to the host, each to its own path.
pub trait Post: serde::Serialize {
    const PATH: &'static str;
}

impl Post for SentMove {
    const PATH: &'static str = "/seat/move";
}

impl Post for Secrets {
    const PATH: &'static str = "/seat/secrets";
}

impl Post for Ask {
    const PATH: &'static str = "/seat/ask";
}

impl Post for Answer {
    const PATH: &'static str = "/seat/answer";
}

/// What a seat says to its host besides reading its view (through a relay, as
/// `{"move": {...}}`, `{"secrets": {...}}`, `{"ask": {...}}` or `{"answer": {...}}`).
#[derive(Clone, Debug, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Said {
    Move(SentMove),
    Secrets(Secrets),
    Ask(Ask),
    Answer(Answer),
}

/// What the host did with what a seat said (through a relay, as the host's answer says it).
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case", deny_unknown_fields)]
pub enum Posted {
    Taken,
    /// Made for another point of the game than the host's: its next view says what now.
    Stale,
    /// The host is busy: said again shortly.
    Busy,
    /// Not taken: the status the host answers it with, and why.
    Refused {
        status: u16,
        text: String,
    },
}

/// Where a seat's requests go: a host on another machine ([`join::Client`], over HTTP or
/// HTTPS) or the host in this process ([`host::LocalSeat`], the person at the host's table).
pub trait Link: Send + Sync + 'static {
    /// The seat's view, at once or (`after`) once its version is no longer that one (within
    /// 20 s either way); `None` while the host is busy.
    fn view(&self, after: Option<u64>) -> Result<Option<SeatView>, NetError>;
    /// Says something to the host.
    fn say(&self, said: &Said) -> Result<Posted, NetError>;
}

/// The host's answer to a seat's move: `{"seq": N}`, the moves played now.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct MoveTaken {
    pub seq: u64,
}

/// The host's answer to a team's secret squares: `{"secrets": "chosen"}`.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct SecretsTaken {
    pub secrets: Chosen,
}

/// The secret squares are chosen.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Chosen {
    Chosen,
}

/// The host's answer to a question: `{"asked": "undo"}`.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct QuestionTaken {
    pub asked: Question,
}

/// The host's answer to an answer: `{"answered": "undo", "yes": true}`.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Answered {
    pub answered: Question,
    pub yes: bool,
}

/// What hosting or joining fails at.
#[derive(Debug, thiserror::Error)]
pub enum NetError {
    #[error("'{}' is not an invitation (like http://127.0.0.1:7979/join#seat=first&token=…, https://…&token=…&cert=… from a host other machines reach, or nats://RELAY:PORT/GAME#seat=…&token=… through a relay)", crate::rules::quote(.0))]
    Invitation(String),
    #[error(
        "the host at {addr} shows another certificate than its invitation's: refused (a host started anew makes a new one; ask for a new invitation)"
    )]
    OtherCertificate { addr: String },
    #[error("the host's certificate cannot be made or read: {0}")]
    Certificate(String),
    #[error("'{}' is not a seat of {variant} (first, second, {}, {})", crate::rules::quote(.name), .variant.side_name(Side::First), .variant.side_name(Side::Second))]
    Seat { name: String, variant: Variant },
    #[error("'{}' is not who sits there (remote, person, ai:<level>, random, ai:baseline, ai:uct)", crate::rules::quote(.0))]
    Sitter(String),
    #[error("the {0} seat is given twice")]
    Twice(String),
    #[error("seat {seat}: the {team} team has {size} member(s) in this game")]
    NoMember { seat: String, team: String, size: u8 },
    #[error("--timer {0}: the sand-glass runs 5, 10, 15 or 30 s, and only in CTOR")]
    Timer(u8),
    #[error("--secrets: secret squares are CTOR's")]
    SecretsNotCtor,
    #[error("the live feed cannot start: {0}")]
    Feed(String),
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
    #[error("'{}' is not a relay's address (nats://HOST:PORT, or tls://HOST:PORT for one that speaks TLS)", crate::rules::quote(.0))]
    Relay(String),
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
    /// The member of a CTOR team (from 0; 0 outside team games).
    pub member: u8,
    pub token: String,
    /// Over HTTPS: the SHA-256 of the host's certificate, the only one the seat accepts.
    pub cert: Option<tls::Fingerprint>,
    /// Through a relay: the relay and the game's name there (`addr` is then the relay's
    /// address without its password).
    pub relay: Option<relay::Place>,
    /// Whether the seat is named as a team's member (`first.1`).
    pub team: bool,
}

impl Invitation {
    /// `http://ADDR/join#seat=…&token=…`, or over HTTPS `https://…&cert=<SHA-256>`.
    pub fn link(
        addr: &std::net::SocketAddr,
        seat: SeatId,
        team: bool,
        token: &Token,
        cert: Option<&tls::Fingerprint>,
    ) -> String {
        let (scheme, pin) = match cert {
            Some(c) => ("https", format!("&cert={}", c.hex())),
            None => ("http", String::new()),
        };
        format!("{scheme}://{addr}/join#seat={}&token={}{pin}", seat.name(team), token.hex())
    }

    /// `nats://RELAY/GAME#seat=…&token=…` (or `tls://…`).
    pub fn relay_link(place: &relay::Place, seat: SeatId, team: bool, token: &Token) -> String {
        format!("{}/{}#seat={}&token={}", place.relay, place.game, seat.name(team), token.hex())
    }

    /// Where the seat's requests go: the host's address, or the relay.
    pub fn connect(&self) -> Result<std::sync::Arc<dyn Link>, NetError> {
        Ok(match &self.relay {
            Some(place) => {
                let token = Token::from_hex(&self.token).ok_or_else(|| NetError::Invitation(self.token.clone()))?;
                std::sync::Arc::new(relay::RelayLink::new(place, &self.seat_id().name(self.team), &token)?)
            }
            None => std::sync::Arc::new(join::Client::new(self)?),
        })
    }

    pub fn seat_id(&self) -> SeatId {
        SeatId::new(self.seat, self.member)
    }

    pub fn parse(text: &str) -> Result<Invitation, NetError> {
        let bad = || NetError::Invitation(text.to_string());
        let text_ = text.trim();
        let tls = text_.starts_with("https://");
        // Through a relay, `nats://RELAY/GAME#…`; else a host's own address, `http://ADDR/join#…`.
        let (addr, relay, rest) = if text_.starts_with("nats://") || text_.starts_with("tls://") {
            let (place, rest) = text_.split_once('#').ok_or_else(bad)?;
            let place = relay::Place::parse(place).ok_or_else(bad)?;
            (relay::shown(&place.relay), Some(place), rest)
        } else {
            let rest = text_.strip_prefix("https://").or_else(|| text_.strip_prefix("http://")).ok_or_else(bad)?;
            let (addr, rest) = rest.split_once("/join#").ok_or_else(bad)?;
            if addr.is_empty() || addr.contains('/') || !addr.contains(':') {
                return Err(bad());
            }
            (addr.to_string(), None, rest)
        };
        let (mut seat, mut token, mut cert, mut team) = (None, None, None, false);
        for part in rest.split('&') {
            match part.split_once('=') {
                Some(("seat", s)) if SeatId::parse(s).is_some() => {
                    seat = SeatId::parse(s);
                    team = s.contains('.');
                }
                Some(("token", t)) if Token::from_hex(t).is_some() => token = Some(t.to_string()),
                Some(("cert", c)) if tls && tls::Fingerprint::from_hex(c).is_some() => {
                    cert = tls::Fingerprint::from_hex(c)
                }
                _ => return Err(bad()),
            }
        }
        // An https link pins its certificate; a plain one (or a relay's) has none to pin.
        if tls != cert.is_some() {
            return Err(bad());
        }
        let seat = seat.ok_or_else(bad)?;
        Ok(Invitation { addr, seat: seat.side, member: seat.member, token: token.ok_or_else(bad)?, cert, relay, team })
    }
}
