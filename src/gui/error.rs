//! The 3D table's error: what opening the window, rendering off-screen, a photo or a film
//! fails at, in one line.

use std::path::PathBuf;

/// The start of the message of a render that found no Vulkan adapter to draw with (and only
/// of that: every other failure says what failed).
pub const NO_VULKAN: &str = "no Vulkan device to render with";

#[derive(Debug, thiserror::Error)]
pub enum GuiError {
    #[error(
        "no display found (DISPLAY is not set): run tablero in a desktop session, or use the headless commands (tablero help)"
    )]
    NoDisplay,
    /// The window could not open or had to close: the first line of why (a display or
    /// graphics driver missing, usually).
    #[error("the window could not be opened or had to close ({0})")]
    Window(String),
    #[error("{NO_VULKAN} ({0}; on Debian: apt-get install mesa-vulkan-drivers libvulkan1)")]
    NoVulkan(String),
    #[error("the off-screen renderer failed to start: {0}")]
    Renderer(String),
    #[error("the screenshot was not written to {}", .0.display())]
    NotWritten(PathBuf),
    #[error("cannot write {}: {source}", .path.display())]
    Write { path: PathBuf, source: std::io::Error },
    /// An encoder's or ffmpeg's failure, in its words.
    #[error("cannot write the {what}: {why}")]
    Encode { what: &'static str, why: String },
    #[error("--out {} must end in .gif or .mp4", .0.display())]
    FilmKind(PathBuf),
    #[error("--fps must be 1 to 60 and --pace 0.1 to 60 seconds")]
    FilmPace,
    #[error("ffmpeg is not installed, and an MP4 needs it (apt-get install ffmpeg); a .gif needs nothing")]
    NoFfmpeg,
    #[error("interrupted: no film was written")]
    Interrupted,
    #[error("a photo is from 16x16 to {}x{}, not {}x{}", .most.x, .most.y, .asked.x, .asked.y)]
    PhotoSize { most: bevy::math::UVec2, asked: bevy::math::UVec2 },
    #[error("--inspect shows a Volterra tower or pawn; this position is not Volterra")]
    InspectNotVolterra,
    #[error("--inspect {0}: nothing stands there (a tower or a pawn is needed)")]
    InspectEmpty(String),
    #[error("--inspect: {0}")]
    InspectCell(String),
    #[error("--view doughnut shows a CTOR field; this position is not CTOR")]
    DoughnutNotCtor,
    #[error("--view '{}' is not one of {}", crate::rules::quote(.name), .views.join(", "))]
    View { name: String, views: &'static [&'static str] },
    /// The live feed at the table could not start, in its words.
    #[error("{0}")]
    Serve(String),
    #[error("cannot watch {base}: {why}")]
    Watch { base: String, why: String },
    #[error(transparent)]
    Feed(#[from] crate::feed::FeedError),
    #[error(transparent)]
    Net(#[from] crate::net::NetError),
    #[error("the game has no file yet")]
    NotSaved,
    #[error("only a game being played is hosted (not a replay, not a finished game)")]
    NotLive,
    #[error(transparent)]
    Table(#[from] crate::table::TableError),
    #[error(transparent)]
    Record(#[from] crate::record::RecordError),
    #[error(transparent)]
    Position(#[from] crate::rules::PositionError),
    #[error(transparent)]
    Move(#[from] crate::rules::MoveError),
    /// Standard output could not be written.
    #[error("{0}")]
    Io(#[from] std::io::Error),
}
