//! The live feed (`src/feed`): `/state`, `/events` and `/overlay` follow the game; every
//! listener gets every event once and in order; a listener that never reads is dropped without
//! slowing the game; bad requests get 4xx and change nothing; CTOR's unrevealed secret squares
//! are in no byte the server sends; and the overlay page, in headless Chromium, follows every
//! move within a second, from the feed or through a relay's WebSocket.

mod common;

use serde_json::Value;
use std::io::{Read, Write};
use std::net::TcpStream;
use std::sync::Arc;
use std::time::{Duration, Instant};
use tablero::feed::client::{Heard, watch};
use tablero::feed::server::{Server, serve};
use tablero::feed::{Feed, Phase, View};
use tablero::players::{Player, RandomPlayer};
use tablero::record::PlayerInfo;
use tablero::rules::{AnyGame, AnyMove, Game, Side, Variant};

fn players() -> [PlayerInfo; 2] {
    [("Ana", "human"), ("Bo", "ai:hard")].map(|(n, k)| PlayerInfo { name: n.into(), kind: k.into() })
}

/// A game shown on a feed, with times that depend only on the move number.
struct Table {
    feed: Arc<Feed>,
    id: u64,
    start: AnyGame,
    moves: Vec<AnyMove>,
    players: [PlayerInfo; 2],
}

impl Table {
    fn new(feed: &Arc<Feed>, start: AnyGame, id: u64) -> Table {
        let t = Table { feed: feed.clone(), id, start, moves: Vec::new(), players: players() };
        t.publish();
        t
    }

    fn publish(&self) {
        let times: Vec<u64> = (1..=self.moves.len() as u64).map(|i| 1_000_000 + i * 1000).collect();
        self.feed.publish(&View {
            game: self.id,
            start: &self.start,
            moves: &self.moves,
            times: &times,
            started_ms: 1_000_000,
            players: &self.players,
            phase: Phase::Play,
            sand: None,
        });
    }

    fn game(&self) -> AnyGame {
        let mut g = self.start.clone();
        for m in &self.moves {
            g.play_unchecked(m);
        }
        g
    }

    fn play(&mut self, mv: AnyMove) {
        self.moves.push(mv);
        self.publish();
    }
}

fn server(feed: &Arc<Feed>) -> Server {
    serve(feed.clone(), "127.0.0.1:0".parse().unwrap()).expect("the feed serves on a free port")
}

/// A raw request and the whole answer (the connection is closed after it).
fn raw(server: &Server, request: &[u8]) -> String {
    let mut s = TcpStream::connect(server.addr).unwrap();
    s.set_read_timeout(Some(Duration::from_secs(5))).unwrap();
    s.write_all(request).unwrap();
    let mut out = Vec::new();
    let _ = s.read_to_end(&mut out);
    String::from_utf8_lossy(&out).into_owned()
}

fn get(server: &Server, path: &str) -> String {
    raw(server, format!("GET {path} HTTP/1.1\r\nHost: test\r\nConnection: close\r\n\r\n").as_bytes())
}

fn status(answer: &str) -> u16 {
    answer.split(' ').nth(1).and_then(|c| c.parse().ok()).unwrap_or(0)
}

fn body(answer: &str) -> &str {
    answer.split_once("\r\n\r\n").map(|(_, b)| b).unwrap_or("")
}

fn state(server: &Server) -> Value {
    let answer = get(server, "/state");
    assert_eq!(status(&answer), 200, "{answer}");
    serde_json::from_str(body(&answer)).expect("/state is JSON")
}

/// Waits until `done`, up to `limit`.
fn wait_for(limit: Duration, mut done: impl FnMut() -> bool) -> bool {
    let until = Instant::now() + limit;
    while Instant::now() < until {
        if done() {
            return true;
        }
        std::thread::sleep(Duration::from_millis(5));
    }
    done()
}

#[test]
fn state_and_events_follow_moves_undo_redo_new_game_and_result() {
    let feed = Feed::new();
    let server = server(&feed);
    let listener = watch(&server.url()).unwrap();
    assert!(matches!(listener.heard.recv_timeout(Duration::from_secs(10)), Ok(Heard::State(s)) if s.seq == 0));
    assert!(wait_for(Duration::from_secs(10), || feed.listeners().0 == 1));
    let mut table = Table::new(&feed, Variant::Ordo.initial(), 1);
    let mut rng = RandomPlayer::new(5);
    for _ in 0..4 {
        let mv = rng.choose(&table.game()).unwrap();
        table.play(mv);
    }
    let s = state(&server);
    assert_eq!(s["variant"], "ordo");
    assert_eq!(s["players"][0]["name"], "Ana");
    assert_eq!(s["players"][1]["kind"], "ai:hard");
    assert_eq!(s["moves"].as_array().unwrap().len(), 4);
    assert_eq!(s["last"], table.moves[3].to_string());
    assert_eq!(s["after"]["position"], table.game().to_string());
    assert_eq!(s["moves"][1]["think_ms"], 1000);
    // The computer's evaluation of the position shown; one for another position is ignored.
    assert!(s["eval"].is_null());
    feed.evaluation(3, 0.9);
    assert!(state(&server)["eval"].is_null(), "an evaluation of an earlier position is not shown");
    feed.evaluation(4, 0.25);
    let s = state(&server);
    assert_eq!(s["eval"]["ply"], 4);
    assert_eq!(s["eval"]["chances"]["blue"], 0.75);
    assert_eq!(s["eval"]["text"], "blue better (75%)");
    assert!(s["after"]["score"]["text"].as_str().unwrap().starts_with("off the board"));
    // Undo, redo, another move.
    let last = table.moves.pop().unwrap();
    table.publish();
    table.moves.push(last.clone());
    table.publish();
    // A new game from the same start with the same players is still a new game.
    let mut next = Table::new(&feed, Variant::Ordo.initial(), 2);
    // Play it to the end: the result is announced once.
    while next.game().outcome().is_none() && next.moves.len() < 3000 {
        let mv = rng.choose(&next.game()).unwrap();
        next.play(mv);
    }
    let seq = feed.seq();
    let mut kinds = Vec::new();
    let mut seqs = Vec::new();
    assert!(wait_for(Duration::from_secs(20), || {
        for h in listener.heard.try_iter() {
            match h {
                Heard::State(s) => panic!("a second state: {s:?}"),
                Heard::Event(e) => {
                    seqs.push(e.seq);
                    kinds.push(e.what.kind());
                }
                Heard::Lost { why, .. } => panic!("the listener lost the feed: {why}"),
            }
        }
        seqs.last() == Some(&seq)
    }));
    assert_eq!(seqs, (1..=seq).collect::<Vec<_>>(), "every event once, in order");
    let count = |k: &str| kinds.iter().filter(|x| **x == k).count();
    assert_eq!(count("new_game"), 2);
    assert_eq!(count("undo"), 1);
    assert_eq!(count("redo"), 1);
    assert_eq!(count("move"), 4 + next.moves.len());
    assert_eq!(count("result"), usize::from(next.game().outcome().is_some()));
    assert_eq!(count("eval"), 1);
    let s = state(&server);
    assert_eq!(s["game"], 2);
    assert!(s["eval"].is_null(), "a new game has not been weighed yet");
    assert_eq!(s["after"]["result"].is_null(), next.game().outcome().is_none());
    // A late listener with `from` gets the events it missed that are still kept.
    let mut late = TcpStream::connect(server.addr).unwrap();
    late.write_all(format!("GET /events?from={} HTTP/1.1\r\nHost: t\r\n\r\n", seq - 1).as_bytes()).unwrap();
    late.set_read_timeout(Some(Duration::from_millis(100))).unwrap();
    let mut answer = Vec::new();
    assert!(wait_for(Duration::from_secs(10), || {
        let mut buf = [0u8; 65536];
        if let Ok(n) = late.read(&mut buf) {
            answer.extend_from_slice(&buf[..n]);
        }
        String::from_utf8_lossy(&answer).contains(&format!("id: {seq}\n"))
    }));
    let answer = String::from_utf8_lossy(&answer);
    assert!(
        answer.contains(&format!("id: {}\n", seq - 1)) && !answer.contains(&format!("id: {}\n", seq - 2)),
        "{answer}"
    );
}

#[test]
fn fifty_listeners_each_get_every_event_of_a_200_move_game_once_and_in_order() {
    let feed = Feed::new();
    let server = server(&feed);
    let listeners: Vec<_> = (0..50).map(|_| watch(&server.url()).unwrap()).collect();
    // Each has joined (read the state) before the game starts.
    let mut joined = [false; 50];
    assert!(wait_for(Duration::from_secs(20), || {
        for (i, l) in listeners.iter().enumerate() {
            if let Ok(Heard::State(_)) = l.heard.try_recv() {
                joined[i] = true;
            }
        }
        joined.iter().all(|j| *j)
    }));
    // Each has opened /events after its state.
    assert!(wait_for(Duration::from_secs(10), || feed.listeners().0 == 50));
    let mut rng = RandomPlayer::new(11);
    let mut table = Table::new(&feed, Variant::Crossings.initial(), 1);
    let mut played = 0;
    while played < 200 {
        if table.game().outcome().is_some() {
            table = Table::new(&feed, Variant::Crossings.initial(), 2 + played as u64);
        }
        let mv = rng.choose(&table.game()).unwrap();
        table.play(mv);
        played += 1;
        std::thread::sleep(Duration::from_millis(2));
    }
    let seq = feed.seq();
    assert!(seq >= 201);
    for (i, l) in listeners.iter().enumerate() {
        let mut seqs = Vec::new();
        assert!(
            wait_for(Duration::from_secs(20), || {
                for h in l.heard.try_iter() {
                    match h {
                        Heard::Event(e) => seqs.push(e.seq),
                        other => panic!("listener {i} heard {other:?} during the game"),
                    }
                }
                seqs.last() == Some(&seq)
            }),
            "listener {i} got {} of {seq} events",
            seqs.len()
        );
        assert_eq!(seqs, (1..=seq).collect::<Vec<_>>(), "listener {i}: every event once, in order");
    }
    assert_eq!(feed.listeners(), (50, 0), "none dropped");
}

#[test]
fn a_listener_that_never_reads_is_dropped_and_does_not_slow_the_game() {
    let feed = Feed::new();
    let server = server(&feed);
    let mut table = Table::new(&feed, "ctor10 ........../........../........../........../........../........../........../........../........../.......... b 1 P1M0L0 1v1 0".parse().unwrap(), 1);
    // The slow one asks for events and never reads a byte.
    let mut slow = TcpStream::connect(server.addr).unwrap();
    slow.write_all(b"GET /events HTTP/1.1\r\nHost: t\r\n\r\n").unwrap();
    let fast = watch(&server.url()).unwrap();
    assert!(wait_for(Duration::from_secs(10), || feed.listeners().0 == 2));
    let Ok(Heard::State(joined)) = fast.heard.recv_timeout(Duration::from_secs(5)) else { panic!("no state") };
    // Move, undo, move again, ...: many events, quickly, until the slow one is dropped.
    let first = table.game().legal_moves()[0].clone();
    let started = Instant::now();
    let mut slowest = Duration::ZERO;
    let mut n = 0u64;
    while feed.listeners().1 == 0 && n < 200_000 {
        let t = Instant::now();
        if table.moves.is_empty() {
            table.play(first.clone());
        } else {
            table.moves.clear();
            table.publish();
        }
        slowest = slowest.max(t.elapsed());
        n += 1;
        if n.is_multiple_of(64) {
            std::thread::sleep(Duration::from_millis(2)); // the fast listener keeps up
        }
    }
    let (now, dropped) = feed.listeners();
    assert_eq!(dropped, 1, "the slow listener is dropped after {n} events");
    assert_eq!(now, 1, "the fast listener stays");
    eprintln!(
        "slow listener dropped after {n} events in {:.2} s; slowest publish {:?}",
        started.elapsed().as_secs_f64(),
        slowest
    );
    // A publish that waited on the slow listener would wait for ever (it never reads): none
    // may take more than a moment, however full its connection is.
    assert!(slowest < Duration::from_millis(500), "a publish took {slowest:?}");
    // The game went on at full speed, and the fast listener has everything, in order.
    let seq = feed.seq();
    let mut last = joined.seq;
    assert!(wait_for(Duration::from_secs(30), || {
        for h in fast.heard.try_iter() {
            match h {
                Heard::Event(e) => {
                    let s = e.seq;
                    assert_eq!(s, last + 1, "in order, none missed");
                    last = s;
                }
                other => panic!("the fast listener heard {other:?}"),
            }
        }
        last == seq
    }));
    drop(slow);
}

#[test]
fn bad_requests_get_4xx_and_change_nothing() {
    let feed = Feed::new();
    let server = server(&feed);
    let mut table = Table::new(&feed, Variant::Ordo.initial(), 1);
    let mv = table.game().legal_moves()[0].clone();
    table.play(mv);
    let before = state(&server);
    let cases: [(Vec<u8>, u16); 14] = [
        (b"GARBAGE\r\n\r\n".to_vec(), 400),
        (b"GET /nope HTTP/1.1\r\nHost: t\r\nConnection: close\r\n\r\n".to_vec(), 404),
        (b"POST /state HTTP/1.1\r\nHost: t\r\nContent-Length: 2\r\nConnection: close\r\n\r\n{}".to_vec(), 405),
        (b"PUT /events HTTP/1.1\r\nHost: t\r\nContent-Length: 0\r\nConnection: close\r\n\r\n".to_vec(), 405),
        (b"DELETE /overlay HTTP/1.1\r\nHost: t\r\nConnection: close\r\n\r\n".to_vec(), 405),
        (b"GET /events?from=zz HTTP/1.1\r\nHost: t\r\nConnection: close\r\n\r\n".to_vec(), 400),
        (b"GET /events?from=99999 HTTP/1.1\r\nHost: t\r\nConnection: close\r\n\r\n".to_vec(), 400),
        (b"GET /events HTTP/1.1\r\nHost: t\r\nLast-Event-ID: x\r\nConnection: close\r\n\r\n".to_vec(), 400),
        (b"GET /state?move=e2-e4 HTTP/1.1\r\nHost: t\r\nConnection: close\r\n\r\n".to_vec(), 400),
        (b"GET /overlay?layout=diagonal HTTP/1.1\r\nHost: t\r\nConnection: close\r\n\r\n".to_vec(), 400),
        (b"GET /overlay?show=names,secrets HTTP/1.1\r\nHost: t\r\nConnection: close\r\n\r\n".to_vec(), 400),
        (b"GET /overlay?scale=1e9 HTTP/1.1\r\nHost: t\r\nConnection: close\r\n\r\n".to_vec(), 400),
        (b"GET /overlay?%zz HTTP/1.1\r\nHost: t\r\nConnection: close\r\n\r\n".to_vec(), 400),
        (b"GET /state HTTP/9.9\r\n\r\n".to_vec(), 400),
    ];
    for (request, want) in cases {
        let answer = raw(&server, &request);
        assert_eq!(status(&answer), want, "{} answered {answer}", String::from_utf8_lossy(&request));
    }
    assert_eq!(state(&server), before, "nothing changed");
    // A bad address is refused by name, and a wider address only when asked.
    assert!(tablero::feed::parse_addr("0.0.0.0:7878", false).unwrap_err().to_string().contains("--listen"));
    assert!(tablero::feed::parse_addr("0.0.0.0:7878", true).is_ok());
    assert!(tablero::feed::parse_addr("nowhere", true).is_err());
    // The game goes on and the feed with it.
    let mv = table.game().legal_moves()[0].clone();
    table.play(mv);
    assert_eq!(state(&server)["moves"].as_array().unwrap().len(), 2);
    let page = get(&server, "/overlay?show=names,clock,moves&layout=horizontal");
    assert_eq!(status(&page), 200);
    assert!(body(&page).contains("EventSource"));
}

/// Every byte the server sends during a game: the event stream, `/state` after every move,
/// and the overlay page, with the `date` header (which says when) left out.
fn everything_sent(start: &AnyGame, moves: &[AnyMove]) -> Vec<u8> {
    let feed = Feed::new();
    let server = server(&feed);
    let mut stream = TcpStream::connect(server.addr).unwrap();
    stream.write_all(b"GET /events?from=1 HTTP/1.1\r\nHost: t\r\n\r\n").unwrap();
    stream.set_read_timeout(Some(Duration::from_millis(200))).unwrap();
    let mut table = Table::new(&feed, start.clone(), 7);
    let mut sent = Vec::new();
    sent.extend(get(&server, "/state").into_bytes());
    for mv in moves {
        table.play(mv.clone());
        sent.extend(get(&server, "/state").into_bytes());
    }
    sent.extend(get(&server, "/overlay").into_bytes());
    let last = format!("id: {}\n", feed.seq());
    let mut events = Vec::new();
    let until = Instant::now() + Duration::from_secs(30);
    while !String::from_utf8_lossy(&events).contains(&last) && Instant::now() < until {
        let mut buf = [0u8; 65536];
        if let Ok(n) = stream.read(&mut buf) {
            events.extend_from_slice(&buf[..n]);
        }
    }
    sent.extend(events);
    let text = String::from_utf8(sent).unwrap();
    text.lines().filter(|l| !l.to_ascii_lowercase().starts_with("date:")).collect::<Vec<_>>().join("\n").into_bytes()
}

#[test]
fn unrevealed_secret_squares_are_in_no_byte_the_feed_sends() {
    use tablero::rules::ctor::{Ctor, CtorMove, SecretState};
    // A whole CTOR game with secret squares in which some secrets work and others never do.
    for seed in 0..40u64 {
        let mut a: Ctor =
            "ctor8 ......../......../......../......../......../......../......../........ b 1 P1M0L0 1v1 0"
                .parse()
                .unwrap();
        let mut rng = RandomPlayer::new(seed);
        let squares: Vec<u16> = (1..=64).collect();
        let pick = |k: u64| -> Vec<u16> { (0..5).map(|i| squares[((k * 13 + i * 7) % 64) as usize]).collect() };
        a.set_secrets(Side::First, &pick(seed)).unwrap();
        a.set_secrets(Side::Second, &pick(seed + 31)).unwrap();
        let start = AnyGame::Ctor(a.clone());
        let mut game = start.clone();
        let mut moves = Vec::new();
        while game.outcome().is_none() && moves.len() < 2000 {
            let mv = rng.choose(&game).unwrap();
            game.play_unchecked(&mv);
            moves.push(mv);
        }
        let AnyGame::Ctor(end) = &game else { unreachable!() };
        // The squares each team's opponent put a disc on: secrets there were hit.
        let mut hit = [std::collections::HashSet::new(), std::collections::HashSet::new()];
        let mut g = start.clone();
        for mv in &moves {
            let by = g.side_to_move();
            if let AnyMove::Ctor(CtorMove::Put(d) | CtorMove::Landing(_, _, d)) = mv {
                hit[by.other().index()].insert(*d);
            }
            g.play_unchecked(mv);
        }
        let revealed = |team: Side| -> Vec<u16> {
            end.secrets(team).iter().filter(|(_, s)| *s == SecretState::Revealed).map(|(q, _)| *q).collect()
        };
        let unrevealed_any = [Side::First, Side::Second]
            .iter()
            .any(|&t| end.secrets(t).iter().any(|(_, s)| *s != SecretState::Revealed));
        if revealed(Side::First).is_empty() && revealed(Side::Second).is_empty() || !unrevealed_any {
            continue; // this game does not exercise both; try another
        }
        // Game B: the same revealed secrets, every other one moved to a square never hit.
        let mut b = a.clone();
        let mut changed = 0;
        for team in [Side::First, Side::Second] {
            let mut chosen = revealed(team);
            for q in 1..=64u16 {
                if chosen.len() == 5 {
                    break;
                }
                if !hit[team.index()].contains(&q) && !a.secrets(team).iter().any(|(s, _)| *s == q) {
                    chosen.push(q);
                    changed += 1;
                }
            }
            if chosen.len() < 5 {
                break;
            }
            b.set_secrets(team, &chosen).unwrap();
        }
        if changed == 0 {
            continue;
        }
        let sent_a = everything_sent(&start, &moves);
        let sent_b = everything_sent(&AnyGame::Ctor(b.clone()), &moves);
        assert!(String::from_utf8_lossy(&sent_a).contains("SecretRevealed"), "a secret worked in the game");
        assert!(sent_a == sent_b, "the bytes sent depend only on the revealed secrets (seed {seed})");
        eprintln!(
            "seed {seed}: {} moves, {} bytes sent, secrets revealed {:?} / {:?}, {changed} unrevealed ones moved",
            moves.len(),
            sent_a.len(),
            revealed(Side::First),
            revealed(Side::Second)
        );
        return;
    }
    panic!("no seed gave a game with both revealed and unrevealed secrets");
}

/// One request to a local HTTP service (ChromeDriver), JSON in and out.
fn webdriver(port: u16, method: &str, path: &str, body: Option<&Value>) -> Value {
    let body = body.map(|b| b.to_string()).unwrap_or_default();
    let mut s = TcpStream::connect(("127.0.0.1", port)).unwrap();
    s.set_read_timeout(Some(Duration::from_secs(30))).unwrap();
    write!(
        s,
        "{method} {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    )
    .unwrap();
    // Read the answer as far as its length says (the driver keeps the connection open).
    let mut out = Vec::new();
    let mut buf = [0u8; 65536];
    loop {
        let text = String::from_utf8_lossy(&out).into_owned();
        if let Some((head, rest)) = text.split_once("\r\n\r\n") {
            let lower = head.to_ascii_lowercase();
            let length = lower
                .lines()
                .find_map(|l| l.strip_prefix("content-length:"))
                .and_then(|n| n.trim().parse::<usize>().ok());
            match length {
                Some(n) if rest.len() >= n => break,
                None if !lower.contains("chunked") || rest.ends_with("0\r\n\r\n") => break,
                _ => {}
            }
        }
        match s.read(&mut buf) {
            Ok(0) | Err(_) => break,
            Ok(n) => out.extend_from_slice(&buf[..n]),
        }
    }
    let text = String::from_utf8_lossy(&out).into_owned();
    let (head, rest) = text.split_once("\r\n\r\n").unwrap_or((&text, ""));
    let rest = if head.to_ascii_lowercase().contains("transfer-encoding: chunked") {
        // Chunks: a hexadecimal size line, the data, a blank line.
        let mut data = String::new();
        let mut r = rest;
        while let Some((size, tail)) = r.split_once("\r\n") {
            let n = usize::from_str_radix(size.trim(), 16).unwrap_or(0);
            if n == 0 {
                break;
            }
            data.push_str(&tail[..n]);
            r = &tail[n + 2..];
        }
        data
    } else {
        rest.to_string()
    };
    serde_json::from_str(&rest).unwrap_or(Value::Null)
}

/// Headless Chromium driven through ChromeDriver (Debian's `chromium` and `chromium-driver`).
struct Browser {
    driver: std::process::Child,
    port: u16,
    session: String,
    _profile: std::path::PathBuf,
}

impl Browser {
    fn open() -> Option<Browser> {
        let (chromium, driver) = ("/usr/bin/chromium", "/usr/bin/chromedriver");
        if !std::path::Path::new(chromium).exists() || !std::path::Path::new(driver).exists() {
            assert!(
                std::env::var_os("CI").is_none(),
                "CI: the browser test needs Debian's chromium and chromium-driver (.ci/run installs them)"
            );
            eprintln!("skipped: no {chromium} or {driver} (apt-get install chromium chromium-driver)");
            return None;
        }
        let port = std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port();
        let child = std::process::Command::new(driver)
            .arg(format!("--port={port}"))
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::null())
            .spawn()
            .expect("chromedriver starts");
        assert!(
            wait_for(Duration::from_secs(20), || TcpStream::connect(("127.0.0.1", port)).is_ok()
                && webdriver(port, "GET", "/status", None)["value"]["ready"] == true),
            "chromedriver is ready"
        );
        let profile = std::env::temp_dir().join(format!("tablero-chromium-{}-{port}", std::process::id()));
        let caps = serde_json::json!({ "capabilities": { "alwaysMatch": { "goog:chromeOptions": {
            "binary": chromium,
            "args": ["--headless", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                     "--disable-quic", "--no-first-run", "--disable-background-networking",
                     "--disable-component-update", "--disable-sync", "--window-size=1280,720",
                     format!("--user-data-dir={}", profile.display())],
        } } } });
        let answer = webdriver(port, "POST", "/session", Some(&caps));
        let session =
            answer["value"]["sessionId"].as_str().unwrap_or_else(|| panic!("no session: {answer}")).to_string();
        Some(Browser { driver: child, port, session, _profile: profile })
    }

    fn go(&self, url: &str) {
        webdriver(
            self.port,
            "POST",
            &format!("/session/{}/url", self.session),
            Some(&serde_json::json!({ "url": url })),
        );
    }

    /// Runs a script in the page and returns its value.
    fn run(&self, script: &str) -> Value {
        let body = serde_json::json!({ "script": script, "args": [] });
        webdriver(self.port, "POST", &format!("/session/{}/execute/sync", self.session), Some(&body))["value"].clone()
    }
}

impl Drop for Browser {
    fn drop(&mut self) {
        webdriver(self.port, "DELETE", &format!("/session/{}", self.session), None);
        let _ = self.driver.kill();
        let _ = self.driver.wait();
        let _ = std::fs::remove_dir_all(&self._profile);
    }
}

#[test]
fn the_overlay_page_in_chromium_follows_every_move_within_a_second() {
    let Some(browser) = Browser::open() else { return };
    let feed = Feed::new();
    let server = server(&feed);
    let mut table = Table::new(&feed, Variant::Ordo.initial(), 1);
    browser.go(&format!("{}/overlay?show=names,score,clock,last,moves,result,eval&layout=vertical", server.url()));
    let read = "return [document.querySelector('#player-0 .name').textContent, \
                document.querySelector('#player-1 .name').textContent, \
                document.getElementById('last').textContent, \
                document.getElementById('score').textContent, \
                document.getElementById('moves').children.length, \
                getComputedStyle(document.body).backgroundColor, \
                document.getElementById('status').textContent];";
    // The page has loaded the state.
    assert!(wait_for(Duration::from_secs(20), || browser.run(read)[0] == "Ana"), "{}", browser.run(read));
    let page = browser.run(read);
    assert_eq!(page[1], "Bo");
    assert_eq!(page[2], "no move yet");
    assert_eq!(page[5], "rgba(0, 0, 0, 0)", "the background is transparent");
    let mut rng = RandomPlayer::new(3);
    let mut delays = Vec::new();
    // Moves, and an undo and a redo in the middle.
    for k in 0..24 {
        let started = Instant::now();
        let expected_last = if k == 12 {
            let undone = table.moves.pop().unwrap();
            table.publish();
            let _ = undone;
            table.moves.last().map(|m| format!("last move: {m}")).unwrap()
        } else {
            let mv = rng.choose(&table.game()).unwrap();
            let text = format!("last move: {mv}");
            table.play(mv);
            text
        };
        let score = table.game().tally(&table.start).to_string();
        let n = table.moves.len().min(12) as u64;
        let ok = wait_for(Duration::from_secs(5), || {
            let p = browser.run(read);
            p[2] == expected_last.as_str() && p[3] == score.as_str() && p[4] == n
        });
        let delay = started.elapsed();
        assert!(ok, "move {k}: the page shows {} (wanted {expected_last}, {score})", browser.run(read));
        assert!(delay < Duration::from_secs(1), "move {k}: the page followed after {delay:?}");
        delays.push(delay);
        std::thread::sleep(Duration::from_millis(50));
    }
    assert_eq!(browser.run(read)[6], "", "the page never lost the feed");
    // The computer's evaluation: the bar and its words follow it.
    let bar = "return [document.querySelector('#eval .words').textContent, \
               document.querySelector('#eval .first').style.width, \
               getComputedStyle(document.getElementById('eval')).display];";
    assert_eq!(browser.run(bar)[0], "weighing...");
    feed.evaluation(table.moves.len(), 0.8);
    assert!(wait_for(Duration::from_secs(5), || browser.run(bar)[0] == "white better (80%)"), "{}", browser.run(bar));
    let shown = browser.run(bar);
    assert_eq!(shown[1], "80%");
    assert_ne!(shown[2], "none");
    delays.sort();
    eprintln!(
        "overlay delay from move to page over {} moves: median {:?}, max {:?}",
        delays.len(),
        delays[delays.len() / 2],
        delays[delays.len() - 1]
    );
    // A bad query is refused before any page.
    assert_eq!(status(&get(&server, "/overlay?layout=sideways")), 400);
}

#[test]
fn a_hosts_changes_are_announced_as_they_came_even_where_the_moves_end_the_same() {
    use tablero::table::Change;
    let feed = Feed::new();
    let mut table = Table::new(&feed, Variant::Crossings.initial(), 7);
    let mut rng = RandomPlayer::new(3);
    for _ in 0..2 {
        let mv = rng.choose(&table.game()).unwrap();
        table.play(mv);
    }
    let mut heard = feed.subscribe(None).unwrap();
    // The second move taken back and played again between two looks: the list of moves is the
    // same, the changes say what happened.
    let times: Vec<u64> = (1..=2).map(|i| 1_000_000 + i * 1000).collect();
    let view = View {
        game: 7,
        start: &table.start,
        moves: &table.moves,
        times: &times,
        started_ms: 1_000_000,
        players: &table.players,
        phase: Phase::Play,
        sand: None,
    };
    let again = table.moves[1].to_string();
    feed.publish_changes(&view, &[Change::Back { ply: 1 }, Change::Played { ply: 1, mv: again }]);
    let kinds: Vec<&str> = std::iter::from_fn(|| heard.try_recv().ok()).map(|e| e.kind).collect();
    assert_eq!(kinds, ["undo", "redo"]);
    // Changes that do not follow (a move the game does not have): the view stands, unchanged.
    feed.publish_changes(&view, &[Change::Played { ply: 5, mv: "x".into() }]);
    assert!(heard.try_recv().is_err(), "nothing announced: the game shown is the view's");
    assert_eq!(feed.state().shown.unwrap().moves.len(), 2);
}

/// The page `tablero overlay` writes, opened as a local file in Chromium: it follows a game on a
/// relay over NATS's WebSocket; a page opened while the host is away gets the game so far from
/// the relay's stream; the relay restarted, the page says so and follows on.
#[test]
fn the_overlay_page_follows_a_game_through_the_relays_websocket() {
    use tablero::net::host::{Host, HostOptions};
    let Some(browser) = Browser::open() else { return };
    let dir = std::env::temp_dir().join(format!("tablero-overlay-relay-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let ws = std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port();
    let conf = dir.join("relay.conf");
    std::fs::write(&conf, format!("websocket {{\n  port: {ws}\n  no_tls: true\n}}\n")).unwrap();
    let store = dir.join("jetstream");
    let Some(mut relay) =
        common::NatsServer::start(&["-c", conf.to_str().unwrap(), "-js", "-sd", store.to_str().unwrap()])
    else {
        return;
    };
    let relay_url = relay.url();
    let open_host = || {
        let host = Host::open(HostOptions {
            record: Some(dir.join("game.json")),
            relay: Some(relay_url.clone()),
            ..HostOptions::remote(Variant::Crossings.initial(), "127.0.0.1:0".parse().unwrap())
        })
        .unwrap();
        host.reach_relay(Duration::from_secs(10)).unwrap();
        host
    };
    let host = open_host();
    let address = host.relay.as_ref().unwrap().watch_link();
    let links = |host: &Host| -> Vec<Arc<dyn tablero::net::Link>> {
        host.invitations().iter().map(|(_, l)| tablero::net::Invitation::parse(l).unwrap().connect().unwrap()).collect()
    };
    let seats = links(&host);
    let mut played = vec![common::one_move(&seats), common::one_move(&seats)];
    // `tablero overlay` writes the page; the browser opens it as a file.
    let page = dir.join("overlay.html");
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_tablero"))
        .args(["overlay", &address, "--websocket", &ws.to_string(), "--out", page.to_str().unwrap()])
        .output()
        .unwrap();
    let said = String::from_utf8_lossy(&out.stdout).into_owned();
    assert!(out.status.success(), "{said}{}", String::from_utf8_lossy(&out.stderr));
    assert!(said.contains(&format!("ws://127.0.0.1:{ws}")) && said.contains("Local file"), "{said}");
    let url = format!("file://{}?show=names,last,moves", page.display());
    browser.go(&url);
    let read = "return [document.getElementById('last').textContent, \
                document.getElementById('moves').children.length, \
                document.getElementById('status').textContent, \
                document.getElementById('title').textContent];";
    let shows = |last: &str, n: usize| {
        let wanted = format!("last move: {last}");
        wait_for(Duration::from_secs(10), || {
            let p = browser.run(read);
            p[0] == wanted.as_str() && p[1] == n as u64
        })
    };
    assert!(shows(&played[1], 2), "the game so far: {}", browser.run(read));
    assert_eq!(browser.run(read)[3], "Crossings");
    let mut delays = Vec::new();
    for _ in 0..6 {
        let started = Instant::now();
        played.push(common::one_move(&seats));
        assert!(shows(played.last().unwrap(), played.len()), "{}", browser.run(read));
        delays.push(started.elapsed());
    }
    assert_eq!(browser.run(read)[2], "", "the page never lost the relay");
    // The host goes away: a page opened now gets the game so far from the relay's stream.
    drop(seats);
    drop(host);
    browser.go("about:blank");
    browser.go(&url);
    assert!(shows(played.last().unwrap(), played.len()), "without the host: {}", browser.run(read));
    // The relay restarts (its stream on disk): the page says so, then follows the host again.
    relay.down();
    assert!(
        wait_for(Duration::from_secs(15), || browser.run(read)[2].as_str().is_some_and(|s| s.contains("relay lost"))),
        "{}",
        browser.run(read)
    );
    relay.up();
    let host = open_host();
    let seats = links(&host);
    played.push(common::one_move(&seats));
    assert!(shows(played.last().unwrap(), played.len()), "after the relay's restart: {}", browser.run(read));
    assert_eq!(browser.run(read)[2], "");
    delays.sort();
    eprintln!(
        "overlay through the relay, move to page: median {:?}, max {:?}",
        delays[delays.len() / 2],
        delays[delays.len() - 1]
    );
    drop(host);
    let _ = std::fs::remove_dir_all(&dir);
}
