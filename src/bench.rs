//! Perft speed of every variant, for `tablero bench` and `cargo bench`: from the initial
//! position and over the fixture positions bundled with the crate; the computer opponent's
//! speed; and (`tablero bench --ai`) its answer times over whole games.

use crate::rules::{AnyGame, Game, Variant};
use std::io::Write;
use std::time::Instant;

/// The fixture positions, one table per variant (`tests/fixtures/`).
pub fn fixture_positions(variant: Variant) -> Vec<&'static str> {
    let table = match variant {
        Variant::Ordo => include_str!("../tests/fixtures/ordo_classic.tsv"),
        Variant::OrdoX => include_str!("../tests/fixtures/ordo_x.tsv"),
        Variant::Crossings => include_str!("../tests/fixtures/crossings.tsv"),
        Variant::Volterra => include_str!("../tests/fixtures/volterra.tsv"),
        Variant::VolterraFree => "",
        Variant::Ctor8 | Variant::Ctor10 => include_str!("../tests/fixtures/ctor.tsv"),
    };
    let prefix = format!("{} ", variant.name());
    table.lines().skip(1).filter_map(|l| l.split('\t').next()).filter(|p| p.starts_with(&prefix)).collect()
}

/// Depth of the perft from the initial position.
fn start_depth(variant: Variant, quick: bool) -> u32 {
    match (variant, quick) {
        (Variant::OrdoX, false) => 2,
        (Variant::Volterra, false) => 3,
        (Variant::Ctor8 | Variant::Ctor10, false) => 4,
        (_, false) => 4,
        (Variant::OrdoX, true) => 1,
        (_, true) => 2,
    }
}

/// Times `f`, which returns a node count, and prints one line.
fn measure(out: &mut dyn Write, label: &str, f: impl FnOnce() -> u64) -> std::io::Result<f64> {
    let t = Instant::now();
    let nodes = f();
    let secs = t.elapsed().as_secs_f64().max(1e-9);
    let rate = nodes as f64 / secs;
    writeln!(out, "{label:<40} {nodes:>12} nodes {secs:>8.3} s {:>10.2} M nodes/s", rate / 1e6)?;
    Ok(rate)
}

/// Runs the benchmark for every variant.
pub fn run(quick: bool, out: &mut dyn Write) -> std::io::Result<()> {
    for variant in Variant::ALL {
        let start = variant.initial();
        let depth = start_depth(variant, quick);
        measure(out, &format!("{variant} start perft {depth}"), || start.perft(depth))?;
        let positions: Vec<AnyGame> =
            fixture_positions(variant).iter().map(|p| p.parse().expect("bundled fixtures parse")).collect();
        if positions.is_empty() {
            continue;
        }
        let take = if quick { 5.min(positions.len()) } else { positions.len() };
        measure(out, &format!("{variant} {take} fixture positions perft 2"), || {
            positions.iter().take(take).map(|g| g.perft(2)).sum()
        })?;
    }
    // The computer opponent: playouts (or alpha-beta positions) a second, one move from each
    // initial position.
    let level = if quick { crate::ai::LEVELS[0] } else { crate::ai::LEVELS[3] };
    for variant in Variant::ALL {
        let start = variant.initial();
        let t = Instant::now();
        let search = crate::ai::search(&start, level, 1);
        let secs = t.elapsed().as_secs_f64().max(1e-9);
        writeln!(
            out,
            "{:<40} {:>12} {:<9} {secs:>8.3} s {:>10.0} {}/s  ({})",
            format!("{variant} ai:{} one move", level.name),
            search.work,
            search.unit,
            search.work as f64 / secs,
            search.unit,
            search.mv.map(|m| m.to_string()).unwrap_or_default()
        )?;
    }
    Ok(())
}

/// The strongest level's answer times over one seeded game per variant (master against
/// master): moves, mean, 95th percentile and slowest, and its work per second.
pub fn ai_answers(out: &mut dyn Write) -> std::io::Result<()> {
    let level = crate::ai::LEVELS[crate::ai::LEVELS.len() - 1];
    for variant in Variant::ALL {
        let mut game = variant.initial();
        let mut secs = Vec::new();
        // Work and time per unit (volterra-free searches its setup by playouts, then positions).
        let mut rates: Vec<(&str, u64, f64)> = Vec::new();
        while game.outcome().is_none() && secs.len() < 400 {
            let t = Instant::now();
            let search = crate::ai::search(&game, level, secs.len() as u64);
            let took = t.elapsed().as_secs_f64();
            secs.push(took);
            match rates.iter_mut().find(|r| r.0 == search.unit) {
                Some(r) => (r.1, r.2) = (r.1 + search.work, r.2 + took),
                None => rates.push((search.unit, search.work, took)),
            }
            let Some(mv) = search.mv else { break };
            game.play_unchecked(&mv);
        }
        let total: f64 = secs.iter().sum();
        secs.sort_by(|a, b| a.total_cmp(b));
        let n = secs.len().max(1);
        writeln!(
            out,
            "{:<24} {:>4} moves  {:>7.3} s mean  {:>7.3} s p95  {:>7.3} s slowest  {}",
            format!("{variant} ai:{}", level.name),
            secs.len(),
            total / n as f64,
            secs.get(n * 95 / 100).or(secs.last()).copied().unwrap_or(0.0),
            secs.last().copied().unwrap_or(0.0),
            rates
                .iter()
                .map(|(u, w, t)| format!("{:.0} {u}/s", *w as f64 / t.max(1e-9)))
                .collect::<Vec<_>>()
                .join(", "),
        )?;
    }
    Ok(())
}
