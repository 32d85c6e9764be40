//! `cargo bench --no-default-features --bench spectators`: a game through a relay (one
//! nats-server with JetStream on loopback, started here) followed by 0, 100 and 1,000
//! spectators: the host in a process of its own (`tablero host … --headless --relay`), its two
//! seats and the spectators simulated here, each spectator a connection of its own subscribed
//! to the game's feed. Prints a move's delay from the seat to the spectators (median and 95th
//! percentile over every spectator and move) and the host's CPU time and resident memory.
//! Needs `nats-server` on the PATH.
//!
//!   cargo bench --no-default-features --bench spectators [-- MOVES]

#[path = "../tests/common/mod.rs"]
mod common;

use futures_util::StreamExt;
use std::io::BufRead;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};
use tablero::net::{Invitation, Link, Posted, Said, SentMove};

/// The host's CPU ticks (user and system) and resident memory in MB, from /proc.
fn host_use(pid: u32) -> (u64, u64) {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).unwrap_or_default();
    let fields: Vec<&str> = stat.rsplit(')').next().unwrap_or("").split_whitespace().collect();
    let ticks = fields.get(11).and_then(|u| u.parse::<u64>().ok()).unwrap_or(0)
        + fields.get(12).and_then(|s| s.parse::<u64>().ok()).unwrap_or(0);
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap_or_default();
    let rss = status
        .lines()
        .find(|l| l.starts_with("VmRSS"))
        .and_then(|l| l.split_whitespace().nth(1))
        .and_then(|k| k.parse::<u64>().ok())
        .unwrap_or(0);
    (ticks, rss / 1024)
}

fn view(link: &dyn Link) -> tablero::net::SeatView {
    loop {
        if let Some(v) = link.view(None).expect("the host answers") {
            return v;
        }
        std::thread::sleep(Duration::from_millis(50));
    }
}

struct Run {
    delays: Vec<f64>,
    ticks: u64,
    peak_mb: u64,
    seconds: f64,
}

fn run(binary: &str, relay: &str, dir: &std::path::Path, spectators: usize, moves: usize) -> Run {
    let record = dir.join(format!("game-{spectators}.json"));
    let mut host = std::process::Command::new(binary)
        .args(["host", "ctor10", "--headless", "--linger", "0", "--relay", relay, "--record"])
        .arg(&record)
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::null())
        .spawn()
        .expect("the host starts");
    let mut out = std::io::BufReader::new(host.stdout.take().unwrap());
    let (mut invites, mut watch) = (Vec::new(), String::new());
    loop {
        let mut line = String::new();
        assert!(out.read_line(&mut line).unwrap() > 0, "the host ended before serving");
        if let Some(rest) = line.trim().strip_prefix("invite ") {
            invites.push(rest.split_once(": ").unwrap().1.to_string());
        } else if let Some(w) = line.trim().strip_prefix("watch: ") {
            watch = w.to_string();
        } else if line.starts_with("record: ") {
            break;
        }
    }
    let place = tablero::nats::Place::parse(&watch).expect("the host's watch line");
    // The spectators: each a connection of its own, noting when each move's event arrives.
    let arrived: Arc<Mutex<Vec<(u64, Instant)>>> = Arc::new(Mutex::new(Vec::new()));
    let runtime = tokio::runtime::Builder::new_multi_thread().worker_threads(2).enable_all().build().unwrap();
    let mut clients = Vec::new();
    for _ in 0..spectators {
        let (relay, subject, arrived) = (relay.to_string(), tablero::nats::feed_subject(&place.game), arrived.clone());
        let (tx, rx) = std::sync::mpsc::channel();
        runtime.spawn(async move {
            let client = async_nats::connect(relay).await.expect("a spectator connects");
            let mut sub = client.subscribe(subject).await.unwrap();
            client.flush().await.unwrap();
            tx.send(client.clone()).unwrap();
            while let Some(m) = sub.next().await {
                let at = Instant::now();
                let v: serde_json::Value = serde_json::from_slice(&m.payload).unwrap_or_default();
                if v["type"] == "move"
                    && let Some(ply) = v["ply"].as_u64()
                {
                    arrived.lock().unwrap().push((ply, at));
                }
            }
        });
        clients.push(rx.recv().unwrap());
    }
    let seats: Vec<Arc<dyn Link>> =
        invites.iter().map(|l| Invitation::parse(l).unwrap().connect().expect("the seat connects")).collect();
    std::thread::sleep(Duration::from_millis(500));
    let (ticks0, _) = host_use(host.id());
    let started = Instant::now();
    // Each move's ply (the moves before it, plus one) and when the seat said it.
    let mut sent: Vec<(u64, Instant)> = Vec::new();
    let (mut square, mut peak) = (1, 0);
    while sent.len() < moves {
        let v = view(&*seats[0]);
        if v.result.is_some() {
            break;
        }
        let mover = if v.your_turn { 0 } else { 1 };
        let v = view(&*seats[mover]);
        let at = Instant::now();
        let put = Said::Move(SentMove { seq: v.seq, mv: format!("P{square}") });
        if seats[mover].say(&put).unwrap() == Posted::Taken {
            square += 1;
            sent.push((v.seq + 1, at));
        } else {
            // No Put left this turn: the turn ends.
            let at = Instant::now();
            if seats[mover].say(&Said::Move(SentMove { seq: v.seq, mv: "E".into() })).unwrap() == Posted::Taken {
                sent.push((v.seq + 1, at));
            }
        }
        peak = peak.max(host_use(host.id()).1);
        // The next move once every spectator has this one (at most 2 s later).
        let ply = sent.last().map_or(0, |s| s.0);
        let until = Instant::now() + Duration::from_secs(2);
        while spectators > 0 && Instant::now() < until {
            if arrived.lock().unwrap().iter().filter(|(p, _)| *p == ply).count() >= spectators {
                break;
            }
            std::thread::sleep(Duration::from_millis(1));
        }
    }
    let seconds = started.elapsed().as_secs_f64();
    let (ticks1, rss) = host_use(host.id());
    let _ = host.kill();
    let _ = host.wait();
    drop(clients);
    runtime.shutdown_background();
    let sent: std::collections::HashMap<u64, Instant> = sent.into_iter().collect();
    let delays = arrived
        .lock()
        .unwrap()
        .iter()
        .filter_map(|(ply, when)| sent.get(ply).map(|at| when.duration_since(*at).as_secs_f64() * 1000.0))
        .collect();
    Run { delays, ticks: ticks1 - ticks0, peak_mb: peak.max(rss), seconds }
}

fn main() {
    let moves: usize = std::env::args().skip(1).find_map(|a| a.parse().ok()).unwrap_or(60);
    let binary = env!("CARGO_BIN_EXE_tablero");
    let dir = std::env::temp_dir().join(format!("tablero-bench-spectators-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let store = dir.join("js");
    let nats = common::NatsServer::start(&["-js", "-sd", store.to_str().unwrap()])
        .expect("nats-server on the PATH (apt-get install nats-server)");
    let relay = nats.url();
    println!(
        "| spectators | moves | a move to the spectators: median | 95th percentile | host CPU | host CPU a move | host memory (peak) |"
    );
    println!("|---|---|---|---|---|---|---|");
    for spectators in [0, 100, 1000] {
        let mut r = run(binary, &relay, &dir, spectators, moves);
        r.delays.sort_by(f64::total_cmp);
        let at = |q: f64| r.delays.get(((r.delays.len() as f64 * q) as usize).min(r.delays.len().max(1) - 1)).copied();
        let ms = |v: Option<f64>| v.map_or("–".to_string(), |v| format!("{v:.1} ms"));
        let n = moves.max(1) as f64;
        println!(
            "| {spectators} | {moves} in {:.1} s | {} | {} | {} ms | {:.2} ms | {} MB |",
            r.seconds,
            ms(at(0.5)),
            ms(at(0.95)),
            r.ticks * 10,
            r.ticks as f64 * 10.0 / n,
            r.peak_mb
        );
    }
    drop(nats);
    std::fs::remove_dir_all(&dir).ok();
}
