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
/// master) on `threads` threads: moves, mean, 95th percentile and slowest, and its work per
/// second.
pub fn ai_answers(threads: usize, out: &mut dyn Write) -> std::io::Result<()> {
    let level = crate::ai::LEVELS[crate::ai::LEVELS.len() - 1].on(threads);
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

/// One figure of `tablero bench-table`: frame (or update) times in milliseconds, and the memory
/// resident after it.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct TableMeasure {
    pub what: String,
    /// `full` or `software`, where the scene was drawn in one profile.
    pub profile: Option<String>,
    pub frames: usize,
    pub mean_ms: f64,
    pub p95_ms: f64,
    pub max_ms: Option<f64>,
    pub resident_mb: f64,
}

/// A whole run of `tablero bench-table --json`.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct TableRun {
    pub frames: usize,
    pub measures: Vec<TableMeasure>,
    pub resident_mb: f64,
    pub peak_mb: f64,
}

/// Why two runs cannot be compared.
#[derive(Debug, thiserror::Error)]
pub enum CompareError {
    #[error("cannot read {path}: {source}")]
    Read { path: String, source: std::io::Error },
    #[error("{path} is not the output of `tablero bench-table --json`: {why}")]
    NotARun { path: String, why: String },
    #[error("{0}")]
    Write(#[from] std::io::Error),
}

/// Reads a run written by `tablero bench-table --json`.
pub fn read_table_run(path: &std::path::Path) -> Result<TableRun, CompareError> {
    let shown = path.display().to_string();
    let text = std::fs::read_to_string(path).map_err(|source| CompareError::Read { path: shown.clone(), source })?;
    serde_json::from_str(&text).map_err(|e| CompareError::NotARun { path: shown, why: e.to_string() })
}

/// `tablero bench-table --compare A.json B.json`: the two runs side by side, each figure of B
/// with its ratio to A's (below 1: B is faster or leaner), as a Markdown table; a scene that
/// only one run measured is shown with a dash for the other.
pub fn compare_table_runs(a: &TableRun, b: &TableRun, out: &mut dyn Write) -> std::io::Result<()> {
    let key = |m: &TableMeasure| (m.what.clone(), m.profile.clone());
    let side = |a: f64, b: f64, digits: usize| {
        let ratio = if a > 0.0 { format!(" ({:.2}×)", b / a) } else { String::new() };
        format!("{a:.digits$} -> {b:.digits$}{ratio}")
    };
    let one = |m: Option<&TableMeasure>, f: fn(&TableMeasure) -> f64, digits: usize| {
        m.map_or("–".to_string(), |m| format!("{:.digits$}", f(m)))
    };
    writeln!(out, "| scene | profile | mean ms | p95 ms | resident MB |")?;
    writeln!(out, "|---|---|---|---|---|")?;
    let mut keys: Vec<(String, Option<String>)> = a.measures.iter().map(key).collect();
    keys.extend(b.measures.iter().map(key).filter(|k| !a.measures.iter().any(|m| key(m) == *k)));
    for k in keys {
        let (ma, mb) = (a.measures.iter().find(|m| key(m) == k), b.measures.iter().find(|m| key(m) == k));
        let cell = |f: fn(&TableMeasure) -> f64, digits: usize| match (ma, mb) {
            (Some(x), Some(y)) => side(f(x), f(y), digits),
            _ => format!("{} -> {}", one(ma, f, digits), one(mb, f, digits)),
        };
        writeln!(
            out,
            "| {} | {} | {} | {} | {} |",
            k.0,
            k.1.as_deref().unwrap_or("–"),
            cell(|m| m.mean_ms, 1),
            cell(|m| m.p95_ms, 1),
            cell(|m| m.resident_mb, 0)
        )?;
    }
    writeln!(out, "| at the end | | | | {} |", side(a.resident_mb, b.resident_mb, 0))?;
    writeln!(out, "| at the peak | | | | {} |", side(a.peak_mb, b.peak_mb, 0))?;
    Ok(())
}

#[cfg(test)]
mod table_tests {
    use super::*;

    fn measure(what: &str, profile: Option<&str>, mean: f64, p95: f64, mb: f64) -> TableMeasure {
        TableMeasure {
            what: what.into(),
            profile: profile.map(String::from),
            frames: 30,
            mean_ms: mean,
            p95_ms: p95,
            max_ms: None,
            resident_mb: mb,
        }
    }

    #[test]
    fn two_runs_compare_scene_by_scene_with_their_ratios() {
        let a = TableRun {
            frames: 30,
            measures: vec![
                measure("thinking", Some("software"), 136.7, 261.1, 344.0),
                measure("boards", Some("full"), 50.0, 60.0, 379.0),
                measure("gone", None, 1.0, 2.0, 3.0),
            ],
            resident_mb: 300.0,
            peak_mb: 379.0,
        };
        let b = TableRun {
            frames: 30,
            measures: vec![
                measure("boards", Some("full"), 45.0, 66.0, 290.0),
                measure("thinking", Some("software"), 68.35, 87.0, 344.0),
                measure("new", Some("software"), 5.0, 6.0, 7.0),
            ],
            resident_mb: 280.0,
            peak_mb: 310.0,
        };
        // A run written and read back is the same run.
        let text = serde_json::to_string(&a).unwrap();
        assert_eq!(serde_json::from_str::<TableRun>(&text).unwrap(), a);
        let mut out = Vec::new();
        compare_table_runs(&a, &b, &mut out).unwrap();
        let out = String::from_utf8(out).unwrap();
        let lines: Vec<&str> = out.lines().collect();
        assert_eq!(
            lines[2],
            "| thinking | software | 136.7 -> 68.3 (0.50×) | 261.1 -> 87.0 (0.33×) | 344 -> 344 (1.00×) |"
        );
        assert_eq!(lines[3], "| boards | full | 50.0 -> 45.0 (0.90×) | 60.0 -> 66.0 (1.10×) | 379 -> 290 (0.77×) |");
        assert_eq!(lines[4], "| gone | – | 1.0 -> – | 2.0 -> – | 3 -> – |");
        assert_eq!(lines[5], "| new | software | – -> 5.0 | – -> 6.0 | – -> 7 |");
        assert_eq!(lines[7], "| at the peak | | | | 379 -> 310 (0.82×) |");
    }
}
