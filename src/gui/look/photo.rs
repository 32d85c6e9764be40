//! Photo mode: `P` at the table hides every control (panels, buttons, highlights, the
//! keyboard's frame), lets the camera come closer and lower than in play (a macro shot of a
//! tower), and `Enter` saves a picture of what the camera sees at up to 3840 × 2160 into the
//! data folder's `photos/`; `P` again brings the controls back. `tablero photo` does the same
//! headless ([`photo`]).

use crate::gui::error::GuiError;
use crate::gui::frame::board::Layout;
use crate::gui::frame::steps::Screen;
use crate::gui::look::camera::{Orbit, PlayerCamera};
use crate::rules::AnyGame;
use bevy::prelude::*;
use std::collections::HashMap;

/// The size of the pictures photo mode saves.
pub const PHOTO_SIZE: UVec2 = UVec2::new(3840, 2160);

pub use crate::gui::look::camera::{NEAREST, NEAREST_PHOTO, PhotoMode};

/// The line photo mode shows for a moment (it is not in the pictures).
#[derive(Component)]
pub struct PhotoHint {
    since: f32,
}

/// A camera drawing one photo; gone once the picture is written.
#[derive(Component)]
pub struct PhotoCamera;

/// Where the last photo went, or why it could not be saved.
#[derive(Resource, Clone, Debug, Default)]
pub struct LastPhoto(pub Option<Result<std::path::PathBuf, std::sync::Arc<GuiError>>>);

pub fn plugin(app: &mut App) {
    app.init_resource::<PhotoMode>()
        .init_resource::<LastPhoto>()
        .add_systems(OnExit(Screen::Playing), |mut mode: ResMut<PhotoMode>| mode.0 = false)
        .add_systems(Update, (keys, hint).chain().run_if(in_state(Screen::Playing)))
        // After every system that shows or hides a panel or a label this frame.
        .add_systems(
            PostUpdate,
            hide_controls
                .run_if(in_state(Screen::Playing).and_then(photo_on.or_else(resource_changed::<PhotoMode>)))
                .before(bevy::camera::visibility::VisibilitySystems::VisibilityPropagate),
        );
}

/// Photo mode is on (every frame re-hides what a system showed meanwhile).
fn photo_on(mode: Res<PhotoMode>) -> bool {
    mode.0
}

/// The photos' folder: `photos/` in the data folder.
pub fn photo_dir() -> std::path::PathBuf {
    crate::record::data_dir().join("photos")
}

#[allow(clippy::too_many_arguments)]
fn keys(
    mut commands: Commands,
    mut pressed: MessageReader<crate::gui::frame::keymap::Pressed>,
    mut mode: ResMut<PhotoMode>,
    mut last: ResMut<LastPhoto>,
    mut images: ResMut<Assets<Image>>,
    folder: Option<Res<crate::gui::frame::session::SaveFolder>>,
    layout: Res<Layout>,
    cams: Query<&Transform, With<PlayerCamera>>,
    mut orbits: Query<&mut Orbit, With<PlayerCamera>>,
    session: Option<Res<crate::gui::frame::session::Session>>,
) {
    use crate::gui::frame::keymap::{Action, Pressed};
    let actions: Vec<Action> = pressed.read().map(|Pressed(a)| *a).collect();
    if actions.contains(&Action::Photo) {
        mode.0 = !mode.0;
        if !mode.0 {
            // Back in play: the camera no nearer than play allows.
            for mut orbit in &mut orbits {
                orbit.distance = orbit.distance.max(NEAREST);
                orbit.pitch = orbit.pitch.max(0.15);
            }
        }
        let ctor = session.is_some_and(|s| matches!(s.game, AnyGame::Ctor(_)));
        commands.spawn(hint_line(if mode.0 {
            format!(
                "Photo mode: drag and wheel to frame (closer than in play){}, Enter saves a 3840x2160 picture, P leaves",
                if ctor { ", D the doughnut or the flat field" } else { "" }
            )
        } else {
            "Photo mode left".to_string()
        }));
    }
    if mode.0 && actions.contains(&Action::Enter) {
        // In the data folder the games are saved in (a test's own), else the user's.
        let dir = match folder.as_ref().and_then(|f| f.0.clone()) {
            Some(data) => data.join("photos"),
            None => photo_dir(),
        };
        // What the player's camera sees (a table without one: the first player's view).
        let view = cams.iter().next().copied().unwrap_or_else(|| {
            crate::gui::look::camera::Orbit::preset(crate::gui::look::camera::View::First, &layout).transform()
        });
        let result = take(&mut commands, &mut images, view, PHOTO_SIZE, &dir);
        let line = match &result {
            Ok(path) => format!("Saving the photo to {}", path.display()),
            Err(why) => format!("The photo could not be saved: {why}"),
        };
        last.0 = Some(result.map_err(std::sync::Arc::new));
        commands.spawn(hint_line(line));
    }
}

/// Starts drawing a picture from `view` into a new file in `dir`; the camera goes once the
/// picture is written.
fn take(
    commands: &mut Commands,
    images: &mut Assets<Image>,
    view: Transform,
    size: UVec2,
    dir: &std::path::Path,
) -> Result<std::path::PathBuf, GuiError> {
    use bevy::render::view::screenshot::{Screenshot, ScreenshotCaptured, save_to_disk};
    std::fs::create_dir_all(dir).map_err(|source| GuiError::Write { path: dir.to_path_buf(), source })?;
    let stamp =
        std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map(|d| d.as_millis()).unwrap_or_default();
    let path = dir.join(format!("tablero-{stamp}.png"));
    let image = images.add(crate::gui::offscreen::target_image(size.x, size.y));
    let cam = commands
        .spawn((
            Camera3d::default(),
            Camera { order: -10, clear_color: ClearColorConfig::Custom(Color::srgb(0.16, 0.14, 0.13)), ..default() },
            bevy::camera::RenderTarget::from(image.clone()),
            Msaa::Sample4,
            view,
            crate::gui::frame::board::broadcast_layers(false),
            PhotoCamera,
        ))
        .id();
    commands.spawn(Screenshot::image(image)).observe(save_to_disk(path.clone())).observe(
        move |_: On<ScreenshotCaptured>, mut commands: Commands| {
            if let Ok(mut c) = commands.get_entity(cam) {
                c.despawn();
            }
        },
    );
    Ok(path)
}

fn hint_line(text: String) -> impl Bundle {
    (
        Text::new(text),
        TextFont { font_size: FontSize::Px(15.0), ..default() },
        Node { position_type: PositionType::Absolute, top: px(8), left: px(12), ..default() },
        BackgroundColor(Color::srgba(0.0, 0.0, 0.0, 0.6)),
        GlobalZIndex(40),
        Pickable::IGNORE,
        PhotoHint { since: 0.0 },
        DespawnOnExit(Screen::Playing),
    )
}

/// Photo mode's lines go after a few seconds; a newer one replaces an older.
fn hint(mut commands: Commands, time: Res<Time<Real>>, mut hints: Query<(Entity, &mut PhotoHint)>) {
    let mut newest: Option<(Entity, f32)> = None;
    for (e, mut h) in &mut hints {
        // A long first frame (the window was resting) does not skip the line.
        h.since += time.delta_secs().min(0.1);
        if newest.is_none_or(|(_, s)| h.since < s) {
            newest = Some((e, h.since));
        }
    }
    for (e, h) in &hints {
        if h.since > 4.0 || newest.is_some_and(|(n, _)| n != e) {
            commands.entity(e).despawn();
        }
    }
}

/// While photo mode is on, every panel and button is hidden (each keeps the visibility it is
/// given meanwhile, and gets it back when photo mode ends), and so are the highlights and the
/// keyboard's frame (the player camera sees what the broadcast sees: the board, the pieces
/// and the table).
#[allow(clippy::type_complexity)]
fn hide_controls(
    mode: Res<PhotoMode>,
    mut roots: Query<
        (Entity, &mut Visibility),
        (With<Node>, Without<ChildOf>, Without<PhotoHint>, Without<crate::gui::look::render::Backdrop>),
    >,
    mut cams: Query<&mut bevy::camera::visibility::RenderLayers, With<PlayerCamera>>,
    mut kept: Local<HashMap<Entity, Visibility>>,
) {
    if mode.0 {
        for (e, mut vis) in &mut roots {
            if *vis != Visibility::Hidden {
                kept.insert(e, *vis);
                *vis = Visibility::Hidden;
            } else {
                kept.entry(e).or_insert(Visibility::Hidden);
            }
        }
    } else {
        for (e, vis) in kept.drain() {
            if let Ok((_, mut v)) = roots.get_mut(e) {
                *v = vis;
            }
        }
    }
    let layers = if mode.0 {
        crate::gui::frame::board::broadcast_layers(false)
    } else {
        crate::gui::frame::board::player_layers()
    };
    for mut l in &mut cams {
        if *l != layers {
            *l = layers.clone();
        }
    }
}

/// The views `tablero photo` knows (`doughnut` for CTOR only).
pub const VIEWS: [&str; 5] = ["first", "second", "top", "macro", "doughnut"];

/// The camera of a named view of `game`: a player's view, the top view, a close, low shot
/// (Volterra's tallest tower, else the board's middle), or CTOR's field as the torus it is.
pub fn view_of(name: &str, game: &AnyGame) -> Result<Orbit, GuiError> {
    use crate::gui::look::camera::View;
    let layout = Layout::of(game);
    match name {
        // The first player's view; the doughnut, once made, lifts the camera's focus to its
        // centre as it does at the table.
        "doughnut" => match game {
            AnyGame::Ctor(_) => Ok(Orbit::preset(View::First, &layout)),
            _ => Err(GuiError::DoughnutNotCtor),
        },
        "first" => Ok(Orbit::preset(View::First, &layout)),
        "second" => Ok(Orbit::preset(View::Second, &layout)),
        "top" => Ok(Orbit::preset(View::Top, &layout)),
        "macro" => {
            let (files, ranks) = game.board_size();
            let cells = (0..ranks).flat_map(|r| (0..files).map(move |f| crate::rules::Cell::new(f, r)));
            let tallest = match game {
                AnyGame::Volterra(v) => {
                    cells.filter_map(|c| v.tower(c).map(|t| (t.height, c))).max_by_key(|(h, c)| (*h, *c)).map(|x| x.1)
                }
                _ => None,
            };
            let (focus, height) = match tallest {
                Some(c) => (crate::gui::frame::board::cell_pos(&layout, c), crate::gui::sets::piece_top(game, c)),
                None => (Vec3::ZERO, 0.0),
            };
            Ok(Orbit { focus: focus.with_y(height * 0.5), yaw: 0.5, pitch: 0.42, distance: 2.6 + height })
        }
        other => Err(GuiError::View { name: other.to_string(), views: &VIEWS }),
    }
}

/// Renders a position off-screen in the full profile from a named view, and writes a PNG of
/// `size` (at most 3840 × 2160).
pub fn photo(game: AnyGame, out: &std::path::Path, size: UVec2, view: &str) -> Result<(), GuiError> {
    use crate::gui::frame::session::PlayerKind;
    if size.x > PHOTO_SIZE.x || size.y > PHOTO_SIZE.y || size.x < 16 || size.y < 16 {
        return Err(GuiError::PhotoSize { most: PHOTO_SIZE, asked: size });
    }
    let orbit = view_of(view, &game)?;
    let doughnut = view == "doughnut";
    let mut shot = crate::gui::offscreen::Offscreen::with_quality(
        game,
        [PlayerKind::Person; 2],
        size.x,
        size.y,
        Some(crate::gui::look::render::Quality::Full),
    )?;
    shot.app.insert_resource(crate::gui::sets::room::DoughnutView(doughnut));
    let world = shot.app.world_mut();
    let cams: Vec<Entity> = world.query_filtered::<Entity, With<Orbit>>().iter(world).collect();
    for cam in cams {
        // No highlights (what the broadcast sees) and no labels (no UI camera) in a photo.
        world
            .entity_mut(cam)
            .insert((orbit, orbit.transform(), crate::gui::frame::board::broadcast_layers(false)))
            .remove::<IsDefaultUiCamera>();
    }
    shot.save(out)
}
