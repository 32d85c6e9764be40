//! CTOR's torus: the N × N field with its edge squares coloured, the auxiliary border drawn a
//! little apart whose duplicate discs always show what their originals show, and two-sided
//! discs (black face, white face) that flip with a half-turn, one after another in the
//! rules' cascade order.

use crate::gui::Screen;
use crate::gui::animate::{Speed, Tween};
use crate::gui::scene::{BoardItem, Layout, cell_pos};
use crate::gui::session::{Animate, CellClicked, Rebuild, Session};
use crate::rules::ctor::Ctor;
use crate::rules::{AnyGame, Cell, Effect, Game, Side, Variant};
use bevy::prelude::*;
use std::collections::HashMap;

const DISC_R: f32 = 0.4;
const DISC_H: f32 = 0.1;
/// How far the border ring stands apart from the field.
const GAP: f32 = 0.35;
const DROP: f32 = 0.3;
const SLIDE: f32 = 0.35;
const FLIP: f32 = 0.4;

/// A disc on the field, showing `up`.
#[derive(Component, Clone, Copy, Debug)]
pub struct Disc {
    pub cell: Option<Cell>,
    pub up: Side,
}

/// A copy of a field disc on the border cell `at` (file, rank in -1..N).
#[derive(Component, Clone, Copy, Debug)]
pub struct Duplicate {
    pub at: (i8, i8),
    pub up: Side,
}

/// A square of the main field, or a border square showing the main square `of`.
#[derive(Component, Clone, Copy, Debug)]
pub struct FieldSquare {
    pub of: Cell,
    pub border: bool,
}

/// A disc turning over: its rotation eases from `from` to `to` after `delay`.
#[derive(Component, Clone, Debug)]
pub struct Turn {
    from: Quat,
    to: Quat,
    delay: f32,
    duration: f32,
    elapsed: f32,
}

#[derive(Resource)]
pub struct TorusSet {
    half: Handle<Mesh>,
    square: Handle<Mesh>,
    faces: [Handle<StandardMaterial>; 2],
    field: Handle<StandardMaterial>,
    edge: Handle<StandardMaterial>,
    border: Handle<StandardMaterial>,
    target: Handle<StandardMaterial>,
    selected: Handle<StandardMaterial>,
}

pub fn is_ctor(v: Variant) -> bool {
    matches!(v, Variant::Ctor8 | Variant::Ctor10)
}

/// The face-up rotation of a disc: black on top is the identity.
pub fn face(up: Side) -> Quat {
    if up == Side::First { Quat::IDENTITY } else { Quat::from_rotation_x(std::f32::consts::PI) }
}

pub fn disc_pos(layout: &Layout, c: Cell) -> Vec3 {
    cell_pos(layout, c).with_y(crate::gui::scene::BOARD_TOP + DISC_H / 2.0 + 0.02)
}

/// Where a border cell lies: past the field's edge, a gap further out.
pub fn border_pos(layout: &Layout, (file, rank): (i8, i8)) -> Vec3 {
    let n = layout.files as i8;
    let half = (n as f32 - 1.0) / 2.0;
    let push = |v: i8| {
        if v < 0 {
            -GAP
        } else if v >= n {
            GAP
        } else {
            0.0
        }
    };
    Vec3::new(
        file as f32 - half + push(file),
        crate::gui::scene::BOARD_TOP + DISC_H / 2.0 + 0.02,
        half - rank as f32 - push(rank),
    )
}

pub(crate) fn plugin(app: &mut App) {
    app.add_systems(Startup, setup).add_systems(
        Update,
        (
            rebuild.after(crate::gui::scene::rebuild_scene),
            plan.after(rebuild).before(crate::gui::animate::tick),
            turn.after(plan),
            paint.after(plan),
        )
            .run_if(in_state(Screen::Playing)),
    );
}

fn setup(mut commands: Commands, mut meshes: ResMut<Assets<Mesh>>, mut materials: ResMut<Assets<StandardMaterial>>) {
    let mut mat =
        |c: Color, r: f32| materials.add(StandardMaterial { base_color: c, perceptual_roughness: r, ..default() });
    let faces = [mat(Color::srgb(0.05, 0.05, 0.06), 0.35), mat(Color::srgb(0.95, 0.95, 0.92), 0.35)];
    let field = mat(Color::srgb(0.82, 0.74, 0.58), 0.8);
    let edge = mat(Color::srgb(0.55, 0.68, 0.78), 0.8);
    let border = mat(Color::srgb(0.42, 0.36, 0.30), 0.9);
    let target = materials.add(StandardMaterial {
        base_color: Color::srgb(0.4, 0.85, 0.4),
        emissive: LinearRgba::rgb(0.05, 0.4, 0.05),
        ..default()
    });
    let selected = materials.add(StandardMaterial {
        base_color: Color::srgb(1.0, 0.8, 0.3),
        emissive: LinearRgba::rgb(0.6, 0.4, 0.0),
        ..default()
    });
    commands.insert_resource(TorusSet {
        half: meshes.add(Cylinder::new(DISC_R, DISC_H / 2.0)),
        square: meshes.add(Cuboid::new(0.96, 0.04, 0.96)),
        faces,
        field,
        edge,
        border,
        target,
        selected,
    });
}

fn rebuild(
    mut requests: MessageReader<Rebuild>,
    mut commands: Commands,
    session: Option<Res<Session>>,
    set: Res<TorusSet>,
    layout: Res<Layout>,
) {
    if requests.read().count() == 0 || !is_ctor(layout.variant) {
        return;
    }
    let Some(session) = session else { return };
    let AnyGame::Ctor(g) = session.shown() else { return };
    let n = g.size();
    for rank in 0..n {
        for file in 0..n {
            let c = Cell::new(file, rank);
            let edge = file == 0 || rank == 0 || file == n - 1 || rank == n - 1;
            let mat = if edge { set.edge.clone() } else { set.field.clone() };
            commands
                .spawn((
                    Mesh3d(set.square.clone()),
                    MeshMaterial3d(mat),
                    Transform::from_translation(cell_pos(&layout, c).with_y(crate::gui::scene::BOARD_TOP - 0.01)),
                    FieldSquare { of: c, border: false },
                    BoardItem,
                ))
                .observe(on_click);
            if let Some(sq) = g.square(c)
                && let Some(side) = g.disc(sq)
            {
                spawn_disc(&mut commands, &set, Disc { cell: Some(c), up: side }, disc_pos(&layout, c));
            }
        }
    }
    for ((file, rank), sq) in g.border() {
        let of = g.cell(sq);
        commands
            .spawn((
                Mesh3d(set.square.clone()),
                MeshMaterial3d(set.border.clone()),
                Transform::from_translation(
                    border_pos(&layout, (file, rank)).with_y(crate::gui::scene::BOARD_TOP - 0.01),
                ),
                FieldSquare { of, border: true },
                BoardItem,
            ))
            .observe(on_click);
        if let Some(side) = g.disc(sq) {
            spawn_duplicate(
                &mut commands,
                &set,
                Duplicate { at: (file, rank), up: side },
                border_pos(&layout, (file, rank)),
            );
        }
    }
}

/// A two-sided disc: a black half on top of a white half, turned over to show white.
fn disc_halves(set: &TorusSet) -> impl Bundle {
    children![
        (
            Mesh3d(set.half.clone()),
            MeshMaterial3d(set.faces[0].clone()),
            Transform::from_xyz(0.0, DISC_H / 4.0, 0.0),
            Pickable::IGNORE
        ),
        (
            Mesh3d(set.half.clone()),
            MeshMaterial3d(set.faces[1].clone()),
            Transform::from_xyz(0.0, -DISC_H / 4.0, 0.0),
            Pickable::IGNORE
        ),
    ]
}

fn spawn_disc(commands: &mut Commands, set: &TorusSet, disc: Disc, at: Vec3) -> Entity {
    commands
        .spawn((
            Transform::from_translation(at).with_rotation(face(disc.up)),
            Visibility::default(),
            disc,
            BoardItem,
            disc_halves(set),
        ))
        .id()
}

fn spawn_duplicate(commands: &mut Commands, set: &TorusSet, dup: Duplicate, at: Vec3) -> Entity {
    commands
        .spawn((
            Transform::from_translation(at).with_rotation(face(dup.up)).with_scale(Vec3::splat(0.85)),
            Visibility::default(),
            dup,
            BoardItem,
            disc_halves(set),
        ))
        .id()
}

/// A click on a field or border square (the disc's halves let the click through).
fn on_click(click: On<Pointer<Click>>, squares: Query<&FieldSquare>, mut out: MessageWriter<CellClicked>) {
    if click.button != PointerButton::Primary {
        return;
    }
    if let Ok(sq) = squares.get(click.entity) {
        out.write(CellClicked(sq.of));
    }
}

#[allow(clippy::too_many_arguments)]
fn plan(
    mut moves: crate::gui::session::MovesToPlan,
    mut commands: Commands,
    mut discs: Query<(Entity, &mut Disc)>,
    mut dups: Query<(Entity, &mut Duplicate), Without<Disc>>,
    transforms: Query<&Transform>,
    layout: Res<Layout>,
    set: Res<TorusSet>,
    speed: Res<Speed>,
) {
    if !is_ctor(layout.variant) {
        moves.clear();
        return;
    }
    let f = speed.factor();
    for Animate { effects, skip, .. } in moves.read() {
        let mut on: HashMap<Cell, Entity> = discs.iter().filter_map(|(e, d)| d.cell.map(|c| (c, e))).collect();
        let mut copies: HashMap<(i8, i8), Entity> = dups.iter().map(|(e, d)| (d.at, e)).collect();
        let mut cursor = 0.0;
        let mut last = 0.0;
        let supply = Vec3::new(layout.files as f32 / 2.0 + 2.0, 0.1, 0.0);
        // Translations and rotations to animate: entity, target, delay, duration, lift.
        let mut slides: Vec<(Entity, Vec3, f32, f32, f32)> = Vec::new();
        let mut turns: Vec<(Entity, Side, f32, f32)> = Vec::new();
        for effect in &effects[(*skip).min(effects.len())..] {
            match effect {
                Effect::Placed { at, side } => {
                    let to = disc_pos(&layout, *at);
                    let e = spawn_disc(&mut commands, &set, Disc { cell: Some(*at), up: *side }, to + Vec3::Y * 1.5);
                    on.insert(*at, e);
                    commands.entity(e).insert(Tween::falling(to, 1.5, cursor, DROP * f));
                    last = cursor;
                    cursor += DROP * f * 0.6;
                }
                Effect::Moved { from, to } => {
                    if let Some(e) = on.remove(from) {
                        on.insert(*to, e);
                        if let Ok((_, mut d)) = discs.get_mut(e) {
                            d.cell = Some(*to);
                        }
                        slides.push((e, disc_pos(&layout, *to), cursor, SLIDE * f, 0.5));
                        last = cursor;
                        cursor += SLIDE * f;
                    }
                }
                Effect::Removed { at } => {
                    if let Some(e) = on.remove(at) {
                        if let Ok((_, mut d)) = discs.get_mut(e) {
                            d.cell = None;
                        }
                        slides.push((e, supply, cursor, SLIDE * f, 1.0));
                        last = cursor;
                        cursor += SLIDE * f * 0.4;
                    }
                }
                Effect::Flipped { at, to } => {
                    if let Some(&e) = on.get(at) {
                        if let Ok((_, mut d)) = discs.get_mut(e) {
                            d.up = *to;
                        }
                        turns.push((e, *to, cursor, FLIP * f));
                        slides.push((e, disc_pos(&layout, *at), cursor, FLIP * f, 0.35));
                        last = cursor;
                        cursor += FLIP * f * 0.7;
                    }
                }
                Effect::Border { file, rank, side } => {
                    let at = (*file, *rank);
                    match (side, copies.get(&at).copied()) {
                        (None, Some(e)) => {
                            copies.remove(&at);
                            commands.entity(e).despawn();
                        }
                        (Some(s), Some(e)) => {
                            if let Ok((_, mut d)) = dups.get_mut(e)
                                && d.up != *s
                            {
                                d.up = *s;
                                turns.push((e, *s, last, FLIP * f));
                                slides.push((e, border_pos(&layout, at), last, FLIP * f, 0.3));
                            }
                        }
                        (Some(s), None) => {
                            let to = border_pos(&layout, at);
                            let e = spawn_duplicate(&mut commands, &set, Duplicate { at, up: *s }, to + Vec3::Y * 1.5);
                            copies.insert(at, e);
                            commands.entity(e).insert(Tween::falling(to, 1.5, last, DROP * f));
                        }
                        (None, None) => {}
                    }
                }
                _ => {}
            }
        }
        for (e, to, delay, duration, lift) in slides {
            let from = transforms.get(e).map(|t| t.translation).unwrap_or(to);
            commands.entity(e).insert(Tween { from, to, delay, duration: duration.max(1e-3), elapsed: 0.0, lift });
        }
        for (e, up, delay, duration) in turns {
            let from = transforms.get(e).map(|t| t.rotation).unwrap_or(face(up.other()));
            commands.entity(e).insert(Turn { from, to: face(up), delay, duration: duration.max(1e-3), elapsed: 0.0 });
        }
    }
}

/// Turns discs over: a half-turn about the board's X axis.
pub(crate) fn turn(mut commands: Commands, time: Res<Time>, mut q: Query<(Entity, &mut Transform, &mut Turn)>) {
    for (e, mut tf, mut t) in &mut q {
        t.elapsed += time.delta_secs();
        let p = ((t.elapsed - t.delay) / t.duration).clamp(0.0, 1.0);
        tf.rotation = t.from.slerp(t.to, p * p * (3.0 - 2.0 * p));
        if p >= 1.0 {
            tf.rotation = t.to;
            commands.entity(e).remove::<Turn>();
        }
    }
}

/// Highlights: where the selected disc can go, and the discs chosen for a Landing.
fn paint(
    session: Option<Res<Session>>,
    layout: Res<Layout>,
    set: Res<TorusSet>,
    mut squares: Query<(&FieldSquare, &mut MeshMaterial3d<StandardMaterial>)>,
) {
    if !is_ctor(layout.variant) {
        return;
    }
    let Some(session) = session else { return };
    if !session.is_changed() {
        return;
    }
    let picker = &session.picker;
    let targets = if picker.landing { picker.landing_targets(&session.game) } else { picker.targets(&session.game) };
    let n = layout.files;
    for (sq, mut mat) in &mut squares {
        let c = sq.of;
        let want = if picker.selected == Some(c) || picker.landing_discs.contains(&c) {
            &set.selected
        } else if targets.contains(&c) {
            &set.target
        } else if sq.border {
            &set.border
        } else if c.file == 0 || c.rank == 0 || c.file == n - 1 || c.rank == n - 1 {
            &set.edge
        } else {
            &set.field
        };
        crate::gui::scene::repaint(&mut mat, want);
    }
}

/// Whether the discs on the field and on the border show exactly the position: every disc on
/// its square face up as the rules say, every duplicate like its original.
pub fn torus_matches<'a>(
    game: &AnyGame,
    layout: &Layout,
    discs: impl Iterator<Item = (&'a Disc, &'a Transform)>,
    dups: impl Iterator<Item = (&'a Duplicate, &'a Transform)>,
) -> bool {
    let AnyGame::Ctor(g) = game else { return false };
    let up_of = |tf: &Transform| if (tf.rotation * Vec3::Y).y > 0.0 { Side::First } else { Side::Second };
    let mut on_field = 0;
    for (d, tf) in discs {
        let Some(c) = d.cell else { continue };
        on_field += 1;
        let Some(sq) = g.square(c) else { return false };
        if g.disc(sq) != Some(d.up) || up_of(tf) != d.up || tf.translation.distance(disc_pos(layout, c)) > 1e-3 {
            return false;
        }
    }
    let mut copies = 0;
    for (d, tf) in dups {
        copies += 1;
        let sq = g.border().into_iter().find(|(at, _)| *at == d.at).map(|(_, sq)| sq);
        if sq.and_then(|sq| g.disc(sq)) != Some(d.up)
            || up_of(tf) != d.up
            || tf.translation.distance(border_pos(layout, d.at)) > 1e-3
        {
            return false;
        }
    }
    let count = |g: &Ctor| g.count(Side::First) + g.count(Side::Second);
    let shown_copies = g.border().into_iter().filter(|(_, sq)| g.disc(*sq).is_some()).count();
    on_field == count(g) as usize && copies == shown_copies
}

/// How a CTOR game is played at this table: secret squares chosen behind hand-over screens,
/// and the sand-glass's clock.
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
}

/// A secret square shown on the field.
#[derive(Component, Clone, Copy, Debug)]
pub struct SecretMark(pub Cell);

/// The sand-glass beside the field: the sand in its upper and lower bulb.
#[derive(Component)]
pub struct Sand(pub bool);

pub(crate) fn table_plugin(app: &mut App) {
    app.init_resource::<CtorTable>().add_message::<SecretCommand>().add_systems(
        Update,
        (secret_setup, secret_marks, sand_glass.before(crate::gui::scene::rebuild_scene))
            .chain()
            .run_if(in_state(Screen::Playing)),
    );
}

/// Picks a team's squares at random from the session's computer (a computer team's choice).
fn random_secrets(g: &Ctor, seed: u64) -> Vec<u16> {
    let n = g.size() as u64 * g.size() as u64;
    let mut state = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
    let mut out = Vec::new();
    while out.len() < crate::rules::ctor::SECRETS {
        state = state.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        let sq = ((state >> 33) % n) as u16 + 1;
        if !out.contains(&sq) {
            out.push(sq);
        }
    }
    out
}

fn next_phase(session: &mut Session, after: Option<Side>) -> SecretPhase {
    let mut side = match after {
        None => Side::First,
        Some(Side::First) => Side::Second,
        Some(Side::Second) => {
            return if session.players.contains(&crate::gui::session::PlayerKind::Person) {
                SecretPhase::Ready
            } else {
                SecretPhase::Done
            };
        }
    };
    loop {
        if session.players[side.index()] == crate::gui::session::PlayerKind::Person {
            return SecretPhase::HandOver(side);
        }
        if let AnyGame::Ctor(g) = &mut session.game {
            let squares = random_secrets(g, 0x5eed + side.index() as u64 + g.turn() as u64);
            let _ = g.set_secrets(side, &squares);
        }
        if side == Side::Second {
            return if session.players.contains(&crate::gui::session::PlayerKind::Person) {
                SecretPhase::Ready
            } else {
                SecretPhase::Done
            };
        }
        side = Side::Second;
    }
}

#[allow(clippy::too_many_arguments)]
fn secret_setup(
    session: Option<ResMut<Session>>,
    mut table: ResMut<CtorTable>,
    mut commands: MessageReader<SecretCommand>,
    mut clicks: MessageReader<CellClicked>,
) {
    let Some(mut session) = session else { return };
    let AnyGame::Ctor(_) = &session.game else { return };
    if session.replaying {
        // A record brings its own secret squares; the replay's own message stays.
        clicks.clear();
        commands.clear();
        return;
    }
    if table.secrets && table.phase == SecretPhase::Off && session.history.is_empty() {
        table.phase = next_phase(&mut session, None);
    }
    let variant = session.game.variant();
    let name = |s: Side| variant.side_name(s);
    for command in commands.read() {
        match (command, table.phase.clone()) {
            (SecretCommand::Proceed, SecretPhase::HandOver(side)) => {
                table.phase = SecretPhase::Choosing(side, Vec::new())
            }
            (SecretCommand::Proceed, SecretPhase::Ready) => table.phase = SecretPhase::Done,
            (SecretCommand::Done, SecretPhase::Choosing(side, chosen))
                if chosen.len() == crate::rules::ctor::SECRETS =>
            {
                if let AnyGame::Ctor(g) = &mut session.game {
                    let squares: Vec<u16> = chosen.iter().filter_map(|c| g.square(*c)).collect();
                    let _ = g.set_secrets(side, &squares);
                }
                table.phase = next_phase(&mut session, Some(side));
            }
            (SecretCommand::ShowMine, SecretPhase::Off | SecretPhase::Done) => table.show_own = !table.show_own,
            _ => {}
        }
    }
    if let SecretPhase::Choosing(side, chosen) = &mut table.phase {
        for CellClicked(c) in clicks.read() {
            if let Some(i) = chosen.iter().position(|x| x == c) {
                chosen.remove(i);
            } else if chosen.len() < crate::rules::ctor::SECRETS {
                chosen.push(*c);
            }
        }
        let _ = side;
    } else {
        clicks.clear();
    }
    let blocked = match &table.phase {
        SecretPhase::HandOver(s) => Some(format!("hand the screen to {}: only {} may look", name(*s), name(*s))),
        SecretPhase::Choosing(s, chosen) => {
            Some(format!("{}: choose 5 secret squares ({} chosen), then Done", name(*s), chosen.len()))
        }
        SecretPhase::Ready => Some(format!("secret squares chosen: hand the screen to {} to start", name(Side::First))),
        SecretPhase::Off | SecretPhase::Done => None,
    };
    if session.blocked != blocked {
        session.blocked = blocked;
    }
}

/// The secret squares a viewer may see now: revealed ones always; the choosing team's
/// choice; the team on turn's own when it asks. Never the other team's unrevealed squares.
pub fn visible_secrets(session: &Session, table: &CtorTable) -> Vec<Cell> {
    let AnyGame::Ctor(g) = &session.game else { return Vec::new() };
    if let SecretPhase::Choosing(_, chosen) = &table.phase {
        return chosen.clone();
    }
    if table.phase != SecretPhase::Done {
        return Vec::new();
    }
    let on_turn = g.side_to_move();
    let mut out = Vec::new();
    for side in [Side::First, Side::Second] {
        for (sq, state) in g.secrets(side) {
            let own_view = side == on_turn
                && table.show_own
                && session.players[side.index()] == crate::gui::session::PlayerKind::Person;
            if *state == crate::rules::ctor::SecretState::Revealed || own_view {
                out.push(g.cell(*sq));
            }
        }
    }
    out
}

fn secret_marks(
    mut commands: Commands,
    session: Option<Res<Session>>,
    mut table: ResMut<CtorTable>,
    layout: Res<Layout>,
    marks: Query<(Entity, &SecretMark)>,
    mut meshes: ResMut<Assets<Mesh>>,
    mut materials: ResMut<Assets<StandardMaterial>>,
    mut style: Local<Option<(Handle<Mesh>, Handle<StandardMaterial>)>>,
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
    let want = visible_secrets(&session, &table);
    let mut have: Vec<Cell> = marks.iter().map(|(_, m)| m.0).collect();
    let mut sorted = want.clone();
    sorted.sort();
    have.sort();
    if have == sorted {
        return;
    }
    for (e, _) in &marks {
        commands.entity(e).despawn();
    }
    let (mesh, mat) = style
        .get_or_insert_with(|| {
            (
                meshes.add(Torus::new(0.36, 0.46)),
                materials.add(StandardMaterial {
                    base_color: Color::srgb(0.9, 0.1, 0.1),
                    emissive: LinearRgba::rgb(0.8, 0.05, 0.05),
                    ..default()
                }),
            )
        })
        .clone();
    for c in want {
        commands.spawn((
            Mesh3d(mesh.clone()),
            MeshMaterial3d(mat.clone()),
            Transform::from_translation(cell_pos(&layout, c).with_y(crate::gui::scene::BOARD_TOP + 0.01))
                .with_scale(Vec3::new(1.0, 0.3, 1.0)),
            SecretMark(c),
            Pickable::IGNORE,
            BoardItem,
        ));
    }
}

/// The sand-glass: the turn's clock runs while a person or the computer is to move and nothing
/// moves; when it runs out the turn ends (`T`). The glass beside the field shows the sand.
#[allow(clippy::too_many_arguments)]
fn sand_glass(
    mut commands: Commands,
    session: Option<ResMut<Session>>,
    mut table: ResMut<CtorTable>,
    time: Res<Time>,
    tweens: Query<(), Or<(With<Tween>, With<Turn>)>>,
    mut sand: Query<(&Sand, &mut Transform)>,
    glass: Query<(), With<Sand>>,
    layout: Res<Layout>,
    mut meshes: ResMut<Assets<Mesh>>,
    mut materials: ResMut<Assets<StandardMaterial>>,
    mut animate: MessageWriter<Animate>,
) {
    let Some(mut session) = session else { return };
    let AnyGame::Ctor(g) = &session.game else { return };
    let Some(limit) = g.options().timer else { return };
    let now = Some((g.side_to_move(), g.turn()));
    if table.clock_turn != now {
        table.clock_turn = now;
        table.clock = 0.0;
    }
    if glass.is_empty() {
        // Two bulbs of sand around a waist, beside the field on the right.
        let at = Vec3::new(layout.files as f32 / 2.0 + 2.6, 0.0, -1.5);
        let cone = meshes.add(Cone { radius: 0.35, height: 0.5 });
        let sand_mat = materials.add(StandardMaterial { base_color: Color::srgb(0.9, 0.75, 0.45), ..default() });
        let frame = materials.add(StandardMaterial {
            base_color: Color::srgb(0.35, 0.2, 0.1),
            perceptual_roughness: 0.5,
            ..default()
        });
        let disc = meshes.add(Cylinder::new(0.45, 0.06));
        for (y, upper) in [(0.8, true), (0.3, false)] {
            let rot = if upper { Quat::from_rotation_x(std::f32::consts::PI) } else { Quat::IDENTITY };
            commands.spawn((
                Mesh3d(cone.clone()),
                MeshMaterial3d(sand_mat.clone()),
                Transform::from_translation(at.with_y(y)).with_rotation(rot),
                Sand(upper),
                BoardItem,
                Pickable::IGNORE,
            ));
        }
        for y in [0.03, 1.07] {
            commands.spawn((
                Mesh3d(disc.clone()),
                MeshMaterial3d(frame.clone()),
                Transform::from_translation(at.with_y(y)),
                BoardItem,
                Pickable::IGNORE,
            ));
        }
    }
    let running = tweens.is_empty() && g.outcome().is_none() && session.blocked.is_none();
    if running {
        table.clock += time.delta_secs();
    }
    let left = (1.0 - table.clock / limit as f32).clamp(0.0, 1.0);
    for (s, mut tf) in &mut sand {
        let k = if s.0 { left } else { 1.0 - left };
        tf.scale = Vec3::new(k.max(0.02), k.max(0.02), k.max(0.02));
    }
    if running && table.clock >= limit as f32 {
        table.clock = 0.0;
        if let Ok(a) = session.play_text("T") {
            session.message = "the sand ran out: the turn ended".into();
            animate.write(a);
        }
    }
}
