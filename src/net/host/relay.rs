//! The host's side of a relay (see [`crate::net::relay`]): the host connects out to the relay,
//! opens each seat's sealed message, takes each of its sequence numbers once, hands what the
//! seat says to the same seats' logic as the direct host's routes, and seals the answer back.
//! The game's public events go out on the feed's subject. What it takes from the relay is
//! bounded as the direct host bounds requests: the size of a message, a seat's requests a
//! second, the requests waited on at once.

use super::seats::{Shared, Why, refuse};
use super::{IN_FLIGHT, server};
use crate::net::relay::{self, Envelope, Fresh, Keys, Place, Reply, Request, Way, Window};
use crate::net::{NetError, Posted};
use futures_util::StreamExt;
use std::collections::VecDeque;
use std::sync::{Arc, Mutex};
use std::time::Instant;

/// The answers kept per seat, for a message said again.
const KEPT: usize = 16;

/// Each seat's last answers, by the sequence number they answered.
type Kept = Vec<VecDeque<(u64, Vec<u8>)>>;

/// What the host keeps of the relay's seats.
struct Relayed {
    shared: Arc<Shared>,
    client: async_nats::Client,
    /// Each seat's keys (none for the computer's seats).
    keys: Vec<Option<Keys>>,
    names: Vec<String>,
    /// This run of the host: a seat's message for another is answered only with this one.
    session: u64,
    windows: Mutex<Vec<Window>>,
    kept: Mutex<Kept>,
    waiting: Arc<tokio::sync::Semaphore>,
}

/// Serves the seats of `shared` on the relay until `stop`, connecting in the background
/// (reconnecting for ever; nothing here waits on the network, so a table that hosts never
/// does): the client is handed back, for whoever wants to know whether it is connected.
#[allow(clippy::type_complexity)]
pub(super) fn serve(
    shared: Arc<Shared>,
    place: &Place,
) -> Result<(tokio::sync::oneshot::Sender<()>, std::thread::JoinHandle<()>, async_nats::Client), NetError> {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .thread_name("tablero-host-relay")
        .enable_all()
        .build()?;
    let unreachable = |why: String| NetError::Unreachable { addr: relay::shown(&place.relay), why };
    let client = runtime.block_on(relay::connect(&place.relay, "tablero host", true))?;
    let seats = runtime
        .block_on(client.subscribe(relay::seats_subject(&place.game)))
        .map_err(|e| unreachable(e.to_string()))?;
    let states = runtime
        .block_on(client.subscribe(relay::state_subject(&place.game)))
        .map_err(|e| unreachable(e.to_string()))?;
    let mut session = [0u8; 8];
    getrandom::fill(&mut session).map_err(|e| std::io::Error::other(e.to_string()))?;
    let session = u64::from_le_bytes(session).max(1);
    let names: Vec<String> = shared.seats.iter().map(|s| s.id.name(shared.team)).collect();
    let keys =
        shared.seats.iter().zip(&names).map(|(s, name)| s.token.map(|t| Keys::new(&t, &place.game, name))).collect();
    let n = shared.seats.len();
    let r = Arc::new(Relayed {
        shared,
        client: client.clone(),
        keys,
        names,
        session,
        windows: Mutex::new(vec![Window::default(); n]),
        kept: Mutex::new(vec![VecDeque::new(); n]),
        waiting: Arc::new(tokio::sync::Semaphore::new(IN_FLIGHT)),
    });
    let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
    let game = place.game.clone();
    let thread = std::thread::Builder::new().name("tablero-host-relay".into()).spawn(move || {
        runtime.block_on(async move {
            let feed = tokio::spawn(forward_feed(r.clone(), game.clone()));
            let state = tokio::spawn(answer_state(r.clone(), states));
            let heard = async {
                let mut seats = seats;
                while let Some(m) = seats.next().await {
                    tokio::spawn(hear(r.clone(), m));
                }
            };
            tokio::select! {
                _ = stopped => {}
                _ = heard => {}
            }
            feed.abort();
            state.abort();
            // What was said goes out before the host closes (not waited on for a relay away).
            let _ = tokio::time::timeout(std::time::Duration::from_secs(1), r.client.flush()).await;
        });
        runtime.shutdown_background();
    })?;
    Ok((stop, thread, client))
}

/// One message on the seats' subject.
async fn hear(r: Arc<Relayed>, m: async_nats::Message) {
    let Some(reply_to) = m.reply.clone() else { return };
    if m.payload.len() > relay::MAX_MESSAGE {
        return;
    }
    let Ok(e) = serde_json::from_slice::<Envelope>(&m.payload) else { return };
    let Some(k) = r.names.iter().position(|n| *n == e.seat) else { return };
    let Some(keys) = &r.keys[k] else { return };
    // Not proven the seat's: not answered at all.
    let Some(text) = keys.open(Way::ToHost, e.session, &e) else { return };
    // An answer's text sealed for the seat, bound to the message it answers.
    let seal = |text: &[u8]| serde_json::to_vec(&keys.seal(Way::ToSeat, e.session, e.seq, text)).unwrap_or_default();
    let send = |reply: &Reply| {
        let text = serde_json::to_vec(reply).unwrap_or_default();
        let sealed = seal(&text);
        (text, sealed)
    };
    let publish = |bytes: Vec<u8>| {
        let (client, to) = (r.client.clone(), reply_to.clone());
        async move {
            let _ = client.publish(to, bytes.into()).await;
        }
    };
    if let Err(refused) = r.shared.counted(k) {
        return publish(send(&Reply::Posted(server::posted(Err(refused)))).1).await;
    }
    if e.session != r.session {
        return publish(send(&Reply::Session(r.session)).1).await;
    }
    let fresh = r.windows.lock().unwrap_or_else(|e| e.into_inner())[k].take(e.seq);
    match fresh {
        Fresh::New => {}
        Fresh::Old => return publish(send(&Reply::Old).1).await,
        Fresh::Repeat => {
            // Said again: the answer it had, if it is kept; nothing is done twice.
            let kept = r.kept.lock().unwrap_or_else(|e| e.into_inner())[k]
                .iter()
                .find(|(seq, _)| *seq == e.seq)
                .map(|(_, text)| text.clone());
            if let Some(text) = kept {
                publish(seal(&text)).await;
            }
            return;
        }
    }
    let request = match serde_json::from_slice::<Request>(&text) {
        Ok(request) => request,
        Err(err) => {
            let why = refuse(Why::Malformed, format!("not understood: {}", crate::rules::one_line(&err.to_string())));
            return publish(send(&Reply::Posted(server::posted(Err(why)))).1).await;
        }
    };
    let reply = match request {
        Request::View { after } => {
            // Waited on at once: bounded as the direct host's requests.
            let Ok(_permit) = r.waiting.clone().try_acquire_owned() else {
                return publish(send(&Reply::Posted(Posted::Busy)).1).await;
            };
            if let Some(after) = after {
                let mut rx = r.shared.version.subscribe();
                let _ = tokio::time::timeout(relay::RELAY_WAIT, rx.wait_for(|v| *v != after)).await;
            }
            // A view is not kept: asked again, it is read again.
            return publish(send(&Reply::View(Box::new(r.shared.view(k, after)))).1).await;
        }
        Request::Said(said) => Reply::Posted(server::posted(r.shared.hear(r.shared.seats[k].id, &said))),
    };
    let (text, bytes) = send(&reply);
    {
        let mut kept = r.kept.lock().unwrap_or_else(|e| e.into_inner());
        let kept = &mut kept[k];
        if kept.len() == KEPT {
            kept.pop_front();
        }
        kept.push_back((e.seq, text));
    }
    publish(bytes).await;
}

/// The feed's public events, each as it comes, on the feed's subject. Where the relay has
/// JetStream, a stream keeps them for spectators who come late, from a snapshot of the game on:
/// emptied when the host starts (the feed numbers its events afresh), and made again with a new
/// snapshot whenever the relay comes back (one restarted without its storage has lost it).
async fn forward_feed(r: Arc<Relayed>, game: String) {
    let subject = relay::feed_subject(&game);
    let Some(feed) = r.shared.feed.clone() else { return };
    let js = async_nats::jetstream::new(r.client.clone());
    // The stream is made (or emptied) beside the events, which never wait for it.
    let mut setup = Box::pin(keep_stream(&js, &game, true));
    let (mut setting_up, mut kept, mut was_connected) = (true, false, true);
    // The game so far, as one event (a spectator skips the events it already holds).
    let snapshot = || {
        let (client, subject, text) = (r.client.clone(), subject.clone(), feed.snapshot());
        async move {
            if let Some(text) = text {
                let _ = client.publish(subject, text.into()).await;
            }
        }
    };
    loop {
        let Ok(mut events) = feed.subscribe(Some(feed.seq() + 1)) else {
            tokio::time::sleep(std::time::Duration::from_secs(1)).await;
            continue;
        };
        if kept {
            snapshot().await;
        }
        loop {
            tokio::select! {
                made = &mut setup, if setting_up => {
                    setting_up = false;
                    kept = made;
                    if kept {
                        snapshot().await;
                    }
                }
                sent = events.recv() => match sent {
                    Some(sent) => {
                        let _ = r.client.publish(subject.clone(), sent.data.clone().into()).await;
                    }
                    // Dropped for falling behind: subscribed again, after a new snapshot.
                    None => break,
                },
                _ = tokio::time::sleep(std::time::Duration::from_millis(500)) => {
                    let connected = r.client.connection_state() == async_nats::connection::State::Connected;
                    // The relay back: its stream made again if it was lost, with a snapshot.
                    if connected && !was_connected && !setting_up {
                        setup = Box::pin(keep_stream(&js, &game, false));
                        setting_up = true;
                    }
                    was_connected = connected;
                }
            }
        }
    }
}

/// The game's stream on the relay, made if it is not there (and emptied when asked): whether
/// the relay keeps one (a relay without JetStream does not).
async fn keep_stream(js: &async_nats::jetstream::Context, game: &str, empty: bool) -> bool {
    use async_nats::jetstream::stream;
    let config = stream::Config {
        name: crate::nats::stream_name(game),
        subjects: vec![relay::feed_subject(game)],
        max_age: crate::nats::STREAM_AGE,
        max_bytes: crate::nats::STREAM_BYTES,
        discard: stream::DiscardPolicy::Old,
        storage: stream::StorageType::File,
        ..Default::default()
    };
    let made = tokio::time::timeout(std::time::Duration::from_secs(5), js.get_or_create_stream(config)).await;
    match made {
        Ok(Ok(s)) => {
            if empty {
                let _ = s.purge().await;
            }
            true
        }
        _ => false,
    }
}

/// `tablero.GAME.state`: the feed's whole picture, for a spectator that comes late.
async fn answer_state(r: Arc<Relayed>, mut asks: async_nats::Subscriber) {
    let Some(feed) = r.shared.feed.clone() else { return };
    let mut last = Instant::now();
    while let Some(m) = asks.next().await {
        let Some(to) = m.reply else { continue };
        // At most 100 a second, as a seat's requests.
        if last.elapsed() < std::time::Duration::from_millis(10) {
            continue;
        }
        last = Instant::now();
        let text = serde_json::to_vec(&feed.state()).unwrap_or_default();
        let _ = r.client.publish(to, text.into()).await;
    }
}
