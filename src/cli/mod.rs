//! The headless command line of docs/notation.md, read by clap from [`args`]: `moves`,
//! `perft`, `play`, `match`, `feed`, `analyse`, `check`, `review`, `sounds`, `bench`,
//! `completions`. Output is plain text for other programs; every error is one line and exit
//! status 2. The 3D table's commands are read here too and run by the binary.

pub mod args;
pub mod error;

pub use crate::matches::{
    Clock, MATCH_PLY_LIMIT, STOP, Score, game_seed, interrupted, play_game, play_game_showing, result_line,
    stop_on_interrupt, wilson,
};
pub use args::{Cli, Command, MAX_DEPTH, MAX_GAMES};
pub use error::CliError;

use crate::bench;
use crate::matches::progress::{Progress, bar};
use crate::rules::{AnyGame, Game, Side};
use clap::{CommandFactory, Parser};
use std::io::Write;

/// Where the table's flags go.
pub const TABLE_FLAGS: &str = "--broadcast, --feed and --listen go with the table: tablero [play \"<position>\" | replay <record.json> | watch <url>] [--broadcast [WxH]] [--feed [PORT] | --listen ADDR]";

/// What reading a command line came to: a command to run, or text to print and stop (the help
/// or the version, which clap writes).
pub enum Parsed {
    Run(Cli),
    Print(String),
}

/// Reads a command line (without the program name). A mistake in it is one line: clap's
/// message without its usage block, and where to read more.
pub fn parse(args: &[String]) -> Result<Parsed, CliError> {
    use clap::error::ErrorKind;
    match Cli::try_parse_from(std::iter::once("tablero".to_string()).chain(joined(args))) {
        Ok(cli) => Ok(Parsed::Run(cli)),
        Err(e) if matches!(e.kind(), ErrorKind::DisplayHelp | ErrorKind::DisplayVersion) => {
            Ok(Parsed::Print(e.render().to_string().trim_end().to_string()))
        }
        Err(e) => Err(CliError::Usage(one_line(&e, args))),
    }
}

/// The table's flags whose value may be left out (`--broadcast [WxH]`, `--feed [PORT]`) joined
/// to the value that follows them, if it is one, so that a command after such a flag is not
/// read as its value (clap takes them as `--broadcast=WxH`).
fn joined(args: &[String]) -> Vec<String> {
    let mut out = Vec::with_capacity(args.len());
    let mut it = args.iter().peekable();
    while let Some(a) = it.next() {
        let value = |v: &&String| match a.as_str() {
            "--broadcast" => v.contains('x') && v.starts_with(|c: char| c.is_ascii_digit()),
            "--feed" => v.starts_with(|c: char| c.is_ascii_digit()),
            _ => false,
        };
        match it.next_if(value) {
            Some(v) => out.push(format!("{a}={v}")),
            None => out.push(a.clone()),
        }
    }
    out
}

/// clap's message on one line: its first paragraph, its lines joined, and the command's help.
fn one_line(e: &clap::Error, args: &[String]) -> String {
    use clap::error::{ContextKind, ContextValue, ErrorKind};
    if e.kind() == ErrorKind::InvalidSubcommand
        && let Some(ContextValue::String(name)) = e.get(ContextKind::InvalidSubcommand)
    {
        return format!("unknown command '{}' (tablero --help lists the commands)", crate::rules::quote(name));
    }
    let names: Vec<String> = Cli::command().get_subcommands().map(|c| c.get_name().to_string()).collect();
    let help = match args.iter().find(|a| names.contains(a)) {
        Some(c) => format!("tablero {c} --help"),
        None => "tablero --help".to_string(),
    };
    if e.kind() == ErrorKind::UnknownArgument
        && let Some(ContextValue::String(flag)) = e.get(ContextKind::InvalidArg)
    {
        let what = if flag.starts_with('-') { "unknown option" } else { "unexpected argument" };
        return format!("{what} '{}' ({help})", crate::rules::quote(flag));
    }
    let text = e.render().to_string();
    let first = text.split("\n\n").next().unwrap_or_default();
    let words: Vec<&str> = first.split_whitespace().collect();
    let said = words.join(" ");
    let said = said.strip_prefix("error: ").unwrap_or(&said).replace(" tip:", "; tip:");
    crate::rules::one_line(&format!("{said} ({help})"))
}

/// Runs one command line (without the program name), writing its output to `out`.
pub fn run(args: &[String], out: &mut dyn Write) -> Result<(), CliError> {
    match parse(args)? {
        Parsed::Print(text) => Ok(writeln!(out, "{text}")?),
        Parsed::Run(cli) => execute(cli, out),
    }
}

/// Runs a headless command. The table's commands are the binary's: here they say that this
/// build has no table.
pub fn execute(cli: Cli, out: &mut dyn Write) -> Result<(), CliError> {
    let Some(command) = cli.command else {
        return Err(CliError::NoTable("tablero".into()));
    };
    match command {
        Command::Moves { position } => {
            let game = parse_position(&position)?;
            for mv in game.legal_moves() {
                writeln!(out, "{mv}")?;
            }
        }
        Command::Perft { position, depth, divide } => perft(&parse_position(&position)?, depth, divide, out)?,
        Command::Play { position, moves, table } => {
            if !table.is_empty() {
                return Err(CliError::Usage(TABLE_FLAGS.into()));
            }
            let mut game = parse_position(&position)?;
            for (i, text) in moves.iter().enumerate() {
                game.play_text(text).map_err(|err| CliError::Move { n: i + 1, err })?;
            }
            writeln!(out, "{game}")?;
            if let Some(outcome) = game.outcome() {
                writeln!(out, "{}", result_line(game.variant(), outcome))?;
            }
        }
        Command::Match(m) => run_match(&m, out)?,
        Command::Overlay { address, websocket, out: file } => {
            use crate::feed::FeedError;
            let place = crate::nats::Place::parse(&address).ok_or_else(|| FeedError::Url(address.clone()))?;
            let ws = crate::feed::overlay::websocket(&place, &websocket)?;
            let page = crate::feed::overlay::through_relay(&place, &ws);
            crate::record::write_atomic(&file, &page)
                .map_err(|source| FeedError::Write { path: file.clone(), source })?;
            let path = std::fs::canonicalize(&file).unwrap_or(file);
            let shown = format!("{}/{}", crate::nats::shown(&place.relay), place.game);
            writeln!(out, "wrote {}: the overlay of {shown} through {ws}", path.display())?;
            writeln!(
                out,
                "in OBS: a Browser source with Local file {}, or the URL file://{}?show=names,clock,last,moves",
                path.display(),
                path.display()
            )?;
        }
        Command::Feed(f) => {
            use crate::feed::headless::{Pace, Show};
            let (show, o) = match &f.feed_match {
                Some(args::FeedMatch::Match { variant, a, b, seed, games, options }) => {
                    (Show::Match { variant: *variant, a: a.clone(), b: b.clone(), seed: *seed, games: *games }, options)
                }
                None => (Show::Record(f.record.clone().unwrap_or_default()), &f.options),
            };
            let pace = Pace { pace: o.pace, addr: o.addr(), linger: o.linger, eval: o.eval };
            crate::feed::headless::run(&show, &pace, out)?
        }
        Command::Analyse { position, level, top, threads } => {
            crate::engine::analyse(&position, level, top, threads, out)?
        }
        Command::Engine => return Err(CliError::NoTable("engine".into())),
        Command::Check { record } => {
            let (record, positions) = crate::record::load(&record)?;
            let last = positions.last().expect("a replay has at least the start");
            writeln!(out, "{last}")?;
            match last.outcome() {
                Some(o) => writeln!(out, "{}", result_line(last.variant(), o))?,
                None => writeln!(out, "unfinished after {} moves", record.moves.len())?,
            }
        }
        Command::Review { record, top } => review(&record, top, out)?,
        Command::Sounds { dir } => {
            let written = crate::sound::write_all(&dir)?;
            writeln!(
                out,
                "{} sounds written into {} (WAV, 16-bit, {} Hz, mono)",
                written.len(),
                dir.display(),
                crate::sound::RATE
            )?;
        }
        Command::Bench { quick, ai, threads } => {
            if ai {
                bench::ai_answers(threads.unwrap_or(1), out)?
            } else {
                bench::run(quick, out)?
            }
        }
        Command::Completions { shell } => completions(shell, out)?,
        Command::Host(a) => {
            let options = host_options(&a, a.headless)?;
            if !a.headless {
                return Err(CliError::NoTable("host without --headless".into()));
            }
            crate::net::host::run_headless(options, out)?
        }
        Command::Join { invitation, as_player } => {
            let inv = crate::net::Invitation::parse(&invitation)?;
            match as_player {
                Some(p) => crate::net::join::run_as(&inv, &p, out, &mut std::io::stderr())?,
                None => return Err(CliError::NoTable("join".into())),
            }
        }
        other => return Err(CliError::NoTable(table_command(&other).into())),
    }
    Ok(())
}

/// What `tablero host` asks for: the seats from `--seat SIDE=WHO` (a whole side, or `SIDE.N`
/// one member of a CTOR team; where not given, remote, or with a window the first seat a person
/// at the host), checked.
pub fn host_options(a: &args::HostArgs, headless: bool) -> Result<crate::net::host::HostOptions, CliError> {
    use crate::net::NetError;
    use crate::net::host::{HostOptions, Sitter, members};
    let start = crate::engine::position(&a.position)?;
    let variant = start.variant();
    let team = crate::net::host::is_team_game(&start);
    let mut sitters: [Vec<Option<Sitter>>; 2] =
        [Side::First, Side::Second].map(|s| vec![None; members(&start, s) as usize]);
    for s in &a.seats {
        let (seat, who) = s.split_once('=').ok_or_else(|| NetError::Sitter(s.clone()))?;
        let (side_name, member) = match seat.split_once('.') {
            Some((side, n)) => (side, Some(n)),
            None => (seat, None),
        };
        let side = crate::net::seat_side(variant, side_name)
            .ok_or_else(|| NetError::Seat { name: side_name.to_string(), variant })?;
        let size = members(&start, side);
        let chosen: Vec<usize> = match member {
            None => (0..size as usize).collect(),
            Some(n) => match n.parse::<u8>() {
                Ok(n) if (1..=size).contains(&n) => vec![n as usize - 1],
                _ => {
                    return Err(NetError::NoMember {
                        seat: seat.to_string(),
                        team: variant.side_name(side).to_string(),
                        size,
                    }
                    .into());
                }
            },
        };
        let who = Sitter::parse(who)?;
        for m in chosen {
            let place = &mut sitters[side.index()][m];
            if place.is_some() {
                return Err(NetError::Twice(crate::net::SeatId::new(side, m as u8).name(team)).into());
            }
            *place = Some(who.clone());
        }
    }
    if !headless && sitters.iter().flatten().all(|s| s.is_none()) {
        sitters[0][0] = Some(Sitter::Person);
    }
    let seats = sitters.map(|team| team.into_iter().map(|s| s.unwrap_or(Sitter::Remote)).collect::<Vec<_>>());
    let people = seats.iter().flatten().filter(|s| **s == Sitter::Person).count();
    if headless && people > 0 {
        return Err(NetError::PersonHeadless.into());
    }
    if !headless && people != 1 {
        return Err(NetError::OnePerson.into());
    }
    if a.secrets && !matches!(start, crate::rules::AnyGame::Ctor(_)) {
        return Err(NetError::SecretsNotCtor.into());
    }
    if let Some(t) = a.timer
        && (!matches!(start, crate::rules::AnyGame::Ctor(_)) || !crate::rules::ctor::TIMERS.contains(&t))
    {
        return Err(NetError::Timer(t).into());
    }
    Ok(HostOptions {
        start,
        seats,
        addr: a.listen.unwrap_or(a.port),
        record: a.record.clone(),
        linger: a.linger,
        timer: a.timer,
        feed: a.feed_listen.or(a.feed),
        secrets: a.secrets,
        tls: a.tls,
        relay: a.relay.as_deref().map(crate::net::relay::relay_address).transpose()?,
    })
}

/// The name of a command of the 3D table.
pub fn table_command(command: &Command) -> &'static str {
    match command {
        Command::Screenshot { .. } => "screenshot",
        Command::Photo { .. } => "photo",
        Command::Film { .. } => "film",
        Command::BenchTable { .. } => "bench-table",
        Command::Keys => "keys",
        Command::Replay { .. } => "replay",
        Command::Watch { .. } => "watch",
        Command::Play { .. } => "play",
        _ => "tablero",
    }
}

/// `tablero completions bash|zsh|fish`: the shell's completions, generated from [`Cli`].
fn completions(shell: args::Shell, out: &mut dyn Write) -> Result<(), CliError> {
    use clap_complete::{generate, shells};
    let mut cmd = Cli::command();
    // Written whole into memory first: clap_complete cannot fail on its writer (a closed pipe).
    let mut text = Vec::new();
    match shell {
        args::Shell::Bash => generate(shells::Bash, &mut cmd, "tablero", &mut text),
        args::Shell::Zsh => generate(shells::Zsh, &mut cmd, "tablero", &mut text),
        args::Shell::Fish => generate(shells::Fish, &mut cmd, "tablero", &mut text),
    }
    Ok(out.write_all(&text)?)
}

/// `tablero review <record.json> [--top K]`: the evaluation after every move, and the moves
/// that lost most (the table's *Review* marks the same).
fn review(path: &std::path::Path, top: usize, out: &mut dyn Write) -> Result<(), CliError> {
    let (record, positions) = crate::record::load(path)?;
    let variant = positions[0].variant();
    let mut progress = Progress::new();
    let total = positions.len() as u64;
    let moves = record.moves_played(&positions)?;
    let weighed = crate::ai::review(&positions, &STOP, &mut |n| {
        progress.show(|| format!("review {} {n}/{total} positions", bar(n as u64, total)), false)
    });
    progress.done();
    if weighed.len() < positions.len() {
        return Err(CliError::Stopped { what: "the review was", so_far: String::new() });
    }
    let level = crate::ai::LEVELS[crate::ai::EVAL_LEVEL].name;
    writeln!(
        out,
        "{} moves, weighed at level {level}; the evaluation is {}'s expected result",
        record.moves.len(),
        variant.side_name(Side::First)
    )?;
    for (i, w) in weighed.iter().enumerate() {
        let mv = if i == 0 { "start".to_string() } else { format!("{i}. {}", record.moves[i - 1].mv) };
        writeln!(out, "{mv:<24} {:.3}  {}", w.value, crate::ai::standing(variant, w.value))?;
    }
    let worst = crate::ai::mistakes(&positions, &moves, &weighed, top);
    if worst.is_empty() {
        writeln!(out, "no move lost {:.0}% or more", crate::ai::MISTAKE * 100.0)?;
    }
    for m in worst {
        writeln!(
            out,
            "mistake: {}. {} by {}: the best move kept {:.0}%, this one {:.0}% (lost {:.0}%)",
            m.ply,
            record.moves[m.ply - 1].mv,
            variant.side_name(positions[m.ply - 1].side_to_move()),
            m.before * 100.0,
            m.after * 100.0,
            m.loss * 100.0
        )?;
    }
    Ok(())
}

/// `perft`, one first move at a time: progress on standard error for long counts, the count
/// after each first move with `divide`, and a clean stop on Ctrl-C (what was counted so far
/// is said on standard error, nothing on standard output).
fn perft(game: &AnyGame, depth: u32, divide: bool, out: &mut dyn Write) -> Result<(), CliError> {
    if depth == 0 {
        writeln!(out, "1")?;
        return Ok(());
    }
    let moves = game.legal_moves();
    let mut progress = Progress::new();
    let mut total = 0u64;
    for (i, mv) in moves.iter().enumerate() {
        let mut next = game.clone();
        next.play_unchecked(mv);
        let Some(n) = next.perft_until(depth - 1, &STOP) else {
            progress.done();
            return Err(CliError::Stopped {
                what: "perft",
                so_far: format!(" after {i} of {} first moves ({total} sequences counted so far)", moves.len()),
            });
        };
        total += n;
        if divide {
            writeln!(out, "{mv} {n}")?;
        }
        progress.show(
            || {
                format!(
                    "perft {depth}: {} {}/{} first moves, {total} so far",
                    bar(i as u64 + 1, moves.len() as u64),
                    i + 1,
                    moves.len()
                )
            },
            i + 1 == moves.len(),
        );
    }
    progress.done();
    if divide {
        writeln!(out)?;
    }
    writeln!(out, "{total}")?;
    Ok(())
}

fn parse_position(text: &str) -> Result<AnyGame, CliError> {
    Ok(AnyGame::read(text)?)
}

/// `tablero match`: the games (each on a line with `--each`), then the tally with Wilson's
/// interval and each player's time.
fn run_match(m: &args::MatchArgs, out: &mut dyn Write) -> Result<(), CliError> {
    let (variant, games, seed, threads) = (m.variant, m.games(), m.seed, m.threads());
    let started = std::time::Instant::now();
    let (t, clock, played) = crate::matches::play_match(variant, [&m.a, &m.b], games, seed, threads, m.openings)?;
    let (a, b) = (&m.a, &m.b);
    if m.each {
        for p in &played {
            let opening = p.opening.map_or(String::new(), |k| format!("opening {k}, "));
            let result = match p.score {
                Score::Win => "a wins",
                Score::Draw => "draw",
                Score::Loss => "b wins",
            };
            writeln!(
                out,
                "game {}: {opening}a {}, {result} after {} plies, a {:.3} s, b {:.3} s a move",
                p.game,
                if p.a_first { "first" } else { "second" },
                p.plies,
                p.clock.mean(0),
                p.clock.mean(1)
            )?;
        }
    }
    let from = match m.openings {
        Some(n) => format!("from {n} seeded openings of four turns, each from both sides"),
        None => "sides alternating".to_string(),
    };
    writeln!(out, "{variant}: {a} (a) vs {b} (b), {games} games, seed {seed}, {from}")?;
    writeln!(out, "a: {} wins, {} draws, {} losses", t.wins, t.draws, t.losses)?;
    let n = games.max(1) as f64;
    let share = |k: f64| k / n * 100.0;
    let (low, high) = wilson(t.wins as f64, n);
    writeln!(
        out,
        "a's wins {:.1}% (95% interval {:.1}% to {:.1}%), score with draws as half {:.1}%, {:.1} s",
        share(t.wins as f64),
        low * 100.0,
        high * 100.0,
        share(t.wins as f64 + t.draws as f64 / 2.0),
        started.elapsed().as_secs_f64()
    )?;
    // Each player's time a move (with two lanes, each game had a core to itself).
    let thinker = |k: usize| {
        let on = if threads[k] > 1 { format!(" on {} threads", threads[k]) } else { String::new() };
        format!("{:.3} s a move over {} moves{on}", clock.mean(k), clock.moves[k])
    };
    writeln!(out, "thinking: a {}, b {}", thinker(0), thinker(1))?;
    Ok(())
}
