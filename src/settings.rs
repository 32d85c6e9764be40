//! The player's settings: how the table animates and looks, the camera, the window. Kept as
//! JSON in the user's config folder (`$TABLERO_CONFIG_DIR`, else `$XDG_CONFIG_HOME/tablero`,
//! else `~/.config/tablero`), read at start and written atomically whenever one changes. A
//! file that cannot be read, is not JSON, has an unknown field or a value out of range is
//! reported in one line, kept aside as `settings.json.broken`, and the defaults are used.

use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};

/// The settings format this tablero writes.
pub const FORMAT: u32 = 1;

/// How fast moves, flips and captures animate (the table's animation speed).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "gui", derive(bevy::prelude::Resource))]
#[serde(rename_all = "lowercase")]
pub enum Animation {
    #[default]
    Normal,
    Fast,
    Instant,
}

/// The renderer's profile: chosen by the graphics adapter, or always full or software.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Quality {
    #[default]
    Auto,
    Full,
    Software,
}

/// The colours of the pieces and highlights: tablero's own, or the Okabe–Ito palette that
/// people with any kind of colour blindness tell apart. In both, one side's pieces also
/// carry a mark that is not a colour (a pip on the stones, a ring on CTOR's white face, a
/// corner inlay on Volterra's dark tiles).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "gui", derive(bevy::prelude::Resource))]
#[serde(rename_all = "kebab-case")]
pub enum Palette {
    #[default]
    Classic,
    OkabeIto,
}

/// The window as it was last left.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct WindowPlace {
    pub width: u32,
    pub height: u32,
    /// The top left corner on the desktop, if the window system told it.
    pub x: Option<i32>,
    pub y: Option<i32>,
    pub fullscreen: bool,
}

/// Camera sensitivity and UI scale: the ranges a setting may take.
pub const SENSITIVITY: (f32, f32) = (0.25, 4.0);
pub const UI_SCALE: (f32, f32) = (1.0, 2.0);

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "gui", derive(bevy::prelude::Resource))]
#[serde(default, deny_unknown_fields)]
pub struct Settings {
    pub format: u32,
    pub animation: Animation,
    pub quality: Quality,
    pub palette: Palette,
    /// How far the camera turns, pans and zooms for a movement of the mouse (1 as made).
    pub camera_sensitivity: f32,
    /// Dragging up tilts the camera down instead of up, and left turns it right.
    pub invert_camera: bool,
    /// The size of panels, buttons and labels, 1 to 2.
    pub ui_scale: f32,
    /// No camera travel; moves, flips and slides shown at once with a brief highlight.
    pub reduced_motion: bool,
    /// CTOR: a person's turn ends by itself when ending it is all that is left.
    pub auto_end_turn: bool,
    /// Tips at the table in a first game of each variant.
    pub tips: bool,
    /// The tips already shown (`variant:moment`), each shown once.
    pub tips_seen: Vec<String>,
    /// How loud the table's sounds are, 0 to 100 (a build with the `audio` feature).
    pub volume: u8,
    /// No sound at all, whatever the volume.
    pub muted: bool,
    pub window: Option<WindowPlace>,
    /// The relay that *Host through a relay* hosts through (`nats://HOST:PORT`).
    pub relay: Option<String>,
}

impl Default for Settings {
    fn default() -> Settings {
        Settings {
            format: FORMAT,
            animation: Animation::Normal,
            quality: Quality::Auto,
            palette: Palette::Classic,
            camera_sensitivity: 1.0,
            invert_camera: false,
            ui_scale: 1.0,
            reduced_motion: false,
            auto_end_turn: false,
            tips: true,
            tips_seen: Vec::new(),
            volume: 70,
            muted: false,
            window: None,
            relay: None,
        }
    }
}

/// Where the settings live.
pub fn config_dir() -> PathBuf {
    if let Some(d) = std::env::var_os("TABLERO_CONFIG_DIR") {
        return PathBuf::from(d);
    }
    if let Some(d) = std::env::var_os("XDG_CONFIG_HOME").filter(|d| Path::new(d).is_absolute()) {
        return PathBuf::from(d).join("tablero");
    }
    let home = std::env::var_os("HOME").map(PathBuf::from).unwrap_or_else(std::env::temp_dir);
    home.join(".config/tablero")
}

/// The settings file in `dir`.
pub fn file(dir: &Path) -> PathBuf {
    dir.join("settings.json")
}

/// Why a settings file was not used.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum SettingsError {
    #[error("{0}")]
    Json(String),
    #[error("format {0} (this tablero reads {FORMAT})")]
    Format(u32),
    #[error("camera_sensitivity {} is not from {} to {}", .0, SENSITIVITY.0, SENSITIVITY.1)]
    Sensitivity(f32),
    #[error("ui_scale {} is not from {} to {}", .0, UI_SCALE.0, UI_SCALE.1)]
    UiScale(f32),
    #[error("volume {0} is not from 0 to 100")]
    Volume(u8),
    #[error("{0} tips seen (there are far fewer)")]
    Tips(usize),
    #[error("a window of {0}x{1} (from 320x240 to 16384x16384)")]
    Window(u32, u32),
    #[error("relay: {0}")]
    Relay(String),
    #[error("{0}")]
    Read(String),
    #[error("it is not a regular file")]
    NotFile,
    #[error("it is larger than {} KiB", MAX_BYTES / 1024)]
    TooLarge,
    #[error("it is not UTF-8 text")]
    NotUtf8,
}

/// The largest settings file read (a settings file is a few hundred bytes).
const MAX_BYTES: u64 = 64 * 1024;

impl Settings {
    /// Reads settings from JSON, checking every value.
    pub fn from_json(text: &str) -> Result<Settings, SettingsError> {
        let s: Settings = serde_json::from_str(text).map_err(|e| SettingsError::Json(e.to_string()))?;
        if s.format != FORMAT {
            return Err(SettingsError::Format(s.format));
        }
        let within = |v: f32, (lo, hi): (f32, f32)| v.is_finite() && (lo..=hi).contains(&v);
        if !within(s.camera_sensitivity, SENSITIVITY) {
            return Err(SettingsError::Sensitivity(s.camera_sensitivity));
        }
        if !within(s.ui_scale, UI_SCALE) {
            return Err(SettingsError::UiScale(s.ui_scale));
        }
        if s.volume > 100 {
            return Err(SettingsError::Volume(s.volume));
        }
        if s.tips_seen.len() > 1000 {
            return Err(SettingsError::Tips(s.tips_seen.len()));
        }
        if let Some(w) = s.window
            && !((320..=16384).contains(&w.width) && (240..=16384).contains(&w.height))
        {
            return Err(SettingsError::Window(w.width, w.height));
        }
        if let Some(r) = &s.relay
            && crate::net::relay::relay_address(r).is_err()
        {
            return Err(SettingsError::Relay(format!("'{}' is not nats://HOST:PORT", crate::rules::quote(r))));
        }
        Ok(s)
    }

    pub fn to_json(&self) -> String {
        serde_json::to_string_pretty(self).expect("settings serialise")
    }

    /// The settings in `dir`: the defaults when there are none yet. A file that cannot be
    /// used is moved aside (to `settings.json.broken`) and the defaults are used; the second
    /// value then says so in one line.
    pub fn load(dir: &Path) -> (Settings, Option<String>) {
        let path = file(dir);
        let text = match std::fs::metadata(&path) {
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return (Settings::default(), None),
            Err(e) => Err(SettingsError::Read(e.to_string())),
            Ok(m) if !m.is_file() => Err(SettingsError::NotFile),
            Ok(m) if m.len() > MAX_BYTES => Err(SettingsError::TooLarge),
            Ok(_) => std::fs::read(&path)
                .map_err(|e| SettingsError::Read(e.to_string()))
                .and_then(|b| String::from_utf8(b).map_err(|_| SettingsError::NotUtf8)),
        };
        match text.and_then(|t| Settings::from_json(&t)) {
            Ok(s) => (s, None),
            Err(why) => {
                let aside = dir.join("settings.json.broken");
                let kept = match std::fs::rename(&path, &aside) {
                    Ok(()) => format!("kept as {}", aside.display()),
                    Err(e) => format!("could not be moved aside: {e}"),
                };
                let line = format!(
                    "settings: {} was not used ({why}); the defaults are used, the file {kept}",
                    path.display()
                );
                (Settings::default(), Some(line.replace('\n', " ")))
            }
        }
    }

    /// Writes the settings into `dir`, atomically.
    pub fn save(&self, dir: &Path) -> std::io::Result<()> {
        crate::record::write_atomic(&file(dir), &self.to_json())
    }

    /// The camera sensitivity one step up (`up`) or down, within its range.
    pub fn step_sensitivity(&mut self, up: bool) {
        let steps = [0.25, 0.5, 0.75, 1.0, 1.5, 2.0, 3.0, 4.0];
        self.camera_sensitivity = step(&steps, self.camera_sensitivity, up);
    }

    /// The volume one step (a tenth) up or down, from 0 to 100.
    pub fn step_volume(&mut self, up: bool) {
        self.volume =
            if up { (self.volume / 10 + 1).min(10) * 10 } else { self.volume.div_ceil(10).saturating_sub(1) * 10 };
    }

    /// The UI scale one step (a quarter) up or down, from 100% to 200%.
    pub fn step_ui_scale(&mut self, up: bool) {
        let steps = [1.0, 1.25, 1.5, 1.75, 2.0];
        self.ui_scale = step(&steps, self.ui_scale, up);
    }
}

/// The next value of `steps` above (or below) `now`, staying at the ends.
fn step(steps: &[f32], now: f32, up: bool) -> f32 {
    if up {
        steps.iter().copied().find(|s| *s > now + 1e-4).unwrap_or(steps[steps.len() - 1])
    } else {
        steps.iter().rev().copied().find(|s| *s < now - 1e-4).unwrap_or(steps[0])
    }
}

impl Animation {
    /// How long an animation takes, as a share of its time at normal speed.
    pub fn factor(self) -> f32 {
        match self {
            Animation::Normal => 1.0,
            Animation::Fast => 0.4,
            Animation::Instant => 0.0,
        }
    }

    pub fn next(self) -> Animation {
        match self {
            Animation::Normal => Animation::Fast,
            Animation::Fast => Animation::Instant,
            Animation::Instant => Animation::Normal,
        }
    }

    pub fn label(self) -> &'static str {
        match self {
            Animation::Normal => "normal",
            Animation::Fast => "fast",
            Animation::Instant => "instant",
        }
    }
}

impl Quality {
    pub fn next(self) -> Quality {
        match self {
            Quality::Auto => Quality::Full,
            Quality::Full => Quality::Software,
            Quality::Software => Quality::Auto,
        }
    }

    pub fn label(self) -> &'static str {
        match self {
            Quality::Auto => "auto",
            Quality::Full => "full",
            Quality::Software => "software",
        }
    }
}

impl Palette {
    pub fn next(self) -> Palette {
        match self {
            Palette::Classic => Palette::OkabeIto,
            Palette::OkabeIto => Palette::Classic,
        }
    }

    pub fn label(self) -> &'static str {
        match self {
            Palette::Classic => "tablero's own",
            Palette::OkabeIto => "Okabe–Ito, colour-blind safe",
        }
    }
}
