//! The settings at the table: the panel's buttons change them, they take effect at once and
//! are saved; the HUD's Speed button and the setting are one; reduced motion makes the
//! animation instant and the broadcast's camera cut instead of travelling or drifting.

use crate::saving::{buttons, fresh_dir, press};
use crate::table::{click_entity, session};
use bevy::prelude::*;
use tablero::gui::animate::Speed;
use tablero::gui::prefs::{ConfigDir, Setting, SettingsOpen};
use tablero::settings::{Animation, Settings};

fn press_setting(app: &mut App, setting: Setting) {
    let world = app.world_mut();
    let b = world.query::<(Entity, &Setting)>().iter(world).find(|(_, s)| **s == setting).expect("a button").0;
    click_entity(app, b);
    app.update();
}

fn settings(app: &App) -> Settings {
    app.world().resource::<Settings>().clone()
}

#[test]
fn the_settings_panel_changes_saves_and_applies_every_setting() {
    let dir = fresh_dir("prefs");
    let config = dir.join("config");
    let mut app = tablero::gui::headless_menu_app(dir.clone());
    app.insert_resource(ConfigDir(Some(config.clone())));
    app.update();
    assert!(!app.world().resource::<SettingsOpen>().0);
    press(&mut app, "Settings (S)");
    assert!(app.world().resource::<SettingsOpen>().0, "the menu's button opens the panel");
    let captions: Vec<String> = buttons(&mut app).into_iter().map(|b| b.1).collect();
    assert!(captions.iter().any(|c| c == "UI scale: 100%  -"), "{captions:?}");

    press_setting(&mut app, Setting::UiScale(true));
    assert_eq!(settings(&app).ui_scale, 1.25);
    assert_eq!(app.world().resource::<UiScale>().0, 1.25, "applied at once");
    press_setting(&mut app, Setting::Animation);
    assert_eq!(*app.world().resource::<Speed>(), Speed::Fast);
    press_setting(&mut app, Setting::Sensitivity(false));
    press_setting(&mut app, Setting::Invert);
    press_setting(&mut app, Setting::Quality);
    let s = settings(&app);
    assert_eq!((s.camera_sensitivity, s.invert_camera, s.animation), (0.75, true, Animation::Fast));
    // Saved as they changed: the next start reads them back.
    assert_eq!(Settings::load(&config), (s.clone(), None));
    let captions: Vec<String> = buttons(&mut app).into_iter().map(|b| b.1).collect();
    assert!(captions.iter().any(|c| c == "UI scale: 125%  -"), "the captions follow: {captions:?}");
    assert!(captions.iter().any(|c| c == "Quality: full (from the next start)"), "{captions:?}");

    // Reduced motion: the table animates instantly, whatever the animation setting.
    press_setting(&mut app, Setting::ReducedMotion);
    assert_eq!(*app.world().resource::<Speed>(), Speed::Instant);
    press_setting(&mut app, Setting::ReducedMotion);
    assert_eq!(*app.world().resource::<Speed>(), Speed::Fast, "and back to the setting");
    press_setting(&mut app, Setting::Close);
    assert!(!app.world().resource::<SettingsOpen>().0);

    // At the table the Speed button (which steps the Speed resource: the headless table has
    // no HUD) and the setting are one.
    press(&mut app, "Start");
    {
        let mut speed = app.world_mut().resource_mut::<Speed>();
        *speed = speed.next();
    }
    app.update();
    app.update();
    assert_eq!(settings(&app).animation, Animation::Instant);
    assert_eq!(Settings::load(&config).0.animation, Animation::Instant, "saved");
    assert!(session(&app).record_path.is_some());
    let _ = std::fs::remove_dir_all(dir);
}

/// The broadcast's camera over a random game: every frame's transform.
fn broadcast_path(reduced: bool, frames: usize) -> (Vec<Transform>, usize) {
    use tablero::gui::broadcast::{BroadcastCamera, OpenBroadcast};
    use tablero::gui::session::PlayerKind;
    let mut app = tablero::gui::headless_app(tablero::rules::Variant::Ordo.initial(), [PlayerKind::Random; 2]);
    app.add_plugins(tablero::gui::broadcast::plugin);
    app.insert_resource(Settings { reduced_motion: reduced, ..Settings::default() });
    app.world_mut().write_message(OpenBroadcast);
    let mut path = Vec::new();
    for _ in 0..frames {
        app.update();
        let world = app.world_mut();
        path.push(*world.query_filtered::<&Transform, With<BroadcastCamera>>().single(world).unwrap());
    }
    (path, session(&app).history.len())
}

#[test]
fn reduced_motion_cuts_the_broadcast_camera_instead_of_moving_it() {
    let changes = |path: &[Transform]| path.windows(2).filter(|w| w[0] != w[1]).count();
    let (eased, _) = broadcast_path(false, 300);
    let (cut, moves) = broadcast_path(true, 300);
    assert!(moves > 10, "{moves} moves");
    // Travelling, the camera changes nearly every frame; cutting, at most twice a move (to
    // the move, back to the table) and a few times when the broadcast opens.
    assert!(changes(&eased) > 150, "{}", changes(&eased));
    assert!(changes(&cut) <= 2 * moves + 4, "{} changes over {moves} moves", changes(&cut));
}
