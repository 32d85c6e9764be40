//! The progress of a long command (perft, a match, a review) on standard error.

use std::io::Write;
use std::time::{Duration, Instant};

/// Progress of a long command on standard error: shown when standard error is a terminal or
/// `TABLERO_PROGRESS` is set, rewritten at most twice a second, after the first second.
pub struct Progress {
    on: bool,
    tty: bool,
    started: Instant,
    shown: Option<Instant>,
}

impl Progress {
    pub fn new() -> Progress {
        use std::io::IsTerminal;
        let tty = std::io::stderr().is_terminal();
        Progress {
            on: tty || std::env::var_os("TABLERO_PROGRESS").is_some(),
            tty,
            started: Instant::now(),
            shown: None,
        }
    }

    /// Shows `line` if it is time to (`force`: now, the last line of a run).
    pub fn show(&mut self, line: impl FnOnce() -> String, force: bool) {
        let now = Instant::now();
        let due = match self.shown {
            None => now - self.started >= Duration::from_secs(1),
            Some(t) => now - t >= Duration::from_millis(500),
        };
        if !self.on || !(due || (force && self.shown.is_some())) {
            return;
        }
        self.shown = Some(now);
        let text = format!("{} ({:.1} s)", line(), self.started.elapsed().as_secs_f64());
        let mut err = std::io::stderr().lock();
        let _ = if self.tty { write!(err, "\r\x1b[2K{text}") } else { writeln!(err, "{text}") };
        let _ = err.flush();
    }

    /// Ends the progress line (on a terminal the cursor is left at the start of a new line).
    pub fn done(&mut self) {
        if self.tty && self.shown.is_some() {
            let _ = writeln!(std::io::stderr());
        }
    }
}

/// `[#####.....]` for `done` of `all`.
pub fn bar(done: u64, all: u64) -> String {
    let filled = (done * 20).checked_div(all).unwrap_or(20) as usize;
    format!("[{}{}]", "#".repeat(filled), ".".repeat(20 - filled))
}
