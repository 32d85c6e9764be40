//! One HTTP/1.1 connection (hyper) to a host or a feed, over TLS pinned to one certificate when
//! the address asks for it: what a seat and a spectator both connect with, a connection a
//! request.

use crate::tls::{self, Fingerprint};
use http_body_util::Full;
use hyper::body::{Bytes, Incoming};
use std::time::Duration;

/// How long a connection (with its TLS handshake) may take.
pub const CONNECT_TIME: Duration = Duration::from_secs(10);

/// Where to connect: `host:port`, and over TLS, the SHA-256 of the one certificate taken.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Target {
    pub addr: String,
    pub pin: Option<Fingerprint>,
}

#[derive(Debug, thiserror::Error)]
pub enum LinkError {
    #[error("{0}")]
    Unreachable(String),
    #[error("another certificate than the one pinned")]
    OtherCertificate,
}

/// A request for `path` at `target`, with its `Host` header.
pub fn builder(target: &Target, method: &str, path: &str) -> hyper::http::request::Builder {
    hyper::Request::builder().method(method).uri(path).header(hyper::header::HOST, &target.addr)
}

/// Sends `request` on a connection of its own to `target`: the answer's head; its body streams
/// on as long as the calling runtime runs (the connection is a task of it).
pub async fn send(
    target: &Target,
    request: hyper::Request<Full<Bytes>>,
) -> Result<hyper::Response<Incoming>, LinkError> {
    let unreachable = LinkError::Unreachable;
    let tcp = tokio::time::timeout(CONNECT_TIME, tokio::net::TcpStream::connect(&target.addr))
        .await
        .map_err(|_| unreachable("no answer in time".into()))?
        .map_err(|e| unreachable(e.to_string()))?;
    let _ = tcp.set_nodelay(true);
    match target.pin {
        Some(pin) => {
            let connector = tls::connector(pin).map_err(|e| unreachable(e.to_string()))?;
            let stream = tokio::time::timeout(CONNECT_TIME, connector.connect(tls::server_name(&target.addr), tcp))
                .await
                .map_err(|_| unreachable("no answer in time".into()))?
                .map_err(|e| {
                    if tls::is_other_certificate(&e) { LinkError::OtherCertificate } else { unreachable(e.to_string()) }
                })?;
            over(stream, request).await
        }
        None => over(tcp, request).await,
    }
}

async fn over<S>(io: S, request: hyper::Request<Full<Bytes>>) -> Result<hyper::Response<Incoming>, LinkError>
where
    S: tokio::io::AsyncRead + tokio::io::AsyncWrite + Unpin + Send + 'static,
{
    let (mut sender, connection) = hyper::client::conn::http1::handshake(hyper_util::rt::TokioIo::new(io))
        .await
        .map_err(|e| LinkError::Unreachable(e.to_string()))?;
    tokio::spawn(connection);
    sender.send_request(request).await.map_err(|e| LinkError::Unreachable(e.to_string()))
}
