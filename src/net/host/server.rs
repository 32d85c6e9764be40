//! The host's server: its routes (axum), the bounds on requests (one Authorization header,
//! bodies of at most 1 KiB within 5 s, requests at once), and refusals turned into status
//! codes in one function, [`status`].

use super::seats::{Refused, Shared, Why, refuse};
use super::{BODY_TIME, IN_FLIGHT, LONGEST_WAIT, MAX_BODY};
use crate::net::{Answer, Answered, Ask, Chosen, MoveTaken, Post, QuestionTaken, Secrets, SecretsTaken, SentMove};
use axum::Router;
use axum::extract::{Query, State};
use axum::http::{HeaderMap, StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use std::collections::HashMap;
use std::sync::Arc;
use std::sync::atomic::Ordering;

/// The token of a request's one `Authorization: Bearer TOKEN` header. None at all is 401; two
/// headers, another scheme, or anything but the token's 32 hexadecimal digits after `Bearer `
/// is a malformed request (400), never read by its first header or first word.
fn bearer(headers: &HeaderMap) -> Result<&[u8], Refused> {
    let mut all = headers.get_all(header::AUTHORIZATION).iter();
    let value = all.next().ok_or_else(|| refuse(Why::NoSeat, "a seat's requests carry its token"))?;
    if all.next().is_some() {
        return Err(refuse(Why::Malformed, "a request carries one Authorization header, not several"));
    }
    value
        .as_bytes()
        .strip_prefix(b"Bearer ")
        .filter(|t| t.len() == 32 && t.iter().all(u8::is_ascii_hexdigit))
        .ok_or_else(|| {
            refuse(Why::Malformed, "the Authorization header is `Bearer ` and the seat's token, nothing else")
        })
}

/// The one place a refusal becomes a status code.
pub fn status(why: Why) -> StatusCode {
    match why {
        Why::Malformed => StatusCode::BAD_REQUEST,
        Why::NoSeat => StatusCode::UNAUTHORIZED,
        Why::NotYours => StatusCode::FORBIDDEN,
        Why::Stale => StatusCode::CONFLICT,
        Why::Illegal => StatusCode::UNPROCESSABLE_ENTITY,
        Why::TooLarge => StatusCode::PAYLOAD_TOO_LARGE,
        Why::TooSlow => StatusCode::REQUEST_TIMEOUT,
        Why::TooMany => StatusCode::TOO_MANY_REQUESTS,
    }
}

/// What a seat said, as the seats' logic took it, for a seat that is not answered over HTTP (the
/// person at the host's table, a seat through a relay): the same refusals with the same codes.
pub(super) fn posted(r: Result<(), Refused>) -> crate::net::Posted {
    use crate::net::Posted;
    match r {
        Ok(()) => Posted::Taken,
        Err(r) if r.why == Why::Stale => Posted::Stale,
        Err(r) if r.why == Why::TooMany => Posted::Busy,
        Err(r) => Posted::Refused { status: status(r.why).as_u16(), text: r.text },
    }
}

fn answer(r: Result<Response, Refused>) -> Response {
    match r {
        Ok(r) => r,
        Err(r) => (status(r.why), format!("{}\n", r.text)).into_response(),
    }
}

/// The seat whose token the request's one `Authorization` header carries.
fn seat_of(s: &Shared, headers: &HeaderMap) -> Result<usize, Refused> {
    s.seat_by_token(bearer(headers)?)
}

/// A request's body: at most [`MAX_BODY`] bytes within [`BODY_TIME`], as JSON of `T`.
async fn body<T: serde::de::DeserializeOwned>(body: axum::body::Body) -> Result<T, Refused> {
    let bytes = match tokio::time::timeout(BODY_TIME, axum::body::to_bytes(body, MAX_BODY)).await {
        Err(_) => return Err(refuse(Why::TooSlow, "the request did not arrive within 5 s")),
        Ok(Err(_)) => return Err(refuse(Why::TooLarge, "a request is at most 1 KiB")),
        Ok(Ok(b)) => b,
    };
    serde_json::from_slice(&bytes)
        .map_err(|e| refuse(Why::Malformed, format!("not understood: {}", crate::rules::one_line(&e.to_string()))))
}

async fn seat(State(s): State<Arc<Shared>>, headers: HeaderMap, Query(q): Query<HashMap<String, String>>) -> Response {
    answer(
        async {
            let k = seat_of(&s, &headers)?;
            if let Some(k) = q.keys().find(|k| k.as_str() != "wait") {
                return Err(refuse(Why::Malformed, format!("unknown parameter '{}'", crate::rules::quote(k))));
            }
            let mut since = None;
            if let Some(w) = q.get("wait") {
                let after: u64 =
                    crate::rules::number(w).ok_or_else(|| refuse(Why::Malformed, "wait takes the view's version"))?;
                let mut rx = s.version.subscribe();
                let _ = tokio::time::timeout(LONGEST_WAIT, rx.wait_for(|v| *v != after)).await;
                since = Some(after);
            }
            Ok(axum::Json(s.view(k, since)).into_response())
        }
        .await,
    )
}

async fn seat_move(State(s): State<Arc<Shared>>, headers: HeaderMap, b: axum::body::Body) -> Response {
    answer(
        async {
            let k = seat_of(&s, &headers)?;
            let sent: SentMove = body(b).await?;
            let seq = s.play(Some(s.seats[k].id), Some(sent.seq), &sent.mv)?;
            Ok(axum::Json(MoveTaken { seq }).into_response())
        }
        .await,
    )
}

async fn seat_secrets(State(s): State<Arc<Shared>>, headers: HeaderMap, b: axum::body::Body) -> Response {
    answer(
        async {
            let k = seat_of(&s, &headers)?;
            let sent: Secrets = body(b).await?;
            s.set_secrets(s.seats[k].id, &sent.squares)?;
            Ok(axum::Json(SecretsTaken { secrets: Chosen::Chosen }).into_response())
        }
        .await,
    )
}

async fn seat_ask(State(s): State<Arc<Shared>>, headers: HeaderMap, b: axum::body::Body) -> Response {
    answer(
        async {
            let k = seat_of(&s, &headers)?;
            let asked: Ask = body(b).await?;
            s.ask(s.seats[k].id, asked.seq, asked.what)?;
            Ok(axum::Json(QuestionTaken { asked: asked.what }).into_response())
        }
        .await,
    )
}

async fn seat_answer(State(s): State<Arc<Shared>>, headers: HeaderMap, b: axum::body::Body) -> Response {
    answer(
        async {
            let k = seat_of(&s, &headers)?;
            let said: Answer = body(b).await?;
            let what = s.answer(s.seats[k].id.side, said.yes)?;
            Ok(axum::Json(Answered { answered: what, yes: said.yes }).into_response())
        }
        .await,
    )
}

async fn join_page() -> Response {
    (
        [(header::CONTENT_TYPE, "text/plain; charset=utf-8")],
        "tablero: this is a seat's invitation. Open it with tablero: tablero join '<the whole link>'\n",
    )
        .into_response()
}

async fn index() -> Response {
    "tablero host: a game's seats, for their invitations (tablero join). Spectators watch the live feed.\n"
        .into_response()
}

async fn not_found(uri: axum::http::Uri) -> Response {
    (StatusCode::NOT_FOUND, format!("no page {} here\n", crate::rules::quote(uri.path()))).into_response()
}

pub(super) fn router(shared: Arc<Shared>) -> Router {
    let limit = shared.clone();
    Router::new()
        .route("/", get(index))
        .route("/join", get(join_page))
        .route("/seat", get(seat))
        .route(SentMove::PATH, post(seat_move))
        .route(Secrets::PATH, post(seat_secrets))
        .route(Ask::PATH, post(seat_ask))
        .route(Answer::PATH, post(seat_answer))
        .fallback(not_found)
        .with_state(shared)
        .layer(axum::middleware::from_fn(move |req: axum::extract::Request, next: axum::middleware::Next| {
            let limit = limit.clone();
            async move {
                if limit.in_flight.fetch_add(1, Ordering::SeqCst) >= IN_FLIGHT {
                    limit.in_flight.fetch_sub(1, Ordering::SeqCst);
                    return (StatusCode::SERVICE_UNAVAILABLE, "busy: try again\n").into_response();
                }
                let mut r = next.run(req).await;
                limit.in_flight.fetch_sub(1, Ordering::SeqCst);
                r.headers_mut().insert(header::CACHE_CONTROL, axum::http::HeaderValue::from_static("no-store"));
                r
            }
        }))
}
