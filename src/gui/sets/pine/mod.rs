//! The pine Volterra set: square tiles with visible thickness in light and dark pine, stacked
//! into towers, two pawns turned on a lathe, felt pads that show the cells and the holes.
//! Its own animation: the pawn hops, lifted tiles arc onto their new tower, parts cut off by
//! a split slide off the table edge.

use super::add_room;
use super::room::{Room, on_table};
use crate::gui::frame::animate::{Speed, Tween};
use crate::gui::frame::board::{BoardItem, Layout, Marks, ShowLabels, cell_pos, highlight, with_mark};
use crate::gui::frame::board::{OnCell, pickable};
use crate::gui::frame::session::{Highlights, MovesToPlan, Picking, Session};
use crate::rules::volterra::Volterra;
use crate::rules::{AnyGame, Cell, Effect, Side};
use crate::sound::Sound;
use bevy::asset::RenderAssetUsages;
use bevy::mesh::{Indices, PrimitiveTopology};
use bevy::prelude::*;
use std::collections::HashMap;

pub mod pine_box;

pub mod pine_wood;

/// A tile is 5 cm square: one world unit. Its thickness, and the pawn's height (3 cm).
pub const THICK: f32 = 0.2;
pub const TILE: f32 = 0.97;
const PAWN_H: f32 = 0.6;
/// Seconds for a pawn's hop and a build's arc at normal speed.
const HOP: f32 = 0.35;
const ARC: f32 = 0.55;

/// A tile: on `cell` at `level` (0 at the bottom), or gone from the game (`cell` None).
#[derive(Component, Clone, Copy, Debug)]
pub struct Tile {
    pub cell: Option<Cell>,
    pub level: u8,
    pub side: Side,
    /// Which of its colour's ten tiles it is: each has its own wood, kept as it moves.
    pub wood: u8,
}

/// A pawn, on the tower at `cell`.
#[derive(Component, Clone, Copy, Debug)]
pub struct Pawn {
    pub side: Side,
    pub cell: Cell,
}

/// The felt pad under a cell: where the tiles stand, and what shows once the cell is a hole.
#[derive(Component, Clone, Copy, Debug)]
pub struct Pad(pub Cell);

impl OnCell for Tile {
    fn cell(&self) -> Option<Cell> {
        self.cell
    }
}

impl OnCell for Pawn {
    fn cell(&self) -> Option<Cell> {
        Some(self.cell)
    }
}

impl OnCell for Pad {
    fn cell(&self) -> Option<Cell> {
        Some(self.0)
    }
}

/// Meshes and materials of the set.
#[derive(Resource)]
pub struct PineSet {
    tile: Handle<Mesh>,
    pawn: Handle<Mesh>,
    pad: Handle<Mesh>,
    /// Each colour's ten tiles, each its own wood (see `pine_wood`).
    tiles: [Vec<Handle<StandardMaterial>>; 2],
    pawns: [Handle<StandardMaterial>; 2],
    felt: Handle<StandardMaterial>,
    target: Handle<StandardMaterial>,
    selected: Handle<StandardMaterial>,
}

pub use pine_wood::PER_SIDE;

/// The inlay's radius and how far from the tile's centre it sits (along both axes): a disc of
/// pale wood let into a corner of each dark tile, through it (it shows on both faces), flush.
pub const INLAY_R: f32 = 0.11;
pub const INLAY_AT: f32 = TILE / 2.0 - 0.16;

/// The set's wood: each piece's baked textures.
pub struct SetWood {
    /// Light and dark, ten tiles each.
    pub tiles: [Vec<pine_wood::Baked>; 2],
    pub pawns: [pine_wood::Baked; 2],
}

/// The set's wood baked at a detail (the first time the set is on a drawn table).
pub fn set_wood(detail: pine_wood::Detail) -> SetWood {
    use pine_wood::{Cut, Face, Sawn, Stain, bake_board, bake_turned, tile_cut, wood};
    {
        let half = Vec3::new(TILE / 2.0, THICK * 0.98 / 2.0, TILE / 2.0);
        let tile = |side: usize, k: usize| {
            let (stain, cut) = ([Stain::pine(), Stain::dark()][side], tile_cut(side, k));
            let inlay = Cut::random(0x1a1a + k as u64, Sawn::Any);
            bake_board(half, &cut, &stain, detail.tile(), |face, p, sample| {
                let d = Vec2::new(p.x - INLAY_AT, p.z - INLAY_AT).length();
                if side == 0 || !matches!(face, Face::Top | Face::Bottom) || d > INLAY_R {
                    return sample;
                }
                // The inlay's own close grain, and a thin dark line of glue round it.
                let pale = wood(&inlay, &Stain::inlay(), p * 0.5);
                let glue = pine_wood::smoothstep(INLAY_R - 0.008, INLAY_R, d);
                pine_wood::Sample {
                    colour: pale.colour.lerp(sample.colour * 0.55, glue),
                    roughness: 0.5,
                    height: 0.3 - glue * 0.6,
                }
            })
        };
        // Two threads: the machine's cores bake the twenty tiles together.
        let tiles = std::thread::scope(|scope| {
            let dark = scope.spawn(|| (0..PER_SIDE).map(|k| tile(1, k)).collect::<Vec<_>>());
            let light = (0..PER_SIDE).map(|k| tile(0, k)).collect::<Vec<_>>();
            [light, dark.join().unwrap_or_default()]
        });
        let profile = pawn_profile();
        let pawns = [0, 1].map(|side| {
            bake_turned(
                &profile,
                &Cut::random(0xba3e + side as u64, Sawn::Turned),
                &[Stain::pine(), Stain::dark()][side],
                detail.board(),
            )
        });
        SetWood { tiles, pawns }
    }
}

/// The set's detail in this app's profile.
pub fn detail_of(quality: Option<&crate::gui::look::render::Quality>) -> pine_wood::Detail {
    match quality {
        Some(crate::gui::look::render::Quality::Software) => pine_wood::Detail::Software,
        _ => pine_wood::Detail::Full,
    }
}

/// A piece's material from its baked wood: oiled (the roughness follows the grain), with a thin
/// clear coat in the full profile.
pub fn oiled(
    baked: pine_wood::Baked,
    detail: pine_wood::Detail,
    images: &mut Assets<Image>,
    normal: bool,
) -> StandardMaterial {
    // Moved, not copied: a full set's textures are some 40 MB.
    StandardMaterial {
        base_color_texture: Some(images.add(baked.colour)),
        normal_map_texture: normal.then(|| images.add(baked.normal)),
        metallic_roughness_texture: Some(images.add(baked.roughness)),
        perceptual_roughness: 1.0,
        metallic: 0.0,
        reflectance: 0.45,
        clearcoat: if detail == pine_wood::Detail::Full { 0.25 } else { 0.0 },
        clearcoat_perceptual_roughness: 0.35,
        ..default()
    }
}

/// The centre of a tile at a level of a cell.
pub fn tile_pos(layout: &Layout, c: Cell, level: u8) -> Vec3 {
    cell_pos(layout, c).with_y(THICK * (level as f32 + 0.5))
}

/// Where a pawn stands: on top of a tower of `height` tiles.
pub fn pawn_pos(layout: &Layout, c: Cell, height: u8) -> Vec3 {
    cell_pos(layout, c).with_y(THICK * height as f32)
}

/// A surface of revolution around the Y axis through a profile of (radius, height) points,
/// bottom to top: a pawn turned on a lathe.
pub fn lathe(profile: &[(f32, f32)], segments: usize) -> Mesh {
    let mut positions = Vec::new();
    let mut normals = Vec::new();
    let mut uvs = Vec::new();
    let n = profile.len();
    for (i, &(r, y)) in profile.iter().enumerate() {
        let (pr, py) = profile[i.saturating_sub(1)];
        let (nr, ny) = profile[(i + 1).min(n - 1)];
        // The outward normal of the profile at this point.
        let (tr, ty) = (nr - pr, ny - py);
        let len = (tr * tr + ty * ty).sqrt().max(1e-6);
        let (nrm_r, nrm_y) = (ty / len, -tr / len);
        for s in 0..=segments {
            let a = s as f32 / segments as f32 * std::f32::consts::TAU;
            let (sin, cos) = a.sin_cos();
            positions.push([r * cos, y, r * sin]);
            normals.push([nrm_r * cos, nrm_y, nrm_r * sin]);
            uvs.push([s as f32 / segments as f32, i as f32 / (n - 1) as f32]);
        }
    }
    let ring = segments as u32 + 1;
    let mut indices = Vec::new();
    for i in 0..n as u32 - 1 {
        for s in 0..segments as u32 {
            let (a, b) = (i * ring + s, (i + 1) * ring + s);
            indices.extend([a, b, a + 1, a + 1, b, b + 1]);
        }
    }
    Mesh::new(PrimitiveTopology::TriangleList, RenderAssetUsages::default())
        .with_inserted_attribute(Mesh::ATTRIBUTE_POSITION, positions)
        .with_inserted_attribute(Mesh::ATTRIBUTE_NORMAL, normals)
        .with_inserted_attribute(Mesh::ATTRIBUTE_UV_0, uvs)
        .with_inserted_indices(Indices::U32(indices))
}

/// The pawn's profile, as turned on a lathe: a foot with a bead and a fillet, a waist that
/// sweeps in and tapers, a collar, a short neck and a round head, 3 cm tall.
pub fn pawn_profile() -> Vec<(f32, f32)> {
    use std::f32::consts::{FRAC_PI_2, PI};
    // In heights of the pawn (its foot's radius 0.37 of its height: a 2.2 cm foot).
    let mut p: Vec<(f32, f32)> = vec![(0.0, 0.0), (0.3, 0.0), (0.35, 0.004)];
    // The foot's bead: a half round standing on the table.
    let arc = |p: &mut Vec<(f32, f32)>, centre: (f32, f32), r: f32, from: f32, to: f32, steps: usize| {
        for i in 1..=steps {
            let a = from + (to - from) * i as f32 / steps as f32;
            p.push((centre.0 + r * a.cos(), centre.1 + r * a.sin()));
        }
    };
    arc(&mut p, (0.335, 0.05), 0.045, -FRAC_PI_2, FRAC_PI_2, 8);
    // A fillet, then the cove sweeping in to the waist.
    p.push((0.3, 0.1));
    arc(&mut p, (0.32, 0.245), 0.14, PI + 1.05, PI + 0.15, 8);
    // The waist tapers up to the collar.
    for i in 1..=6 {
        let t = i as f32 / 6.0;
        p.push((0.183 - 0.06 * t + 0.012 * (t * PI).sin(), 0.27 + 0.28 * t));
    }
    // The collar: a flat disc with round edges.
    p.extend([(0.14, 0.56), (0.2, 0.575), (0.225, 0.59), (0.228, 0.605), (0.22, 0.62), (0.16, 0.635)]);
    // The neck, and the head: a ball.
    p.extend([(0.115, 0.65), (0.105, 0.675)]);
    let (head, r) = (0.835, 0.165);
    // The ball meets the neck where it is as wide.
    let from = -(0.105f32 / r).acos();
    p.push((0.105, head + r * from.sin()));
    arc(&mut p, (0.0, head), r, from, FRAC_PI_2, 14);
    let scale = PAWN_H / (head + r);
    p.into_iter().map(|(r, y)| (r.max(0.0) * scale, y * scale)).collect()
}

pub(crate) fn plugin(app: &mut App) {
    app.add_systems(Startup, setup)
        .add_systems(Update, follow_palette.run_if(resource_changed::<super::Palette>))
        .add_systems(
            Update,
            dress.run_if(
                on_table(Room::Pine)
                    .and_then(resource_exists::<crate::gui::look::render::Quality>)
                    .and_then(not(resource_exists::<Dressed>)),
            ),
        );
    add_room(app, Room::Pine, build, plan, verify, (paint, heights));
    pine_box::plugin(app);
}

fn setup(
    mut commands: Commands,
    mut meshes: ResMut<Assets<Mesh>>,
    mut materials: ResMut<Assets<StandardMaterial>>,
    quality: Option<Res<crate::gui::look::render::Quality>>,
) {
    // Plain pine until the set is first on a drawn table (`dress`): a table without a
    // renderer, or with another game, never bakes the wood.
    let plain = |m: &mut Assets<StandardMaterial>, c: Color| {
        m.add(StandardMaterial { base_color: c, perceptual_roughness: 0.55, ..default() })
    };
    let colours = [Color::srgb(0.93, 0.82, 0.62), Color::srgb(0.5, 0.31, 0.18)];
    let tiles = [0, 1].map(|side| (0..PER_SIDE).map(|_| plain(&mut materials, colours[side])).collect::<Vec<_>>());
    let pawns = [0, 1].map(|side| plain(&mut materials, colours[side]));
    let glow = |m: &mut Assets<StandardMaterial>, c: Color, e: LinearRgba| {
        m.add(StandardMaterial { base_color: c, emissive: e, perceptual_roughness: 0.6, ..default() })
    };
    let segments = crate::gui::look::render::round_segments(quality.as_deref()) as usize * 2;
    commands.insert_resource(PineSet {
        tile: meshes.add(pine_wood::tile_mesh(TILE, THICK * 0.98)),
        pawn: meshes.add(lathe(&pawn_profile(), segments)),
        pad: meshes.add(Cuboid::new(0.99, 0.01, 0.99)),
        tiles,
        pawns,
        felt: materials.add(StandardMaterial {
            base_color: Color::srgb(0.12, 0.24, 0.15),
            perceptual_roughness: 0.95,
            ..default()
        }),
        // The palette's colours are given by `follow_palette`.
        target: glow(&mut materials, Color::WHITE, LinearRgba::BLACK),
        selected: glow(&mut materials, Color::WHITE, LinearRgba::BLACK),
    });
}

/// The set's wood is baked (see `dress`).
#[derive(Resource)]
struct Dressed;

/// The first time the set is on a drawn table, its wood is baked into each piece's material
/// (the same materials: what stands on the table takes its wood at once). Headless tables keep
/// the plain colours.
fn dress(
    mut commands: Commands,
    set: Res<PineSet>,
    quality: Res<crate::gui::look::render::Quality>,
    mut materials: ResMut<Assets<StandardMaterial>>,
    mut images: ResMut<Assets<Image>>,
) {
    commands.insert_resource(Dressed);
    let detail = detail_of(Some(&quality));
    let SetWood { tiles, pawns } = set_wood(detail);
    for (side, (tiles, pawn)) in tiles.into_iter().zip(pawns).enumerate() {
        for (handle, baked) in set.tiles[side].iter().zip(tiles) {
            let _ = materials.insert(handle, oiled(baked, detail, &mut images, true));
        }
        let _ = materials.insert(&set.pawns[side], oiled(pawn, detail, &mut images, false));
    }
    // What the baking took in passing goes back to the system.
    crate::memory::give_back();
}

/// The highlights in the palette's colours (at start, and when it changes).
fn follow_palette(palette: Res<super::Palette>, set: Res<PineSet>, mut materials: ResMut<Assets<StandardMaterial>>) {
    let c = super::Colours::of(*palette);
    super::reglow(&mut materials, &set.target, c.target);
    super::reglow(&mut materials, &set.selected, c.selected);
}

/// Builds the set for the shown position after the board was cleared.
fn build(mut commands: Commands, session: Res<Session>, picking: Res<Picking>, set: Res<PineSet>, layout: Res<Layout>) {
    let AnyGame::Volterra(v) = picking.shown(&session.game) else { return };
    spawn(&mut commands, &set, &layout, &v);
}

fn spawn(commands: &mut Commands, set: &PineSet, layout: &Layout, v: &Volterra) {
    // Each colour's tiles numbered as they are laid out, rank by rank: every tile its own wood.
    let mut count = [0u8; 2];
    for rank in 0..layout.ranks {
        for file in 0..layout.files {
            let c = Cell::new(file, rank);
            let mut pad = commands.spawn((
                Mesh3d(set.pad.clone()),
                MeshMaterial3d(set.felt.clone()),
                Transform::from_translation(cell_pos(layout, c).with_y(0.005)),
                Pad(c),
                BoardItem,
            ));
            pickable::<Pad>(&mut pad);
            with_mark(&mut pad, set.pad.clone());
            let Some(tower) = v.tower(c) else { continue };
            for (level, side) in tower.tiles().into_iter().enumerate() {
                let wood = count[side.index()];
                count[side.index()] += 1;
                spawn_tile(
                    commands,
                    set,
                    Tile { cell: Some(c), level: level as u8, side, wood },
                    tile_pos(layout, c, level as u8),
                );
            }
        }
    }
    for side in [Side::First, Side::Second] {
        if let Some(c) = v.pawn(side) {
            let h = v.tower(c).map(|t| t.height).unwrap_or(0);
            spawn_pawn(commands, set, Pawn { side, cell: c }, pawn_pos(layout, c, h));
        }
    }
}

/// A tile's material: its own wood (a set has ten of each colour).
pub fn wood_of(set: &PineSet, side: Side, wood: u8) -> Handle<StandardMaterial> {
    let woods = &set.tiles[side.index()];
    woods[wood as usize % woods.len().max(1)].clone()
}

/// A tile on the table. Every tile lies the same way (its grain along the files), so a dark
/// tile's inlay is in the same corner at every level.
pub fn spawn_tile(commands: &mut Commands, set: &PineSet, tile: Tile, at: Vec3) -> Entity {
    let mut e = commands.spawn((
        Mesh3d(set.tile.clone()),
        MeshMaterial3d(wood_of(set, tile.side, tile.wood)),
        Transform::from_translation(at),
        Visibility::default(),
        tile,
        BoardItem,
    ));
    pickable::<Tile>(&mut e);
    with_mark(&mut e, set.tile.clone());
    e.id()
}

fn spawn_pawn(commands: &mut Commands, set: &PineSet, pawn: Pawn, at: Vec3) -> Entity {
    let mut e = commands.spawn((
        Mesh3d(set.pawn.clone()),
        MeshMaterial3d(set.pawns[pawn.side.index()].clone()),
        Transform::from_translation(at),
        Visibility::default(),
        pawn,
        BoardItem,
    ));
    pickable::<Pawn>(&mut e);
    with_mark(&mut e, set.pawn.clone());
    e.id()
}

/// What a tile or pawn sounds like landing on a tower `height` tiles tall (0: the board).
pub fn landing(height: u8) -> Sound {
    if height > 0 { Sound::TileStacked } else { Sound::TileLaid }
}

#[allow(clippy::too_many_arguments)]
fn plan(
    mut moves: MovesToPlan,
    mut commands: Commands,
    mut tiles: Query<(Entity, &mut Tile), Without<Pawn>>,
    mut pawns: Query<(Entity, &mut Pawn), Without<Tile>>,
    transforms: Query<&Transform>,
    layout: Res<Layout>,
    set: Res<PineSet>,
    speed: Res<Speed>,
) {
    for parts in moves.read() {
        let f = speed.factor();
        // The towers as the scene has them: entities by cell, bottom up.
        let mut towers: HashMap<Cell, Vec<Entity>> = HashMap::new();
        let mut levels: Vec<(Entity, Cell, u8)> =
            tiles.iter().filter_map(|(e, t)| t.cell.map(|c| (e, c, t.level))).collect();
        levels.sort_by_key(|(_, _, l)| *l);
        for (e, c, _) in levels {
            towers.entry(c).or_default().push(e);
        }
        let mut pawn_of: HashMap<Side, Entity> = pawns.iter().map(|(e, p)| (p.side, e)).collect();
        let mut cursor = 0.0;
        // Entity, target, delay, duration, lift, and the sound it makes (one for a group
        // that lands together).
        let mut tweens: Vec<(Entity, Vec3, f32, f32, f32, Option<Sound>)> = Vec::new();
        // Where the pieces spawned by this plan start (a free setup's tile: out of the box).
        let mut spawned_at: HashMap<Entity, Vec3> = HashMap::new();
        let mut placed = [0usize; 2];
        for effect in parts.into_iter().flatten() {
            match effect {
                Effect::PawnMoved { side, to, .. } => {
                    if let Some(&e) = pawn_of.get(side) {
                        let h = towers.get(to).map(|t| t.len()).unwrap_or(0) as u8;
                        if let Ok((_, mut p)) = pawns.get_mut(e) {
                            p.cell = *to;
                        }
                        tweens.push((e, pawn_pos(&layout, *to, h), cursor, HOP * f, 0.45, Some(landing(h))));
                        cursor += HOP * f;
                    }
                }
                Effect::Stacked { from, to, tiles: lifted, .. } => {
                    let source = towers.entry(*from).or_default();
                    let keep = source.len().saturating_sub(lifted.len());
                    let moving: Vec<Entity> = source.split_off(keep);
                    let dest = towers.entry(*to).or_default();
                    for (i, e) in moving.into_iter().enumerate() {
                        let level = dest.len() as u8;
                        let sound = (i == 0).then(|| landing(level));
                        dest.push(e);
                        if let Ok((_, mut t)) = tiles.get_mut(e) {
                            t.cell = Some(*to);
                            t.level = level;
                        }
                        tweens.push((e, tile_pos(&layout, *to, level), cursor, ARC * f, 0.9, sound));
                    }
                    cursor += ARC * f;
                }
                Effect::Removed { at } => {
                    // The part slides off the nearest edge of the table.
                    let out = cell_pos(&layout, *at);
                    let edge = Vec3::new(if out.x >= 0.0 { 15.5 } else { -15.5 }, -0.6, out.z);
                    for (i, e) in towers.remove(at).unwrap_or_default().into_iter().enumerate() {
                        if let Ok((_, mut t)) = tiles.get_mut(e) {
                            t.cell = None;
                            let y = transforms.get(e).map(|tf| tf.translation.y).unwrap_or(0.0);
                            let sound = (i == 0).then_some(Sound::TileSlid);
                            tweens.push((e, edge.with_y(y - 0.6), cursor, ARC * 2.0 * f, 0.0, sound));
                        }
                    }
                }
                Effect::Placed { at, side } => {
                    let level = towers.get(at).map(|t| t.len()).unwrap_or(0) as u8;
                    // Out of the box, from the top of what is left in it.
                    let laid: usize = towers.values().map(|t| t.len()).sum();
                    let from = pine_box::next_out_of_box(&layout, laid);
                    // The next of its colour's tiles.
                    let wood = tiles.iter().filter(|(_, t)| t.side == *side && t.cell.is_some()).count()
                        + placed[side.index()];
                    placed[side.index()] += 1;
                    let tile = Tile { cell: Some(*at), level, side: *side, wood: wood as u8 };
                    let e = spawn_tile(&mut commands, &set, tile, from);
                    spawned_at.insert(e, from);
                    towers.entry(*at).or_default().push(e);
                    tweens.push((e, tile_pos(&layout, *at, level), cursor, ARC * f, 1.0, Some(landing(level))));
                    cursor += HOP * f * 0.5;
                }
                Effect::PawnPlaced { at, side } => {
                    let h = towers.get(at).map(|t| t.len()).unwrap_or(0) as u8;
                    let e = spawn_pawn(
                        &mut commands,
                        &set,
                        Pawn { side: *side, cell: *at },
                        pawn_pos(&layout, *at, h) + Vec3::Y * 2.0,
                    );
                    pawn_of.insert(*side, e);
                    tweens.push((e, pawn_pos(&layout, *at, h), cursor, HOP * f, 0.0, Some(landing(h))));
                }
                _ => {}
            }
        }
        for (e, to, delay, duration, lift, sound) in tweens {
            let Ok(tf) = transforms.get(e) else {
                // Spawned by this plan: its transform arrives with the commands.
                let tween = match spawned_at.get(&e) {
                    Some(from) => Tween::slide(*from, to, delay, duration, lift),
                    None => Tween { lift, ..Tween::falling(to, 2.0, delay, duration) },
                };
                commands.entity(e).insert(tween.sounding(sound));
                continue;
            };
            // Instant too (a tween of no time): the change is flashed and the scene checked.
            commands.entity(e).insert(Tween::slide(tf.translation, to, delay, duration, lift).sounding(sound));
        }
    }
}

/// Highlights: the selected pawn or tower, where it can go, and where a setup tile or pawn
/// can be put.
fn paint(
    marks: Res<Highlights>,
    set: Res<PineSet>,
    tiles: Query<(&Tile, &Children), Without<Pawn>>,
    pawns: Query<(&Pawn, &Children), Without<Tile>>,
    pads: Query<(&Pad, &Children), (Without<Tile>, Without<Pawn>)>,
    mut shells: Marks,
) {
    let mut top: HashMap<Cell, u8> = HashMap::new();
    for (t, _) in &tiles {
        if let Some(c) = t.cell {
            let e = top.entry(c).or_insert(0);
            *e = (*e).max(t.level);
        }
    }
    let pawn_cells: Vec<Cell> = pawns.iter().map(|(p, _)| p.cell).collect();
    for (t, children) in &tiles {
        let own = &wood_of(&set, t.side, t.wood);
        let want = match t.cell {
            Some(c) if top.get(&c) == Some(&t.level) && marks.targets.contains(&c) => &set.target,
            Some(c) if top.get(&c) == Some(&t.level) && marks.selected.contains(&c) && !pawn_cells.contains(&c) => {
                &set.selected
            }
            Some(c) if top.get(&c) == Some(&t.level) && marks.setup.contains(&c) => &set.target,
            _ => own,
        };
        highlight(children, &mut shells, want, own);
    }
    for (p, children) in &pawns {
        let own = &set.pawns[p.side.index()];
        let want = if marks.selected.contains(&p.cell) { &set.selected } else { own };
        highlight(children, &mut shells, want, own);
    }
    for (pad, children) in &pads {
        let want = if marks.setup.contains(&pad.0) && !top.contains_key(&pad.0) { &set.target } else { &set.felt };
        highlight(children, &mut shells, want, &set.felt);
    }
}

/// A tower's height label.
#[derive(Component)]
pub struct HeightLabel;

/// One label over each tower with its height, while heights are shown and nothing moves.
#[allow(clippy::too_many_arguments)]
fn heights(
    mut commands: Commands,
    show: Res<ShowLabels>,
    session: Res<Session>,
    picking: Res<Picking>,
    layout: Res<Layout>,
    labels: Query<Entity, With<HeightLabel>>,
    tweens: Query<(), With<Tween>>,
    mut shown_for: Local<Option<AnyGame>>,
) {
    let want = (show.0 && tweens.is_empty()).then(|| picking.shown(&session.game));
    let have: Vec<Entity> = labels.iter().collect();
    if !super::relabel(&mut shown_for, want, &have, &mut commands) {
        return;
    }
    let Some(AnyGame::Volterra(v)) = &*shown_for else { return };
    for rank in 0..layout.ranks {
        for file in 0..layout.files {
            let c = Cell::new(file, rank);
            let Some(t) = v.tower(c).filter(|t| t.height > 0) else { continue };
            let top = tile_pos(&layout, c, t.height - 1) + Vec3::Y * 0.25;
            commands.spawn((
                crate::gui::frame::board::label(t.height.to_string(), 20.0, Color::WHITE, top),
                BackgroundColor(Color::srgba(0.0, 0.0, 0.0, 0.55)),
                HeightLabel,
                BoardItem,
            ));
        }
    }
}

/// Once the table settles, the tiles and pawns must be the shown position's; otherwise the
/// scene is rebuilt (and counted).
fn verify(tiles: Query<(&Tile, &Transform)>, pawns: Query<(&Pawn, &Transform)>, mut check: super::SceneCheck) {
    if let Some(shown) = check.shown() {
        let ok = set_matches(&shown, &check.layout, tiles.iter(), pawns.iter());
        check.expect(ok);
    }
}

/// Whether the tiles and pawns on the table are exactly the position's towers and pawns.
pub fn set_matches<'a>(
    game: &AnyGame,
    layout: &Layout,
    tiles: impl Iterator<Item = (&'a Tile, &'a Transform)>,
    pawns: impl Iterator<Item = (&'a Pawn, &'a Transform)>,
) -> bool {
    let AnyGame::Volterra(v) = game else { return false };
    let mut seen: HashMap<Cell, Vec<(u8, Side)>> = HashMap::new();
    for (t, tf) in tiles {
        let Some(c) = t.cell else { continue };
        if tf.translation.distance(tile_pos(layout, c, t.level)) > 1e-3 {
            return false;
        }
        seen.entry(c).or_default().push((t.level, t.side));
    }
    for rank in 0..layout.ranks {
        for file in 0..layout.files {
            let c = Cell::new(file, rank);
            let want: Vec<(u8, Side)> = v
                .tower(c)
                .map(|t| t.tiles())
                .unwrap_or_default()
                .into_iter()
                .enumerate()
                .map(|(l, s)| (l as u8, s))
                .collect();
            let mut got = seen.remove(&c).unwrap_or_default();
            got.sort();
            if got != want {
                return false;
            }
        }
    }
    let mut count = 0;
    for (p, tf) in pawns {
        count += 1;
        let h = v.tower(p.cell).map(|t| t.height).unwrap_or(0);
        if v.pawn(p.side) != Some(p.cell) || tf.translation.distance(pawn_pos(layout, p.cell, h)) > 1e-3 {
            return false;
        }
    }
    count == [Side::First, Side::Second].iter().filter(|s| v.pawn(**s).is_some()).count() && seen.is_empty()
}
