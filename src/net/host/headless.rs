//! `tablero host --headless`: the invitations printed, the game played out, the result.

use super::{Host, HostOptions, members};
use crate::matches::STOP;
use crate::net::NetError;
use crate::net::{SeatId, seat_name};
use crate::rules::{AnyGame, Game, Side};
use std::io::Write;
use std::sync::atomic::Ordering;
use std::time::{Duration, Instant};

/// `tablero host "<position>" --headless`: prints each remote seat's invitation, plays the game
/// out, prints the result line, and serves on for `linger` seconds so that the seats see it (a
/// rematch agreed meanwhile is played too).
pub fn run_headless(o: HostOptions, out: &mut dyn Write) -> Result<(), NetError> {
    let linger = o.linger;
    let host = Host::open(o)?;
    // Through a relay: one that cannot be reached is said before any invitation is given.
    host.reach_relay(Duration::from_secs(5))?;
    for line in host.lines() {
        writeln!(out, "{line}")?;
    }
    out.flush()?;
    loop {
        let end = host.play_out()?;
        let outcome = end.outcome().expect("a game played out is over");
        writeln!(out, "{}", crate::matches::result_line(end.variant(), outcome))?;
        out.flush()?;
        let until = Instant::now() + Duration::from_secs_f64(linger.clamp(0.0, 3600.0));
        let mut again = false;
        while Instant::now() < until && !STOP.load(Ordering::Relaxed) {
            if host.game().outcome().is_none() {
                again = true;
                break;
            }
            std::thread::sleep(Duration::from_millis(50));
        }
        if !again {
            return Ok(());
        }
        writeln!(out, "rematch: {}", host.record_path().display())?;
        out.flush()?;
    }
}

/// The name of a side's seats as `--seat` takes them: `first`, `second` or the side's name,
/// and `.N` for a team's member.
pub fn seat_names(game: &AnyGame, side: Side) -> Vec<String> {
    let n = members(game, side);
    if n == 1 { vec![seat_name(side).to_string()] } else { (0..n).map(|m| SeatId::new(side, m).name(true)).collect() }
}
