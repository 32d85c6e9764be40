//! The game sets, one room each: every set owns its pieces and materials, builds the shown
//! position, plans the rules' effects as tweens, paints its highlights, and checks its scene
//! when the table settles. A set's systems run only while it is on the table.
//!
//! Adding a set: one file here with its `plugin`, its `Room` below, and the variants it plays
//! in `Room::of`.

pub mod pine;
pub mod stones;
pub mod torus;

use super::session::{Picking, Session};
use super::table::{BoardItem, Layout};
use crate::rules::{Game, Variant};
use bevy::prelude::*;

/// The set on the table.
#[derive(Resource, Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Room {
    /// Stones on a chequered board: Ordo, Ordo X, Crossings.
    #[default]
    Stones,
    /// The pine Volterra set: tiles stacked into towers, two turned pawns.
    Pine,
    /// CTOR's torus: two-sided discs, the field and its border ring.
    Torus,
}

impl Room {
    /// The set a variant is played with.
    pub fn of(variant: Variant) -> Room {
        match variant {
            Variant::Ordo | Variant::OrdoX | Variant::Crossings => Room::Stones,
            Variant::Volterra | Variant::VolterraFree => Room::Pine,
            Variant::Ctor8 | Variant::Ctor10 => Room::Torus,
        }
    }

    /// How far the set reaches past the board's squares, in squares (the torus's border ring).
    pub fn margin(self) -> f32 {
        if self == Room::Torus { 3.0 } else { 0.0 }
    }

    /// Whether letters and numbers go along the board's edges (CTOR numbers its squares).
    pub fn coordinates(self) -> bool {
        self != Room::Torus
    }
}

/// A set's check of its scene once the table has settled: the position it must show, and the
/// rebuild (counted) when it does not.
#[derive(bevy::ecs::system::SystemParam)]
pub struct SceneCheck<'w> {
    session: Option<Res<'w, Session>>,
    picking: Res<'w, Picking>,
    pub layout: Res<'w, Layout>,
    resyncs: ResMut<'w, super::animate::Resyncs>,
    rebuild: MessageWriter<'w, super::table::Rebuild>,
}

impl SceneCheck<'_> {
    /// The position the table shows (none without a game).
    pub fn shown(&self) -> Option<crate::rules::AnyGame> {
        self.session.as_ref().map(|s| self.picking.shown(&s.game))
    }

    /// A scene that does not match is rebuilt from the rules, and counted.
    pub fn expect(&mut self, matches: bool) {
        if !matches {
            self.resyncs.0 += 1;
            self.rebuild.write(super::table::Rebuild);
        }
    }
}

/// Keeps a set's labels over the board (heights, square numbers) in step: they are made
/// again when what they show changes (`want`, none when hidden) or when they are gone (a
/// rebuild takes them with the board). True when the caller is to spawn them now.
pub fn relabel<K: PartialEq>(
    shown_for: &mut Option<K>,
    want: Option<K>,
    labels: &[Entity],
    commands: &mut Commands,
) -> bool {
    if *shown_for == want && (want.is_none() || !labels.is_empty()) {
        return false;
    }
    for e in labels {
        commands.entity(*e).despawn();
    }
    *shown_for = want;
    shown_for.is_some()
}

/// A run condition: this set is on the table.
pub fn on_table(room: Room) -> impl Fn(Res<Room>) -> bool + Clone {
    move |on: Res<Room>| *on == room
}

/// The sets' checks of their scene, after the table has settled.
#[derive(SystemSet, Clone, Debug, PartialEq, Eq, Hash)]
pub struct Verifying;

pub(super) fn plugin(app: &mut App) {
    use super::table::Rebuild;
    app.init_resource::<Room>()
        .add_systems(Update, clear_for_rebuild.run_if(on_message::<Rebuild>).in_set(super::TableSystems::Clear))
        .add_plugins((stones::plugin, pine::plugin, torus::plugin));
}

/// Before a set builds the shown position: the old board goes, the layout and the set on the
/// table follow the shown game.
fn clear_for_rebuild(
    mut commands: Commands,
    items: Query<Entity, With<BoardItem>>,
    session: Option<Res<Session>>,
    picking: Res<Picking>,
    mut layout: ResMut<Layout>,
    mut room: ResMut<Room>,
) {
    for e in &items {
        commands.entity(e).despawn();
    }
    let Some(session) = session else { return };
    let shown = picking.shown(&session.game);
    *layout = Layout::of(&shown);
    let on_table = Room::of(shown.variant());
    if *room != on_table {
        *room = on_table;
    }
}

/// Adds a set's systems, each running only while the set is on the table, in its step of the
/// frame: build the shown position, plan the effects, check the scene, paint the highlights.
pub fn add_room<B, P, V, C, MB, MP, MV, MC>(app: &mut App, room: Room, build: B, plan: P, verify: V, paint: C)
where
    B: IntoScheduleConfigs<bevy::ecs::system::ScheduleSystem, MB>,
    P: IntoScheduleConfigs<bevy::ecs::system::ScheduleSystem, MP>,
    V: IntoScheduleConfigs<bevy::ecs::system::ScheduleSystem, MV>,
    C: IntoScheduleConfigs<bevy::ecs::system::ScheduleSystem, MC>,
{
    use super::TableSystems as Step;
    use super::table::{Rebuild, Settled};
    app.add_systems(Update, build.run_if(on_table(room).and_then(on_message::<Rebuild>)).in_set(Step::Build))
        .add_systems(Update, plan.run_if(on_table(room)).in_set(Step::Plan))
        .add_systems(
            Update,
            verify.run_if(on_table(room).and_then(on_message::<Settled>)).in_set(Step::Verify).in_set(Verifying),
        )
        .add_systems(Update, paint.run_if(on_table(room)).in_set(Step::Present));
}
