//! Games through a relay: a NATS server that the host and every seat connect out to, so that
//! nobody needs to reach anybody's port (a friend behind another router, a club's many tables).
//! The same seats' logic as the direct host's answers each message (one protocol, two
//! transports): a message here is a request of the direct host's, sealed.
//!
//! In a few lines:
//!
//! - An invitation is `nats://RELAY:PORT/GAME#seat=SEAT&token=TOKEN` (`tls://…` for a relay
//!   that speaks TLS; a relay's user and password go before its address, `nats://u:p@…`). GAME
//!   is the game's name on the relay (64 random bits, hex), kept beside the record so that a
//!   host started again with the same record is found at the same place.
//! - A seat sends each request to the subject `tablero.GAME.seats` and waits for the host's
//!   answer on its own inbox. A request is an [`Envelope`]: the seat's name, a sequence number,
//!   the host's session, a nonce and the request itself sealed with ChaCha20-Poly1305 under a
//!   key drawn (HKDF-SHA256) from the seat's token and the game; the game, the seat, the
//!   session and the sequence number are the sealed text's associated data, so the seal's tag
//!   proves all of them. The answer is sealed under the other direction's key, bound to the
//!   request it answers. Nothing of a seat's (its view, its team's secret squares, a member's
//!   blind Puts, the token itself) travels in the open.
//! - The host takes each sequence number of a seat once (a window of the last
//!   [`WINDOW`] numbers): a seat that heard no answer sends the same message again and gets
//!   the same answer, without the host doing it twice; a message heard before and no longer
//!   answered is refused. A host started again has a new session: a seat's message for the
//!   old one is answered with the new session only, and the seat says it again for the new one.
//! - The feed's public events go to `tablero.GAME.feed`, and `tablero.GAME.state` answers the
//!   feed's whole picture: only what the direct host's live feed carries.

use super::{NetError, Posted, Said, SeatView};
pub use crate::nats::{Place, feed_subject, is_game, new_game, seats_subject, shown, state_subject};
use crate::nats::{until_connected, until_lost};
use ring::aead::{Aad, CHACHA20_POLY1305, LessSafeKey, NONCE_LEN, Nonce, UnboundKey};
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

/// How many of a seat's latest sequence numbers the host remembers.
pub const WINDOW: u64 = 128;
/// The most bytes a seat's message may have on the relay (its request is at most 1 KiB, as
/// the direct host's; sealed and in hex it is about twice that).
pub const MAX_MESSAGE: usize = 3 * 1024;
/// How long the host waits before it answers a view waited on through the relay (shorter than
/// the direct host's: a seat whose host went away knows it sooner), and how long a seat waits
/// for that answer.
pub const RELAY_WAIT: Duration = Duration::from_secs(10);
const VIEW_TIME: Duration = Duration::from_secs(13);
const SAY_TIME: Duration = Duration::from_secs(3);
/// How long a seat says the same thing again before it gives up (the relay restarted meanwhile).
const SAY_FOR: Duration = Duration::from_secs(30);

/// `nats://HOST:PORT` or `tls://HOST:PORT` (see [`crate::nats::relay_address`]).
pub fn relay_address(text: &str) -> Result<String, NetError> {
    crate::nats::relay_address(text).map_err(NetError::Relay)
}

/// A client of the relay (see [`crate::nats::connect`]).
pub async fn connect(relay: &str, name: &str, background: bool) -> Result<async_nats::Client, NetError> {
    crate::nats::connect(relay, name, background).await.map_err(|why| NetError::Unreachable { addr: shown(relay), why })
}

/// A message on the relay, from a seat or (without `seat` and `session`) the host's answer.
#[derive(Clone, Debug, serde::Serialize, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Envelope {
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub seat: String,
    pub seq: u64,
    #[serde(default)]
    pub session: u64,
    /// 12 bytes, hex.
    pub nonce: String,
    /// The sealed text and its tag, hex.
    pub sealed: String,
}

/// What a seat asks the host (sealed in an [`Envelope`]): its view, or what it says, written
/// as the seats' logic takes it.
#[derive(Clone, Debug, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Request {
    /// The seat's view, at once or once its version is no longer `after`.
    View { after: Option<u64> },
    #[serde(untagged)]
    Said(Said),
}

/// The host's answer (sealed).
#[derive(Clone, Debug, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case", deny_unknown_fields)]
pub enum Reply {
    View(Box<SeatView>),
    /// What the host did with what the seat said (busy: a view is asked again shortly).
    Posted(super::Posted),
    /// The host's session is this one: say it again for it.
    Session(u64),
    /// A sequence number the host no longer answers: say it again with a new one.
    Old,
}

/// Which way a message goes: each way has its own key.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Way {
    ToHost,
    ToSeat,
}

/// A seat's two keys, drawn from its token and the game.
pub struct Keys {
    to_host: LessSafeKey,
    to_seat: LessSafeKey,
    game: String,
    seat: String,
}

impl Keys {
    pub fn new(token: &super::Token, game: &str, seat: &str) -> Keys {
        let prk = ring::hkdf::Salt::new(ring::hkdf::HKDF_SHA256, game.as_bytes()).extract(&token.0);
        let key = |info: &'static [u8]| {
            let info = [info];
            let okm = prk.expand(&info, &CHACHA20_POLY1305).expect("a ChaCha20 key is within HKDF's length");
            LessSafeKey::new(UnboundKey::from(okm))
        };
        Keys {
            to_host: key(b"tablero relay: seat to host"),
            to_seat: key(b"tablero relay: host to seat"),
            game: game.to_string(),
            seat: seat.to_string(),
        }
    }

    fn key(&self, way: Way) -> &LessSafeKey {
        match way {
            Way::ToHost => &self.to_host,
            Way::ToSeat => &self.to_seat,
        }
    }

    /// What the seal proves besides the text: the game, the seat, the way, the host's session
    /// and the request's sequence number.
    fn aad(&self, way: Way, session: u64, seq: u64) -> Vec<u8> {
        let way = if way == Way::ToHost { "to-host" } else { "to-seat" };
        format!("tablero-relay/1 {} {} {way} {session} {seq}", self.game, self.seat).into_bytes()
    }

    /// `text` sealed for `way`, with a fresh random nonce.
    pub fn seal(&self, way: Way, session: u64, seq: u64, text: &[u8]) -> Envelope {
        let mut nonce = [0u8; NONCE_LEN];
        // The system's random source; a 96-bit nonce drawn at random never repeats in practice.
        if getrandom::fill(&mut nonce).is_err() {
            let now = crate::record::now_ms().to_le_bytes();
            nonce[..8].copy_from_slice(&now);
            nonce[8..].copy_from_slice(&(seq as u32).to_le_bytes());
        }
        let mut buf = text.to_vec();
        self.key(way)
            .seal_in_place_append_tag(
                Nonce::assume_unique_for_key(nonce),
                Aad::from(self.aad(way, session, seq)),
                &mut buf,
            )
            .expect("a message this short can be sealed");
        let seat = if way == Way::ToHost { self.seat.clone() } else { String::new() };
        Envelope { seat, seq, session, nonce: crate::hex::encode(&nonce), sealed: crate::hex::encode(&buf) }
    }

    /// The text of `e`, sealed for `way` under `session`; none if the seal does not hold.
    pub fn open(&self, way: Way, session: u64, e: &Envelope) -> Option<Vec<u8>> {
        let nonce = crate::hex::decode::<NONCE_LEN>(&e.nonce)?;
        let mut buf = crate::hex::decode_all(&e.sealed)?;
        let text = self
            .key(way)
            .open_in_place(Nonce::assume_unique_for_key(nonce), Aad::from(self.aad(way, session, e.seq)), &mut buf)
            .ok()?;
        Some(text.to_vec())
    }
}

/// The sequence numbers of a seat the host has taken, within the last [`WINDOW`].
#[derive(Clone, Copy, Debug, Default)]
pub struct Window {
    top: u64,
    /// Bit `i`: `top - i` was taken.
    seen: u128,
}

/// What the host does with a sequence number.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Fresh {
    /// Not heard before: taken now.
    New,
    /// Heard before: answered again if the answer is kept, never done again.
    Repeat,
    /// Below the window: refused.
    Old,
}

impl Window {
    pub fn take(&mut self, seq: u64) -> Fresh {
        if self.top == 0 && self.seen == 0 {
            self.top = seq;
            self.seen = 1;
            return Fresh::New;
        }
        if seq > self.top {
            let shift = seq - self.top;
            self.seen = if shift >= u128::BITS as u64 { 0 } else { self.seen << shift };
            self.seen |= 1;
            self.top = seq;
            return Fresh::New;
        }
        let back = self.top - seq;
        if back >= WINDOW {
            return Fresh::Old;
        }
        if self.seen & (1u128 << back) != 0 {
            return Fresh::Repeat;
        }
        self.seen |= 1u128 << back;
        Fresh::New
    }
}

/// A seat's link to its host through the relay: requests sealed with the seat's keys, each
/// answered on the seat's inbox. Blocking, like the direct seat's [`super::join::Client`].
pub struct RelayLink {
    place: Place,
    keys: Keys,
    runtime: tokio::runtime::Runtime,
    client: async_nats::Client,
    seq: AtomicU64,
    session: AtomicU64,
}

impl RelayLink {
    /// Connects to the relay (in the background: a relay out of reach now is reached when it
    /// is back, and a request meanwhile finds the host unreachable).
    pub fn new(place: &Place, seat: &str, token: &super::Token) -> Result<RelayLink, NetError> {
        let runtime = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(1)
            .thread_name("tablero-seat-relay")
            .enable_all()
            .build()?;
        let client = runtime.block_on(connect(&place.relay, "tablero seat", true))?;
        // Sequence numbers from the clock's microseconds: a seat started again goes on above
        // the numbers it used before.
        let start =
            std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(1, |d| d.as_micros() as u64);
        Ok(RelayLink {
            keys: Keys::new(token, &place.game, seat),
            place: place.clone(),
            runtime,
            client,
            seq: AtomicU64::new(start),
            session: AtomicU64::new(0),
        })
    }

    fn unreachable(&self, why: impl Into<String>) -> NetError {
        NetError::Unreachable { addr: shown(&self.place.relay), why: why.into() }
    }

    /// One request, said again (the same message) while no answer comes within `each`, for
    /// `total` at most; a new session or a number no longer answered starts it over.
    fn ask(&self, request: &Request, each: Duration, total: Duration) -> Result<Reply, NetError> {
        let repeat = total > each;
        let text = serde_json::to_vec(request).map_err(|e| NetError::Garbled(e.to_string()))?;
        let subject = seats_subject(&self.place.game);
        for _ in 0..3 {
            let session = self.session.load(Ordering::Relaxed);
            let seq = self.seq.fetch_add(1, Ordering::Relaxed);
            let sealed = self.keys.seal(Way::ToHost, session, seq, &text);
            let bytes: hyper::body::Bytes =
                serde_json::to_vec(&sealed).map_err(|e| NetError::Garbled(e.to_string()))?.into();
            let until = std::time::Instant::now() + total;
            let answer = loop {
                use async_nats::RequestErrorKind as K;
                // Not connected (yet, or the relay is away): a moment for it, then said so.
                let wait = std::time::Instant::now() + each.min(Duration::from_secs(3));
                if !self.runtime.block_on(until_connected(&self.client, wait.min(until))) {
                    return Err(self.unreachable("the relay cannot be reached"));
                }
                let asked = self.runtime.block_on(async {
                    let request = tokio::time::timeout(each, self.client.request(subject.clone(), bytes.clone()));
                    tokio::select! {
                        r = request => Some(r),
                        _ = until_lost(&self.client) => None,
                    }
                });
                match asked {
                    Some(Ok(Ok(m))) => break m,
                    // The relay went away: a view is asked afresh once it is back; what the
                    // seat says is said again (the same message) once it is back.
                    None if !repeat => return Err(self.unreachable("the connection to the relay was lost")),
                    None if !self.runtime.block_on(until_connected(&self.client, until)) => {
                        return Err(self.unreachable("the relay is away"));
                    }
                    None => {}
                    Some(Ok(Err(e))) if e.kind() == K::NoResponders => {
                        return Err(self.unreachable("the host is not on the relay"));
                    }
                    Some(Ok(Err(e))) if e.kind() != K::TimedOut => return Err(self.unreachable(e.to_string())),
                    _ if !repeat || std::time::Instant::now() >= until => {
                        return Err(self.unreachable("no answer through the relay in time"));
                    }
                    // No answer yet (the host was away): the same message again.
                    _ => {}
                }
            };
            let e: Envelope = serde_json::from_slice(&answer.payload)
                .map_err(|e| NetError::Garbled(format!("the relay's answer: {e}")))?;
            if e.seq != seq {
                return Err(NetError::Garbled("an answer to another request".into()));
            }
            let text = self
                .keys
                .open(Way::ToSeat, session, &e)
                .ok_or_else(|| NetError::Garbled("an answer not sealed by the host".into()))?;
            match serde_json::from_slice::<Reply>(&text).map_err(|e| NetError::Garbled(e.to_string()))? {
                Reply::Session(s) => self.session.store(s, Ordering::Relaxed),
                Reply::Old => {}
                reply => return Ok(reply),
            }
        }
        Err(self.unreachable("the host started over again and again"))
    }
}

impl super::Link for RelayLink {
    fn view(&self, after: Option<u64>) -> Result<Option<SeatView>, NetError> {
        match self.ask(&Request::View { after }, VIEW_TIME, VIEW_TIME)? {
            Reply::View(v) => Ok(Some(*v)),
            Reply::Posted(Posted::Busy) => Ok(None),
            Reply::Posted(Posted::Refused { status, text }) => Err(NetError::Refused { status, text }),
            other => Err(NetError::Garbled(format!("{other:?} for a view"))),
        }
    }

    fn say(&self, said: &Said) -> Result<Posted, NetError> {
        Ok(match self.ask(&Request::Said(said.clone()), SAY_TIME, SAY_FOR)? {
            Reply::Posted(posted) => posted,
            other => return Err(NetError::Garbled(format!("{other:?} for what the seat said"))),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_sealed_message_opens_only_with_its_seat_its_way_its_session_and_its_number() {
        let token = crate::net::Token([7; 16]);
        let keys = Keys::new(&token, "00112233aabbccdd", "first");
        let e = keys.seal(Way::ToHost, 5, 42, b"{\"view\":{\"after\":null}}");
        assert_eq!(keys.open(Way::ToHost, 5, &e).as_deref(), Some(&b"{\"view\":{\"after\":null}}"[..]));
        assert!(!e.sealed.contains("view"));
        assert!(keys.open(Way::ToSeat, 5, &e).is_none(), "the other way's key");
        assert!(keys.open(Way::ToHost, 6, &e).is_none(), "another session");
        let mut other = e.clone();
        other.seq = 43;
        assert!(keys.open(Way::ToHost, 5, &other).is_none(), "another number");
        let second = Keys::new(&token, "00112233aabbccdd", "second");
        assert!(second.open(Way::ToHost, 5, &e).is_none(), "another seat");
        let elsewhere = Keys::new(&token, "00112233aabbccde", "first");
        assert!(elsewhere.open(Way::ToHost, 5, &e).is_none(), "another game");
        let wrong = Keys::new(&crate::net::Token([8; 16]), "00112233aabbccdd", "first");
        assert!(wrong.open(Way::ToHost, 5, &e).is_none(), "another token");
        let mut flipped = e.clone();
        let last = flipped.sealed.pop().unwrap();
        flipped.sealed.push(if last == '0' { '1' } else { '0' });
        assert!(keys.open(Way::ToHost, 5, &flipped).is_none(), "a changed bit");
        assert_ne!(keys.seal(Way::ToHost, 5, 42, b"x").nonce, keys.seal(Way::ToHost, 5, 42, b"x").nonce);
    }

    #[test]
    fn the_window_takes_each_number_once_and_refuses_those_below_it() {
        let mut w = Window::default();
        assert_eq!(w.take(1000), Fresh::New);
        assert_eq!(w.take(1000), Fresh::Repeat);
        assert_eq!(w.take(1002), Fresh::New);
        assert_eq!(w.take(1001), Fresh::New, "out of order, within the window");
        assert_eq!(w.take(1001), Fresh::Repeat);
        assert_eq!(w.take(1002 + WINDOW), Fresh::New);
        assert_eq!(w.take(1002), Fresh::Old);
        assert_eq!(w.take(1003), Fresh::New);
        assert_eq!(w.take(5000), Fresh::New);
        assert_eq!(w.take(1003), Fresh::Old);
    }
}
