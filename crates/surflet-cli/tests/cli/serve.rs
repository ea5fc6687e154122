//! `surflet serve` against the real server on a free loopback port: every
//! endpoint, bit-identity with `render`, `sample` and the library, every
//! limit with its documented status, the Host check, bad bodies, and a
//! burst of concurrent renders.

use std::fs;
use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use crate::common::*;
use serde_json::{Value, json};
use surflet::{Field, Graph, NoiseKind};
use tempfile::TempDir;

/// A running `surflet serve`, stopped when dropped.
pub(crate) struct Server {
    child: Child,
    url: String,
    port: u16,
}

impl Server {
    pub(crate) fn start(args: &[&str]) -> Server {
        Server::start_with(args, &[])
    }

    /// Started with environment variables set (the test-only counter).
    pub(crate) fn start_with(args: &[&str], env: &[(&str, &str)]) -> Server {
        let mut child = Command::new(BIN)
            .args(["serve", "--port", "0"])
            .args(args)
            .envs(env.iter().copied())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .unwrap();
        let mut line = String::new();
        BufReader::new(child.stdout.take().unwrap())
            .read_line(&mut line)
            .unwrap();
        let url = line
            .trim()
            .strip_prefix("surflet serve: listening on ")
            .unwrap_or_else(|| panic!("unexpected first line {line:?}"))
            .trim_end_matches('/')
            .to_string();
        let port = url.rsplit(':').next().unwrap().parse().unwrap();
        Server { child, url, port }
    }

    pub(crate) fn url(&self) -> &str {
        &self.url
    }

    pub(crate) fn port(&self) -> u16 {
        self.port
    }

    pub(crate) fn pid(&self) -> u32 {
        self.child.id()
    }

    fn agent() -> ureq::Agent {
        ureq::Agent::config_builder()
            .http_status_as_error(false)
            .timeout_global(Some(Duration::from_secs(120)))
            .build()
            .into()
    }

    /// GET: status and body.
    fn get(&self, path: &str) -> (u16, Vec<u8>) {
        let mut r = Self::agent()
            .get(format!("{}{path}", self.url))
            .call()
            .unwrap();
        let body = r.body_mut().read_to_vec().unwrap();
        (r.status().as_u16(), body)
    }

    /// POST raw bytes: status, Retry-After and body.
    fn post_bytes(&self, path: &str, body: &[u8]) -> (u16, Option<String>, Vec<u8>) {
        let mut r = Self::agent()
            .post(format!("{}{path}", self.url))
            .header("content-type", "application/json")
            .send(body)
            .unwrap();
        let retry = r
            .headers()
            .get("retry-after")
            .map(|v| v.to_str().unwrap().to_string());
        let body = r
            .body_mut()
            .with_config()
            .limit(64 << 20)
            .read_to_vec()
            .unwrap();
        (r.status().as_u16(), retry, body)
    }

    fn post(&self, path: &str, body: &Value) -> (u16, Vec<u8>) {
        let (s, _, b) = self.post_bytes(path, body.to_string().as_bytes());
        (s, b)
    }

    pub(crate) fn json(&self, path: &str, body: &Value) -> Value {
        let (status, b) = self.post(path, body);
        let v: Value = serde_json::from_slice(&b).unwrap();
        assert_eq!(status, 200, "{path}: {v}");
        v
    }

    fn png(&self, body: &Value) -> Vec<u8> {
        let (status, b) = self.post("/api/render", body);
        assert_eq!(status, 200, "{}", String::from_utf8_lossy(&b));
        assert_eq!(&b[1..4], b"PNG");
        b
    }

    /// The error answer's status and message.
    fn refused(&self, path: &str, body: &[u8]) -> (u16, String) {
        let (status, _, b) = self.post_bytes(path, body);
        let v: Value = serde_json::from_slice(&b)
            .unwrap_or_else(|_| panic!("not JSON: {}", String::from_utf8_lossy(&b)));
        (status, v["error"].as_str().unwrap().to_string())
    }

    fn alive(&self) {
        assert_eq!(self.get("/api/noises").0, 200, "the server stopped serving");
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Configs that cover stacks, fractals, warps, cellular noise, tiling,
/// 3D slices, the three pixel modes and a graph.
fn configs() -> Vec<Value> {
    vec![
        json!({"version": 2, "noise": "perlin", "seed": 3, "fractal": {"octaves": 5},
               "view": {"size": [96, 64], "origin": [1.5, -2.25], "scale": 0.03},
               "pixels": {"mode": "gray"}}),
        json!({"version": 2, "noise": "simplex", "seed": 11, "frequency": 0.75,
               "fractal": {"kind": "ridged", "octaves": 4},
               "warp": {"amplitude": 0.4, "seed": 5},
               "view": {"size": [80, 80], "scale": "1/96"},
               "pixels": {"mode": "ramp", "ramp": "terrain", "range": "auto"}}),
        json!({"version": 2, "noise": "cellular", "distance": "manhattan", "return": "f2-f1",
               "jitter": 0.8, "view": {"size": [64, 72], "dims": 3, "z": 0.4},
               "pixels": {"mode": "normal"}}),
        json!({"version": 2, "noise": "value", "period": [4, 4],
               "fractal": {"octaves": 3}, "view": {"size": [64, 64]}}),
        json!({"version": 2, "graph": {"op": "add", "a": {"noise": "simplex", "seed": 1},
                                      "b": {"op": "mul", "a": {"noise": "perlin"}, "b": 0.5}},
               "view": {"size": [70, 50], "scale": 0.05}, "pixels": {"range": [-1.5, 1.5]}}),
    ]
}

/// What `surflet render OUT --config CONFIG.json ARGS` writes.
fn cli_render(dir: &TempDir, config: &Value, args: &[&str]) -> Vec<u8> {
    let path = dir.path().join("look.json");
    fs::write(&path, config.to_string()).unwrap();
    let out = render_in(
        dir.path(),
        "cli.png",
        &[&["--config", path.to_str().unwrap()], args].concat(),
    );
    fs::read(out).unwrap()
}

#[test]
fn pages_and_noises() {
    let s = Server::start(&[]);
    let (status, page) = s.get("/");
    assert_eq!(status, 200);
    let page = String::from_utf8(page).unwrap();
    assert!(page.contains("<canvas id=\"canvas\"") && page.contains("/app.js"));
    for asset in ["/app.js", "/style.css"] {
        let (status, body) = s.get(asset);
        assert_eq!(status, 200, "{asset}");
        assert!(body.len() > 500, "{asset}");
    }
    assert_eq!(s.get("/etc/passwd").0, 404);
    let (status, body) = s.get("/api/noises");
    assert_eq!(status, 200);
    let v: Value = serde_json::from_slice(&body).unwrap();
    let names: Vec<&str> = v["noises"]
        .as_array()
        .unwrap()
        .iter()
        .map(|n| n["name"].as_str().unwrap())
        .collect();
    assert_eq!(names, NoiseKind::ALL.map(NoiseKind::name));
    let params = v["parameters"].as_array().unwrap();
    for path in [
        "seed",
        "frequency",
        "fractal.octaves",
        "fractal.lacunarity",
        "fractal.gain",
        "warp.amplitude",
        "period",
        "distance",
        "return",
    ] {
        let p = params.iter().find(|p| p["path"] == path);
        assert!(p.is_some(), "no control for {path}");
    }
    assert_eq!(v["limits"]["max_side"], 2048);
    assert_eq!(v["limits"]["max_octaves"], 16);
}

#[test]
fn renders_are_the_bytes_of_surflet_render() {
    let s = Server::start(&[]);
    let dir = TempDir::new().unwrap();
    for config in configs() {
        let api = s.png(&json!({ "config": config }));
        assert_eq!(api, cli_render(&dir, &config, &[]), "{config}");
        // A smaller size shows the same view, as --same-view does.
        let small = s.png(&json!({ "config": config, "size": [20, 16] }));
        assert_eq!(
            small,
            cli_render(&dir, &config, &["--size", "20x16", "--same-view"]),
            "{config}"
        );
    }
    // An expression replaces the config's stack, as --expr does.
    let config = json!({"version": 2, "view": {"size": [48, 40]}});
    let expr = "abs(fbm(simplex(seed=4), octaves=3)) - 0.25";
    let api = s.png(&json!({ "config": config, "expr": expr }));
    assert_eq!(api, cli_render(&dir, &config, &["--expr", expr]));
    // TOML text is the same config.
    let toml = "version = 2\nnoise = \"perlin\"\nseed = 3\n[view]\nsize = [40, 30]\n";
    let path = dir.path().join("look.toml");
    fs::write(&path, toml).unwrap();
    let out = render_in(dir.path(), "t.png", &["--config", path.to_str().unwrap()]);
    assert_eq!(s.png(&json!({ "toml": toml })), fs::read(out).unwrap());
}

#[test]
fn exports_reproduce_the_render() {
    let s = Server::start(&[]);
    let dir = TempDir::new().unwrap();
    for config in configs() {
        let e = s.json("/api/export", &json!({ "config": config }));
        let api = s.png(&json!({ "config": config }));
        // The command, as a shell would split it.
        let command = e["command"].as_str().unwrap_or_else(|| panic!("{e}"));
        let words = shell_words(command);
        assert_eq!(words[..3], ["surflet", "render", "noise.png"], "{command}");
        let out = render_in(
            dir.path(),
            "cmd.png",
            &words[3..].iter().map(String::as_str).collect::<Vec<_>>(),
        );
        assert_eq!(fs::read(out).unwrap(), api, "{command}");
        // The TOML and the JSON, saved and loaded.
        for (text, name) in [(&e["toml"], "e.toml"), (&e["json"], "e.json")] {
            let path = dir.path().join(name);
            fs::write(&path, text.as_str().unwrap()).unwrap();
            let out = render_in(dir.path(), "cfg.png", &["--config", path.to_str().unwrap()]);
            assert_eq!(fs::read(out).unwrap(), api, "{name}: {text}");
        }
        // The expression is the same field.
        let expr = e["expr"].as_str().unwrap();
        let g = Graph::parse(expr).unwrap().build::<2>().unwrap();
        let v = s.json(
            "/api/sample",
            &json!({"config": config, "points": [[0.3, 0.7], [-5.5, 2.25]]}),
        );
        if config["view"]["dims"].is_null() {
            for (p, got) in [[0.3, 0.7], [-5.5, 2.25]]
                .iter()
                .zip(v["values"].as_array().unwrap())
            {
                assert!(
                    same_bits(got.as_f64().unwrap(), g.get(*p)),
                    "{expr} at {p:?}"
                );
            }
        }
    }
}

#[test]
fn a_config_no_flag_can_say_gets_no_command() {
    let s = Server::start(&[]);
    let e = s.json(
        "/api/export",
        &json!({"config": {"version": 2, "warp": {"fractal": {"kind": "ridged", "octaves": 2, "offset": 0.5}}}}),
    );
    assert!(e["command"].is_null(), "{e}");
    assert!(
        e["command_note"].as_str().unwrap().contains("--config"),
        "{e}"
    );
    assert!(e["toml"].as_str().unwrap().contains("offset = 0.5"), "{e}");
}

pub(crate) fn shell_words(command: &str) -> Vec<String> {
    let mut words = Vec::new();
    let mut word: Option<String> = None;
    let mut chars = command.chars();
    while let Some(c) = chars.next() {
        match c {
            '\'' => {
                let w = word.get_or_insert_with(String::new);
                for c in chars.by_ref() {
                    if c == '\'' {
                        break;
                    }
                    w.push(c);
                }
            }
            '\\' => word.get_or_insert_with(String::new).extend(chars.next()),
            ' ' => words.extend(word.take()),
            c => word.get_or_insert_with(String::new).push(c),
        }
    }
    words.extend(word);
    words
}

#[test]
fn samples_are_the_bits_of_sample_and_the_library() {
    let s = Server::start(&[]);
    let dir = TempDir::new().unwrap();
    let config = json!({"version": 2, "noise": "simplex", "seed": 9,
                        "fractal": {"octaves": 4}, "warp": {"amplitude": 0.3}});
    let path = dir.path().join("s.json");
    fs::write(&path, config.to_string()).unwrap();
    for dims in 1..=4usize {
        let points: Vec<Vec<f64>> = (0..30)
            .map(|i| {
                (0..dims)
                    .map(|a| i as f64 * 0.731 - 7.0 + a as f64 * 1.37)
                    .collect()
            })
            .collect();
        let v = s.json(
            "/api/sample",
            &json!({"config": config, "points": points, "gradient": true}),
        );
        assert_eq!(v["dims"], dims);
        let input: String = points
            .iter()
            .map(|p| p.iter().map(f64::to_string).collect::<Vec<_>>().join(",") + "\n")
            .collect();
        let cli = parse_output(&sample_ok(
            &["--config", path.to_str().unwrap(), "--gradient"],
            &input,
        ));
        for (i, row) in cli.iter().enumerate() {
            assert!(
                same_bits(v["values"][i].as_f64().unwrap(), row[0]),
                "{dims}D point {i}"
            );
            for a in 0..dims {
                assert!(
                    same_bits(v["gradients"][i][a].as_f64().unwrap(), row[1 + a]),
                    "{dims}D point {i} axis {a}"
                );
            }
        }
    }
    // And the library, for a graph.
    let expr = "max(perlin(seed=2), simplex(seed=3) * 0.5)";
    let f = Graph::parse(expr).unwrap().build::<3>().unwrap();
    let points = [[0.1, 0.2, 0.3], [4.5, -3.25, 100.125]];
    let v = s.json(
        "/api/sample",
        &json!({"expr": expr, "points": points, "gradient": true}),
    );
    for (i, p) in points.iter().enumerate() {
        let e = f.sample(*p);
        assert!(same_bits(v["values"][i].as_f64().unwrap(), e.value));
        for a in 0..3 {
            assert!(same_bits(
                v["gradients"][i][a].as_f64().unwrap(),
                e.gradient[a]
            ));
        }
    }
}

#[test]
fn analysis_measures_the_values() {
    let s = Server::start(&[]);
    let a = s.json(
        "/api/analyze",
        &json!({"config": {"version": 2, "noise": "perlin", "fractal": {"octaves": 3}}, "size": [64, 64]}),
    );
    let counts: u64 = a["histogram"]["counts"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c.as_u64().unwrap())
        .sum();
    assert_eq!(counts, 64 * 64);
    let (lo, hi) = (
        a["documented_range"][0].as_f64().unwrap(),
        a["documented_range"][1].as_f64().unwrap(),
    );
    let (min, max) = (a["min"].as_f64().unwrap(), a["max"].as_f64().unwrap());
    assert!(lo <= min && min < max && max <= hi, "{a}");
    assert!(a["spectrum"]["power"].as_array().unwrap().len() > 10);
    // A graph whose derived range is unbounded is still measured.
    let a = s.json(
        "/api/analyze",
        // Off the lattice points, where perlin() is 0 and the value infinite.
        &json!({"expr": "1 / perlin()", "size": [32, 32],
                "config": {"version": 2, "view": {"origin": [0.3, 0.7]}}}),
    );
    // JSON has no infinity: serde_json writes null.
    assert!(
        a["documented_range"][0].is_null() && a["documented_range"][1].is_null(),
        "{a}"
    );
    assert!(
        a["min"].as_f64().unwrap() < a["max"].as_f64().unwrap(),
        "{a}"
    );
}

#[test]
fn bad_requests_get_400_with_the_cli_message_and_the_server_goes_on() {
    let s = Server::start(&[]);
    let dir = TempDir::new().unwrap();
    for body in [&b"{not json"[..], b"[1, 2]", b"{\"colour\": 1}", b""] {
        let (status, message) = s.refused("/api/render", body);
        assert_eq!(status, 400, "{}", String::from_utf8_lossy(body));
        assert!(message.starts_with("bad request body"), "{message}");
        s.alive();
    }
    // A bad description: the message `surflet render --config` prints.
    for config in [
        json!({"version": 2, "noise": "simplx"}),
        json!({"version": 2, "noise": "simplex", "fractal": {"gain": "loud"}}),
        json!({"version": 2, "noise": "simplex", "period": [3, 3]}),
        json!({"version": 2, "view": {"scale": -1}}),
    ] {
        let (status, message) = s.refused(
            "/api/render",
            json!({ "config": config }).to_string().as_bytes(),
        );
        assert_eq!(status, 400, "{config}");
        let path = dir.path().join("bad.json");
        fs::write(&path, config.to_string()).unwrap();
        let (_, stderr) = fails(
            &[
                "render",
                dir.path().join("x.png").to_str().unwrap(),
                "--config",
                path.to_str().unwrap(),
            ],
            "",
            2,
        );
        let cli = stderr.lines().next().unwrap().trim_start_matches("error: ");
        // The CLI names the file it read; the API read no file.
        let cli = cli.replace(&format!("{}: ", path.display()), "");
        assert_eq!(message, cli, "{config}");
        s.alive();
    }
    let (status, message) = s.refused("/api/render", br#"{"expr": "perlin(+"}"#);
    assert_eq!(status, 400);
    assert!(
        message.contains("column 8") && message.contains('^'),
        "{message}"
    );
    let (status, _) = s.refused("/api/sample", br#"{"points": [[1, 2], [3]]}"#);
    assert_eq!(status, 400);
    // More than 4 coordinates (and none): the server's sample takes 1D-4D.
    for points in [
        json!([[1, 2, 3, 4, 5]]),
        json!([[1, 2, 3, 4, 5], [1, 2, 3, 4, 5]]),
        json!([[]]),
    ] {
        let (status, m) = s.refused(
            "/api/sample",
            json!({ "points": points }).to_string().as_bytes(),
        );
        assert_eq!(status, 400, "{points}: {m}");
        assert!(m.contains("1 to 4"), "{m}");
    }
    // An animation: the server renders still images, whichever endpoint.
    for (path, extra) in [
        ("/api/render", json!({})),
        ("/api/analyze", json!({})),
        ("/api/export", json!({})),
        ("/api/sample", json!({"points": [[0.5, 0.5]]})),
    ] {
        let mut body = json!({"config": {"version": 2, "animation": {"frames": 8, "axis": "z"}}});
        body.as_object_mut()
            .unwrap()
            .extend(extra.as_object().unwrap().clone());
        let (status, m) = s.refused(path, body.to_string().as_bytes());
        assert_eq!(status, 400, "{path}: {m}");
        assert!(
            m.contains("still images") && m.contains("8 frames"),
            "{path}: {m}"
        );
        let (status, m) = s.refused(
            path,
            json!({"toml": "version = 2\n[animation]\nframes = 3\n", "points": [[0.5, 0.5]]})
                .to_string()
                .as_bytes(),
        );
        assert_eq!(status, 400, "{path} (TOML): {m}");
    }
    s.alive();
}

/// The test-only counter of work done (`GET /api/test/progress`): one count
/// per band of rows begun.
fn progress(s: &Server) -> u64 {
    let (status, body) = s.get("/api/test/progress");
    assert_eq!(status, 200, "the progress counter is not served");
    String::from_utf8(body).unwrap().trim().parse().unwrap()
}

/// BAD-INPUT.md: a client that goes away mid-render stops the computation
/// at the next band. The client sends `slow()` (2048 rows, in bands of
/// 32), waits until a few bands have begun, and closes its connection; the
/// counter of bands begun must stop within 200 ms, far short of the 64
/// bands of the whole image, and the permit must come back.
#[test]
fn a_client_that_goes_away_stops_the_computation() {
    let s = Server::start_with(
        &["--max-renders", "1", "--timeout", "120"],
        &[("SURFLET_SERVE_TEST_PROGRESS", "1")],
    );
    let start = progress(&s);
    let body = slow().to_string();
    let mut stream = TcpStream::connect(("127.0.0.1", s.port)).unwrap();
    write!(
        stream,
        "POST /api/render HTTP/1.1\r\nHost: 127.0.0.1:{}\r\nContent-Type: application/json\r\n\
         Content-Length: {}\r\n\r\n{body}",
        s.port,
        body.len()
    )
    .unwrap();
    let t = Instant::now();
    let mut first_band = None;
    loop {
        let now = progress(&s);
        if now > start && first_band.is_none() {
            first_band = Some(Instant::now());
        }
        if now >= start + 3 {
            break;
        }
        assert!(
            t.elapsed() < Duration::from_secs(60),
            "the render never began"
        );
        std::thread::sleep(Duration::from_millis(2));
    }
    // Two bands took this long: had the work gone on, more would begin
    // well inside the watch below, which lasts four bands (at least 1.5 s).
    let band = first_band.unwrap().elapsed() / 2;
    let watch = (band * 4).max(Duration::from_millis(1500));
    stream.shutdown(std::net::Shutdown::Both).unwrap();
    drop(stream);
    let closed = Instant::now();
    let (mut last, mut changed) = (progress(&s), closed);
    while closed.elapsed() < watch {
        std::thread::sleep(Duration::from_millis(5));
        let now = progress(&s);
        if now != last {
            (last, changed) = (now, Instant::now());
        }
    }
    let after = changed - closed;
    println!(
        "{} bands begun ({band:?} each), the last {after:?} after the client went away",
        last - start
    );
    assert!(
        after <= Duration::from_millis(200),
        "bands still began {after:?} after the client went away"
    );
    assert!(
        last - start < 64,
        "the whole image was computed: {} bands",
        last - start
    );
    // The permit came back (one render at a time): the next one computes.
    s.png(&json!({"size": [16, 16]}));
}

#[test]
fn limits_answer_with_their_statuses() {
    let s = Server::start(&[]);
    let big = format!("{{\"expr\": \"{}\"}}", " ".repeat(1 << 20));
    // JSON like every refusal (it was axum's plain text until the load
    // test caught it), at every endpoint.
    for path in ["/api/render", "/api/analyze", "/api/export", "/api/sample"] {
        let (status, m) = s.refused(path, big.as_bytes());
        assert_eq!(status, 413, "{path}: {m}");
        assert!(m.contains("at most 1048576 bytes"), "{path}: {m}");
    }
    let (status, m) = s.refused("/api/render", br#"{"size": [4096, 16]}"#);
    assert_eq!(status, 413, "{m}");
    assert!(m.contains("2048"), "{m}");
    let (status, _) = s.refused(
        "/api/render",
        br#"{"config": {"version": 2, "view": {"size": [3000, 3000]}}}"#,
    );
    assert_eq!(status, 413);
    let points = vec![[0.5, 0.5]; 65537];
    let (status, _) = s.refused(
        "/api/sample",
        json!({ "points": points }).to_string().as_bytes(),
    );
    assert_eq!(status, 413);
    let (status, m) = s.refused(
        "/api/render",
        br#"{"config": {"version": 2, "fractal": {"octaves": 20}}}"#,
    );
    assert_eq!((status, m.contains("at most 16")), (400, true), "{m}");
    let (status, m) = s.refused(
        "/api/render",
        br#"{"expr": "fbm(perlin(), octaves=17) + 1"}"#,
    );
    assert_eq!((status, m.contains("at most 16")), (400, true), "{m}");
    // distort's roughness is the octave count of its turbulence.
    let (status, m) = s.refused(
        "/api/render",
        br#"{"expr": "distort(perlin(), power=0.1, roughness=20)"}"#,
    );
    assert_eq!((status, m.contains("at most 16")), (400, true), "{m}");
    let deep = format!("{}perlin(){}", "abs(".repeat(40), ")".repeat(40));
    let (status, m) = s.refused(
        "/api/render",
        json!({ "expr": deep }).to_string().as_bytes(),
    );
    assert_eq!((status, m.contains("at most 32")), (400, true), "{m}");
    s.alive();
}

/// A description that takes about a second at 2048x2048 on the project's
/// 2-core machine.
fn slow() -> Value {
    json!({"expr": "fbm(simplex(), octaves=16) * fbm(perlin(), octaves=16) \
                    + fbm(value(), octaves=16) * fbm(opensimplex2(), octaves=16) \
                    + fbm(simplex(seed=2), octaves=16) * fbm(perlin(seed=2), octaves=16)",
           "size": [2048, 2048]})
}

#[test]
fn the_time_limit_cancels_and_the_server_goes_on() {
    let s = Server::start(&["--timeout", "0.1"]);
    let started = Instant::now();
    let (status, message) = s.refused("/api/render", slow().to_string().as_bytes());
    assert_eq!(status, 504, "{message}");
    assert!(message.contains("0.1 s"), "{message}");
    assert!(
        started.elapsed() < Duration::from_secs(5),
        "{:?}",
        started.elapsed()
    );
    // The permit came back: a quick render goes through.
    s.png(&json!({"size": [16, 16]}));
}

#[test]
fn renders_beyond_the_limit_get_503_and_the_server_stays_responsive() {
    let s = Server::start(&["--max-renders", "2", "--timeout", "20"]);
    let url = s.url.clone();
    let before = memory_kib(&s);
    // 50 at once: two compute, the rest are turned away at once.
    let threads: Vec<_> = (0..50)
        .map(|i| {
            let url = url.clone();
            std::thread::spawn(move || {
                let body = if i % 10 == 0 {
                    slow()
                } else {
                    json!({"size": [512, 512], "config": {"version": 2, "seed": i}})
                };
                let mut r = Server::agent()
                    .post(format!("{url}/api/render"))
                    .send(body.to_string().as_bytes())
                    .unwrap();
                let retry = r.headers().get("retry-after").is_some();
                let _ = r.body_mut().with_config().limit(64 << 20).read_to_vec();
                (r.status().as_u16(), retry)
            })
        })
        .collect();
    std::thread::sleep(Duration::from_millis(200));
    let t = Instant::now();
    s.alive();
    assert!(
        t.elapsed() < Duration::from_secs(2),
        "GET took {:?} under load",
        t.elapsed()
    );
    let results: Vec<(u16, bool)> = threads.into_iter().map(|t| t.join().unwrap()).collect();
    let busy = results.iter().filter(|r| r.0 == 503).count();
    assert!(busy > 0, "no request was turned away: {results:?}");
    assert!(
        results.iter().all(|r| r.0 == 200 || (r.0 == 503 && r.1)),
        "{results:?}"
    );
    s.png(&json!({"size": [16, 16]}));
    if let (Some(before), Some(after)) = (before, memory_kib(&s)) {
        // Two renders of 2048^2 at most at once: their buffers, not fifty.
        assert!(
            after < before + 600 * 1024,
            "peak memory grew from {before} to {after} KiB"
        );
    }
}

/// The server's peak resident memory, where /proc tells it.
fn memory_kib(s: &Server) -> Option<u64> {
    let status = fs::read_to_string(format!("/proc/{}/status", s.child.id())).ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    line.split_whitespace().nth(1)?.parse().ok()
}

/// A raw request with the given Host header: the status.
fn status_with_host(s: &Server, host: &str) -> u16 {
    let mut stream = TcpStream::connect(("127.0.0.1", s.port)).unwrap();
    write!(
        stream,
        "GET /api/noises HTTP/1.1\r\nHost: {host}\r\nConnection: close\r\n\r\n"
    )
    .unwrap();
    let mut reply = String::new();
    stream.read_to_string(&mut reply).unwrap();
    reply.split_whitespace().nth(1).unwrap().parse().unwrap()
}

#[test]
fn the_host_header_must_name_this_server() {
    let s = Server::start(&[]);
    let port = s.port;
    for host in [format!("127.0.0.1:{port}"), format!("localhost:{port}")] {
        assert_eq!(status_with_host(&s, &host), 200, "{host}");
    }
    for host in [
        format!("evil.example:{port}"),
        format!("localhost.evil.example:{port}"),
        format!("127.0.0.1:{}", port.wrapping_add(1)),
        "localhost".to_string(),
    ] {
        assert_eq!(status_with_host(&s, &host), 403, "{host}");
    }
    s.alive();
}

#[test]
fn serve_refuses_bad_options() {
    fails(&["serve", "--timeout", "0"], "", 2);
    fails(&["serve", "--max-renders", "0"], "", 2);
    fails(&["serve", "--bind", "not-an-address"], "", 2);
}
