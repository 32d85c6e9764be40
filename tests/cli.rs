//! The headless command line as other programs use it: the real binary's output and exit
//! status, and thousands of mutated positions and moves that must fail cleanly.
mod common;

use rand::{Rng, SeedableRng, rngs::StdRng};
use std::process::Command;
use tablero::cli;
use tablero::rules::{AnyGame, Game};

const ORDO: &str = "ordo ..BB..BB../BBBBBBBBBB/BB..BB..BB/........../........../WW..WW..WW/WWWWWWWWWW/..WW..WW.. w";
const CROSSINGS: &str = "crossings BBBBBBBB/BBBBBBBB/......../......../......../......../RRRRRRRR/RRRRRRRR r 0";

/// Runs the real binary: (exit status, stdout, stderr).
fn tablero(args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_tablero")).args(args).output().expect("the binary runs");
    (out.status.code().unwrap_or(-1), String::from_utf8(out.stdout).unwrap(), String::from_utf8(out.stderr).unwrap())
}

/// Runs the command line in-process: Ok(stdout) or Err(message).
fn run(args: &[&str]) -> Result<String, String> {
    let args: Vec<String> = args.iter().map(|s| s.to_string()).collect();
    let mut out = Vec::new();
    cli::run(&args, &mut out).map(|()| String::from_utf8(out).unwrap()).map_err(|e| e.to_string())
}

fn assert_error(args: &[&str], needle: &str) {
    let (code, out, err) = tablero(args);
    assert_eq!(code, 2, "{args:?}: {out}{err}");
    assert!(out.is_empty(), "{args:?} printed {out}");
    assert_eq!(err.lines().count(), 1, "{args:?}: one line expected, got {err}");
    assert!(err.starts_with("tablero: ") && err.contains(needle), "{args:?}: '{err}' lacks '{needle}'");
}

#[test]
fn moves_lists_every_legal_move() {
    let (code, out, _) = tablero(&["moves", ORDO]);
    assert_eq!(code, 0);
    assert_eq!(out.lines().count(), 56);
    assert!(out.lines().any(|l| l == "c2:d2-c4"));
    let (_, out, _) = tablero(&["moves", CROSSINGS]);
    assert_eq!(out.lines().count(), 60);
    let (_, out, _) = tablero(&["moves", &format!("{CROSSINGS} exact")]);
    assert_eq!(out.lines().count(), 40);
    let volterra = "volterra D,L,D,L/L,D,L,D/D,Ll,Dd,L/L,D,L,D/D,L,D,L l";
    assert_eq!(tablero(&["moves", volterra]).1.lines().count(), 86);
    assert_eq!(tablero(&["moves", &format!("{volterra} build-near-source")]).1.lines().count(), 54);
    assert_eq!(tablero(&["perft", volterra, "2"]).1, "7718\n");
    let ctor = "ctor8 ......../......../......../......../......../......../......../........ b 1 P1M0L0 1v1 0";
    assert_eq!(tablero(&["moves", ctor]).1.lines().count(), 65);
    assert_eq!(tablero(&["perft", ctor, "3"]).1, "8192\n");
    let (code, out, err) = tablero(&["play", ctor, "P1", "E", "E", "E"]);
    assert_eq!(code, 0, "{err}");
    assert!(out.ends_with("result: black wins (more discs after two turns without an operation)\n"), "{out}");
}

/// A variant's name stands for its start wherever a position is asked for: `moves`, `perft`,
/// `play` (and `analyse`, `host`, `screenshot`, `photo` and the table's Paste, which read it the
/// same way), each command's `--help` says so, and a name that is no variant is refused in one
/// line naming the variants.
#[test]
fn a_variants_name_is_its_start_everywhere_a_position_is_asked_for() {
    use tablero::rules::Variant;
    for v in Variant::ALL {
        let start = v.initial();
        let full = start.to_string();
        let (code, by_name, err) = tablero(&["moves", v.name()]);
        assert_eq!(code, 0, "moves {}: {err}", v.name());
        assert_eq!(by_name, tablero(&["moves", &full]).1, "moves {}", v.name());
        assert_eq!(tablero(&["perft", v.name(), "2"]), tablero(&["perft", &full, "2"]), "perft {}", v.name());
        let first = start.legal_moves()[0].to_string();
        let (code, out, err) = tablero(&["play", v.name(), &first]);
        assert_eq!(code, 0, "play {} {first}: {err}", v.name());
        assert_eq!(out, tablero(&["play", &full, &first]).1);
        assert!(run(&["moves", &format!("{}\n", v.name())]).is_err(), "read as written: nothing after the name");
        let table = tablero::table::Table::open_text(v.name()).unwrap();
        assert_eq!(table.game.to_string(), full, "Paste at the table");
    }
    for command in ["moves", "perft", "play", "analyse", "host", "screenshot", "photo"] {
        let (code, help, err) = tablero(&[command, "--help"]);
        assert_eq!(code, 0, "{command} --help: {err}");
        assert!(help.contains("or a variant's name for its start"), "{command} --help:\n{help}");
    }
    let (code, _, err) = tablero(&["moves", "chess"]);
    assert_eq!(code, 2);
    assert!(err.contains("chess") && err.contains("ordo") && err.lines().count() == 1, "{err}");
}

#[test]
fn perft_prints_one_number() {
    assert_eq!(tablero(&["perft", ORDO, "2"]), (0, "3136\n".into(), String::new()));
    assert_eq!(tablero(&["perft", &ORDO.replace("ordo ", "ordo-x "), "1"]).1, "2062\n");
    assert_eq!(tablero(&["perft", CROSSINGS, "2"]).1, "3600\n");
}

#[test]
fn play_prints_the_position_and_the_result() {
    let (code, out, _) = tablero(&["play", ORDO, "c2:d2-c4", "a6-a5"]);
    assert_eq!(code, 0, "{out}");
    assert_eq!(out, "ordo ..BB..BB../BBBBBBBBBB/.B..BB..BB/B........./..WW....../WW..WW..WW/WW..WWWWWW/..WW..WW.. w\n");
    let won = "ordo ........../..BW....../........../........../........../........../........../.......... w";
    let (code, out, _) = tablero(&["play", won, "d7-d8"]);
    assert_eq!(code, 0, "{out}");
    assert!(out.ends_with("result: white wins (reached the opponent's home row)\n"), "{out}");
}

#[test]
fn match_plays_seeded_games_that_repeat() {
    let args = ["match", "ordo", "--a", "random", "--b", "random", "--games", "6", "--seed", "42"];
    let (code, first, _) = tablero(&args);
    assert_eq!(code, 0);
    let tally = |out: &str| out.lines().find(|l| l.starts_with("a: ")).unwrap().to_string();
    let line = tally(&first);
    let nums: Vec<u32> = line.split(|c: char| !c.is_ascii_digit()).filter_map(|s| s.parse().ok()).collect();
    assert_eq!(nums.iter().sum::<u32>(), 6, "{line}");
    assert!(first.lines().any(|l| l.starts_with("a's wins") && l.contains("95% interval")), "{first}");
    // Each player's time a move over the moves it made (sides alternate: A and B made about
    // as many, and a game of Ordo takes more than one move each).
    let thinking = first.lines().last().unwrap();
    assert!(thinking.starts_with("thinking: a ") && thinking.contains(" s a move over "), "{first}");
    let moves: Vec<u32> =
        thinking.split(" moves").filter_map(|part| part.rsplit(' ').next().and_then(|n| n.parse().ok())).collect();
    assert_eq!(moves.len(), 2, "{thinking}");
    assert!(moves.iter().all(|&n| n >= 6) && moves[0].abs_diff(moves[1]) <= 6, "{thinking}");
    assert_eq!(tally(&tablero(&args).1), line, "the same seed plays the same games");
    // The computer opponent by level.
    let ai = ["match", "crossings", "--a", "ai:easy", "--b", "random", "--games", "2", "--seed", "3"];
    let (code, out, err) = tablero(&ai);
    assert_eq!(code, 0, "{err}");
    assert_eq!(tally(&tablero(&ai).1), tally(&out), "an AI match repeats for its seed");
    // A player on several threads is said so beside its time.
    let (code, out, err) = tablero(&[
        "match",
        "crossings",
        "--a",
        "ai:easy",
        "--a-threads",
        "2",
        "--b",
        "random",
        "--games",
        "1",
        "--seed",
        "3",
    ]);
    assert_eq!(code, 0, "{err}");
    let thinking = out.lines().last().unwrap();
    assert!(thinking.contains("moves on 2 threads, b ") && !thinking.ends_with("threads"), "{out}");
    for variant in ["ordo-x", "crossings", "volterra", "volterra-free", "ctor8", "ctor10"] {
        let (code, out, err) =
            tablero(&["match", variant, "--a", "random", "--b", "random", "--games", "2", "--seed", "1"]);
        assert_eq!(code, 0, "{err}");
        assert!(out.contains("2 games"));
    }
}

#[test]
fn bad_input_is_one_line_and_exit_status_2() {
    assert_error(&["moves", &ORDO.replace("..BB..BB../", "..BB..BB.../")], "rank 8 has 11 squares, expected 10");
    assert_error(&["moves", &ORDO.replace("WWWWWWWWWW", "WWWWWWWWWQ")], "unknown character 'Q' on rank 2");
    assert_error(&["moves", &ORDO.replace(" w", " x")], "side field is 'x', expected w or b");
    assert_error(&["moves", &ORDO.replace("..........", "WWWWWWWWWW")], "white has 40 pieces, at most 20");
    assert_error(&["moves", "ordo ..BB..BB../BBBBBBBBBB"], "missing the side field");
    assert_error(&["moves", &ORDO.replace("/WW..WW..WW", "")], "the board has 7 ranks");
    assert_error(&["moves", "chess rnbqkbnr w"], "unknown variant 'chess'");
    assert_error(&["moves", ""], "the position is empty");
    assert_error(&["moves", &format!("{ORDO} extra")], "3 fields after the variant, expected 2");
    assert_error(&["moves", &CROSSINGS.replace(" 0", " -1")], "quiet field is '-1'");
    assert_error(&["moves", &CROSSINGS.replace(" 0", " x")], "quiet field is 'x'");
    assert_error(&["moves", &CROSSINGS.replace("........", "RRRRRRRR")], "red has 48 stones, at most 16");
    assert_error(&["moves", &format!("{CROSSINGS} fast")], "unknown option 'fast'");
    assert_error(&["play", ORDO, "c2:d2-c4", "a7-a5"], "move 2: illegal move 'a7-a5'");
    assert_error(&["play", ORDO, "c2-c9"], "move 1: unreadable move 'c2-c9'");
    assert_error(&["play", ORDO, "hello"], "unreadable move 'hello'");
    // Found by the mutation test: a rank beyond the board overflowed while being checked.
    assert_error(&["play", ORDO, "a99-a3"], "a99 is off the 10 × 8 board");
    assert_error(&["play", CROSSINGS, "a2xa3"], "a single stone never captures");
    assert_error(&["perft", ORDO, "deep"], "depth 'deep' is not a whole number");
    assert_error(&["perft", ORDO], "required arguments were not provided: <DEPTH> (tablero perft --help)");
    assert_error(&["bench", "--fast"], "unknown option '--fast' (tablero bench --help)");
    assert_error(
        &["match", "ordo", "--a", "random", "--b", "wizard", "--games", "1", "--seed", "1"],
        "unknown player 'wizard'",
    );
    assert_error(
        &["match", "ordo", "--a", "random", "--b", "random", "--games", "1"],
        "required arguments were not provided: --seed <SEED>",
    );
    assert_error(&["match", "go", "--a", "random"], "unknown variant 'go'");
    assert_error(&["frobnicate"], "unknown command 'frobnicate'");
    let volterra = "volterra D,L,D,L/L,D,L,D/D,Ll,Dd,L/L,D,L,D/D,L,D,L l";
    assert_error(&["moves", &volterra.replace("Dd", "Ld")], "dark pawn on c3 stands on a tower of the other colour");
    assert_error(&["play", volterra, "Pb3-a4"], "a turn is two actions");
    assert_error(&["play", volterra, "Pb3-b4,a4-b4"], "illegal move 'Pb3-b4,a4-b4'");
}

/// Mutates a string the way typos and corrupted files do.
fn mutate(rng: &mut StdRng, s: &str) -> String {
    const ALPHABET: &[u8] = b"WBRLDld.wbrx-=:/^,+@P0123456789 aehjkz\t!";
    let mut b: Vec<u8> = s.bytes().collect();
    for _ in 0..rng.random_range(1..=3) {
        let i = if b.is_empty() { 0 } else { rng.random_range(0..b.len()) };
        match rng.random_range(0..6) {
            0 if !b.is_empty() => b[i] = ALPHABET[rng.random_range(0..ALPHABET.len())],
            1 if !b.is_empty() => {
                b.remove(i);
            }
            2 => b.insert(i, ALPHABET[rng.random_range(0..ALPHABET.len())]),
            3 if b.len() > 1 => {
                let j = rng.random_range(0..b.len());
                b.swap(i, j)
            }
            4 => b.truncate(i),
            _ => b.push(b"/ x"[rng.random_range(0..3)]),
        }
    }
    String::from_utf8_lossy(&b).into_owned()
}

#[test]
fn thousands_of_mutated_positions_fail_cleanly() {
    let mut rng = StdRng::seed_from_u64(2026);
    let mut seeds: Vec<String> = Vec::new();
    for name in ["ordo_classic.tsv", "ordo_x.tsv", "crossings.tsv", "volterra.tsv"] {
        seeds.extend(common::fixture(name).into_iter().take(40).map(|r| r.position));
    }
    let (mut accepted, mut refused) = (0, 0);
    for i in 0..5000 {
        let text = mutate(&mut rng, &seeds[i % seeds.len()]);
        // What the command line reads: a position string, or a variant's name for its start.
        match (run(&["moves", &text]), AnyGame::read(&text)) {
            (Ok(out), Ok(game)) => {
                // A mutation can still be a position: then its moves are listed and it prints back.
                accepted += 1;
                assert_eq!(out.lines().count(), game.legal_moves().len());
                assert_eq!(game.to_string().parse::<AnyGame>().unwrap().to_string(), game.to_string());
            }
            (Err(msg), Err(e)) => {
                refused += 1;
                assert_eq!(msg, e.to_string());
                assert!(msg.starts_with("bad position: ") || msg.starts_with("unknown variant"), "{text:?}: {msg}");
                assert!(!msg.contains('\n'), "{text:?}: {msg}");
                assert!(msg.len() > 20, "{text:?}: message too vague: {msg}");
            }
            (got, parsed) => panic!("{text:?}: command line {got:?} but parser {parsed:?}"),
        }
    }
    assert!(refused > 2000 && accepted > 10, "refused {refused}, accepted {accepted}");
}

#[test]
fn thousands_of_mutated_moves_fail_cleanly() {
    let mut rng = StdRng::seed_from_u64(29);
    let mut checked = 0;
    for name in ["ordo_classic.tsv", "ordo_x.tsv", "crossings.tsv", "volterra.tsv"] {
        for row in common::fixture(name).into_iter().take(30) {
            let game: AnyGame = row.position.parse().unwrap();
            let moves = game.legal_moves();
            if moves.is_empty() {
                continue;
            }
            for _ in 0..40 {
                let mv = moves[rng.random_range(0..moves.len())].to_string();
                let text = mutate(&mut rng, &mv);
                let result = run(&["play", &row.position, &text]);
                match game.parse_move(&text) {
                    Ok(legal) => {
                        let mut next = game.clone();
                        next.play(&legal).unwrap();
                        assert!(result.unwrap().starts_with(&next.to_string()));
                    }
                    Err(e) => {
                        let msg = result.unwrap_err();
                        assert_eq!(msg, format!("move 1: {e}"));
                        let shown = tablero::rules::quote(text.trim_matches(' '));
                        assert!(msg.contains(&format!("'{shown}'")), "the message names the move: {msg}");
                        assert!(!msg.contains('\n'));
                    }
                }
                checked += 1;
            }
        }
    }
    assert!(checked >= 1000, "{checked}");
}

#[test]
fn a_match_from_openings_plays_each_opening_from_both_sides() {
    // --openings N: N seeded openings of four turns, each played twice with the sides swapped,
    // --games defaulting to 2N; --each prints a line a game.
    let args = ["match", "ordo", "--a", "ai:easy", "--b", "random", "--openings", "3", "--seed", "7", "--each"];
    let (code, out, err) = tablero(&args);
    assert_eq!(code, 0, "{err}");
    let games: Vec<&str> = out.lines().filter(|l| l.starts_with("game ")).collect();
    assert_eq!(games.len(), 6, "{out}");
    for (g, line) in games.iter().enumerate() {
        let side = if g % 2 == 0 { "a first" } else { "a second" };
        assert!(line.starts_with(&format!("game {g}: opening {}, {side}, ", g / 2)), "{line}");
        assert!(line.contains(" plies, a ") && line.ends_with(" s a move"), "{line}");
    }
    assert!(out.contains("6 games, seed 7, from 3 seeded openings of four turns, each from both sides"), "{out}");
    assert!(out.lines().any(|l| l.starts_with("a's wins") && l.contains("95% interval")), "{out}");
    // The same games again (the think times aside, which the clock measures).
    let played = |out: &str| -> Vec<String> {
        out.lines()
            .filter(|l| l.starts_with("game "))
            .map(|l| l.split(" plies").next().unwrap_or(l).to_string())
            .collect()
    };
    assert_eq!(played(&tablero(&args).1), played(&out), "it repeats");
    // The openings: four turns in, not over, the same for a seed, different from one another.
    use tablero::rules::{Game, Variant};
    for variant in Variant::ALL {
        let openings: Vec<String> = (0..4).map(|k| tablero::matches::opening(variant, 7, k).to_string()).collect();
        for (k, text) in openings.iter().enumerate() {
            let game = tablero::matches::opening(variant, 7, k as u32);
            assert!(game.outcome().is_none(), "{text}");
            assert!(!tablero::matches::decided(&game), "{text}: an opening is not won by force at once");
            assert_ne!(*text, variant.initial().to_string(), "{variant}: the opening moved");
            assert_eq!(tablero::matches::opening(variant, 7, k as u32).to_string(), *text, "seeded");
        }
        assert!(openings.iter().collect::<std::collections::HashSet<_>>().len() >= 3, "{variant}: {openings:?}");
    }
    // Bad input is refused in one line.
    let (code, _, err) =
        tablero(&["match", "ordo", "--a", "random", "--b", "random", "--openings", "0", "--seed", "1"]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("is not a number of openings from 1 to"), "{err}");
    let (code, _, err) = tablero(&["match", "ordo", "--a", "random", "--b", "random", "--seed", "1"]);
    assert_eq!(code, 2, "neither --games nor --openings: {err}");
}

#[test]
fn an_opening_won_by_force_is_decided() {
    use tablero::matches::decided;
    let read = |text: &str| AnyGame::read(text).expect(text);
    // Light wins within three turns: after c2-c3,Pb3-c3 Dark has two replies, and against
    // either Light's next two turns leave Dark no complete turn and the lower towers (ai:uct
    // won so against master; once opening 8 of seed 1, before decided openings were drawn again).
    let two = read("volterra D,-,DL,L/L,D,-,-/D,Ll,DLD,LD/L,D,L,Dd/D,L,-,L l");
    assert!(decided(&two));
    // After Light's winning first turn Dark, to move, is lost: it does not win by force.
    let mut after = two.clone();
    after.play(&after.parse_move("c2-c3,Pb3-c3").unwrap()).unwrap();
    assert!(!decided(&after));
    for variant in tablero::rules::Variant::ALL {
        assert!(!decided(&variant.initial()), "{variant}: the start is open");
    }
}

#[test]
fn the_match_interval_is_wilsons() {
    use tablero::cli::wilson;
    // Reference values of the 95% Wilson score interval.
    let close = |a: f64, b: f64| (a - b).abs() < 5e-4;
    let (lo, hi) = wilson(60.0, 60.0);
    assert!(close(lo, 0.9398) && close(hi, 1.0), "{lo} {hi}");
    let (lo, hi) = wilson(42.0, 60.0);
    assert!(close(lo, 0.5749) && close(hi, 0.8010), "{lo} {hi}");
    let (lo, hi) = wilson(0.0, 20.0);
    assert!(close(lo, 0.0) && close(hi, 0.1611), "{lo} {hi}");
}

#[test]
fn feed_serves_a_match_and_a_record_and_refuses_bad_input_in_one_line() {
    assert_error(&["feed"], "required arguments were not provided: <RECORD> (tablero feed --help)");
    assert_error(&["feed", "/no/such/record.json"], "record");
    assert_error(&["feed", "match", "chess", "--a", "random", "--b", "random", "--seed", "1"], "unknown variant");
    assert_error(&["feed", "match", "ordo", "--a", "nobody", "--b", "random", "--seed", "1"], "unknown player");
    assert_error(&["feed", "match", "ordo", "--a", "random", "--b", "random"], "--seed");
    assert_error(&["feed", "match", "ordo", "--a", "random", "--b", "random", "--seed", "1", "--pace", "-1"], "--pace");
    assert_error(
        &["feed", "match", "ordo", "--a", "random", "--b", "random", "--seed", "1", "--port", "99999"],
        "not an address",
    );
    assert_error(
        &["feed", "match", "ordo", "--a", "random", "--b", "random", "--seed", "1", "--port", "0.0.0.0:7878"],
        "--listen",
    );
    assert_error(
        &["feed", "match", "ordo", "--a", "random", "--b", "random", "--seed", "1", "--bogus", "1"],
        "unknown option",
    );
    // A port in use is said before anything is played.
    let busy = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let port = busy.local_addr().unwrap().port().to_string();
    assert_error(
        &["feed", "match", "ordo", "--a", "random", "--b", "random", "--seed", "1", "--port", &port],
        "cannot listen",
    );
    drop(busy);
    // A short match at no pace, served on a free port, then closed.
    let (code, out, err) = tablero(&[
        "feed",
        "match",
        "crossings",
        "--a",
        "random",
        "--b",
        "random",
        "--seed",
        "2",
        "--pace",
        "0",
        "--port",
        "0",
        "--linger",
        "0",
    ]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(out.starts_with("feed: http://127.0.0.1:"), "{out}");
    assert!(out.contains("game 1: result:") || out.contains("game 1: unfinished"), "{out}");
    assert!(out.contains("feed: closed"), "{out}");
    // A record, likewise.
    let dir = std::env::temp_dir().join(format!("tablero-cli-feed-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let (record, _) = common::random_record(tablero::rules::Variant::Ordo.initial(), 4, 12);
    let path = dir.join("game.json");
    std::fs::write(&path, record.to_json()).unwrap();
    let (code, out, err) = tablero(&["feed", path.to_str().unwrap(), "--pace", "0", "--port", "0", "--linger", "0"]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(out.contains(&format!("feed: {} moves shown", record.moves.len())), "{out}");
    // `--listen ADDR`, as the README gives it, in the build people run (the table's flags are
    // the table's: `feed` keeps its own).
    let (code, out, err) =
        tablero(&["feed", path.to_str().unwrap(), "--pace", "0", "--listen", "127.0.0.1:0", "--linger", "0"]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(out.starts_with("feed: http://127.0.0.1:") && out.contains("moves shown"), "{out}");
    // `--eval` (each position weighed for the overlay's bar) and a match of `--games 2`.
    let (code, out, err) =
        tablero(&["feed", path.to_str().unwrap(), "--pace", "0", "--port", "0", "--linger", "0", "--eval"]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(out.contains(&format!("feed: {} moves shown", record.moves.len())), "{out}");
    let (code, out, err) = tablero(&[
        "feed",
        "match",
        "ordo",
        "--a",
        "random",
        "--b",
        "random",
        "--seed",
        "3",
        "--games",
        "2",
        "--pace",
        "0",
        "--listen",
        "127.0.0.1:0",
        "--linger",
        "0",
    ]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(out.contains("game 1: ") && out.contains("game 2: "), "{out}");
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn review_weighs_every_move_of_a_record_and_marks_the_worst() {
    use tablero::players::{Player, RandomPlayer};
    use tablero::record::Record;
    // A game where white plays at random and blue as the computer at medium: white's moves
    // are the ones that lose.
    let mut game: AnyGame = ORDO.parse().unwrap();
    let mut record =
        Record::new(&game, [("R", "computer:random"), ("M", "ai:medium")].map(|(a, b)| (a.into(), b.into())));
    let mut random = RandomPlayer::new(2);
    for i in 0..16 {
        if game.outcome().is_some() {
            break;
        }
        let mv = if i % 2 == 0 {
            random.choose(&game).unwrap()
        } else {
            tablero::ai::choose(&game, tablero::ai::LEVELS[1], i).unwrap()
        };
        game.play(&mv).unwrap();
        record.push(&mv.to_string(), &game);
    }
    let dir = std::env::temp_dir().join(format!("tablero-cli-review-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("game.json");
    std::fs::write(&path, record.to_json()).unwrap();
    let (code, out, err) = tablero(&["review", path.to_str().unwrap(), "--top", "3"]);
    assert_eq!(code, 0, "{err}");
    let lines: Vec<&str> = out.lines().collect();
    assert!(lines[0].starts_with(&format!("{} moves, weighed at level master", record.moves.len())), "{out}");
    assert!(lines[1].starts_with("start "), "{out}");
    let values: Vec<f64> = lines[1..=record.moves.len() + 1]
        .iter()
        .map(|l| l.split_whitespace().rev().find_map(|w| w.parse::<f64>().ok()).map_or(-1.0, |v| v))
        .collect();
    assert!(values.iter().all(|v| (0.0..=1.0).contains(v)), "{out}");
    let marked: Vec<&&str> = lines.iter().filter(|l| l.starts_with("mistake: ")).collect();
    assert!(marked.len() <= 3, "{out}");
    // Random moves against the computer: some lose, and the random side's are among them.
    assert!(!marked.is_empty(), "{out}");
    assert!(!out.contains("no move lost"), "{out}");
    assert!(marked.iter().any(|m| m.contains(" by white: ")), "white played at random: {out}");
    // Each mistake names its mover, and a mover's loss is at least a tenth.
    for m in &marked {
        assert!(m.contains(" by white: ") || m.contains(" by blue: "), "{m}");
    }
    // Bad input: one clear line.
    assert_error(&["review"], "required arguments were not provided: <RECORD> (tablero review --help)");
    assert_error(&["review", path.to_str().unwrap(), "--top", "0"], "invalid value '0' for '--top <TOP>'");
    assert_error(&["review", dir.to_str().unwrap()], "folder");
    let _ = std::fs::remove_dir_all(&dir);
}

/// Splits a shell command line of the docs: words, double-quoted words, and an optional
/// `| head -N`.
fn shell_words(line: &str) -> (Vec<String>, Option<usize>) {
    let (command, head) = match line.split_once(" | head -") {
        Some((c, n)) => (c, Some(n.trim().parse().expect("a head count"))),
        None => (line, None),
    };
    let mut words = Vec::new();
    let mut rest = command.trim();
    while !rest.is_empty() {
        if let Some(quoted) = rest.strip_prefix('"') {
            let end = quoted.find('"').expect("a closing quote");
            words.push(quoted[..end].to_string());
            rest = quoted[end + 1..].trim_start();
        } else {
            let end = rest.find(' ').unwrap_or(rest.len());
            words.push(rest[..end].to_string());
            rest = rest[end..].trim_start();
        }
    }
    (words, head)
}

/// docs/notation.md, the page a person reads to write positions, moves and records: every
/// position in it reads back to itself, its record loads, and its command-line session prints
/// what the page says.
#[test]
fn the_notation_page_says_what_tablero_does() {
    let page = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/docs/notation.md")).unwrap();
    let mut blocks: Vec<(String, Vec<&str>)> = Vec::new();
    let mut open: Option<(String, Vec<&str>)> = None;
    for line in page.lines() {
        if let Some(lang) = line.strip_prefix("```") {
            match open.take() {
                Some(block) => blocks.push(block),
                None => open = Some((lang.to_string(), Vec::new())),
            }
        } else if let Some((_, lines)) = open.as_mut() {
            lines.push(line);
        }
    }
    let positions: Vec<&str> = blocks.iter().filter(|b| b.0.is_empty()).flat_map(|b| b.1.clone()).collect();
    assert_eq!(positions.len(), 6, "a position for each of the four games, and two CTOR positions with options");
    for p in &positions {
        assert_eq!(p.parse::<AnyGame>().map(|g| g.to_string()).ok().as_deref(), Some(*p), "{p}");
    }
    let record = blocks.iter().find(|b| b.0 == "json").expect("an example record").1.join("\n");
    let loaded = tablero::record::Record::from_json(&record).expect("the example record loads");
    assert_eq!(loaded.moves.len(), 2);
    let dir = std::env::temp_dir().join(format!("tablero-notation-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("game.json"), &record).unwrap();
    let session = &blocks.iter().find(|b| b.0 == "sh").expect("a command-line session").1;
    let mut checked = 0;
    let mut i = 0;
    while i < session.len() {
        let command = session[i].strip_prefix("$ ").expect("a command line");
        let expected: Vec<&str> = session[i + 1..].iter().take_while(|l| !l.starts_with("$ ")).copied().collect();
        i += 1 + expected.len();
        let (words, head) = shell_words(command);
        assert_eq!(words[0], "tablero");
        let args: Vec<String> = words[1..]
            .iter()
            .map(|w| if w == "game.json" { dir.join(w).to_string_lossy().into_owned() } else { w.clone() })
            .collect();
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let (code, out, err) = tablero(&args);
        assert_eq!(code, 0, "{command}: {err}");
        let got: Vec<&str> = out.lines().take(head.unwrap_or(usize::MAX)).collect();
        assert_eq!(got, expected, "{command}");
        checked += 1;
    }
    assert_eq!(checked, 4);
    std::fs::remove_dir_all(&dir).ok();
}

/// `tablero help` says how CTOR's formats and turn power and Volterra's first player are
/// written, as the notation page does.
#[test]
fn help_says_how_the_game_options_are_written() {
    let (code, out, err) = tablero(&["help"]);
    assert_eq!(code, 0, "{err}");
    for needle in ["power=R", "landing-back", "landing=N", "1v1 to 3v3", "l or d of a start says who starts", "exact"] {
        assert!(out.contains(needle), "help lacks '{needle}':\n{out}");
    }
}

/// The usage comes from the commands themselves: `--version`, `--help` on every command, the
/// list of commands, shell completions, and clap's mistakes said in one line.
#[test]
fn help_version_and_completions_come_from_the_commands() {
    let (code, out, _) = tablero(&["--version"]);
    assert_eq!((code, out), (0, format!("tablero {}\n", env!("CARGO_PKG_VERSION"))));
    let (code, list, _) = tablero(&["--help"]);
    assert_eq!(code, 0);
    let commands = [
        "moves",
        "perft",
        "play",
        "match",
        "feed",
        "analyse",
        "engine",
        "check",
        "review",
        "sounds",
        "bench",
        "completions",
        "screenshot",
        "photo",
        "film",
        "bench-table",
        "keys",
        "replay",
        "watch",
    ];
    for c in commands {
        assert!(list.lines().any(|l| l.trim_start().starts_with(&format!("{c} "))), "--help lacks {c}:\n{list}");
        let (code, out, err) = tablero(&[c, "--help"]);
        assert_eq!(code, 0, "{c} --help: {err}");
        assert!(out.contains(&format!("Usage: tablero {c}")), "{c} --help:\n{out}");
    }
    assert_eq!(tablero(&["help"]).1, list, "tablero help is tablero --help");
    for shell in ["bash", "zsh", "fish"] {
        let (code, out, err) = tablero(&["completions", shell]);
        assert_eq!(code, 0, "{err}");
        assert!(out.contains("perft") && out.contains("divide") && out.contains("bench-table"), "{shell}:\n{out}");
    }
    assert_error(&["completions", "tcsh"], "invalid value 'tcsh'");
    assert_error(&["moves", ORDO, "--bogus"], "unknown option '--bogus' (tablero moves --help)");
    assert_error(&["keys", "x"], "unexpected argument 'x' (tablero keys --help)");
    assert_error(
        &["match", "ordo", "--a", "random", "--b", "random", "--games", "0", "--seed", "1"],
        "'0' is not a number of games",
    );
}

/// `tablero overlay`: a page for a game on a relay, or one line saying what is wrong.
#[test]
fn overlay_writes_the_relays_page_or_says_what_is_wrong() {
    let out = std::env::temp_dir().join(format!("tablero-cli-overlay-{}.html", std::process::id()));
    let place = "nats://relay.example:4222/00112233aabbccdd";
    let said = run(&["overlay", place, "--websocket", "8080", "--out", out.to_str().unwrap()]).unwrap();
    assert!(said.contains("through ws://relay.example:8080"), "{said}");
    assert!(std::fs::read_to_string(&out).unwrap().contains(r#""game":"00112233aabbccdd""#));
    std::fs::remove_file(&out).ok();
    assert_error(&["overlay", "http://x:1/abc", "--websocket", "8080", "--out", "o.html"], "is not a feed's address");
    assert_error(&["overlay", place, "--websocket", "http://r:80", "--out", "o.html"], "is not the relay's WebSocket");
    assert_error(&["overlay", place, "--websocket", "8080", "--out", "/proc/o.html"], "cannot write /proc/o.html");
}
