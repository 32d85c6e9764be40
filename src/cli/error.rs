//! The command line's error: a failure the user caused, said in one line (exit status 2).

use crate::rules::{MoveError, PositionError, quote};

/// A failure of a command: printed as one line, exit status 2 (130 after Ctrl-C).
#[derive(Debug, thiserror::Error)]
pub enum CliError {
    /// The command line itself: clap's message, on one line, with where to read more.
    #[error("{0}")]
    Usage(String),
    #[error(transparent)]
    Position(#[from] PositionError),
    #[error("move {n}: {err}")]
    Move { n: usize, err: MoveError },
    #[error(transparent)]
    Record(#[from] crate::record::RecordError),
    #[error(transparent)]
    Match(#[from] crate::matches::MatchError),
    #[error(transparent)]
    Feed(#[from] crate::feed::FeedError),
    #[error(transparent)]
    Engine(#[from] crate::engine::EngineError),
    #[error(transparent)]
    Sound(#[from] crate::sound::SoundError),
    #[error(transparent)]
    Net(#[from] crate::net::NetError),
    /// Standard output or a file could not be written.
    #[error("{0}")]
    Io(#[from] std::io::Error),
    #[error("{what} stopped by Ctrl-C{so_far}")]
    Stopped { what: &'static str, so_far: String },
    /// A command of the 3D table in a build without it.
    #[error("'{}' needs the 3D table, and this build has none (built without the gui feature)", quote(.0))]
    NoTable(String),
}
