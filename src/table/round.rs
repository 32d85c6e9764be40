//! CTOR's team play at one table (`crate::team`): in a team's turn its members choose their
//! Puts blind, one after another behind the hand-over screen (a computer member at once, from
//! its team's view alone); then the Puts are revealed and placed one after another in the
//! members' order. A square two chose goes to the earlier; the later chooses again. Then the
//! seat acting plays the team's Moves and Landings. Between turns members leave and join.

use super::{By, Mode, Outcome, PlayerKind, Refused, Step, Table, capital, refuse};
use crate::record::PlayerInfo;
use crate::rules::ctor::{CtorMove, Square};
use crate::rules::{AnyGame, AnyMove, Game, Side};
use crate::team::{TeamChange, shares, team_name};
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
    /// The members apart ([`Table::apart`]): those in the queue choose on their own machines,
    /// in any order ([`super::Intent::Blind`]).
    Open,
}

/// The blind round of the team on turn.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
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
    /// The member choosing now, and the squares they have chosen (seen at the table only).
    pub fn choosing(&self) -> Option<(u8, &[Square])> {
        match &self.phase {
            RoundPhase::Choosing(m, _, chosen) => Some((*m, chosen)),
            _ => None,
        }
    }

    /// The members apart: the Puts `member` is still to choose, and those it has chosen,
    /// unseen by the others until every member has chosen.
    pub fn blind(&self, member: u8) -> (u8, Vec<Square>) {
        if self.phase != RoundPhase::Open {
            return (0, Vec::new());
        }
        let left = self.queue.iter().find(|(m, _)| *m == member).map_or(0, |(_, n)| *n);
        (left, self.choices.iter().filter(|(m, _)| *m == member).map(|(_, sq)| *sq).collect())
    }
}

impl Table {
    /// What the players are asked to do, while a round is on.
    pub fn round_prompt(&self) -> Option<String> {
        let round = &self.round;
        let (side, _) = round.key?;
        let team = capital(team_name(side));
        let name = |m: u8| self.member_name(side, m);
        let puts = |n: u8| if n == 1 { "1 Put".to_string() } else { format!("{n} Puts") };
        let again = if round.revealed.is_empty() { String::new() } else { format!("{}\n", round.revealed) };
        Some(match &round.phase {
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
            RoundPhase::Placing => format!("{team} team's Puts revealed: {}", round.revealed),
            RoundPhase::Open => format!("{again}{team} team's members choose their Puts blind"),
        })
    }

    /// A member's name, as the menu gave it.
    pub fn member_name(&self, side: Side, m: u8) -> String {
        self.seats()
            .and_then(|s| s[side.index()].get(m as usize).map(|p| p.name.clone()))
            .unwrap_or_else(|| format!("member {}", m + 1))
    }

    /// Each member's Puts still to make this turn: their share, less those they made.
    pub fn puts_left(&self) -> Vec<u8> {
        let AnyGame::Ctor(g) = &self.game else { return Vec::new() };
        let Some(seats) = self.seats() else { return Vec::new() };
        let side = g.side_to_move();
        let n = seats[side.index()].len();
        let mut left = shares(g.allowance(g.turn()).puts, n);
        for ((before, mv), member) in self.history.iter().zip(&self.members).rev() {
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
        if self.puts_closed() {
            left.iter_mut().for_each(|l| *l = 0);
        }
        left
    }

    /// The panel's lines of a team game: each team's members, the Puts each still has this
    /// turn, and whose seat acts.
    pub fn seats_line(&self) -> Option<String> {
        let seats = self.seats()?;
        let AnyGame::Ctor(g) = &self.game else { return None };
        let on_turn = g.side_to_move();
        let left = self.puts_left();
        let lead = self.record.team.as_ref().map(|t| t.lead).unwrap_or_default();
        let mut lines = Vec::new();
        for side in [Side::First, Side::Second] {
            let acting = crate::team::acting(
                lead,
                if side == on_turn { g.turn() } else { g.turn() + 1 },
                seats[side.index()].len(),
            );
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
        let acting = self.acting_member().map(|m| self.member_name(on_turn, m)).unwrap_or_default();
        Some(format!("{}\n* moves and lands for the team; now acting: {acting}", lines.join("\n")))
    }

    /// The status line of a team game: whose turn, and who acts for the team (or that its
    /// members are choosing their Puts).
    pub fn team_status_line(&self) -> Option<String> {
        self.seats()?;
        let g = &self.game;
        if g.outcome().is_some() || self.replay.is_some() {
            return None;
        }
        let side = g.side_to_move();
        let team = g.variant().side_name(side);
        let title = g.variant().title();
        if self.in_round() {
            return Some(format!("{title}: {team}'s members choose their Puts"));
        }
        let m = self.acting_member()?;
        let kind = self.seats()?[side.index()].get(m as usize).map(|p| PlayerKind::from_record(&p.kind).label())?;
        Some(format!("{title}: {team} to move ({}, {kind})", self.member_name(side, m)))
    }

    /// The round follows the game: it starts when a team of several members comes to turn (a
    /// computer member choosing at once) and ends when the turn's blind Puts are done.
    pub(super) fn follow_round(&mut self) {
        if self.mode() != Mode::Live {
            return;
        }
        let AnyGame::Ctor(g) = &self.game else { return };
        if !self.in_round() {
            if self.round.key.is_some() {
                self.round = TeamRound::default();
            }
            return;
        }
        let key = (g.side_to_move(), g.turn());
        if self.round.key != Some(key) {
            let left = self.puts_left();
            self.round = TeamRound {
                key: Some(key),
                queue: left.iter().enumerate().filter(|(_, n)| **n > 0).map(|(m, n)| (m as u8, *n)).collect(),
                ..TeamRound::default()
            };
            self.advance_round();
        }
    }

    /// The hand-over screen's *Continue*, and the member's *Done*.
    pub(super) fn round_step(&mut self, step: Step) -> Result<Outcome, Refused> {
        match (step, self.round.phase.clone()) {
            (Step::Proceed, RoundPhase::HandOver(m, n)) => self.round.phase = RoundPhase::Choosing(m, n, Vec::new()),
            (Step::Done, RoundPhase::Choosing(m, _, squares)) => {
                self.round.choices.extend(squares.iter().map(|s| (m, *s)));
                self.advance_round();
            }
            // Any other step does not belong to this screen: nothing changes.
            _ => {}
        }
        Ok(Outcome::default())
    }

    /// The member choosing clicked a square: chosen, taken back, or refused.
    pub(super) fn round_click(&mut self, cell: crate::rules::Cell) -> Result<Outcome, Refused> {
        let AnyGame::Ctor(g) = &self.game else { return Ok(Outcome::default()) };
        let RoundPhase::Choosing(_, n, chosen) = &mut self.round.phase else { return Ok(Outcome::default()) };
        let Some(sq) = g.square(cell) else { return Ok(Outcome::default()) };
        if let Some(i) = chosen.iter().position(|s| *s == sq) {
            chosen.remove(i);
            Ok(Outcome::default())
        } else if g.disc(sq).is_some() {
            refuse(format!("square {sq} is taken: choose an empty one"))
        } else if chosen.len() < *n as usize {
            chosen.push(sq);
            Ok(Outcome::say(""))
        } else {
            refuse("that is all your Puts: Done, or click one of them to take it back")
        }
    }

    /// The next revealed Put is placed; when all are, the members whose square was taken
    /// choose again, or the round is done.
    pub(super) fn place_next_put(&mut self) -> Result<Outcome, Refused> {
        if self.round.phase != RoundPhase::Placing {
            return Ok(Outcome::default());
        }
        let Some(key) = self.round.key else { return Ok(Outcome::default()) };
        match self.round.placing.pop_front() {
            Some((m, sq)) => self.play_by(&AnyMove::Ctor(CtorMove::Put(sq)), By::Member(m)),
            None if !self.round.again.is_empty() => {
                // The later members whose square was taken choose again, knowing it now.
                let again = std::mem::take(&mut self.round.again);
                let mut queue: VecDeque<(u8, u8)> = VecDeque::new();
                for m in again {
                    match queue.iter_mut().find(|(x, _)| *x == m) {
                        Some(q) => q.1 += 1,
                        None => queue.push_back((m, 1)),
                    }
                }
                self.round.queue = queue;
                self.round.choices.clear();
                self.advance_round();
                Ok(Outcome::default())
            }
            None => {
                self.blind_done = Some(key.1);
                let said = format!("{} team's Puts: {}", capital(team_name(key.0)), self.round.revealed);
                self.round = TeamRound::default();
                Ok(Outcome::say(said))
            }
        }
    }

    /// The next step of a round: the next member chooses (a computer at once, from its team's
    /// view of the field as it was before anyone revealed); when all have, the choices are
    /// revealed.
    fn advance_round(&mut self) {
        let AnyGame::Ctor(g) = &self.game else { return };
        let side = g.side_to_move();
        let seats = self.seats().map(|s| s[side.index()].clone()).unwrap_or_default();
        let mut apart = VecDeque::new();
        while let Some((m, n)) = self.round.queue.pop_front() {
            let kind = seats.get(m as usize).map_or(PlayerKind::Person, |p| PlayerKind::from_record(&p.kind));
            if kind == PlayerKind::Person && self.apart {
                apart.push_back((m, n));
                continue;
            }
            if kind == PlayerKind::Person {
                self.round.phase = RoundPhase::HandOver(m, n);
                return;
            }
            let seed = 0x7ea3 ^ (g.turn() as u64) << 8 ^ m as u64 ^ (self.history.len() as u64) << 20;
            let puts = crate::team::computer_puts(&g.view(side), n, kind, seed);
            self.round.choices.extend(puts.into_iter().map(|s| (m, s)));
        }
        if !apart.is_empty() {
            // The people choose on their own machines, each when it likes.
            self.round.queue = apart;
            self.round.phase = RoundPhase::Open;
            return;
        }
        // Everyone has chosen: reveal.
        let blind = g.resolve_blind_put(&self.round.choices);
        let name = |m: u8| self.member_name(side, m);
        let mut said: Vec<String> = blind.accepted.iter().map(|(m, s)| format!("{} on {s}", name(*m))).collect();
        if said.is_empty() {
            said.push("no Put".into());
        }
        for &m in &blind.choose_again {
            let wanted: Vec<Square> = self
                .round
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
        // Only as many again as the turn still has Puts for.
        let room = g.left().puts as usize - blind.accepted.len();
        self.round.revealed = said.join("; ");
        self.round.placing = blind.accepted.into_iter().collect();
        self.round.again = blind.choose_again.into_iter().take(room).collect();
        self.round.phase = RoundPhase::Placing;
    }

    /// The members apart: `member`'s blind choice, a Put or End (see [`super::Intent::Blind`]).
    /// Once every member has chosen, the choices are revealed.
    pub(super) fn blind(&mut self, member: u8, mv: &AnyMove) -> Result<Outcome, Refused> {
        let AnyGame::Ctor(g) = &self.game else { return refuse("only CTOR has teams") };
        if self.round.phase != RoundPhase::Open {
            return refuse("no team is choosing its Puts now");
        }
        let at = self.round.queue.iter().position(|(m, n)| *m == member && *n > 0);
        if let (AnyMove::Ctor(CtorMove::End), None) = (mv, at) {
            // Nothing more from this member: it has chosen all it may.
            return Ok(Outcome::default());
        }
        let Some(k) = at else { return refuse("this member has chosen its Puts: the team's others choose") };
        match mv {
            AnyMove::Ctor(CtorMove::End) => {
                self.round.queue.remove(k);
            }
            AnyMove::Ctor(CtorMove::Put(sq)) => {
                if g.disc(*sq).is_some() {
                    return Err(super::illegal(format!("square {sq} is taken")));
                }
                if self.round.choices.iter().any(|(m, s)| *m == member && s == sq) {
                    return Err(super::illegal(format!("square {sq} is chosen already")));
                }
                self.round.choices.push((member, *sq));
                self.round.queue[k].1 -= 1;
                if self.round.queue[k].1 == 0 {
                    self.round.queue.remove(k);
                }
            }
            _ => return refuse("the team chooses its Puts first (a member's End gives up the rest of its share)"),
        }
        if self.round.queue.is_empty() {
            self.advance_round();
        }
        Ok(Outcome::default())
    }

    /// A member leaving (`Some(seat)`) or a player joining (`None`): only between a team's
    /// turns (for the team on turn, at the hand-over before anyone chose), within the seats the
    /// format allows; recorded.
    pub(super) fn seat_change(&mut self, side: Side, leave: Option<u8>) -> Result<Outcome, Refused> {
        let AnyGame::Ctor(g) = &self.game else { return Ok(Outcome::default()) };
        let played = self.history.len();
        let Some(team) = self.record.team.clone() else { return Ok(Outcome::default()) };
        let started = self.round.key.is_some_and(|(s, _)| s == side) && !self.round.choices.is_empty();
        if started {
            return refuse("seats change only between turns: this team's members are choosing");
        }
        team.may_change(g, played, side, leave.is_none())
            .map_err(|e| Refused(e.to_string(), super::Ground::NotYours))?;
        let seats = team.seats_at(played)[side.index()].clone();
        let (change, said) = match leave {
            Some(m) if (m as usize) < seats.len() => (
                TeamChange { at: played, team: team_name(side).into(), join: None, leave: Some(m) },
                format!("{} leaves the {} team", seats[m as usize].name, team_name(side)),
            ),
            Some(_) => return Ok(Outcome::default()),
            None => {
                let name = next_name(&team, side);
                let said = format!("{name} joins the {} team", team_name(side));
                let join = PlayerInfo { name, kind: PlayerKind::Person.name() };
                (TeamChange { at: played, team: team_name(side).into(), join: Some(join), leave: None }, said)
            }
        };
        if let Some(t) = &mut self.record.team {
            t.changes.push(change);
        }
        self.sync_record();
        // The round of the team on turn starts again with the new seats.
        if self.round.key.is_some_and(|(s, _)| s == side) {
            self.round = TeamRound::default();
        }
        Ok(Outcome::say(said))
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
