//! The relay's ground floor, shared by the seats' protocol ([`crate::net::relay`]) and the
//! spectators' ([`crate::feed`]): a relay's address, the subjects of a game on it, and a NATS
//! client that reconnects for ever.

use std::time::Duration;

/// Where a game is on a relay: the relay's address as NATS takes it, and the game's name.
#[derive(Clone, PartialEq, Eq)]
pub struct Place {
    /// `nats://HOST:PORT` or `tls://HOST:PORT`, with a user and password if given.
    pub relay: String,
    pub game: String,
}

impl std::fmt::Debug for Place {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Place({}, {})", shown(&self.relay), self.game)
    }
}

impl Place {
    /// `nats://RELAY/GAME`: where spectators follow the game.
    pub fn watch_link(&self) -> String {
        format!("{}/{}", self.relay, self.game)
    }

    /// `nats://RELAY/GAME` (or `tls://…`), as [`Place::watch_link`] writes it.
    pub fn parse(text: &str) -> Option<Place> {
        let (relay, game) = text.trim().trim_end_matches('/').rsplit_once('/')?;
        let relay = relay_address(relay).ok()?;
        is_game(game).then(|| Place { relay, game: game.to_ascii_lowercase() })
    }
}

/// A relay's address without its password.
pub fn shown(relay: &str) -> String {
    match (relay.split_once("://"), relay.rsplit_once('@')) {
        (Some((scheme, _)), Some((_, at))) => format!("{scheme}://{at}"),
        _ => relay.to_string(),
    }
}

/// `nats://HOST:PORT` or `tls://HOST:PORT` (maybe `user:password@` before the host): checked,
/// and given back without a trailing `/`; the text given back where it is not one.
pub fn relay_address(text: &str) -> Result<String, String> {
    let bad = || text.to_string();
    let t = text.trim().trim_end_matches('/');
    let rest = t.strip_prefix("nats://").or_else(|| t.strip_prefix("tls://")).ok_or_else(bad)?;
    let hostport = rest.rsplit_once('@').map_or(rest, |(_, h)| h);
    let (host, port) = hostport.rsplit_once(':').ok_or_else(bad)?;
    if host.is_empty() || host.contains('/') || port.parse::<u16>().is_err() || rest.contains(char::is_whitespace) {
        return Err(bad());
    }
    Ok(t.to_string())
}

/// A game's new name on the relay: 64 random bits in hex.
pub fn new_game() -> std::io::Result<String> {
    let mut bytes = [0u8; 8];
    getrandom::fill(&mut bytes).map_err(|e| std::io::Error::other(e.to_string()))?;
    Ok(crate::hex::encode(&bytes))
}

/// Whether `text` is a game's name on the relay (16 hexadecimal digits).
pub fn is_game(text: &str) -> bool {
    crate::hex::decode::<8>(text).is_some()
}

pub fn seats_subject(game: &str) -> String {
    format!("tablero.{game}.seats")
}

pub fn feed_subject(game: &str) -> String {
    format!("tablero.{game}.feed")
}

pub fn state_subject(game: &str) -> String {
    format!("tablero.{game}.state")
}

/// The JetStream stream that keeps a game's public events on the relay, for spectators who come
/// late (or while its host is away): its name, and the limits its host sets.
pub fn stream_name(game: &str) -> String {
    format!("TABLERO_{}", game.to_ascii_uppercase())
}

/// A game's events are kept a day at most.
pub const STREAM_AGE: Duration = Duration::from_secs(24 * 3600);
/// And 16 MiB at most (a long CTOR 10 × 10 game's events are some hundreds of KiB).
pub const STREAM_BYTES: i64 = 16 << 20;

/// Returns once the client is not connected to the relay.
pub async fn until_lost(client: &async_nats::Client) {
    while client.connection_state() == async_nats::connection::State::Connected {
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

/// Waits until the client is connected again, or `until`: whether it is.
pub async fn until_connected(client: &async_nats::Client, until: std::time::Instant) -> bool {
    while client.connection_state() != async_nats::connection::State::Connected {
        if std::time::Instant::now() >= until {
            return false;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    true
}

/// A client of the relay at `relay`: reconnecting for ever once connected; with `background`,
/// the first connection too (else a relay out of reach is an error within 5 s, said in words).
pub async fn connect(relay: &str, name: &str, background: bool) -> Result<async_nats::Client, String> {
    let mut options = async_nats::ConnectOptions::new()
        .name(name)
        .connection_timeout(Duration::from_secs(5))
        .request_timeout(None)
        .max_reconnects(None);
    if background {
        options = options.retry_on_initial_connect();
    }
    options.connect(relay).await.map_err(|e| format!("the relay: {e}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn relay_addresses_places_and_their_passwords() {
        assert_eq!(relay_address("nats://127.0.0.1:4222/").unwrap(), "nats://127.0.0.1:4222");
        assert_eq!(relay_address("tls://relay.example:4443").unwrap(), "tls://relay.example:4443");
        assert!(relay_address("nats://u:p@relay:4222").is_ok());
        for bad in ["http://relay:4222", "nats://relay", "nats://:4222", "nats://relay:port", "relay:4222"] {
            assert!(relay_address(bad).is_err(), "{bad}");
        }
        assert_eq!(shown("nats://u:secret@relay:4222"), "nats://relay:4222");
        let p = Place::parse("nats://127.0.0.1:4222/00112233AABBCCDD").unwrap();
        assert_eq!(p.watch_link(), "nats://127.0.0.1:4222/00112233aabbccdd");
        assert!(Place::parse("nats://127.0.0.1:4222/xyz").is_none());
        assert!(Place::parse("nats://127.0.0.1:4222").is_none());
    }
}
