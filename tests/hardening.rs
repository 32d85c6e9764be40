//! Regression tests for hostile and careless input found by hand and by fuzzing: each test
//! names the item of the hardening issue it guards, and failed on the code before the fix.
mod common;

use std::io::{BufRead, BufReader};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};
use tablero::record::Record;
use tablero::rules::{AnyGame, Game, Variant};

const ORDO: &str = "ordo ..BB..BB../BBBBBBBBBB/BB..BB..BB/........../........../WW..WW..WW/WWWWWWWWWW/..WW..WW.. w";
const CROSSINGS: &str = "crossings BBBBBBBB/BBBBBBBB/......../......../......../......../RRRRRRRR/RRRRRRRR r 0";
const CTOR: &str = "ctor8 ......../......../......../......../......../......../......../........ b 1 P1M0L0 1v1 0";

fn bin() -> Command {
    Command::new(env!("CARGO_BIN_EXE_tablero"))
}

/// Runs the binary with a time limit: (exit status, stdout, stderr). A run past the limit is
/// killed and fails the test (a command that blocks is a bug here).
fn tablero_os(args: &[std::ffi::OsString]) -> (i32, String, String) {
    let mut child = bin().args(args).stdout(Stdio::piped()).stderr(Stdio::piped()).spawn().expect("the binary runs");
    let started = Instant::now();
    while child.try_wait().unwrap().is_none() {
        if started.elapsed() > Duration::from_secs(20) {
            let _ = child.kill();
            panic!("tablero {args:?} ran for 20 s without ending");
        }
        std::thread::sleep(Duration::from_millis(10));
    }
    let out = child.wait_with_output().unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

fn tablero(args: &[&str]) -> (i32, String, String) {
    tablero_os(&args.iter().map(std::ffi::OsString::from).collect::<Vec<_>>())
}

/// Exit status 2, nothing on stdout, one line on stderr containing `needle`.
fn refused(args: &[&str], needle: &str) {
    let (code, out, err) = tablero(args);
    assert_eq!(code, 2, "{args:?}: {out}{err}");
    assert!(out.is_empty(), "{args:?} printed {out}");
    assert_eq!(err.lines().count(), 1, "{args:?}: one line expected, got {err:?}");
    assert!(err.contains(needle), "{args:?}: {err:?} lacks {needle:?}");
}

fn empty_ctor(side: &str, turn: u32) -> String {
    format!("ctor8 {} {side} {turn} P2M2L1 1v1 0", ["........"; 8].join("/"))
}

// Item 2: CTOR's turn counter overflowed at u32::MAX (a position with turn 0, or a panic).
#[test]
fn ctor_turn_counter_ends_the_game_instead_of_wrapping() {
    let last = empty_ctor("b", u32::MAX);
    let game: AnyGame = last.parse().unwrap();
    assert_eq!(game.to_string(), last, "the last turn prints as it reads");
    let outcome = game.outcome().expect("the counter's last turn ends the game");
    assert_eq!(outcome.reason, tablero::rules::Reason::TurnLimit);
    assert!(game.legal_moves().is_empty());
    refused(&["play", &last, "E"], "the game is over");
    // One turn before: E reaches the last turn, and the printed position reads back.
    let (code, out, err) = tablero(&["play", &empty_ctor("w", u32::MAX - 1), "E"]);
    assert_eq!(code, 0, "{err}");
    let mut lines = out.lines();
    let after = lines.next().unwrap();
    assert_eq!(after, empty_ctor("b", u32::MAX).replace(" 1v1 0", " 1v1 1"), "an idle turn");
    assert_eq!(after.parse::<AnyGame>().unwrap().to_string(), after);
    assert_eq!(lines.next(), Some("result: draw (more discs when the turn counter ran out)"));
    // The same through a record given to `tablero check`.
    let dir = std::env::temp_dir().join(format!("tablero-hardening-turn-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let players = [("a", "human"), ("b", "human")].map(|(n, k)| (n.to_string(), k.to_string()));
    let mut rec = Record::new(&last.parse().unwrap(), players);
    rec.moves.push(tablero::record::RecordedMove { mv: "E".into(), at_ms: 0, member: None });
    let path = dir.join("overflow.json");
    std::fs::write(&path, rec.to_json()).unwrap();
    refused(&["check", path.to_str().unwrap()], "move 1: illegal move 'E': the game is over");
    let _ = std::fs::remove_dir_all(dir);
}

// Item 3: an argument that is not UTF-8 panicked (exit 101).
#[test]
fn arguments_that_are_not_utf8_are_refused_in_one_line() {
    use std::os::unix::ffi::OsStringExt;
    for args in [
        vec![b"moves".to_vec(), vec![0xff]],
        vec![vec![0xc3, 0x28]],
        vec![b"check".to_vec(), b"/tmp/\xfe.json".to_vec()],
    ] {
        let args: Vec<std::ffi::OsString> = args.into_iter().map(std::ffi::OsString::from_vec).collect();
        let (code, out, err) = tablero_os(&args);
        assert_eq!(code, 2, "{args:?}: {err}");
        assert!(out.is_empty());
        assert_eq!(err.lines().count(), 1, "{err:?}");
        assert!(err.contains("is not UTF-8 text"), "{err}");
    }
}

// Item 4: errors that repeat the user's text spanned several lines.
#[test]
fn errors_that_repeat_the_users_text_stay_on_one_line() {
    refused(&["play", ORDO, "c2-c3\nc3-c4"], "unreadable move 'c2-c3\\nc3-c4'");
    refused(&["perft", ORDO, "1\n"], "depth '1\\n' is not a whole number");
    refused(&["a\nb"], "unknown command 'a\\nb'");
    refused(&["check", "/tmp/no\nsuch"], "cannot read /tmp/no\\nsuch");
    refused(&["match", "ordo\r", "--a", "random"], "unknown variant 'ordo\\r'");
    refused(
        &["match", "ordo", "--a", "random\n", "--b", "random", "--games", "1", "--seed", "1"],
        "unknown player 'random\\n'",
    );
    // Long text is cut: the line names the start of what was given.
    let long = format!("{ORDO}{}", "x".repeat(100_000));
    let (_, _, err) = tablero(&["moves", &long]);
    assert_eq!(err.lines().count(), 1);
    assert!(err.len() < 300, "{} bytes", err.len());
}

// Item 5: `check` read any file whole (a FIFO blocked for ever, /dev/urandom ran on).
#[test]
fn check_refuses_what_is_not_a_regular_file_or_is_too_large() {
    let dir = std::env::temp_dir().join(format!("tablero-hardening-check-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let fifo = dir.join("fifo.json");
    assert!(Command::new("mkfifo").arg(&fifo).status().unwrap().success());
    refused(&["check", fifo.to_str().unwrap()], "not a regular file");
    refused(&["check", "/dev/urandom"], "not a regular file");
    refused(&["check", "/dev/zero"], "not a regular file");
    refused(&["check", dir.to_str().unwrap()], "it is a folder");
    // A (sparse) file one byte over the limit is refused before it is read.
    let big = dir.join("big.json");
    let f = std::fs::File::create(&big).unwrap();
    f.set_len(tablero::record::MAX_RECORD_BYTES + 1).unwrap();
    let started = Instant::now();
    refused(&["check", big.to_str().unwrap()], "above the 16 MiB a record may have");
    assert!(started.elapsed() < Duration::from_secs(5));
    // Bytes that are not UTF-8.
    let bin = dir.join("binary.json");
    std::fs::write(&bin, b"{\"format\": 1, \xff}").unwrap();
    refused(&["check", bin.to_str().unwrap()], "is not UTF-8 text");
    let _ = std::fs::remove_dir_all(dir);
}

fn ordo_record(n: usize) -> Record {
    common::random_record(Variant::Ordo.initial(), 5, n).0
}

/// A finished record of `variant`, from seeded random play.
fn finished_record(variant: Variant) -> Record {
    (0..).map(|seed| common::random_record(variant.initial(), seed, 3000).0).find(|r| r.result.is_some()).unwrap()
}

// Item 6: records accepted though inconsistent.
#[test]
fn inconsistent_records_are_refused() {
    let check = |rec: &Record, needle: &str| {
        let err = Record::from_json(&rec.to_json()).and_then(|r| r.replay()).map(|_| ()).unwrap_err().to_string();
        assert!(err.contains(needle), "{err:?} lacks {needle:?}");
        assert!(!err.contains('\n'));
    };
    // A game that is over, with no result.
    let mut rec = finished_record(Variant::Crossings);
    rec.result = None;
    check(&rec, "field `result` says the game goes on but the moves give");
    // A result where the game goes on.
    let mut rec = ordo_record(6);
    rec.result = Some(tablero::record::RecordResult { winner: None, reason: "agreed".into() });
    check(&rec, "field `result` says a draw (agreed) but the moves give the game goes on");
    // The sand-glass on a game other than CTOR, and wrong values on CTOR.
    for timer in [0, 5, 7] {
        let mut rec = ordo_record(2);
        rec.options.timer = Some(timer);
        check(&rec, "`options.timer` (the sand-glass) belongs to CTOR records only");
    }
    for timer in [0, 7, 255] {
        let mut rec = common::random_record(Variant::Ctor8.initial(), 1, 4).0;
        rec.options.timer = Some(timer);
        check(&rec, "the sand-glass runs 5, 10, 15 or 30 s");
    }
    // Unknown player kinds.
    for kind in ["robot", "ai:grandmaster", "computer", "Human", ""] {
        let mut rec = ordo_record(2);
        rec.players[1].kind = kind.into();
        check(&rec, "field `players[1].kind`");
    }
    // The good ones load.
    for kind in ["human", "computer:random", "ai:easy", "ai:master"] {
        let mut rec = ordo_record(2);
        rec.players[0].kind = kind.into();
        Record::from_json(&rec.to_json()).unwrap().replay().unwrap();
    }
    finished_record(Variant::Volterra).replay().unwrap();
}

// Item 7: lenient notation (other whitespace between fields, signs and leading zeros).
#[test]
fn notation_is_read_as_written_and_the_rest_refused() {
    for sep in ["\n", "\t", "\u{3000}", "\u{85}", "\u{a0}", "\r"] {
        refused(&["moves", &ORDO.replacen(' ', sep, 1)], "its fields are separated by plain spaces");
        refused(&["moves", &format!("{CROSSINGS}{sep}")], "its fields are separated by plain spaces");
    }
    // Around a move, plain spaces are ignored as the notation says; tabs, line breaks and
    // other whitespace are not.
    let (code, _, err) = tablero(&["play", ORDO, " c2-c3 "]);
    assert_eq!(code, 0, "{err}");
    refused(&["play", ORDO, "\u{3000}c2-c3"], "unreadable move");
    for around in ["\t", "\n", "\r"] {
        refused(&["play", ORDO, &format!("c2-c3{around}")], "unreadable move");
        refused(&["play", CROSSINGS, &format!("{around}b2-c3")], "unreadable move");
    }
    // One written form for each move: a single stone is never written as a phalanx.
    refused(&["play", CROSSINGS, "b2:b2-b3"], "a single stone is written from-to");
    let full = "ctor8 BBBBBBBB/WWWWWWWW/BB.BBBBB/WWWWWWWW/......../......../......../........ b 5 P2M2L1 1v1 0";
    for mv in ["P+12", "P012", "P 12", "P-1", "L18,07>43", "L18,7>043", "M+1-2", "M01-2"] {
        refused(&["play", full, mv], "is not a square number");
    }
    refused(&["moves", &CROSSINGS.replace(" 0", " +5")], "quiet field is '+5'");
    refused(&["moves", &CROSSINGS.replace(" 0", " 05")], "quiet field is '05'");
    refused(&["moves", &CTOR.replace(" 1 P1M0L0", " 01 P1M0L0")], "turn field is '01'");
    refused(&["moves", &CTOR.replace(" 1 P1M0L0", " +1 P1M0L0")], "turn field is '+1'");
    refused(&["moves", &CTOR.replace("P1M0L0", "P01M0L0")], "left field is 'P01M0L0'");
    refused(&["moves", &CTOR.replace("1v1", "01v1")], "teams field is '01v1'");
    refused(&["moves", &format!("{CTOR} landing=+2")], "unknown option 'landing=+2'");
    refused(&["moves", &format!("{CTOR} landing=02")], "unknown option 'landing=02'");
    refused(&["play", ORDO, "c+2-c3"], "is not a square");
    // What the notation says still reads: runs of plain spaces between fields, and landing=0.
    let (code, _, err) = tablero(&["moves", &ORDO.replace(' ', "   ")]);
    assert_eq!(code, 0, "{err}");
    let (code, _, err) = tablero(&["moves", &format!("{CTOR} landing=0")]);
    assert_eq!(code, 0, "{err}");
}

// Item 8: unbounded work without feedback.
#[test]
fn perft_divides_and_refuses_depths_past_its_bound() {
    refused(&["perft", ORDO, "13"], "depth '13' is not a whole number from 0 to 12");
    refused(&["perft", ORDO, "+2"], "depth '+2'");
    refused(&["perft", ORDO, "2", "--split"], "unknown option '--split' (tablero perft --help)");
    let (code, out, err) = tablero(&["perft", ORDO, "2", "--divide"]);
    assert_eq!(code, 0, "{err}");
    let game: AnyGame = ORDO.parse().unwrap();
    let lines: Vec<&str> = out.lines().collect();
    let moves = game.legal_moves();
    assert_eq!(lines.len(), moves.len() + 2, "a line per first move, a blank line, the total");
    let mut sum = 0;
    for (line, mv) in lines.iter().zip(&moves) {
        let (text, n) = line.split_once(' ').unwrap();
        assert_eq!(text, mv.to_string());
        let mut next = game.clone();
        next.play(mv).unwrap();
        assert_eq!(n.parse::<u64>().unwrap(), next.perft(1));
        sum += n.parse::<u64>().unwrap();
    }
    assert_eq!(lines.last().unwrap().parse::<u64>().unwrap(), sum);
    assert_eq!(sum, game.perft(2));
    // Without --divide, one number, as before.
    assert_eq!(tablero(&["perft", ORDO, "3"]).1, format!("{}\n", game.perft(3)));
}

/// Starts a long command with progress shown, waits for its first progress line, sends
/// Ctrl-C (SIGINT) and returns (exit status, the last line on stderr, progress lines seen).
fn interrupt(args: &[&str]) -> (i32, String, String) {
    let mut child =
        bin().args(args).env("TABLERO_PROGRESS", "1").stdout(Stdio::null()).stderr(Stdio::piped()).spawn().unwrap();
    let mut lines = BufReader::new(child.stderr.take().unwrap()).lines();
    let first = lines.next().expect("a progress line").unwrap();
    assert!(first.contains("so far") || first.contains("games"), "{first}");
    assert!(Command::new("kill").args(["-INT", &child.id().to_string()]).status().unwrap().success());
    let started = Instant::now();
    let rest: Vec<String> = lines.map_while(Result::ok).collect();
    let status = child.wait().unwrap();
    assert!(started.elapsed() < Duration::from_secs(15), "stopped soon after Ctrl-C");
    (status.code().unwrap_or(-1), rest.last().cloned().unwrap_or(first.clone()), first)
}

#[test]
fn a_long_perft_shows_progress_and_stops_cleanly_on_ctrl_c() {
    // Ordo X perft 3 from the start runs for many minutes.
    let start = Variant::OrdoX.initial().to_string();
    let (code, last, _) = interrupt(&["perft", &start, "3"]);
    assert_eq!(code, 130, "{last}");
    assert!(last.starts_with("tablero: perft stopped by Ctrl-C after "), "{last}");
    assert!(last.contains("sequences counted so far"), "{last}");
}

#[test]
fn match_refuses_absurd_counts_shows_progress_and_stops_on_ctrl_c() {
    let m = |games: &str| {
        ["match", "ordo", "--a", "random", "--b", "random", "--games", games, "--seed", "1"].map(String::from)
    };
    for games in ["4294967295", "0", "100001", "-1", "+5", "05"] {
        let args = m(games);
        refused(&args.iter().map(|s| s.as_str()).collect::<Vec<_>>(), "is not a number of games from 1 to 100000");
    }
    refused(
        &["match", "ordo", "--a", "random", "--b", "random", "--games", "1", "--seed", "-3"],
        "invalid value '-3' for '--seed <SEED>'",
    );
    let (code, last, first) =
        interrupt(&["match", "ordo-x", "--a", "ai:easy", "--b", "ai:easy", "--games", "1000", "--seed", "1"]);
    assert_eq!(code, 130, "{last}");
    // The progress line counts the games played of those asked for.
    assert!(first.contains("/1000 games, a: ") && first.contains(" wins, "), "{first}");
    assert!(last.starts_with("tablero: match stopped by Ctrl-C after "), "{last}");
    let played: u32 = last["tablero: match stopped by Ctrl-C after ".len()..]
        .split_whitespace()
        .next()
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("a count of games: {last}"));
    assert!(played < 1000, "stopped before the end: {last}");
    assert!(last.contains(&format!("after {played} of 1000 games")), "{last}");
}

// The corpus of inputs that once failed is replayed by tests/fuzz.rs; this checks the
// command line's one-line rule for the commands named in the issue, run through the binary.
#[test]
fn every_error_line_of_the_binary_is_one_line() {
    for args in [
        vec!["moves", "ordo\n"],
        vec!["play", CTOR, "P1\nP2"],
        vec!["check", "\n"],
        vec!["perft", "\u{85}", "1"],
        vec!["screenshot", "x\ny"],
        vec!["bench", "\n"],
    ] {
        let (code, _, err) = tablero(&args);
        assert_eq!(code, 2, "{args:?}");
        assert_eq!(err.lines().count(), 1, "{args:?}: {err:?}");
    }
}
