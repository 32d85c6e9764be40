//! The computer's seats at the host: they play as their turn comes, until the game ends or
//! the host closes.

use super::Sitter;
use super::seats::{Refused, Shared, Table, Why};
use crate::matches::STOP;
use crate::net::NetError;
use crate::rules::{AnyGame, Game};
use std::sync::MutexGuard;
use std::sync::atomic::Ordering;
use std::time::Duration;

pub(super) fn play_out(shared: &Shared) -> Result<AnyGame, NetError> {
    let mut said_error = None;
    loop {
        if STOP.load(Ordering::Relaxed) || shared.closed.load(Ordering::Relaxed) {
            return Err(NetError::Stopped);
        }
        let t = shared.lock();
        if let Some(e) = &t.core.save_error
            && said_error.as_ref() != Some(e)
        {
            eprintln!("tablero: {e}");
            said_error = Some(e.clone());
        }
        if t.game().outcome().is_some() {
            return Ok(t.game().clone());
        }
        // The sand-glass: the turn ends when it runs out, whatever was done.
        if shared.sand_left(&t) == Some(0) {
            let ply = t.played();
            drop(t);
            // (A move that came first is no error: the next round looks again.)
            let _ = shared.play(None, Some(ply), "T");
            continue;
        }
        if shared.choosing_secrets(&t) {
            wait(shared, t);
            continue;
        }
        let side = t.game().side_to_move();
        let created = t.core.record.created_ms;
        let ply = t.played();
        // In a team's blind round the computer's members chose at once, as it began.
        if shared.in_round(&t, side) {
            wait(shared, t);
            continue;
        }
        let acting = shared.acting(&t, side);
        let seat = shared.team_of(side).find(|s| s.id.member == acting).map(|s| s.sitter.clone());
        match seat {
            Some(Sitter::Computer(kind)) => {
                let game = if shared.team { crate::team::after_round(t.game()) } else { t.game().clone() };
                drop(t);
                let seed = crate::matches::game_seed(created, ply as u32).wrapping_add(ply);
                let mut player = kind
                    .player(seed, 1)
                    .ok_or_else(|| NetError::Rules("a person sits at the computer's seat".into()))?;
                let mv = player.choose(&game).ok_or_else(|| NetError::Rules("the computer found no move".into()))?;
                match shared.play(None, Some(ply), &mv.to_string()) {
                    Ok(_) => {}
                    // The sand-glass ran out meanwhile: the next round looks again.
                    Err(Refused { why: Why::Stale, .. }) => {}
                    Err(r) => return Err(NetError::Rules(r.text)),
                }
            }
            _ => wait(shared, t),
        }
    }
}

/// Waits for a change, or a moment (the sand-glass runs meanwhile).
pub(super) fn wait(shared: &Shared, t: MutexGuard<'_, Table>) {
    let _ = shared.moved.wait_timeout(t, Duration::from_millis(50));
}
