//! Playing across machines on loopback: a headless host and remote seats in their own
//! processes, a seat's process killed and started again, the host killed and started again
//! with its record, and thousands of hostile requests that must leave the game unharmed.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};
use tablero::net::host::{Host, HostOptions, Sitter};
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
}

impl HostProcess {
    fn start(position: &str, seats: &[&str], record: &Path) -> HostProcess {
        HostProcess::on(0, position, seats, record)
    }

    fn on(port: u16, position: &str, seats: &[&str], record: &Path) -> HostProcess {
        let port = port.to_string();
        let mut args = vec!["host", position, "--headless", "--port", &port, "--linger", "3", "--record"];
        let rec = record.to_str().unwrap();
        args.push(rec);
        let seat_args: Vec<String> = seats.iter().map(|s| format!("--seat={s}")).collect();
        let mut cmd = Command::new(BIN);
        cmd.args(&args).args(&seat_args).stdout(Stdio::piped()).stderr(Stdio::null());
        let mut child = cmd.spawn().expect("the host starts");
        let mut out = BufReader::new(child.stdout.take().unwrap());
        let mut invites = Vec::new();
        loop {
            let mut line = String::new();
            assert!(out.read_line(&mut line).unwrap() > 0, "the host ended before serving");
            if let Some(rest) = line.trim().strip_prefix("invite ") {
                let (seat, link) = rest.split_once(": ").unwrap();
                invites.push((seat.to_string(), link.to_string()));
            } else if line.starts_with("record: ") {
                break;
            }
        }
        HostProcess { child, out, invites }
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
    Command::new(BIN)
        .args(["join", link, "--as", player])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the seat starts")
}

fn finish(child: Child) -> (i32, String, String) {
    let out = child.wait_with_output().unwrap();
    (out.status.code().unwrap_or(-1), String::from_utf8(out.stdout).unwrap(), String::from_utf8(out.stderr).unwrap())
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
        let seat = join(&host.invite(remote), "random");
        let (code, out, err) = finish(seat);
        assert_eq!(code, 0, "{variant}: {err}");
        let result = host.result();
        assert!(result.starts_with("result: "), "{variant}: {result}");
        assert_eq!(out.trim(), result, "{variant}: both machines see the same end");
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
        start: start.clone(),
        seats: [Sitter::Remote, Sitter::Remote],
        addr: "127.0.0.1:0".parse().unwrap(),
        record: Some(d.join("game.json")),
        linger: 0.0,
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
    let waiting = {
        let blue = blue.clone();
        std::thread::spawn(move || {
            let started = Instant::now();
            let (status, body) = get(&addr, Some(&blue), "/seat?wait=0");
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
    let link = Invitation::link(&"127.0.0.1:7979".parse().unwrap(), tablero::rules::Side::Second, &t);
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
    ] {
        let out = Command::new(BIN).args(&args).output().unwrap();
        let err = String::from_utf8(out.stderr).unwrap();
        assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
        assert!(err.lines().count() == 1 && err.contains(want), "{args:?}: {err}");
    }
}
