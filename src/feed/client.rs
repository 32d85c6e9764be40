//! A spectator's connection to a feed (`tablero watch <url>`): reads `/state`, then follows
//! `/events` from the next event on; when the feed drops it says so, waits (0.25 s, doubling
//! to 8 s), reads `/state` again and follows on from there. Runs in a thread of its own (hyper
//! on a small tokio runtime) and hands what it hears to the caller through a channel.

use super::FeedError;
use super::wire::{Event, State, What};
use http_body_util::{BodyExt, Full};
use hyper::body::Bytes;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc;
use std::time::Duration;

/// What the spectator hears.
#[derive(Clone, Debug, PartialEq)]
pub enum Heard {
    /// The whole picture (`/state`): on joining, and again after every reconnection.
    State(Box<State>),
    /// One event after the state, in order, none missed.
    Event(Box<Event>),
    /// The feed dropped or could not be reached: why, and the seconds until the next try.
    Lost { why: String, retry_in: f32 },
}

/// Silence after which a feed counts as dropped (it sends a keep-alive every 5 s).
pub const SILENCE: Duration = Duration::from_secs(15);

/// A connection to a feed; dropping it stops the thread.
pub struct Watcher {
    pub heard: mpsc::Receiver<Heard>,
    stop: Arc<AtomicBool>,
    resync: Arc<AtomicBool>,
    wake: Wake,
}

type Wake = Arc<std::sync::Mutex<Option<Box<dyn Fn() + Send>>>>;

impl Watcher {
    /// Calls `wake` after each thing heard from now on (a window asleep until input is woken
    /// by it).
    pub fn on_heard(&self, wake: impl Fn() + Send + 'static) {
        *self.wake.lock().unwrap_or_else(|e| e.into_inner()) = Some(Box::new(wake));
    }

    /// Reads the state again (and follows on from it): for a spectator whose copy of the game
    /// no longer matches the events.
    pub fn resync(&self) {
        self.resync.store(true, Ordering::Relaxed);
    }
}

/// How a connection ended.
enum End {
    /// Stopped, or nobody listens any more.
    Stopped,
    /// The spectator asked to read the state again.
    Resync,
    Lost(String),
}

impl From<String> for End {
    fn from(why: String) -> End {
        End::Lost(why)
    }
}

impl From<&str> for End {
    fn from(why: &str) -> End {
        End::Lost(why.to_string())
    }
}

impl Drop for Watcher {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::Relaxed);
    }
}

/// Reads a feed's address: `http://host:port`, with or without the scheme, a trailing `/`,
/// or a page of it (`/overlay`, `/state`): the feed's root is what is kept. A host's feed over
/// HTTPS is `https://host:port#cert=<SHA-256>`, as the host prints it: the certificate pinned.
pub fn base_url(text: &str) -> Result<String, FeedError> {
    let t = text.trim();
    // A game through a relay: `nats://HOST:PORT/GAME`.
    if t.starts_with("nats://") || t.starts_with("tls://") {
        return crate::nats::Place::parse(t).map(|p| p.watch_link()).ok_or_else(|| FeedError::Url(text.to_string()));
    }
    let (tls, rest) = match t.strip_prefix("https://") {
        Some(rest) => (true, rest),
        None => (false, t.strip_prefix("http://").unwrap_or(t)),
    };
    let (rest, fragment) = rest.split_once('#').unwrap_or((rest, ""));
    let pin = match (tls, fragment.strip_prefix("cert=").and_then(crate::tls::Fingerprint::from_hex)) {
        (true, Some(pin)) => Some(pin),
        (true, None) => return Err(FeedError::Https),
        (false, _) if !fragment.is_empty() => return Err(FeedError::Url(text.to_string())),
        (false, _) => None,
    };
    let host = rest.split('/').next().unwrap_or("");
    let uri: Result<hyper::Uri, _> = format!("http://{host}/").parse();
    match uri {
        Ok(u) if u.host().is_some_and(|h| !h.is_empty()) && u.port_u16().is_some() => Ok(match pin {
            Some(pin) => format!("https://{host}#cert={}", pin.hex()),
            None => format!("http://{host}"),
        }),
        _ => Err(FeedError::Url(text.to_string())),
    }
}

/// Where a base address (from [`base_url`]) connects.
fn target(base: &str) -> crate::link::Target {
    let (tls, rest) = match base.strip_prefix("https://") {
        Some(rest) => (true, rest),
        None => (false, base.strip_prefix("http://").unwrap_or(base)),
    };
    let (addr, fragment) = rest.split_once('#').unwrap_or((rest, ""));
    let pin = fragment.strip_prefix("cert=").and_then(crate::tls::Fingerprint::from_hex).filter(|_| tls);
    crate::link::Target { addr: addr.to_string(), pin }
}

/// Starts following the feed at `base` (see [`base_url`]).
pub fn watch(base: &str) -> Result<Watcher, FeedError> {
    let base = base_url(base)?;
    let (tx, heard) = mpsc::channel();
    let stop = Arc::new(AtomicBool::new(false));
    let stopping = stop.clone();
    let resync = Arc::new(AtomicBool::new(false));
    let resyncing = resync.clone();
    let wake: Wake = Arc::new(std::sync::Mutex::new(None));
    let waking = wake.clone();
    let wake_now = move || {
        if let Some(f) = &*waking.lock().unwrap_or_else(|e| e.into_inner()) {
            f();
        }
    };
    let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build().map_err(FeedError::Spectator)?;
    let relayed = crate::nats::Place::parse(&base);
    std::thread::Builder::new()
        .name("tablero-watch".into())
        .spawn(move || match relayed {
            Some(place) => runtime.block_on(follow_relay(place, tx, stopping, resyncing, wake_now)),
            None => runtime.block_on(follow(base, tx, stopping, resyncing, wake_now)),
        })
        .map_err(FeedError::Spectator)?;
    Ok(Watcher { heard, stop, resync, wake })
}

async fn follow(
    base: String,
    tx: mpsc::Sender<Heard>,
    stop: Arc<AtomicBool>,
    resync: Arc<AtomicBool>,
    wake: impl Fn(),
) {
    let target = target(&base);
    let mut backoff = crate::retry::Backoff::default();
    while !stop.load(Ordering::Relaxed) {
        resync.store(false, Ordering::Relaxed);
        let end = connection(&target, &tx, &stop, &resync, &wake, &mut backoff).await;
        if !after_end(end, &tx, &stop, &wake, &mut backoff).await {
            return;
        }
    }
}

/// After a connection ended: whether to connect again (a lost one is said, then waited on).
async fn after_end(
    end: Result<End, End>,
    tx: &mpsc::Sender<Heard>,
    stop: &AtomicBool,
    wake: &impl Fn(),
    backoff: &mut crate::retry::Backoff,
) -> bool {
    let why = match end.unwrap_or_else(|e| e) {
        End::Stopped => return false,
        End::Resync => return true,
        End::Lost(why) => why,
    };
    if tx.send(Heard::Lost { why, retry_in: backoff.pause().as_secs_f32() }).is_err() {
        return false;
    }
    wake();
    // Sleep in small steps so that a stop is quick.
    let until = tokio::time::Instant::now() + backoff.failed();
    while tokio::time::Instant::now() < until {
        if stop.load(Ordering::Relaxed) {
            return false;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    true
}

/// Follows a game through a relay: its feed's subject, after the state its host answers.
async fn follow_relay(
    place: crate::nats::Place,
    tx: mpsc::Sender<Heard>,
    stop: Arc<AtomicBool>,
    resync: Arc<AtomicBool>,
    wake: impl Fn(),
) {
    let mut backoff = crate::retry::Backoff::default();
    let client = match crate::nats::connect(&place.relay, "tablero spectator", true).await {
        Ok(c) => c,
        Err(why) => {
            let _ = tx.send(Heard::Lost { why, retry_in: 0.0 });
            wake();
            return;
        }
    };
    while !stop.load(Ordering::Relaxed) {
        resync.store(false, Ordering::Relaxed);
        let end = relay_connection(&client, &place, &tx, &stop, &resync, &wake, &mut backoff).await;
        if !after_end(end, &tx, &stop, &wake, &mut backoff).await {
            return;
        }
    }
}

/// One following through the relay: subscribed to the feed's subject first, then the state
/// asked of the host, then the events after it, until the relay drops, the spectator asks for
/// the state again, or we stop.
async fn relay_connection(
    client: &async_nats::Client,
    place: &crate::nats::Place,
    tx: &mpsc::Sender<Heard>,
    stop: &AtomicBool,
    resync: &AtomicBool,
    wake: &impl Fn(),
    backoff: &mut crate::retry::Backoff,
) -> Result<End, End> {
    use futures_util::StreamExt;
    let connected = std::time::Instant::now() + Duration::from_secs(3);
    if !crate::nats::until_connected(client, connected).await {
        return Err("the relay cannot be reached".into());
    }
    // Where the relay keeps the game's stream, the game from its snapshot on, without asking
    // the host (which may be away).
    let js = async_nats::jetstream::new(client.clone());
    let stream = tokio::time::timeout(SILENCE, js.get_stream(crate::nats::stream_name(&place.game))).await;
    if let Ok(Ok(stream)) = stream {
        return stream_connection(stream, tx, stop, resync, wake, backoff).await;
    }
    let mut events = client
        .subscribe(crate::nats::feed_subject(&place.game))
        .await
        .map_err(|e| format!("the relay refused the feed's subject ({e})"))?;
    let answer = tokio::time::timeout(SILENCE, client.request(crate::nats::state_subject(&place.game), Bytes::new()))
        .await
        .map_err(|_| End::from("the game's host did not answer through the relay"))?
        .map_err(|e| match e.kind() {
            async_nats::RequestErrorKind::NoResponders => End::from("the game's host is not on the relay"),
            _ => End::Lost(format!("the relay: {e}")),
        })?;
    let state: State =
        serde_json::from_slice(&answer.payload).map_err(|e| format!("the host's state is not a feed's state ({e})"))?;
    let mut seq = state.seq;
    if tx.send(Heard::State(Box::new(state))).is_err() {
        return Ok(End::Stopped);
    }
    wake();
    backoff.worked();
    loop {
        if stop.load(Ordering::Relaxed) {
            return Ok(End::Stopped);
        }
        if resync.load(Ordering::Relaxed) {
            return Ok(End::Resync);
        }
        if client.connection_state() != async_nats::connection::State::Connected {
            // Events may be lost while it is away: the state is read again once it is back.
            return Err("the relay dropped".into());
        }
        let m = match tokio::time::timeout(Duration::from_millis(250), events.next()).await {
            Err(_) => continue,
            Ok(None) => return Err("the relay ended the feed's subscription".into()),
            Ok(Some(m)) => m,
        };
        let parsed: Event = serde_json::from_slice(&m.payload)
            .map_err(|e| End::Lost(format!("an event is not a feed's event ({e})")))?;
        if let Some(end) = pass_on(parsed, &mut seq, true, tx, wake) {
            return Ok(end);
        }
    }
}

/// Hands the event after event `seq` on (with `held`, one the spectator holds already is
/// skipped): a gap, or the feed's `resync`, ends the connection to read the state again.
fn pass_on(parsed: Event, seq: &mut u64, held: bool, tx: &mpsc::Sender<Heard>, wake: &impl Fn()) -> Option<End> {
    let resync = matches!(parsed.what, What::Resync(_));
    if held && parsed.seq <= *seq && !resync {
        return None;
    }
    if resync || parsed.seq != *seq + 1 {
        return Some(End::Resync);
    }
    *seq = parsed.seq;
    if tx.send(Heard::Event(Box::new(parsed))).is_err() {
        return Some(End::Stopped);
    }
    wake();
    None
}

/// One connection: the state, then events until the feed drops, the spectator asks for the
/// state again, or we stop (each an [`End`]; `?` on a failure ends it as lost).
async fn connection(
    target: &crate::link::Target,
    tx: &mpsc::Sender<Heard>,
    stop: &AtomicBool,
    resync: &AtomicBool,
    wake: &impl Fn(),
    backoff: &mut crate::retry::Backoff,
) -> Result<End, End> {
    let get = |path: String| async move {
        let request = crate::link::builder(target, "GET", &path)
            .body(Full::new(Bytes::new()))
            .map_err(|e| crate::link::LinkError::Unreachable(e.to_string()))?;
        crate::link::send(target, request).await
    };
    let state = tokio::time::timeout(SILENCE, async {
        let r = get("/state".into()).await.map_err(|e| format!("the feed cannot be reached ({e})"))?;
        if !r.status().is_success() {
            return Err(format!("the feed answered {} to /state", r.status()));
        }
        let body = r.into_body().collect().await.map_err(|e| format!("the feed dropped ({e})"))?.to_bytes();
        serde_json::from_slice::<State>(&body).map_err(|e| format!("the feed's state is not a feed's state ({e})"))
    })
    .await
    .map_err(|_| End::from("the feed did not answer"))?
    .map_err(End::Lost)?;
    let mut seq = state.seq;
    let response = tokio::time::timeout(SILENCE, get(format!("/events?from={}", seq + 1)))
        .await
        .map_err(|_| End::from("the feed did not answer"))?
        .map_err(|e| End::Lost(format!("the feed cannot be reached ({e})")))?;
    if !response.status().is_success() {
        return Err(format!("the feed answered {} to /events", response.status()).into());
    }
    if tx.send(Heard::State(Box::new(state))).is_err() {
        return Ok(End::Stopped);
    }
    wake();
    backoff.worked();
    // The events (Server-Sent Events, read by eventsource-stream); any bytes at all, the
    // feed's keep-alive comments too, count as the feed heard from.
    use eventsource_stream::Eventsource;
    use futures_util::StreamExt;
    let began = std::time::Instant::now();
    let last_heard = Arc::new(std::sync::atomic::AtomicU64::new(0));
    let heard = last_heard.clone();
    let mut events = response
        .into_body()
        .into_data_stream()
        .inspect(move |_| heard.store(began.elapsed().as_millis() as u64, Ordering::Relaxed))
        .eventsource();
    loop {
        if stop.load(Ordering::Relaxed) {
            return Ok(End::Stopped);
        }
        if resync.load(Ordering::Relaxed) {
            return Ok(End::Resync);
        }
        let silent_ms = (began.elapsed().as_millis() as u64).saturating_sub(last_heard.load(Ordering::Relaxed));
        let event = match tokio::time::timeout(Duration::from_millis(250), events.next()).await {
            Err(_) if silent_ms > SILENCE.as_millis() as u64 => {
                // Keep-alives come every 5 s: long silence is a drop.
                return Err(format!("the feed went silent for {} s", SILENCE.as_secs()).into());
            }
            Err(_) => continue,
            Ok(None) => return Err("the feed closed the connection".into()),
            Ok(Some(Err(e))) => return Err(format!("the feed dropped ({e})").into()),
            Ok(Some(Ok(event))) => event,
        };
        if event.data.is_empty() {
            continue;
        }
        let parsed: Event = serde_json::from_str(&event.data)
            .map_err(|e| End::Lost(format!("an event is not a feed's event ({e})")))?;
        if let Some(end) = pass_on(parsed, &mut seq, false, tx, wake) {
            return Ok(end);
        }
    }
}

/// Following the game's stream on the relay from its start: the first snapshot (a `new_game`
/// event) is the state, the events after it follow on; a gap or a stream lost ends it.
async fn stream_connection(
    stream: async_nats::jetstream::stream::Stream,
    tx: &mpsc::Sender<Heard>,
    stop: &AtomicBool,
    resync: &AtomicBool,
    wake: &impl Fn(),
    backoff: &mut crate::retry::Backoff,
) -> Result<End, End> {
    use async_nats::jetstream::consumer::{DeliverPolicy, pull::OrderedConfig};
    use futures_util::StreamExt;
    let config = OrderedConfig { deliver_policy: DeliverPolicy::All, ..Default::default() };
    let consumer = stream.create_consumer(config).await.map_err(|e| format!("the relay's stream: {e}"))?;
    let mut messages = consumer.messages().await.map_err(|e| format!("the relay's stream: {e}"))?;
    let mut seq: Option<u64> = None;
    loop {
        if stop.load(Ordering::Relaxed) {
            return Ok(End::Stopped);
        }
        if resync.load(Ordering::Relaxed) {
            return Ok(End::Resync);
        }
        let m = match tokio::time::timeout(Duration::from_millis(250), messages.next()).await {
            Err(_) => continue,
            Ok(None) => return Err("the relay's stream ended".into()),
            Ok(Some(Err(e))) => return Err(format!("the relay's stream: {e}").into()),
            Ok(Some(Ok(m))) => m,
        };
        let parsed: Event = serde_json::from_slice(&m.payload)
            .map_err(|e| End::Lost(format!("an event is not a feed's event ({e})")))?;
        // The first snapshot (before it there is nothing to lay out), or one numbered below the
        // last event (the host started again and its feed numbers afresh): the game is laid out
        // from it.
        if seq.is_none_or(|last| parsed.seq < last)
            && let What::NewGame(new) = parsed.what
        {
            seq = Some(parsed.seq);
            if tx.send(Heard::State(new.state)).is_err() {
                return Ok(End::Stopped);
            }
            wake();
            backoff.worked();
            continue;
        }
        let Some(last) = seq else { continue };
        // Events the state already holds, and the host's snapshots of what it holds, skipped.
        let mut next = last;
        let end = pass_on(parsed, &mut next, true, tx, wake);
        seq = Some(next);
        if let Some(end) = end {
            return Ok(end);
        }
    }
}
