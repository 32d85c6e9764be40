//! The pine Volterra set's box, beside the board: a varnished pine tray with a lid that slides along it, the
//! tiles kept inside in four stacks of five and the pawns beside them. When a Volterra game begins the
//! lid comes off (laid beside the box) and the tiles are laid out of the box onto their squares in the setup
//! order (rank by rank from a1), then the pawns; a click or a key lays the rest at once, and
//! under reduced motion (instant animation) the set is simply there. In the free setup the
//! tiles stay in the box until they are laid: each tile laid comes out of it.

use super::{Pawn, PineSet, THICK, TILE, Tile, pawn_pos, tile_pos};
use crate::gui::frame::animate::{Speed, Tween};
use crate::gui::frame::board::{BoardItem, Layout};
use crate::gui::frame::session::Session;
use crate::rules::{AnyGame, Game, Side, Variant};
use crate::sound::Sound;
use bevy::prelude::*;

/// The box's tray and lid.
#[derive(Component, Clone, Copy, Debug, PartialEq, Eq)]
pub enum PineBox {
    Tray,
    Lid,
}

/// A tile still in the box (free setup): not yet part of the game.
#[derive(Component, Clone, Copy, Debug)]
pub struct Boxed(pub usize);

/// The tiles and pawns on their way out of the box at the start of a game, skippable.
#[derive(Resource, Clone, Debug, Default)]
pub struct Unboxing {
    /// The game (its record's creation time) whose set was last laid out, so that a rebuild
    /// (an undo, a pasted position) never unboxes again.
    pub laid_for: Option<u64>,
    /// The tiles and pawns moving now.
    pub moving: Vec<Entity>,
}

/// The tiles in the box: 20, in four stacks of five.
pub const IN_BOX: usize = 20;
/// Seconds the lid takes to slide open, and between one tile laid and the next.
const LID: f32 = 0.6;
const EACH: f32 = 0.18;
const FLIGHT: f32 = 0.45;

/// Where the box stands: beside the board on the first side's left, along the ranks.
pub fn box_centre(layout: &Layout) -> Vec3 {
    Vec3::new(-(layout.files as f32 / 2.0 + 0.6 + WIDTH / 2.0), 0.0, 0.0)
}

/// Where the `k`-th tile lies in the box (0 at the bottom of the first stack): four stacks,
/// two by two, filled a level at a time.
pub fn slot(layout: &Layout, k: usize) -> Vec3 {
    let (sx, sz) = ((k % 2) as f32, ((k / 2) % 2) as f32);
    let level = (k / 4) as f32;
    box_centre(layout)
        + Vec3::new((sx - 0.5) * (TILE + 0.04), WALL + THICK * (level + 0.5), (sz - 0.5) * (TILE + 0.04) - 0.45)
}

/// Where a pawn lies in the box, at the far end past the stacks.
fn pawn_slot(layout: &Layout, side: Side) -> Vec3 {
    box_centre(layout) + Vec3::new(if side == Side::First { -0.45 } else { 0.45 }, WALL, 1.15)
}

/// The box's outside: two tiles wide, two long and the pawns' place, five tiles high.
const WIDTH: f32 = 2.0 * TILE + 0.24;
const LENGTH: f32 = 2.0 * TILE + 1.1;
const HEIGHT: f32 = THICK * 5.0 + 0.2;
const WALL: f32 = 0.08;

/// The lid's place closed (on top of the walls) and open (slid off and laid on the table
/// past the box's far end).
fn lid_at(layout: &Layout, open: bool) -> Vec3 {
    match open {
        false => box_centre(layout) + Vec3::new(0.0, HEIGHT - LID_DOWN - LID_T / 2.0, 0.0),
        true => box_centre(layout) + Vec3::new(0.0, LID_T / 2.0, -(LENGTH + 0.15)),
    }
}

pub(super) fn plugin(app: &mut App) {
    use crate::gui::frame::steps::TableSystems;
    use crate::gui::sets::room::{Room, on_table};
    app.init_resource::<Unboxing>()
        .add_systems(PreUpdate, skip.run_if(on_table(Room::Pine)).in_set(TableSystems::Pick))
        .add_systems(
            Update,
            (make_box, unbox, fill_box).chain().run_if(on_table(Room::Pine)).in_set(TableSystems::Plan),
        );
}

/// The box's boards: the bottom, two long walls, two end walls (the front one lower, for the
/// lid to slide over it) and the lid, each as (its half-size as a board, with the grain along
/// its x; where its centre is in the box; how it is turned). The lid slides in grooves cut
/// along the long walls' inner faces, just under their top.
fn boards() -> [(Vec3, Vec3, Quat); 6] {
    let turn = |x: Vec3, y: Vec3, z: Vec3| Quat::from_mat3(&Mat3::from_cols(x, y, z));
    let inner = WIDTH - 2.0 * WALL;
    let front = HEIGHT - LID_T - 0.02;
    [
        // The bottom, between the walls.
        (
            Vec3::new(LENGTH / 2.0 - WALL, WALL / 2.0, inner / 2.0),
            Vec3::new(0.0, WALL / 2.0, 0.0),
            turn(Vec3::Z, Vec3::Y, -Vec3::X),
        ),
        // The long walls, their boards standing on edge.
        (
            Vec3::new(LENGTH / 2.0, WALL / 2.0, HEIGHT / 2.0),
            Vec3::new(-(WIDTH - WALL) / 2.0, HEIGHT / 2.0, 0.0),
            turn(Vec3::Z, Vec3::X, Vec3::Y),
        ),
        (
            Vec3::new(LENGTH / 2.0, WALL / 2.0, HEIGHT / 2.0),
            Vec3::new((WIDTH - WALL) / 2.0, HEIGHT / 2.0, 0.0),
            turn(Vec3::Z, Vec3::X, Vec3::Y),
        ),
        // The ends between them: the back one full height, the front one under the lid.
        (
            Vec3::new(inner / 2.0, WALL / 2.0, HEIGHT / 2.0),
            Vec3::new(0.0, HEIGHT / 2.0, (LENGTH - WALL) / 2.0),
            turn(Vec3::X, -Vec3::Z, Vec3::Y),
        ),
        (
            Vec3::new(inner / 2.0, WALL / 2.0, front / 2.0),
            Vec3::new(0.0, front / 2.0, -(LENGTH - WALL) / 2.0),
            turn(Vec3::X, -Vec3::Z, Vec3::Y),
        ),
        // The lid (its place is the lid's own entity's).
        (
            Vec3::new(LENGTH / 2.0 - 0.01, LID_T / 2.0, inner / 2.0 + GROOVE - 0.005),
            Vec3::ZERO,
            turn(Vec3::Z, Vec3::Y, -Vec3::X),
        ),
    ]
}

/// The lid's thickness, and how deep the grooves it slides in are cut.
const LID_T: f32 = 0.05;
const GROOVE: f32 = 0.03;
/// The lid's top lies this far under the long walls' top.
const LID_DOWN: f32 = 0.025;

/// The box's wood: a board each, the lid with its finger
/// notch, the long walls with their grooves.
fn box_wood(detail: super::pine_wood::Detail) -> Vec<super::pine_wood::Baked> {
    use super::pine_wood::{Cut, Face, Sample, Sawn, Stain, bake_board};
    {
        let groove_y = HEIGHT - LID_DOWN - LID_T / 2.0 - HEIGHT / 2.0;
        boards()
            .iter()
            .enumerate()
            .map(|(k, (half, _, _))| {
                let cut = Cut::random(0xb0c5 + k as u64, Sawn::Any);
                let cut = Cut { knots: Vec::new(), ..cut };
                bake_board(*half, &cut, &Stain::pine(), detail.board(), |face, p, s| match (k, face) {
                    // The long walls' grooves, on their inner faces (the board's y towards the box).
                    (1, Face::Top) | (2, Face::Bottom) if (p.z - groove_y).abs() < LID_T / 2.0 + 0.004 => {
                        Sample { colour: s.colour * 0.3, roughness: 0.8, height: -1.0 }
                    }
                    // The lid's finger notch, a shallow scoop near the end that slides out first.
                    (5, Face::Top) => {
                        let d = Vec2::new((p.x + half.x - 0.22) / 0.1, p.z / 0.3).length();
                        if d >= 1.0 {
                            return s;
                        }
                        // Cut across the grain: darker, rougher, and in shade towards its far side.
                        let depth = 1.0 - d * d;
                        let shade = 1.0 - 0.3 * depth - 0.15 * ((p.x + half.x - 0.22) / 0.1).max(0.0);
                        Sample { colour: s.colour * shade, roughness: s.roughness + 0.15, height: -depth * 2.0 }
                    }
                    _ => s,
                })
            })
            .collect()
    }
}

/// The box beside the board, whenever the pine set is on the table.
#[allow(clippy::too_many_arguments)]
fn make_box(
    mut commands: Commands,
    layout: Res<Layout>,
    mut meshes: ResMut<Assets<Mesh>>,
    mut materials: ResMut<Assets<StandardMaterial>>,
    mut images: ResMut<Assets<Image>>,
    quality: Option<Res<crate::gui::look::render::Quality>>,
    mut made: Local<Option<Vec<(Handle<Mesh>, Handle<StandardMaterial>, Vec3, Quat)>>>,
    boxes: Query<&PineBox>,
    unboxing: Res<Unboxing>,
    session: Res<Session>,
) {
    if !boxes.is_empty() {
        return;
    }
    let parts = made
        .get_or_insert_with(|| {
            let detail = super::detail_of(quality.as_deref());
            // Baked for a drawn table; a headless one keeps plain pine.
            let mut wood = if quality.is_some() { box_wood(detail) } else { Vec::new() }.into_iter();
            let plain = materials.add(StandardMaterial {
                base_color: Color::srgb(0.92, 0.8, 0.62),
                perceptual_roughness: 0.5,
                ..default()
            });
            boards()
                .iter()
                .map(|(half, at, turn)| {
                    let mesh = meshes.add(super::pine_wood::board_mesh(*half, super::pine_wood::CHAMFER));
                    let material = match wood.next() {
                        Some(baked) => materials.add(super::oiled(baked, detail, &mut images, true)),
                        None => plain.clone(),
                    };
                    (mesh, material, *at, *turn)
                })
                .collect()
        })
        .clone();
    let (walls, lid) = parts.split_at(5);
    commands
        .spawn((
            Transform::from_translation(box_centre(&layout)),
            Visibility::default(),
            PineBox::Tray,
            BoardItem,
            Pickable::IGNORE,
        ))
        .with_children(|tray| {
            for (mesh, material, at, turn) in walls {
                tray.spawn((
                    Mesh3d(mesh.clone()),
                    MeshMaterial3d(material.clone()),
                    Transform::from_translation(*at).with_rotation(*turn),
                    Pickable::IGNORE,
                ));
            }
        });
    // The lid is open once the game's set was laid out (or for a game that has begun).
    let begun = !session.history.is_empty() || unboxing.laid_for == Some(session.record.created_ms);
    let (mesh, material, _, turn) = &lid[0];
    commands
        .spawn((
            Transform::from_translation(lid_at(&layout, begun)),
            Visibility::default(),
            PineBox::Lid,
            BoardItem,
            Pickable::IGNORE,
        ))
        .with_child((
            Mesh3d(mesh.clone()),
            MeshMaterial3d(material.clone()),
            Transform::from_rotation(*turn),
            Pickable::IGNORE,
        ));
}

/// A new Volterra game's set comes out of the box: the lid slides open, then each tile flies
/// from its place in the box to its square in the setup order, then the pawns. Only once a
/// game, only before its first move, never in a replay or under reduced motion.
#[allow(clippy::too_many_arguments)]
fn unbox(
    mut commands: Commands,
    session: Res<Session>,
    layout: Res<Layout>,
    speed: Res<Speed>,
    mut unboxing: ResMut<Unboxing>,
    unpacking: Res<crate::gui::sets::room::Unpacking>,
    tiles: Query<(Entity, &Tile, &Transform)>,
    pawns: Query<(Entity, &Pawn, &Transform), Without<Tile>>,
    lids: Query<(Entity, &PineBox, &Transform), (Without<Tile>, Without<Pawn>)>,
) {
    let game = session.record.created_ms;
    if unboxing.laid_for == Some(game) || tiles.is_empty() || lids.is_empty() {
        return;
    }
    unboxing.laid_for = Some(game);
    let fresh = unpacking.0 && session.history.is_empty() && session.replay.is_none() && !session.spectator;
    let AnyGame::Volterra(v) = &session.game else { return };
    let f = speed.factor();
    if !fresh || f <= 0.0 || v.variant() != Variant::Volterra {
        // The lid is simply open.
        for (e, b, _) in &lids {
            if *b == PineBox::Lid {
                commands.entity(e).insert(Transform::from_translation(lid_at(&layout, true)));
            }
        }
        return;
    }
    unboxing.moving.clear();
    for (e, b, tf) in &lids {
        if *b == PineBox::Lid {
            commands.entity(e).insert(
                Tween::slide(tf.translation, lid_at(&layout, true), 0.0, LID * f, 0.6).sounding(Sound::LidSlid),
            );
            unboxing.moving.push(e);
        }
    }
    // The setup order: rank by rank from a1, each tower bottom up.
    let mut laid: Vec<(Entity, Tile, Transform)> =
        tiles.iter().filter(|(_, t, _)| t.cell.is_some()).map(|(e, t, tf)| (e, *t, *tf)).collect();
    laid.sort_by_key(|(_, t, _)| {
        let c = t.cell.expect("filtered");
        (t.level, c.rank, c.file)
    });
    let mut delay = LID * f;
    for (k, (e, t, tf)) in laid.iter().enumerate() {
        let c = t.cell.expect("filtered");
        let from = slot(&layout, (IN_BOX - 1).saturating_sub(k));
        let to = tile_pos(&layout, c, t.level);
        let at = Transform { translation: from, ..*tf };
        commands
            .entity(*e)
            .insert((at, Tween::slide(from, to, delay, FLIGHT * f, 1.2).sounding(super::landing(t.level))));
        unboxing.moving.push(*e);
        delay += EACH * f;
    }
    for (e, p, tf) in &pawns {
        let h = v.tower(p.cell).map(|t| t.height).unwrap_or(0);
        let from = pawn_slot(&layout, p.side);
        let to = pawn_pos(&layout, p.cell, h);
        let at = Transform { translation: from, ..*tf };
        commands.entity(e).insert((at, Tween::slide(from, to, delay, FLIGHT * f, 1.2).sounding(Sound::TileStacked)));
        unboxing.moving.push(e);
        delay += EACH * f * 2.0;
    }
}

/// A click or a key while the set comes out of the box lays the rest at once.
fn skip(
    mut unboxing: ResMut<Unboxing>,
    mut tweens: Query<&mut Tween>,
    mut clicks: MessageReader<crate::gui::frame::board::CellClicked>,
    mut keys: MessageReader<crate::gui::frame::keymap::AnyKey>,
    mouse: Option<Res<ButtonInput<MouseButton>>>,
) {
    let clicked = clicks.read().count() > 0
        || keys.read().count() > 0
        || mouse.is_some_and(|m| m.just_pressed(MouseButton::Left));
    if unboxing.moving.is_empty() {
        return;
    }
    let still: Vec<Entity> = unboxing.moving.iter().copied().filter(|e| tweens.contains(*e)).collect();
    if still.is_empty() {
        unboxing.moving.clear();
        return;
    }
    if clicked {
        for e in still {
            if let Ok(mut t) = tweens.get_mut(e) {
                t.elapsed = t.delay + t.duration;
            }
        }
        unboxing.moving.clear();
    }
}

/// The free setup's tiles wait in the box: as many as are not yet laid, in their stacks.
fn fill_box(
    mut commands: Commands,
    session: Res<Session>,
    layout: Res<Layout>,
    set: Res<PineSet>,
    boxed: Query<(Entity, &Boxed)>,
    tiles: Query<&Tile>,
) {
    let AnyGame::Volterra(v) = &session.game else { return };
    let want = if v.variant() == Variant::VolterraFree {
        IN_BOX.saturating_sub(tiles.iter().filter(|t| t.cell.is_some()).count())
    } else {
        0
    };
    let have = boxed.iter().count();
    if have == want {
        return;
    }
    // The top ones go first.
    for (e, b) in &boxed {
        if b.0 >= want {
            commands.entity(e).despawn();
        }
    }
    for k in have.min(want)..want {
        // Light and dark alternate in the stacks, as the set is packed.
        let side = if k % 2 == 0 { Side::First } else { Side::Second };
        commands.spawn((
            Mesh3d(set.tile.clone()),
            MeshMaterial3d(super::wood_of(&set, side, (k / 2) as u8)),
            Transform::from_translation(slot(&layout, k)),
            Boxed(k),
            BoardItem,
            Pickable::IGNORE,
        ));
    }
}

/// Where a tile laid in the free setup comes from: the top of what is left in the box.
pub fn next_out_of_box(layout: &Layout, laid_before: usize) -> Vec3 {
    slot(layout, IN_BOX.saturating_sub(laid_before + 1))
}
