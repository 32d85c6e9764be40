//! CTOR's team play at one table (RULES section 4, `crate::team`): in a team's turn its
//! members choose their Puts blind, one after another behind the hand-over screen (a
//! computer member at once, from its team's view alone); then the Puts are revealed and
//! placed one after another in the members' order. A square two chose goes to the earlier;
//! the later chooses again behind the screen. Then the seat acting plays the team's Moves and
//! Landings and ends the turn. Between turns a member may leave and a player may join.

use super::ctor_table::SecretCommand;
use super::session::{By, MoveChosen, Notice, PlayerKind, Session};
use super::table::{BOARD_TOP, BoardItem, CellClicked, Layout, cell_pos};
use super::{Mode, TableSystems};
use crate::record::PlayerInfo;
use crate::rules::ctor::{CtorMove, Square};
use crate::rules::{AnyGame, AnyMove, Game, Side};
use crate::team::{TeamChange, shares, team_name};
use bevy::prelude::*;
use std::collections::VecDeque;

/// Where the blind round of the team on turn stands.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub enum RoundPhase {
    /// No round (not a team's turn, or it is done).
    #[default]
    Idle,
    /// The screen waits for this member alone to look, who chooses this many squares.
    HandOver(u8, u8),
    /// This member chooses (this many at most; those chosen so far).
    Choosing(u8, u8, Vec<Square>),
    /// The choices are revealed and placed one after another.
    Placing,
}

/// The blind round of the team on turn.
#[derive(Resource, Clone, Debug, Default)]
pub struct TeamRound {
    /// The team and turn the round is for.
    pub key: Option<(Side, u32)>,
    pub phase: RoundPhase,
    /// Members still to choose, in order, with how many squares each.
    pub queue: VecDeque<(u8, u8)>,
    /// The choices so far, in the members' order.
    pub choices: Vec<(u8, Square)>,
    /// Revealed Puts waiting to be placed.
    pub placing: VecDeque<(u8, Square)>,
    /// Members whose square was taken: they choose again once the others are placed.
    pub again: Vec<u8>,
    /// The last reveal, said on the panel: who put where, and any collision.
    pub revealed: String,
}

impl TeamRound {
    /// What the players are asked to do, while a round is on.
    pub fn prompt(&self, session: &Session) -> Option<String> {
        let (side, _) = self.key?;
        let team = capital(team_name(side));
        let name = |m: u8| member_name(session, side, m);
        let puts = |n: u8| if n == 1 { "1 Put".to_string() } else { format!("{n} Puts") };
        let again = if self.revealed.is_empty() { String::new() } else { format!("{}\n", self.revealed) };
        Some(match &self.phase {
            RoundPhase::Idle => return None,
            RoundPhase::HandOver(m, n) => format!(
                "{again}{team} team: hand the screen to {}\n({} to choose blind; only {} may look; Continue or Space)",
                name(*m),
                puts(*n),
                name(*m)
            ),
            RoundPhase::Choosing(m, n, chosen) => {
                format!(
                    "{}: choose {} ({} chosen), then Done (Space); the others look away",
                    name(*m),
                    puts(*n),
                    chosen.len()
                )
            }
            RoundPhase::Placing => format!("{team} team's Puts revealed: {}", self.revealed),
        })
    }

    /// The member choosing now, and the squares they have chosen (seen at the table only).
    pub fn choosing(&self) -> Option<(u8, &[Square])> {
        match &self.phase {
            RoundPhase::Choosing(m, _, chosen) => Some((*m, chosen)),
            _ => None,
        }
    }
}

use super::menu::capital;

/// A member's name, as the menu gave it.
pub fn member_name(session: &Session, side: Side, m: u8) -> String {
    session
        .seats()
        .and_then(|s| s[side.index()].get(m as usize).map(|p| p.name.clone()))
        .unwrap_or_else(|| format!("member {}", m + 1))
}

/// Each member's Puts still to make this turn: their share, less those they made.
pub fn puts_left(session: &Session) -> Vec<u8> {
    let AnyGame::Ctor(g) = &session.game else { return Vec::new() };
    let Some(seats) = session.seats() else { return Vec::new() };
    let side = g.side_to_move();
    let n = seats[side.index()].len();
    let mut left = shares(g.allowance(g.turn()).puts, n);
    for ((before, mv), member) in session.history.iter().zip(&session.members).rev() {
        let AnyGame::Ctor(b) = before else { break };
        if b.turn() != g.turn() {
            break;
        }
        if crate::team::is_put(mv)
            && let Some(m) = member
            && let Some(l) = left.get_mut(*m as usize)
        {
            *l = l.saturating_sub(1);
        }
    }
    if session.puts_closed() {
        left.iter_mut().for_each(|l| *l = 0);
    }
    left
}

/// The panel's lines of a team game: each team's members, the Puts each still has this turn,
/// and whose seat acts.
pub fn seats_line(session: &Session) -> Option<String> {
    let seats = session.seats()?;
    let AnyGame::Ctor(g) = &session.game else { return None };
    let on_turn = g.side_to_move();
    let left = puts_left(session);
    let lead = session.record.team.as_ref().map(|t| t.lead).unwrap_or_default();
    let mut lines = Vec::new();
    for side in [Side::First, Side::Second] {
        let acting =
            crate::team::acting(lead, if side == on_turn { g.turn() } else { g.turn() + 1 }, seats[side.index()].len());
        let members: Vec<String> = seats[side.index()]
            .iter()
            .enumerate()
            .map(|(m, p)| {
                let kind = PlayerKind::from_record(&p.kind).label();
                let puts = match left.get(m) {
                    Some(n) if side == on_turn => format!(", {n} Put{} left", if *n == 1 { "" } else { "s" }),
                    _ => String::new(),
                };
                let mark = if m == acting { "*" } else { "" };
                format!("{mark}{} ({kind}{puts})", p.name)
            })
            .collect();
        lines.push(format!("{}: {}", capital(team_name(side)), members.join(", ")));
    }
    let acting = session.acting_member().map(|m| member_name(session, on_turn, m)).unwrap_or_default();
    Some(format!("{}\n* moves and lands for the team; now acting: {acting}", lines.join("\n")))
}

/// The status line of a team game: whose turn, and who acts for the team (or that its
/// members are choosing their Puts).
pub fn status_line(session: &Session) -> Option<String> {
    session.seats()?;
    let g = &session.game;
    if g.outcome().is_some() || session.replay.is_some() {
        return None;
    }
    let side = g.side_to_move();
    let team = g.variant().side_name(side);
    let title = g.variant().title();
    if session.in_round() {
        return Some(format!("{title}: {team}'s members choose their Puts"));
    }
    let m = session.acting_member()?;
    let kind = session.seats()?[side.index()].get(m as usize).map(|p| PlayerKind::from_record(&p.kind).label())?;
    Some(format!("{title}: {team} to move ({}, {kind})", member_name(session, side, m)))
}

/// The rings on the squares the member choosing has picked: at the table only.
#[derive(Component)]
pub struct ChoiceMark(pub Square);

#[derive(Resource)]
struct Look {
    ring: Handle<Mesh>,
    colour: Handle<StandardMaterial>,
}

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<TeamRound>()
        .add_systems(Startup, setup)
        .add_systems(
            Update,
            (seat_changes, blind_round).chain().run_if(in_state(Mode::Live)).in_set(TableSystems::Pick),
        )
        .add_systems(
            Update,
            choice_marks
                .run_if(resource_changed::<TeamRound>.or_else(resource_changed::<Layout>))
                .in_set(TableSystems::Present),
        );
}

fn setup(mut commands: Commands, mut meshes: ResMut<Assets<Mesh>>, mut materials: ResMut<Assets<StandardMaterial>>) {
    commands.insert_resource(Look {
        ring: meshes.add(Torus::new(0.3, 0.42)),
        colour: materials.add(StandardMaterial {
            base_color: Color::srgb(0.35, 0.7, 0.95),
            emissive: LinearRgba::rgb(0.1, 0.35, 0.6),
            ..default()
        }),
    });
}

/// The blind round: starts when a team of several members comes to turn, hands the screen to
/// each person member, lets a computer member choose at once, reveals and places the Puts one
/// at a time once the table rests, and lets a member whose square was taken choose again.
#[allow(clippy::too_many_arguments)]
fn blind_round(
    session: Option<ResMut<Session>>,
    mut round: ResMut<TeamRound>,
    mut commands: MessageReader<SecretCommand>,
    mut keys: MessageReader<super::session::Command>,
    mut clicks: MessageReader<CellClicked>,
    tweens: Query<(), With<super::animate::Tween>>,
    mut notice: ResMut<Notice>,
    mut chosen: MessageWriter<MoveChosen>,
) {
    let mut commands: Vec<SecretCommand> = commands.read().copied().collect();
    // Space (the key that ends a turn, which cannot end one during a round) goes on: it is
    // *Continue* on the hand-over screen and *Done* while choosing.
    let space = keys.read().filter(|c| **c == super::session::Command::EndTurn).count() > 0;
    match &round.phase {
        RoundPhase::HandOver(..) if space => commands.push(SecretCommand::Proceed),
        RoundPhase::Choosing(..) if space => commands.push(SecretCommand::PutsDone),
        _ => {}
    }
    let clicks: Vec<CellClicked> = clicks.read().copied().collect();
    let Some(mut session) = session else { return };
    let AnyGame::Ctor(g) = &session.game else { return };
    if !session.in_round() {
        if round.key.is_some() {
            *round = TeamRound::default();
        }
        return;
    }
    let key = (g.side_to_move(), g.turn());
    if round.key != Some(key) {
        let left = puts_left(&session);
        *round = TeamRound {
            key: Some(key),
            queue: left.iter().enumerate().filter(|(_, n)| **n > 0).map(|(m, n)| (m as u8, *n)).collect(),
            ..default()
        };
        advance(&mut session, &mut round);
    }
    for command in commands {
        match (command, round.phase.clone()) {
            (SecretCommand::Proceed, RoundPhase::HandOver(m, n)) => {
                round.phase = RoundPhase::Choosing(m, n, Vec::new())
            }
            (SecretCommand::PutsDone, RoundPhase::Choosing(m, _, squares)) => {
                round.choices.extend(squares.iter().map(|s| (m, *s)));
                advance(&mut session, &mut round);
            }
            _ => {}
        }
    }
    if let RoundPhase::Choosing(_, n, chosen) = &mut round.phase {
        let AnyGame::Ctor(g) = &session.game else { return };
        for CellClicked(cell) in clicks {
            let Some(sq) = g.square(cell) else { continue };
            if let Some(i) = chosen.iter().position(|s| *s == sq) {
                chosen.remove(i);
            } else if g.disc(sq).is_some() {
                notice.say(format!("square {sq} is taken: choose an empty one"));
            } else if chosen.len() < *n as usize {
                chosen.push(sq);
                notice.say("");
            } else {
                notice.say("that is all your Puts: Done, or click one of them to take it back");
            }
        }
    }
    if round.phase == RoundPhase::Placing && tweens.is_empty() {
        match round.placing.pop_front() {
            Some((m, sq)) => {
                chosen.write(MoveChosen { mv: AnyMove::Ctor(CtorMove::Put(sq)), by: By::Member(m) });
            }
            None if !round.again.is_empty() => {
                // The later members whose square was taken choose again, knowing it now.
                let again = std::mem::take(&mut round.again);
                let mut queue: VecDeque<(u8, u8)> = VecDeque::new();
                for m in again {
                    match queue.iter_mut().find(|(x, _)| *x == m) {
                        Some(q) => q.1 += 1,
                        None => queue.push_back((m, 1)),
                    }
                }
                round.queue = queue;
                round.choices.clear();
                advance(&mut session, &mut round);
            }
            None => {
                session.blind_done = Some(key.1);
                notice.say(format!("{} team's Puts: {}", capital(team_name(key.0)), round.revealed));
                *round = TeamRound::default();
            }
        }
    }
}

/// The next step of a round: the next member chooses (a computer at once, from its team's
/// view of the field as it was before anyone revealed); when all have, the choices are
/// revealed.
fn advance(session: &mut Session, round: &mut TeamRound) {
    let AnyGame::Ctor(g) = &session.game else { return };
    let side = g.side_to_move();
    let seats = session.seats().map(|s| s[side.index()].clone()).unwrap_or_default();
    while let Some((m, n)) = round.queue.pop_front() {
        let kind = seats.get(m as usize).map(|p| p.kind.clone()).unwrap_or_else(|| "human".into());
        if PlayerKind::from_record(&kind) == PlayerKind::Person {
            round.phase = RoundPhase::HandOver(m, n);
            return;
        }
        let seed = 0x7ea3 ^ (g.turn() as u64) << 8 ^ m as u64 ^ (session.history.len() as u64) << 20;
        let puts = crate::team::computer_puts(&g.view(side), n, &kind, seed);
        round.choices.extend(puts.into_iter().map(|s| (m, s)));
    }
    // Everyone has chosen: reveal.
    let blind = g.resolve_blind_put(&round.choices);
    let name = |m: u8| member_name(session, side, m);
    let mut said: Vec<String> = blind.accepted.iter().map(|(m, s)| format!("{} on {s}", name(*m))).collect();
    if said.is_empty() {
        said.push("no Put".into());
    }
    for &m in &blind.choose_again {
        let wanted: Vec<Square> = round
            .choices
            .iter()
            .filter(|(x, _)| *x == m)
            .map(|(_, s)| *s)
            .filter(|s| g.disc(*s).is_some() || blind.accepted.iter().any(|(_, a)| a == s))
            .collect();
        if let Some(sq) = wanted.first() {
            let first = blind.accepted.iter().find(|(_, a)| a == sq).map(|(x, _)| name(*x));
            said.push(match first {
                Some(f) => format!("{f} and {} both chose {sq}: {} chooses again", name(m), name(m)),
                None => format!("{sq} was taken: {} chooses again", name(m)),
            });
        }
    }
    round.revealed = said.join("; ");
    round.placing = blind.accepted.into_iter().collect();
    // Only as many again as the turn still has Puts for.
    let room = g.left().puts as usize - round.placing.len();
    round.again = blind.choose_again.into_iter().take(room).collect();
    round.phase = RoundPhase::Placing;
}

/// Members leaving and players joining: only between a team's turns (for the team on turn,
/// at the hand-over before anyone chose), within the seats the format allows; recorded.
fn seat_changes(
    session: Option<ResMut<Session>>,
    mut round: ResMut<TeamRound>,
    mut commands: MessageReader<SecretCommand>,
    mut notice: ResMut<Notice>,
) {
    let Some(mut session) = session else {
        commands.clear();
        return;
    };
    for command in commands.read().copied().collect::<Vec<_>>() {
        let (side, join) = match command {
            SecretCommand::Leave(side, _) => (side, false),
            SecretCommand::Join(side) => (side, true),
            _ => continue,
        };
        let AnyGame::Ctor(g) = &session.game else { continue };
        let played = session.history.len();
        let Some(team) = session.record.team.clone() else { continue };
        let started = round.key.is_some_and(|(s, _)| s == side) && !round.choices.is_empty();
        let allowed = if started {
            Err("seats change only between turns: this team's members are choosing".to_string())
        } else {
            team.may_change(g, played, side, join)
        };
        if let Err(why) = allowed {
            notice.say(why);
            continue;
        }
        let seats = team.seats_at(played)[side.index()].clone();
        let change = match command {
            SecretCommand::Leave(_, m) if (m as usize) < seats.len() => {
                notice.say(format!("{} leaves the {} team", seats[m as usize].name, team_name(side)));
                TeamChange { at: played, team: team_name(side).into(), join: None, leave: Some(m) }
            }
            SecretCommand::Join(_) => {
                let name = next_name(&team, side);
                notice.say(format!("{name} joins the {} team", team_name(side)));
                TeamChange {
                    at: played,
                    team: team_name(side).into(),
                    join: Some(PlayerInfo { name, kind: PlayerKind::Person.record_kind() }),
                    leave: None,
                }
            }
            _ => continue,
        };
        if let Some(t) = &mut session.record.team {
            t.changes.push(change);
        }
        session.sync_record();
        // The round of the team on turn starts again with the new seats.
        if round.key.is_some_and(|(s, _)| s == side) {
            *round = TeamRound::default();
        }
    }
}

/// A name for a player who joins: the team's colour and the first number not taken.
fn next_name(team: &crate::team::TeamRecord, side: Side) -> String {
    let names: Vec<String> = team
        .seats
        .iter()
        .flatten()
        .chain(team.changes.iter().filter_map(|c| c.join.as_ref()))
        .map(|p| p.name.clone())
        .collect();
    (1..).map(|k| format!("{} {k}", capital(team_name(side)))).find(|n| !names.contains(n)).expect("a free name")
}

/// Rings on the squares the member choosing has picked, on the player's layer only (never
/// on the broadcast or in the live feed).
fn choice_marks(
    mut commands: Commands,
    session: Option<Res<Session>>,
    round: Res<TeamRound>,
    layout: Res<Layout>,
    look: Res<Look>,
    marks: Query<(Entity, &ChoiceMark)>,
) {
    let want: Vec<Square> = round.choosing().map(|(_, s)| s.to_vec()).unwrap_or_default();
    let mut have: Vec<Square> = marks.iter().map(|(_, m)| m.0).collect();
    have.sort();
    let mut sorted = want.clone();
    sorted.sort();
    if have == sorted {
        return;
    }
    for (e, _) in &marks {
        commands.entity(e).despawn();
    }
    let Some(AnyGame::Ctor(g)) = session.as_ref().map(|s| &s.game) else { return };
    for sq in want {
        commands.spawn((
            Mesh3d(look.ring.clone()),
            MeshMaterial3d(look.colour.clone()),
            Transform::from_translation(cell_pos(&layout, g.cell(sq)).with_y(BOARD_TOP + 0.02))
                .with_scale(Vec3::new(1.0, 0.3, 1.0)),
            ChoiceMark(sq),
            Pickable::IGNORE,
            BoardItem,
            bevy::camera::visibility::RenderLayers::layer(super::table::PLAYER_ONLY),
        ));
    }
}
