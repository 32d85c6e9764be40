//! `cargo bench --no-default-features --bench relay`: the delay of a move from one seat to the
//! other, through a relay (a nats-server on loopback, started here) and, for comparison, through
//! the direct host's port: a CTOR 10 × 10 game between two remote seats, the second seat waiting
//! on its view while the first plays a Put or ends its turn. Needs `nats-server` on the PATH.
//!
//!   cargo bench --no-default-features --bench relay [-- MOVES]

#[path = "../tests/common/mod.rs"]
mod common;

use std::sync::Arc;
use std::time::{Duration, Instant};
use tablero::net::host::{Host, HostOptions};
use tablero::net::{Invitation, Link, Posted, Said, SentMove};
use tablero::rules::AnyGame;

/// The seat's view; over a seat's 100 requests a second, a moment and again.
fn view(link: &dyn Link, after: Option<u64>) -> tablero::net::SeatView {
    loop {
        match link.view(after).expect("the host answers") {
            Some(v) => return v,
            None => std::thread::sleep(Duration::from_millis(50)),
        }
    }
}

/// The delays in milliseconds of `moves` moves between the host's two seats.
fn delays(host: &Host, moves: usize) -> Vec<f64> {
    let seats: Vec<Arc<dyn Link>> = host
        .invitations()
        .iter()
        .map(|(_, link)| Invitation::parse(link).unwrap().connect().expect("the seat connects"))
        .collect();
    let mut out = Vec::new();
    let mut square = 1;
    while out.len() < moves {
        let v = view(&*seats[0], None);
        if v.result.is_some() {
            break;
        }
        let (mover, watcher) = if v.your_turn { (0, 1) } else { (1, 0) };
        let v = view(&*seats[mover], None);
        let w = seats[watcher].clone();
        let version = v.version;
        let waiting = std::thread::spawn(move || {
            let seen = view(&*w, Some(version));
            (Instant::now(), seen.version)
        });
        std::thread::sleep(Duration::from_millis(20));
        let mut sent = Instant::now();
        let put = Said::Move(SentMove { seq: v.seq, mv: format!("P{square}") });
        let taken = match seats[mover].say(&put).unwrap() {
            Posted::Taken => {
                square += 1;
                true
            }
            // No Put left this turn: the turn ends.
            _ => {
                sent = Instant::now();
                seats[mover].say(&Said::Move(SentMove { seq: v.seq, mv: "E".into() })).unwrap() == Posted::Taken
            }
        };
        let (seen, version_seen) = waiting.join().unwrap();
        if taken && version_seen != version {
            out.push(seen.duration_since(sent).as_secs_f64() * 1000.0);
        }
    }
    out
}

fn summary(name: &str, mut d: Vec<f64>) {
    d.sort_by(f64::total_cmp);
    let at = |q: f64| d[((d.len() as f64 * q) as usize).min(d.len() - 1)];
    println!("{name}: {} moves, median {:.2} ms, 95th percentile {:.2} ms", d.len(), at(0.5), at(0.95));
}

fn main() {
    let moves: usize = std::env::args().skip(1).find_map(|a| a.parse().ok()).unwrap_or(150);
    let start: AnyGame = tablero::rules::Variant::Ctor10.initial();
    let dir = std::env::temp_dir().join(format!("tablero-bench-relay-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let nats = common::NatsServer::start(&[]).expect("nats-server on the PATH (apt-get install nats-server)");
    let relay = Host::open(HostOptions {
        record: Some(dir.join("relay.json")),
        relay: Some(nats.url()),
        ..HostOptions::remote(start.clone(), "127.0.0.1:0".parse().unwrap())
    })
    .expect("the host on the relay");
    relay.reach_relay(Duration::from_secs(10)).expect("the host on the relay");
    summary("through the relay (nats-server on loopback)", delays(&relay, moves));
    drop(relay);
    let direct = Host::open(HostOptions {
        record: Some(dir.join("direct.json")),
        ..HostOptions::remote(start, "127.0.0.1:0".parse().unwrap())
    })
    .expect("the direct host");
    summary("through the host's port (HTTP on loopback)", delays(&direct, moves));
    drop(direct);
    drop(nats);
    std::fs::remove_dir_all(&dir).ok();
}
