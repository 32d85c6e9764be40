//! Helpers shared by the engine tests: the fixture tables of tests/fixtures (positions with
//! legal-move counts from independent implementations).
#![allow(dead_code)]

use tablero::rules::{AnyGame, Effect, Game};

/// One row of a fixture table: a position and its legal-move count and perft 2.
pub struct Row {
    pub line: usize,
    pub position: String,
    pub moves: u64,
    pub perft2: u64,
}

pub fn fixture(name: &str) -> Vec<Row> {
    let path = format!("{}/tests/fixtures/{name}", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("reading {path}: {e}"));
    text.lines()
        .enumerate()
        .skip(1)
        .filter(|(_, l)| !l.trim().is_empty())
        .map(|(i, l)| {
            let cols: Vec<&str> = l.split('\t').collect();
            assert_eq!(cols.len(), 3, "{name}:{} has {} columns", i + 1, cols.len());
            Row {
                line: i + 1,
                position: cols[0].to_string(),
                moves: cols[1].parse().unwrap(),
                perft2: cols[2].parse().unwrap(),
            }
        })
        .collect()
}

/// Checks every row's move count and perft 2, and returns the mismatches as text.
pub fn check_fixture(name: &str, parse: impl Fn(&str) -> AnyGame) -> Vec<String> {
    let mut bad = Vec::new();
    for row in fixture(name) {
        let game = parse(&row.position);
        let moves = game.legal_moves().len() as u64;
        let counted = game.count_moves();
        let perft2 = game.perft(2);
        if moves != row.moves || counted != row.moves || perft2 != row.perft2 {
            bad.push(format!(
                "{name}:{} {}: moves {moves} (counted {counted}) expected {}, perft2 {perft2} expected {}",
                row.line, row.position, row.moves, row.perft2
            ));
        }
    }
    bad
}

/// Whether two games are the same position in their whole state, not only in their strings:
/// every field equal, but for what a position string does not carry by design (Crossings'
/// history since the last capture, from which repetitions are counted; CTOR's secret squares,
/// sand-glass and timed-out turns, which live in the record).
pub fn same_position(a: &AnyGame, b: &AnyGame) -> bool {
    match (a, b) {
        (AnyGame::Crossings(x), AnyGame::Crossings(y)) => {
            use tablero::rules::Side;
            x.stones(Side::First) == y.stones(Side::First)
                && x.stones(Side::Second) == y.stones(Side::Second)
                && x.side_to_move() == y.side_to_move()
                && x.quiet() == y.quiet()
                && x.options() == y.options()
        }
        _ => a == b,
    }
}

/// Plays `mv` in `game`, prints the position reached, reads it back, and says what differs if
/// it is not the same position (see [`same_position`]).
pub fn check_reads_back_after(game: &AnyGame, mv: &tablero::rules::AnyMove) -> Result<(), String> {
    let mut next = game.clone();
    next.play(mv).map_err(|e| format!("{game}: {mv}: {e}"))?;
    let printed = next.to_string();
    let again: AnyGame = printed.parse().map_err(|e| format!("{game}: after {mv}: {printed:?} does not read: {e}"))?;
    if again.to_string() != printed {
        return Err(format!("{game}: after {mv}: {printed} reads back as {again}"));
    }
    if !same_position(&again, &next) {
        return Err(format!("{game}: after {mv}: {printed} reads back as another state:\n{again:?}\nnot\n{next:?}"));
    }
    Ok(())
}

/// Every legal move prints, parses back to the same move, and prints the same again.
pub fn check_round_trip(game: &AnyGame) {
    for mv in game.legal_moves() {
        let text = mv.to_string();
        let back = game.parse_move(&text).unwrap_or_else(|e| panic!("{game}: {text} does not parse back: {e}"));
        assert_eq!(back, mv, "{game}: {text}");
        assert_eq!(back.to_string(), text);
    }
}

/// A seeded random game from `start`: its record and every position along it.
pub fn random_record(start: AnyGame, seed: u64, max: usize) -> (tablero::record::Record, Vec<String>) {
    use rand::{Rng, SeedableRng, rngs::StdRng};
    let mut rng = StdRng::seed_from_u64(seed);
    let mut game = start;
    let players = [("Ana".to_string(), "human".to_string()), ("Bo".to_string(), "computer:random".to_string())];
    let mut rec = tablero::record::Record::new(&game, players);
    let mut seen = vec![game.to_string()];
    for _ in 0..max {
        let moves = game.legal_moves();
        if moves.is_empty() {
            break;
        }
        let mv = moves[rng.random_range(0..moves.len())].clone();
        game.play(&mv).unwrap();
        rec.push(&mv.to_string(), &game);
        seen.push(game.to_string());
    }
    (rec, seen)
}

/// Checks that `game.successors` gives the moves of `legal_moves` in order, each with the
/// position that playing it gives; returns each move with that position and its effects.
pub fn check_successors<G: Game + PartialEq>(game: &G) -> Vec<(G::Move, G, Vec<Effect>)> {
    let moves = game.legal_moves();
    let mut listed = Vec::new();
    game.successors(&mut |mv, next| listed.push((mv, next)));
    assert_eq!(listed.len(), moves.len(), "{game}");
    moves
        .into_iter()
        .zip(listed)
        .map(|(mv, (smv, next))| {
            let mut played = game.clone();
            let effects = played.play_unchecked(&mv);
            assert!(mv == smv && played == next, "{game}: {mv} gives {played}, successors {smv} and {next}");
            (mv, played, effects)
        })
        .collect()
}

/// A `nats-server` of the test's own on a free loopback port (the relay that games go
/// through), stopped when dropped. None, with the reason printed, where nats-server is not
/// installed and `CI` is unset (CI installs it: there it is a failure).
pub struct NatsServer {
    pub port: u16,
    child: Option<std::process::Child>,
    args: Vec<String>,
}

impl NatsServer {
    pub fn start(extra: &[&str]) -> Option<NatsServer> {
        let installed =
            std::process::Command::new("nats-server").arg("--version").output().is_ok_and(|o| o.status.success());
        if !installed {
            assert!(std::env::var_os("CI").is_none(), "nats-server is not installed (apt-get install nats-server)");
            eprintln!("skipped: nats-server is not installed (apt-get install nats-server)");
            return None;
        }
        let port = std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port();
        let mut args: Vec<String> =
            ["-a", "127.0.0.1", "-p", &port.to_string()].iter().map(|s| s.to_string()).collect();
        args.extend(extra.iter().map(|s| s.to_string()));
        let mut s = NatsServer { port, child: None, args };
        s.up();
        Some(s)
    }

    pub fn url(&self) -> String {
        format!("nats://127.0.0.1:{}", self.port)
    }

    /// Starts the server (again), and waits until it takes connections.
    pub fn up(&mut self) {
        let child = std::process::Command::new("nats-server")
            .args(&self.args)
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::null())
            .spawn()
            .expect("nats-server starts");
        self.child = Some(child);
        let start = std::time::Instant::now();
        while std::net::TcpStream::connect(("127.0.0.1", self.port)).is_err() {
            assert!(start.elapsed() < std::time::Duration::from_secs(10), "nats-server did not start");
            std::thread::sleep(std::time::Duration::from_millis(20));
        }
    }

    /// Stops the server (a relay that goes away mid-game).
    pub fn down(&mut self) {
        if let Some(mut c) = self.child.take() {
            let _ = c.kill();
            let _ = c.wait();
        }
    }
}

impl Drop for NatsServer {
    fn drop(&mut self) {
        self.down();
    }
}

/// `tablero join LINK --as PLAYER` in its own process, its copy of the record saved under
/// `data`.
pub fn join_saving(link: &str, player: &str, data: &std::path::Path) -> std::process::Child {
    std::process::Command::new(env!("CARGO_BIN_EXE_tablero"))
        .env("TABLERO_DATA_DIR", data)
        .args(["join", link, "--as", player])
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("the seat starts")
}

/// A process's exit code, standard output and standard error, once it ends.
pub fn finish(child: std::process::Child) -> (i32, String, String) {
    let out = child.wait_with_output().unwrap();
    (out.status.code().unwrap_or(-1), String::from_utf8(out.stdout).unwrap(), String::from_utf8(out.stderr).unwrap())
}

/// The seat whose turn it is (of `seats`, through the host) plays its first legal move.
pub fn one_move(seats: &[std::sync::Arc<dyn tablero::net::Link>]) -> String {
    use tablero::net::{Posted, Said, SentMove};
    for _ in 0..100 {
        for link in seats {
            let Ok(Some(v)) = link.view(None) else { continue };
            if !v.your_turn {
                continue;
            }
            let mv = tablero::net::join::game_of(&v).unwrap().legal_moves()[0].to_string();
            if link.say(&Said::Move(SentMove { seq: v.seq, mv: mv.clone() })).unwrap() == Posted::Taken {
                return mv;
            }
        }
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
    panic!("no seat could move");
}
