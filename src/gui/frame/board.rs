//! The table every set stands on: the table top and its light, the board's layout, the
//! items rebuilt with the board, and the messages and highlights all sets share.

use crate::rules::{AnyGame, Cell, Game, Variant};
use bevy::asset::RenderAssetUsages;
use bevy::prelude::*;
use bevy::render::render_resource::{Extent3d, TextureDimension, TextureFormat};
use rand::{Rng, SeedableRng};

/// Height of the board's playing surface above the table top.
pub const BOARD_TOP: f32 = 0.2;

/// The board's size and which game is on the table.
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

impl Layout {
    pub fn of(game: &AnyGame) -> Layout {
        let (files, ranks) = game.board_size();
        Layout { files, ranks, variant: game.variant() }
    }
}

/// Where a piece stands on a cell (its centre, a stone's height above the board).
pub fn cell_pos(layout: &Layout, c: Cell) -> Vec3 {
    Vec3::new(
        c.file as f32 - (layout.files as f32 - 1.0) / 2.0,
        BOARD_TOP + 0.08,
        (layout.ranks as f32 - 1.0) / 2.0 - c.rank as f32,
    )
}

/// The cell a point of the table stands over, if any ([`cell_pos`] the other way).
pub fn cell_at(layout: &Layout, p: Vec3) -> Option<Cell> {
    let f = (p.x + (layout.files as f32 - 1.0) / 2.0).round();
    let r = ((layout.ranks as f32 - 1.0) / 2.0 - p.z).round();
    (f >= 0.0 && r >= 0.0 && f < layout.files as f32 && r < layout.ranks as f32).then(|| Cell::new(f as u8, r as u8))
}

/// Whether something at `p` stands on the cell whose centre is `at` (on its square, above
/// the board's felt): a piece, not the square itself.
pub fn stands_on(p: Vec3, at: Vec3) -> bool {
    (p.x - at.x).abs() < 0.45 && (p.z - at.z).abs() < 0.45 && p.y > 0.02
}

/// The render layer of what only the player's view shows (CTOR's unrevealed secret squares):
/// the broadcast and films see layer 0 alone.
pub const PLAYER_ONLY: usize = 1;

/// The render layer of the table top, which a broadcast in front of a chroma key leaves out.
pub const TABLE_TOP: usize = 2;

/// The layers the player's view sees: the board and pieces, what only the player may see,
/// the table top.
pub fn player_layers() -> bevy::camera::visibility::RenderLayers {
    bevy::camera::visibility::RenderLayers::from_layers(&[0, PLAYER_ONLY, TABLE_TOP])
}

/// The layers the broadcast and films see: the board and pieces, and the table top unless
/// the background is a chroma key.
pub fn broadcast_layers(chroma: bool) -> bevy::camera::visibility::RenderLayers {
    if chroma {
        bevy::camera::visibility::RenderLayers::layer(0)
    } else {
        bevy::camera::visibility::RenderLayers::from_layers(&[0, TABLE_TOP])
    }
}

/// Everything rebuilt with the board: despawned before a set builds the shown position.
#[derive(Component)]
pub struct BoardItem;

/// The table top.
#[derive(Component)]
pub struct Table;

/// A click on a cell of the board (a square, or the piece on it).
#[derive(Message, Clone, Copy, Debug)]
pub struct CellClicked(pub Cell);

/// The scene must be rebuilt from the shown position, without animation.
#[derive(Message, Clone, Copy, Debug)]
pub struct Rebuild;

/// Everything that moved has come to rest: the set on the table checks its scene now.
#[derive(Message, Clone, Copy, Debug)]
pub struct Settled;

/// Volterra towers' heights, or CTOR's square numbers, shown over the board.
#[derive(Resource, Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ShowLabels(pub bool);

pub(crate) fn plugin(app: &mut App) {
    app.init_resource::<Layout>()
        .init_resource::<ShowLabels>()
        .add_message::<CellClicked>()
        .add_message::<Rebuild>()
        .add_message::<Settled>()
        .add_systems(Startup, setup_table)
        .add_systems(OnEnter(crate::gui::frame::steps::Screen::Playing), |mut w: MessageWriter<Rebuild>| {
            w.write(Rebuild);
        })
        .add_systems(OnExit(crate::gui::frame::steps::Screen::Playing), clear_board);
}

/// A normal map (linear RGBA, `size` square) of the relief `height` gives over the unit
/// square, `depth` deep: the normal from the height's slope towards +x and +y.
pub fn relief(size: u32, depth: f32, height: impl Fn(f32, f32) -> f32) -> Image {
    let step = 1.0 / size as f32;
    let mut data = Vec::with_capacity((size * size * 4) as usize);
    for j in 0..size {
        for i in 0..size {
            let (x, y) = (i as f32 * step, j as f32 * step);
            let h = height(x, y);
            let dx = (height((x + step).min(0.999), y) - h) * depth;
            let dy = (height(x, (y + step).min(0.999)) - h) * depth;
            let n = Vec3::new(-dx, -dy, 1.0).normalize();
            for v in [n.x, n.y, n.z] {
                data.push(((v * 0.5 + 0.5) * 255.0) as u8);
            }
            data.push(255);
        }
    }
    square_image(size, data, TextureFormat::Rgba8Unorm)
}

/// The table under the set: a walnut top of five planks along its length, each its own
/// shade and grain, butt-jointed at staggered places, with grooves between them (colour,
/// and the relief as a normal map).
pub fn table_top(size: u32) -> (Image, Image) {
    const PLANKS: usize = 5;
    let mut rng = rand::rngs::StdRng::seed_from_u64(0x7ab1e_70b);
    let planks: [(f32, f32, f32); PLANKS] = std::array::from_fn(|_| {
        (rng.random_range(0.9..1.08f32), rng.random_range(0.0..6.28f32), rng.random_range(0.2..0.8f32))
    });
    // Height: 0 on a plank, down to -1 in a groove (plank edges and the joint across it).
    let groove = move |x: f32, y: f32| -> f32 {
        let p = (y * PLANKS as f32).min(PLANKS as f32 - 1e-3);
        let k = p as usize;
        let across = (p - k as f32).min(1.0 - (p - k as f32)) * size as f32 / PLANKS as f32;
        let along = (x - planks[k].2).abs() * size as f32;
        let edge = across.min(along);
        if edge < 1.5 { -1.0 + edge / 1.5 } else { 0.0 }
    };
    let grain = move |x: f32, y: f32| -> f32 {
        let p = (y * PLANKS as f32).min(PLANKS as f32 - 1e-3);
        let k = p as usize;
        let (_, phase, joint) = planks[k];
        // The joint: the plank's two pieces from different boards.
        let phase = if x > joint { phase + 2.1 } else { phase };
        let v = p - k as f32;
        ((v * 24.0 + (x * 9.0 + phase).sin() * 2.2 + (x * 37.0 + phase).sin() * 0.15 + phase).sin() * 0.5 + 0.5)
            .powf(1.8)
    };
    let base = [0.42, 0.26, 0.15];
    let mut data = Vec::with_capacity((size * size * 4) as usize);
    for j in 0..size {
        for i in 0..size {
            let (x, y) = (i as f32 / size as f32, j as f32 / size as f32);
            let k = ((y * PLANKS as f32) as usize).min(PLANKS - 1);
            let shade = planks[k].0
                * (0.95 - 0.1 * grain(x, y) + 0.025 * rng.random::<f32>())
                * (1.0 + 0.35 * groove(x, y).min(0.0));
            for c in base {
                data.push(((c * shade).clamp(0.0, 1.0) * 255.0) as u8);
            }
            data.push(255);
        }
    }
    let colour = square_image(size, data, TextureFormat::Rgba8UnormSrgb);
    let normal = relief(size, 0.9, move |x, y| groove(x, y) * 0.8 + grain(x, y) * 0.08);
    (colour, normal)
}

/// A square RGBA texture made by the project, `size` pixels a side, with its mipmaps: smooth at a distance instead of shimmering, and cheaper for a software
/// renderer, which then reads a level the size of what it draws.
pub fn square_image(size: u32, data: Vec<u8>, format: TextureFormat) -> Image {
    let mut image = Image::new(
        Extent3d { width: size, height: size, depth_or_array_layers: 1 },
        TextureDimension::D2,
        data,
        format,
        RenderAssetUsages::RENDER_WORLD,
    );
    if let Some((levels, count)) = image.data.as_deref().and_then(|d| mipmaps(size as usize, d)) {
        image.data = Some(levels);
        image.texture_descriptor.mip_level_count = count;
    }
    image
}

/// An RGBA8 square image's mip chain (its own level first, each next one the average of
/// two by two pixels, down to one), and the number of levels; none unless the size is a
/// power of two.
pub fn mipmaps(size: usize, top: &[u8]) -> Option<(Vec<u8>, u32)> {
    if !size.is_power_of_two() || top.len() != size * size * 4 {
        return None;
    }
    let mut levels = top.to_vec();
    let mut last = top.to_vec();
    let (mut s, mut count) = (size, 1);
    while s > 1 {
        let h = s / 2;
        let mut next = vec![0u8; h * h * 4];
        for y in 0..h {
            for x in 0..h {
                for c in 0..4 {
                    let at = |xx: usize, yy: usize| last[(yy * s + xx) * 4 + c] as u32;
                    let sum = at(2 * x, 2 * y) + at(2 * x + 1, 2 * y) + at(2 * x, 2 * y + 1) + at(2 * x + 1, 2 * y + 1);
                    next[(y * h + x) * 4 + c] = ((sum + 2) / 4) as u8;
                }
            }
        }
        levels.extend_from_slice(&next);
        last = next;
        s = h;
        count += 1;
    }
    Some((levels, count))
}

fn setup_table(
    mut commands: Commands,
    mut meshes: ResMut<Assets<Mesh>>,
    mut materials: ResMut<Assets<StandardMaterial>>,
    mut images: ResMut<Assets<Image>>,
) {
    let (top, relief) = table_top(512);
    commands.spawn((
        Mesh3d(
            meshes
                .add(Cuboid::new(30.0, 0.4, 20.0).mesh().build().with_generated_tangents().expect("a cuboid has UVs")),
        ),
        MeshMaterial3d(materials.add(StandardMaterial {
            base_color_texture: Some(images.add(top)),
            normal_map_texture: Some(images.add(relief)),
            perceptual_roughness: 0.55,
            reflectance: 0.4,
            ..default()
        })),
        Transform::from_xyz(0.0, -0.2, 0.0),
        Pickable::IGNORE,
        Table,
        bevy::camera::visibility::RenderLayers::layer(TABLE_TOP),
    ));
    commands.spawn((
        DirectionalLight { illuminance: 9000.0, shadow_maps_enabled: true, ..default() },
        // Shadows sharp over the table (a few metres), not spread over a kilometre of view.
        bevy::light::CascadeShadowConfigBuilder {
            num_cascades: 2,
            first_cascade_far_bound: 16.0,
            maximum_distance: 48.0,
            ..default()
        }
        .build(),
        player_layers(),
        Transform::from_xyz(4.0, 12.0, 6.0).looking_at(Vec3::ZERO, Vec3::Y),
    ));
    commands.insert_resource(GlobalAmbientLight { color: Color::WHITE, brightness: 450.0, ..default() });
}

fn clear_board(mut commands: Commands, items: Query<Entity, With<BoardItem>>) {
    for e in &items {
        commands.entity(e).despawn();
    }
}

/// A label kept over a point of the board (a coordinate, a tower's height, a square's
/// number); the panels place it each frame.
#[derive(Component)]
pub struct CoordLabel(pub Vec3);

/// A label over a point of the board, in the panels' font.
pub fn label(s: impl Into<String>, size: f32, colour: Color, at: Vec3) -> impl Bundle {
    (
        Text::new(s),
        TextFont { font_size: FontSize::Px(size), ..default() },
        TextColor(colour),
        Pickable::IGNORE,
        Node { position_type: PositionType::Absolute, ..default() },
        CoordLabel(at),
    )
}

/// A highlight over a board item (a target, the selection, the hover, the last move): the
/// item's own shape a little larger, in the highlight's material, seen only in the player's
/// view (the broadcast shows the pieces as they are).
#[derive(Component)]
pub struct Mark;

/// Gives a board item its (hidden) highlight.
pub fn with_mark(item: &mut EntityCommands, mesh: Handle<Mesh>) {
    item.with_child((
        Mesh3d(mesh),
        MeshMaterial3d::<StandardMaterial>::default(),
        Transform::from_xyz(0.0, 0.003, 0.0).with_scale(Vec3::splat(1.02)),
        Visibility::Hidden,
        bevy::camera::visibility::RenderLayers::layer(PLAYER_ONLY),
        Pickable::IGNORE,
        Mark,
    ));
}

/// The highlight marks of board items, for the sets' paint.
pub type Marks<'w, 's> =
    Query<'w, 's, (&'static mut MeshMaterial3d<StandardMaterial>, &'static mut Visibility), With<Mark>>;

/// Shows an item's highlight in `want`'s material, or hides it when the item looks as it is
/// (`want` is its own material); touched only when it changes.
pub fn highlight(
    children: &Children,
    marks: &mut Marks,
    want: &Handle<StandardMaterial>,
    own: &Handle<StandardMaterial>,
) {
    for child in children.iter() {
        let Ok((mut mat, mut vis)) = marks.get_mut(child) else { continue };
        let show = want != own;
        if show {
            repaint(&mut mat, want);
        }
        let v = if show { Visibility::Inherited } else { Visibility::Hidden };
        if *vis != v {
            *vis = v;
        }
    }
}

/// Sets a mesh's material, touching it only when it changes (a change re-extracts it).
pub fn repaint(mat: &mut MeshMaterial3d<StandardMaterial>, want: &Handle<StandardMaterial>) {
    if mat.0 != *want {
        mat.0 = want.clone();
    }
}

/// Something on the board that a click reaches: the cell it stands on, if any.
pub trait OnCell: Component {
    fn cell(&self) -> Option<Cell>;
}

/// Something under the pointer.
#[derive(Component)]
pub struct Hovered;

/// The observers a pickable board item carries: a click on it is a click on its cell, and
/// the pointer's hover is marked on it.
pub fn pickable<T: OnCell>(entity: &mut EntityCommands) {
    entity.insert(Pickable::default()).observe(on_click::<T>).observe(on_over).observe(on_out);
}

fn on_click<T: OnCell>(click: On<Pointer<Click>>, items: Query<&T>, mut out: MessageWriter<CellClicked>) {
    if click.button != PointerButton::Primary {
        return;
    }
    if let Some(c) = items.get(click.entity).ok().and_then(|item| item.cell()) {
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
