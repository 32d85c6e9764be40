//! The `tablero` binary: without arguments the 3D table; `play "<position>"` without moves
//! opens the table on that position; `screenshot` renders one off-screen; everything else is
//! the headless command line of NOTATION.md.

use std::process::ExitCode;

fn fail(message: impl std::fmt::Display) -> ExitCode {
    eprintln!("tablero: {message}");
    ExitCode::from(2)
}

#[cfg(feature = "gui")]
fn gui_command(args: &[String]) -> Option<Result<(), String>> {
    use tablero::rules::AnyGame;
    match args {
        [] => Some(tablero::gui::run(None)),
        [cmd, position] if cmd == "play" => {
            Some(position.parse::<AnyGame>().map_err(|e| e.to_string()).and_then(|g| {
                use tablero::gui::session::{PlayerKind, Session};
                let mut session = Session::new(g, [PlayerKind::Person; 2], 1);
                session.save_to(tablero::record::new_game_path(&session.record));
                tablero::gui::run(Some(session))
            }))
        }
        [cmd, path] if cmd == "replay" => Some(
            tablero::record::load(std::path::Path::new(path))
                .and_then(|(record, _)| tablero::gui::session::Session::replay(record))
                .map_err(|e| e.to_string())
                .and_then(|s| tablero::gui::run(Some(s))),
        ),
        [cmd, rest @ ..] if cmd == "screenshot" => Some(screenshot(rest)),
        [cmd, rest @ ..] if cmd == "bench-table" => {
            let frames = match rest {
                [] => Ok(300),
                [flag, n] if flag == "--frames" => {
                    n.parse().ok().filter(|n| *n > 0).ok_or(format!("--frames '{n}' is not a number of frames"))
                }
                _ => Err("usage: tablero bench-table [--frames N]".to_string()),
            };
            Some(frames.and_then(|n| tablero::gui::bench_table(n, &mut std::io::stdout())))
        }
        _ => None,
    }
}

#[cfg(feature = "gui")]
fn screenshot(args: &[String]) -> Result<(), String> {
    use tablero::rules::AnyGame;
    let usage = "usage: tablero screenshot \"<position>\" --out <file.png> [--size WxH]";
    let Some((position, flags)) = args.split_first() else { return Err(usage.into()) };
    let game: AnyGame = position.parse().map_err(|e: tablero::rules::PositionError| e.to_string())?;
    let (mut out, mut size) = (None, (1280u32, 720u32));
    let mut it = flags.iter();
    while let Some(flag) = it.next() {
        let value = it.next().ok_or_else(|| format!("{flag} needs a value; {usage}"))?;
        match flag.as_str() {
            "--out" => out = Some(std::path::PathBuf::from(value)),
            "--size" => {
                size = value
                    .split_once('x')
                    .and_then(|(w, h)| Some((w.parse().ok()?, h.parse().ok()?)))
                    .filter(|(w, h): &(u32, u32)| (16..=8192).contains(w) && (16..=8192).contains(h))
                    .ok_or_else(|| format!("--size '{value}' is not WxH, like 1280x720"))?
            }
            other => return Err(format!("unknown option '{other}'; {usage}")),
        }
    }
    let out = out.ok_or_else(|| format!("--out is missing; {usage}"))?;
    tablero::gui::screenshot(game, &out, size.0, size.1)
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
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
    let stdout = std::io::stdout();
    let mut out = std::io::BufWriter::new(stdout.lock());
    match tablero::cli::run(&args, &mut out) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            drop(out);
            fail(e)
        }
    }
}
