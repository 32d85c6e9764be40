//! The `tablero` binary: without arguments the 3D table; `play "<position>"` without moves
//! opens the table on that position; `screenshot` renders one off-screen; everything else is
//! the headless command line of docs/notation.md.

use std::process::ExitCode;

/// Every error is one line on standard error (whatever text it repeats), exit status 2, or
/// 130 when Ctrl-C stopped the command.
fn fail(message: impl std::fmt::Display) -> ExitCode {
    eprintln!("tablero: {}", tablero::rules::one_line(&message.to_string()));
    ExitCode::from(if tablero::cli::interrupted() { 130 } else { 2 })
}

/// Reads `WxH` (each 16 to 8192).
#[cfg(feature = "gui")]
fn size(flag: &str, value: &str) -> Result<(u32, u32), String> {
    value
        .split_once('x')
        .and_then(|(w, h)| Some((w.parse().ok()?, h.parse().ok()?)))
        .filter(|(w, h): &(u32, u32)| (16..=8192).contains(w) && (16..=8192).contains(h))
        .ok_or_else(|| format!("{flag} '{}' is not WxH, like 1280x720", tablero::rules::quote(value)))
}

/// `--broadcast [WxH]` before or after a table command opens the broadcast window too;
/// `--feed [PORT]` serves the table's game on the live feed (on 127.0.0.1), `--listen ADDR` on
/// any address.
#[cfg(feature = "gui")]
fn extras_flags(args: &[String]) -> Result<(Vec<String>, tablero::gui::Extras), String> {
    let mut rest = args.to_vec();
    let mut extras = tablero::gui::Extras::default();
    if let Some(i) = rest.iter().position(|a| a == "--broadcast") {
        rest.remove(i);
        let mut wanted = bevy::math::UVec2::new(1920, 1080);
        if let Some(v) = rest.get(i).filter(|v| v.contains('x') && v.chars().next().is_some_and(|c| c.is_ascii_digit()))
        {
            let (w, h) = size("--broadcast", v)?;
            wanted = bevy::math::UVec2::new(w, h);
            rest.remove(i);
        }
        extras.broadcast = Some(wanted);
    }
    if let Some(i) = rest.iter().position(|a| a == "--feed") {
        rest.remove(i);
        let mut addr = format!("{}", tablero::feed::DEFAULT_PORT);
        if let Some(v) = rest.get(i).filter(|v| v.chars().next().is_some_and(|c| c.is_ascii_digit())) {
            addr = v.clone();
            rest.remove(i);
        }
        extras.feed = Some(tablero::feed::parse_addr(&addr, false)?);
    }
    if let Some(i) = rest.iter().position(|a| a == "--listen") {
        rest.remove(i);
        if i >= rest.len() {
            return Err("--listen needs an address, like 0.0.0.0:7878".into());
        }
        let v = rest.remove(i);
        extras.feed = Some(tablero::feed::parse_addr(&v, true)?);
    }
    Ok((rest, extras))
}

#[cfg(feature = "gui")]
fn gui_command(args: &[String]) -> Option<Result<(), String>> {
    use tablero::rules::AnyGame;
    // The flags of the table (`--broadcast`, `--feed`, `--listen`) belong to the table's
    // commands only: `feed --listen ADDR` and the other headless commands keep theirs.
    let rest = args.get(1..).unwrap_or_default();
    match args.first().map(String::as_str) {
        Some("screenshot") => return Some(screenshot(rest)),
        Some("photo") => return Some(photo(rest)),
        Some("film") => return Some(film(rest)),
        Some("bench-table") => return Some(bench_table(rest)),
        Some("keys") if rest.is_empty() => {
            println!("{}", tablero::gui::frame::keymap::help());
            return Some(Ok(()));
        }
        Some("keys") => return Some(Err("usage: tablero keys (it takes no arguments)".into())),
        Some(c) if !c.starts_with("--") && !["play", "replay", "watch"].contains(&c) => return None,
        _ => {}
    }
    let (args, extras) = match extras_flags(args) {
        Ok(v) => v,
        Err(e) => return Some(Err(e)),
    };
    let run = |start| tablero::gui::run(start, extras);
    match &args[..] {
        [] => Some(run(None)),
        [cmd, position] if cmd == "play" => {
            // Saved like every game at the table, from its first frame (`save_new_games`).
            Some(position.parse::<AnyGame>().map_err(|e| e.to_string()).and_then(|g| {
                use tablero::table::{PlayerKind, Table};
                run(Some(Table::new(g, [PlayerKind::Person; 2], 1)))
            }))
        }
        [cmd, path] if cmd == "replay" => Some(
            tablero::record::load(std::path::Path::new(path))
                .and_then(|(record, _)| tablero::table::Table::replay(record))
                .map_err(|e| e.to_string())
                .and_then(|s| run(Some(s))),
        ),
        [cmd, url] if cmd == "watch" => Some(tablero::gui::watch(url, extras)),
        [cmd, ..] if cmd == "watch" => Some(Err("usage: tablero watch <url> (a live feed, like http://127.0.0.1:7878)".into())),
        _ if extras.broadcast.is_some() || extras.feed.is_some() => Some(Err(
            "--broadcast and --feed go with the table: tablero [play \"<position>\" | replay <record.json> | watch <url>] [--broadcast [WxH]] [--feed [PORT] | --listen ADDR]"
                .into(),
        )),
        _ => None,
    }
}

/// `tablero bench-table [--frames N]`
#[cfg(feature = "gui")]
fn bench_table(args: &[String]) -> Result<(), String> {
    let frames = match args {
        [] => Ok(300),
        [flag, n] if flag == "--frames" => n
            .parse()
            .ok()
            .filter(|n| *n > 0)
            .ok_or(format!("--frames '{}' is not a number of frames", tablero::rules::quote(n))),
        _ => Err("usage: tablero bench-table [--frames N]".to_string()),
    };
    frames.and_then(|n| tablero::gui::bench_table(n, &mut std::io::stdout()))
}

/// A picture command's arguments: the position, then `--out`, `--size` (from `size` unless
/// given) and the command's own flags (`own` takes a flag and its value, and says whether it
/// knew the flag).
#[cfg(feature = "gui")]
fn picture_args(
    args: &[String],
    usage: &str,
    mut size: (u32, u32),
    own: &mut dyn FnMut(&str, &str) -> Result<bool, String>,
) -> Result<(tablero::rules::AnyGame, std::path::PathBuf, (u32, u32)), String> {
    let Some((position, flags)) = args.split_first() else { return Err(usage.into()) };
    let game: tablero::rules::AnyGame = position.parse().map_err(|e: tablero::rules::PositionError| e.to_string())?;
    let mut out = None;
    let mut it = flags.iter();
    while let Some(flag) = it.next() {
        let value = it.next().ok_or_else(|| format!("{flag} needs a value; {usage}"))?;
        match flag.as_str() {
            "--out" => out = Some(std::path::PathBuf::from(value)),
            "--size" => size = self::size("--size", value)?,
            other if own(other, value)? => {}
            other => return Err(format!("unknown option '{}'; {usage}", tablero::rules::quote(other))),
        }
    }
    let out = out.ok_or_else(|| format!("--out is missing; {usage}"))?;
    Ok((game, out, size))
}

/// `tablero screenshot "<position>" --out <file.png> [--size WxH] [--palette NAME] [--field flat|doughnut]`
#[cfg(feature = "gui")]
fn screenshot(args: &[String]) -> Result<(), String> {
    let usage = "usage: tablero screenshot \"<position>\" --out <file.png> [--size WxH] [--palette classic|okabe-ito] [--field flat|doughnut]";
    let mut palette = tablero::settings::Palette::Classic;
    let mut doughnut = false;
    let (game, out, size) = picture_args(args, usage, (1280, 720), &mut |flag, value| match flag {
        "--palette" => {
            palette = serde_json::from_value(serde_json::Value::String(value.to_string()))
                .map_err(|_| format!("--palette '{}' is not classic or okabe-ito", tablero::rules::quote(value)))?;
            Ok(true)
        }
        "--field" => {
            doughnut = match value {
                "flat" => false,
                "doughnut" => true,
                other => return Err(format!("--field '{}' is not flat or doughnut", tablero::rules::quote(other))),
            };
            Ok(true)
        }
        _ => Ok(false),
    })?;
    if doughnut && !matches!(game, tablero::rules::AnyGame::Ctor(_)) {
        return Err("--field doughnut shows a CTOR field; this position is not CTOR".into());
    }
    tablero::gui::screenshot(game, &out, size.0, size.1, palette, doughnut)
}

/// `tablero photo "<position>" --out <file.png> [--size WxH] [--view NAME]`
#[cfg(feature = "gui")]
fn photo(args: &[String]) -> Result<(), String> {
    let usage =
        "usage: tablero photo \"<position>\" --out <file.png> [--size WxH] [--view first|second|top|macro|doughnut]";
    let mut view = "first".to_string();
    let (game, out, size) = picture_args(args, usage, (3840, 2160), &mut |flag, value| {
        let mine = flag == "--view";
        if mine {
            view = value.to_string();
        }
        Ok(mine)
    })?;
    tablero::gui::look::photo::photo(game, &out, bevy::math::UVec2::new(size.0, size.1), &view)?;
    println!("{}: {}x{} from the {view} view", out.display(), size.0, size.1);
    Ok(())
}

/// `tablero film <record.json> --out <file.gif|file.mp4> [--size WxH] [--fps N] [--pace S] [--frames-dir DIR]`
#[cfg(feature = "gui")]
fn film(args: &[String]) -> Result<(), String> {
    use std::io::IsTerminal;
    let usage = "usage: tablero film <record.json> --out <file.gif|file.mp4> [--size WxH] [--fps N] [--pace S] [--frames-dir DIR]";
    let Some((path, flags)) = args.split_first() else { return Err(usage.into()) };
    let mut options = tablero::gui::stream::film::FilmOptions::default();
    let mut out = None;
    let mut it = flags.iter();
    while let Some(flag) = it.next() {
        let value = it.next().ok_or_else(|| format!("{flag} needs a value; {usage}"))?;
        let bad = || format!("{flag} '{}' is not valid; {usage}", tablero::rules::quote(value));
        match flag.as_str() {
            "--out" => out = Some(std::path::PathBuf::from(value)),
            "--size" => (options.width, options.height) = size("--size", value)?,
            "--fps" => options.fps = value.parse().map_err(|_| bad())?,
            "--pace" => options.pace = value.parse().map_err(|_| bad())?,
            "--frames-dir" => options.frames_dir = Some(value.into()),
            other => return Err(format!("unknown option '{}'; {usage}", tablero::rules::quote(other))),
        }
    }
    let out = out.ok_or_else(|| format!("--out is missing; {usage}"))?;
    // A bad record fails here, before any frame.
    let (record, _) = tablero::record::load(std::path::Path::new(path)).map_err(|e| e.to_string())?;
    tablero::cli::stop_on_interrupt();
    let show = std::io::stderr().is_terminal() || std::env::var_os("TABLERO_PROGRESS").is_some();
    let started = std::time::Instant::now();
    let frames = tablero::gui::stream::film::film(&record, &out, &options, &mut |done, total| {
        if show && (done % 10 == 0 || done == total) {
            let left = started.elapsed().as_secs_f64() / done as f64 * total.saturating_sub(done) as f64;
            eprint!("\rfilm: frame {done} of about {total}, {left:.0} s left   ");
        }
    })?;
    if show {
        eprintln!();
    }
    println!(
        "{}: {frames} frames at {} fps, {}x{}, in {:.1} s ({:.1} frames a second)",
        out.display(),
        options.fps,
        options.width,
        options.height,
        started.elapsed().as_secs_f64(),
        frames as f64 / started.elapsed().as_secs_f64()
    );
    Ok(())
}

fn main() -> ExitCode {
    // Arguments are text: one that is not UTF-8 is refused (naming it) rather than guessed at.
    let mut args: Vec<String> = Vec::new();
    for (i, arg) in std::env::args_os().skip(1).enumerate() {
        match arg.into_string() {
            Ok(a) => args.push(a),
            Err(raw) => {
                return fail(format!(
                    "argument {} ('{}') is not UTF-8 text",
                    i + 1,
                    tablero::rules::quote(&raw.to_string_lossy())
                ));
            }
        }
    }
    #[cfg(feature = "gui")]
    if let Some(result) = gui_command(&args) {
        return match result {
            Ok(()) => ExitCode::SUCCESS,
            Err(e) => fail(e),
        };
    }
    if args.is_empty() {
        return fail(
            "this build has no 3D table (built without the gui feature); tablero help lists the headless commands",
        );
    }
    tablero::cli::stop_on_interrupt();
    if args.first().is_some_and(|a| a == "engine") {
        // The engine answers from its thinking thread too: standard output is not held here.
        if args.len() > 1 {
            return fail("'engine' takes nothing (commands come on standard input)");
        }
        let stdout: std::sync::Arc<std::sync::Mutex<dyn std::io::Write + Send>> =
            std::sync::Arc::new(std::sync::Mutex::new(std::io::stdout()));
        tablero::engine::run(std::io::stdin().lock(), stdout);
        return ExitCode::SUCCESS;
    }
    let stdout = std::io::stdout();
    let mut out = std::io::LineWriter::new(stdout.lock());
    match tablero::cli::run(&args, &mut out) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            drop(out);
            fail(e)
        }
    }
}
