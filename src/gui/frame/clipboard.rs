//! The system clipboard, one for the whole app and kept open while it runs: on X11 what a
//! program copies lives only as long as the program holds the clipboard, unless a clipboard
//! manager takes it over, and not every desktop has one.

use std::sync::{Mutex, OnceLock};

fn held() -> &'static Mutex<Option<arboard::Clipboard>> {
    static CLIPBOARD: OnceLock<Mutex<Option<arboard::Clipboard>>> = OnceLock::new();
    CLIPBOARD.get_or_init(|| Mutex::new(None))
}

/// Runs `f` on the clipboard, opened the first time it is reached (tried again next time where
/// it cannot be).
fn with<T>(f: impl FnOnce(&mut arboard::Clipboard) -> Result<T, arboard::Error>) -> Result<T, arboard::Error> {
    let mut held = held().lock().unwrap_or_else(|e| e.into_inner());
    if held.is_none() {
        *held = Some(arboard::Clipboard::new()?);
    }
    f(held.as_mut().expect("opened above"))
}

/// The text on the clipboard.
pub fn text() -> Result<String, arboard::Error> {
    with(|c| c.get_text())
}

/// Puts `text` on the clipboard; it stays there while the app runs (and after, where a
/// clipboard manager takes it).
pub fn copy(text: &str) -> Result<(), arboard::Error> {
    with(|c| c.set_text(text))
}

/// Lets the clipboard go (the window closed): where a clipboard manager runs, what was copied
/// is handed to it and stays after the app ends.
pub fn close() {
    drop(held().lock().unwrap_or_else(|e| e.into_inner()).take());
}
