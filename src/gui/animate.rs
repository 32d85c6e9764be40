//! Animation from the rules' effects: stones slide (a line together), captured stones are
//! lifted to the side of the table, Ordo X's removed sub-groups leave one after another.
//! When everything has settled, the scene is checked against the rules' position.

use super::Screen;
use super::scene::{Layout, Stone, cell_pos, tray_pos};
use super::session::{Animate, Rebuild, Session};
use crate::rules::{Cell, Effect};
use bevy::prelude::*;
use std::collections::HashMap;

/// Seconds for a slide at normal speed.
pub const SLIDE: f32 = 0.35;
/// Seconds for a capture or a removal to reach the tray.
pub const LIFT: f32 = 0.45;

/// Animation speed, a setting.
#[derive(Resource, Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Speed {
    #[default]
    Normal,
    Fast,
    Instant,
}

impl Speed {
    /// Duration multiplier.
    pub fn factor(self) -> f32 {
        match self {
            Speed::Normal => 1.0,
            Speed::Fast => 0.4,
            Speed::Instant => 0.0,
        }
    }

    pub fn next(self) -> Speed {
        match self {
            Speed::Normal => Speed::Fast,
            Speed::Fast => Speed::Instant,
            Speed::Instant => Speed::Normal,
        }
    }

    pub fn label(self) -> &'static str {
        match self {
            Speed::Normal => "normal",
            Speed::Fast => "fast",
            Speed::Instant => "instant",
        }
    }
}

/// A piece on its way: eased from `from` to `to` after `delay`, rising `lift` at mid-way.
#[derive(Component, Clone, Debug)]
pub struct Tween {
    pub from: Vec3,
    pub to: Vec3,
    pub delay: f32,
    pub duration: f32,
    pub elapsed: f32,
    pub lift: f32,
}

impl Tween {
    /// A piece put on the table: it drops from `height` above `to`.
    pub fn falling(to: Vec3, height: f32, delay: f32, duration: f32) -> Tween {
        Tween { from: to + Vec3::Y * height, to, delay, duration: duration.max(1e-3), elapsed: 0.0, lift: 0.0 }
    }

    fn at(&self) -> Vec3 {
        let p = if self.duration <= 0.0 { 1.0 } else { ((self.elapsed - self.delay) / self.duration).clamp(0.0, 1.0) };
        let k = p * p * (3.0 - 2.0 * p);
        self.from.lerp(self.to, k) + Vec3::Y * self.lift * (std::f32::consts::PI * p).sin()
    }

    fn done(&self) -> bool {
        self.elapsed >= self.delay + self.duration
    }
}

/// How often the settled scene did not match the rules and had to be rebuilt (0 when all is well).
#[derive(Resource, Default, Debug)]
pub struct Resyncs(pub u32);

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<Speed>().init_resource::<Resyncs>().add_systems(
        Update,
        (plan, tick, check_settled.after(super::sets::ctor::turn))
            .chain()
            .after(super::scene::rebuild_scene)
            .run_if(in_state(Screen::Playing)),
    );
}

fn plan(
    mut moves: crate::gui::session::MovesToPlan,
    mut commands: Commands,
    mut stones: Query<(Entity, &mut Stone, &mut Transform)>,
    layout: Res<Layout>,
    speed: Res<Speed>,
) {
    for Animate { effects, skip, breaks } in moves.read() {
        let f = speed.factor();
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
        let mut targets: Vec<(Entity, Option<Cell>, Vec3, f32, f32, f32)> = Vec::new();
        let mut cursor = 0.0;
        let mut i = (*skip).min(effects.len());
        while i < effects.len() {
            match &effects[i] {
                Effect::Moved { .. } => {
                    // A line moves together: take every stone of the group off, then put them
                    // down. A new part of the move starts a new group.
                    let mut group = Vec::new();
                    while let Some(Effect::Moved { from, to }) = effects.get(i) {
                        if !group.is_empty() && breaks.contains(&i) {
                            break;
                        }
                        group.push((*from, *to));
                        i += 1;
                    }
                    let picked: Vec<(Option<Entity>, Cell)> =
                        group.iter().map(|(from, to)| (at.remove(from), *to)).collect();
                    for (e, to) in picked {
                        if let Some(e) = e {
                            at.insert(to, e);
                            targets.push((e, Some(to), cell_pos(&layout, to), cursor, SLIDE * f, 0.05));
                        }
                    }
                    cursor += SLIDE * f;
                    continue;
                }
                Effect::Captured { at: c } => {
                    if let Some(e) = at.remove(c) {
                        let side = stones.get(e).map(|(_, s, _)| s.side).unwrap_or(crate::rules::Side::First);
                        let slot = tray_pos(&layout, side, trays[side.index()]);
                        trays[side.index()] += 1;
                        // Lifted as the capturing stone arrives.
                        targets.push((e, None, slot, cursor + SLIDE * f * 0.8, LIFT * f, 0.8));
                    }
                }
                Effect::Removed { at: c } => {
                    if let Some(e) = at.remove(c) {
                        let side = stones.get(e).map(|(_, s, _)| s.side).unwrap_or(crate::rules::Side::First);
                        let slot = tray_pos(&layout, side, trays[side.index()]);
                        trays[side.index()] += 1;
                        // One after another, once the move has landed.
                        cursor += LIFT * f * 0.5;
                        targets.push((e, None, slot, cursor + SLIDE * f * 0.5, LIFT * f, 0.8));
                    }
                }
                _ => {}
            }
            i += 1;
        }
        for (e, cell, to, delay, duration, lift) in targets {
            let Ok((_, mut stone, mut tf)) = stones.get_mut(e) else { continue };
            stone.cell = cell;
            if duration <= 0.0 {
                tf.translation = to;
                commands.entity(e).remove::<Tween>();
            } else {
                commands.entity(e).insert(Tween { from: tf.translation, to, delay, duration, elapsed: 0.0, lift });
            }
        }
    }
}

pub(crate) fn tick(mut commands: Commands, time: Res<Time>, mut q: Query<(Entity, &mut Transform, &mut Tween)>) {
    for (e, mut tf, mut tween) in &mut q {
        tween.elapsed += time.delta_secs();
        if tween.elapsed >= tween.delay {
            tf.translation = tween.at();
        }
        if tween.done() {
            tf.translation = tween.to;
            commands.entity(e).remove::<Tween>();
        }
    }
}

/// Once nothing moves, every piece must stand where the rules' position says: stones, the
/// pine set's tiles and pawns, or the torus's discs and their copies. A mismatch rebuilds the
/// scene and is counted.
#[allow(clippy::too_many_arguments)]
fn check_settled(
    moving: Query<(), Or<(With<Tween>, With<super::sets::ctor::Turn>)>>,
    stones: Query<(&Stone, &Transform)>,
    tiles: Query<(&super::sets::volterra::Tile, &Transform)>,
    pawns: Query<(&super::sets::volterra::Pawn, &Transform)>,
    discs: Query<(&super::sets::ctor::Disc, &Transform)>,
    copies: Query<(&super::sets::ctor::Duplicate, &Transform)>,
    session: Option<Res<Session>>,
    layout: Res<Layout>,
    mut was_moving: Local<bool>,
    mut resyncs: ResMut<Resyncs>,
    mut rebuild: MessageWriter<Rebuild>,
) {
    let now = !moving.is_empty();
    if now || !std::mem::replace(&mut *was_moving, now) {
        return;
    }
    let Some(session) = session else { return };
    let shown = session.shown();
    let matches = if super::sets::volterra::is_volterra(layout.variant) {
        super::sets::volterra::set_matches(&shown, &layout, tiles.iter(), pawns.iter())
    } else if super::sets::ctor::is_ctor(layout.variant) {
        super::sets::ctor::torus_matches(&shown, &layout, discs.iter(), copies.iter())
    } else {
        scene_matches(&session, &layout, stones.iter())
    };
    if !matches {
        resyncs.0 += 1;
        rebuild.write(Rebuild);
    }
}

/// Whether the stones on the board are exactly the shown position's pieces, each on its square.
pub fn scene_matches<'a>(
    session: &Session,
    layout: &Layout,
    stones: impl Iterator<Item = (&'a Stone, &'a Transform)>,
) -> bool {
    let shown = session.shown();
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
