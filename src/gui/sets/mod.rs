//! The game sets, one room each: every set owns its pieces and materials, builds the shown
//! position, plans the rules' effects as tweens, paints its highlights, and checks its scene
//! when the table settles. A set's systems run only while it is on the table.
//!
//! Adding a set: a folder (or a file) here with its `plugin`, its `Room` in `room.rs`, and the
//! variants it plays in `Room::of`.

pub mod pine;
pub mod room;
pub mod stones;
pub mod torus;

use room::{DoughnutView, Room, Showpiece, Unpacking, on_table};

use crate::gui::frame::board::{BoardItem, Layout};
use crate::gui::frame::session::{Picking, Session};
use crate::rules::Game;
use bevy::prelude::*;

pub use crate::settings::Palette;

/// A highlight's look: its colour and its glow.
#[derive(Clone, Copy, Debug)]
pub struct Glow {
    pub base: Color,
    pub emissive: LinearRgba,
}

/// The colours a palette gives the pieces and the highlights. Both palettes keep one side's
/// pieces lighter than the other's, and the sets add a mark that is not a colour.
#[derive(Clone, Copy, Debug)]
pub struct Colours {
    /// Ordo's two sides (white and blue; orange and blue).
    pub ordo: [Color; 2],
    /// Crossings' two sides (red and black; vermillion and black).
    pub crossings: [Color; 2],
    /// Where the chosen piece may go.
    pub target: Glow,
    /// The chosen piece.
    pub selected: Glow,
    /// A stone that would be captured.
    pub capturable: Glow,
}

impl Colours {
    pub fn of(palette: Palette) -> Colours {
        let glow = |base: Color, e: [f32; 3]| Glow { base, emissive: LinearRgba::rgb(e[0], e[1], e[2]) };
        match palette {
            Palette::Classic => Colours {
                ordo: [Color::srgb(0.93, 0.91, 0.84), Color::srgb(0.10, 0.25, 0.70)],
                crossings: [Color::srgb(0.72, 0.08, 0.06), Color::srgb(0.06, 0.06, 0.07)],
                target: glow(Color::srgb(0.35, 0.8, 0.35), [0.05, 0.35, 0.05]),
                selected: glow(Color::srgb(1.0, 0.85, 0.2), [0.8, 0.6, 0.0]),
                capturable: glow(Color::srgb(0.9, 0.2, 0.2), [0.9, 0.1, 0.1]),
            },
            // Okabe & Ito, "Color Universal Design" (2008): orange, blue, vermillion, sky
            // blue, yellow, reddish purple.
            Palette::OkabeIto => Colours {
                ordo: [Color::srgb_u8(0xE6, 0x9F, 0x00), Color::srgb_u8(0x00, 0x72, 0xB2)],
                crossings: [Color::srgb_u8(0xD5, 0x5E, 0x00), Color::srgb(0.06, 0.06, 0.07)],
                target: glow(Color::srgb_u8(0x56, 0xB4, 0xE9), [0.03, 0.2, 0.4]),
                selected: glow(Color::srgb_u8(0xF0, 0xE4, 0x42), [0.7, 0.65, 0.05]),
                capturable: glow(Color::srgb_u8(0xCC, 0x79, 0xA7), [0.6, 0.15, 0.4]),
            },
        }
    }
}

/// Gives a material a colour (and a glow), touching it only when it changes.
pub fn recolour(
    materials: &mut Assets<StandardMaterial>,
    handle: &Handle<StandardMaterial>,
    base: Color,
    emissive: Option<LinearRgba>,
) {
    let Some(m) = materials.get(handle) else { return };
    if m.base_color == base && emissive.is_none_or(|e| m.emissive == e) {
        return;
    }
    if let Some(mut m) = materials.get_mut(handle) {
        m.base_color = base;
        if let Some(e) = emissive {
            m.emissive = e;
        }
    }
}

/// Paints a highlight material in its palette look.
pub fn reglow(materials: &mut Assets<StandardMaterial>, handle: &Handle<StandardMaterial>, glow: Glow) {
    recolour(materials, handle, glow.base, Some(glow.emissive));
}

/// How high the pieces on `c` reach above the table, in world units (Volterra's towers; the
/// flat pieces of the other sets count as none).
pub fn piece_top(game: &crate::rules::AnyGame, c: crate::rules::Cell) -> f32 {
    match game {
        crate::rules::AnyGame::Volterra(v) => v.tower(c).map_or(0.0, |t| t.height as f32 * pine::THICK),
        _ => 0.0,
    }
}

/// A set's check of its scene once the table has settled: the position it must show, and the
/// rebuild (counted) when it does not.
#[derive(bevy::ecs::system::SystemParam)]
pub struct SceneCheck<'w> {
    session: Res<'w, Session>,
    picking: Res<'w, Picking>,
    pub layout: Res<'w, Layout>,
    resyncs: ResMut<'w, crate::gui::frame::animate::Resyncs>,
    rebuild: MessageWriter<'w, crate::gui::frame::board::Rebuild>,
}

impl SceneCheck<'_> {
    /// The position the table shows (none without a game).
    pub fn shown(&self) -> Option<crate::rules::AnyGame> {
        Some(self.picking.shown(&self.session.game))
    }

    /// A scene that does not match is rebuilt from the rules, and counted.
    pub fn expect(&mut self, matches: bool) {
        if !matches {
            self.resyncs.0 += 1;
            self.rebuild.write(crate::gui::frame::board::Rebuild);
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

/// The sets' checks of their scene, after the table has settled.
#[derive(SystemSet, Clone, Debug, PartialEq, Eq, Hash)]
pub struct Verifying;

pub(super) fn plugin(app: &mut App) {
    use crate::gui::frame::board::Rebuild;
    app.init_resource::<Room>()
        .init_resource::<Palette>()
        .init_resource::<DoughnutView>()
        .init_resource::<Showpiece>()
        .init_resource::<Unpacking>()
        .add_systems(
            Update,
            clear_for_rebuild.run_if(on_message::<Rebuild>).in_set(crate::gui::frame::steps::TableSystems::Clear),
        )
        .add_plugins((stones::plugin, pine::plugin, torus::plugin));
}

/// Before a set builds the shown position: the old board goes, the layout and the set on the
/// table follow the shown game.
fn clear_for_rebuild(
    mut commands: Commands,
    items: Query<Entity, With<BoardItem>>,
    session: Res<Session>,
    picking: Res<Picking>,
    mut layout: ResMut<Layout>,
    mut room: ResMut<Room>,
    mut showpiece: ResMut<Showpiece>,
) {
    for e in &items {
        commands.entity(e).despawn();
    }
    // Whatever stood above the board went with it (the doughnut makes itself again).
    if showpiece.0.is_some() {
        showpiece.0 = None;
    }
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
    use crate::gui::frame::board::{Rebuild, Settled};
    use crate::gui::frame::steps::TableSystems as Step;
    app.add_systems(Update, build.run_if(on_table(room).and_then(on_message::<Rebuild>)).in_set(Step::Build))
        .add_systems(Update, plan.run_if(on_table(room)).in_set(Step::Plan))
        .add_systems(
            Update,
            verify.run_if(on_table(room).and_then(on_message::<Settled>)).in_set(Step::Verify).in_set(Verifying),
        )
        .add_systems(Update, paint.run_if(on_table(room)).in_set(Step::Present));
}
