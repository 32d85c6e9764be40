//! How a CTOR game is played at this table: secret squares chosen behind hand-over screens
//! (the table is in [`Mode::Secrets`] meanwhile), the secret squares a viewer may see, and
//! the sand-glass, whose running out ends the turn like any other chosen move.

use super::session::{By, MoveChosen, PlayerKind, Session};
use super::sets::{Room, on_table};
use super::table::{BOARD_TOP, BoardItem, CellClicked, Layout, cell_pos};
use super::{Mode, TableSystems};
use crate::rules::ctor::{Ctor, CtorMove, SECRETS, SecretState};
use crate::rules::{AnyGame, AnyMove, Cell, Game, Side, Variant};
use bevy::prelude::*;
use rand::SeedableRng;

/// The CTOR table's own state: secret squares, and the sand-glass's clock.
#[derive(Resource, Clone, Debug, Default)]
pub struct CtorTable {
    /// The game uses secret squares.
    pub secrets: bool,
    pub phase: SecretPhase,
    /// The team on turn shows its own unrevealed secret squares (the other team looks away).
    pub show_own: bool,
    /// Seconds the current turn has run.
    pub clock: f32,
    clock_turn: Option<(Side, u32)>,
}

impl CtorTable {
    /// A table for a new game, with or without secret squares.
    pub fn new(secrets: bool) -> CtorTable {
        CtorTable { secrets, ..default() }
    }

    /// Whether the secret squares are being chosen (no move is made meanwhile).
    pub fn setting_up(&self) -> bool {
        matches!(self.phase, SecretPhase::HandOver(_) | SecretPhase::Choosing(..) | SecretPhase::Ready)
    }

    /// What the players are asked to do while the secret squares are chosen.
    pub fn prompt(&self, variant: Variant) -> Option<String> {
        let name = |s: Side| variant.side_name(s);
        match &self.phase {
            SecretPhase::HandOver(s) => Some(format!("hand the screen to {}: only {} may look", name(*s), name(*s))),
            SecretPhase::Choosing(s, chosen) => {
                Some(format!("{}: choose 5 secret squares ({} chosen), then Done", name(*s), chosen.len()))
            }
            SecretPhase::Ready => {
                Some(format!("secret squares chosen: hand the screen to {} to start", name(Side::First)))
            }
            SecretPhase::Off | SecretPhase::Done => None,
        }
    }
}

/// Choosing the secret squares in hot-seat play.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub enum SecretPhase {
    /// No secret squares, or not chosen yet.
    #[default]
    Off,
    /// The screen waits for this team alone to look.
    HandOver(Side),
    /// This team chooses its squares.
    Choosing(Side, Vec<Cell>),
    /// Both chose: the screen waits for the first team to start.
    Ready,
    Done,
}

/// Buttons of the secret-square screens.
#[derive(Message, Clone, Copy, Debug, PartialEq, Eq)]
pub enum SecretCommand {
    /// The right team looks at the screen now.
    Proceed,
    /// The chosen squares are final.
    Done,
    /// Show or hide the own unrevealed squares of the team on turn.
    ShowMine,
    /// Team play: the member choosing has chosen their blind Puts (see `team`).
    PutsDone,
    /// Team play: the member in this seat leaves the team.
    Leave(Side, u8),
    /// Team play: a player joins the team.
    Join(Side),
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
        .add_message::<SecretCommand>()
        .add_systems(Startup, setup)
        .add_systems(
            Update,
            (
                choose_secrets.run_if(in_state(Mode::Secrets)),
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

/// Picks a team's squares at random (a computer team's choice), from an explicit seed.
fn random_secrets(g: &Ctor, seed: u64) -> Vec<u16> {
    let n = g.size() as usize * g.size() as usize;
    let mut rng = rand::rngs::StdRng::seed_from_u64(seed);
    rand::seq::index::sample(&mut rng, n, SECRETS).into_iter().map(|i| i as u16 + 1).collect()
}

/// The next step of the choosing after `after` chose (or at the start): a person's team gets
/// the screen; a computer's team chooses at once.
fn next_phase(session: &mut Session, after: Option<Side>) -> SecretPhase {
    let people = session.players.contains(&PlayerKind::Person);
    let done = if people { SecretPhase::Ready } else { SecretPhase::Done };
    let mut side = match after {
        None => Side::First,
        Some(Side::First) => Side::Second,
        Some(Side::Second) => return done,
    };
    loop {
        if session.players[side.index()] == PlayerKind::Person {
            return SecretPhase::HandOver(side);
        }
        if let AnyGame::Ctor(g) = &mut session.game {
            let squares = random_secrets(g, 0x5eed + side.index() as u64 + g.turn() as u64);
            let _ = g.set_secrets(side, &squares);
        }
        session.sync_record();
        if side == Side::Second {
            return done;
        }
        side = Side::Second;
    }
}

/// A new live game with secret squares starts by choosing them (run before the table's mode
/// is decided, so that no move is made first).
pub(super) fn begin_secrets(session: Option<ResMut<Session>>, table: Option<ResMut<CtorTable>>) {
    if let (Some(mut session), Some(mut table)) = (session, table)
        && due(&session, &table)
    {
        begin(&mut session, &mut table);
    }
}

/// The game is to have secret squares and none are chosen yet.
fn due(session: &Session, table: &CtorTable) -> bool {
    table.secrets
        && table.phase == SecretPhase::Off
        && session.replay.is_none()
        && session.history.is_empty()
        && matches!(session.game, AnyGame::Ctor(_))
}

/// Starts choosing the secret squares if the game at the table is to have them and has not
/// begun.
pub(super) fn begin(session: &mut Session, table: &mut CtorTable) {
    if due(session, table) {
        table.phase = next_phase(session, None);
    }
}

/// The hand-over screens' buttons, and the choosing team's clicks on squares.
fn choose_secrets(
    session: Option<ResMut<Session>>,
    mut table: ResMut<CtorTable>,
    mut commands: MessageReader<SecretCommand>,
    mut clicks: MessageReader<CellClicked>,
) {
    let Some(mut session) = session else { return };
    for command in commands.read() {
        match (command, table.phase.clone()) {
            (SecretCommand::Proceed, SecretPhase::HandOver(side)) => {
                table.phase = SecretPhase::Choosing(side, Vec::new())
            }
            (SecretCommand::Proceed, SecretPhase::Ready) => table.phase = SecretPhase::Done,
            (SecretCommand::Done, SecretPhase::Choosing(side, chosen)) if chosen.len() == SECRETS => {
                if let AnyGame::Ctor(g) = &mut session.game {
                    let squares: Vec<u16> = chosen.iter().filter_map(|c| g.square(*c)).collect();
                    let _ = g.set_secrets(side, &squares);
                }
                session.sync_record();
                table.phase = next_phase(&mut session, Some(side));
            }
            _ => {}
        }
    }
    let clicked: Vec<Cell> = clicks.read().map(|c| c.0).collect();
    if let SecretPhase::Choosing(_, chosen) = &mut table.phase {
        for c in clicked {
            if let Some(i) = chosen.iter().position(|x| *x == c) {
                chosen.remove(i);
            } else if chosen.len() < SECRETS {
                chosen.push(c);
            }
        }
    }
}

/// *My secrets* during play: the team on turn shows or hides its own unrevealed squares.
fn show_mine(mut commands: MessageReader<SecretCommand>, mut table: ResMut<CtorTable>) {
    for command in commands.read() {
        if *command == SecretCommand::ShowMine && matches!(table.phase, SecretPhase::Off | SecretPhase::Done) {
            table.show_own = !table.show_own;
        }
    }
}

/// The secret squares a viewer at the table may see now, each with whether everyone may
/// (revealed): revealed ones always; the choosing team's choice; the team on turn's own when
/// it asks. Never the other team's unrevealed squares. The broadcast, which both teams and
/// the audience see, shows only the revealed ones.
pub fn visible_secrets(session: &Session, table: &CtorTable) -> Vec<(Cell, bool)> {
    let AnyGame::Ctor(g) = &session.game else { return Vec::new() };
    if let SecretPhase::Choosing(_, chosen) = &table.phase {
        return chosen.iter().map(|c| (*c, false)).collect();
    }
    if table.phase != SecretPhase::Done {
        return Vec::new();
    }
    let on_turn = g.side_to_move();
    let mut out = Vec::new();
    for side in [Side::First, Side::Second] {
        for (sq, state) in g.secrets(side) {
            let own_view = side == on_turn && table.show_own && session.players[side.index()] == PlayerKind::Person;
            let revealed = *state == SecretState::Revealed;
            if revealed || own_view {
                out.push((g.cell(*sq), revealed));
            }
        }
    }
    out
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
