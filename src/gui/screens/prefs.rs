//! The settings at the table ([`crate::settings`]): read before the window opens (its size,
//! place and full screen come from them), applied (animation speed, UI scale, the camera,
//! reduced motion, the palette, the quality profile at start), changed in the settings panel (`S` or the
//! *Settings* buttons), and saved as soon as one changes (the window's size and place when it
//! closes, or with the next change). `F11` switches full screen.

use crate::gui::frame::animate::Speed;
use crate::settings::{Settings, WindowPlace};
use bevy::prelude::*;
use bevy::window::{MonitorSelection, PrimaryWindow, WindowMode, WindowPosition};
use std::path::PathBuf;

/// Where the settings are saved; `None` keeps them in memory only (tests, a spectator).
#[derive(Resource, Clone, Debug, Default)]
pub struct ConfigDir(pub Option<PathBuf>);

/// Whether the settings panel is open.
#[derive(Resource, Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SettingsOpen(pub bool);

/// What went wrong with the settings file, in one line (shown in the panel and the menu).
#[derive(Resource, Clone, Debug, Default)]
pub struct SettingsTrouble(pub Option<String>);

/// What a button of the settings panel does.
#[derive(Component, Clone, Copy, Debug, PartialEq, Eq)]
pub enum Setting {
    Animation,
    Quality,
    Palette,
    Sensitivity(bool),
    Invert,
    UiScale(bool),
    ReducedMotion,
    AutoEndTurn,
    Tips,
    Volume(bool),
    Mute,
    Close,
}

impl Setting {
    /// Changes `s` as this button does.
    pub fn press(self, s: &mut Settings, open: &mut SettingsOpen) {
        match self {
            Setting::Animation => s.animation = s.animation.next(),
            Setting::Quality => s.quality = s.quality.next(),
            Setting::Palette => s.palette = s.palette.next(),
            Setting::Sensitivity(up) => s.step_sensitivity(up),
            Setting::Invert => s.invert_camera = !s.invert_camera,
            Setting::UiScale(up) => s.step_ui_scale(up),
            Setting::ReducedMotion => s.reduced_motion = !s.reduced_motion,
            Setting::AutoEndTurn => s.auto_end_turn = !s.auto_end_turn,
            // Switched on again, every tip shows again.
            Setting::Tips => {
                s.tips = !s.tips;
                if s.tips {
                    s.tips_seen.clear();
                }
            }
            Setting::Volume(up) => s.step_volume(up),
            Setting::Mute => s.muted = !s.muted,
            Setting::Close => open.0 = false,
        }
    }

    /// The button's words for the settings `s`, the UI scale being `fit` in this window.
    fn caption(self, s: &Settings, fit: f32) -> String {
        let on = |b: bool| if b { "on" } else { "off" };
        match self {
            Setting::Animation if s.reduced_motion => {
                format!("Animation: {} (instant: reduced motion)", s.animation.label())
            }
            Setting::Animation => format!("Animation: {}", s.animation.label()),
            Setting::Quality => format!("Quality: {} (from the next start)", s.quality.label()),
            Setting::Palette => format!("Colours: {}", s.palette.label()),
            Setting::Sensitivity(false) => format!("Camera sensitivity: {:.0}%  -", s.camera_sensitivity * 100.0),
            Setting::Sensitivity(true) => "+".into(),
            Setting::Invert => format!("Invert the camera: {}", on(s.invert_camera)),
            Setting::UiScale(false) if (fit - s.ui_scale).abs() > 1e-3 => {
                format!("UI scale: {:.0}% ({:.0}% fits this window)  -", s.ui_scale * 100.0, fit * 100.0)
            }
            Setting::UiScale(false) => format!("UI scale: {:.0}%  -", s.ui_scale * 100.0),
            Setting::UiScale(true) => "+".into(),
            Setting::ReducedMotion => format!("Reduced motion: {}", on(s.reduced_motion)),
            Setting::Tips => format!("Tips in a first game: {}", on(s.tips)),
            Setting::AutoEndTurn => {
                format!("CTOR: end a turn with nothing else left: {}", on(s.auto_end_turn))
            }
            Setting::Volume(false) if !crate::gui::look::sound::BUILT_WITH_SOUND => {
                format!("Sound: {}% (this build is silent: see the README's Sound)  -", s.volume)
            }
            Setting::Volume(false) => format!("Sound: {}%  -", s.volume),
            Setting::Volume(true) => "+".into(),
            Setting::Mute => format!("Mute (Ctrl+M): {}", on(s.muted)),
            Setting::Close => "Close (S)".into(),
        }
    }
}

/// The settings panel's line that says where the file is and what went wrong with it.
#[derive(Component)]
struct SettingsInfo;

/// The settings panel.
#[derive(Component)]
pub struct SettingsPanel;

pub(crate) fn plugin(app: &mut App) {
    app.init_resource::<Settings>()
        .init_resource::<ConfigDir>()
        .init_resource::<SettingsOpen>()
        .init_resource::<SettingsTrouble>()
        .add_systems(Startup, (apply_at_start, spawn_panel))
        .init_resource::<UiScale>()
        .add_systems(Update, (keys, follow_speed, apply, follow_window, save, refresh_panel).chain())
        .add_systems(Last, save_on_exit);
}

/// The settings a new window opens with: its size, place and mode from the saved place.
pub fn window(settings: &Settings) -> Window {
    let place =
        settings.window.unwrap_or(WindowPlace { width: 1280, height: 720, x: None, y: None, fullscreen: false });
    Window {
        title: "tablero".into(),
        resolution: bevy::window::WindowResolution::new(place.width, place.height),
        position: match (place.x, place.y) {
            (Some(x), Some(y)) => WindowPosition::At(IVec2::new(x, y)),
            _ => WindowPosition::Automatic,
        },
        mode: if place.fullscreen {
            WindowMode::BorderlessFullscreen(MonitorSelection::Current)
        } else {
            WindowMode::Windowed
        },
        ..default()
    }
}

/// The speed the table animates at: instant under reduced motion.
pub fn effective_speed(s: &Settings) -> Speed {
    if s.reduced_motion { Speed::Instant } else { s.animation }
}

/// Whether motion is to be reduced (no camera travel, no slow orbit).
pub fn reduced(settings: Option<Res<Settings>>) -> bool {
    settings.is_some_and(|s| s.reduced_motion)
}

fn apply_at_start(
    settings: Res<Settings>,
    mut speed: ResMut<Speed>,
    mut scale: ResMut<UiScale>,
    windows: Query<&Window, With<PrimaryWindow>>,
) {
    *speed = effective_speed(&settings);
    scale.0 = fitting_scale(settings.ui_scale, windows.iter().next());
}

/// `S` opens and closes the panel, `F11` switches full screen, `Ctrl+M` mutes the sound.
fn keys(
    mut pressed: MessageReader<crate::gui::frame::keymap::Pressed>,
    mut open: ResMut<SettingsOpen>,
    mut settings: ResMut<Settings>,
    mut windows: Query<&mut Window, With<PrimaryWindow>>,
) {
    use crate::gui::frame::keymap::{Action, Pressed};
    for Pressed(action) in pressed.read() {
        match action {
            Action::Settings => open.0 = !open.0,
            Action::Mute => settings.muted = !settings.muted,
            Action::FullScreen => {
                for mut w in &mut windows {
                    w.mode = match w.mode {
                        WindowMode::Windowed => WindowMode::BorderlessFullscreen(MonitorSelection::Current),
                        _ => WindowMode::Windowed,
                    };
                }
            }
            _ => {}
        }
    }
}

/// The *Speed* button changes the animation setting too.
fn follow_speed(speed: Res<Speed>, mut settings: ResMut<Settings>) {
    if speed.is_changed() && *speed != effective_speed(&settings) && !settings.reduced_motion {
        settings.animation = *speed;
    }
}

/// The panels are laid out for a window of 1280 x 720: the UI scale is the setting's, as far
/// as the window keeps that much room (a 1920 x 1080 window has room for 150%).
pub fn fitting_scale(setting: f32, window: Option<&Window>) -> f32 {
    let room = window.map_or(f32::MAX, |w| (w.width() / 1280.0).min(w.height() / 720.0));
    setting.min(room).max(1.0)
}

/// A changed setting takes effect at once (the UI scale also when the window's size changes).
fn apply(
    settings: Res<Settings>,
    mut speed: ResMut<Speed>,
    mut scale: ResMut<UiScale>,
    palette: Option<ResMut<crate::settings::Palette>>,
    windows: Query<Ref<Window>, With<PrimaryWindow>>,
) {
    let window = windows.iter().next();
    if !settings.is_changed() && !window.as_ref().is_some_and(|w| w.is_changed()) {
        return;
    }
    let want = effective_speed(&settings);
    if *speed != want {
        *speed = want;
    }
    if let Some(mut palette) = palette
        && *palette != settings.palette
    {
        *palette = settings.palette;
    }
    let fit = fitting_scale(settings.ui_scale, window.as_deref());
    if scale.0 != fit {
        scale.0 = fit;
    }
}

/// The window's size, place and mode as the player leaves them (kept without counting as a
/// change: they are saved with the next change, or when the window closes).
fn follow_window(windows: Query<&Window, (With<PrimaryWindow>, Changed<Window>)>, mut settings: ResMut<Settings>) {
    for w in &windows {
        let fullscreen = !matches!(w.mode, WindowMode::Windowed);
        let old = settings.window;
        let (width, height) = match (fullscreen, old) {
            // In full screen the size to come back to is the windowed one.
            (true, Some(o)) => (o.width, o.height),
            _ => (w.resolution.width().round() as u32, w.resolution.height().round() as u32),
        };
        let (x, y) = match w.position {
            WindowPosition::At(p) if !fullscreen => (Some(p.x), Some(p.y)),
            _ => (old.and_then(|o| o.x), old.and_then(|o| o.y)),
        };
        let place =
            Some(WindowPlace { width: width.clamp(320, 16384), height: height.clamp(240, 16384), x, y, fullscreen });
        if settings.window != place {
            settings.bypass_change_detection().window = place;
        }
    }
}

fn write(settings: &Settings, dir: &ConfigDir, trouble: &mut SettingsTrouble) {
    if let Some(dir) = &dir.0 {
        match settings.save(dir) {
            Ok(()) => trouble.0 = None,
            Err(e) => trouble.0 = Some(format!("settings: could not be saved in {} ({e})", dir.display())),
        }
    }
}

/// Saved as soon as a setting changes.
fn save(settings: Res<Settings>, dir: Res<ConfigDir>, mut trouble: ResMut<SettingsTrouble>, mut first: Local<bool>) {
    // The first frame sees the settings just read: nothing to save yet.
    if !*first {
        *first = true;
        return;
    }
    if settings.is_changed() {
        write(&settings, &dir, &mut trouble);
    }
}

/// The window's size and place are saved when the app ends.
fn save_on_exit(
    mut exit: MessageReader<AppExit>,
    settings: Res<Settings>,
    dir: Res<ConfigDir>,
    mut trouble: ResMut<SettingsTrouble>,
) {
    if exit.read().count() > 0 {
        write(&settings, &dir, &mut trouble);
    }
}

fn spawn_panel(mut commands: Commands) {
    use crate::gui::theme::{colour, size};
    commands
        .spawn((
            Node {
                position_type: PositionType::Absolute,
                top: percent(12),
                // Centred, as wide as its widest row needs at any window size.
                left: percent(50),
                margin: UiRect::left(px(-300)),
                width: px(600),
                border_radius: BorderRadius::all(px(10)),
                flex_direction: FlexDirection::Column,
                align_items: AlignItems::Center,
                padding: UiRect::all(px(14)),
                display: Display::None,
                ..default()
            },
            BackgroundColor(colour::PAGE),
            GlobalZIndex(20),
            SettingsPanel,
        ))
        .with_children(|p| {
            p.spawn(crate::gui::theme::bold("Settings", size::TITLE, colour::TEXT));
            let rows: [&[Setting]; 10] = [
                &[Setting::Animation],
                &[Setting::Quality],
                &[Setting::Palette],
                &[Setting::Sensitivity(false), Setting::Sensitivity(true)],
                &[Setting::Invert],
                &[Setting::UiScale(false), Setting::UiScale(true)],
                &[Setting::ReducedMotion],
                &[Setting::AutoEndTurn],
                &[Setting::Tips],
                &[Setting::Volume(false), Setting::Volume(true), Setting::Mute],
            ];
            for row in rows {
                // A row wraps where the window is narrow rather than leave the panel.
                let line = Node {
                    flex_direction: FlexDirection::Row,
                    flex_wrap: FlexWrap::Wrap,
                    justify_content: JustifyContent::Center,
                    max_width: percent(100),
                    ..default()
                };
                p.spawn((line, Pickable::IGNORE)).with_children(|r| {
                    for &setting in row {
                        crate::gui::theme::styled_button(r, "", size::BODY, (5.0, 3.0), colour::CONTROL)
                            .insert(setting)
                            .observe(
                                move |_: On<Pointer<Click>>,
                                      mut s: ResMut<Settings>,
                                      mut open: ResMut<SettingsOpen>| {
                                    setting.press(&mut s, &mut open)
                                },
                            );
                    }
                });
            }
            p.spawn((
                Text::new(""),
                TextFont { font_size: FontSize::Px(size::SMALL), ..default() },
                TextColor(colour::MUTED),
                Node { margin: UiRect::all(px(6)), ..default() },
                SettingsInfo,
            ));
            crate::gui::theme::styled_button(p, "", size::LABEL, (5.0, 3.0), colour::PRIMARY)
                .insert(Setting::Close)
                .observe(|_: On<Pointer<Click>>, mut s: ResMut<Settings>, mut open: ResMut<SettingsOpen>| {
                    Setting::Close.press(&mut s, &mut open)
                });
        });
}

#[allow(clippy::type_complexity, clippy::too_many_arguments)]
fn refresh_panel(
    settings: Res<Settings>,
    open: Res<SettingsOpen>,
    dir: Res<ConfigDir>,
    trouble: Res<SettingsTrouble>,
    scale: Res<UiScale>,
    mut panels: Query<&mut Node, With<SettingsPanel>>,
    buttons: Query<(&Setting, &Children)>,
    mut texts: Query<&mut Text, Without<SettingsInfo>>,
    mut info: Query<&mut Text, With<SettingsInfo>>,
) {
    if !settings.is_changed() && !open.is_changed() && !trouble.is_changed() && !scale.is_changed() {
        return;
    }
    for mut node in &mut panels {
        let display = if open.0 { Display::Flex } else { Display::None };
        if node.display != display {
            node.display = display;
        }
    }
    for (setting, children) in &buttons {
        let caption = setting.caption(&settings, scale.0);
        for child in children {
            if let Ok(mut t) = texts.get_mut(*child)
                && t.0 != caption
            {
                t.0 = caption.clone();
            }
        }
    }
    let place = match &dir.0 {
        Some(d) => format!("Saved in {}", crate::settings::file(d).display()),
        None => "Not saved (this table keeps its settings in memory).".into(),
    };
    let line = match &trouble.0 {
        Some(t) => format!("{t}\n{place}"),
        None => place,
    };
    for mut t in &mut info {
        if t.0 != line {
            t.0 = line.clone();
        }
    }
}
