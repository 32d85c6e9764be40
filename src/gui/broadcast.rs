//! The broadcast window: a second window showing the same table from its own camera, with no
//! buttons, hover marks or choosers, for a streaming tool to capture. Overlays (names, whose
//! turn, the score, the last move in large type, the move list, the result) are switched on
//! and off by keys in either window; the layout fits 16:9 and 9:16.

use super::camera::{Orbit, View};
use super::ctor_table::CtorTable;
use super::hud::{banner_line, move_list, score_line};
use super::session::Session;
use super::table::Layout;
use super::{Screen, TableSystems};
use crate::rules::{Game, Side, Variant};
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
}

impl Default for Overlays {
    fn default() -> Overlays {
        Overlays { names: true, turn: true, score: true, last_move: true, moves: true, result: true }
    }
}

/// The broadcast's camera.
#[derive(Component, Clone, Copy, Debug)]
pub struct BroadcastCamera {
    pub window: Entity,
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
        .add_systems(Update, (open_window, close_with_window, keys))
        .add_systems(Update, (frame, refresh).in_set(TableSystems::Present));
}

/// A side's colour as the game's pieces show it, for the names.
pub fn side_colour(variant: Variant, side: Side) -> Color {
    match (variant, side) {
        (Variant::Ordo | Variant::OrdoX, Side::First) => Color::srgb(0.95, 0.93, 0.86),
        (Variant::Ordo | Variant::OrdoX, Side::Second) => Color::srgb(0.35, 0.55, 1.0),
        (Variant::Crossings, Side::First) => Color::srgb(0.95, 0.25, 0.2),
        (Variant::Crossings, Side::Second) => Color::srgb(0.6, 0.6, 0.62),
        (Variant::Volterra | Variant::VolterraFree, Side::First) => Color::srgb(0.95, 0.84, 0.62),
        (Variant::Volterra | Variant::VolterraFree, Side::Second) => Color::srgb(0.7, 0.45, 0.25),
        (Variant::Ctor8 | Variant::Ctor10, Side::First) => Color::srgb(0.55, 0.55, 0.58),
        (Variant::Ctor8 | Variant::Ctor10, Side::Second) => Color::srgb(0.97, 0.97, 0.95),
    }
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
        Overlay::Moves => move_list(session),
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

/// Opens the window, its camera and its overlays (once).
fn open_window(
    mut commands: Commands,
    mut requests: MessageReader<OpenBroadcast>,
    settings: Res<Broadcast>,
    existing: Query<(), With<BroadcastCamera>>,
    layout: Res<Layout>,
) {
    if requests.read().count() == 0 || !existing.is_empty() {
        return;
    }
    let size = settings.size;
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
            BroadcastCamera { window },
        ))
        .id();
    spawn_overlays(&mut commands, camera, size.y > size.x);
}

/// The overlays: names and the score along the top, whose turn between them, the last move
/// in large type at the bottom, the move list on the right (landscape only), the result in
/// the middle. A portrait layout stacks them above and below the board.
fn spawn_overlays(commands: &mut Commands, camera: Entity, portrait: bool) {
    let white = Color::WHITE;
    let panel = BackgroundColor(Color::srgba(0.03, 0.02, 0.02, 0.6));
    let corner = |left: bool| Node {
        position_type: PositionType::Absolute,
        top: px(16),
        left: if left { px(16) } else { Val::Auto },
        right: if left { Val::Auto } else { px(16) },
        padding: UiRect::all(px(10)),
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
                        top: px(20),
                        width: percent(100),
                        flex_direction: FlexDirection::Column,
                        align_items: AlignItems::Center,
                        row_gap: px(6),
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
                        top: px(16),
                        width: percent(100),
                        justify_content: JustifyContent::Center,
                        ..default()
                    },
                    Pickable::IGNORE,
                ))
                .with_child(text(36.0, Color::srgb(1.0, 0.85, 0.4), Overlay::Turn));
                root.spawn((corner(false), panel, Pickable::IGNORE)).with_child(text(22.0, white, Overlay::Moves));
            }
            root.spawn((
                Node {
                    position_type: PositionType::Absolute,
                    bottom: px(if portrait { 60 } else { 24 }),
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
        if windows.get(b.window).is_err() {
            commands.entity(cam).despawn();
            for root in &roots {
                commands.entity(root).despawn();
            }
        }
    }
}

/// `F8` opens the broadcast; `F2` to `F7` switch its overlays: names, whose turn, score, last
/// move, move list, result.
fn keys(input: Option<Res<ButtonInput<KeyCode>>>, mut on: ResMut<Overlays>, mut open: MessageWriter<OpenBroadcast>) {
    let Some(input) = input else { return };
    if input.just_pressed(KeyCode::F8) {
        open.write(OpenBroadcast);
    }
    if !input.any_just_pressed([KeyCode::F2, KeyCode::F3, KeyCode::F4, KeyCode::F5, KeyCode::F6, KeyCode::F7]) {
        return;
    }
    let on = &mut *on;
    for (key, flag) in [
        (KeyCode::F2, &mut on.names),
        (KeyCode::F3, &mut on.turn),
        (KeyCode::F4, &mut on.score),
        (KeyCode::F5, &mut on.last_move),
        (KeyCode::F6, &mut on.moves),
        (KeyCode::F7, &mut on.result),
    ] {
        if input.just_pressed(key) {
            *flag = !*flag;
        }
    }
}

/// The broadcast frames the whole table from the first player's side, again whenever another
/// board comes on the table.
fn frame(layout: Res<Layout>, mut cams: Query<(&mut Orbit, &mut Transform), With<BroadcastCamera>>) {
    for (mut orbit, mut tf) in &mut cams {
        let want = Orbit::preset(View::First, &layout);
        if layout.is_changed() || *orbit != want {
            *orbit = want;
            *tf = orbit.transform();
        }
    }
}

/// The overlays follow the game: their texts, their side colours, and whether they show.
fn refresh(
    session: Option<Res<Session>>,
    table: Res<CtorTable>,
    on: Res<Overlays>,
    screen: Res<State<Screen>>,
    mut texts: Query<(&Overlay, &mut Text, &mut TextColor, &mut Visibility)>,
    mut roots: Query<&mut Visibility, (With<OverlayRoot>, Without<Overlay>)>,
) {
    let Some(session) = session else { return };
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
