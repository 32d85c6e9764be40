//! The table, the board and the stones as entities, built from the rules' position, with
//! the highlights that show selection, legal destinations and the last move. Picking a
//! square or a stone sends the cell it stands on.

use super::Screen;
use super::session::{CellClicked, Rebuild, Session};
use crate::rules::{AnyGame, Cell, Game, Side, Variant};
use bevy::asset::RenderAssetUsages;
use bevy::prelude::*;
use bevy::render::render_resource::{Extent3d, TextureDimension, TextureFormat};

/// Height of the board's playing surface above the table top.
pub const BOARD_TOP: f32 = 0.2;
/// Stone size: radius and thickness, in squares.
const STONE_R: f32 = 0.38;
const STONE_H: f32 = 0.16;

/// The board's size and which game's set is on the table.
#[derive(Resource, Clone, Copy, Debug)]
pub struct Layout {
    pub files: u8,
    pub ranks: u8,
    pub variant: Variant,
}

impl Default for Layout {
    fn default() -> Layout {
        Layout { files: 10, ranks: 8, variant: Variant::Ordo }
    }
}

/// Where a stone stands on a cell (its centre).
pub fn cell_pos(layout: &Layout, c: Cell) -> Vec3 {
    Vec3::new(
        c.file as f32 - (layout.files as f32 - 1.0) / 2.0,
        BOARD_TOP + STONE_H / 2.0,
        (layout.ranks as f32 - 1.0) / 2.0 - c.rank as f32,
    )
}

/// Where the `index`-th captured stone of `side` lies, beside the board on its owner's right.
pub fn tray_pos(layout: &Layout, side: Side, index: usize) -> Vec3 {
    let x = layout.files as f32 / 2.0 + 0.9 + (index / 10) as f32 * 0.85;
    let z = ((index % 10) as f32 - 4.5) * 0.6;
    let (x, z) = if side == Side::First { (x, z) } else { (-x, -z) };
    Vec3::new(x, STONE_H / 2.0 + 0.01, z)
}

/// A square of the board.
#[derive(Component, Clone, Copy, Debug)]
pub struct Square(pub Cell);

/// A stone: its side, and the cell it stands on (`None` once it lies beside the board).
#[derive(Component, Clone, Copy, Debug)]
pub struct Stone {
    pub side: Side,
    pub cell: Option<Cell>,
}

/// Something under the pointer.
#[derive(Component)]
pub struct Hovered;

/// The table top.
#[derive(Component)]
pub struct Table;

/// How much the renderer may spend per pixel: software renderers (Mesa's lavapipe) shade on
/// the CPU, where multisampling, shadows and a lit table top cost most of the frame.
#[derive(Resource, Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Quality {
    #[default]
    Full,
    Software,
}

/// Everything rebuilt with the board.
#[derive(Component)]
pub struct BoardItem;

/// Meshes and materials of the sets.
#[derive(Resource)]
pub struct Palette {
    stone: Handle<Mesh>,
    square: Handle<Mesh>,
    stones: [[Handle<StandardMaterial>; 2]; 2],
    hover: [[Handle<StandardMaterial>; 2]; 2],
    selected: Handle<StandardMaterial>,
    capturable: Handle<StandardMaterial>,
    /// The gold ring on a Crossings stone that has crossed (locked for the rest of the game).
    ring: Handle<Mesh>,
    gold: Handle<StandardMaterial>,
    light: Handle<StandardMaterial>,
    dark: Handle<StandardMaterial>,
    target: Handle<StandardMaterial>,
    last: Handle<StandardMaterial>,
    hover_square: Handle<StandardMaterial>,
    frame: Handle<StandardMaterial>,
}

fn stone_colours(variant: Variant) -> [Color; 2] {
    match variant {
        Variant::Crossings => [Color::srgb(0.72, 0.08, 0.06), Color::srgb(0.06, 0.06, 0.07)],
        _ => [Color::srgb(0.93, 0.91, 0.84), Color::srgb(0.10, 0.25, 0.70)],
    }
}

/// A procedural wood grain: rings along the texture's length, a little noise across.
pub fn wood(base: [f32; 3], size: u32) -> Image {
    let mut data = Vec::with_capacity((size * size * 4) as usize);
    let mut seed = 12345u32;
    for y in 0..size {
        for x in 0..size {
            seed = seed.wrapping_mul(1_103_515_245).wrapping_add(12345);
            let noise = ((seed >> 16) & 0xff) as f32 / 255.0;
            let fx = x as f32 / size as f32;
            let fy = y as f32 / size as f32;
            let ring = (fy * 38.0 + (fx * 6.0).sin() * 1.6 + (fx * 23.0).sin() * 0.25).sin() * 0.5 + 0.5;
            let shade = 0.82 + 0.14 * ring + 0.05 * noise;
            for c in base {
                data.push(((c * shade).clamp(0.0, 1.0) * 255.0) as u8);
            }
            data.push(255);
        }
    }
    Image::new(
        Extent3d { width: size, height: size, depth_or_array_layers: 1 },
        TextureDimension::D2,
        data,
        TextureFormat::Rgba8UnormSrgb,
        RenderAssetUsages::default(),
    )
}

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<Layout>()
        .add_systems(Startup, setup_table)
        .add_systems(OnEnter(Screen::Playing), |mut w: MessageWriter<Rebuild>| {
            w.write(Rebuild);
        })
        .add_systems(OnExit(Screen::Playing), clear_board)
        .add_systems(Update, (rebuild_scene, paint, ring_locked).chain().run_if(in_state(Screen::Playing)))
        .add_systems(Update, adapt_to_renderer);
}

/// Chooses the quality from the graphics adapter once it is known (`TABLERO_QUALITY=full` or
/// `software` overrides), and applies it to cameras, lights and the table.
fn adapt_to_renderer(
    mut commands: Commands,
    adapter: Option<Res<bevy::render::renderer::RenderAdapterInfo>>,
    quality: Option<Res<Quality>>,
    mut cams: Query<&mut Msaa>,
    mut lights: Query<&mut DirectionalLight>,
    table: Query<&MeshMaterial3d<StandardMaterial>, With<Table>>,
    mut materials: ResMut<Assets<StandardMaterial>>,
) {
    let q = match quality {
        Some(q) => *q,
        None => {
            let Some(adapter) = adapter else { return };
            let q = match std::env::var("TABLERO_QUALITY").as_deref() {
                Ok("full") => Quality::Full,
                Ok("software") => Quality::Software,
                _ if format!("{:?}", adapter.device_type) == "Cpu" => Quality::Software,
                _ => Quality::Full,
            };
            commands.insert_resource(q);
            q
        }
    };
    if q != Quality::Software {
        return;
    }
    for mut msaa in &mut cams {
        if *msaa != Msaa::Off {
            *msaa = Msaa::Off;
        }
    }
    for mut light in &mut lights {
        if light.shadow_maps_enabled {
            light.shadow_maps_enabled = false;
        }
    }
    for m in &table {
        if let Some(mat) = materials.get(&m.0)
            && !mat.unlit
            && let Some(mut mat) = materials.get_mut(&m.0)
        {
            mat.unlit = true;
        }
    }
}

fn setup_table(
    mut commands: Commands,
    mut meshes: ResMut<Assets<Mesh>>,
    mut materials: ResMut<Assets<StandardMaterial>>,
    mut images: ResMut<Assets<Image>>,
) {
    let table_wood = images.add(wood([0.55, 0.33, 0.17], 256));
    commands.spawn((
        Mesh3d(meshes.add(Cuboid::new(30.0, 0.4, 20.0))),
        MeshMaterial3d(materials.add(StandardMaterial {
            base_color_texture: Some(table_wood),
            perceptual_roughness: 0.7,
            ..default()
        })),
        Transform::from_xyz(0.0, -0.2, 0.0),
        Pickable::IGNORE,
        Table,
    ));
    commands.spawn((
        DirectionalLight { illuminance: 9000.0, shadow_maps_enabled: true, ..default() },
        Transform::from_xyz(4.0, 12.0, 6.0).looking_at(Vec3::ZERO, Vec3::Y),
    ));
    commands.insert_resource(GlobalAmbientLight { color: Color::WHITE, brightness: 450.0, ..default() });
    let mut mat = |c: Color, rough: f32| {
        materials.add(StandardMaterial { base_color: c, perceptual_roughness: rough, ..default() })
    };
    let glow = |m: &mut Assets<StandardMaterial>, c: Color, e: LinearRgba| {
        m.add(StandardMaterial { base_color: c, emissive: e, perceptual_roughness: 0.5, ..default() })
    };
    let [o1, o2] = stone_colours(Variant::Ordo);
    let [c1, c2] = stone_colours(Variant::Crossings);
    let stones = [[mat(o1, 0.35), mat(o2, 0.35)], [mat(c1, 0.35), mat(c2, 0.3)]];
    let light = mat(Color::srgb(0.86, 0.74, 0.55), 0.8);
    let dark = mat(Color::srgb(0.62, 0.45, 0.28), 0.8);
    let frame = mat(Color::srgb(0.32, 0.19, 0.09), 0.6);
    let hover = [
        [
            glow(&mut materials, o1, LinearRgba::rgb(0.15, 0.15, 0.1)),
            glow(&mut materials, o2, LinearRgba::rgb(0.1, 0.15, 0.4)),
        ],
        [
            glow(&mut materials, c1, LinearRgba::rgb(0.4, 0.1, 0.05)),
            glow(&mut materials, c2, LinearRgba::rgb(0.15, 0.15, 0.15)),
        ],
    ];
    let palette = Palette {
        stone: meshes.add(Cylinder::new(STONE_R, STONE_H)),
        square: meshes.add(Cuboid::new(0.98, 0.04, 0.98)),
        stones,
        hover,
        selected: glow(&mut materials, Color::srgb(1.0, 0.85, 0.2), LinearRgba::rgb(0.8, 0.6, 0.0)),
        ring: meshes.add(Torus::new(STONE_R * 0.55, STONE_R * 0.72)),
        gold: materials.add(StandardMaterial {
            base_color: Color::srgb(0.95, 0.75, 0.2),
            metallic: 0.8,
            perceptual_roughness: 0.3,
            emissive: LinearRgba::rgb(0.3, 0.22, 0.0),
            ..default()
        }),
        capturable: glow(&mut materials, Color::srgb(0.9, 0.2, 0.2), LinearRgba::rgb(0.9, 0.1, 0.1)),
        light,
        dark,
        target: glow(&mut materials, Color::srgb(0.35, 0.8, 0.35), LinearRgba::rgb(0.05, 0.35, 0.05)),
        last: glow(&mut materials, Color::srgb(0.9, 0.8, 0.45), LinearRgba::rgb(0.15, 0.12, 0.0)),
        hover_square: glow(&mut materials, Color::srgb(0.9, 0.85, 0.7), LinearRgba::rgb(0.1, 0.1, 0.08)),
        frame,
    };
    commands.insert_resource(palette);
}

fn clear_board(mut commands: Commands, items: Query<Entity, With<BoardItem>>) {
    for e in &items {
        commands.entity(e).despawn();
    }
}

/// Builds the board and stones of the shown position, with captured stones beside the board.
pub fn rebuild_scene(
    mut requests: MessageReader<Rebuild>,
    mut commands: Commands,
    items: Query<Entity, With<BoardItem>>,
    session: Option<Res<Session>>,
    palette: Res<Palette>,
    mut layout: ResMut<Layout>,
    mut meshes: ResMut<Assets<Mesh>>,
) {
    if requests.read().count() == 0 {
        return;
    }
    let Some(session) = session else { return };
    for e in &items {
        commands.entity(e).despawn();
    }
    let shown: AnyGame = session.shown();
    let (files, ranks) = shown.board_size();
    *layout = Layout { files, ranks, variant: shown.variant() };
    if super::sets::volterra::is_volterra(shown.variant()) || super::sets::ctor::is_ctor(shown.variant()) {
        // The pine set and the torus build themselves (sets/).
        return;
    }
    let set = if shown.variant() == Variant::Crossings { 1 } else { 0 };
    // The board: a frame, then one square per cell.
    commands.spawn((
        Mesh3d(meshes.add(Cuboid::new(files as f32 + 0.6, BOARD_TOP, ranks as f32 + 0.6))),
        MeshMaterial3d(palette.frame.clone()),
        Transform::from_xyz(0.0, BOARD_TOP / 2.0 - 0.02, 0.0),
        Pickable::IGNORE,
        BoardItem,
    ));
    for rank in 0..ranks {
        for file in 0..files {
            let c = Cell::new(file, rank);
            let mat = if (file + rank) % 2 == 0 { palette.dark.clone() } else { palette.light.clone() };
            let mut pos = cell_pos(&layout, c);
            pos.y = BOARD_TOP - 0.01;
            commands
                .spawn((
                    Mesh3d(palette.square.clone()),
                    MeshMaterial3d(mat),
                    Transform::from_translation(pos),
                    Square(c),
                    BoardItem,
                ))
                .observe(on_click)
                .observe(on_over)
                .observe(on_out);
        }
    }
    for rank in 0..ranks {
        for file in 0..files {
            let c = Cell::new(file, rank);
            if let Some(side) = shown.piece_at(c) {
                spawn_stone(&mut commands, &palette, set, side, Some(c), cell_pos(&layout, c));
            }
        }
    }
    let off = session.off_board();
    for side in [Side::First, Side::Second] {
        for i in 0..off[side.index()] {
            spawn_stone(&mut commands, &palette, set, side, None, tray_pos(&layout, side, i));
        }
    }
}

fn spawn_stone(commands: &mut Commands, palette: &Palette, set: usize, side: Side, cell: Option<Cell>, at: Vec3) {
    commands
        .spawn((
            Mesh3d(palette.stone.clone()),
            MeshMaterial3d(palette.stones[set][side.index()].clone()),
            Transform::from_translation(at),
            Stone { side, cell },
            BoardItem,
        ))
        .observe(on_click)
        .observe(on_over)
        .observe(on_out);
}

/// A click on a square or a stone on the board is a click on its cell.
pub fn on_click(
    click: On<Pointer<Click>>,
    squares: Query<&Square>,
    stones: Query<&Stone>,
    mut out: MessageWriter<CellClicked>,
) {
    if click.button != PointerButton::Primary {
        return;
    }
    let cell =
        squares.get(click.entity).map(|s| s.0).ok().or_else(|| stones.get(click.entity).ok().and_then(|s| s.cell));
    if let Some(c) = cell {
        out.write(CellClicked(c));
    }
}

fn on_over(over: On<Pointer<Over>>, mut commands: Commands) {
    commands.entity(over.entity).insert(Hovered);
}

fn on_out(out: On<Pointer<Out>>, mut commands: Commands) {
    if let Ok(mut e) = commands.get_entity(out.entity) {
        e.remove::<Hovered>();
    }
}

/// Sets a mesh's material, touching it only when it changes (a change re-extracts it).
pub fn repaint(mat: &mut MeshMaterial3d<StandardMaterial>, want: &Handle<StandardMaterial>) {
    if mat.0 != *want {
        mat.0 = want.clone();
    }
}

/// A stone that has a ring.
#[derive(Component)]
struct Ringed;

/// Crossings stones that stand on the opponent's home row have crossed: they get a gold ring.
fn ring_locked(
    mut commands: Commands,
    layout: Res<Layout>,
    palette: Res<Palette>,
    stones: Query<(Entity, &Stone), (Without<Ringed>, Without<super::animate::Tween>)>,
) {
    if layout.variant != Variant::Crossings {
        return;
    }
    for (e, stone) in &stones {
        let home = if stone.side == Side::First { layout.ranks - 1 } else { 0 };
        if stone.cell.is_some_and(|c| c.rank == home) {
            commands.entity(e).insert(Ringed).with_child((
                Mesh3d(palette.ring.clone()),
                MeshMaterial3d(palette.gold.clone()),
                Transform::from_xyz(0.0, STONE_H / 2.0, 0.0).with_scale(Vec3::new(1.0, 0.35, 1.0)),
                Pickable::IGNORE,
            ));
        }
    }
}

/// Materials from the state: selection, legal destinations, last move, hover.
fn paint(
    session: Option<Res<Session>>,
    palette: Res<Palette>,
    layout: Res<Layout>,
    mut squares: Query<(&Square, &mut MeshMaterial3d<StandardMaterial>, Has<Hovered>), Without<Stone>>,
    mut stones: Query<(&Stone, &mut MeshMaterial3d<StandardMaterial>, Has<Hovered>), Without<Square>>,
    mut targets: Local<std::collections::BTreeSet<Cell>>,
) {
    let Some(session) = session else { return };
    // The targets change only with the session; hover is repainted every frame.
    if session.is_changed() {
        *targets = session.picker.targets(&session.game);
    }
    let targets = &*targets;
    let person = session.person_to_move();
    let set = if layout.variant == Variant::Crossings { 1 } else { 0 };
    for (sq, mut mat, hovered) in &mut squares {
        let c = sq.0;
        let want = if targets.contains(&c) {
            &palette.target
        } else if hovered && person {
            &palette.hover_square
        } else if session.last_move.contains(&c) {
            &palette.last
        } else if (c.file + c.rank) % 2 == 0 {
            &palette.dark
        } else {
            &palette.light
        };
        repaint(&mut mat, want);
    }
    let side_to_move = session.game.side_to_move();
    for (stone, mut mat, hovered) in &mut stones {
        let want = match stone.cell {
            Some(c) if session.picker.selected == Some(c) => &palette.selected,
            Some(c) if targets.contains(&c) => &palette.capturable,
            Some(_) if hovered && person && stone.side == side_to_move => &palette.hover[set][stone.side.index()],
            _ => &palette.stones[set][stone.side.index()],
        };
        repaint(&mut mat, want);
    }
}
