//! Stones on a chequered board (Ordo, Ordo X, Crossings): flat round stones slide, a line
//! together; captured stones are lifted to the side of the table, Ordo X's cut-off groups
//! leave one after another; a Crossings stone that crossed wears a gold ring. The second
//! side's stones carry a pale pip in their centre, so that the sides differ by more than
//! their colour (in either palette).

use super::add_room;
use super::room::Room;
use crate::gui::frame::animate::{LIFT, SLIDE, Speed, Tween};
use crate::gui::frame::board::{BOARD_TOP, BoardItem, Layout, Marks, cell_pos, highlight, with_mark};
use crate::gui::frame::board::{Hovered, OnCell, pickable};
use crate::gui::frame::session::{Highlights, MovesToPlan, Picking, Session};
use crate::rules::{AnyGame, Cell, Effect, Game, Side, Variant};
use crate::sound::Sound;
use bevy::prelude::*;
use std::collections::HashMap;

/// Stone size: radius and thickness, in squares.
pub const STONE_R: f32 = 0.38;
pub const STONE_H: f32 = 0.16;

/// A square of the board.
#[derive(Component, Clone, Copy, Debug)]
pub struct Square(pub Cell);

/// A stone: its side, and the cell it stands on (`None` once it lies beside the board).
#[derive(Component, Clone, Copy, Debug)]
pub struct Stone {
    pub side: Side,
    pub cell: Option<Cell>,
}

impl OnCell for Square {
    fn cell(&self) -> Option<Cell> {
        Some(self.0)
    }
}

impl OnCell for Stone {
    fn cell(&self) -> Option<Cell> {
        self.cell
    }
}

/// A stone locked on its square for the rest of the game (it wears the gold ring).
#[derive(Component)]
pub struct Ringed;

/// Where the `index`-th captured stone of `side` lies, beside the board on its owner's right.
pub fn tray_pos(layout: &Layout, side: Side, index: usize) -> Vec3 {
    let x = layout.files as f32 / 2.0 + 0.9 + (index / 10) as f32 * 0.85;
    let z = ((index % 10) as f32 - 4.5) * 0.6;
    let (x, z) = if side == Side::First { (x, z) } else { (-x, -z) };
    Vec3::new(x, STONE_H / 2.0 + 0.01, z)
}

/// Meshes and materials of the stones and their board.
#[derive(Resource)]
pub struct StoneSet {
    stone: Handle<Mesh>,
    square: Handle<Mesh>,
    /// Ordo's white and blue, Crossings' red and black.
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
    /// The pip on the second side's stones.
    pip: Handle<Mesh>,
    pip_colour: Handle<StandardMaterial>,
}

/// The pip's radius and height, and the glow of a stone under the pointer.
const PIP_R: f32 = STONE_R * 0.3;
const PIP_H: f32 = 0.012;
const HOVER: [[f32; 3]; 2] = [[0.15, 0.15, 0.1], [0.12, 0.12, 0.3]];

fn colours(variant: Variant) -> usize {
    if variant == Variant::Crossings { 1 } else { 0 }
}

pub(crate) fn plugin(app: &mut App) {
    app.add_systems(Startup, setup).add_systems(Update, follow_palette.run_if(resource_changed::<super::Palette>));
    add_room(app, Room::Stones, build, plan, verify, paint);
}

fn setup(
    mut commands: Commands,
    mut meshes: ResMut<Assets<Mesh>>,
    mut materials: ResMut<Assets<StandardMaterial>>,
    quality: Option<Res<crate::gui::look::render::Quality>>,
) {
    let segments = crate::gui::look::render::round_segments(quality.as_deref());
    let mut mat = |c: Color, rough: f32| {
        materials.add(StandardMaterial { base_color: c, perceptual_roughness: rough, ..default() })
    };
    // The palette's colours are given by `follow_palette`.
    let stones =
        [[mat(Color::WHITE, 0.35), mat(Color::WHITE, 0.35)], [mat(Color::WHITE, 0.35), mat(Color::WHITE, 0.3)]];
    let light = mat(Color::srgb(0.86, 0.74, 0.55), 0.8);
    let dark = mat(Color::srgb(0.62, 0.45, 0.28), 0.8);
    let frame = mat(Color::srgb(0.32, 0.19, 0.09), 0.6);
    let pip_colour = mat(Color::srgb(0.86, 0.86, 0.82), 0.5);
    let mut glow = |c: Color, e: LinearRgba| {
        materials.add(StandardMaterial { base_color: c, emissive: e, perceptual_roughness: 0.5, ..default() })
    };
    let hover = [0, 1].map(|_| [0, 1].map(|_| glow(Color::WHITE, LinearRgba::BLACK)));
    let selected = glow(Color::WHITE, LinearRgba::BLACK);
    let capturable = glow(Color::WHITE, LinearRgba::BLACK);
    let target = glow(Color::WHITE, LinearRgba::BLACK);
    let last = glow(Color::srgb(0.9, 0.8, 0.45), LinearRgba::rgb(0.15, 0.12, 0.0));
    let hover_square = glow(Color::srgb(0.9, 0.85, 0.7), LinearRgba::rgb(0.1, 0.1, 0.08));
    let gold = materials.add(StandardMaterial {
        base_color: Color::srgb(0.95, 0.75, 0.2),
        metallic: 0.8,
        perceptual_roughness: 0.3,
        emissive: LinearRgba::rgb(0.3, 0.22, 0.0),
        ..default()
    });
    commands.insert_resource(StoneSet {
        stone: meshes.add(Cylinder::new(STONE_R, STONE_H).mesh().resolution(segments)),
        square: meshes.add(Cuboid::new(0.98, 0.04, 0.98)),
        stones,
        hover,
        selected,
        ring: meshes.add(Torus::new(STONE_R * 0.55, STONE_R * 0.72)),
        gold,
        capturable,
        light,
        dark,
        target,
        last,
        hover_square,
        frame,
        pip: meshes.add(Cylinder::new(PIP_R, PIP_H).mesh().resolution(20)),
        pip_colour,
    });
}

/// The stones and highlights in the palette's colours (at start, and when it changes).
fn follow_palette(palette: Res<super::Palette>, set: Res<StoneSet>, mut materials: ResMut<Assets<StandardMaterial>>) {
    let c = super::Colours::of(*palette);
    for (game, colours) in [c.ordo, c.crossings].into_iter().enumerate() {
        for side in 0..2 {
            super::recolour(&mut materials, &set.stones[game][side], colours[side], None);
            let e = HOVER[side];
            super::recolour(
                &mut materials,
                &set.hover[game][side],
                colours[side],
                Some(LinearRgba::rgb(e[0], e[1], e[2])),
            );
        }
    }
    super::reglow(&mut materials, &set.selected, c.selected);
    super::reglow(&mut materials, &set.capturable, c.capturable);
    super::reglow(&mut materials, &set.target, c.target);
}

/// Builds the board and stones of the shown position, with captured stones beside the board.
fn build(
    mut commands: Commands,
    session: Res<Session>,
    picking: Res<Picking>,
    set: Res<StoneSet>,
    layout: Res<Layout>,
    mut meshes: ResMut<Assets<Mesh>>,
    mut frame: Local<Option<((u8, u8), Handle<Mesh>)>>,
) {
    let shown: AnyGame = picking.shown(&session.game);
    let (files, ranks) = (layout.files, layout.ranks);
    let colours = colours(layout.variant);
    // The board: a frame (one mesh per board size, made once), then one square per cell.
    let frame_mesh = match &*frame {
        Some((size, mesh)) if *size == (files, ranks) => mesh.clone(),
        _ => {
            let mesh = meshes.add(Cuboid::new(files as f32 + 0.6, BOARD_TOP, ranks as f32 + 0.6));
            *frame = Some(((files, ranks), mesh.clone()));
            mesh
        }
    };
    commands.spawn((
        Mesh3d(frame_mesh),
        MeshMaterial3d(set.frame.clone()),
        Transform::from_xyz(0.0, BOARD_TOP / 2.0 - 0.02, 0.0),
        Pickable::IGNORE,
        BoardItem,
    ));
    for rank in 0..ranks {
        for file in 0..files {
            let c = Cell::new(file, rank);
            let mat = if (file + rank) % 2 == 0 { set.dark.clone() } else { set.light.clone() };
            let pos = cell_pos(&layout, c).with_y(BOARD_TOP - 0.01);
            let mut square = commands.spawn((
                Mesh3d(set.square.clone()),
                MeshMaterial3d(mat),
                Transform::from_translation(pos),
                Square(c),
                BoardItem,
            ));
            pickable::<Square>(&mut square);
            with_mark(&mut square, set.square.clone());
            if let Some(side) = shown.piece_at(c) {
                let stone = spawn_stone(&mut commands, &set, colours, side, Some(c), cell_pos(&layout, c));
                if shown.locked_at(c) {
                    ring(&mut commands, &set, stone);
                }
            }
        }
    }
    let off = session.off_board(&shown);
    for side in [Side::First, Side::Second] {
        for i in 0..off[side.index()] {
            spawn_stone(&mut commands, &set, colours, side, None, tray_pos(&layout, side, i));
        }
    }
}

fn spawn_stone(
    commands: &mut Commands,
    set: &StoneSet,
    colours: usize,
    side: Side,
    cell: Option<Cell>,
    at: Vec3,
) -> Entity {
    let mut stone = commands.spawn((
        Mesh3d(set.stone.clone()),
        MeshMaterial3d(set.stones[colours][side.index()].clone()),
        Transform::from_translation(at),
        Stone { side, cell },
        BoardItem,
    ));
    pickable::<Stone>(&mut stone);
    with_mark(&mut stone, set.stone.clone());
    if side == Side::Second {
        stone.with_child((
            Mesh3d(set.pip.clone()),
            MeshMaterial3d(set.pip_colour.clone()),
            Transform::from_xyz(0.0, (STONE_H + PIP_H) / 2.0, 0.0),
            Pickable::IGNORE,
        ));
    }
    stone.id()
}

/// Puts the gold ring on a stone that crossed.
fn ring(commands: &mut Commands, set: &StoneSet, stone: Entity) {
    commands.entity(stone).insert(Ringed).with_child((
        Mesh3d(set.ring.clone()),
        MeshMaterial3d(set.gold.clone()),
        Transform::from_xyz(0.0, STONE_H / 2.0, 0.0).with_scale(Vec3::new(1.0, 0.35, 1.0)),
        Pickable::IGNORE,
    ));
}

/// The stones' way through a move: each part's line slides together, captures are lifted to
/// the tray as the capturing stone arrives, removed groups leave one after another, and a
/// stone that crossed gets its ring.
fn plan(
    mut moves: MovesToPlan,
    mut commands: Commands,
    mut stones: Query<(Entity, &mut Stone, &mut Transform)>,
    set: Res<StoneSet>,
    layout: Res<Layout>,
    speed: Res<Speed>,
) {
    let f = speed.factor();
    for parts in moves.read() {
        let mut at: HashMap<Cell, Entity> = HashMap::new();
        let mut trays = [0usize; 2];
        for (e, stone, _) in &stones {
            match stone.cell {
                Some(c) => {
                    at.insert(c, e);
                }
                None => trays[stone.side.index()] += 1,
            }
        }
        let tray = |e: Entity, trays: &mut [usize; 2]| {
            let side = stones.get(e).map(|(_, s, _)| s.side).unwrap_or(Side::First);
            let slot = tray_pos(&layout, side, trays[side.index()]);
            trays[side.index()] += 1;
            slot
        };
        let mut targets: Vec<(Entity, Option<Cell>, Vec3, f32, f32, f32)> = Vec::new();
        let mut cursor = 0.0;
        for part in parts {
            // A part's stones move together: all are taken off, then put down.
            let moved: Vec<(Option<Entity>, Cell)> = part
                .iter()
                .filter_map(|e| match e {
                    Effect::Moved { from, to } => Some((*from, *to)),
                    _ => None,
                })
                .map(|(from, to)| (at.remove(&from), to))
                .collect();
            for effect in part {
                match effect {
                    Effect::Captured { at: c } => {
                        if let Some(e) = at.remove(c) {
                            // Lifted as the capturing stone arrives.
                            targets.push((e, None, tray(e, &mut trays), cursor + SLIDE * f * 0.8, LIFT * f, 0.8));
                        }
                    }
                    Effect::Locked { at: c } => {
                        if let Some((Some(e), _)) = moved.iter().find(|(_, to)| to == c) {
                            ring(&mut commands, &set, *e);
                        }
                    }
                    _ => {}
                }
            }
            for (e, to) in &moved {
                if let Some(e) = e {
                    at.insert(*to, *e);
                    targets.push((*e, Some(*to), cell_pos(&layout, *to), cursor, SLIDE * f, 0.05));
                }
            }
            if !moved.is_empty() {
                cursor += SLIDE * f;
            }
            for effect in part {
                if let Effect::Removed { at: c } = effect
                    && let Some(e) = at.remove(c)
                {
                    // One after another, once the move has landed.
                    cursor += LIFT * f * 0.5;
                    targets.push((e, None, tray(e, &mut trays), cursor + SLIDE * f * 0.5, LIFT * f, 0.8));
                }
            }
        }
        for (e, cell, to, delay, duration, lift) in targets {
            let Ok((_, mut stone, tf)) = stones.get_mut(e) else { continue };
            stone.cell = cell;
            // A stone lifted off lands in its tray; one on the board slides (the stones of a
            // group moving together are heard as one).
            let sound = if lift > 0.5 { Sound::StoneSet } else { Sound::StoneSlid };
            // Instant too (a tween of no time): the change is flashed and the scene checked.
            commands.entity(e).insert(Tween::slide(tf.translation, to, delay, duration, lift).sounding(sound));
        }
    }
}

/// Once the table settles: the stones on the board are exactly the shown position's pieces,
/// each on its square; otherwise the scene is rebuilt (and counted).
fn verify(stones: Query<(&Stone, &Transform)>, mut check: super::SceneCheck) {
    if let Some(shown) = check.shown() {
        let ok = stones_match(&shown, &check.layout, stones.iter());
        check.expect(ok);
    }
}

/// Whether the stones on the board are exactly the position's pieces, each on its square.
pub fn stones_match<'a>(
    shown: &AnyGame,
    layout: &Layout,
    stones: impl Iterator<Item = (&'a Stone, &'a Transform)>,
) -> bool {
    let mut on_board = 0;
    for (stone, tf) in stones {
        if let Some(c) = stone.cell {
            on_board += 1;
            if shown.piece_at(c) != Some(stone.side) || tf.translation.distance(cell_pos(layout, c)) > 1e-3 {
                return false;
            }
        }
    }
    let (f, r) = shown.board_size();
    let pieces =
        (0..r).flat_map(|r| (0..f).map(move |f| Cell::new(f, r))).filter(|c| shown.piece_at(*c).is_some()).count();
    on_board == pieces
}

/// Marks from the highlights: selection, legal destinations, last move, hover.
fn paint(
    marks: Res<Highlights>,
    set: Res<StoneSet>,
    layout: Res<Layout>,
    session: Res<Session>,
    squares: Query<(&Square, &Children, Has<Hovered>), Without<Stone>>,
    stones: Query<(&Stone, &Children, Has<Hovered>), Without<Square>>,
    mut shells: Marks,
) {
    let colours = colours(layout.variant);
    for (sq, children, hovered) in &squares {
        let c = sq.0;
        let own = if (c.file + c.rank) % 2 == 0 { &set.dark } else { &set.light };
        let want = if marks.targets.contains(&c) {
            &set.target
        } else if hovered && marks.person {
            &set.hover_square
        } else if marks.last.contains(&c) {
            &set.last
        } else {
            own
        };
        highlight(children, &mut shells, want, own);
    }
    let side_to_move = session.game.side_to_move();
    for (stone, children, hovered) in &stones {
        let own = &set.stones[colours][stone.side.index()];
        let want = match stone.cell {
            Some(c) if marks.selected.contains(&c) => &set.selected,
            Some(c) if marks.targets.contains(&c) => &set.capturable,
            Some(_) if hovered && marks.person && stone.side == side_to_move => &set.hover[colours][stone.side.index()],
            _ => own,
        };
        highlight(children, &mut shells, want, own);
    }
}
