//! The settings at the table: the panel's buttons change them, they take effect at once and
//! are saved; the HUD's Speed button and the setting are one; reduced motion makes the
//! animation instant and the broadcast's camera cut instead of travelling or drifting.

use crate::saving::{buttons, fresh_dir, press};
use crate::table::{click_entity, session};
use bevy::prelude::*;
use tablero::gui::frame::animate::Speed;
use tablero::gui::screens::prefs::{ConfigDir, Setting, SettingsOpen};
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
    use tablero::gui::frame::session::PlayerKind;
    use tablero::gui::stream::broadcast::{BroadcastCamera, OpenBroadcast};
    let mut app = tablero::gui::headless_app(tablero::rules::Variant::Ordo.initial(), [PlayerKind::Random; 2]);
    app.add_plugins(tablero::gui::stream::broadcast::plugin);
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

/// The rules panel's title, caption and text as shown.
fn rules_texts(app: &mut App) -> Vec<String> {
    let world = app.world_mut();
    world.query::<&Text>().iter(world).map(|t| t.0.clone()).filter(|t| !t.is_empty()).collect()
}

/// The rules at hand: opened from the menu for the chosen game and at the table for the game
/// on it; opening and closing it leaves a half-chosen move as it was, and the move can be
/// finished.
#[test]
fn the_rules_panel_explains_the_chosen_game_and_leaves_a_move_being_chosen_alone() {
    use tablero::gui::screens::guide::RulesOpen;
    use tablero::rules::{Cell, Game};
    let dir = fresh_dir("rules");
    let mut app = tablero::gui::headless_menu_app(dir.clone());
    press(&mut app, "Rules of this game (F1)");
    assert!(app.world().resource::<RulesOpen>().0);
    assert!(rules_texts(&mut app).iter().any(|t| t == "Rules: Ordo Classic"));
    press(&mut app, "Crossings");
    app.update();
    let texts = rules_texts(&mut app);
    assert!(texts.iter().any(|t| t == "Rules: Crossings"), "the panel follows the menu's choice");
    assert!(texts.iter().any(|t| t.contains("Goal: cross to the far row") && t.contains("c1:c2xc4")));
    press(&mut app, "Ordo X");
    app.world_mut().resource_mut::<RulesOpen>().0 = false;
    app.update();
    press(&mut app, "Start");
    // A stone chosen, then the rules opened (as F1 does) and closed: still chosen, and the
    // move completes.
    let c = |s: &str| s.parse::<Cell>().unwrap();
    crate::table::click(&mut app, c("e3"));
    app.update();
    let selected = crate::table::picking(&app).picker.clone();
    app.world_mut().resource_mut::<RulesOpen>().0 = true;
    app.update();
    assert!(rules_texts(&mut app).iter().any(|t| t == "Rules: Ordo X"), "at the table: the table's game");
    assert_eq!(format!("{:?}", crate::table::picking(&app).picker), format!("{selected:?}"));
    app.world_mut().resource_mut::<RulesOpen>().0 = false;
    app.update();
    crate::table::click(&mut app, c("e4"));
    app.update();
    // e4 is reached by the stone alone or with its ordo: the list asks which.
    let choice = crate::table::picking(&app).choices.iter().find(|(label, _)| label.contains("e3-e4")).cloned();
    if let Some((_, part)) = choice {
        app.world_mut().write_message(tablero::gui::frame::session::Command::Choose(part));
        app.update();
    }
    assert_eq!(session(&app).history.last().map(|h| h.1.to_string()).as_deref(), Some("e3-e4"));
    assert_eq!(session(&app).game.variant(), tablero::rules::Variant::OrdoX);
    let _ = std::fs::remove_dir_all(dir);
}

/// At 1280 x 720, from either player's side, every piece of the board (CTOR's border of
/// copies included, each to its edges) is drawn above the two rows of buttons along the
/// bottom of the table and inside the picture.
#[test]
fn the_board_is_never_under_the_button_bar() {
    use tablero::gui::frame::board::{BoardItem, Layout};
    use tablero::gui::frame::session::PlayerKind;
    use tablero::gui::look::camera::{Orbit, View};
    for variant in tablero::rules::Variant::ALL {
        let mut app = tablero::gui::headless_app(variant.initial(), [PlayerKind::Person; 2]);
        app.update();
        let layout = *app.world().resource::<Layout>();
        let world = app.world_mut();
        let points: Vec<Vec3> =
            world.query_filtered::<&GlobalTransform, With<BoardItem>>().iter(world).map(|t| t.translation()).collect();
        assert!(points.len() >= 20, "{variant}: {} board items", points.len());
        for view in [View::First, View::Second] {
            let camera = Orbit::preset(view, &layout).transform();
            let proj = Mat4::perspective_rh(std::f32::consts::FRAC_PI_4, 1280.0 / 720.0, 0.1, 1000.0);
            // Each item's near and far edges (half a square either way along the board).
            let edges = points.iter().flat_map(|p| [*p + Vec3::Z * 0.5, *p - Vec3::Z * 0.5]);
            let lowest = edges
                .map(|p| proj.project_point3(camera.to_matrix().inverse().transform_point3(p)))
                .inspect(|ndc| assert!(ndc.x.abs() < 1.0 && ndc.y.abs() < 1.0, "{variant}: {ndc} is off the picture"))
                .map(|ndc| (1.0 - ndc.y) / 2.0 * 720.0)
                .fold(0.0f32, f32::max);
            // CTOR's buttons take three rows (its top at 622 px), the other games' two.
            let bar = if matches!(variant, tablero::rules::Variant::Ctor8 | tablero::rules::Variant::Ctor10) {
                622.0
            } else {
                645.0
            };
            assert!(lowest < bar, "{variant} {view:?}: a board item reaches {lowest:.0} px down, under the buttons");
        }
    }
}

/// CTOR: when ending the turn is all a person can still do, the table knows it (the *End
/// turn* button is marked from it); with the setting on, the turn ends by itself, once.
#[test]
fn a_ctor_turn_with_nothing_left_but_its_end_is_marked_or_ends_by_itself() {
    use tablero::gui::frame::session::PlayerKind;
    use tablero::rules::{Cell, Game, Side};
    for auto in [false, true] {
        let mut app = tablero::gui::headless_app(tablero::rules::Variant::Ctor8.initial(), [PlayerKind::Person; 2]);
        app.insert_resource(Settings { auto_end_turn: auto, ..Settings::default() });
        app.update();
        assert!(!session(&app).only_end_left(), "the first turn has a Put to make");
        crate::table::click(&mut app, Cell::new(3, 3));
        crate::table::settle(&mut app);
        let s = session(&app);
        assert_eq!(s.history.len(), if auto { 2 } else { 1 }, "the Put{}", if auto { ", then the end" } else { "" });
        if auto {
            assert_eq!(s.history[1].1.to_string(), "E");
            assert_eq!(s.game.side_to_move(), Side::Second);
            assert!(!s.only_end_left(), "White's turn has its Puts");
        } else {
            assert!(s.only_end_left(), "one Put was all the first turn allows");
            assert_eq!(s.game.side_to_move(), Side::First, "the turn waits for End turn");
        }
    }
}

/// The tip shown at the table, if any.
fn tip(app: &mut App) -> Option<String> {
    let world = app.world_mut();
    world.query::<&Text>().iter(world).map(|t| t.0.clone()).find(|t| t.starts_with("Tip: "))
}

/// First-game tips: in a person's first game of a variant the table says what to click next,
/// each tip once; a second game of the same variant shows none, another variant shows its
/// own, and switched off none show.
#[test]
fn first_game_tips_show_once_for_each_game_and_can_be_switched_off() {
    use tablero::gui::frame::session::{Command, PlayerKind};
    use tablero::rules::{Cell, Side};
    let dir = fresh_dir("tips");
    let mut app = tablero::gui::headless_menu_app(dir.clone());
    crate::saving::press_player(&mut app, Side::Second, PlayerKind::Random);
    press(&mut app, "Start");
    app.update();
    assert!(tip(&mut app).is_some_and(|t| t.contains("click one of your stones")), "{:?}", tip(&mut app));
    let c = |s: &str| s.parse::<Cell>().unwrap();
    crate::table::click(&mut app, c("e3"));
    app.update();
    app.update();
    assert!(tip(&mut app).is_some_and(|t| t.contains("green squares")), "{:?}", tip(&mut app));
    crate::table::click(&mut app, c("e4"));
    app.update();
    app.update();
    // Reached alone or with its line: the list asks, with its own tip.
    if let Some((_, part)) = crate::table::picking(&app).choices.first().cloned() {
        assert!(tip(&mut app).is_some_and(|t| t.contains("list")), "{:?}", tip(&mut app));
        app.world_mut().write_message(Command::Choose(part));
        app.update();
    }
    assert_eq!(crate::table::session(&app).history.len(), 1, "{}", crate::table::notice(&app));
    crate::table::settle(&mut app);
    app.update();
    let seen = settings(&app).tips_seen;
    assert!(seen.contains(&"ordo:start".to_string()) && seen.contains(&"ordo:chosen".to_string()), "{seen:?}");
    assert_eq!(tip(&mut app), None, "the person's turn again: the start tip was shown already");

    // A second Ordo game: no tips; Crossings: its own.
    app.world_mut().write_message(Command::NewGame);
    app.update();
    app.update();
    press(&mut app, "Start");
    app.update();
    assert_eq!(tip(&mut app), None);
    app.world_mut().write_message(Command::NewGame);
    app.update();
    app.update();
    press(&mut app, "Crossings");
    press(&mut app, "Start");
    app.update();
    assert!(tip(&mut app).is_some_and(|t| t.contains("phalanx")), "{:?}", tip(&mut app));
    // Switched off: gone at once.
    app.world_mut().resource_mut::<Settings>().tips = false;
    app.update();
    assert_eq!(tip(&mut app), None);
    let _ = std::fs::remove_dir_all(dir);
}

/// *Colours* switches the palette at the table at once: the stones and the highlights take the
/// Okabe–Ito colours, the choice is saved, and switching back restores tablero's own.
#[test]
fn the_palette_recolours_the_table_at_once_and_is_saved() {
    use tablero::gui::sets::Colours;
    use tablero::gui::sets::stones::Stone;
    use tablero::rules::Game;
    use tablero::settings::Palette;
    let dir = fresh_dir("palette");
    let config = dir.join("config");
    let mut app = tablero::gui::headless_menu_app(dir.clone());
    app.insert_resource(ConfigDir(Some(config.clone())));
    press(&mut app, "Start");
    app.update();
    let colours = |app: &mut App| -> Vec<(usize, Color)> {
        let world = app.world_mut();
        let stones: Vec<(usize, Handle<StandardMaterial>)> = world
            .query::<(&Stone, &MeshMaterial3d<StandardMaterial>)>()
            .iter(world)
            .map(|(s, m)| (s.side.index(), m.0.clone()))
            .collect();
        let materials = world.resource::<Assets<StandardMaterial>>();
        stones.into_iter().map(|(side, m)| (side, materials.get(&m).unwrap().base_color)).collect()
    };
    assert_eq!(session(&app).game.variant(), tablero::rules::Variant::Ordo);
    for palette in [Palette::OkabeIto, Palette::Classic] {
        app.insert_resource(SettingsOpen(true));
        press_setting(&mut app, Setting::Palette);
        press_setting(&mut app, Setting::Close);
        app.update();
        assert_eq!(settings(&app).palette, palette);
        assert_eq!(Settings::load(&config).0.palette, palette, "saved");
        let want = Colours::of(palette).ordo;
        let seen = colours(&mut app);
        assert!(seen.len() >= 40, "{} stones", seen.len());
        for (side, colour) in seen {
            assert_eq!(colour, want[side], "{palette:?}: a stone of side {side}");
        }
    }
    let _ = std::fs::remove_dir_all(dir);
}
