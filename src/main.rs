//! The `tablero` binary: without arguments the 3D table; `play "<position>"` without moves
//! opens the table on that position; `screenshot` renders one off-screen; everything else is
//! the headless command line of docs/notation.md. clap reads every command
//! ([`tablero::cli::args`]).

use std::process::ExitCode;
#[cfg(feature = "gui")]
use tablero::cli::args::{Command, TableFlags};
use tablero::cli::{Cli, Parsed};

/// Every error is one line on standard error (whatever text it repeats), exit status 2, or
/// 130 when Ctrl-C stopped the command.
fn fail(message: impl std::fmt::Display) -> ExitCode {
    eprintln!("tablero: {}", tablero::rules::one_line(&message.to_string()));
    ExitCode::from(if tablero::cli::interrupted() { 130 } else { 2 })
}

#[cfg(feature = "gui")]
type Failure = Box<dyn std::error::Error>;

/// `--broadcast [WxH]`, `--feed [PORT]` and `--listen ADDR` as the table takes them.
#[cfg(feature = "gui")]
fn extras(flags: &TableFlags) -> tablero::gui::Extras {
    tablero::gui::Extras {
        broadcast: flags.broadcast.map(|(w, h)| bevy::math::UVec2::new(w, h)),
        feed: flags.feed_addr(),
    }
}

/// The 3D table's commands; any other command is given back.
#[cfg(feature = "gui")]
fn table(cli: Cli) -> Result<Result<(), Failure>, Cli> {
    use tablero::rules::AnyGame;
    use tablero::table::{PlayerKind, Table};
    let run = |start, flags: &TableFlags| tablero::gui::run(start, extras(flags)).map_err(Failure::from);
    Ok(match cli.command {
        None => run(None, &cli.table),
        Some(Command::Play { position, moves, table }) if moves.is_empty() => {
            // Saved like every game at the table, from its first frame.
            match AnyGame::read(&position) {
                Ok(g) => run(Some(Table::new(g, [PlayerKind::Person; 2], 1)), &table),
                Err(e) => Err(e.into()),
            }
        }
        Some(Command::Replay { record, table }) => {
            match tablero::record::load(&record).and_then(|(record, _)| Table::replay(record)) {
                Ok(t) => run(Some(t), &table),
                Err(e) => Err(e.into()),
            }
        }
        Some(Command::Watch { url, table }) => tablero::gui::watch(&url, extras(&table)).map_err(Failure::from),
        Some(Command::Host(a)) if !a.headless => match tablero::cli::host_options(&a, false) {
            Ok(options) => tablero::gui::host(options, extras(&TableFlags::default())).map_err(Failure::from),
            Err(e) => Err(e.into()),
        },
        Some(Command::Join { invitation, as_player: None }) => {
            tablero::gui::join(&invitation, extras(&TableFlags::default())).map_err(Failure::from)
        }
        Some(Command::Screenshot { position, picture, palette, field }) => (|| {
            let game = AnyGame::read(&position)?;
            let doughnut = field == "doughnut";
            if doughnut && !matches!(game, AnyGame::Ctor(_)) {
                return Err("--field doughnut shows a CTOR field; this position is not CTOR".into());
            }
            let (w, h) = picture.size.unwrap_or((1280, 720));
            Ok(tablero::gui::screenshot(game, &picture.out, w, h, palette, doughnut)?)
        })(),
        Some(Command::Photo { position, picture, view, inspect }) => (|| {
            let game = AnyGame::read(&position)?;
            let (w, h) = picture.size.unwrap_or((3840, 2160));
            let size = bevy::math::UVec2::new(w, h);
            match inspect {
                Some(cell) => {
                    tablero::gui::look::photo::inspect_photo(game, &picture.out, size, &cell)?;
                    println!("{}: {w}x{h}, the piece on {cell} alone", picture.out.display());
                }
                None => {
                    tablero::gui::look::photo::photo(game, &picture.out, size, &view)?;
                    println!("{}: {w}x{h} from the {view} view", picture.out.display());
                }
            }
            Ok(())
        })(),
        Some(Command::Film { record, out, size, fps, pace, frames_dir }) => {
            let mut options = tablero::gui::stream::film::FilmOptions::default();
            if let Some((w, h)) = size {
                (options.width, options.height) = (w, h);
            }
            options.fps = fps.unwrap_or(options.fps);
            options.pace = pace.unwrap_or(options.pace);
            options.frames_dir = frames_dir;
            film(&record, &out, &options)
        }
        Some(Command::BenchTable { compare, .. }) if compare.len() == 2 => (|| -> Result<(), Failure> {
            let (a, b) = (tablero::bench::read_table_run(&compare[0])?, tablero::bench::read_table_run(&compare[1])?);
            println!(
                "{} (A) against {} (B): B's figure and its ratio to A's",
                compare[0].display(),
                compare[1].display()
            );
            tablero::bench::compare_table_runs(&a, &b, &mut std::io::stdout())?;
            Ok(())
        })(),
        Some(Command::BenchTable { frames, json, scene, .. }) => {
            tablero::gui::bench_table(frames as usize, json, &scene, &mut std::io::stdout()).map_err(Failure::from)
        }
        Some(Command::Keys) => {
            println!("{}", tablero::gui::frame::keymap::help());
            Ok(())
        }
        command => return Err(Cli { command, table: cli.table }),
    })
}

/// `tablero film <record.json> --out <file.gif|file.mp4> [--size WxH] [--fps N] [--pace S] [--frames-dir DIR]`
#[cfg(feature = "gui")]
fn film(
    path: &std::path::Path,
    out: &std::path::Path,
    options: &tablero::gui::stream::film::FilmOptions,
) -> Result<(), Failure> {
    use std::io::IsTerminal;
    // A bad record fails here, before any frame.
    let (record, _) = tablero::record::load(path)?;
    tablero::cli::stop_on_interrupt();
    let show = std::io::stderr().is_terminal() || std::env::var_os("TABLERO_PROGRESS").is_some();
    let started = std::time::Instant::now();
    let frames = tablero::gui::stream::film::film(&record, out, options, &mut |done, total| {
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
    let cli: Cli = match tablero::cli::parse(&args) {
        Ok(Parsed::Print(text)) => {
            println!("{text}");
            return ExitCode::SUCCESS;
        }
        Ok(Parsed::Run(cli)) => cli,
        Err(e) => return fail(e),
    };
    #[cfg(feature = "gui")]
    let cli = match table(cli) {
        Ok(Ok(())) => return ExitCode::SUCCESS,
        Ok(Err(e)) => return fail(e),
        Err(cli) => cli,
    };
    if !cli.table.is_empty() {
        return fail(tablero::cli::TABLE_FLAGS);
    }
    tablero::cli::stop_on_interrupt();
    if matches!(cli.command, Some(tablero::cli::Command::Engine)) {
        // The engine answers from its thinking thread too: standard output is not held here.
        let stdout: std::sync::Arc<std::sync::Mutex<dyn std::io::Write + Send>> =
            std::sync::Arc::new(std::sync::Mutex::new(std::io::stdout()));
        tablero::engine::run(std::io::stdin().lock(), stdout);
        return ExitCode::SUCCESS;
    }
    let stdout = std::io::stdout();
    let mut out = std::io::LineWriter::new(stdout.lock());
    match tablero::cli::execute(cli, &mut out) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            drop(out);
            fail(e)
        }
    }
}
