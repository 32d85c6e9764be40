//! The table in words, as the panel and the broadcast say it: whose turn or the result, the
//! banner, the score as each game counts it, and the moves played.

use super::{PlayerKind, Table};
use crate::rules::{AnyGame, Game, Side};

/// The status line: whose turn, or the result.
pub fn status_line(game: &AnyGame, players: &[PlayerKind; 2]) -> String {
    let v = game.variant();
    let side = game.side_to_move();
    let title = v.title();
    match game.outcome() {
        Some(o) => match o.winner {
            Some(w) => format!("{title}: {} wins", v.side_name(w)),
            None => format!("{title}: draw"),
        },
        None => format!("{title}: {} to move ({})", v.side_name(side), players[side.index()].label()),
    }
}

/// The result banner, or for Crossings the crossing that must be answered.
pub fn banner_line(game: &AnyGame) -> Option<String> {
    let v = game.variant();
    if let Some(o) = game.outcome() {
        return Some(match o.winner {
            Some(w) => format!("{} wins: {}", v.side_name(w), o.reason),
            None => format!("Draw: {}", o.reason),
        });
    }
    if let AnyGame::Crossings(c) = game {
        let (me, them) = (game.side_to_move(), game.side_to_move().other());
        if c.crossed(them) > c.crossed(me) {
            return Some(format!("{} has crossed: {} must answer with a crossing", v.side_name(them), v.side_name(me)));
        }
    }
    None
}

/// The score as each game counts it: CTOR's turn, operations left, sand-glass and disc counts;
/// Volterra's towers tallest first; the pieces taken off the board.
pub fn score_line(table: &Table, shown: &AnyGame, clock: f32) -> String {
    match &table.game {
        AnyGame::Ctor(g) => {
            let glass = match g.options().timer {
                Some(t) => format!(", sand-glass {:.0} s left", (t as f32 - clock).max(0.0).ceil()),
                None => String::new(),
            };
            let left = g.left();
            let opening = if g.is_opening(g.turn()) { " (opening turn: puts only)" } else { "" };
            format!(
                "turn {}: left {} puts, {} steps, {} landings{opening}{glass}\n{}",
                g.turn(),
                left.puts,
                left.steps,
                left.landings,
                shown.tally(&table.start)
            )
        }
        _ => shown.tally(&table.start).to_string(),
    }
}

/// The game's figures in the words a player uses, one line a side: "light: 10 towers,
/// tallest 2", "black: 12 discs", "red: 2 stones lost, 1 crossed".
pub fn figures(shown: &AnyGame, start: &AnyGame) -> [String; 2] {
    let tally = shown.tally(start);
    [Side::First, Side::Second].map(|side| {
        let name = tally.names[side.index()];
        let numbers = &tally.sides[side.index()];
        let n = numbers.first().copied().unwrap_or(0);
        let plural = |n: u32, one: &str, many: &str| format!("{n} {}", if n == 1 { one } else { many });
        match shown {
            AnyGame::Volterra(_) => {
                let tallest = numbers.iter().max().copied().unwrap_or(0);
                format!("{name}: {}, tallest {tallest}", plural(numbers.len() as u32, "tower", "towers"))
            }
            AnyGame::Ctor(_) => format!("{name}: {}", plural(n, "disc", "discs")),
            AnyGame::Crossings(c) => {
                format!("{name}: {} lost, {} crossed", plural(n, "stone", "stones"), c.crossed(side))
            }
            _ => format!("{name}: {} lost", plural(n, "stone", "stones")),
        }
    })
}

/// CTOR's turn in words: its number, what is left of its allowance, the sand-glass.
pub fn ctor_turn_line(table: &Table, clock: f32) -> Option<String> {
    let AnyGame::Ctor(g) = &table.game else { return None };
    let glass = match g.options().timer {
        Some(t) => format!(", {:.0} s left in the sand-glass", (t as f32 - clock).max(0.0).ceil()),
        None => String::new(),
    };
    let left = g.left();
    let opening = if g.is_opening(g.turn()) { " (an opening turn: Puts only)" } else { "" };
    let plural = |n: u32, one: &str, many: &str| format!("{n} {}", if n == 1 { one } else { many });
    Some(format!(
        "Turn {}: {}, {}, {} left{opening}{glass}",
        g.turn(),
        plural(left.puts as u32, "Put", "Puts"),
        plural(left.steps as u32, "Move", "Moves"),
        plural(left.landings as u32, "Landing", "Landings"),
    ))
}

/// The last moves in notation, numbered by turn pairs (in a replay, where the game stands).
pub fn move_list(table: &Table) -> String {
    if let Some(replay) = &table.replay {
        let total = table.history.len() + table.redo.len();
        return format!("replay: move {} of {}, pace {} s a move", table.history.len(), total, replay.pace);
    }
    numbered_moves(table, 24)
}

/// The last `rows` pairs of moves played, numbered.
pub fn numbered_moves(table: &Table, rows: usize) -> String {
    let moves: Vec<String> = table.history.iter().map(|(_, m)| m.to_string()).collect();
    let lines: Vec<String> =
        moves.chunks(2).enumerate().map(|(i, pair)| format!("{:>3}. {}", i + 1, pair.join("  "))).collect();
    let skip = lines.len().saturating_sub(rows);
    lines[skip..].join("\n")
}
