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
        false => box_centre(layout) + Vec3::new(0.0, HEIGHT + 0.03, 0.0),
        true => box_centre(layout) + Vec3::new(0.0, 0.03, -(LENGTH + 0.15)),
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

/// The box beside the board, whenever the pine set is on the table.
fn make_box(
    mut commands: Commands,
    layout: Res<Layout>,
    mut meshes: ResMut<Assets<Mesh>>,
    mut materials: ResMut<Assets<StandardMaterial>>,
    mut images: ResMut<Assets<Image>>,
    mut mesh: Local<Option<(Handle<Mesh>, Handle<Mesh>, Handle<StandardMaterial>)>>,
    boxes: Query<&PineBox>,
    unboxing: Res<Unboxing>,
    session: Res<Session>,
) {
    if !boxes.is_empty() {
        return;
    }
    let (tray, lid, material) = mesh
        .get_or_insert_with(|| {
            // Pine like the light tiles, clear of knots (a box's long boards are chosen so), a
            // shade warmer and satin-varnished.
            let grain = images.add(crate::gui::frame::board::wood_grain([0.93, 0.80, 0.56], 128, 30.0, 0.12));
            let varnished = materials.add(StandardMaterial {
                base_color: Color::srgb(0.92, 0.8, 0.62),
                base_color_texture: Some(grain),
                perceptual_roughness: 0.45,
                ..default()
            });
            // The tray: a bottom and four walls in one mesh.
            let mut tray = Cuboid::new(WIDTH, WALL, LENGTH).mesh().build().translated_by(Vec3::Y * WALL / 2.0);
            for (size, at) in [
                (Vec3::new(WALL, HEIGHT, LENGTH), Vec3::new(-(WIDTH - WALL) / 2.0, HEIGHT / 2.0, 0.0)),
                (Vec3::new(WALL, HEIGHT, LENGTH), Vec3::new((WIDTH - WALL) / 2.0, HEIGHT / 2.0, 0.0)),
                (Vec3::new(WIDTH, HEIGHT, WALL), Vec3::new(0.0, HEIGHT / 2.0, -(LENGTH - WALL) / 2.0)),
                (Vec3::new(WIDTH, HEIGHT, WALL), Vec3::new(0.0, HEIGHT / 2.0, (LENGTH - WALL) / 2.0)),
            ] {
                let wall = Cuboid::from_size(size).mesh().build().translated_by(at);
                if let Err(e) = tray.merge(&wall) {
                    warn!("the box's wall could not be made: {e}");
                }
            }
            (meshes.add(tray), meshes.add(Cuboid::new(WIDTH - 0.02, 0.05, LENGTH - 0.02)), varnished)
        })
        .clone();
    commands.spawn((
        Mesh3d(tray),
        MeshMaterial3d(material.clone()),
        Transform::from_translation(box_centre(&layout)),
        PineBox::Tray,
        BoardItem,
        Pickable::IGNORE,
    ));
    // The lid is open once the game's set was laid out (or for a game that has begun).
    let begun = !session.history.is_empty() || unboxing.laid_for == Some(session.record.created_ms);
    commands.spawn((
        Mesh3d(lid),
        MeshMaterial3d(material),
        Transform::from_translation(lid_at(&layout, begun)),
        PineBox::Lid,
        BoardItem,
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
            MeshMaterial3d(set.tiles[side.index()][k % super::pine_wood::VARIANTS].clone()),
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
