//! The pine Volterra set: square tiles with visible thickness in light and dark pine, stacked
//! into towers, two pawns turned on a lathe, felt pads that show the cells and the holes.
//! Its own animation: the pawn hops, lifted tiles arc onto their new tower, parts cut off by
//! a split slide off the table edge.

use super::add_room;
use super::room::Room;
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
    /// Each colour's wood variants (see `pine_wood`).
    tiles: [Vec<Handle<StandardMaterial>>; 2],
    pawns: [Handle<StandardMaterial>; 2],
    felt: Handle<StandardMaterial>,
    target: Handle<StandardMaterial>,
    selected: Handle<StandardMaterial>,
    /// The pale inlay in a corner of each dark tile (top and bottom face).
    inlay: Handle<Mesh>,
    inlay_colour: Handle<StandardMaterial>,
}

/// The inlay's radius and how far from the tile's centre it sits (along both axes).
const INLAY_R: f32 = 0.09;
const INLAY_AT: f32 = TILE / 2.0 - 0.16;

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

/// The pawn's profile: a foot, a waisted body, a collar and a round head, 3 cm tall.
fn pawn_profile() -> Vec<(f32, f32)> {
    let k = PAWN_H / 0.62;
    // Two lathe rings: a groove above the foot and one on the body.
    let mut p = vec![(0.0, 0.0), (0.2, 0.0), (0.215, 0.02), (0.21, 0.045), (0.197, 0.053), (0.205, 0.06)];
    p.extend([(0.17, 0.078), (0.13, 0.11), (0.112, 0.17), (0.1, 0.178), (0.108, 0.186), (0.105, 0.2)]);
    p.extend([(0.09, 0.3), (0.085, 0.36), (0.13, 0.385), (0.135, 0.4), (0.085, 0.425), (0.09, 0.44)]);
    // The head: a quarter circle up to the top.
    for i in 0..=8 {
        let a = i as f32 / 8.0 * std::f32::consts::FRAC_PI_2;
        p.push((0.1 * a.cos() + 0.0001, 0.52 + 0.1 * a.sin() - 0.08 * (1.0 - a.sin()).min(0.0)));
    }
    p.push((0.0, 0.62));
    p.into_iter().map(|(r, y)| (r * k, y * k)).collect()
}

pub(crate) fn plugin(app: &mut App) {
    app.add_systems(Startup, setup).add_systems(Update, follow_palette.run_if(resource_changed::<super::Palette>));
    add_room(app, Room::Pine, build, plan, verify, (paint, heights));
    pine_box::plugin(app);
}

fn setup(
    mut commands: Commands,
    mut meshes: ResMut<Assets<Mesh>>,
    mut materials: ResMut<Assets<StandardMaterial>>,
    mut images: ResMut<Assets<Image>>,
) {
    // The dark pine's grain is closer and stronger than the light's: the tiles differ in their
    // grain as well as their colour. Each colour has its seeded variants, with knots and end
    // grain, a normal map for the grain to catch the light, and a satin finish.
    use pine_wood::{Pine, VARIANTS, tile_textures};
    let kinds = [
        Pine { base: [0.93, 0.80, 0.56], rings: 38.0, contrast: 0.16 },
        Pine { base: [0.40, 0.23, 0.11], rings: 64.0, contrast: 0.3 },
    ];
    let tiles = [0, 1].map(|k| {
        (0..VARIANTS)
            .map(|v| {
                let (colour, normal) = tile_textures(kinds[k], 0x9e37 + (k * VARIANTS + v) as u64);
                materials.add(StandardMaterial {
                    base_color_texture: Some(images.add(colour)),
                    normal_map_texture: Some(images.add(normal)),
                    perceptual_roughness: 0.55,
                    reflectance: 0.4,
                    ..default()
                })
            })
            .collect::<Vec<_>>()
    });
    let pawn_wood = |m: &mut Assets<StandardMaterial>, i: &mut Assets<Image>, base: [f32; 3], seed: u64| {
        m.add(StandardMaterial {
            base_color_texture: Some(i.add(pine_wood::pawn_texture(base, seed))),
            perceptual_roughness: 0.45,
            ..default()
        })
    };
    let pawns = [
        pawn_wood(&mut materials, &mut images, [0.95, 0.88, 0.72], 1),
        pawn_wood(&mut materials, &mut images, [0.28, 0.16, 0.08], 2),
    ];
    let glow = |m: &mut Assets<StandardMaterial>, c: Color, e: LinearRgba| {
        m.add(StandardMaterial { base_color: c, emissive: e, perceptual_roughness: 0.6, ..default() })
    };
    commands.insert_resource(PineSet {
        tile: meshes.add(pine_wood::tile_mesh(TILE, THICK * 0.98)),
        pawn: meshes.add(lathe(&pawn_profile(), 28)),
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
        inlay: meshes.add(Cylinder::new(INLAY_R, THICK * 0.98 + 0.008).mesh().resolution(16)),
        inlay_colour: materials.add(StandardMaterial {
            base_color: Color::srgb(0.96, 0.9, 0.74),
            perceptual_roughness: 0.6,
            ..default()
        }),
    });
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
                spawn_tile(
                    commands,
                    set,
                    Tile { cell: Some(c), level: level as u8, side },
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

/// The wood variant of a tile, from where it stands as it is made (it keeps it as it moves).
fn wood_of(tile: &Tile) -> usize {
    tile.cell.map_or(0, |c| pine_wood::variant_of(c.file, c.rank, tile.level))
}

fn spawn_tile(commands: &mut Commands, set: &PineSet, tile: Tile, at: Vec3) -> Entity {
    // Alternate the grain direction so stacked tiles read as separate pieces of wood.
    let turn = if tile.level % 2 == 0 { 0.0 } else { std::f32::consts::FRAC_PI_2 };
    let mut e = commands.spawn((
        Mesh3d(set.tile.clone()),
        MeshMaterial3d(set.tiles[tile.side.index()][wood_of(&tile)].clone()),
        Transform::from_translation(at).with_rotation(Quat::from_rotation_y(turn)),
        tile,
        BoardItem,
    ));
    pickable::<Tile>(&mut e);
    with_mark(&mut e, set.tile.clone());
    if tile.side == Side::Second {
        // Through the tile, showing on both faces, in the same corner of every level.
        let corner = Quat::from_rotation_y(-turn) * Vec3::new(INLAY_AT, 0.0, INLAY_AT);
        e.with_child((
            Mesh3d(set.inlay.clone()),
            MeshMaterial3d(set.inlay_colour.clone()),
            Transform::from_translation(corner),
            Pickable::IGNORE,
        ));
    }
    e.id()
}

fn spawn_pawn(commands: &mut Commands, set: &PineSet, pawn: Pawn, at: Vec3) -> Entity {
    let mut e = commands.spawn((
        Mesh3d(set.pawn.clone()),
        MeshMaterial3d(set.pawns[pawn.side.index()].clone()),
        Transform::from_translation(at),
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
                    let e = spawn_tile(&mut commands, &set, Tile { cell: Some(*at), level, side: *side }, from);
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
        let own = &set.tiles[t.side.index()][0];
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
