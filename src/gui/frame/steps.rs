//! The vocabulary of the frame: the app's screens, the table's mode, and the steps every
//! frame at the table goes through, in order. Every room names them; they name nothing.

use bevy::prelude::*;

/// The screens of the app.
#[derive(States, Default, Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Screen {
    #[default]
    Menu,
    Playing,
}

/// What the table is doing while a game is on it: a live game, a record watched, or CTOR's
/// secret squares being chosen (no move is made meanwhile). It follows the table's own mode
/// (`crate::table::Table::mode`).
#[derive(SubStates, Default, Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[source(Screen = Screen::Playing)]
pub enum Mode {
    #[default]
    Live,
    Replay,
    Secrets,
}

impl From<crate::table::Mode> for Mode {
    fn from(mode: crate::table::Mode) -> Mode {
        match mode {
            crate::table::Mode::Live => Mode::Live,
            crate::table::Mode::Replay => Mode::Replay,
            crate::table::Mode::Secrets => Mode::Secrets,
        }
    }
}

/// The steps of a frame at the table, in order. Every step sends typed messages to the
/// next: clicks on cells, chosen moves, played moves with their effects, settled tables.
#[derive(SystemSet, Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum TableSystems {
    /// Keys become commands and views (picks arrive through observers as clicks on cells).
    Input,
    /// Clicks, the computer, the replay's pace and the sand-glass choose moves.
    Pick,
    /// The rules step, the only writer of the game, applies chosen moves and intents.
    Rules,
    /// A rebuild clears the board and decides which set is on the table.
    Clear,
    /// The set on the table builds the shown position.
    Build,
    /// The set turns the played effects into tweens.
    Plan,
    /// One generic tick moves every tween.
    Animate,
    /// When everything has settled, the set checks its scene against the rules.
    Verify,
    /// Highlights, paint, panels, labels and the camera follow.
    Present,
}

/// Wakes the resting window once, from the thread a job ends on (a search found its move, the
/// network answered); nothing where there is no window (a headless table is updated by hand).
pub(crate) fn wake_when_done(proxy: Option<&bevy::winit::EventLoopProxyWrapper>) -> impl FnOnce() + Send + 'static {
    let wake = proxy.map(waker);
    move || {
        if let Some(wake) = wake {
            wake();
        }
    }
}

/// Something that wakes the resting window from another thread (the live feed heard, the
/// host heard), to be called there.
pub(crate) fn waker(proxy: &bevy::winit::EventLoopProxyWrapper) -> impl Fn() + Send + Sync + 'static {
    let proxy = (**proxy).clone();
    move || {
        let _ = proxy.send_event(bevy::winit::WinitUserEvent::WakeUp);
    }
}
