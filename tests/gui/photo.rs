//! Photo mode: `P` hides every control and brings each back as it was, `Enter` draws a
//! 3840 x 2160 picture into the photos folder, `Ctrl+P` still pauses the computer; `tablero
//! photo` renders a position from a named view, and refuses a bad view or size in one line.

use crate::keyboard::key;
use bevy::prelude::*;
use tablero::gui::look::photo::{LastPhoto, PHOTO_SIZE, PhotoCamera, PhotoMode};

/// The root panels' visibility, by entity.
fn roots(app: &mut App) -> Vec<(Entity, Visibility)> {
    let world = app.world_mut();
    let mut v: Vec<(Entity, Visibility)> = world
        .query_filtered::<(Entity, &Visibility), (With<Node>, Without<ChildOf>)>()
        .iter(world)
        .map(|(e, v)| (e, *v))
        .collect();
    v.sort_by_key(|(e, _)| *e);
    v
}

#[test]
fn photo_mode_hides_every_control_and_gives_each_back() {
    let dir = crate::saving::fresh_dir("photo");
    let mut app = tablero::gui::headless_menu_app(dir.clone());
    app.init_resource::<ButtonInput<KeyCode>>();
    // The table's keys, as the window has them (Ctrl+P among them).
    app.add_plugins(tablero::gui::frame::input::plugin).add_message::<tablero::gui::look::camera::View>();
    crate::saving::press(&mut app, "Start");
    app.update();
    let before = roots(&mut app);
    assert!(before.iter().any(|(_, v)| *v != Visibility::Hidden), "some panel is shown at the table");
    key(&mut app, KeyCode::KeyP);
    assert!(app.world().resource::<PhotoMode>().0);
    let hint = {
        let world = app.world_mut();
        world.query::<&Text>().iter(world).any(|t| t.0.starts_with("Photo mode:"))
    };
    assert!(hint, "a line says how photo mode works");
    for (e, _) in &before {
        assert_eq!(app.world().get::<Visibility>(*e), Some(&Visibility::Hidden), "every panel is hidden");
    }
    // Enter: a camera draws the picture at 3840 x 2160, into photos/ in the data folder.
    key(&mut app, KeyCode::Enter);
    let Some(Ok(path)) = app.world().resource::<LastPhoto>().0.clone() else { panic!("no photo") };
    assert_eq!(path.parent(), Some(dir.join("photos").as_path()));
    let world = app.world_mut();
    let targets: Vec<bevy::camera::RenderTarget> =
        world.query_filtered::<&bevy::camera::RenderTarget, With<PhotoCamera>>().iter(world).cloned().collect();
    assert_eq!(targets.len(), 1, "one photo camera");
    let bevy::camera::RenderTarget::Image(image) = &targets[0] else { panic!("the photo draws into an image") };
    let size = world.resource::<Assets<Image>>().get(&image.handle).unwrap().size();
    assert_eq!(size, PHOTO_SIZE);
    // P again: every panel as it was.
    key(&mut app, KeyCode::KeyP);
    assert!(!app.world().resource::<PhotoMode>().0);
    let after: Vec<(Entity, Visibility)> =
        roots(&mut app).into_iter().filter(|(e, _)| before.iter().any(|b| b.0 == *e)).collect();
    assert_eq!(after, before, "every panel back as it was");
    // Ctrl+P is the computer's pause, not photo mode.
    use tablero::gui::frame::computer::ComputerPace;
    let paused = app.world().resource::<ComputerPace>().paused;
    app.world_mut().resource_mut::<ButtonInput<KeyCode>>().press(KeyCode::ControlLeft);
    key(&mut app, KeyCode::KeyP);
    app.update();
    assert!(!app.world().resource::<PhotoMode>().0);
    assert_eq!(app.world().resource::<ComputerPace>().paused, !paused, "Ctrl+P paused the computer");
    let _ = std::fs::remove_dir_all(dir);
}

/// `G` at the table brings a piece close (the camera round to it, nearer than play allows), the
/// right button turns round it, and `G` again or Escape puts it back: the view as it was.
#[test]
fn g_brings_a_piece_close_and_puts_it_back() {
    use tablero::gui::frame::animate::Speed;
    use tablero::gui::frame::board::{Layout, cell_pos};
    use tablero::gui::look::camera::{NEAREST, Orbit, PlayerCamera, View};
    use tablero::gui::look::photo::Inspecting;
    let mut app = crate::pine_box::start("Volterra", Speed::Instant, "inspect");
    app.init_resource::<ButtonInput<KeyCode>>();
    app.add_plugins(tablero::gui::frame::input::plugin).add_message::<View>();
    let layout = *app.world().resource::<Layout>();
    // Which tiles are shown, by cell.
    let shown = |app: &mut App| -> Vec<(tablero::rules::Cell, bool)> {
        let world = app.world_mut();
        world
            .query::<(&tablero::gui::sets::pine::Tile, &Visibility)>()
            .iter(world)
            .filter_map(|(t, v)| t.cell.map(|cell| (cell, *v != Visibility::Hidden)))
            .collect()
    };
    let first = Orbit::preset(View::First, &layout);
    let cam = app.world_mut().spawn((first, first.transform(), PlayerCamera)).id();
    crate::table::settle(&mut app);
    assert!(!shown(&mut app).is_empty(), "the set is on the table");
    let orbit = |app: &App| *app.world().get::<Orbit>(cam).unwrap();
    for put_back in [KeyCode::KeyG, KeyCode::Escape] {
        key(&mut app, KeyCode::KeyG);
        let inspecting = *app.world().resource::<Inspecting>();
        let c = inspecting.cell.expect("a piece is brought close");
        let close = orbit(&app);
        assert!(close.distance < NEAREST, "closer than play allows: {}", close.distance);
        let at = cell_pos(&layout, c);
        assert!((close.focus.x - at.x).abs() < 1e-3 && (close.focus.z - at.z).abs() < 1e-3, "round the piece on {c}");
        let hint = {
            let world = app.world_mut();
            world.query::<&Text>().iter(world).any(|t| t.0.contains("G or Escape puts it back"))
        };
        assert!(hint, "a line says how to turn it and put it back");
        // The other pieces are set aside; the piece brought close stays.
        let tiles = shown(&mut app);
        assert!(tiles.iter().any(|(cell, v)| *cell == c && *v), "the piece on {c} is shown");
        assert!(tiles.iter().filter(|(cell, _)| *cell != c).all(|(_, v)| !v), "the others are set aside");
        key(&mut app, put_back);
        assert!(shown(&mut app).iter().all(|(_, v)| *v), "{put_back:?} brings every piece back");
        assert_eq!(orbit(&app), first, "{put_back:?} puts it back");
        assert_eq!(app.world().resource::<Inspecting>().cell, None);
    }
}
