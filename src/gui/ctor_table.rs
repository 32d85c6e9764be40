//! How a CTOR game looks at this table: the secret squares a viewer may see (chosen behind
//! the hand-over screens of `crate::table`), and the sand-glass, whose running out ends the
//! turn like any other chosen move.

use super::session::{By, MoveChosen, SecretCommand, Session};
use super::sets::{Room, on_table};
use super::table::{BOARD_TOP, BoardItem, Layout, cell_pos};
use super::{Mode, TableSystems};
use crate::rules::ctor::CtorMove;
use crate::rules::{AnyGame, AnyMove, Cell, Game, Side};
use crate::table::SecretPhase;
use bevy::prelude::*;

/// What the CTOR table shows besides the game: the team on turn's own secret squares when it
/// asks, and the sand-glass's clock.
#[derive(Resource, Clone, Debug, Default)]
pub struct CtorTable {
    /// The team on turn shows its own unrevealed secret squares (the other team looks away).
    pub show_own: bool,
    /// Seconds the current turn has run.
    pub clock: f32,
    clock_turn: Option<(Side, u32)>,
}

/// A secret square shown on the field.
#[derive(Component, Clone, Copy, Debug)]
pub struct SecretMark(pub Cell);

/// The sand-glass beside the field: the sand in its upper and lower bulb.
#[derive(Component)]
pub struct Sand(pub bool);

/// Meshes and materials of the secret marks and the sand-glass, made once.
#[derive(Resource)]
struct Look {
    mark: Handle<Mesh>,
    red: Handle<StandardMaterial>,
    cone: Handle<Mesh>,
    cap: Handle<Mesh>,
    sand: Handle<StandardMaterial>,
    frame: Handle<StandardMaterial>,
}

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<CtorTable>()
        .add_systems(Startup, setup)
        .add_systems(
            PreUpdate,
            (
                show_mine.run_if(in_state(Mode::Live)),
                sand_clock.run_if(in_state(Mode::Live).and_then(timed).and_then(not(super::session::animating))),
            )
                .in_set(TableSystems::Pick),
        )
        .add_systems(
            Update,
            (secret_marks, sand_glass.run_if(timed)).run_if(on_table(Room::Torus)).in_set(TableSystems::Present),
        );
}

fn setup(mut commands: Commands, mut meshes: ResMut<Assets<Mesh>>, mut materials: ResMut<Assets<StandardMaterial>>) {
    commands.insert_resource(Look {
        mark: meshes.add(Torus::new(0.36, 0.46)),
        red: materials.add(StandardMaterial {
            base_color: Color::srgb(0.9, 0.1, 0.1),
            emissive: LinearRgba::rgb(0.8, 0.05, 0.05),
            ..default()
        }),
        cone: meshes.add(Cone { radius: 0.35, height: 0.5 }),
        cap: meshes.add(Cylinder::new(0.45, 0.06)),
        sand: materials.add(StandardMaterial { base_color: Color::srgb(0.9, 0.75, 0.45), ..default() }),
        frame: materials.add(StandardMaterial {
            base_color: Color::srgb(0.35, 0.2, 0.1),
            perceptual_roughness: 0.5,
            ..default()
        }),
    });
}

/// A CTOR game with a sand-glass is at the table.
fn timed(session: Option<Res<Session>>) -> bool {
    session.is_some_and(|s| has_glass(&s) && !s.in_round())
}

fn has_glass(session: &Session) -> bool {
    matches!(&session.game, AnyGame::Ctor(g) if g.options().timer.is_some())
}

/// The game at the table is a CTOR game with a sand-glass, not over: its clock runs.
pub fn sand_running(session: &Session) -> bool {
    has_glass(session) && session.game.outcome().is_none() && !session.spectator
}

/// *My secrets* during play: the team on turn shows or hides its own unrevealed squares.
fn show_mine(mut commands: MessageReader<SecretCommand>, session: Res<Session>, mut table: ResMut<CtorTable>) {
    for command in commands.read() {
        if *command == SecretCommand::ShowMine && matches!(session.secrets, SecretPhase::Off | SecretPhase::Done) {
            table.show_own = !table.show_own;
        }
    }
}

/// The secret squares a viewer at the table may see now, each with whether everyone may
/// (revealed). The broadcast, which both teams and the audience see, shows only the revealed
/// ones.
pub fn visible_secrets(session: &Session, table: &CtorTable) -> Vec<(Cell, bool)> {
    session.visible_secrets(table.show_own)
}

/// Red rings on the secret squares a viewer may see.
fn secret_marks(
    mut commands: Commands,
    session: Option<Res<Session>>,
    mut table: ResMut<CtorTable>,
    layout: Res<Layout>,
    look: Res<Look>,
    marks: Query<(Entity, &SecretMark, Option<&bevy::camera::visibility::RenderLayers>)>,
    mut turn_of: Local<Option<(Side, u32)>>,
) {
    let Some(session) = session else { return };
    let AnyGame::Ctor(g) = &session.game else { return };
    // A new turn hides the own squares again.
    let now = Some((g.side_to_move(), g.turn()));
    if *turn_of != now {
        *turn_of = now;
        if table.show_own {
            table.show_own = false;
        }
    }
    let mut want = visible_secrets(&session, &table);
    let mut have: Vec<(Cell, bool)> = marks.iter().map(|(_, m, layers)| (m.0, layers.is_none())).collect();
    want.sort();
    have.sort();
    if have == want {
        return;
    }
    for (e, _, _) in &marks {
        commands.entity(e).despawn();
    }
    for (c, revealed) in want {
        let mut mark = commands.spawn((
            Mesh3d(look.mark.clone()),
            MeshMaterial3d(look.red.clone()),
            Transform::from_translation(cell_pos(&layout, c).with_y(BOARD_TOP + 0.01))
                .with_scale(Vec3::new(1.0, 0.3, 1.0)),
            SecretMark(c),
            Pickable::IGNORE,
            BoardItem,
        ));
        if !revealed {
            // Seen at the table only, never on the broadcast.
            mark.insert(bevy::camera::visibility::RenderLayers::layer(super::table::PLAYER_ONLY));
        }
    }
}

/// The sand-glass's clock: it runs while the side to move chooses and nothing moves; when it
/// runs out the turn ends, a Timeout chosen like any other move.
fn sand_clock(
    session: Option<Res<Session>>,
    mut table: ResMut<CtorTable>,
    time: Res<Time>,
    mut chosen: MessageWriter<MoveChosen>,
    mut heard: MessageWriter<super::sound::Sounded>,
) {
    let Some(session) = session else { return };
    let AnyGame::Ctor(g) = &session.game else { return };
    let Some(limit) = g.options().timer else { return };
    let now = Some((g.side_to_move(), g.turn()));
    if table.clock_turn != now {
        table.clock_turn = now;
        table.clock = 0.0;
    }
    if g.outcome().is_some() {
        return;
    }
    let before = table.clock;
    table.clock += time.delta_secs();
    for _ in 0..super::sound::sand_ticks(before, table.clock, limit as f32) {
        heard.write(super::sound::Sounded(crate::sound::Sound::SandTick));
    }
    if table.clock >= limit as f32 {
        table.clock = 0.0;
        chosen.write(MoveChosen { mv: AnyMove::Ctor(CtorMove::Timeout), by: By::SandGlass });
    }
}

/// The glass beside the field, its sand falling as the turn's time runs.
fn sand_glass(
    mut commands: Commands,
    session: Option<Res<Session>>,
    table: Res<CtorTable>,
    layout: Res<Layout>,
    look: Res<Look>,
    mut sand: Query<(&Sand, &mut Transform)>,
) {
    let Some(session) = session else { return };
    let AnyGame::Ctor(g) = &session.game else { return };
    let Some(limit) = g.options().timer else { return };
    if sand.is_empty() {
        // Two bulbs of sand around a waist, beside the field on the right.
        let at = Vec3::new(layout.files as f32 / 2.0 + 2.6, 0.0, -1.5);
        for (y, upper) in [(0.8, true), (0.3, false)] {
            let rot = if upper { Quat::from_rotation_x(std::f32::consts::PI) } else { Quat::IDENTITY };
            commands.spawn((
                Mesh3d(look.cone.clone()),
                MeshMaterial3d(look.sand.clone()),
                Transform::from_translation(at.with_y(y)).with_rotation(rot),
                Sand(upper),
                BoardItem,
                Pickable::IGNORE,
            ));
        }
        for y in [0.03, 1.07] {
            commands.spawn((
                Mesh3d(look.cap.clone()),
                MeshMaterial3d(look.frame.clone()),
                Transform::from_translation(at.with_y(y)),
                BoardItem,
                Pickable::IGNORE,
            ));
        }
    }
    let left = (1.0 - table.clock / limit as f32).clamp(0.0, 1.0);
    for (s, mut tf) in &mut sand {
        let k = if s.0 { left } else { 1.0 - left };
        let want = Vec3::splat(k.max(0.02));
        if tf.scale != want {
            tf.scale = want;
        }
    }
}
