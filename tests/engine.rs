//! `tablero engine` through a pipe, as another program drives it: every command, the answers'
//! form, bad input answered with one `error` line while the engine stays up; and `tablero
//! analyse`.

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant};

struct Engine {
    child: Child,
    input: ChildStdin,
    lines: mpsc::Receiver<String>,
}

impl Engine {
    fn start() -> Engine {
        let mut child = Command::new(env!("CARGO_BIN_EXE_tablero"))
            .arg("engine")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .expect("the engine starts");
        let input = child.stdin.take().unwrap();
        let out = BufReader::new(child.stdout.take().unwrap());
        let (tx, lines) = mpsc::channel();
        std::thread::spawn(move || {
            for l in out.lines().map_while(Result::ok) {
                let _ = tx.send(l);
            }
        });
        Engine { child, input, lines }
    }

    fn send(&mut self, line: &str) {
        writeln!(self.input, "{line}").unwrap();
        self.input.flush().unwrap();
    }

    /// The next line, within `limit`.
    fn next(&self, limit: Duration) -> String {
        self.lines.recv_timeout(limit).unwrap_or_else(|_| panic!("no answer within {limit:?}"))
    }

    /// Lines up to and including `bestmove`.
    fn until_bestmove(&self, limit: Duration) -> Vec<String> {
        let mut out = Vec::new();
        loop {
            let l = self.next(limit);
            let done = l.starts_with("bestmove ");
            out.push(l);
            if done {
                return out;
            }
        }
    }
}

fn legal(position: &str, mv: &str) -> bool {
    let game: tablero::rules::AnyGame = position.parse().unwrap();
    tablero::rules::Game::parse_move(&game, mv).is_ok()
}

#[test]
fn the_engine_answers_every_command_in_every_variant() {
    let mut e = Engine::start();
    e.send("isready");
    assert_eq!(e.next(Duration::from_secs(5)), "readyok");
    for v in tablero::rules::Variant::ALL {
        let start = v.initial().to_string();
        e.send(&format!("position {start}"));
        e.send("go level easy");
        let lines = e.until_bestmove(Duration::from_secs(60));
        let info = lines.iter().find(|l| l.starts_with("info ")).unwrap_or_else(|| panic!("{v}: {lines:?}"));
        assert!(info.contains(" score ") && info.contains(" pv "), "{info}");
        let best = lines.last().unwrap().strip_prefix("bestmove ").unwrap();
        assert!(legal(&start, best), "{v}: bestmove {best} is legal");
        // The pv starts with the move played.
        assert!(info.split(" pv ").nth(1).unwrap().starts_with(best), "{info} / {best}");
    }
    // Moves after the position, nodes, and a timed search that gives info lines as it deepens.
    // Ordo's nodes are positions of master's full-width alpha-beta, CTOR's playouts.
    e.send("position ordo moves c2-c3 d7-d6");
    e.send("go nodes 300");
    let lines = e.until_bestmove(Duration::from_secs(60));
    assert!(lines[0].contains("positions 300"), "{lines:?}");
    e.send("position ctor8");
    e.send("go nodes 300");
    let lines = e.until_bestmove(Duration::from_secs(60));
    assert!(lines[0].contains("playouts 300"), "{lines:?}");
    e.send("position crossings");
    let started = Instant::now();
    e.send("go movetime 700");
    let lines = e.until_bestmove(Duration::from_secs(30));
    let took = started.elapsed();
    assert!(took >= Duration::from_millis(650) && took < Duration::from_secs(10), "{took:?}");
    assert!(lines.iter().filter(|l| l.starts_with("info depth")).count() >= 1, "{lines:?}");
    // stop ends a long search at once with a legal move; isready answers while it thinks.
    e.send("position ordo-x");
    e.send("go movetime 60000");
    e.send("isready");
    assert_eq!(e.next(Duration::from_secs(5)), "readyok");
    std::thread::sleep(Duration::from_millis(300));
    let started = Instant::now();
    e.send("stop");
    let lines = e.until_bestmove(Duration::from_secs(20));
    assert!(started.elapsed() < Duration::from_secs(10), "stop was quick");
    let best = lines.last().unwrap().strip_prefix("bestmove ").unwrap();
    assert!(legal(&tablero::rules::Variant::OrdoX.initial().to_string(), best), "{best}");
    e.send("quit");
    let status = e.child.wait().unwrap();
    assert!(status.success());
}

#[test]
fn bad_input_gets_one_error_line_and_the_engine_stays_up() {
    let mut e = Engine::start();
    let bad = [
        ("bogus", "error unknown command"),
        ("go", "error no position yet"),
        ("position", "error position takes"),
        ("position ordo nope", "error bad position"),
        ("position chess", "error"),
        ("position ordo moves c2-c3 zz", "error move 2"),
        ("position ordo moves e1-e8", "error move 1"),
        ("go level grandmaster", "error unknown level"),
        ("go nodes 0", "error nodes"),
        ("go nodes many", "error nodes"),
        ("go movetime -5", "error movetime"),
        ("go sideways 3", "error go takes"),
        ("seed x", "error seed"),
        ("\u{1b}[31m", "error unknown command"),
    ];
    for (line, want) in bad {
        e.send(line);
        let answer = e.next(Duration::from_secs(5));
        assert!(answer.starts_with(want), "{line:?} answered {answer:?}");
        e.send("isready");
        assert_eq!(e.next(Duration::from_secs(5)), "readyok", "still up after {line:?}");
    }
    // A bad position leaves the last good one: the game over there is refused.
    e.send("position ordo ......../........ w");
    assert!(e.next(Duration::from_secs(5)).starts_with("error"));
    e.send("position ordo moves c2-c3");
    // A second go while the first search runs (hard thinks long enough for it to arrive) is
    // refused, once, and the first search still answers.
    e.send("go level hard");
    e.send("go level easy");
    let mut lines = e.until_bestmove(Duration::from_secs(120));
    assert!(lines.last().is_some_and(|l| l.starts_with("bestmove ")), "{lines:?}");
    lines.retain(|l| l.starts_with("error"));
    assert_eq!(lines.len(), 1, "one refusal: {lines:?}");
    assert!(lines[0].contains("still thinking"), "{lines:?}");
    // End of input: the engine ends by itself.
    drop(e.input);
    let status = e.child.wait().unwrap();
    assert!(status.success());
}

#[test]
fn analyse_prints_the_best_moves_with_scores_and_lines() {
    let out = Command::new(env!("CARGO_BIN_EXE_tablero"))
        .args(["analyse", &tablero::rules::Variant::Crossings.initial().to_string(), "--level", "medium", "--top", "4"])
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let text = String::from_utf8(out.stdout).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 5, "{text}");
    for (i, l) in lines[1..].iter().enumerate() {
        assert!(l.starts_with(&format!("{}. ", i + 1)) && l.contains(" score 0.") && l.contains(" line "), "{l}");
        let mv = l.split_whitespace().nth(1).unwrap();
        assert!(legal(&tablero::rules::Variant::Crossings.initial().to_string(), mv), "{mv}");
    }
    for (args, want) in [
        (vec!["analyse"], "required arguments were not provided: <POSITION> (tablero analyse --help)"),
        (vec!["analyse", "ordo nope"], "bad position"),
        (vec!["analyse", "volterra", "--top", "0"], "--top"),
        (vec!["analyse", "volterra", "--level", "god"], "unknown level"),
    ] {
        let out = Command::new(env!("CARGO_BIN_EXE_tablero")).args(&args).output().unwrap();
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let err = String::from_utf8(out.stderr).unwrap();
        assert!(err.lines().count() == 1 && err.contains(want), "{args:?}: {err}");
    }
}

/// CTOR's opening through the engine, in all nine formats. The seed: "the team that plays first
/// puts 1 disc, the second team puts 2 discs, and then the first team may put 3 discs; after
/// this the game returns to the normal rules (the table)". The third turn takes three Puts and
/// refuses a Move; the engine's move in it is a Put or the end of the turn.
#[test]
fn ctor_opening_in_every_format() {
    let mut e = Engine::start();
    let empty = "......../......../......../......../......../......../......../........";
    for teams in ["1v1", "2v2", "3v3", "1v2", "2v1", "1v3", "3v1", "2v3", "3v2"] {
        let start = format!("ctor8 {empty} b 1 P1M0L0 {teams} 0");
        let third = format!("{start} moves P1 E P10 P20 E");
        e.send(&format!("position {third} P30 P40 P50 E"));
        e.send(&format!("position {third} P30 M30-31"));
        let err = e.next(Duration::from_secs(10));
        assert!(err.starts_with("error") && err.contains("M30-31") && err.contains("only puts"), "{teams}: {err}");
        e.send(&format!("position {third} P30 P40"));
        e.send("go nodes 64");
        let lines = e.until_bestmove(Duration::from_secs(30));
        let best = lines.last().unwrap().strip_prefix("bestmove ").unwrap().to_string();
        assert!(best == "E" || best.starts_with('P'), "{teams}: the third turn only puts, got {best}");
        let mut game = tablero::engine::position(&format!("{third} P30 P40")).unwrap();
        assert!(tablero::rules::Game::play_text(&mut game, &best).is_ok(), "{teams}: {best} is legal");
    }
    e.send("quit");
    assert!(e.child.wait().unwrap().success());
}
