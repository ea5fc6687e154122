//! `surflet serve` under load: 50 clients for 30 seconds on loopback, each
//! looping over a mix of renders, samples, analyses, exports, page fetches,
//! oversized requests, malformed JSON, bodies sent slowly and renders
//! abandoned mid-computation.
//!
//! Every answer must be correct (a render's bytes equal `surflet render`'s,
//! a sample's numbers `surflet sample`'s, an analysis the one the idle
//! server gave) or one of the refusals BAD-INPUT.md documents for what was
//! sent (400, 413, and for well-formed requests 503 and 504). Clients honour
//! `Retry-After`, as the page does, and at least 90 % of the well-formed,
//! in-limit requests must succeed within their 20 seconds. The server's
//! peak resident memory must stay under `RSS_BOUND_MIB` (documented in
//! BAD-INPUT.md), and afterwards it must answer as before.
//!
//! It takes 30 seconds, so it is `#[ignore]`d in the test command and run
//! alone by CI's `load` step (`.ci/run`), which reuses the test command's
//! build; the figures it prints are the ones BENCHMARKS.md quotes:
//!
//! `cargo test --workspace --all-features --test cli -- --ignored --nocapture load::`

use std::collections::BTreeMap;
use std::fs;
use std::io::{Read, Write};
use std::net::TcpStream;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use serde_json::{Value, json};
use tempfile::TempDir;

use super::serve::Server;
use crate::common::*;

const CLIENTS: usize = 50;
const DURATION: Duration = Duration::from_secs(30);
/// How long a well-formed request may keep trying (honouring Retry-After)
/// before it counts as failed.
const PATIENCE: Duration = Duration::from_secs(20);
/// The server's peak resident memory under this load must stay below this
/// (BAD-INPUT.md): the default limits let 4 requests compute at once, and
/// the largest here is a 1024² render (4 MiB of values, a few of pixels);
/// the rest is the binary, tokio's and rayon's threads and the buffers of
/// 50 connections.
const RSS_BOUND_MIB: u64 = 256;

/// SplitMix64: each client's choices, reproducible.
struct Rng(u64);
impl Rng {
    fn below(&mut self, n: u64) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        (z ^ (z >> 31)) % n
    }
}

/// The well-formed requests, each with the answer it must get.
struct Expected {
    renders: Vec<(Value, Vec<u8>)>,
    samples: Vec<(Value, Vec<Vec<f64>>)>,
    analyses: Vec<(Value, Value)>,
}

fn render_bodies() -> Vec<Value> {
    vec![
        json!({"config": {"version": 2, "noise": "perlin", "seed": 3, "fractal": {"octaves": 5},
                          "view": {"size": [96, 64], "origin": [1.5, -2.25], "scale": 0.03}}}),
        json!({"config": {"version": 2, "noise": "simplex", "seed": 11,
                          "fractal": {"kind": "ridged", "octaves": 4}, "warp": {"amplitude": 0.4},
                          "view": {"size": [128, 128]},
                          "pixels": {"mode": "ramp", "ramp": "terrain", "range": "auto"}}}),
        json!({"config": {"version": 2, "noise": "cellular", "distance": "manhattan",
                          "return": "f2-f1", "view": {"size": [64, 72], "dims": 3, "z": 0.4},
                          "pixels": {"mode": "normal"}}}),
        json!({"config": {"version": 2, "noise": "value", "period": [4, 4],
                          "fractal": {"octaves": 3}, "view": {"size": [256, 256]}}}),
        json!({"expr": "select(fbm(simplex(seed=1), octaves=4), ridged(perlin(seed=2)), \
                        control=perlin(seed=3, frequency=0.5), threshold=0, falloff=0.1)",
               "config": {"version": 2, "view": {"size": [160, 120]}}}),
        // The large one: a 1024² fBm, about a tenth of a second of work.
        json!({"config": {"version": 2, "noise": "opensimplex2", "fractal": {"octaves": 6},
                          "view": {"size": [1024, 1024], "scale": "1/256"}}}),
    ]
}

fn sample_bodies() -> Vec<(Value, usize)> {
    let points = |dims: usize, n: usize| -> Vec<Vec<f64>> {
        (0..n)
            .map(|i| {
                (0..dims)
                    .map(|a| i as f64 * 0.371 - 40.0 + a as f64 * 1.7)
                    .collect()
            })
            .collect()
    };
    vec![
        (
            json!({"config": {"version": 2, "noise": "simplex", "seed": 9,
                              "fractal": {"octaves": 4}, "warp": {"amplitude": 0.3}},
                   "points": points(3, 500), "gradient": true}),
            3,
        ),
        (
            json!({"config": {"version": 2, "noise": "cellular", "jitter": 0.5},
                   "points": points(2, 4000)}),
            2,
        ),
        (
            json!({"expr": "max(perlin(seed=2), simplex(seed=3) * 0.5)",
                   "points": points(4, 300), "gradient": true}),
            4,
        ),
    ]
}

fn analyze_bodies() -> Vec<Value> {
    vec![
        json!({"config": {"version": 2, "noise": "perlin", "fractal": {"octaves": 3}},
               "size": [128, 128]}),
        json!({"expr": "abs(fbm(simplex(seed=4), octaves=3))", "size": [96, 96]}),
    ]
}

/// What the command line answers for each well-formed request, and what
/// the idle server answers for each analysis.
fn expected(server: &Server, dir: &TempDir) -> Expected {
    let config_file = |body: &Value, name: &str| {
        let path = dir.path().join(name);
        // The CLI takes the expression as a flag beside the config.
        let config = body.get("config").cloned().unwrap_or(json!({"version": 2}));
        let expr = body.get("expr").map(|e| e.as_str().unwrap().to_string());
        (path, expr, config)
    };
    let renders = render_bodies()
        .into_iter()
        .enumerate()
        .map(|(i, body)| {
            let (path, expr, config) = config_file(&body, &format!("render{i}.json"));
            fs::write(&path, config.to_string()).unwrap();
            let mut args = vec!["--config".to_string(), path.to_str().unwrap().to_string()];
            if let Some(e) = expr {
                args.extend(["--expr".to_string(), e]);
            }
            let args: Vec<&str> = args.iter().map(String::as_str).collect();
            let out = render_in(dir.path(), &format!("want{i}.png"), &args);
            (body, fs::read(out).unwrap())
        })
        .collect();
    let samples = sample_bodies()
        .into_iter()
        .enumerate()
        .map(|(i, (body, dims))| {
            let (path, expr, config) = config_file(&body, &format!("sample{i}.json"));
            fs::write(&path, config.to_string()).unwrap();
            let mut args = vec!["--config".to_string(), path.to_str().unwrap().to_string()];
            if let Some(e) = expr {
                args.extend(["--expr".to_string(), e]);
            }
            if body["gradient"] == true {
                args.push("--gradient".into());
            }
            let args: Vec<&str> = args.iter().map(String::as_str).collect();
            let input: String = body["points"]
                .as_array()
                .unwrap()
                .iter()
                .map(|p| {
                    let p: Vec<String> = p
                        .as_array()
                        .unwrap()
                        .iter()
                        .map(|c| c.as_f64().unwrap().to_string())
                        .collect();
                    assert_eq!(p.len(), dims);
                    p.join(",") + "\n"
                })
                .collect();
            (body, parse_output(&sample_ok(&args, &input)))
        })
        .collect();
    let analyses = analyze_bodies()
        .into_iter()
        .map(|body| {
            let v = server.json("/api/analyze", &body);
            (body, v)
        })
        .collect();
    Expected {
        renders,
        samples,
        analyses,
    }
}

/// Whether a sample answer has the command line's bits.
fn sample_matches(answer: &Value, want: &[Vec<f64>]) -> bool {
    let values = answer["values"].as_array();
    let gradients = answer["gradients"].as_array();
    let Some(values) = values else { return false };
    values.len() == want.len()
        && want.iter().enumerate().all(|(i, row)| {
            let value_ok = values[i].as_f64().is_some_and(|v| same_bits(v, row[0]));
            let gradient_ok = row.len() == 1
                || gradients.is_some_and(|g| {
                    (1..row.len())
                        .all(|a| g[i][a - 1].as_f64().is_some_and(|v| same_bits(v, row[a])))
                });
            value_ok && gradient_ok
        })
}

/// What a client did: per kind of request, how many there were, how many
/// succeeded, the statuses seen, the latencies of the answered attempts.
#[derive(Default)]
struct Tally {
    kinds: BTreeMap<&'static str, (usize, usize)>,
    statuses: BTreeMap<u16, usize>,
    latencies: Vec<Duration>,
    /// The latencies of the 200 answers alone.
    served: Vec<Duration>,
    wrong: Vec<String>,
    retries: usize,
}

impl Tally {
    fn merge(&mut self, o: Tally) {
        for (k, (n, ok)) in o.kinds {
            let e = self.kinds.entry(k).or_default();
            e.0 += n;
            e.1 += ok;
        }
        for (s, n) in o.statuses {
            *self.statuses.entry(s).or_default() += n;
        }
        self.latencies.extend(o.latencies);
        self.served.extend(o.served);
        self.wrong.extend(o.wrong);
        self.retries += o.retries;
    }
}

fn agent() -> ureq::Agent {
    ureq::Agent::config_builder()
        .http_status_as_error(false)
        .timeout_global(Some(Duration::from_secs(60)))
        .build()
        .into()
}

/// One POST: status, Retry-After's presence, body; the latency is tallied.
fn post(agent: &ureq::Agent, url: &str, body: &[u8], t: &mut Tally) -> (u16, bool, Vec<u8>) {
    let start = Instant::now();
    let mut r = agent
        .post(url)
        .header("content-type", "application/json")
        .send(body)
        .unwrap();
    let status = r.status().as_u16();
    let retry = r.headers().get("retry-after").is_some();
    let bytes = r
        .body_mut()
        .with_config()
        .limit(64 << 20)
        .read_to_vec()
        .unwrap();
    t.latencies.push(start.elapsed());
    if status == 200 {
        t.served.push(start.elapsed());
    }
    *t.statuses.entry(status).or_default() += 1;
    (status, retry, bytes)
}

/// A well-formed request, retried after each 503 as its Retry-After says
/// until `PATIENCE` runs out; true when it got the right answer.
fn well_formed(
    agent: &ureq::Agent,
    url: &str,
    body: &Value,
    t: &mut Tally,
    right: impl Fn(&[u8]) -> bool,
) -> bool {
    let start = Instant::now();
    let text = body.to_string();
    loop {
        let (status, retry, bytes) = post(agent, url, text.as_bytes(), t);
        match status {
            200 => {
                if !right(&bytes) {
                    t.wrong
                        .push(format!("{url}: a wrong answer to {text:.120}"));
                }
                return right(&bytes);
            }
            503 if retry && start.elapsed() < PATIENCE => {
                t.retries += 1;
                std::thread::sleep(Duration::from_secs(1));
            }
            503 | 504 => return false,
            s => {
                t.wrong
                    .push(format!("{url}: status {s} for a well-formed request"));
                return false;
            }
        }
    }
}

/// A request the server must refuse with `want`.
fn refused(agent: &ureq::Agent, url: &str, body: &[u8], want: u16, t: &mut Tally) -> bool {
    let (status, _, bytes) = post(agent, url, body, t);
    let json: Option<Value> = serde_json::from_slice(&bytes).ok();
    let ok = status == want && json.is_some_and(|v| v["error"].is_string());
    if !ok {
        t.wrong.push(format!(
            "{url}: {status} where {want} was due: {:.200}",
            String::from_utf8_lossy(&bytes)
        ));
    }
    ok
}

/// A raw request on its own connection: headers, then the body in `chunks`
/// pieces `gap` apart, then the answer's status and body (None if the
/// connection ends without one).
fn raw(port: u16, path: &str, body: &[u8], chunks: usize, gap: Duration) -> Option<(u16, Vec<u8>)> {
    let mut s = TcpStream::connect(("127.0.0.1", port)).ok()?;
    s.set_read_timeout(Some(Duration::from_secs(60))).ok()?;
    write!(
        s,
        "POST {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nContent-Type: application/json\r\n\
         Content-Length: {}\r\nConnection: close\r\n\r\n",
        body.len()
    )
    .ok()?;
    for piece in body.chunks(body.len().div_ceil(chunks).max(1)) {
        std::thread::sleep(gap);
        s.write_all(piece).ok()?;
    }
    let mut reply = Vec::new();
    s.read_to_end(&mut reply).ok()?;
    let head_end = reply.windows(4).position(|w| w == b"\r\n\r\n")?;
    let head = String::from_utf8_lossy(&reply[..head_end]);
    let status = head.split_whitespace().nth(1)?.parse().ok()?;
    let mut rest = reply[head_end + 4..].to_vec();
    if head
        .to_ascii_lowercase()
        .contains("transfer-encoding: chunked")
    {
        rest = dechunk(&rest);
    }
    Some((status, rest))
}

/// The body of a chunked answer.
fn dechunk(mut data: &[u8]) -> Vec<u8> {
    let mut out = Vec::new();
    while let Some(line_end) = data.windows(2).position(|w| w == b"\r\n") {
        let size = usize::from_str_radix(String::from_utf8_lossy(&data[..line_end]).trim(), 16)
            .unwrap_or(0);
        if size == 0 {
            break;
        }
        let start = line_end + 2;
        out.extend_from_slice(&data[start..(start + size).min(data.len())]);
        data = &data[(start + size + 2).min(data.len())..];
    }
    out
}

/// One client's loop until `stop`.
fn client(id: usize, port: u16, url: String, want: Arc<Expected>, stop: Arc<AtomicBool>) -> Tally {
    let agent = agent();
    let mut rng = Rng(id as u64 * 7919 + 1);
    let mut t = Tally::default();
    let api = |p: &str| format!("{url}/api/{p}");
    while !stop.load(Ordering::Relaxed) {
        let pick = rng.below(100);
        let (kind, ok): (&'static str, bool) = match pick {
            0..=29 => {
                let (body, png) = &want.renders[rng.below(want.renders.len() as u64) as usize];
                let ok = well_formed(&agent, &api("render"), body, &mut t, |b| b == &png[..]);
                ("render", ok)
            }
            30..=49 => {
                let (body, rows) = &want.samples[rng.below(want.samples.len() as u64) as usize];
                let ok = well_formed(&agent, &api("sample"), body, &mut t, |b| {
                    serde_json::from_slice(b).is_ok_and(|v: Value| sample_matches(&v, rows))
                });
                ("sample", ok)
            }
            50..=59 => {
                let (body, answer) = &want.analyses[rng.below(want.analyses.len() as u64) as usize];
                let ok = well_formed(&agent, &api("analyze"), body, &mut t, |b| {
                    serde_json::from_slice::<Value>(b).is_ok_and(|v| &v == answer)
                });
                ("analyze", ok)
            }
            60..=63 => {
                let start = Instant::now();
                let mut r = agent.get(format!("{url}/api/noises")).call().unwrap();
                let status = r.status().as_u16();
                let body = r.body_mut().read_to_vec().unwrap();
                t.latencies.push(start.elapsed());
                *t.statuses.entry(status).or_default() += 1;
                let ok = status == 200 && serde_json::from_slice::<Value>(&body).is_ok();
                if !ok {
                    t.wrong.push(format!("GET /api/noises: {status}"));
                }
                ("page", ok)
            }
            64..=71 => {
                // Oversized: a body past 1 MiB, an image past 2048, too
                // many points.
                let ok = match rng.below(3) {
                    0 => {
                        let big = format!("{{\"expr\": \"{}\"}}", " ".repeat(1 << 20));
                        refused(&agent, &api("render"), big.as_bytes(), 413, &mut t)
                    }
                    1 => refused(
                        &agent,
                        &api("render"),
                        br#"{"size": [4096, 64]}"#,
                        413,
                        &mut t,
                    ),
                    _ => {
                        let points = vec![[0.5, 0.5]; 65537];
                        let body = json!({ "points": points }).to_string();
                        refused(&agent, &api("sample"), body.as_bytes(), 413, &mut t)
                    }
                };
                ("oversized", ok)
            }
            72..=79 => {
                // Malformed: not JSON, not an object, an unknown key, more
                // than 4 coordinates, a bad expression.
                let bodies: [(&str, &[u8]); 5] = [
                    ("render", b"{\"config\": {\"version\": 2,"),
                    ("analyze", b"[1, 2, 3]"),
                    ("render", b"{\"colour\": \"red\"}"),
                    ("sample", b"{\"points\": [[1, 2, 3, 4, 5]]}"),
                    ("render", b"{\"expr\": \"perlin(+\"}"),
                ];
                let (path, body) = bodies[rng.below(5) as usize];
                ("malformed", refused(&agent, &api(path), body, 400, &mut t))
            }
            80..=89 => {
                // A slow body: a small render sent in five pieces over
                // about a second, on a connection of its own.
                let (body, png) = &want.renders[0];
                let start = Instant::now();
                let mut ok = false;
                while start.elapsed() < PATIENCE {
                    let text = body.to_string();
                    let answer = raw(
                        port,
                        "/api/render",
                        text.as_bytes(),
                        5,
                        Duration::from_millis(200),
                    );
                    let Some((status, bytes)) = answer else {
                        t.wrong.push("a slow body got no answer".into());
                        break;
                    };
                    *t.statuses.entry(status).or_default() += 1;
                    match status {
                        200 => {
                            ok = bytes == *png;
                            if !ok {
                                t.wrong.push("a slow body's render differs".into());
                            }
                            break;
                        }
                        503 => {
                            t.retries += 1;
                            std::thread::sleep(Duration::from_secs(1));
                        }
                        504 => break,
                        s => {
                            t.wrong.push(format!("a slow body got {s}"));
                            break;
                        }
                    }
                }
                ("slow body", ok)
            }
            _ => {
                // A client that goes away mid-render: the large render,
                // abandoned 50 ms after it is sent.
                let body = want.renders[5].0.to_string();
                if let Ok(mut s) = TcpStream::connect(("127.0.0.1", port)) {
                    let _ = write!(
                        s,
                        "POST /api/render HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n\
                         Content-Type: application/json\r\nContent-Length: {}\r\n\r\n{body}",
                        body.len()
                    );
                    std::thread::sleep(Duration::from_millis(50));
                }
                ("abandoned", true)
            }
        };
        let e = t.kinds.entry(kind).or_default();
        e.0 += 1;
        e.1 += usize::from(ok);
    }
    t
}

/// The server's resident memory now and at its peak, in KiB.
fn memory_kib(pid: u32) -> Option<(u64, u64)> {
    let status = fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    let field = |name: &str| -> Option<u64> {
        let line = status.lines().find(|l| l.starts_with(name))?;
        line.split_whitespace().nth(1)?.parse().ok()
    };
    Some((field("VmRSS:")?, field("VmHWM:")?))
}

fn percentile(sorted: &[Duration], p: f64) -> Duration {
    sorted[((sorted.len() - 1) as f64 * p).round() as usize]
}

#[test]
#[ignore = "30 seconds of load: run by CI's load step (.ci/run)"]
fn fifty_clients_for_thirty_seconds() {
    let server = Server::start(&[]);
    let dir = TempDir::new().unwrap();
    let want = Arc::new(expected(&server, &dir));
    let idle = memory_kib(server.pid()).map(|m| m.0);
    let stop = Arc::new(AtomicBool::new(false));
    let peak = Arc::new(Mutex::new(0u64));
    let monitor = {
        let (stop, peak, pid) = (stop.clone(), peak.clone(), server.pid());
        std::thread::spawn(move || {
            while !stop.load(Ordering::Relaxed) {
                if let Some((rss, _)) = memory_kib(pid) {
                    let mut p = peak.lock().unwrap();
                    *p = (*p).max(rss);
                }
                std::thread::sleep(Duration::from_millis(20));
            }
        })
    };
    let started = Instant::now();
    let clients: Vec<_> = (0..CLIENTS)
        .map(|id| {
            let (url, want, stop) = (server.url().to_string(), want.clone(), stop.clone());
            let port = server.port();
            std::thread::spawn(move || client(id, port, url, want, stop))
        })
        .collect();
    std::thread::sleep(DURATION);
    stop.store(true, Ordering::Relaxed);
    let mut tally = Tally::default();
    for c in clients {
        tally.merge(c.join().unwrap());
    }
    let elapsed = started.elapsed();
    monitor.join().unwrap();
    let hwm = memory_kib(server.pid()).map(|m| m.1);

    let answered = tally.latencies.len();
    let mut lat = tally.latencies.clone();
    lat.sort();
    let rps = answered as f64 / elapsed.as_secs_f64();
    let (p50, p99) = (percentile(&lat, 0.5), percentile(&lat, 0.99));
    let mut served = tally.served.clone();
    served.sort();
    let (s50, s99) = (percentile(&served, 0.5), percentile(&served, 0.99));
    let (mut asked, mut succeeded) = (0, 0);
    for kind in ["render", "sample", "analyze", "page", "slow body"] {
        let (n, ok) = tally.kinds.get(kind).copied().unwrap_or_default();
        asked += n;
        succeeded += ok;
    }
    println!("LOAD {CLIENTS} clients, {elapsed:.1?}: {answered} answers, {rps:.0} per second");
    println!("LOAD latency of an answer: p50 {p50:.1?}, p99 {p99:.1?}");
    println!("LOAD latency of a 200 (JSON and PNG over ureq): p50 {s50:.1?}, p99 {s99:.1?}");
    println!("LOAD requests by kind (count, correct): {:?}", tally.kinds);
    println!(
        "LOAD statuses: {:?}; 503 retries {}",
        tally.statuses, tally.retries
    );
    println!(
        "LOAD well-formed requests: {succeeded} of {asked} succeeded ({:.1} %)",
        100.0 * succeeded as f64 / asked.max(1) as f64
    );
    let peak = *peak.lock().unwrap();
    println!(
        "LOAD server memory: idle {} MiB, peak RSS {} MiB (VmHWM {} MiB)",
        idle.unwrap_or(0) / 1024,
        peak / 1024,
        hwm.unwrap_or(0) / 1024
    );

    let mut wrong = tally.wrong.clone();
    wrong.sort();
    wrong.dedup();
    assert!(
        tally.wrong.is_empty(),
        "{} wrong answers: {wrong:#?}",
        tally.wrong.len()
    );
    for status in tally.statuses.keys() {
        assert!(
            [200, 400, 413, 503, 504].contains(status),
            "status {status}: {:?}",
            tally.statuses
        );
    }
    for kind in [
        "render",
        "sample",
        "analyze",
        "oversized",
        "malformed",
        "slow body",
        "abandoned",
    ] {
        assert!(
            tally.kinds.get(kind).is_some_and(|k| k.0 > 0),
            "no {kind} request was made: {:?}",
            tally.kinds
        );
    }
    assert!(
        succeeded * 10 >= asked * 9,
        "only {succeeded} of {asked} well-formed requests succeeded"
    );
    if let Some(hwm) = hwm {
        assert!(
            hwm < RSS_BOUND_MIB * 1024,
            "peak resident memory {} MiB, over the bound of {RSS_BOUND_MIB} MiB",
            hwm / 1024
        );
    }
    // Afterwards the server answers as it did before the load.
    let (body, png) = &want.renders[0];
    let agent = agent();
    let mut t = Tally::default();
    let t0 = Instant::now();
    assert!(well_formed(
        &agent,
        &format!("{}/api/render", server.url()),
        body,
        &mut t,
        |b| b == &png[..]
    ));
    assert!(
        t0.elapsed() < Duration::from_secs(5),
        "{:?} for a render after the load",
        t0.elapsed()
    );
    let (body, rows) = &want.samples[0];
    assert!(well_formed(
        &agent,
        &format!("{}/api/sample", server.url()),
        body,
        &mut t,
        |b| { serde_json::from_slice(b).is_ok_and(|v: Value| sample_matches(&v, rows)) }
    ));
    assert_eq!(t.statuses.get(&200), Some(&2), "{:?}", t.statuses);
}
