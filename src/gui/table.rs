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

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<Layout>()
        .init_resource::<ShowLabels>()
        .add_message::<CellClicked>()
        .add_message::<Rebuild>()
        .add_message::<Settled>()
        .add_systems(Startup, setup_table)
        .add_systems(OnEnter(super::Screen::Playing), |mut w: MessageWriter<Rebuild>| {
            w.write(Rebuild);
        })
        .add_systems(OnExit(super::Screen::Playing), clear_board);
}

/// A procedural wood grain: rings along the texture's length, a little seeded noise across.
pub fn wood(base: [f32; 3], size: u32) -> Image {
    wood_grain(base, size, 38.0, 0.14)
}

/// Wood with `rings` growth rings across the image, `contrast` deep.
pub fn wood_grain(base: [f32; 3], size: u32, rings: f32, contrast: f32) -> Image {
    let mut noise = rand::rngs::StdRng::seed_from_u64(12345);
    let mut data = Vec::with_capacity((size * size * 4) as usize);
    for y in 0..size {
        for x in 0..size {
            let fx = x as f32 / size as f32;
            let fy = y as f32 / size as f32;
            let ring = (fy * rings + (fx * 6.0).sin() * 1.6 + (fx * 23.0).sin() * 0.25).sin() * 0.5 + 0.5;
            let shade = 0.96 - contrast + contrast * ring + 0.05 * noise.random::<f32>();
            for c in base {
                data.push(((c * shade).clamp(0.0, 1.0) * 255.0) as u8);
            }
            data.push(255);
        }
    }
    square_image(size, data, TextureFormat::Rgba8UnormSrgb)
}

/// A square RGBA texture made by the project, `size` pixels a side.
pub fn square_image(size: u32, data: Vec<u8>, format: TextureFormat) -> Image {
    Image::new(
        Extent3d { width: size, height: size, depth_or_array_layers: 1 },
        TextureDimension::D2,
        data,
        format,
        RenderAssetUsages::default(),
    )
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
        bevy::camera::visibility::RenderLayers::layer(TABLE_TOP),
    ));
    commands.spawn((
        DirectionalLight { illuminance: 9000.0, shadow_maps_enabled: true, ..default() },
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
