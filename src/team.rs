//! CTOR's team play (RULES section 4): who sits in each team, how a turn's Puts are shared
//! among the members, who plays the Moves and Landings, the members' blind choices, a
//! computer member's choice (from its team's view only), and the checks a record of a team
//! game must pass. Nothing here needs Bevy: the table and `tablero check` share it.
//!
//! A team's seats change only between turns: a member may leave (a team-mate takes over their
//! operations) and a player may join while the team has fewer members than Puts per turn.
//! The game's format (the position's `teams` field, which fixes the allowance) never changes.

use crate::players::Kind;
use crate::record::{PlayerInfo, RecordError, RecordedMove};
use crate::rules::ctor::{Ctor, CtorMove, Square};
use crate::rules::{AnyGame, AnyMove, Game, Side};
use rand::{Rng, SeedableRng};

pub use crate::record::{Lead, TeamChange, TeamRecord};

/// How a turn's `puts` are shared among `members`: in turn, the first member first (as
/// [`Ctor::put_member`] counts them). A team of two with three Puts: 2 and 1.
pub fn shares(puts: u8, members: usize) -> Vec<u8> {
    let members = members.max(1);
    (0..members).map(|m| (0..puts as usize).filter(|k| k % members == m).count() as u8).collect()
}

/// The team's own turn count (0 for its first turn) in CTOR turn `turn`.
fn team_turn(turn: u32) -> usize {
    (turn.saturating_sub(1) / 2) as usize
}

/// The seat that plays the team's Moves and Landings in turn `turn`.
pub fn acting(lead: Lead, turn: u32, members: usize) -> usize {
    match lead {
        Lead::Captain => 0,
        Lead::Rotation => team_turn(turn) % members.max(1),
    }
}

/// The side a record's team name means.
pub fn side_of(team: &str) -> Option<Side> {
    match team {
        "black" => Some(Side::First),
        "white" => Some(Side::Second),
        _ => None,
    }
}

pub fn team_name(side: Side) -> &'static str {
    match side {
        Side::First => "black",
        Side::Second => "white",
    }
}

impl TeamRecord {
    /// Seats for a new game: each team's members, and who plays the Moves.
    pub fn new(seats: [Vec<PlayerInfo>; 2], lead: Lead) -> TeamRecord {
        TeamRecord { seats, lead, changes: Vec::new() }
    }

    /// The seats after the changes made before move `moves` was played.
    pub fn seats_at(&self, moves: usize) -> [Vec<PlayerInfo>; 2] {
        let mut seats = self.seats.clone();
        for c in self.changes.iter().filter(|c| c.at <= moves) {
            let Some(side) = side_of(&c.team) else { continue };
            let team = &mut seats[side.index()];
            if let Some(p) = &c.join {
                team.push(p.clone());
            }
            if let Some(l) = c.leave
                && (l as usize) < team.len()
            {
                team.remove(l as usize);
            }
        }
        seats
    }

    /// Whether `side` may change now, at `game` after `moves` moves: only between its turns
    /// (on turn, before it has done anything), and within the seats the format allows: at
    /// least one member, at most as many as Puts per turn.
    pub fn may_change(&self, game: &Ctor, moves: usize, side: Side, join: bool) -> Result<(), SeatError> {
        if game.outcome().is_some() {
            return Err(SeatError::Over);
        }
        if game.side_to_move() == side && game.had_operation() {
            return Err(SeatError::MidTurn(side));
        }
        let now = self.seats_at(moves)[side.index()].len();
        let most = game.teams().allowance(game.options().landing).puts as usize;
        if join && now >= most {
            return Err(SeatError::Full(side, now));
        }
        if !join && now <= 1 {
            return Err(SeatError::Last(side));
        }
        Ok(())
    }

    /// Checks the seats against the game a record plays (`positions` and `moves` as
    /// [`crate::record::Record::replay`] gives them): sizes within the format, changes only
    /// between turns, every operation's member seated then, and no member making more Puts
    /// in a turn than their share.
    pub fn check(&self, positions: &[AnyGame], moves: &[RecordedMove]) -> Result<(), RecordError> {
        let Some(AnyGame::Ctor(start)) = positions.first() else {
            return Err(RecordError::Team("field `team` belongs to CTOR records only".to_string()));
        };
        let most = start.teams().allowance(start.options().landing).puts as usize;
        for (i, team) in self.seats.iter().enumerate() {
            if team.is_empty() || team.len() > most {
                return Err(RecordError::Team(format!(
                    "field `team.seats[{i}]` has {} members, expected 1 to {most}",
                    team.len()
                )));
            }
            for (k, p) in team.iter().enumerate() {
                if Kind::parse(&p.kind).is_none() {
                    return Err(RecordError::Team(format!(
                        "field `team.seats[{i}][{k}].kind` is '{}'",
                        crate::rules::quote(&p.kind)
                    )));
                }
            }
        }
        let mut last_at = 0;
        for (k, c) in self.changes.iter().enumerate() {
            let what = format!("field `team.changes[{k}]`");
            let side = side_of(&c.team).ok_or_else(|| {
                RecordError::Team(format!("{what}: team '{}' is not black or white", crate::rules::quote(&c.team)))
            })?;
            if c.at < last_at {
                return Err(RecordError::Team(format!("{what}: changes must be in the order they happened")));
            }
            last_at = c.at;
            if c.join.is_some() == c.leave.is_some() {
                return Err(RecordError::Team(format!("{what}: a change is either a join or a leave")));
            }
            let Some(AnyGame::Ctor(g)) = positions.get(c.at) else {
                return Err(RecordError::Team(format!(
                    "{what}: made after move {} but the record has {}",
                    c.at,
                    moves.len()
                )));
            };
            // The seats just before this change: the earlier changes at the same point applied.
            let mut before = self.clone();
            before.changes.truncate(k);
            before
                .may_change(g, c.at, side, c.join.is_some())
                .map_err(|e| RecordError::Team(format!("{what} (before move {}): {e}", c.at + 1)))?;
            if let Some(p) = &c.join
                && Kind::parse(&p.kind).is_none()
            {
                return Err(RecordError::Team(format!("{what}: kind '{}'", crate::rules::quote(&p.kind))));
            }
            if let Some(l) = c.leave
                && l as usize >= before.seats_at(c.at)[side.index()].len()
            {
                return Err(RecordError::Team(format!("{what}: seat {l} is empty")));
            }
        }
        // Each turn's Puts, member by member.
        let mut made: Vec<u8> = Vec::new();
        let mut turn_of = None;
        for (i, (m, g)) in moves.iter().zip(positions).enumerate() {
            let AnyGame::Ctor(g) = g else { unreachable!("a CTOR game stays CTOR") };
            let side = g.side_to_move();
            let seats = self.seats_at(i)[side.index()].len();
            if turn_of != Some(g.turn()) {
                turn_of = Some(g.turn());
                made = vec![0; seats];
            }
            let is_put = m.mv.trim().starts_with('P');
            let Some(member) = m.member else {
                if is_put {
                    return Err(RecordError::Team(format!(
                        "move {} ({}): a team game's Put names its member",
                        i + 1,
                        crate::rules::quote(&m.mv)
                    )));
                }
                continue;
            };
            if member as usize >= seats {
                return Err(RecordError::Team(format!(
                    "move {} ({}): member {member} is not seated (the {} team has {seats})",
                    i + 1,
                    crate::rules::quote(&m.mv),
                    team_name(side)
                )));
            }
            if is_put {
                let share = shares(g.allowance(g.turn()).puts, seats)[member as usize];
                made.resize(seats, 0);
                made[member as usize] += 1;
                if made[member as usize] > share {
                    return Err(RecordError::Team(format!(
                        "move {} ({}): member {member} of the {} team makes Put {} of turn {}, but their share is {share}",
                        i + 1,
                        crate::rules::quote(&m.mv),
                        team_name(side),
                        made[member as usize],
                        g.turn()
                    )));
                }
            }
        }
        Ok(())
    }
}

/// Which of a team's members act as computers, and at what strength: 0 plays at random, 1 to
/// 4 are the levels easy to master.
fn strength(kind: Kind) -> usize {
    match kind {
        Kind::Ai(l) => l + 1,
        // The yardstick and the sparring partner choose as master does.
        Kind::Baseline | Kind::Uct(_) => crate::ai::LEVELS.len(),
        Kind::Person | Kind::Random => 0,
    }
}

/// A computer member's Puts: `count` squares chosen from `view` alone (the game as its team
/// sees it: the opponent's unrevealed secret squares gone, and none of its team-mates'
/// choices of this turn, which are not on the field until revealed). Squares that turn
/// opponent discs at once score best, and the stronger levels avoid squares the opponent can
/// turn back next turn; the seed breaks ties (and easy's noise), so a choice repeats.
pub fn computer_puts(view: &Ctor, count: u8, kind: Kind, seed: u64) -> Vec<Square> {
    let me = view.side_to_move();
    let level = strength(kind);
    let mut rng = rand::rngs::StdRng::seed_from_u64(seed);
    let mut game = view.clone();
    let mut out = Vec::new();
    for _ in 0..count {
        let free: Vec<Square> = game
            .legal_moves()
            .into_iter()
            .filter_map(|m| if let CtorMove::Put(s) = m { Some(s) } else { None })
            .collect();
        if free.is_empty() {
            break;
        }
        let pick = if level == 0 {
            free[rng.random_range(0..free.len())]
        } else {
            let noise = [0.0, 3.0, 1.0, 0.3, 0.0][level.min(4)];
            let mut best = (f64::MIN, free[0]);
            for &sq in &free {
                let mut after = game.clone();
                if after.play(&CtorMove::Put(sq)).is_err() {
                    continue;
                }
                let score =
                    put_score(&after, me, level >= 3) + noise * rng.random::<f64>() + 1e-6 * rng.random::<f64>();
                if score > best.0 {
                    best = (score, sq);
                }
            }
            best.1
        };
        out.push(pick);
        // Its own choices it knows: the next is chosen beside them. (A Put that fails here
        // cannot happen: the square was free.)
        let _ = game.play(&CtorMove::Put(pick));
        if game.side_to_move() != me {
            break;
        }
    }
    out
}

/// How good `after` is for `me`: the disc count, and (for the stronger levels) own discs
/// with four or more opponent neighbours count as half lost, opponent discs with four of
/// mine as half won.
fn put_score(after: &Ctor, me: Side, look: bool) -> f64 {
    let mut score = after.count(me) as f64 - after.count(me.other()) as f64;
    if look {
        let n = after.size() as Square * after.size() as Square;
        for sq in 1..=n {
            let Some(owner) = after.disc(sq) else { continue };
            let against = after.neighbours(sq).iter().filter(|&&s| after.disc(s) == Some(owner.other())).count();
            if against >= 4 {
                score += if owner == me { -0.5 } else { 0.5 };
            }
        }
    }
    score
}

/// The game as the seat acting after a blind round may play it: the round used the turn's
/// Puts (a member's unused one is given up), so its copy has none left.
pub fn after_round(game: &AnyGame) -> AnyGame {
    let AnyGame::Ctor(g) = game else { return game.clone() };
    let left = g.left();
    if left.puts == 0 {
        return game.clone();
    }
    let text = g.to_string();
    let given_up = text.replacen(&format!(" {left} "), &format!(" P0M{}L{} ", left.steps, left.landings), 1);
    match given_up.parse::<AnyGame>() {
        Ok(AnyGame::Ctor(mut copy)) => {
            copy.set_timer(g.options().timer);
            for side in [Side::First, Side::Second] {
                for (sq, state) in g.secrets(side) {
                    copy.know_secret(side, *sq, *state);
                }
            }
            AnyGame::Ctor(copy)
        }
        _ => game.clone(),
    }
}

/// A team's secret squares picked at random (a computer team's choice), from an explicit seed.
pub fn random_secrets(g: &Ctor, seed: u64) -> Vec<u16> {
    let n = g.size() as usize * g.size() as usize;
    let mut rng = rand::rngs::StdRng::seed_from_u64(seed);
    rand::seq::index::sample(&mut rng, n, crate::rules::ctor::SECRETS).into_iter().map(|i| i as u16 + 1).collect()
}

/// Whether a move is a Put.
pub fn is_put(mv: &AnyMove) -> bool {
    matches!(mv, AnyMove::Ctor(CtorMove::Put(_)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn puts_are_shared_in_turn() {
        assert_eq!(shares(2, 2), vec![1, 1]);
        assert_eq!(shares(3, 3), vec![1, 1, 1]);
        assert_eq!(shares(3, 2), vec![2, 1]);
        assert_eq!(shares(1, 3), vec![1, 0, 0]);
        assert_eq!(shares(2, 1), vec![2]);
    }

    #[test]
    fn the_lead_rotates_by_the_teams_own_turns() {
        assert_eq!((1..=8).map(|t| acting(Lead::Rotation, t, 2)).collect::<Vec<_>>(), [0, 0, 1, 1, 0, 0, 1, 1]);
        assert_eq!(acting(Lead::Captain, 7, 3), 0);
    }
}

/// Why a team's seats may not change now.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SeatError {
    #[error("the game is over")]
    Over,
    #[error("seats change only between turns: the {} team is in the middle of its turn", team_name(*.0))]
    MidTurn(Side),
    #[error("the {} team has {} members, as many as its Puts a turn: nobody more may join", team_name(*.0), .1)]
    Full(Side, usize),
    #[error("the {} team's last member cannot leave", team_name(*.0))]
    Last(Side),
}
