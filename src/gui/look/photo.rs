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

pub use crate::gui::look::camera::{Inspecting, NEAREST, NEAREST_PHOTO, PhotoMode};

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
        .init_resource::<Inspecting>()
        .add_systems(OnExit(Screen::Playing), |mut commands: Commands| commands.insert_resource(Inspecting::default()))
        .add_systems(
            Update,
            (keys, inspect.run_if(resource_exists::<crate::gui::frame::session::Session>), hint)
                .chain()
                .run_if(in_state(Screen::Playing)),
        )
        // After every system that shows or hides a panel or a label this frame.
        .add_systems(
            PostUpdate,
            hide_controls
                .run_if(in_state(Screen::Playing).and_then(photo_on.or_else(resource_changed::<PhotoMode>)))
                .before(bevy::camera::visibility::VisibilitySystems::VisibilityPropagate),
        )
        .add_systems(
            PostUpdate,
            set_aside
                .run_if(inspecting.or_else(resource_changed::<Inspecting>))
                .before(bevy::camera::visibility::VisibilitySystems::VisibilityPropagate),
        );
}

/// A piece is brought close (every frame sets aside what a rebuild showed meanwhile; once
/// more when it is put back).
fn inspecting(inspecting: Res<Inspecting>) -> bool {
    inspecting.cell.is_some()
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

/// `G` brings the piece under the pointer close (else the keyboard cursor's, the selected
/// one's, or the tallest tower): the camera comes round to it, near, as a piece held in the
/// hand, and the right button turns round it. `G` again, or Escape, puts it back: the view
/// goes back to where it was.
#[allow(clippy::too_many_arguments)]
fn inspect(
    mut commands: Commands,
    mut pressed: MessageReader<crate::gui::frame::keymap::Pressed>,
    mut inspecting: ResMut<Inspecting>,
    mut orbits: Query<&mut Orbit, With<PlayerCamera>>,
    layout: Res<Layout>,
    hovered: Query<&GlobalTransform, With<crate::gui::frame::board::Hovered>>,
    cursor: Option<Res<crate::gui::screens::keyboard::Cursor>>,
    marks: Option<Res<crate::gui::frame::session::Highlights>>,
    session: Res<crate::gui::frame::session::Session>,
) {
    use crate::gui::frame::keymap::{Action, Pressed};
    let actions: Vec<Action> = pressed.read().map(|Pressed(a)| *a).collect();
    if let Some(back) = inspecting.back_to {
        if actions.contains(&Action::Inspect) || actions.contains(&Action::Cancel) {
            for mut orbit in &mut orbits {
                *orbit = back;
            }
            *inspecting = Inspecting::default();
            commands.spawn(hint_line("Put back".to_string())).insert(above_the_controls());
        }
        return;
    }
    if !actions.contains(&Action::Inspect) {
        return;
    }
    let game = &session.game;
    let cell = hovered
        .iter()
        .find_map(|g| crate::gui::frame::board::cell_at(&layout, g.translation()))
        .or(cursor.and_then(|c| c.0))
        .or(marks.and_then(|m| m.selected.first().copied()))
        .or_else(|| tallest(game));
    let Some(c) = cell else { return };
    for mut orbit in &mut orbits {
        inspecting.back_to = Some(*orbit);
        inspecting.cell = Some(c);
        *orbit = inspect_orbit(&layout, game, c, orbit.yaw);
    }
    // Over the table, clear of the panels at the top and the buttons along the bottom.
    commands
        .spawn(hint_line(format!(
            "The piece on {c}, close: drag with the right button to turn it, the wheel to come nearer; G or Escape puts it back"
        )))
        .insert(above_the_controls());
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

/// Where a line about a piece brought close goes: at the table the panels stay, so it stands
/// above the buttons along the bottom.
fn above_the_controls() -> Node {
    Node { position_type: PositionType::Absolute, bottom: px(110), left: px(12), ..default() }
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
            let (focus, height) = match tallest(game) {
                Some(c) => (crate::gui::frame::board::cell_pos(&layout, c), crate::gui::sets::piece_top(game, c)),
                None => (Vec3::ZERO, 0.0),
            };
            Ok(Orbit { focus: focus.with_y(height * 0.5), yaw: 0.5, pitch: 0.42, distance: 2.6 + height })
        }
        other => Err(GuiError::View { name: other.to_string(), views: &VIEWS }),
    }
}

/// Volterra's tallest tower (the last of the tallest, cell by cell); none in other games.
fn tallest(game: &AnyGame) -> Option<crate::rules::Cell> {
    let AnyGame::Volterra(v) = game else { return None };
    let (files, ranks) = game.board_size();
    let cells = (0..ranks).flat_map(|r| (0..files).map(move |f| crate::rules::Cell::new(f, r)));
    cells.filter_map(|c| v.tower(c).map(|t| (t.height, c))).max_by_key(|(h, c)| (*h, *c)).map(|x| x.1)
}

/// Whether a Volterra pawn stands on `c`.
fn pawn_on(game: &AnyGame, c: crate::rules::Cell) -> bool {
    use crate::rules::Side;
    matches!(game, AnyGame::Volterra(v) if [Side::First, Side::Second].iter().any(|s| v.pawn(*s) == Some(c)))
}

/// Renders a position off-screen in the full profile from a named view, and writes a PNG of
/// `size` (at most 3840 × 2160).
pub fn photo(game: AnyGame, out: &std::path::Path, size: UVec2, view: &str) -> Result<(), GuiError> {
    shoot(game, out, size, view, None)
}

/// Renders one Volterra tower or pawn alone (`tablero photo --inspect`): the piece at `cell`,
/// centred, on the studio's sweep, from the same angle and distance for every cell of the
/// same height, so that two close-ups differ only by the piece.
pub fn inspect_photo(game: AnyGame, out: &std::path::Path, size: UVec2, cell: &str) -> Result<(), GuiError> {
    let AnyGame::Volterra(v) = &game else { return Err(GuiError::InspectNotVolterra) };
    let c: crate::rules::Cell =
        cell.parse().map_err(|e: crate::rules::BadSquare| GuiError::InspectCell(e.to_string()))?;
    let (files, ranks) = game.board_size();
    if c.file >= files || c.rank >= ranks {
        return Err(GuiError::InspectCell(format!("{c} is off the {files}x{ranks} board")));
    }
    if v.tower(c).is_none_or(|t| t.height == 0) && !pawn_on(&game, c) {
        return Err(GuiError::InspectEmpty(c.to_string()));
    }
    shoot(game, out, size, "inspect", Some(c))
}

/// How close a piece is brought, and from where it is seen: a little above, turned a little.
pub fn inspect_orbit(layout: &Layout, game: &AnyGame, c: crate::rules::Cell, yaw: f32) -> Orbit {
    let top = crate::gui::sets::piece_top(game, c);
    // A pawn on the tower makes it 3 cm taller.
    let height = top + if pawn_on(game, c) { 0.6 } else { 0.0 };
    let focus = crate::gui::frame::board::cell_pos(layout, c).with_y(height.max(0.2) * 0.5);
    Orbit { focus, yaw, pitch: 0.55, distance: 1.2 + height.max(0.2) * 1.7 }
}

/// Shows only the piece at a cell: every other piece, the board, the box, the table and the
/// room are hidden, and the studio's sweep stands round the piece (`tablero photo --inspect`).
#[derive(Resource, Clone, Copy, Debug)]
pub struct Alone(pub crate::rules::Cell);

#[allow(clippy::type_complexity, clippy::too_many_arguments)]
fn alone(
    mut commands: Commands,
    alone: Res<Alone>,
    layout: Res<Layout>,
    mut items: Query<
        (&GlobalTransform, &mut Visibility),
        (
            Or<(
                With<crate::gui::frame::board::BoardItem>,
                With<crate::gui::frame::board::Table>,
                With<super::studio::Studio>,
            )>,
            Without<ChildOf>,
        ),
    >,
    mut staged: Local<bool>,
    mut meshes: ResMut<Assets<Mesh>>,
    mut materials: ResMut<Assets<StandardMaterial>>,
    mut images: ResMut<Assets<Image>>,
) {
    let at = crate::gui::frame::board::cell_pos(&layout, alone.0);
    for (g, mut vis) in &mut items {
        let want = if crate::gui::frame::board::stands_on(g.translation(), at) {
            Visibility::Inherited
        } else {
            Visibility::Hidden
        };
        if *vis != want {
            *vis = want;
        }
    }
    if !*staged {
        *staged = true;
        super::studio::stage(&mut commands, &mut meshes, &mut materials, &mut images, at.with_y(0.0));
    }
}

/// A piece set aside while another is brought close at the table.
#[derive(Component)]
pub struct SetAside;

/// While a piece is brought close at the table (`G`), the other pieces are set aside, so that
/// none stands between it and the eye; the board, the box and the table stay. Put back, they
/// come back.
#[allow(clippy::type_complexity)]
fn set_aside(
    mut commands: Commands,
    inspecting: Res<Inspecting>,
    layout: Res<Layout>,
    mut pieces: Query<
        (Entity, &GlobalTransform, &mut Visibility, Has<SetAside>),
        (With<crate::gui::frame::board::BoardItem>, Without<ChildOf>),
    >,
) {
    let at = inspecting.cell.map(|c| crate::gui::frame::board::cell_pos(&layout, c));
    for (e, g, mut vis, aside) in &mut pieces {
        let p = g.translation();
        // A piece (above the felt) standing elsewhere.
        let other = at.is_some_and(|at| p.y > 0.02 && !crate::gui::frame::board::stands_on(p, at));
        if other && !aside && *vis != Visibility::Hidden {
            *vis = Visibility::Hidden;
            commands.entity(e).insert(SetAside);
        } else if !other && aside {
            *vis = Visibility::Inherited;
            commands.entity(e).remove::<SetAside>();
        }
    }
}

fn shoot(
    game: AnyGame,
    out: &std::path::Path,
    size: UVec2,
    view: &str,
    inspect: Option<crate::rules::Cell>,
) -> Result<(), GuiError> {
    use crate::gui::frame::session::PlayerKind;
    if size.x > PHOTO_SIZE.x || size.y > PHOTO_SIZE.y || size.x < 16 || size.y < 16 {
        return Err(GuiError::PhotoSize { most: PHOTO_SIZE, asked: size });
    }
    let orbit = match inspect {
        Some(c) => inspect_orbit(&Layout::of(&game), &game, c, 0.55),
        None => view_of(view, &game)?,
    };
    let doughnut = view == "doughnut";
    let mut shot = crate::gui::offscreen::Offscreen::with_quality(
        game,
        [PlayerKind::Person; 2],
        size.x,
        size.y,
        Some(crate::gui::look::render::Quality::Full),
    )?;
    shot.app.insert_resource(crate::gui::sets::room::DoughnutView(doughnut));
    if let Some(c) = inspect {
        shot.app.insert_resource(Alone(c)).add_systems(
            PostUpdate,
            alone
                .run_if(resource_exists::<Alone>)
                .before(bevy::camera::visibility::VisibilitySystems::VisibilityPropagate),
        );
    }
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
