//! Games through a relay (a nats-server of the test's own on loopback): a CTOR 2v2 with secret
//! squares watched by a third client subscribed to everything, which finds nothing of the
//! seats; the relay restarted, the host killed and started again and a seat away mid-game,
//! with no move lost or doubled; messages repeated, altered or forged, refused.

mod common;

use common::{NatsServer, finish, join_saving};
use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};
use tablero::net::relay::{Envelope, Keys, Reply, Request, Way};
use tablero::net::{Invitation, Link, Posted, Said, SentMove, Token};
use tablero::rules::{AnyGame, Game};

const BIN: &str = env!("CARGO_BIN_EXE_tablero");

/// An empty CTOR 8 × 8 field for teams of two.
const CTOR_2V2: &str = "ctor8 ......../......../......../......../......../......../......../........ b 1 P1M0L0 2v2 0";

fn dir(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("tablero-relay-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// `tablero host … --headless --relay URL` in its own process, and its invitations.
struct HostProcess {
    child: Child,
    out: BufReader<std::process::ChildStdout>,
    invites: Vec<(String, String)>,
}

impl HostProcess {
    fn start(position: &str, extra: &[&str], relay: &NatsServer, record: &Path) -> HostProcess {
        let mut child = Command::new(BIN)
            .args(["host", position, "--headless", "--linger", "3", "--relay", &relay.url(), "--record"])
            .arg(record)
            .args(extra)
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("the host starts");
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

    fn result(&mut self) -> String {
        let mut line = String::new();
        self.out.read_line(&mut line).unwrap();
        line.trim().to_string()
    }

    fn kill(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Drop for HostProcess {
    fn drop(&mut self) {
        self.kill();
    }
}

/// Messages as a client received them: each subject and payload.
type Received = Vec<(String, Vec<u8>)>;

/// A third client on the relay, subscribed to every subject (`>`): what it received, in order.
struct Spy {
    got: Arc<Mutex<Received>>,
    stop: Option<tokio::sync::oneshot::Sender<()>>,
    thread: Option<std::thread::JoinHandle<()>>,
}

impl Spy {
    fn start(url: &str) -> Spy {
        let got = Arc::new(Mutex::new(Vec::new()));
        let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
        let (ready_tx, ready) = std::sync::mpsc::channel();
        let (url, keep) = (url.to_string(), got.clone());
        let thread = std::thread::spawn(move || {
            let rt = tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap();
            rt.block_on(async move {
                use futures_util::StreamExt;
                let client = async_nats::connect(url).await.expect("the spy connects");
                let mut all = client.subscribe(">").await.unwrap();
                client.flush().await.unwrap();
                ready_tx.send(()).unwrap();
                let listen = async {
                    while let Some(m) = all.next().await {
                        keep.lock().unwrap().push((m.subject.to_string(), m.payload.to_vec()));
                    }
                };
                tokio::select! {
                    _ = stopped => {}
                    _ = listen => {}
                }
            });
        });
        ready.recv().unwrap();
        Spy { got, stop: Some(stop), thread: Some(thread) }
    }

    fn stop(mut self) -> Received {
        let _ = self.stop.take().unwrap().send(());
        self.thread.take().unwrap().join().unwrap();
        std::mem::take(&mut *self.got.lock().unwrap())
    }
}

/// The keys of the seat an invitation is for.
fn keys_of(link: &str) -> (String, Keys) {
    let inv = Invitation::parse(link).unwrap();
    let place = inv.relay.clone().expect("an invitation through the relay");
    let seat = inv.seat_id().name(inv.team);
    let token = Token::from_hex(&inv.token).unwrap();
    (seat.clone(), Keys::new(&token, &place.game, &seat))
}

/// Every object in `v` with an `owner` and a `square`: the secret squares the feed shows.
fn revealed_in(v: &serde_json::Value, found: &mut Vec<(String, u64)>) {
    match v {
        serde_json::Value::Object(map) => {
            if let (Some(o), Some(s)) =
                (map.get("owner").and_then(|o| o.as_str()), map.get("square").and_then(|s| s.as_u64()))
            {
                found.push((o.to_string(), s));
            }
            map.values().for_each(|x| revealed_in(x, found));
        }
        serde_json::Value::Array(a) => a.iter().for_each(|x| revealed_in(x, found)),
        _ => {}
    }
}

#[test]
fn a_third_client_on_the_relay_sees_nothing_of_the_seats_in_a_ctor_2v2_with_secret_squares() {
    let Some(relay) = NatsServer::start(&[]) else { return };
    let spy = Spy::start(&relay.url());
    let d = dir("2v2");
    let record = d.join("game.json");
    let mut host = HostProcess::start(CTOR_2V2, &["--secrets"], &relay, &record);
    let names: Vec<&str> = host.invites.iter().map(|(s, _)| s.as_str()).collect();
    assert_eq!(names, ["first.1", "first.2", "second.1", "second.2"]);
    assert!(
        host.invites.iter().all(|(_, l)| l.starts_with(&format!("{}/", relay.url()))),
        "the invitations name the relay"
    );
    let members: Vec<Child> = host
        .invites
        .iter()
        .zip(["ai:easy", "random", "ai:medium", "random"])
        .map(|((_, link), who)| join_saving(link, who, &d.join("seats")))
        .collect();
    let ends: Vec<(i32, String, String)> = members.into_iter().map(finish).collect();
    let result = host.result();
    assert!(result.starts_with("result: "), "{result}");
    for (code, out, err) in &ends {
        assert_eq!(*code, 0, "{err}");
        assert_eq!(out.trim(), result, "every member sees the same end");
    }
    std::thread::sleep(Duration::from_millis(300));
    let seen = spy.stop();
    let (r, positions) = tablero::record::load(&record).unwrap();
    let game = positions.last().unwrap();
    let secrets = r.secrets.clone().expect("the teams chose their squares");
    let check = Command::new(BIN).args(["check", record.to_str().unwrap()]).output().unwrap();
    assert!(String::from_utf8(check.stdout).unwrap().ends_with(&format!("{result}\n")));

    let place = Invitation::parse(&host.invites[0].1).unwrap().relay.unwrap();
    let (seats_subject, feed_subject) =
        (format!("tablero.{}.seats", place.game), format!("tablero.{}.feed", place.game));
    let keys: Vec<(String, Keys)> = host.invites.iter().map(|(_, l)| keys_of(l)).collect();
    let tokens: Vec<String> = host.invites.iter().map(|(_, l)| l.split("token=").nth(1).unwrap().to_string()).collect();
    // What the seats said, as only the host can read it (the test holds their tokens), in the
    // order the relay carried it.
    let mut said: Vec<(usize, String, Request)> = Vec::new();
    // The host's answers, by the seat and the sequence number they answer.
    let mut answers: Vec<(String, u64, tablero::net::relay::Reply)> = Vec::new();
    // Each seat's requests, by their sequence number (to match an answer to its request).
    let mut numbers: Vec<(usize, u64)> = Vec::new();
    let (mut feed_events, mut sealed) = (0, 0);
    for (i, (subject, payload)) in seen.iter().enumerate() {
        let text = String::from_utf8_lossy(payload).to_lowercase();
        for token in &tokens {
            assert!(!text.contains(token.as_str()), "a seat's token on {subject}");
        }
        if *subject == feed_subject {
            feed_events += 1;
            continue;
        }
        // The host asking the relay for the game's stream (a relay without JetStream does not
        // answer): the stream's name and limits, nothing of the seats.
        if subject.starts_with("$JS.API.") {
            continue;
        }
        // Everything else is a sealed envelope: a seat's message or the host's answer.
        let e: Envelope = serde_json::from_slice(payload)
            .unwrap_or_else(|err| panic!("{subject} carries what is not sealed ({err}): {text}"));
        assert!(e.sealed.bytes().all(|b| b.is_ascii_hexdigit()) && e.nonce.len() == 24);
        sealed += 1;
        if *subject == seats_subject {
            let (_, k) = keys.iter().find(|(name, _)| *name == e.seat).expect("a seat of the game");
            let plain = k.open(Way::ToHost, e.session, &e).expect("sealed with the seat's key");
            said.push((i, e.seat.clone(), serde_json::from_slice(&plain).unwrap()));
            numbers.push((i, e.seq));
        } else {
            assert!(subject.starts_with("_INBOX."), "an answer goes to the asker's inbox: {subject}");
            let opened = keys.iter().find_map(|(name, k)| k.open(Way::ToSeat, e.session, &e).map(|p| (name, p)));
            let (name, plain) = opened.expect("an answer sealed for one of the seats");
            answers.push((name.clone(), e.seq, serde_json::from_slice(&plain).unwrap()));
        }
    }
    assert!(feed_events > 10, "the public events went out on the feed's subject ({feed_events})");
    assert!(sealed > 50 && said.len() > 20, "the seats' messages went through the relay");
    // The secret squares travelled to the host, sealed.
    let sent_secrets: Vec<&Vec<u16>> = said
        .iter()
        .filter_map(|(_, _, r)| if let Request::Said(Said::Secrets(s)) = r { Some(&s.squares) } else { None })
        .collect();
    assert!(sent_secrets.len() >= 2, "both teams sent their squares");
    // No blind Put on the feed before its round closes: between a member's Put and its
    // team-mate's for the same point of the game, the feed announces neither.
    let team = |seat: &str| seat.split('.').next().unwrap().to_string();
    let mut blind = 0;
    for (i, seat, r) in &said {
        let Request::Said(Said::Move(SentMove { seq, mv })) = r else { continue };
        if !mv.starts_with('P') {
            continue;
        }
        // The team-mate's Put the host took for the same point of the game.
        let taken = |k: usize, s: &str| {
            let n = numbers.iter().find(|(j, _)| *j == k).map(|(_, n)| *n);
            answers.iter().any(|(name, m, reply)| {
                name == s && Some(*m) == n && matches!(reply, Reply::Posted(tablero::net::Posted::Taken))
            })
        };
        let mate = said.iter().find(|(k, s, r)| {
            k > i
                && s != seat
                && team(s) == team(seat)
                && matches!(r, Request::Said(Said::Move(m)) if m.seq == *seq && m.mv.starts_with('P'))
                && taken(*k, s)
        });
        let Some((k, _, _)) = mate else { continue };
        blind += 1;
        let announced = format!("\"move\":\"{mv}\"");
        for (subject, payload) in &seen[i + 1..*k] {
            assert!(
                !(*subject == feed_subject && String::from_utf8_lossy(payload).contains(&announced)),
                "{mv} of {seat} on the feed before its team-mate chose"
            );
        }
    }
    assert!(blind > 0, "members chose blind Puts");
    // No secret square on the feed that has not worked.
    let hidden: Vec<(String, u64)> = [tablero::rules::Side::First, tablero::rules::Side::Second]
        .into_iter()
        .flat_map(|side| {
            let AnyGame::Ctor(g) = game else { panic!("a CTOR game") };
            let owner = game.variant().side_name(side).to_string();
            g.secrets(side)
                .iter()
                .filter(|(_, st)| *st != tablero::rules::ctor::SecretState::Revealed)
                .map(move |(sq, _)| (owner.clone(), *sq as u64))
                .collect::<Vec<_>>()
        })
        .collect();
    assert_eq!(hidden.len() + count_revealed(game), secrets[0].len() + secrets[1].len());
    assert!(!hidden.is_empty(), "some secret squares never worked");
    for (subject, payload) in &seen {
        if *subject != feed_subject {
            continue;
        }
        let mut found = Vec::new();
        revealed_in(&serde_json::from_slice(payload).unwrap(), &mut found);
        for f in &found {
            assert!(!hidden.contains(f), "the unrevealed square {f:?} on the feed");
        }
    }
    std::fs::remove_dir_all(&d).ok();
}

fn count_revealed(game: &AnyGame) -> usize {
    let AnyGame::Ctor(g) = game else { return 0 };
    [tablero::rules::Side::First, tablero::rules::Side::Second]
        .iter()
        .map(|&s| g.secrets(s).iter().filter(|(_, st)| *st == tablero::rules::ctor::SecretState::Revealed).count())
        .sum()
}

/// Plays the seat's moves (the first legal one by a seeded choice) until `n` of its own are
/// taken or the game ends; the moves it played.
fn play_some(link: &dyn Link, n: usize, seed: u64) -> Vec<String> {
    let mut played = Vec::new();
    let mut after = None;
    let started = Instant::now();
    while played.len() < n {
        assert!(started.elapsed() < Duration::from_secs(120), "the seat could not play");
        let v = match link.view(after) {
            Ok(Some(v)) => v,
            Ok(None) | Err(tablero::net::NetError::Unreachable { .. }) => {
                std::thread::sleep(Duration::from_millis(100));
                after = None;
                continue;
            }
            Err(e) => panic!("{e}"),
        };
        after = Some(v.version);
        if v.result.is_some() {
            break;
        }
        if !v.your_turn {
            continue;
        }
        let game = tablero::net::join::game_of(&v).unwrap();
        let moves = game.legal_moves();
        let mv = moves[(seed as usize + v.seq as usize * 7) % moves.len()].to_string();
        match link.say(&Said::Move(SentMove { seq: v.seq, mv: mv.clone() })) {
            Ok(Posted::Taken) => played.push(mv),
            Ok(Posted::Stale | Posted::Busy) | Err(tablero::net::NetError::Unreachable { .. }) => {}
            other => panic!("{mv}: {other:?}"),
        }
    }
    played
}

fn moves_of(record: &Path) -> Vec<String> {
    let r = tablero::record::Record::from_json(&std::fs::read_to_string(record).unwrap()).unwrap();
    r.moves.iter().map(|m| m.mv.clone()).collect()
}

#[test]
fn the_relay_restarted_the_host_started_again_and_a_seat_away_lose_and_double_nothing() {
    let Some(mut relay) = NatsServer::start(&[]) else { return };
    let d = dir("faults");
    let record = d.join("game.json");
    // Ordo: long enough to play on through every fault; the host's computer plays black.
    let mut host = HostProcess::start("ordo", &["--seat", "second=random"], &relay, &record);
    let link = host.invite("first");
    let seat = Invitation::parse(&link).unwrap().connect().unwrap();
    let mut mine = play_some(&*seat, 3, 1);
    // The relay goes away and comes back mid-game: both reconnect.
    relay.down();
    std::thread::sleep(Duration::from_millis(500));
    relay.up();
    mine.extend(play_some(&*seat, 3, 2));
    // The host killed and started again with its record: the same invitation, the game as it
    // stood (the seat says its next move to the new host's session).
    host.kill();
    let before = moves_of(&record);
    let host = HostProcess::start("ordo", &["--seat", "second=random"], &relay, &record);
    assert_eq!(host.invite("first"), link, "the same invitation");
    assert_eq!(moves_of(&record), before, "nothing lost");
    mine.extend(play_some(&*seat, 3, 3));
    // The seat away for a minute (once the computer has answered): the game waits for it, then
    // goes on.
    let started = Instant::now();
    let v = loop {
        let v = seat.view(None).unwrap().unwrap();
        if v.your_turn || started.elapsed() > Duration::from_secs(10) {
            break v;
        }
        std::thread::sleep(Duration::from_millis(50));
    };
    std::thread::sleep(Duration::from_secs(61));
    let back = seat.view(None).unwrap().unwrap();
    assert_eq!(back.moves, v.moves, "nothing happened while the seat was away");
    mine.extend(play_some(&*seat, 2, 4));
    // The host's computer answers the seat's last move meanwhile: the record as the seat sees it.
    let started = Instant::now();
    let (v, moves) = loop {
        let v = seat.view(None).unwrap().unwrap();
        let moves = moves_of(&record);
        if v.moves == moves || started.elapsed() > Duration::from_secs(10) {
            break (v, moves);
        }
        std::thread::sleep(Duration::from_millis(50));
    };
    assert_eq!(v.moves, moves, "the seat and the host's record agree");
    // Each of the seat's moves is in the record once, as its side's move, in order.
    let firsts: Vec<String> = moves.iter().step_by(2).cloned().collect();
    assert_eq!(firsts[..mine.len()], mine[..], "every move the seat played, once, in order");
    let check = Command::new(BIN).args(["check", record.to_str().unwrap()]).output().unwrap();
    assert!(check.status.success(), "{}", String::from_utf8_lossy(&check.stderr));
    drop(host);
    std::fs::remove_dir_all(&d).ok();
}

#[test]
fn a_message_repeated_altered_or_forged_on_the_relay_changes_nothing() {
    let Some(relay) = NatsServer::start(&[]) else { return };
    let d = dir("forged");
    let start: AnyGame = tablero::rules::Variant::Crossings.initial();
    let host = relay_host(&relay, d.join("game.json"), start);
    let links: Vec<String> = host.invitations().into_iter().map(|(_, l)| l).collect();
    let spy = Spy::start(&relay.url());
    let first = Invitation::parse(&links[0]).unwrap().connect().unwrap();
    assert_eq!(play_some(&*first, 1, 5).len(), 1);
    std::thread::sleep(Duration::from_millis(200));
    let seen = spy.stop();
    let game = Invitation::parse(&links[0]).unwrap().relay.unwrap().game;
    let subject = format!("tablero.{game}.seats");
    let (_, keys) = keys_of(&links[0]);
    // The seat's move as it went over the relay.
    let sent: Envelope = seen
        .iter()
        .filter(|(s, _)| *s == subject)
        .map(|(_, p)| serde_json::from_slice::<Envelope>(p).unwrap())
        .find(|e| {
            let plain = keys.open(Way::ToHost, e.session, e).unwrap();
            matches!(serde_json::from_slice(&plain).unwrap(), Request::Said(Said::Move(_)))
        })
        .expect("the seat's move");
    let moves = moves_of(&host.record_path()).len();
    let rt = tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap();
    let client = rt.block_on(async_nats::connect(relay.url())).unwrap();
    let ask = |e: &Envelope| -> Option<Vec<u8>> {
        let bytes = serde_json::to_vec(e).unwrap();
        rt.block_on(async {
            tokio::time::timeout(Duration::from_secs(2), client.request(subject.clone(), bytes.into())).await
        })
        .ok()
        .and_then(|r| r.ok())
        .map(|m| m.payload.to_vec())
    };
    // Said again by anyone: answered as before (sealed), done once.
    let again = ask(&sent).expect("a message said again is answered again");
    let e: Envelope = serde_json::from_slice(&again).unwrap();
    let plain = keys.open(Way::ToSeat, sent.session, &e).expect("sealed for the seat");
    assert_eq!(String::from_utf8(plain).unwrap(), r#"{"posted":"taken"}"#, "the answer it had");
    assert_eq!(moves_of(&host.record_path()).len(), moves, "a repeated move is not played again");
    // Altered: not answered, nothing done.
    let mut altered = sent.clone();
    altered.seq += 1;
    assert!(ask(&altered).is_none());
    let mut flipped = sent.clone();
    let last = flipped.sealed.pop().unwrap();
    flipped.sealed.push(if last == '0' { '1' } else { '0' });
    assert!(ask(&flipped).is_none());
    // Forged by one who knows the game but not the seat's token: not answered.
    let forger = Keys::new(&Token([9; 16]), &game, "second");
    let text = serde_json::to_vec(&Request::View { after: None }).unwrap();
    assert!(ask(&forger.seal(Way::ToHost, sent.session, 1, &text)).is_none());
    // Too large: not taken.
    let big = keys.seal(Way::ToHost, sent.session, sent.seq + 10, &vec![b' '; 4096]);
    assert!(ask(&big).is_none());
    assert_eq!(moves_of(&host.record_path()).len(), moves);
    drop(host);
    std::fs::remove_dir_all(&d).ok();
}

#[test]
fn an_undo_is_asked_and_answered_through_the_relay_as_at_the_direct_host() {
    let Some(relay) = NatsServer::start(&[]) else { return };
    let d = dir("undo");
    let host = relay_host(&relay, d.join("game.json"), tablero::rules::Variant::Ordo.initial());
    let seats: Vec<Arc<dyn Link>> =
        host.invitations().iter().map(|(_, l)| Invitation::parse(l).unwrap().connect().unwrap()).collect();
    let (white, black) = (&seats[0], &seats[1]);
    assert_eq!(play_some(&**white, 1, 7).len(), 1);
    // Out of turn, refused with the direct host's status.
    let v = black.view(None).unwrap().unwrap();
    let theirs = Said::Move(SentMove { seq: 0, mv: "a1-a2".into() });
    assert_eq!(black.say(&theirs).unwrap(), Posted::Stale, "a stale move, as the direct host's 409");
    let ask = Said::Ask(tablero::net::Ask { seq: v.seq, what: tablero::net::Question::Undo });
    assert!(matches!(black.say(&ask).unwrap(), Posted::Refused { status: 403, .. }), "black has no move to take back");
    let w = white.view(None).unwrap().unwrap();
    assert_eq!(
        white.say(&Said::Ask(tablero::net::Ask { seq: w.seq, what: tablero::net::Question::Undo })).unwrap(),
        Posted::Taken
    );
    let v = black.view(None).unwrap().unwrap();
    assert!(v.asked.as_ref().is_some_and(|a| !a.mine), "black is asked");
    assert_eq!(black.say(&Said::Answer(tablero::net::Answer { yes: true })).unwrap(), Posted::Taken);
    let w = white.view(None).unwrap().unwrap();
    assert!(w.moves.is_empty() && w.your_turn, "the move is taken back: {:?}", w.moves);
    drop(host);
    std::fs::remove_dir_all(&d).ok();
}

#[test]
fn a_spectator_follows_a_game_through_the_relay_and_finds_it_again_after_the_relay_restarts() {
    use tablero::feed::client::{Heard, watch};
    let Some(mut relay) = NatsServer::start(&[]) else { return };
    let d = dir("watch");
    let host = relay_host(&relay, d.join("game.json"), tablero::rules::Variant::Ordo.initial());
    let place = host.relay.clone().unwrap();
    let link = place.watch_link();
    assert!(link.starts_with(&format!("{}/", relay.url())), "{link}");
    let seats: Vec<Arc<dyn Link>> =
        host.invitations().iter().map(|(_, l)| Invitation::parse(l).unwrap().connect().unwrap()).collect();
    // Two moves before the spectator comes: its first state holds them.
    play_some(&*seats[0], 1, 1);
    play_some(&*seats[1], 1, 2);
    let spectator = watch(&tablero::feed::client::base_url(&link).unwrap()).unwrap();
    let next = |what: &str| spectator.heard.recv_timeout(Duration::from_secs(15)).unwrap_or_else(|_| panic!("{what}"));
    let moves_of_state = |h: &Heard| match h {
        Heard::State(s) => s.shown.as_ref().unwrap().moves.iter().map(|m| m.mv.clone()).collect::<Vec<_>>(),
        other => panic!("a state, not {other:?}"),
    };
    let first = next("the state");
    assert_eq!(moves_of_state(&first), moves_of(&host.record_path()), "the game so far");
    // Then each move as it is played.
    let mine = play_some(&*seats[0], 1, 3);
    let mut seen = Vec::new();
    while seen.is_empty() {
        if let Heard::Event(e) = next("the move's event") {
            let text = serde_json::to_string(&*e).unwrap();
            if text.contains(&format!("\"move\":\"{}\"", mine[0])) {
                seen.push(text);
            }
        }
    }
    // The relay restarts: the spectator says it lost it, reads the game again once the relay
    // is back, and follows on.
    relay.down();
    let started = Instant::now();
    loop {
        assert!(started.elapsed() < Duration::from_secs(30), "the spectator says it lost the relay");
        if let Heard::Lost { .. } = next("the relay lost") {
            break;
        }
    }
    relay.up();
    play_some(&*seats[1], 1, 4);
    assert!(seen_until(&spectator, &moves_of(&host.record_path())), "the game as it stands");
    drop(host);
    std::fs::remove_dir_all(&d).ok();
}

#[test]
fn a_late_spectator_reads_the_game_from_the_relays_stream_with_its_host_away_and_a_lost_stream_is_made_again() {
    use tablero::feed::client::{base_url, watch};
    let d = dir("stream");
    let store = d.join("jetstream");
    let Some(mut relay) = NatsServer::start(&["-js", "-sd", store.to_str().unwrap()]) else { return };
    let record = d.join("game.json");
    let open = || relay_host(&relay, record.clone(), tablero::rules::Variant::Ordo.initial());
    let host = open();
    let link = base_url(&host.relay.clone().unwrap().watch_link()).unwrap();
    let seats: Vec<Arc<dyn Link>> =
        host.invitations().iter().map(|(_, l)| Invitation::parse(l).unwrap().connect().unwrap()).collect();
    play_some(&*seats[0], 1, 1);
    play_some(&*seats[1], 1, 2);
    play_some(&*seats[0], 1, 3);
    let so_far = moves_of(&record);
    std::thread::sleep(Duration::from_millis(300));
    // The host goes away: a spectator who comes now still gets the game so far, from the relay.
    drop(host);
    let spectator = watch(&link).unwrap();
    assert!(seen_until(&spectator, &so_far), "the game so far, with its host away");
    // The host back with its record; then the relay restarted without its storage: the host
    // makes the stream again, and a spectator who comes then finds the game as it stands.
    let host = open();
    play_some(&*seats[1], 1, 4);
    relay.down();
    std::fs::remove_dir_all(&store).unwrap();
    relay.up();
    let now = moves_of(&record);
    assert_eq!(now.len(), so_far.len() + 1);
    let late = watch(&link).unwrap();
    assert!(seen_until(&late, &now), "a spectator who comes after the stream was lost: the game as it stands");
    // The first spectator, still there, follows on too.
    assert!(seen_until(&spectator, &now), "the first spectator follows on");
    drop(host);
    std::fs::remove_dir_all(&d).ok();
}

/// Whether the spectator's game (its last state and the moves after it) comes to `moves`
/// within 30 s.
fn seen_until(spectator: &tablero::feed::client::Watcher, moves: &[String]) -> bool {
    use tablero::feed::client::Heard;
    let mut seen: Vec<String> = Vec::new();
    let started = Instant::now();
    while started.elapsed() < Duration::from_secs(30) {
        match spectator.heard.recv_timeout(Duration::from_millis(200)) {
            Ok(Heard::State(s)) => {
                seen = s.shown.as_ref().map_or(Vec::new(), |g| g.moves.iter().map(|m| m.mv.clone()).collect())
            }
            Ok(Heard::Event(e)) => {
                let v = serde_json::to_value(&*e).unwrap();
                if v["type"] == "move" {
                    seen.push(v["move"].as_str().unwrap().to_string());
                }
            }
            _ => {}
        }
        if seen == moves {
            return true;
        }
    }
    eprintln!("seen {seen:?}, not {moves:?}");
    false
}

/// A host in this process serving `start`'s seats (all remote) through `relay`, its record at
/// `record`.
fn relay_host(relay: &NatsServer, record: PathBuf, start: AnyGame) -> tablero::net::host::Host {
    let host = tablero::net::host::Host::open(tablero::net::host::HostOptions {
        record: Some(record),
        relay: Some(relay.url()),
        ..tablero::net::host::HostOptions::remote(start, "127.0.0.1:0".parse().unwrap())
    })
    .unwrap();
    host.reach_relay(Duration::from_secs(10)).unwrap();
    host
}
