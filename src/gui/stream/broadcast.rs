//! The broadcast window: a second window showing the same table from its own camera, with no
//! buttons, hover marks or choosers, for a streaming tool to capture. Overlays (names, whose
//! turn, the score, the last move in large type, the move list, the result) are switched on
//! and off by keys in either window; the layout fits 16:9 and 9:16.

use crate::gui::frame::board::Layout;
use crate::gui::frame::clock::CtorTable;
use crate::gui::frame::session::Session;
use crate::gui::frame::steps::{Screen, TableSystems};
use crate::gui::look::camera::{Orbit, View};
use crate::gui::theme::side_colour;
use crate::rules::{Game, Side};
use crate::table::words::{banner_line, numbered_moves, score_line};
use bevy::prelude::*;

/// The broadcast window's size when it opens (1920 × 1080 unless asked otherwise).
#[derive(Resource, Clone, Copy, Debug, PartialEq, Eq)]
pub struct Broadcast {
    pub size: UVec2,
    /// Open it as soon as the app starts (`tablero --broadcast`).
    pub at_start: bool,
}

impl Default for Broadcast {
    fn default() -> Broadcast {
        Broadcast { size: UVec2::new(1920, 1080), at_start: false }
    }
}

impl Broadcast {
    /// The sizes the menu offers: full HD, 720p, and full HD on end for a vertical stream.
    pub const SIZES: [UVec2; 3] = [UVec2::new(1920, 1080), UVec2::new(1280, 720), UVec2::new(1080, 1920)];

    pub fn next_size(size: UVec2) -> UVec2 {
        let i = Self::SIZES.iter().position(|s| *s == size).map_or(0, |i| (i + 1) % Self::SIZES.len());
        Self::SIZES[i]
    }
}

/// Open the broadcast window (the menu's button, `F8`).
#[derive(Message, Clone, Copy, Debug)]
pub struct OpenBroadcast;

/// Which overlays the broadcast shows.
#[derive(Resource, Clone, Copy, Debug, PartialEq, Eq)]
pub struct Overlays {
    pub names: bool,
    pub turn: bool,
    pub score: bool,
    pub last_move: bool,
    pub moves: bool,
    pub result: bool,
    /// A plain chroma-key green behind the board instead of the table.
    pub chroma: bool,
}

impl Default for Overlays {
    fn default() -> Overlays {
        Overlays { names: true, turn: true, score: true, last_move: true, moves: true, result: true, chroma: false }
    }
}

/// The broadcast's camera: into its window, or (a film) into an image of this aspect.
#[derive(Component, Clone, Copy, Debug)]
pub struct BroadcastCamera {
    pub window: Option<Entity>,
    pub aspect: f32,
}

/// What makes a camera the broadcast's: the director, and only what the broadcast may see.
pub fn broadcast_camera(window: Option<Entity>, aspect: f32) -> impl Bundle {
    (BroadcastCamera { window, aspect }, crate::gui::frame::board::broadcast_layers(false), Director::default())
}

/// One overlay's text on the broadcast.
#[derive(Component, Clone, Copy, Debug, PartialEq, Eq)]
pub enum Overlay {
    /// A side's player: its name in the game, and who plays it.
    Name(Side),
    Turn,
    Score,
    LastMove,
    Moves,
    Result,
}

/// The overlays' root node, for the broadcast camera.
#[derive(Component)]
struct OverlayRoot;

/// The broadcast window's plugin (the windowed app adds it; tests add it to a headless table).
pub fn plugin(app: &mut App) {
    app.init_resource::<Broadcast>()
        .init_resource::<Overlays>()
        .add_message::<OpenBroadcast>()
        .add_systems(PostStartup, |b: Res<Broadcast>, mut open: MessageWriter<OpenBroadcast>| {
            if b.at_start {
                open.write(OpenBroadcast);
            }
        })
        .add_systems(Update, (open_window.run_if(on_message::<OpenBroadcast>), close_with_window, keys))
        .init_resource::<Direction>()
        .init_resource::<Directing>()
        .add_systems(
            Update,
            (direct, refresh, chroma_key.run_if(resource_changed::<Overlays>)).in_set(TableSystems::Present),
        );
}

/// What an overlay says about the game at the table.
pub fn overlay_text(kind: Overlay, session: &Session, clock: f32) -> String {
    let game = &session.game;
    let v = game.variant();
    match kind {
        Overlay::Name(side) => format!("{}: {}", v.side_name(side), session.players[side.index()].label()),
        Overlay::Turn if game.outcome().is_some() => String::new(),
        Overlay::Turn => format!("{} to move", v.side_name(game.side_to_move())),
        Overlay::Score => score_line(session, game, clock),
        Overlay::LastMove => session.history.last().map(|(_, m)| m.to_string()).unwrap_or_default(),
        Overlay::Moves => numbered_moves(session, 16),
        Overlay::Result => game.outcome().and(banner_line(game)).unwrap_or_default(),
    }
}

fn shown(kind: Overlay, on: &Overlays) -> bool {
    match kind {
        Overlay::Name(_) => on.names,
        Overlay::Turn => on.turn,
        Overlay::Score => on.score,
        Overlay::LastMove => on.last_move,
        Overlay::Moves => on.moves,
        Overlay::Result => on.result,
    }
}

fn text(size: f32, colour: Color, kind: Overlay) -> impl Bundle {
    (
        Text::new(""),
        TextFont { font_size: FontSize::Px(size), ..default() },
        TextColor(colour),
        TextShadow::default(),
        Pickable::IGNORE,
        kind,
    )
}

/// Room a window's frame and a desktop's panel take on a screen, in logical pixels.
const SCREEN_MARGIN: UVec2 = UVec2::new(32, 80);

/// The size the broadcast window opens at on a screen of `screen` logical pixels (none known:
/// as chosen): the chosen size where it fits with room for the window's frame and a panel,
/// else the largest size of exactly the same shape that fits.
pub fn fitted(wanted: UVec2, screen: Option<UVec2>) -> UVec2 {
    let Some(screen) = screen else { return wanted };
    let room = screen.saturating_sub(SCREEN_MARGIN).max(UVec2::splat(16));
    if wanted.x <= room.x && wanted.y <= room.y {
        return wanted;
    }
    let gcd = |mut a: u32, mut b: u32| {
        while b != 0 {
            (a, b) = (b, a % b);
        }
        a.max(1)
    };
    let unit = wanted / gcd(wanted.x, wanted.y);
    let steps = (room.x / unit.x).min(room.y / unit.y);
    if steps > 0 && unit.min_element() * steps >= 16 {
        return unit * steps;
    }
    // A shape whose smallest exact step does not fit: as near to it as whole pixels go.
    let k = (room.x as f32 / wanted.x as f32).min(room.y as f32 / wanted.y as f32);
    UVec2::new((wanted.x as f32 * k) as u32, (wanted.y as f32 * k) as u32).max(UVec2::splat(16))
}

/// Opens the window, its camera and its overlays (once), at the chosen size where it fits on
/// the screen, else smaller in the same shape (the panel's line says so).
fn open_window(
    mut commands: Commands,
    settings: Res<Broadcast>,
    existing: Query<(), With<BroadcastCamera>>,
    layout: Res<Layout>,
    monitors: Query<&bevy::window::Monitor, With<bevy::window::PrimaryMonitor>>,
    notice: Option<ResMut<crate::gui::frame::session::Notice>>,
) {
    if !existing.is_empty() {
        return; // one broadcast window at most
    }
    let screen = monitors.iter().next().map(|m| {
        let scale = m.scale_factor.max(0.1);
        UVec2::new((m.physical_width as f64 / scale) as u32, (m.physical_height as f64 / scale) as u32)
    });
    let size = fitted(settings.size, screen);
    if size != settings.size
        && let (Some(screen), Some(mut notice)) = (screen, notice)
    {
        notice.say(format!(
            "The broadcast window opens at {}x{}: {}x{} does not fit this {}x{} screen",
            size.x, size.y, settings.size.x, settings.size.y, screen.x, screen.y
        ));
    }
    let window = commands
        .spawn(Window {
            title: "tablero broadcast".into(),
            resolution: bevy::window::WindowResolution::new(size.x, size.y),
            ..default()
        })
        .id();
    let orbit = Orbit::preset(View::First, &layout);
    let camera = commands
        .spawn((
            Camera3d::default(),
            Camera { order: 2, ..default() },
            bevy::camera::RenderTarget::Window(bevy::window::WindowRef::Entity(window)),
            orbit,
            orbit.transform(),
            Msaa::Sample4,
            broadcast_camera(Some(window), size.x as f32 / size.y as f32),
        ))
        .id();
    spawn_overlays(&mut commands, camera, size);
}

/// The overlays: names and the score along the top, whose turn between them, the last move
/// in large type at the bottom, the move list on the right (landscape only), the result in
/// the middle. A portrait layout stacks them above and below the board.
pub(crate) fn spawn_overlays(commands: &mut Commands, camera: Entity, size: UVec2) {
    let portrait = size.y > size.x;
    // Sizes are for 1080 pixels across the short side; other pictures scale them.
    let k = size.x.min(size.y) as f32 / 1080.0;
    let text = |px_size: f32, colour: Color, kind: Overlay| text(px_size * k, colour, kind);
    let px = |v: f32| Val::Px(v * k);
    let white = Color::WHITE;
    let panel = BackgroundColor(Color::srgba(0.03, 0.02, 0.02, 0.6));
    let corner = |left: bool| Node {
        position_type: PositionType::Absolute,
        top: px(16.0),
        left: if left { px(16.0) } else { Val::Auto },
        right: if left { Val::Auto } else { px(16.0) },
        padding: UiRect::all(px(10.0)),
        flex_direction: FlexDirection::Column,
        ..default()
    };
    commands
        .spawn((
            Node { width: percent(100), height: percent(100), ..default() },
            UiTargetCamera(camera),
            Pickable::IGNORE,
            OverlayRoot,
        ))
        .with_children(|root| {
            if portrait {
                root.spawn((
                    Node {
                        position_type: PositionType::Absolute,
                        top: px(20.0),
                        width: percent(100),
                        flex_direction: FlexDirection::Column,
                        align_items: AlignItems::Center,
                        row_gap: px(6.0),
                        ..default()
                    },
                    Pickable::IGNORE,
                ))
                .with_children(|top| {
                    top.spawn(text(40.0, white, Overlay::Name(Side::First)));
                    top.spawn(text(40.0, white, Overlay::Name(Side::Second)));
                    top.spawn(text(34.0, Color::srgb(1.0, 0.85, 0.4), Overlay::Turn));
                    top.spawn(text(26.0, white, Overlay::Score));
                });
            } else {
                root.spawn((corner(true), panel, Pickable::IGNORE)).with_children(|c| {
                    c.spawn(text(34.0, white, Overlay::Name(Side::First)));
                    c.spawn(text(34.0, white, Overlay::Name(Side::Second)));
                    c.spawn(text(22.0, white, Overlay::Score));
                });
                root.spawn((
                    Node {
                        position_type: PositionType::Absolute,
                        top: px(16.0),
                        width: percent(100),
                        justify_content: JustifyContent::Center,
                        ..default()
                    },
                    Pickable::IGNORE,
                ))
                .with_child(text(36.0, Color::srgb(1.0, 0.85, 0.4), Overlay::Turn));
                root.spawn((corner(false), panel, Pickable::IGNORE)).with_child(text(22.0, white, Overlay::Moves));
            }
            // The evaluation bar (`F12`) at the left edge, below the names.
            root.spawn((
                Node {
                    position_type: PositionType::Absolute,
                    left: px(20.0),
                    top: if portrait { percent(30) } else { percent(32) },
                    ..default()
                },
                Pickable::IGNORE,
            ))
            .with_children(|p| {
                crate::gui::stream::eval::spawn_bar(
                    p,
                    crate::gui::stream::eval::Bar { broadcast: true },
                    360.0 * k,
                    24.0 * k,
                )
            });
            root.spawn((
                Node {
                    position_type: PositionType::Absolute,
                    bottom: px(if portrait { 60.0 } else { 24.0 }),
                    width: percent(100),
                    justify_content: JustifyContent::Center,
                    ..default()
                },
                Pickable::IGNORE,
            ))
            .with_child(text(if portrait { 72.0 } else { 64.0 }, white, Overlay::LastMove));
            root.spawn((
                Node {
                    position_type: PositionType::Absolute,
                    top: percent(42),
                    width: percent(100),
                    justify_content: JustifyContent::Center,
                    ..default()
                },
                Pickable::IGNORE,
            ))
            .with_child(text(
                if portrait { 40.0 } else { 48.0 },
                Color::srgb(1.0, 0.95, 0.6),
                Overlay::Result,
            ));
        });
}

/// The broadcast closes with its window (the player's window goes on).
fn close_with_window(
    mut commands: Commands,
    cams: Query<(Entity, &BroadcastCamera)>,
    windows: Query<(), With<Window>>,
    roots: Query<Entity, With<OverlayRoot>>,
) {
    for (cam, b) in &cams {
        if b.window.is_some_and(|w| windows.get(w).is_err()) {
            commands.entity(cam).despawn();
            for root in &roots {
                commands.entity(root).despawn();
            }
        }
    }
}

/// `F8` opens the broadcast; `F2` to `F7` switch its overlays: names, whose turn, score, last
/// move, move list, result; `F9` cycles the director's shots; `F10` switches the chroma key;
/// `F12` the evaluation bar.
fn keys(
    mut pressed: MessageReader<crate::gui::frame::keymap::Pressed>,
    mut on: ResMut<Overlays>,
    mut direction: ResMut<Direction>,
    mut open: MessageWriter<OpenBroadcast>,
    mut eval: ResMut<crate::gui::stream::eval::Evaluation>,
) {
    use crate::gui::frame::keymap::{Action, Pressed};
    for Pressed(action) in pressed.read() {
        match action {
            Action::BroadcastBar => eval.broadcast = !eval.broadcast,
            Action::Broadcast => {
                open.write(OpenBroadcast);
            }
            Action::Director => *direction = direction.next(),
            Action::ChromaKey => on.chroma = !on.chroma,
            Action::Overlay(i) => {
                let flag = match i {
                    0 => &mut on.names,
                    1 => &mut on.turn,
                    2 => &mut on.score,
                    3 => &mut on.last_move,
                    4 => &mut on.moves,
                    _ => &mut on.result,
                };
                *flag = !*flag;
            }
            _ => {}
        }
    }
}

/// How the broadcast's camera chooses its shots (`F9` cycles them).
#[derive(Resource, Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Direction {
    /// Frame each move's cells as it plays, then ease back to the whole table and orbit
    /// slowly while the table rests.
    #[default]
    Auto,
    /// The whole table from above.
    Top,
    /// The whole table from the first player's side.
    First,
    /// The whole table from the second player's side.
    Second,
    /// Frame each move and stay on it.
    Follow,
}

impl Direction {
    pub fn next(self) -> Direction {
        match self {
            Direction::Auto => Direction::Top,
            Direction::Top => Direction::First,
            Direction::First => Direction::Second,
            Direction::Second => Direction::Follow,
            Direction::Follow => Direction::Auto,
        }
    }
}

/// The director's state on the broadcast camera: the shot it eases towards, and how long it
/// has held it. Driven by the table's clock alone, so a record replayed twice gives the same
/// camera path.
#[derive(Component, Clone, Debug, Default)]
pub struct Director {
    /// The framing of the last move's cells, and the seconds since the table settled on it.
    shot: Option<(Orbit, f32)>,
    /// The slow orbit's turn so far.
    drift: f32,
    /// Where the last move happens: kept in the picture while it animates.
    points: Vec<Vec3>,
    /// Seconds the camera has rested on the whole table since the last move.
    idle: f32,
}

/// Seconds a shot of a move is held after the table settles, and how fast the camera eases.
const HOLD: f32 = 1.2;
const EASE: f32 = 3.0;
/// Radians a second of the slow orbit at rest.
const DRIFT: f32 = 0.06;
/// Seconds the slow orbit goes on after the last move; then the camera holds still and the
/// broadcast window rests (draws nothing) until something happens.
pub const ORBIT_FOR: f32 = 30.0;

/// Whether the director is moving the camera (the table keeps drawing meanwhile).
#[derive(Resource, Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Directing(pub bool);

/// Where an effect happens on the board (border cells of CTOR's ring lie past the edges).
pub fn effect_points(layout: &Layout, effect: &crate::rules::Effect) -> Vec<Vec3> {
    use crate::rules::Effect;
    let at = |c: crate::rules::Cell| crate::gui::frame::board::cell_pos(layout, c);
    match effect {
        Effect::Moved { from, to } | Effect::PawnMoved { from, to, .. } | Effect::Stacked { from, to, .. } => {
            vec![at(*from), at(*to)]
        }
        Effect::Captured { at: c }
        | Effect::Removed { at: c }
        | Effect::Locked { at: c }
        | Effect::Placed { at: c, .. }
        | Effect::PawnPlaced { at: c, .. }
        | Effect::Flipped { at: c, .. }
        | Effect::SecretRevealed { at: c, .. } => vec![at(*c)],
        Effect::Border { file, rank, .. } => {
            let (fx, rz) = ((layout.files as f32 - 1.0) / 2.0, (layout.ranks as f32 - 1.0) / 2.0);
            vec![Vec3::new(*file as f32 - fx, crate::gui::frame::board::BOARD_TOP, rz - *rank as f32)]
        }
    }
}

/// The shot that frames these points from the side of `rest`, never lower than a steep
/// angle over the table and never further than the whole table.
pub fn shot_of(points: &[Vec3], rest: Orbit) -> Orbit {
    let (min, max) =
        points.iter().fold((Vec3::splat(f32::MAX), Vec3::splat(f32::MIN)), |(a, b), p| (a.min(*p), b.max(*p)));
    let centre = ((min + max) / 2.0).with_y(0.0);
    let extent = (max - min).with_y(0.0).length();
    Orbit {
        focus: centre,
        yaw: rest.yaw,
        pitch: rest.pitch.max(1.05),
        distance: (extent * 1.5 + 6.0).min(rest.distance),
    }
}

/// Whether every point is inside the picture of a camera at `orbit` (a margin kept), for a
/// picture `aspect` wide for its height.
pub fn frames(orbit: &Orbit, aspect: f32, points: &[Vec3]) -> bool {
    let view = orbit.transform().to_matrix().inverse();
    let proj = Mat4::perspective_rh(std::f32::consts::FRAC_PI_4, aspect, 0.1, 1000.0);
    points.iter().all(|p| {
        let ndc = proj.project_point3(view.transform_point3(*p));
        ndc.x.abs() <= 0.92 && ndc.y.abs() <= 0.92 && (0.0..=1.0).contains(&ndc.z)
    })
}

/// The same orbit moved back until it frames the points (never nearer than it was).
fn back_off(mut orbit: Orbit, aspect: f32, points: &[Vec3]) -> Orbit {
    for _ in 0..40 {
        if points.is_empty() || frames(&orbit, aspect, points) {
            break;
        }
        orbit.distance *= 1.08;
    }
    orbit
}

fn ease(from: Orbit, to: Orbit, k: f32) -> Orbit {
    let k = k.clamp(0.0, 1.0);
    let yaw = from.yaw + (to.yaw - from.yaw) * k;
    Orbit {
        focus: from.focus.lerp(to.focus, k),
        yaw,
        pitch: from.pitch + (to.pitch - from.pitch) * k,
        distance: from.distance + (to.distance - from.distance) * k,
    }
}

/// The director: each move played is framed (its from and to cells, captures, a whole CTOR
/// cascade with its border copies, a Volterra split) while it animates, held, then eased back
/// to the whole table; at rest the camera orbits slowly. The other modes hold a fixed view.
#[allow(clippy::too_many_arguments)]
fn direct(
    layout: Res<Layout>,
    time: Res<Time>,
    direction: Res<Direction>,
    mut played: MessageReader<crate::gui::frame::session::Played>,
    mut rebuilt: MessageReader<crate::gui::frame::board::Rebuild>,
    tweens: Query<(), With<crate::gui::frame::animate::Tween>>,
    mut cams: Query<(&mut Orbit, &mut Transform, &mut Director, &BroadcastCamera)>,
    windows: Query<&Window>,
    mut directing: ResMut<Directing>,
    settings: Option<Res<crate::settings::Settings>>,
    showpiece: Res<crate::gui::sets::room::Showpiece>,
) {
    let dt = time.delta_secs();
    // Reduced motion: the camera cuts to each shot and never drifts.
    let reduced = crate::gui::screens::prefs::reduced(settings);
    let mut points: Vec<Vec3> = played
        .read()
        .flat_map(|p| p.parts.iter().flatten().flat_map(|e| effect_points(&layout, e)).collect::<Vec<_>>())
        .collect();
    // CTOR's doughnut turns each move's square to the front itself: the shot frames the
    // whole doughnut, at its height, whatever moved.
    let doughnut =
        showpiece.0.map(|(c, reach)| [Vec3::X, -Vec3::X, Vec3::Z, -Vec3::Z, Vec3::Y, -Vec3::Y].map(|v| c + v * reach));
    if let Some(bounds) = doughnut
        && !points.is_empty()
    {
        points = bounds.to_vec();
    }
    let rebuilt = rebuilt.read().count() > 0;
    let moving = !tweens.is_empty();
    let mut busy = false;
    for (mut orbit, mut tf, mut director, b) in &mut cams {
        let aspect = b.window.and_then(|w| windows.get(w).ok()).map_or(b.aspect, |w| w.width() / w.height().max(1.0));
        let view = match *direction {
            Direction::Top => Some(View::Top),
            Direction::First => Some(View::First),
            Direction::Second => Some(View::Second),
            Direction::Auto | Direction::Follow => None,
        };
        // A little further back than the player's view, so the slow orbit keeps every
        // corner in the picture.
        let mut rest = Orbit::preset(view.unwrap_or(View::First), &layout);
        rest.distance *= 1.2;
        if let Some(bounds) = &doughnut {
            // The whole doughnut in the picture, at its height.
            rest.focus.y = (bounds[4].y + bounds[5].y) / 2.0;
            rest = back_off(rest, aspect, bounds);
        }
        if rebuilt || layout.is_changed() {
            director.shot = None;
            director.idle = 0.0;
        }
        if !points.is_empty() {
            director.idle = 0.0;
            director.points = points.clone();
            if view.is_none() {
                let mut from = rest;
                from.yaw += director.drift;
                let mut shot = shot_of(&points, from);
                if doughnut.is_some() {
                    shot.focus.y = rest.focus.y;
                }
                director.shot = Some((back_off(shot, aspect, &points), 0.0));
            }
        }
        let want = match (&mut director.shot, *direction) {
            (Some((shot, held)), Direction::Auto) => {
                if !moving {
                    *held += dt;
                }
                if *held > HOLD {
                    director.shot = None;
                    rest
                } else {
                    *shot
                }
            }
            (Some((shot, _)), Direction::Follow) => *shot,
            _ => {
                if !moving {
                    director.idle += dt;
                }
                if *direction == Direction::Auto && !moving && !reduced && director.idle < ORBIT_FOR {
                    director.drift += DRIFT * dt;
                }
                let mut r = rest;
                if *direction == Direction::Auto {
                    r.yaw += director.drift;
                }
                r
            }
        };
        // Eased towards the shot, but the move's cells never leave the picture meanwhile.
        let mut next = if reduced { want } else { ease(*orbit, want, EASE * dt) };
        if moving {
            next = back_off(next, aspect, &director.points);
        }
        let still = (next.focus - orbit.focus).length() < 1e-4
            && (next.distance - orbit.distance).abs() < 1e-4
            && (next.pitch - orbit.pitch).abs() < 1e-5
            && (next.yaw - orbit.yaw).abs() < 1e-5;
        // At rest the slow orbit keeps drawing for a while after the last move; under reduced
        // motion only the held shot does (its time runs until the cut back to the whole table).
        let orbiting = !reduced && director.idle < ORBIT_FOR;
        busy |= !still || (*direction == Direction::Auto && (orbiting || director.shot.is_some()));
        if *orbit != next {
            *orbit = next;
            *tf = orbit.transform();
        }
    }
    if directing.0 != busy {
        directing.0 = busy;
    }
}

/// The chroma key green (#00B140), the usual keying colour.
pub const CHROMA: Color = Color::srgb(0.0, 0.694, 0.251);

/// The chroma key: the broadcast's background green, the table top left out.
fn chroma_key(
    on: Res<Overlays>,
    mut cams: Query<(&mut Camera, &mut bevy::camera::visibility::RenderLayers), With<BroadcastCamera>>,
) {
    for (mut cam, mut layers) in &mut cams {
        let clear = if on.chroma { ClearColorConfig::Custom(CHROMA) } else { ClearColorConfig::Default };
        cam.clear_color = clear;
        *layers = crate::gui::frame::board::broadcast_layers(on.chroma);
    }
}

/// The overlays follow the game: their texts, their side colours, and whether they show.
fn refresh(
    session: Res<Session>,
    table: Res<CtorTable>,
    on: Res<Overlays>,
    screen: Res<State<Screen>>,
    mut texts: Query<(&Overlay, &mut Text, &mut TextColor, &mut Visibility)>,
    mut roots: Query<&mut Visibility, (With<OverlayRoot>, Without<Overlay>)>,
) {
    if !session.is_changed() && !on.is_changed() && !table.is_changed() && !screen.is_changed() {
        return;
    }
    let playing = *screen.get() == Screen::Playing;
    for mut vis in &mut roots {
        let want = if playing { Visibility::Inherited } else { Visibility::Hidden };
        if *vis != want {
            *vis = want;
        }
    }
    for (kind, mut text, mut colour, mut vis) in &mut texts {
        let s = overlay_text(*kind, &session, table.clock);
        if text.0 != s {
            text.0 = s;
        }
        if let Overlay::Name(side) = kind {
            let want = side_colour(session.game.variant(), *side);
            if colour.0 != want {
                colour.0 = want;
            }
        }
        let want = if playing && shown(*kind, &on) { Visibility::Inherited } else { Visibility::Hidden };
        if *vis != want {
            *vis = want;
        }
    }
}
