//! The overlay page for a streaming tool's browser source: the one page that the live feed serves
//! at `/overlay` (following `/state` and `/events` of its own address), and that `tablero overlay`
//! writes as one file following a game through a relay's WebSocket, the NATS client inside it.

use super::FeedError;
use crate::nats::Place;

/// The page: plain HTML, CSS and script, no outside resources.
pub const OVERLAY: &str = include_str!("overlay.html");

/// nats.ws 1.30.3's ES module (Apache-2.0, `assets/nats.ws/`), unchanged.
const NATS_WS: &str = include_str!("../../assets/nats.ws/nats.js");

/// What `/overlay?show=` may name, and the default.
pub const ELEMENTS: [&str; 8] = ["title", "names", "score", "clock", "last", "moves", "result", "eval"];

/// The relay's WebSocket as a page connects to it: `ws://HOST:PORT` or `wss://HOST:PORT` as
/// given, or a port alone on the relay's host (`wss://` for a relay at `tls://`).
pub fn websocket(place: &Place, given: &str) -> Result<String, FeedError> {
    let bad = || FeedError::WebSocket(given.to_string());
    let given = given.trim().trim_end_matches('/');
    if let Ok(port) = given.parse::<u16>() {
        let secure = place.relay.starts_with("tls://");
        let hostport = place.relay.split_once("://").map_or("", |(_, rest)| rest);
        let hostport = hostport.rsplit_once('@').map_or(hostport, |(_, h)| h);
        let host = hostport.rsplit_once(':').map_or(hostport, |(h, _)| h);
        return Ok(format!("{}://{host}:{port}", if secure { "wss" } else { "ws" }));
    }
    let rest = given.strip_prefix("ws://").or_else(|| given.strip_prefix("wss://")).ok_or_else(bad)?;
    let (host, port) = rest.rsplit_once(':').ok_or_else(bad)?;
    if host.is_empty() || host.contains(['/', '@', '"', '<', '>', '\\']) || rest.contains(char::is_whitespace) {
        return Err(bad());
    }
    port.parse::<u16>().map_err(|_| bad())?;
    Ok(given.to_string())
}

/// The page that follows the game at `place` through the relay's WebSocket `websocket` (from
/// [`websocket`]): the same page as the feed's, with where to follow and the NATS client in it,
/// so that a browser opens it as a local file.
pub fn through_relay(place: &Place, websocket: &str) -> String {
    let (user, pass) = place
        .relay
        .split_once("://")
        .and_then(|(_, rest)| rest.rsplit_once('@'))
        .map(|(who, _)| who.split_once(':').unwrap_or((who, "")))
        .unwrap_or_default();
    let config = serde_json::json!({
        "websocket": websocket,
        "game": place.game,
        "feed": crate::nats::feed_subject(&place.game),
        "state": crate::nats::state_subject(&place.game),
        "stream": crate::nats::stream_name(&place.game),
        "user": user,
        "pass": pass,
    });
    // Nothing in it closes the script early.
    let config = config.to_string().replace('<', "\\u003c");
    OVERLAY.replacen("<!-- the relay -->", &format!("<script>const RELAY = {config};</script>"), 1).replacen(
        "<!-- the relay's module -->",
        &format!("<script type=\"module\">\n{NATS_WS}\nglobalThis.tableroRelay(connect);\n</script>"),
        1,
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn place(relay: &str) -> Place {
        Place::parse(&format!("{relay}/00112233aabbccdd")).unwrap()
    }

    #[test]
    fn the_websocket_is_a_port_on_the_relays_host_or_a_ws_address() {
        assert_eq!(websocket(&place("nats://relay.example:4222"), "8080").unwrap(), "ws://relay.example:8080");
        assert_eq!(websocket(&place("tls://u:p@relay.example:4222"), "443").unwrap(), "wss://relay.example:443");
        assert_eq!(websocket(&place("nats://r:4222"), "wss://ws.example:8443/").unwrap(), "wss://ws.example:8443");
        for bad in ["", "http://r:80", "ws://r", "ws://:80", "ws://r:99999", "ws://a\"b:80", "ws://r:8 0", "70000"] {
            assert!(websocket(&place("nats://r:4222"), bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn the_relays_page_carries_where_to_follow_and_the_client_and_nothing_closes_its_scripts_early() {
        let page = through_relay(&place("nats://ana:s3cret@relay.example:4222"), "ws://relay.example:8080");
        assert!(page.contains(r#""websocket":"ws://relay.example:8080""#));
        assert!(page.contains(r#""feed":"tablero.00112233aabbccdd.feed""#));
        assert!(page.contains(r#""stream":"TABLERO_00112233AABBCCDD""#));
        assert!(page.contains(r#""user":"ana""#) && page.contains(r#""pass":"s3cret""#));
        assert!(page.contains("export { connect as connect }"), "the client inside");
        assert!(!page.contains("<!-- the relay"), "both places filled");
        // The scripts end where they should: as many closings as openings.
        assert_eq!(page.matches("</script>").count(), page.matches("<script").count());
        assert!(!NATS_WS.contains("</script"));
        // The feed's own page has no relay in it.
        assert!(!OVERLAY.contains("const RELAY"));
    }
}
