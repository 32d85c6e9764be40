//! The feed's HTTP server (axum on tokio, in a thread of its own): `/state`, `/events` (Server-
//! Sent Events), `/overlay` (the page for a streaming tool's browser source) and `/`, which
//! lists them. Every route only reads the [`Feed`]; other methods get 405, unknown pages 404,
//! malformed requests 400, and none of them touches the game.

use super::FeedError;
use super::{Feed, Refused};
use axum::Router;
use axum::extract::{Query, State};
use axum::http::{HeaderMap, HeaderValue, StatusCode, header};
use axum::response::sse::{Event, KeepAlive, Sse};
use axum::response::{Html, IntoResponse, Response};
use axum::routing::get;
use std::collections::HashMap;
use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

pub use super::overlay::{ELEMENTS, OVERLAY};
/// What the overlay page shows unless `/overlay?show=` says.
pub const DEFAULT_SHOW: &str = "names,score,clock,last,moves,result";

/// A running server; dropping it (or [`Server::stop`]) closes it and every connection.
pub struct Server {
    pub addr: SocketAddr,
    /// Over HTTPS: the SHA-256 of the certificate a spectator pins.
    pub pin: Option<crate::tls::Fingerprint>,
    stop: Option<tokio::sync::oneshot::Sender<()>>,
    thread: Option<std::thread::JoinHandle<()>>,
}

impl Server {
    /// The feed's address as a link: `http://127.0.0.1:7878` (`https://…` over TLS).
    pub fn url(&self) -> String {
        let scheme = if self.pin.is_some() { "https" } else { "http" };
        format!("{scheme}://{}", self.addr)
    }

    /// What a spectator watches with (`tablero watch`): the link, and over HTTPS the pin of
    /// the certificate after `#`.
    pub fn watch_link(&self) -> String {
        match &self.pin {
            Some(pin) => format!("{}#cert={}", self.url(), pin.hex()),
            None => self.url(),
        }
    }

    pub fn stop(mut self) {
        self.close();
    }

    fn close(&mut self) {
        if let Some(tx) = self.stop.take() {
            let _ = tx.send(());
        }
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        self.close();
    }
}

/// Starts serving `feed` on `addr` (port 0: any free port; [`Server::addr`] says which).
/// The address is bound before this returns, so a port in use is an error here.
pub fn serve(feed: Arc<Feed>, addr: SocketAddr) -> Result<Server, FeedError> {
    serve_over(feed, addr, None)
}

/// [`serve`], over TLS with `tls`'s acceptor when given (a host's feed that other machines
/// reach), its certificate's pin kept for [`Server::watch_link`].
pub fn serve_over(
    feed: Arc<Feed>,
    addr: SocketAddr,
    tls: Option<(tokio_rustls::TlsAcceptor, crate::tls::Fingerprint)>,
) -> Result<Server, FeedError> {
    let cannot = |source| FeedError::Listen { addr, source };
    let listener = std::net::TcpListener::bind(addr).map_err(cannot)?;
    let addr = listener.local_addr().map_err(cannot)?;
    listener.set_nonblocking(true).map_err(cannot)?;
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .thread_name("tablero-feed")
        .enable_all()
        .build()
        .map_err(FeedError::Start)?;
    let (acceptor, pin) = tls.map_or((None, None), |(a, p)| (Some(a), Some(p)));
    let (stop, thread) = spawn(runtime, listener, acceptor, router(feed), "tablero-feed").map_err(FeedError::Start)?;
    Ok(Server { addr, pin, stop: Some(stop), thread: Some(thread) })
}

/// The most connections served at once; more are closed as they come, until some end.
pub const CONNECTIONS: usize = 256;
/// How long a client may take to send a request's head (a slow sender, or a connection that
/// says nothing, is closed after it).
pub const HEAD_TIME: Duration = Duration::from_secs(5);

/// Serves `router` on `listener` (already bound, non-blocking) from a thread of its own on
/// `runtime`, until the sender returned is used or dropped (the live feed, the host's seats).
/// Connections are bounded: at most [`CONNECTIONS`] at once, and each request's head within
/// [`HEAD_TIME`], so that slow or silent clients cannot hold the server.
pub fn spawn(
    runtime: tokio::runtime::Runtime,
    listener: std::net::TcpListener,
    tls: Option<tokio_rustls::TlsAcceptor>,
    router: Router,
    name: &str,
) -> std::io::Result<(tokio::sync::oneshot::Sender<()>, std::thread::JoinHandle<()>)> {
    let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
    let thread = std::thread::Builder::new().name(name.into()).spawn(move || {
        runtime.block_on(async move {
            let Ok(listener) = tokio::net::TcpListener::from_std(listener) else { return };
            tokio::select! {
                _ = accept(listener, tls, router) => {}
                _ = stopped => {}
            }
        });
        // Listeners' streams never end by themselves: closing the runtime closes them.
        runtime.shutdown_timeout(Duration::from_millis(200));
    })?;
    Ok((stop, thread))
}

/// Takes connections as they come and serves each in a task of its own, within the bounds.
async fn accept(listener: tokio::net::TcpListener, tls: Option<tokio_rustls::TlsAcceptor>, router: Router) {
    let room = Arc::new(tokio::sync::Semaphore::new(CONNECTIONS));
    loop {
        let stream = match listener.accept().await {
            Ok((stream, _)) => stream,
            // Out of file descriptors, or a connection reset before it was taken: a moment's
            // pause, and on.
            Err(_) => {
                tokio::time::sleep(Duration::from_millis(20)).await;
                continue;
            }
        };
        let Ok(permit) = room.clone().try_acquire_owned() else {
            drop(stream);
            continue;
        };
        let _ = stream.set_nodelay(true);
        let service = hyper_util::service::TowerToHyperService::new(router.clone());
        let tls = tls.clone();
        tokio::spawn(async move {
            let _permit = permit;
            match tls {
                // The TLS handshake is bounded like a request's head.
                Some(tls) => {
                    if let Ok(Ok(stream)) = tokio::time::timeout(HEAD_TIME, tls.accept(stream)).await {
                        serve_one(stream, service).await;
                    }
                }
                None => serve_one(stream, service).await,
            }
        });
    }
}

/// Serves one connection's requests, each head within [`HEAD_TIME`].
async fn serve_one<S>(stream: S, service: hyper_util::service::TowerToHyperService<Router>)
where
    S: tokio::io::AsyncRead + tokio::io::AsyncWrite + Unpin + Send + 'static,
{
    let mut http = hyper::server::conn::http1::Builder::new();
    http.timer(hyper_util::rt::TokioTimer::new()).header_read_timeout(HEAD_TIME);
    let _ = http.serve_connection(hyper_util::rt::TokioIo::new(stream), service).await;
}

/// The routes, for [`serve`] and for tests.
pub fn router(feed: Arc<Feed>) -> Router {
    Router::new()
        .route("/", get(index))
        .route("/state", get(state))
        .route("/events", get(events))
        .route("/overlay", get(overlay))
        .fallback(not_found)
        .with_state(feed)
        .layer(axum::middleware::map_response(|mut r: Response| async move {
            let h = r.headers_mut();
            h.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
            // An overlay page served from elsewhere may read the feed; nothing here writes.
            h.insert(header::ACCESS_CONTROL_ALLOW_ORIGIN, HeaderValue::from_static("*"));
            r
        }))
}

fn bad(why: impl Into<String>) -> Response {
    (StatusCode::BAD_REQUEST, format!("{}\n", why.into())).into_response()
}

/// Refuses query parameters other than `known`.
#[allow(clippy::result_large_err)] // the refusal is the response itself
fn only(q: &HashMap<String, String>, known: &[&str], page: &str) -> Result<(), Response> {
    match q.keys().find(|k| !known.contains(&k.as_str())) {
        Some(k) => Err(bad(format!(
            "unknown parameter '{}' for {page} (it takes: {})",
            crate::rules::quote(k),
            if known.is_empty() { "none".to_string() } else { known.join(", ") }
        ))),
        None => Ok(()),
    }
}

async fn not_found(uri: axum::http::Uri) -> Response {
    (
        StatusCode::NOT_FOUND,
        format!("no page {} here: the feed has /state, /events and /overlay\n", crate::rules::quote(uri.path())),
    )
        .into_response()
}

async fn index(Query(q): Query<HashMap<String, String>>) -> Response {
    if let Err(r) = only(&q, &[], "/") {
        return r;
    }
    Html(
        "<!doctype html><meta charset=utf-8><title>tablero feed</title>\
         <h1>tablero: live feed</h1><ul>\
         <li><a href=/state>/state</a>: the game now, as JSON</li>\
         <li><a href=/events>/events</a>: Server-Sent Events, one per move, undo, redo, new game and result \
         (<code>?from=N</code> replays from event N)</li>\
         <li><a href=/overlay>/overlay</a>: the page for a streaming tool's browser source \
         (<code>?show=names,score,clock,last,moves,result,title,eval&amp;layout=horizontal|vertical&amp;scale=1&amp;moves=12&amp;theme=dark|light|clear</code>)</li>\
         </ul>",
    )
    .into_response()
}

async fn state(State(feed): State<Arc<Feed>>, Query(q): Query<HashMap<String, String>>) -> Response {
    if let Err(r) = only(&q, &[], "/state") {
        return r;
    }
    axum::Json(feed.state()).into_response()
}

async fn events(
    State(feed): State<Arc<Feed>>,
    headers: HeaderMap,
    Query(q): Query<HashMap<String, String>>,
) -> Response {
    if let Err(r) = only(&q, &["from"], "/events") {
        return r;
    }
    // A browser's EventSource reconnects with the last event's number, which then counts
    // over the page's own `from`.
    let from = match headers.get("last-event-id").map(|v| v.to_str().map(str::parse::<u64>)) {
        Some(Ok(Ok(n))) => Some(n + 1),
        Some(_) => return bad("Last-Event-ID is not an event number"),
        None => match q.get("from") {
            Some(t) => match t.parse::<u64>() {
                Ok(n) => Some(n),
                Err(_) => return bad(format!("from '{}' is not an event number", crate::rules::quote(t))),
            },
            None => None,
        },
    };
    match feed.subscribe(from) {
        Ok(rx) => {
            let stream = futures_util::stream::unfold(rx, |mut rx| async move {
                let e = rx.recv().await?;
                let event = Event::default().id(e.seq.to_string()).event(e.kind).data(&e.data);
                Some((Ok::<_, std::convert::Infallible>(event), rx))
            });
            Sse::new(stream).keep_alive(KeepAlive::new().interval(Duration::from_secs(5))).into_response()
        }
        Err(Refused::Future(next)) => bad(format!("from {} is after the next event, {next}", from.unwrap_or(0))),
        Err(Refused::Full) => {
            (StatusCode::SERVICE_UNAVAILABLE, "too many listeners; try again later\n").into_response()
        }
    }
}

async fn overlay(Query(q): Query<HashMap<String, String>>) -> Response {
    if let Err(r) = only(&q, &["show", "layout", "scale", "moves", "theme"], "/overlay") {
        return r;
    }
    if let Some(bad_one) = q.get("show").and_then(|show| show.split(',').find(|s| !ELEMENTS.contains(s))) {
        return bad(format!("show '{}' is not one of: {}", crate::rules::quote(bad_one), ELEMENTS.join(", ")));
    }
    type Check<'a> = (&'a str, &'a dyn Fn(&str) -> bool, &'a str);
    let checks: [Check; 4] = [
        ("layout", &|v| v == "horizontal" || v == "vertical", "horizontal or vertical"),
        ("theme", &|v| ["dark", "light", "clear"].contains(&v), "dark, light or clear"),
        ("scale", &|v| v.parse::<f32>().is_ok_and(|s| (0.25..=8.0).contains(&s)), "a number from 0.25 to 8"),
        ("moves", &|v| v.parse::<u32>().is_ok_and(|n| (1..=500).contains(&n)), "a number of moves from 1 to 500"),
    ];
    for (name, ok, wanted) in checks {
        if let Some(v) = q.get(name)
            && !ok(v)
        {
            return bad(format!("{name} '{}' is not valid: it is {wanted}", crate::rules::quote(v)));
        }
    }
    Html(OVERLAY).into_response()
}
