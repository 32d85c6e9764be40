//! Playing across machines on loopback: a headless host and remote seats in their own
//! processes, a seat's process killed and started again, the host killed and started again
//! with its record, and thousands of hostile requests that must leave the game unharmed.

mod common;

use common::{finish, join_saving};
use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};
use tablero::net::SeatView;
use tablero::net::host::{Host, HostOptions, Sitter};
use tablero::rules::Side;
use tablero::rules::{AnyGame, Game, Variant};

const BIN: &str = env!("CARGO_BIN_EXE_tablero");

fn dir(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("tablero-net-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// A headless host in its own process, and the invitations it printed.
struct HostProcess {
    child: Child,
    out: BufReader<std::process::ChildStdout>,
    invites: Vec<(String, String)>,
    /// The live feed's address, when the host serves one.
    feed: Option<String>,
}

impl HostProcess {
    fn start(position: &str, seats: &[&str], record: &Path) -> HostProcess {
        HostProcess::on(0, position, seats, record)
    }

    fn on(port: u16, position: &str, seats: &[&str], record: &Path) -> HostProcess {
        HostProcess::with(port, position, seats, &[], record)
    }

    fn with(port: u16, position: &str, seats: &[&str], extra: &[&str], record: &Path) -> HostProcess {
        let port = port.to_string();
        let mut args = vec!["host", position, "--headless", "--port", &port, "--linger", "3", "--record"];
        let rec = record.to_str().unwrap();
        args.push(rec);
        let seat_args: Vec<String> = seats.iter().map(|s| format!("--seat={s}")).collect();
        let mut cmd = Command::new(BIN);
        cmd.args(&args).args(&seat_args).args(extra).stdout(Stdio::piped()).stderr(Stdio::null());
        let mut child = cmd.spawn().expect("the host starts");
        let mut out = BufReader::new(child.stdout.take().unwrap());
        let mut invites = Vec::new();
        let mut feed = None;
        loop {
            let mut line = String::new();
            assert!(out.read_line(&mut line).unwrap() > 0, "the host ended before serving");
            if let Some(rest) = line.trim().strip_prefix("invite ") {
                let (seat, link) = rest.split_once(": ").unwrap();
                invites.push((seat.to_string(), link.to_string()));
            } else if let Some(rest) = line.trim().strip_prefix("feed: ") {
                feed = rest.split_whitespace().next().map(str::to_string);
            } else if line.starts_with("record: ") {
                break;
            }
        }
        HostProcess { child, out, invites, feed }
    }

    fn invite(&self, seat: &str) -> String {
        self.invites.iter().find(|(s, _)| s == seat).map(|(_, l)| l.clone()).expect("an invitation")
    }

    /// The result line the host prints at the end.
    fn result(&mut self) -> String {
        let mut line = String::new();
        self.out.read_line(&mut line).unwrap();
        line.trim().to_string()
    }
}

impl Drop for HostProcess {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn join(link: &str, player: &str) -> Child {
    join_saving(link, player, &std::env::temp_dir().join(format!("tablero-net-seats-{}", std::process::id())))
}

/// The moves a record holds.
fn moves_in(record: &Path) -> usize {
    std::fs::read_to_string(record)
        .ok()
        .and_then(|t| tablero::record::Record::from_json(&t).ok())
        .map_or(0, |r| r.moves.len())
}

fn wait_for(limit: Duration, mut f: impl FnMut() -> bool) -> bool {
    let start = Instant::now();
    while start.elapsed() < limit {
        if f() {
            return true;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    false
}

#[test]
fn a_whole_game_of_every_variant_between_a_host_and_a_remote_seat() {
    let d = dir("whole");
    for (i, variant) in Variant::ALL.into_iter().enumerate() {
        let record = d.join(format!("{variant}.json"));
        // The remote seat is the first in one game, the second in the next.
        let (remote, here) = if i % 2 == 0 { ("first", "second") } else { ("second", "first") };
        let mut host = HostProcess::start(variant.name(), &[&format!("{here}=random")], &record);
        assert_eq!(host.invites.len(), 1, "{variant}: one remote seat, one invitation");
        let data = d.join(format!("seat-{variant}"));
        let seat = join_saving(&host.invite(remote), "random", &data);
        let (code, out, err) = finish(seat);
        assert_eq!(code, 0, "{variant}: {err}");
        let result = host.result();
        assert!(result.starts_with("result: "), "{variant}: {result}");
        assert_eq!(out.trim(), result, "{variant}: both machines see the same end");
        // Both machines saved the record: the seat's copy has the host's moves.
        let copies: Vec<_> = std::fs::read_dir(data.join("games")).unwrap().flatten().map(|e| e.path()).collect();
        assert_eq!(copies.len(), 1, "{variant}: the seat saved one record");
        let (mine, _) = tablero::record::load(&copies[0]).unwrap();
        let (theirs, _) = tablero::record::load(&record).unwrap();
        let moves = |r: &tablero::record::Record| r.moves.iter().map(|m| m.mv.clone()).collect::<Vec<_>>();
        assert_eq!(moves(&mine), moves(&theirs), "{variant}: the seat's copy");
        assert_eq!(mine.result, theirs.result);
        // The record is the game: it replays to the same result.
        let check = Command::new(BIN).args(["check", record.to_str().unwrap()]).output().unwrap();
        assert!(String::from_utf8(check.stdout).unwrap().ends_with(&format!("{result}\n")), "{variant}");
        // The tokens are beside the record, readable by the owner only, and not in it.
        let seats = tablero::net::host::seats_path(&record);
        use std::os::unix::fs::PermissionsExt;
        assert_eq!(std::fs::metadata(&seats).unwrap().permissions().mode() & 0o777, 0o600);
        let token = host.invite(remote).split("token=").nth(1).unwrap().to_string();
        assert!(!std::fs::read_to_string(&record).unwrap().contains(&token), "{variant}: a token in the record");
    }
    std::fs::remove_dir_all(&d).ok();
}

#[test]
fn two_remote_seats_each_in_its_own_process() {
    let d = dir("two");
    let record = d.join("game.json");
    let mut host = HostProcess::start("ordo-x", &[], &record);
    assert_eq!(host.invites.len(), 2);
    let a = join(&host.invite("first"), "ai:easy");
    let b = join(&host.invite("second"), "random");
    let (ca, oa, ea) = finish(a);
    let (cb, ob, eb) = finish(b);
    assert_eq!((ca, cb), (0, 0), "{ea} {eb}");
    let result = host.result();
    assert_eq!((oa.trim(), ob.trim()), (result.as_str(), result.as_str()));
    std::fs::remove_dir_all(&d).ok();
}

#[test]
fn a_seat_killed_mid_game_comes_back_and_finds_the_game_as_it_is() {
    let d = dir("seat-killed");
    let record = d.join("game.json");
    // The computer at the host thinks a little, so the game lasts a while.
    let mut host = HostProcess::start("ordo", &["second=ai:medium"], &record);
    let link = host.invite("first");
    let mut seat = join(&link, "random");
    assert!(wait_for(Duration::from_secs(60), || moves_in(&record) >= 6), "moves were played");
    seat.kill().unwrap();
    seat.wait().unwrap();
    std::thread::sleep(Duration::from_millis(300));
    let before = moves_in(&record);
    // (A move the seat sent as it was killed may still land, and the computer answer it.)
    let gone = moves_in(&record);
    std::thread::sleep(Duration::from_millis(1500));
    assert_eq!(moves_in(&record), gone, "nobody plays for the seat while it is gone");
    // The same invitation, a new process: the game goes on from where it stands.
    let (code, out, err) = finish(join(&link, "random"));
    assert_eq!(code, 0, "{err}");
    assert_eq!(out.trim(), host.result());
    assert!(moves_in(&record) > before);
    std::fs::remove_dir_all(&d).ok();
}

#[test]
fn a_host_killed_and_started_again_reopens_the_same_seats_and_loses_nothing() {
    let d = dir("host-killed");
    let record = d.join("game.json");
    let position = "crossings";
    let port = std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port();
    let host = HostProcess::on(port, position, &["second=ai:medium"], &record);
    let link = host.invite("first");
    let seat = join(&link, "random");
    assert!(wait_for(Duration::from_secs(60), || moves_in(&record) >= 6), "moves were played");
    drop(host); // killed
    let kept = moves_in(&record);
    assert!(kept >= 6);
    // Started again with the same record: the same invitation, every move kept.
    std::thread::sleep(Duration::from_millis(500));
    let mut again = HostProcess::on(port, position, &["second=ai:medium"], &record);
    assert_eq!(again.invite("first"), link, "the same seat, the same invitation");
    let (code, out, err) = finish(seat);
    assert_eq!(code, 0, "{err}");
    assert!(err.contains("reconnecting"), "the seat said it was reconnecting: {err}");
    assert_eq!(out.trim(), again.result());
    let (r, positions) = tablero::record::load(&record).unwrap();
    assert!(r.moves.len() > kept && positions.last().unwrap().outcome().is_some());
    std::fs::remove_dir_all(&d).ok();
}

/// One raw request: the status and the body.
fn raw(addr: &std::net::SocketAddr, text: &[u8]) -> (u16, String) {
    let mut s = TcpStream::connect(addr).unwrap();
    s.set_read_timeout(Some(Duration::from_secs(30))).unwrap();
    s.write_all(text).unwrap();
    let mut answer = String::new();
    let _ = s.read_to_string(&mut answer);
    let status = answer.split_whitespace().nth(1).and_then(|c| c.parse().ok()).unwrap_or(0);
    (status, answer.split_once("\r\n\r\n").map(|(_, b)| b.to_string()).unwrap_or_default())
}

fn post(addr: &std::net::SocketAddr, token: Option<&str>, body: &str) -> (u16, String) {
    let auth = token.map(|t| format!("Authorization: Bearer {t}\r\n")).unwrap_or_default();
    let req = format!(
        "POST /seat/move HTTP/1.1\r\nHost: x\r\n{auth}Connection: close\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\r\n{body}",
        body.len()
    );
    raw(addr, req.as_bytes())
}

fn get(addr: &std::net::SocketAddr, token: Option<&str>, path: &str) -> (u16, String) {
    let auth = token.map(|t| format!("Authorization: Bearer {t}\r\n")).unwrap_or_default();
    raw(addr, format!("GET {path} HTTP/1.1\r\nHost: x\r\n{auth}Connection: close\r\n\r\n").as_bytes())
}

/// A seat's `GET /seat` answered within `limit`: its status, or None.
fn get_within(addr: &std::net::SocketAddr, token: &str, limit: Duration) -> Option<u16> {
    let mut s = TcpStream::connect_timeout(addr, limit).ok()?;
    s.set_read_timeout(Some(limit)).ok()?;
    s.write_all(
        format!("GET /seat HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer {token}\r\nConnection: close\r\n\r\n")
            .as_bytes(),
    )
    .ok()?;
    let mut answer = String::new();
    s.read_to_string(&mut answer).ok()?;
    answer.split_whitespace().nth(1).and_then(|c| c.parse().ok())
}

#[test]
fn hostile_requests_are_refused_with_a_clear_4xx_and_change_nothing() {
    let d = dir("hostile");
    let start: AnyGame = Variant::Ordo.initial();
    let host = Host::open(HostOptions {
        record: Some(d.join("game.json")),
        ..HostOptions::remote(start.clone(), "127.0.0.1:0".parse().unwrap())
    })
    .unwrap();
    let addr = host.addr;
    let invites = host.invitations();
    let token = |k: usize| invites[k].1.split("token=").nth(1).unwrap().to_string();
    let (white, blue) = (token(0), token(1));
    let legal = start.legal_moves()[0].to_string();
    let wrong = "0123456789abcdef0123456789abcdef";
    let mut rng = 12345u64;
    let mut next = || {
        rng ^= rng << 13;
        rng ^= rng >> 7;
        rng ^= rng << 17;
        rng
    };
    for i in 0..2000 {
        let (status, body) = match next() % 11 {
            0 => post(&addr, None, &format!("{{\"seq\":0,\"move\":\"{legal}\"}}")),
            1 => post(&addr, Some(wrong), &format!("{{\"seq\":0,\"move\":\"{legal}\"}}")),
            2 => post(&addr, Some(&blue), &format!("{{\"seq\":0,\"move\":\"{legal}\"}}")),
            3 => post(&addr, Some(&white), &format!("{{\"seq\":{},\"move\":\"{legal}\"}}", 1 + next() % 100)),
            4 => post(&addr, Some(&white), "{\"seq\":0,\"move\":\"a1-a8\"}"),
            5 => post(&addr, Some(&white), "{\"seq\":0,\"move\":"),
            6 => post(&addr, Some(&white), &format!("{{\"seq\":0,\"move\":\"{legal}\",\"also\":1}}")),
            7 => post(&addr, Some(&white), &format!("{{\"seq\":0,\"move\":\"{}\"}}", "x".repeat(2000))),
            8 => get(&addr, None, "/seat"),
            9 => get(&addr, Some(&white[..31]), "/seat"),
            _ => get(&addr, Some(&white), "/seat?wait=zz"),
        };
        assert!((400..500).contains(&status), "request {i}: {status} {body}");
        assert!(!body.contains(&white) && !body.contains(&blue), "a token in an answer");
        assert_eq!(body.trim().lines().count(), 1, "one line: {body}");
        if i % 97 == 0 {
            std::thread::sleep(Duration::from_millis(1100)); // under the rate limit now and then
        }
    }
    assert_eq!(host.game().to_string(), start.to_string(), "the game is unharmed");
    // What each refusal says.
    std::thread::sleep(Duration::from_millis(1100));
    assert_eq!(post(&addr, None, "{}").0, 401);
    assert_eq!(post(&addr, Some(&blue), &format!("{{\"seq\":0,\"move\":\"{legal}\"}}")).0, 403);
    assert_eq!(post(&addr, Some(&white), &format!("{{\"seq\":3,\"move\":\"{legal}\"}}")).0, 409);
    assert_eq!(post(&addr, Some(&white), "{\"seq\":0,\"move\":\"a1-a8\"}").0, 422);
    assert_eq!(post(&addr, Some(&white), "not json").0, 400);
    assert_eq!(post(&addr, Some(&white), &"{".repeat(4096)).0, 413);
    assert_eq!(get(&addr, Some(&white), "/nowhere").0, 404);
    assert_eq!(raw(&addr, b"DELETE /seat HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n").0, 405);
    // One Authorization header, the token alone: two headers (the first one the mover's), a
    // token with anything after it, or another scheme are malformed requests, and play nothing.
    let mv = format!("{{\"seq\":0,\"move\":\"{legal}\"}}");
    for auth in [
        format!("Authorization: Bearer {white}\r\nAuthorization: Bearer {blue}\r\n"),
        format!("Authorization: Bearer {white}\r\nAuthorization: Bearer {white}\r\n"),
        format!("Authorization: Bearer {white} {blue}\r\n"),
        format!("Authorization: Bearer {white}x\r\n"),
        format!("Authorization: Bearer {white},\r\n"),
        format!("Authorization: Bearer  {white}\r\n"),
        format!("Authorization: Basic {white}\r\n"),
    ] {
        let req = format!(
            "POST /seat/move HTTP/1.1\r\nHost: x\r\n{auth}Connection: close\r\nContent-Length: {}\r\n\r\n{mv}",
            mv.len()
        );
        let (status, body) = raw(&addr, req.as_bytes());
        assert_eq!(status, 400, "{auth}: {body}");
        assert!(body.contains("Authorization"), "{body}");
    }
    assert_eq!(host.game().to_string(), start.to_string(), "nothing played with a malformed header");
    // A slow sender: the body never comes whole.
    let req = format!(
        "POST /seat/move HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer {white}\r\nConnection: close\r\nContent-Length: 40\r\n\r\n{{\"seq\""
    );
    let started = Instant::now();
    assert_eq!(raw(&addr, req.as_bytes()).0, 408);
    assert!(started.elapsed() < Duration::from_secs(10));
    // Slow and silent clients: more connections than the host serves at once, each sending half
    // a request head and then nothing. The seats still play once those are closed, within the
    // head's time limit (5 s), and every one of them is closed.
    let mut idle: Vec<TcpStream> = (0..300)
        .filter_map(|_| TcpStream::connect(addr).ok())
        .inspect(|s| {
            let mut s = s;
            let _ = s.write_all(b"GET /seat HTTP/1.1\r\nHost: x\r\nAutho");
        })
        .collect();
    assert!(idle.len() >= 250, "the connections were made");
    let started = Instant::now();
    assert!(
        wait_for(Duration::from_secs(9), || get_within(&addr, &white, Duration::from_millis(500)) == Some(200)),
        "a seat is served again once the slow clients are closed"
    );
    assert!(started.elapsed() < Duration::from_secs(8));
    for s in &mut idle {
        s.set_read_timeout(Some(Duration::from_secs(8))).unwrap();
        let mut rest = Vec::new();
        // Closed: the end of the stream, or a reset (a connection refused at once, its half
        // head unread); not still open when the read times out.
        let closed = match s.read_to_end(&mut rest) {
            Ok(_) => true,
            Err(e) => !matches!(e.kind(), std::io::ErrorKind::WouldBlock | std::io::ErrorKind::TimedOut),
        };
        assert!(closed, "a silent connection is closed by the host");
    }
    assert!(started.elapsed() < Duration::from_secs(12), "closed within the head's time limit");
    drop(idle);
    std::thread::sleep(Duration::from_millis(1100));
    // Too many requests from one seat.
    let statuses: Vec<u16> = (0..150).map(|_| get(&addr, Some(&white), "/seat").0).collect();
    assert!(statuses.contains(&429), "the rate is bounded");
    std::thread::sleep(Duration::from_millis(1100));
    // The pages anyone may read hold no token.
    for page in ["/", "/join"] {
        let (status, body) = get(&addr, None, page);
        assert_eq!(status, 200);
        assert!(!body.contains(&white) && !body.contains(&blue));
    }
    // And the game goes on: the seat on turn plays, the other sees it at once.
    let version = view(&addr, &blue).0.version;
    let waiting = {
        let blue = blue.clone();
        std::thread::spawn(move || {
            let started = Instant::now();
            let (status, body) = get(&addr, Some(&blue), &format!("/seat?wait={version}"));
            (status, body, started)
        })
    };
    std::thread::sleep(Duration::from_millis(200));
    let sent = Instant::now();
    assert_eq!(post(&addr, Some(&white), &format!("{{\"seq\":0,\"move\":\"{legal}\"}}")).0, 200);
    let (status, body, _) = waiting.join().unwrap();
    let delay = sent.elapsed();
    assert_eq!(status, 200);
    let view: tablero::net::SeatView = serde_json::from_str(&body).unwrap();
    assert_eq!((view.seq, view.your_turn, view.moves.clone()), (1, true, vec![legal.clone()]));
    eprintln!("a move at one seat reached the other's waiting request in {delay:?}");
    assert_eq!(post(&addr, Some(&white), &format!("{{\"seq\":0,\"move\":\"{legal}\"}}")).0, 403, "a doubled move");
    drop(host);
    std::fs::remove_dir_all(&d).ok();
}

#[test]
fn invitations_and_seats_are_read_strictly() {
    use tablero::net::{Invitation, Token};
    let t = Token::new().unwrap();
    let second = tablero::net::SeatId::new(tablero::rules::Side::Second, 0);
    let link = Invitation::link(&"127.0.0.1:7979".parse().unwrap(), second, false, &t, None);
    let inv = Invitation::parse(&link).unwrap();
    assert_eq!(
        (inv.addr.as_str(), inv.seat, inv.token.as_str()),
        ("127.0.0.1:7979", tablero::rules::Side::Second, t.hex().as_str())
    );
    assert!(t.matches(t.hex().as_bytes()) && !t.matches(&t.hex().as_bytes()[..31]) && !t.matches(b"x"));
    assert_eq!(format!("{t:?}"), "Token(…)", "a token is never printed by accident");
    for bad in [
        "",
        "http://h:1/join#seat=first",
        "http://h:1/join#seat=third&token=00",
        "ftp://x",
        "http://h/join#seat=first&token=zz",
        "http://h:1/join#seat=first.4&token=0123456789abcdef0123456789abcdef",
        "http://h:1/join#seat=first.0&token=0123456789abcdef0123456789abcdef",
    ] {
        assert!(Invitation::parse(bad).is_err(), "{bad}");
    }
    for (args, want) in [
        (vec!["host", "ordo", "--headless", "--seat", "third=remote"], "is not a seat of ordo"),
        (vec!["host", "ordo", "--headless", "--seat", "white=wizard"], "is not who sits there"),
        (vec!["host", "ordo", "--headless", "--seat", "first=remote", "--seat", "white=random"], "given twice"),
        (vec!["host", "ordo", "--headless", "--port", "0.0.0.0:7979"], "--listen"),
        (vec!["host", "ordo", "--seat", "first=remote"], "seats one person"),
        (vec!["host", "ordo", "--headless", "--seat", "first=person"], "needs the table"),
        (vec!["join", "nonsense", "--as", "random"], "is not an invitation"),
        (vec!["host", "ordo", "--headless", "--seat", "first.2=remote"], "has 1 member"),
        (vec!["host", "ordo", "--headless", "--timer", "10"], "only in CTOR"),
        (vec!["host", "ctor8", "--headless", "--timer", "7"], "5, 10, 15 or 30"),
    ] {
        let out = Command::new(BIN).args(&args).output().unwrap();
        let err = String::from_utf8(out.stderr).unwrap();
        assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
        assert!(err.lines().count() == 1 && err.contains(want), "{args:?}: {err}");
    }
}

/// An empty CTOR 8 × 8 field, one against one.
const CTOR_1V1: &str = "ctor8 ......../......../......../......../......../......../......../........ b 1 P1M0L0 1v1 0";

/// An empty CTOR 8 × 8 field for teams of two.
const CTOR_2V2: &str = "ctor8 ......../......../......../......../......../......../......../........ b 1 P1M0L0 2v2 0";

/// Everything a spectator's `/events` stream sends until it has been read for `limit` or the
/// game's result has come.
fn spectate(feed: String, limit: Duration) -> std::thread::JoinHandle<String> {
    std::thread::spawn(move || {
        let addr = feed.trim_start_matches("http://").to_string();
        let mut s = TcpStream::connect(&addr).unwrap();
        s.set_read_timeout(Some(Duration::from_millis(500))).unwrap();
        s.write_all(b"GET /events HTTP/1.1\r\nHost: x\r\n\r\n").unwrap();
        let (started, mut got) = (Instant::now(), Vec::new());
        let mut buf = [0u8; 8192];
        while started.elapsed() < limit {
            match s.read(&mut buf) {
                Ok(0) => break,
                Ok(n) => got.extend_from_slice(&buf[..n]),
                Err(_) => {}
            }
            if String::from_utf8_lossy(&got).contains("event: result") {
                break;
            }
        }
        String::from_utf8_lossy(&got).to_string()
    })
}

#[test]
fn a_ctor_2v2_with_each_member_in_its_own_process_and_a_spectator_on_the_feed() {
    let d = dir("2v2");
    let record = d.join("game.json");
    let mut host = HostProcess::with(0, CTOR_2V2, &[], &["--feed=0", "--secrets"], &record);
    let names: Vec<&str> = host.invites.iter().map(|(s, _)| s.as_str()).collect();
    assert_eq!(names, ["first.1", "first.2", "second.1", "second.2"], "one invitation per member");
    let spectator = spectate(host.feed.clone().expect("the host serves the feed"), Duration::from_secs(120));
    let members: Vec<Child> = host
        .invites
        .iter()
        .zip(["ai:easy", "random", "ai:medium", "random"])
        .map(|((_, link), who)| join(link, who))
        .collect();
    let ends: Vec<(i32, String, String)> = members.into_iter().map(finish).collect();
    let result = host.result();
    for (code, out, err) in &ends {
        assert_eq!(*code, 0, "{err}");
        assert_eq!(out.trim(), result, "every member sees the same end");
    }
    // The record is a team game: every Put names its member, and it checks.
    let (r, _) = tablero::record::load(&record).unwrap();
    let team = r.team.as_ref().expect("a team record");
    assert!(r.secrets.is_some(), "the teams' secret squares, chosen at their machines, are in the record");
    assert_eq!(team.seats.clone().map(|s| s.len()), [2, 2]);
    let puts: Vec<_> = r.moves.iter().filter(|m| m.mv.starts_with('P')).collect();
    assert!(puts.iter().all(|m| m.member.is_some()), "every Put names its member");
    assert!(puts.iter().any(|m| m.member == Some(1)), "the second members put too");
    let check = Command::new(BIN).args(["check", record.to_str().unwrap()]).output().unwrap();
    assert!(String::from_utf8(check.stdout).unwrap().ends_with(&format!("{result}\n")));
    // What the spectator received: the game, no token.
    let seen = spectator.join().unwrap();
    assert!(seen.contains("event: result"), "the spectator saw the end");
    for (_, link) in &host.invites {
        let token = link.split("token=").nth(1).unwrap();
        assert!(!seen.contains(token), "a token on the feed");
    }
    std::fs::remove_dir_all(&d).ok();
}

/// A seat's token from its invitation.
fn token_of(link: &str) -> String {
    link.split("token=").nth(1).unwrap().to_string()
}

fn view(addr: &std::net::SocketAddr, token: &str) -> (SeatView, String) {
    let (status, body) = get(addr, Some(token), "/seat");
    assert_eq!(status, 200, "{body}");
    (serde_json::from_str(&body).unwrap(), body)
}

fn send(addr: &std::net::SocketAddr, token: &str, path: &str, body: &str) -> (u16, String) {
    let req = format!(
        "POST {path} HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer {token}\r\nConnection: close\r\nContent-Length: {}\r\n\r\n{body}",
        body.len()
    );
    raw(addr, req.as_bytes())
}

#[test]
fn a_members_blind_puts_reach_only_the_host_until_they_are_played() {
    let d = dir("blind");
    let start: AnyGame = CTOR_2V2.parse().unwrap();
    let host = Host::open(HostOptions {
        record: Some(d.join("game.json")),
        feed: Some("127.0.0.1:0".parse().unwrap()),
        ..HostOptions::remote(start, "127.0.0.1:0".parse().unwrap())
    })
    .unwrap();
    let addr = host.addr;
    let feed = host.feed.as_ref().unwrap().addr;
    let t: Vec<String> = host.invitations().iter().map(|(_, l)| token_of(l)).collect();
    let (b1, b2, w1, w2) = (&t[0], &t[1], &t[2], &t[3]);
    // Turn 1: black puts one disc, its first member's.
    assert_eq!(view(&addr, b1).0.puts_to_choose, 1);
    assert_eq!(view(&addr, b2).0.puts_to_choose, 0);
    assert!(!view(&addr, b2).0.your_turn);
    assert_eq!(send(&addr, b2, "/seat/move", r#"{"seq":0,"move":"P1"}"#).0, 403, "not this member's Put");
    assert_eq!(send(&addr, w1, "/seat/move", r#"{"seq":0,"move":"P1"}"#).0, 403, "not this team's turn");
    assert_eq!(send(&addr, b1, "/seat/move", r#"{"seq":0,"move":"P1"}"#).0, 200);
    assert_eq!(view(&addr, w1).0.moves, ["P1"], "one member's share: played at once");
    assert_eq!(send(&addr, b2, "/seat/move", r#"{"seq":1,"move":"E"}"#).0, 403, "the first member acts");
    assert_eq!(send(&addr, b1, "/seat/move", r#"{"seq":1,"move":"E"}"#).0, 200);
    // Turn 2: white puts two, one each, blind.
    let (v1, v2) = (view(&addr, w1).0, view(&addr, w2).0);
    assert_eq!((v1.puts_to_choose, v2.puts_to_choose), (1, 1));
    assert_eq!(send(&addr, w1, "/seat/move", r#"{"seq":2,"move":"P10"}"#).0, 200);
    let (mine, _) = view(&addr, w1);
    assert_eq!((mine.chosen.clone(), mine.puts_to_choose, mine.moves.len()), (vec!["P10".to_string()], 0, 2));
    // Nobody else sees it: not the team-mate, not the other team, not the feed.
    for token in [w2, b1, b2] {
        let (v, body) = view(&addr, token);
        assert!(v.chosen.is_empty() && v.moves == ["P1", "E"], "{body}");
        assert!(!body.contains("P10") && !body.contains("10,") && !body.contains(":10"), "{body}");
    }
    let (_, state) = get(&feed, None, "/state");
    assert!(!state.contains("P10"), "the feed has a blind Put: {state}");
    // The team-mate chooses the same square: the first choice stands, the second chooses again.
    assert_eq!(send(&addr, w2, "/seat/move", r#"{"seq":2,"move":"P10"}"#).0, 200);
    let (v2, _) = view(&addr, w2);
    assert_eq!((v2.moves.clone(), v2.puts_to_choose), (vec!["P1".into(), "E".into(), "P10".into()], 1));
    assert_eq!(send(&addr, w2, "/seat/move", r#"{"seq":3,"move":"P10"}"#).0, 422, "the square is taken");
    assert_eq!(send(&addr, w2, "/seat/move", r#"{"seq":3,"move":"P11"}"#).0, 200);
    assert_eq!(view(&addr, b1).0.moves, ["P1", "E", "P10", "P11"]);
    let (_, state) = get(&feed, None, "/state");
    assert!(state.contains("P11"), "played Puts are on the feed");
    let r = tablero::record::Record::from_json(&std::fs::read_to_string(d.join("game.json")).unwrap()).unwrap();
    assert_eq!(r.moves.iter().map(|m| m.member).collect::<Vec<_>>(), [Some(0), Some(0), Some(0), Some(1)]);
    for token in &t {
        assert!(!state.contains(token.as_str()), "a token on the feed");
    }
    drop(host);
    std::fs::remove_dir_all(&d).ok();
}

#[test]
fn undo_and_rematch_are_asked_of_the_other_side_and_answered() {
    let d = dir("ask");
    let start = Variant::Crossings.initial();
    let host = Host::open(HostOptions {
        record: Some(d.join("game.json")),
        ..HostOptions::remote(start.clone(), "127.0.0.1:0".parse().unwrap())
    })
    .unwrap();
    let addr = host.addr;
    let t: Vec<String> = host.invitations().iter().map(|(_, l)| token_of(l)).collect();
    let (a, b) = (&t[0], &t[1]);
    let mut game = start.clone();
    for (k, token) in [a, b].into_iter().enumerate() {
        let mv = game.legal_moves()[0].clone();
        game.play(&mv).unwrap();
        assert_eq!(send(&addr, token, "/seat/move", &format!(r#"{{"seq":{k},"move":"{mv}"}}"#)).0, 200);
    }
    assert_eq!(send(&addr, a, "/seat/ask", r#"{"seq":2,"what":"rematch"}"#).0, 403, "a rematch after the end");
    assert_eq!(send(&addr, a, "/seat/ask", r#"{"seq":1,"what":"undo"}"#).0, 409, "stale");
    assert_eq!(send(&addr, a, "/seat/ask", r#"{"seq":2,"what":"resign"}"#).0, 400);
    assert_eq!(send(&addr, b, "/seat/answer", r#"{"yes":true}"#).0, 403, "nothing asked yet");
    assert_eq!(send(&addr, a, "/seat/ask", r#"{"seq":2,"what":"undo"}"#).0, 200);
    let asked = view(&addr, b).0.asked.expect("the other side is asked");
    assert_eq!((asked.what, asked.mine), (tablero::net::Question::Undo, false));
    assert!(view(&addr, a).0.asked.unwrap().mine);
    assert_eq!(send(&addr, a, "/seat/answer", r#"{"yes":true}"#).0, 403, "a side does not answer itself");
    assert_eq!(send(&addr, b, "/seat/answer", r#"{"yes":false}"#).0, 200);
    assert_eq!(view(&addr, a).0.moves.len(), 2, "refused: nothing taken back");
    assert_eq!(send(&addr, a, "/seat/ask", r#"{"seq":2,"what":"undo"}"#).0, 200);
    assert_eq!(send(&addr, b, "/seat/answer", r#"{"yes":true}"#).0, 200);
    let (v, _) = view(&addr, a);
    assert_eq!((v.moves.len(), v.your_turn, v.asked), (0, true, None), "back to before the asker's move");
    assert_eq!(host.game().to_string(), start.to_string());
    drop(host);
    // Against the computer at the host: it agrees at once, and a rematch is a new game with the
    // same invitations, in a new record beside the first.
    let host = Host::open(HostOptions {
        seats: [vec![Sitter::Remote], vec![Sitter::Computer(tablero::players::Kind::Random)]],
        record: Some(d.join("second.json")),
        ..HostOptions::remote(start.clone(), "127.0.0.1:0".parse().unwrap())
    })
    .unwrap();
    let _computer = host.play_in_background();
    let addr = host.addr;
    let a = token_of(&host.invitations()[0].1);
    let mut rng = 7u64;
    while host.game().outcome().is_none() {
        let (v, _) = view(&addr, &a);
        if v.your_turn {
            let game = tablero::net::join::game_of(&v).unwrap();
            let moves = game.legal_moves();
            rng = rng.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            let mv = &moves[(rng >> 33) as usize % moves.len()];
            send(&addr, &a, "/seat/move", &format!(r#"{{"seq":{},"move":"{mv}"}}"#, v.seq));
        }
        std::thread::sleep(Duration::from_millis(25)); // within the seat's rate (two requests a round)
    }
    let (v, _) = view(&addr, &a);
    assert!(v.result.is_some());
    let first_game = v.game;
    assert_eq!(send(&addr, &a, "/seat/ask", &format!(r#"{{"seq":{},"what":"rematch"}}"#, v.seq)).0, 200);
    let (v, _) = view(&addr, &a);
    assert!(v.result.is_none() && v.moves.is_empty() && v.game != first_game, "a new game: {v:?}");
    assert_ne!(host.record_path(), d.join("second.json"), "in a record of its own");
    assert!(tablero::record::load(&d.join("second.json")).unwrap().0.result.is_some(), "the first game kept");
    drop(host);
    std::fs::remove_dir_all(&d).ok();
}

#[test]
fn the_host_times_the_sand_glass_once_every_seat_has_joined() {
    let d = dir("sand");
    let start: AnyGame = CTOR_1V1.parse().unwrap();
    let host = Host::open(HostOptions {
        record: Some(d.join("game.json")),
        timer: Some(5),
        ..HostOptions::remote(start, "127.0.0.1:0".parse().unwrap())
    })
    .unwrap();
    let _clock = host.play_in_background();
    let addr = host.addr;
    let t: Vec<String> = host.invitations().iter().map(|(_, l)| token_of(l)).collect();
    let (v, _) = view(&addr, &t[0]);
    assert_eq!((v.timer, v.sand_left_ms), (Some(5), None), "not running before every seat has come");
    std::thread::sleep(Duration::from_millis(300));
    let (v, _) = view(&addr, &t[1]);
    let left = v.sand_left_ms.expect("running once both have come");
    assert!(left > 4000 && left <= 5000, "{left}");
    assert!(wait_for(Duration::from_secs(8), || host.game().side_to_move() == Side::Second), "the turn ran out");
    let (v, _) = view(&addr, &t[1]);
    assert_eq!(v.moves, ["T"], "the host ended the turn");
    assert!(v.your_turn && v.sand_left_ms.unwrap() > 4000);
    // The seat replays the game with its sand-glass, so T is a move it understands.
    assert!(tablero::net::join::game_of(&v).is_ok());
    drop(host);
    std::fs::remove_dir_all(&d).ok();
}

#[test]
fn secret_squares_reach_only_the_host_and_their_team_until_they_work() {
    let d = dir("secrets");
    let start: AnyGame = CTOR_1V1.parse().unwrap();
    let host = Host::open(HostOptions {
        record: Some(d.join("game.json")),
        secrets: true,
        feed: Some("127.0.0.1:0".parse().unwrap()),
        ..HostOptions::remote(start, "127.0.0.1:0".parse().unwrap())
    })
    .unwrap();
    let (addr, feed) = (host.addr, host.feed.as_ref().unwrap().addr);
    let t: Vec<String> = host.invitations().iter().map(|(_, l)| token_of(l)).collect();
    let (black, white) = (&t[0], &t[1]);
    let v = view(&addr, black).0;
    assert!(v.choose_secrets && v.your_turn && v.secrets.is_empty());
    assert_eq!(send(&addr, black, "/seat/move", r#"{"seq":0,"move":"P10"}"#).0, 403, "not before the squares");
    assert_eq!(send(&addr, black, "/seat/secrets", r#"{"squares":[1,2,3,4]}"#).0, 422, "five squares");
    assert_eq!(send(&addr, black, "/seat/secrets", r#"{"squares":[1,2,3,4,99]}"#).0, 422, "on the field");
    assert_eq!(send(&addr, black, "/seat/secrets", r#"{"squares":[1,2,3,4,5]}"#).0, 200);
    assert_eq!(send(&addr, black, "/seat/secrets", r#"{"squares":[6,7,8,9,11]}"#).0, 409, "chosen once");
    let (mine, _) = view(&addr, black);
    assert_eq!((mine.secrets.clone(), mine.choose_secrets, mine.your_turn), (vec![1, 2, 3, 4, 5], false, false));
    let (theirs, body) = view(&addr, white);
    assert!(theirs.choose_secrets && theirs.secrets.is_empty() && theirs.revealed.is_empty(), "{body}");
    assert!(!body.contains("[1,2,3,4,5]"), "{body}");
    assert_eq!(send(&addr, white, "/seat/secrets", r#"{"squares":[60,61,62,63,64]}"#).0, 200);
    assert!(view(&addr, black).0.your_turn, "the game begins once both teams have chosen");
    for (k, (token, mv)) in
        [(black, "P10"), (black, "E"), (white, "P1"), (white, "P20"), (white, "E")].into_iter().enumerate()
    {
        assert_eq!(send(&addr, token, "/seat/move", &format!(r#"{{"seq":{k},"move":"{mv}"}}"#)).0, 200, "{mv}");
    }
    // White put a disc on black's square 1: it turned black as black's turn began, and only
    // now does white learn the square.
    let (w, body) = view(&addr, white);
    assert_eq!(w.revealed, [1], "{body}");
    let game = host.game();
    assert_eq!(tablero::net::join::game_of(&w).unwrap().to_string(), game.to_string(), "the same field");
    let AnyGame::Ctor(g) = &game else { unreachable!() };
    assert_eq!(g.disc(1), Some(Side::First));
    let (b, _) = view(&addr, black);
    assert_eq!(tablero::net::join::game_of(&b).unwrap().to_string(), game.to_string());
    // Nothing of the squares that have not worked reaches the other team or the feed.
    assert_eq!(w.secrets, [60, 61, 62, 63, 64], "white sees its own squares");
    assert!(!body.contains("[1,2,3,4,5]"), "{body}");
    let (_, state) = get(&feed, None, "/state");
    let state: serde_json::Value = serde_json::from_str(&state).unwrap();
    let shown: Vec<u64> = state
        .pointer("/after/revealed")
        .and_then(|r| r.as_array())
        .unwrap()
        .iter()
        .map(|r| r["square"].as_u64().unwrap())
        .collect();
    assert_eq!(shown, [1], "the feed shows the square that worked, and no other");
    let r = tablero::record::Record::from_json(&std::fs::read_to_string(d.join("game.json")).unwrap()).unwrap();
    assert_eq!(r.secrets, Some([vec![1, 2, 3, 4, 5], vec![60, 61, 62, 63, 64]]), "the host's record keeps them");
    drop(host);
    std::fs::remove_dir_all(&d).ok();
}

/// A host on loopback asked for HTTPS (`--tls`, as every host other machines reach serves).
fn tls_host(record: &Path, port: u16) -> Host {
    let start: AnyGame = Variant::Ordo.initial();
    Host::open(HostOptions {
        record: Some(record.to_path_buf()),
        tls: true,
        ..HostOptions::remote(start, format!("127.0.0.1:{port}").parse().unwrap())
    })
    .unwrap()
}

#[test]
fn over_https_a_seat_takes_only_the_certificate_its_invitation_pins() {
    use tablero::net::{Invitation, NetError, join, tls::Fingerprint};
    let d = dir("tls");
    let first = d.join("first.json");
    let host = tls_host(&first, 0);
    let port = host.addr.port();
    let link = host.invitations()[0].1.clone();
    assert!(link.starts_with(&format!("https://127.0.0.1:{port}/join#seat=first&token=")), "{link}");
    let inv = Invitation::parse(&link).unwrap();
    assert!(inv.cert.is_some() && inv.cert == host.cert, "{link}");
    // The seat reads its view over HTTPS; plain HTTP on that port gets no answer.
    let (status, body) = join::request(&inv, "GET", "/seat", None).unwrap();
    assert_eq!(status, 200, "{body}");
    let view: SeatView = serde_json::from_str(&body).unwrap();
    assert!(view.your_turn && view.moves.is_empty());
    assert_eq!(get(&host.addr, Some(&inv.token), "/seat").0, 0, "plain HTTP is not served over TLS");
    // The certificate and its key are beside the record, the key readable by its owner only.
    let (cert_file, key_file) = tablero::net::tls::paths(&first);
    use std::os::unix::fs::PermissionsExt;
    assert_eq!(std::fs::metadata(&key_file).unwrap().permissions().mode() & 0o777, 0o600);
    assert!(std::fs::read_to_string(&cert_file).unwrap().starts_with("-----BEGIN CERTIFICATE-----"));
    // A TLS handshake is bounded like a request's head: a connection that says nothing is
    // closed.
    let mut silent = TcpStream::connect(host.addr).unwrap();
    silent.set_read_timeout(Some(Duration::from_secs(20))).unwrap();
    let began = Instant::now();
    assert_eq!(silent.read(&mut [0u8; 16]).unwrap_or(0), 0);
    assert!(began.elapsed() < Duration::from_secs(15), "{:?}", began.elapsed());
    // A resumed host keeps its certificate: the invitation still works.
    drop(host);
    let again = tls_host(&first, port);
    assert_eq!(again.cert, inv.cert);
    assert_eq!(join::request(&inv, "GET", "/seat", None).unwrap().0, 200);
    drop(again);
    // Another host on the same port makes its own certificate: the old invitation refuses it,
    // and so does an invitation whose pin was altered; the untouched one is taken.
    let other = tls_host(&d.join("second.json"), port);
    assert_ne!(other.cert, inv.cert);
    let refused = join::request(&inv, "GET", "/seat", None);
    assert!(matches!(refused, Err(NetError::OtherCertificate { .. })), "{refused:?}");
    let theirs = Invitation::parse(&other.invitations()[0].1).unwrap();
    let mut altered = theirs.clone();
    let mut pin = altered.cert.unwrap().0;
    pin[31] ^= 1;
    altered.cert = Some(Fingerprint(pin));
    let refused = join::request(&altered, "GET", "/seat", None);
    assert!(matches!(refused, Err(NetError::OtherCertificate { .. })), "{refused:?}");
    assert_eq!(join::request(&theirs, "GET", "/seat", None).unwrap().0, 200);
    // A seat in its own process with the old invitation says why and ends.
    let (code, _, err) = finish(join(&link, "random"));
    assert_ne!(code, 0);
    assert!(err.contains("another certificate"), "{err}");
    // Invitations over HTTPS carry their pin, and plain ones none.
    let token = "0123456789abcdef0123456789abcdef";
    let cert = "ab".repeat(32);
    assert!(Invitation::parse(&format!("https://h:1/join#seat=first&token={token}&cert={cert}")).is_ok());
    for bad in [
        format!("https://h:1/join#seat=first&token={token}"),
        format!("http://h:1/join#seat=first&token={token}&cert={cert}"),
        format!("https://h:1/join#seat=first&token={token}&cert={}", &cert[1..]),
        format!("https://h:1/join#seat=first&token={token}&cert={}", "zz".repeat(32)),
    ] {
        assert!(Invitation::parse(&bad).is_err(), "{bad}");
    }
    drop(other);
    std::fs::remove_dir_all(&d).ok();
}

#[test]
fn a_whole_game_between_processes_over_https() {
    let d = dir("tls-game");
    let record = d.join("ordo.json");
    let mut host = HostProcess::with(0, "ordo", &["second=random"], &["--tls"], &record);
    let link = host.invite("first");
    assert!(link.starts_with("https://") && link.contains("&cert="), "{link}");
    let (code, out, err) = finish(join(&link, "random"));
    assert_eq!(code, 0, "{err}");
    let result = host.result();
    assert!(result.starts_with("result: "), "{result}");
    assert_eq!(out.trim(), result, "both machines see the same end");
    std::fs::remove_dir_all(&d).ok();
}

#[test]
fn a_hosts_feed_over_https_is_watched_with_its_pinned_certificate_only() {
    use tablero::feed::client::{Heard, base_url, watch};
    let d = dir("tls-feed");
    let host = Host::open(HostOptions {
        record: Some(d.join("game.json")),
        tls: true,
        feed: Some("127.0.0.1:0".parse().unwrap()),
        ..HostOptions::remote(Variant::Ordo.initial(), "127.0.0.1:0".parse().unwrap())
    })
    .unwrap();
    let feed = host.feed.as_ref().unwrap();
    // The feed has the seats' certificate; the spectator's link pins it.
    assert_eq!(feed.pin, host.cert);
    let link = feed.watch_link();
    assert!(link.starts_with("https://127.0.0.1:") && link.contains("#cert="), "{link}");
    let spectator = watch(&link).unwrap();
    let heard = spectator.heard.recv_timeout(Duration::from_secs(10));
    assert!(matches!(&heard, Ok(Heard::State(s)) if s.shown.is_some()), "{heard:?}");
    // Another pin, or none at all: the spectator hears nothing of the game.
    let mut other = host.cert.unwrap().0;
    other[0] ^= 0x80;
    let wrong = format!("{}#cert={}", feed.url(), tablero::net::tls::Fingerprint(other).hex());
    let refused = watch(&wrong).unwrap().heard.recv_timeout(Duration::from_secs(10));
    assert!(matches!(&refused, Ok(Heard::Lost { why, .. }) if why.contains("certificate")), "{refused:?}");
    let plain = watch(&format!("http://{}", feed.addr)).unwrap().heard.recv_timeout(Duration::from_secs(10));
    assert!(matches!(&plain, Ok(Heard::Lost { .. })), "{plain:?}");
    assert!(base_url(&feed.url()).is_err(), "an https feed without its pin is refused");
    drop(host);
    std::fs::remove_dir_all(&d).ok();
}

/// A host may seat any of the computer's players, the yardsticks of `tablero match` too; its
/// record names them as records do, and a host opened again on it resumes the game.
#[test]
fn a_host_seating_a_yardstick_resumes_its_record() {
    let d = dir("yardstick");
    let start = Variant::Crossings.initial();
    let options = |kind: &str| HostOptions {
        seats: [vec![Sitter::Remote], vec![Sitter::parse(kind).unwrap()]],
        record: Some(d.join(format!("{}.json", kind.replace(':', "-")))),
        ..HostOptions::remote(start.clone(), "127.0.0.1:0".parse().unwrap())
    };
    for kind in ["ai:baseline", "ai:uct:1000", "random"] {
        drop(Host::open(options(kind)).unwrap());
        let record = tablero::record::load(&d.join(format!("{}.json", kind.replace(':', "-")))).unwrap().0;
        assert_eq!(record.players[1].kind, kind.parse::<tablero::players::Kind>().unwrap().name());
        Host::open(options(kind)).unwrap_or_else(|e| panic!("{kind}: the host resumes its record: {e}"));
    }
    assert!(Sitter::parse("human").is_err(), "a person sits as `person` or `remote`");
}

#[test]
fn a_seat_waiting_on_its_view_gets_the_hosts_changes_since_the_version_it_had() {
    use tablero::table::Change;
    let d = dir("changes");
    let host = Host::open(HostOptions {
        record: Some(d.join("game.json")),
        ..HostOptions::remote(Variant::Crossings.initial(), "127.0.0.1:0".parse().unwrap())
    })
    .unwrap();
    let addr = host.addr;
    let t: Vec<String> = host.invitations().iter().map(|(_, l)| token_of(l)).collect();
    let (first, second) = (&t[0], &t[1]);
    let (v0, _) = view(&addr, second);
    assert!(v0.changes.is_empty() && v0.changes_after.is_none(), "no version asked after: the moves alone");
    let mut game = Variant::Crossings.initial();
    let mv = game.legal_moves()[0].to_string();
    assert_eq!(send(&addr, first, "/seat/move", &format!(r#"{{"seq":0,"move":"{mv}"}}"#)).0, 200);
    let (status, body) = get(&addr, Some(second), &format!("/seat?wait={}", v0.version));
    assert_eq!(status, 200, "{body}");
    let v1: SeatView = serde_json::from_str(&body).unwrap();
    assert_eq!(v1.changes_after, Some(v0.version));
    assert_eq!(v1.changes, [Change::Played { ply: 0, mv: mv.clone() }], "{body}");
    game.play_text(&mv).unwrap();
    let reply = game.legal_moves()[0].to_string();
    assert_eq!(send(&addr, second, "/seat/move", &format!(r#"{{"seq":1,"move":"{reply}"}}"#)).0, 200);
    // Black asks to take its move back; white agrees: the change is the moves taken back.
    assert_eq!(send(&addr, first, "/seat/ask", r#"{"seq":2,"what":"undo"}"#).0, 200);
    assert_eq!(send(&addr, second, "/seat/answer", r#"{"yes":true}"#).0, 200);
    let (status, body) = get(&addr, Some(second), &format!("/seat?wait={}", v1.version));
    assert_eq!(status, 200, "{body}");
    let v2: SeatView = serde_json::from_str(&body).unwrap();
    assert_eq!(v2.changes, [Change::Played { ply: 1, mv: reply }, Change::Back { ply: 0 }], "{body}");
    assert!(v2.moves.is_empty());
    // A version the host never had gets the moves alone.
    let (_, body) = get(&addr, Some(second), &format!("/seat?wait={}", v2.version + 5));
    let v3: SeatView = serde_json::from_str(&body).unwrap();
    assert!(v3.changes_after.is_none() && v3.changes.is_empty());
    let (status, body) = get(&addr, Some(second), &format!("/seat?wait={}", u64::MAX));
    assert_eq!(status, 200, "the largest version is a version the host never had: {body}");
    drop(host);
    std::fs::remove_dir_all(&d).ok();
}
