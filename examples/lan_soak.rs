//! A soak of LAN play on loopback: `lan_soak [GAMES] [terminal|alpha]`.
//! Each game is a host and two CPU clients (easy) in this process, over
//! 127.0.0.1; every game must end with the same hash on the host and on
//! both clients, the process's memory must stay flat, and the round trip
//! from a client's answer to the events reaching every client is measured
//! (median and 99th percentile). Exits 1 on a desync or a leak.

use std::net::SocketAddr;
use std::sync::{Arc, Mutex};
use std::thread;
use std::time::{Duration, Instant};

use bterm::ai::Strength;
use bterm::cards::{CardNumber, CardSet};
use bterm::net::Lan;
use bterm::net::client::{CpuSeat, JoinOptions, Seatside, join};
use bterm::net::host::{Host, HostOptions};
use bterm::net::link::HostLink;
use bterm::net::protocol::{Asked, Role};
use bterm::rules::alpha::{self, deck};
use bterm::rules::{Reply, Seat, terminal};
use bterm::session::{Player, Watch};

/// When each client first saw each step, and when each answer was sent
/// (with the step it answered at).
#[derive(Default)]
struct Clock {
    seen: Vec<Vec<(u64, Instant)>>,
    answers: Vec<(u64, Instant)>,
}

struct Timed {
    me: usize,
    cpu: CpuSeat,
    clock: Arc<Mutex<Clock>>,
    step: u64,
}

impl<R: Lan> Seatside<R> for Timed {
    type Error = std::convert::Infallible;
    fn update(&mut self, step: u64, _: &[R::Event], _: &R::View) {
        self.step = step;
        if let Ok(mut c) = self.clock.lock() {
            c.seen[self.me].push((step, Instant::now()));
        }
    }
    fn ask(
        &mut self,
        seat: Seat,
        view: Option<&R::View>,
        asked: &Asked<R>,
    ) -> Result<Option<Reply<R::Action>>, Self::Error> {
        let reply = self.cpu.choose(seat, view, asked).map(Reply::Act);
        if let Ok(mut c) = self.clock.lock() {
            c.answers.push((self.step, Instant::now()));
        }
        Ok(reply)
    }
}

/// Resident memory of this process, in KiB (Linux).
fn rss_kib() -> u64 {
    std::fs::read_to_string("/proc/self/statm")
        .ok()
        .and_then(|s| s.split_whitespace().nth(1)?.parse::<u64>().ok())
        .map_or(0, |pages| pages * 4)
}

/// Round trips in buckets of 10 µs up to 1 s (the last bucket holds
/// anything longer): a fixed size, so the soak's own record does not grow
/// with the run and hide or fake a leak.
struct Histogram(Vec<u64>);

const BUCKET_US: u128 = 10;
const BUCKETS: usize = 100_000;

impl Histogram {
    fn new() -> Histogram {
        Histogram(vec![0; BUCKETS])
    }
    fn add(&mut self, d: Duration) {
        let i = ((d.as_micros() / BUCKET_US) as usize).min(BUCKETS - 1);
        self.0[i] += 1;
    }
    fn count(&self) -> u64 {
        self.0.iter().sum()
    }
    /// The value below which a share `p` of the round trips fall, ms.
    fn percentile(&self, p: f64) -> f64 {
        let want = ((self.count() as f64) * p).ceil().max(1.0) as u64;
        let mut seen = 0;
        for (i, &n) in self.0.iter().enumerate() {
            seen += n;
            if seen >= want {
                return (i as f64 + 0.5) * BUCKET_US as f64 / 1000.0;
            }
        }
        0.0
    }
}

fn one_game<R: Lan>(seats: [Vec<CardNumber>; 2], seed: u64, latencies: &mut Histogram) -> bool {
    let Ok(link) = HostLink::bind(
        "127.0.0.1:0"
            .parse()
            .unwrap_or(SocketAddr::from(([127, 0, 0, 1], 0))),
    ) else {
        return false;
    };
    let addr = link.addr();
    let options = HostOptions::new(
        "soak",
        "1",
        vec![Player::Remote, Player::Remote],
        vec![None, None],
        seed,
    );
    let host = thread::spawn(move || {
        let set = CardSet::embedded();
        let mut h: Host<R> = Host::new(link, options, Box::new(|_| {}));
        let mut table = h
            .fill(&set, Some(Instant::now() + Duration::from_secs(30)))
            .ok()??;
        h.play(&mut table, &set, &mut Watch(|_: &R::Event| {}))
            .ok()?;
        Some(table.game().state_hash())
    });
    let clock = Arc::new(Mutex::new(Clock {
        seen: vec![Vec::new(), Vec::new()],
        answers: Vec::new(),
    }));
    let mut clients = Vec::new();
    for (me, cards) in seats.into_iter().enumerate() {
        let clock = Arc::clone(&clock);
        clients.push(thread::spawn(move || {
            let set = CardSet::embedded();
            let options = JoinOptions::new(addr, &format!("cpu{me}"), Role::Player, "1", cards);
            let mut front = Timed {
                me,
                cpu: CpuSeat(Strength::Easy),
                clock,
                step: 0,
            };
            join::<R, _>(&options, &set, &mut front)
                .ok()
                .map(|e| e.replay.final_hash)
        }));
        // Seats in a known order.
        thread::sleep(Duration::from_millis(20));
    }
    let host_hash = host.join().ok().flatten();
    let hashes: Vec<Option<u64>> = clients
        .into_iter()
        .map(|c| c.join().ok().flatten())
        .collect();
    let same = host_hash.is_some() && hashes.iter().all(|h| *h == host_hash);
    if let Ok(c) = clock.lock() {
        for &(step, sent) in &c.answers {
            // The events of that answer reach a client in its first update
            // past the step the answer was given at.
            let arrivals: Option<Vec<Instant>> = c
                .seen
                .iter()
                .map(|seen| {
                    seen.iter()
                        .find(|&&(s, t)| s > step && t >= sent)
                        .map(|&(_, t)| t)
                })
                .collect();
            if let Some(latest) = arrivals.and_then(|a| a.into_iter().max()) {
                latencies.add(latest - sent);
            }
        }
    }
    same
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let games: u64 = args.get(1).and_then(|s| s.parse().ok()).unwrap_or(1000);
    let alpha_game = args.get(2).is_some_and(|s| s == "alpha");
    let set = CardSet::embedded();
    let names: Vec<&str> = deck::EMBEDDED.iter().map(|(n, _)| *n).collect();
    let teams = [
        vec!["Dα-001".parse().unwrap(), "OP-010".parse().unwrap()],
        vec!["Dα-021".parse().unwrap(), "Dα-012".parse().unwrap()],
    ];
    let mut latencies = Histogram::new();
    let mut desyncs = 0;
    let start = Instant::now();
    let warm = games.min(20);
    let mut rss_warm = 0;
    let mut rss_peak = 0;
    for g in 0..games {
        let ok = if alpha_game {
            let d = |k: usize| {
                deck::embedded(names[(g as usize + k) % names.len()], &set)
                    .and_then(Result::ok)
                    .unwrap_or_default()
            };
            one_game::<alpha::Match>([d(0), d(2)], g, &mut latencies)
        } else {
            one_game::<terminal::Match>(teams.clone(), g, &mut latencies)
        };
        if !ok {
            desyncs += 1;
            eprintln!("game {g}: the host and its clients did not end the same");
        }
        if g + 1 == warm {
            rss_warm = rss_kib();
        }
        rss_peak = rss_peak.max(rss_kib());
    }
    let pct = |p: f64| latencies.percentile(p);
    let rss_end = rss_kib();
    println!(
        "{games} {} games on loopback in {:.1} s: {desyncs} desyncs; round trip from an answer to its events at every client over {} answers: median {:.2} ms, 99th percentile {:.2} ms; memory after {warm} games {} KiB, at the end {} KiB, peak {} KiB",
        if alpha_game {
            "Card Game Alpha"
        } else {
            "Terminal Battle"
        },
        start.elapsed().as_secs_f64(),
        latencies.count(),
        pct(0.5),
        pct(0.99),
        rss_warm,
        rss_end,
        rss_peak
    );
    // Flat: the end within a fifth (and 8 MiB) of where it was once warm.
    let leak = games > warm && rss_end > rss_warm + (rss_warm / 5).max(8 * 1024);
    if leak {
        eprintln!("memory grew from {rss_warm} KiB to {rss_end} KiB");
    }
    if desyncs > 0 || leak || latencies.count() == 0 {
        std::process::exit(1);
    }
}
