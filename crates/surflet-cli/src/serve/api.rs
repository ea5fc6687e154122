//! The HTTP side: routes, the Host check, the limits, and the handlers.
//!
//! Each computing handler takes a permit from a bounded pool (503 when
//! none is free), runs on tokio's blocking threads (the kernels spread over
//! rayon's), and checks a stop flag between bands of rows: the flag is
//! raised when the deadline passes (504) or when the client goes away (the
//! handler's future is dropped), so stale previews stop computing.

use std::net::SocketAddr;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::Instant;

use axum::Router;
use axum::body::Bytes;
use axum::extract::rejection::BytesRejection;
use axum::extract::{DefaultBodyLimit, Request, State};
use axum::http::{HeaderValue, StatusCode, header};
use axum::middleware::{self, Next};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use serde::Deserialize;
use serde_json::{Value, json};
use surflet::{Graph, NoiseKind};
use tokio::sync::Semaphore;

use super::export;
use super::limits::{Limits, Refusal};
use crate::any_field::FieldCalls;
use crate::document::Document;
use crate::imaging::spectrum;
use crate::render::{self, MemoryError, RenderArgs};
use crate::stack_args::{self, StackArgs};
use crate::units::Size;

const PAGE: &str = include_str!("page/index.html");
const SCRIPT: &str = include_str!("page/app.js");
const STYLE: &str = include_str!("page/style.css");
const NODES: &str = include_str!("page/nodes.js");
/// Drawflow 0.0.60 (MIT, page/vendor/LICENSE-drawflow), the node editor's
/// canvas: vendored, so the binary needs nothing else.
const DRAWFLOW: &str = include_str!("page/vendor/drawflow.min.js");
const DRAWFLOW_STYLE: &str = include_str!("page/vendor/drawflow.min.css");

/// The named ramps the page offers, by the names `--ramp` takes.
const RAMPS: [&str; 2] = ["terrain", "gray"];

/// How many times a computation has asked whether to go on and been told
/// yes: before each band of rows of a render or analysis, before each 4096
/// points of a sample request, and after encoding. It is how a test sees
/// work stop when a client goes away (BAD-INPUT.md promises that it stops
/// at the next band), served as `GET /api/test/progress` only by builds
/// with debug assertions (the test profile) started with
/// `SURFLET_SERVE_TEST_PROGRESS` set.
static PROGRESS: AtomicU64 = AtomicU64::new(0);

/// The environment variable that turns on `GET /api/test/progress`.
const PROGRESS_VAR: &str = "SURFLET_SERVE_TEST_PROGRESS";

/// What every handler shares.
#[derive(Clone)]
struct Shared {
    addr: SocketAddr,
    limits: Arc<Limits>,
    permits: Arc<Semaphore>,
}

/// The server's routes and layers.
pub fn router(addr: SocketAddr, limits: Limits) -> Router {
    let shared = Shared {
        addr,
        permits: Arc::new(Semaphore::new(limits.max_renders)),
        limits: Arc::new(limits),
    };
    let mut routes = Router::new()
        .route(
            "/",
            get(|| async { asset(PAGE, "text/html; charset=utf-8") }),
        )
        .route(
            "/app.js",
            get(|| async { asset(SCRIPT, "text/javascript; charset=utf-8") }),
        )
        .route(
            "/style.css",
            get(|| async { asset(STYLE, "text/css; charset=utf-8") }),
        )
        .route(
            "/nodes.js",
            get(|| async { asset(NODES, "text/javascript; charset=utf-8") }),
        )
        .route(
            "/vendor/drawflow.js",
            get(|| async { asset(DRAWFLOW, "text/javascript; charset=utf-8") }),
        )
        .route(
            "/vendor/drawflow.css",
            get(|| async { asset(DRAWFLOW_STYLE, "text/css; charset=utf-8") }),
        )
        .route("/api/noises", get(noises))
        .route("/api/render", post(render_png))
        .route("/api/analyze", post(analyze))
        .route("/api/export", post(export_config))
        .route("/api/sample", post(sample));
    if cfg!(debug_assertions) && std::env::var_os(PROGRESS_VAR).is_some() {
        routes = routes.route(
            "/api/test/progress",
            get(|| async { PROGRESS.load(Ordering::SeqCst).to_string() }),
        );
    }
    routes
        .fallback(|| async { refuse((404, "no such page".into())) })
        .layer(DefaultBodyLimit::max(shared.limits.max_body))
        .layer(middleware::from_fn_with_state(shared.clone(), host_check))
        .with_state(shared)
}

fn asset(text: &'static str, kind: &'static str) -> Response {
    (
        [
            (header::CONTENT_TYPE, kind),
            (header::CACHE_CONTROL, "no-cache"),
        ],
        text,
    )
        .into_response()
}

/// An error answer: the status and `{"error": message}`.
fn refuse((status, message): Refusal) -> Response {
    let status = StatusCode::from_u16(status).unwrap_or(StatusCode::INTERNAL_SERVER_ERROR);
    let mut response = (status, axum::Json(json!({ "error": message }))).into_response();
    if status == StatusCode::SERVICE_UNAVAILABLE {
        response
            .headers_mut()
            .insert(header::RETRY_AFTER, HeaderValue::from_static("1"));
    }
    response
}

/// Whether `host` (a Host header) names this server: `localhost` or an IP
/// address, with the bound port. A DNS rebinding attack (a page on another
/// site whose name is made to resolve here) sends its own host name, never
/// an address; an address is how other machines reach `--bind 0.0.0.0`.
pub(super) fn host_allowed(host: &str, addr: SocketAddr) -> bool {
    let (name, port) = match host.rsplit_once(':') {
        // An IPv6 literal without a port has colons only inside brackets.
        Some((name, port)) if !port.contains(']') => (name, Some(port)),
        _ => (host, None),
    };
    let port_ok = match port {
        Some(p) => p.parse::<u16>() == Ok(addr.port()),
        None => addr.port() == 80,
    };
    let address = match name.strip_prefix('[').and_then(|n| n.strip_suffix(']')) {
        Some(v6) => v6.parse::<std::net::Ipv6Addr>().is_ok(),
        None => name.parse::<std::net::Ipv4Addr>().is_ok(),
    };
    port_ok && (name.eq_ignore_ascii_case("localhost") || address)
}

async fn host_check(State(shared): State<Shared>, request: Request, next: Next) -> Response {
    let host = request
        .headers()
        .get(header::HOST)
        .and_then(|h| h.to_str().ok())
        .unwrap_or("");
    if !host_allowed(host, shared.addr) {
        return refuse((
            403,
            format!(
                "Host {host:?} is not this server: use localhost or an IP address, with the port \
                 it printed"
            ),
        ));
    }
    next.run(request).await
}

/// `GET /api/noises`: everything the page builds its controls from.
async fn noises(State(shared): State<Shared>) -> Response {
    let noises: Vec<Value> = NoiseKind::ALL
        .iter()
        .map(|k| {
            // Which parameters apply to a noise is in their `when`.
            json!({"name": k.name(), "periodic_dims": k.periodic_dims()})
        })
        .collect();
    // The controls come from the stack flags' table, so the page offers
    // what the command line does; octaves stop at this server's limit.
    let mut parameters = stack_args::catalogue();
    for p in &mut parameters {
        if p["path"] == "fractal.octaves" {
            p["max"] = json!(shared.limits.max_octaves);
        }
    }
    // The node editor's palette: every function of the expression
    // language, with its parameters and which of them take fields.
    let functions: Vec<Value> = surflet::graph::Signature::all()
        .into_iter()
        .map(|s| json!({"name": s.name, "params": s.params, "inputs": s.inputs}))
        .collect();
    axum::Json(json!({
        "noises": noises,
        "parameters": parameters,
        "functions": functions,
        "modes": ["gray", "ramp", "normal"],
        "ramps": RAMPS,
        "limits": *shared.limits,
        "version": env!("CARGO_PKG_VERSION"),
    }))
    .into_response()
}

/// The request body, or the refusal of one the extractor would not read:
/// over the size limit (413), as JSON like every other refusal (axum's own
/// answer is plain text, which the load test caught).
fn read(body: Result<Bytes, BytesRejection>, limits: &Limits) -> Result<Bytes, Refusal> {
    body.map_err(|r| match r.status().as_u16() {
        413 => (
            413,
            format!(
                "the request body is larger than this server reads: at most {} bytes",
                limits.max_body
            ),
        ),
        status => (status, format!("bad request body: {}", r.body_text())),
    })
}

/// What the computing endpoints take: a config (as JSON or TOML text), an
/// expression that replaces its stack or graph, and a size.
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
struct Body {
    config: Option<Value>,
    toml: Option<String>,
    expr: Option<String>,
    size: Option<[u32; 2]>,
    points: Option<Vec<Vec<f64>>>,
    #[serde(default)]
    gradient: bool,
}

/// A parsed, checked body.
struct Description {
    doc: Option<Document>,
    expr: Option<String>,
    body: Body,
}

fn describe(bytes: &Bytes, limits: &Limits) -> Result<Description, Refusal> {
    let mut body: Body =
        serde_json::from_slice(bytes).map_err(|e| (400, format!("bad request body: {e}")))?;
    let doc = match (body.config.take(), body.toml.take()) {
        (Some(_), Some(_)) => {
            return Err((400, "give \"config\" or \"toml\", not both".into()));
        }
        (Some(v), None) => {
            Some(Document::from_json(&v.to_string()).map_err(|e| (400, e.to_string()))?)
        }
        (None, Some(t)) => Some(Document::from_toml(&t).map_err(|e| (400, e.to_string()))?),
        (None, None) => None,
    };
    let expr = body.expr.take();
    let graph = match &expr {
        Some(text) => Some(Graph::parse(text).map_err(|e| (400, format!("--expr: {e}")))?),
        None => doc.as_ref().and_then(|l| l.graph.clone()),
    };
    limits.description(doc.as_ref(), graph.as_ref())?;
    if body.points.is_none() {
        let size = body
            .size
            .or_else(|| doc.as_ref().and_then(|l| l.view.size))
            .unwrap_or([512, 512]);
        limits.size(size)?;
    }
    Ok(Description { doc, expr, body })
}

impl Description {
    /// The `surflet render` options this describes, writing PNG; a size
    /// other than the config's shows the same view (`--same-view`).
    fn render_args(&self, size: Option<[u32; 2]>) -> Result<RenderArgs, Refusal> {
        let mut args = crate::parse_render(&["preview.png", "--quiet"]).map_err(|e| (500, e))?;
        args.stack.doc = self.doc.clone();
        args.stack.expr = self.expr.clone();
        if let Some([width, height]) = size {
            args.size = Some(Size { width, height });
            args.same_view = self.doc.as_ref().is_some_and(|l| l.view.size.is_some());
        }
        Ok(args)
    }
}

/// Runs `work` on a blocking thread under a permit, with a stop flag that
/// the deadline and a vanished client raise.
async fn compute<T: Send + 'static>(
    shared: &Shared,
    work: impl FnOnce(&dyn Fn() -> bool) -> Result<T, MemoryError> + Send + 'static,
) -> Result<T, Refusal> {
    let Ok(permit) = shared.permits.clone().try_acquire_owned() else {
        return Err((
            503,
            format!(
                "the server is computing {} requests already; try again",
                shared.limits.max_renders
            ),
        ));
    };
    /// Raises the flag when the handler is dropped: the client is gone.
    struct RaiseOnDrop(Arc<AtomicBool>);
    impl Drop for RaiseOnDrop {
        fn drop(&mut self) {
            self.0.store(true, Ordering::Relaxed);
        }
    }
    let gone = Arc::new(AtomicBool::new(false));
    let _guard = RaiseOnDrop(gone.clone());
    let timeout = shared.limits.timeout;
    let deadline = Instant::now() + timeout;
    let task = tokio::task::spawn_blocking(move || {
        let _permit = permit;
        let stop = || {
            let halt = gone.load(Ordering::Relaxed) || Instant::now() >= deadline;
            if !halt {
                PROGRESS.fetch_add(1, Ordering::SeqCst);
            }
            halt
        };
        work(&stop)
    });
    match task.await {
        Ok(Ok(v)) => Ok(v),
        Ok(Err(MemoryError::Usage(e))) => Err((400, e)),
        Ok(Err(MemoryError::Stopped)) => Err((
            504,
            format!(
                "the request took longer than this server's limit of {} s",
                timeout.as_secs_f64()
            ),
        )),
        Ok(Err(MemoryError::Failed(e))) => Err((500, e)),
        Err(e) => Err((500, format!("the computation failed: {e}"))),
    }
}

/// `POST /api/render`: the PNG `surflet render` writes for the description.
async fn render_png(State(shared): State<Shared>, body: Result<Bytes, BytesRejection>) -> Response {
    let run = async {
        let bytes = read(body, &shared.limits)?;
        let d = describe(&bytes, &shared.limits)?;
        let args = d.render_args(d.body.size)?;
        let image = compute(&shared, move |stop| render::to_memory(&args, stop)).await?;
        Ok::<_, Refusal>(image)
    };
    match run.await {
        Ok(image) => {
            let mut response = ([(header::CONTENT_TYPE, "image/png")], image.bytes).into_response();
            // The warning `surflet render` prints (a config without
            // `version`, drawn as version 1 at one unit per pixel), for
            // scripts; header values are one line of visible ASCII.
            if let Some(w) = image.warning
                && let Ok(v) =
                    HeaderValue::from_str(&w.split_whitespace().collect::<Vec<_>>().join(" "))
            {
                response.headers_mut().insert("x-surflet-warning", v);
            }
            response
        }
        Err(e) => refuse(e),
    }
}

/// `POST /api/analyze`: the measured range, a histogram and the radially
/// averaged power spectrum of the values behind the pixels.
async fn analyze(State(shared): State<Shared>, body: Result<Bytes, BytesRejection>) -> Response {
    let run = async {
        let bytes = read(body, &shared.limits)?;
        let mut d = describe(&bytes, &shared.limits)?;
        // The values, not the slopes of a normal map.
        if let Some(doc) = &mut d.doc {
            doc.pixels = Default::default();
        }
        let mut args = d.render_args(d.body.size.or(Some([256, 256])))?;
        // Measured, so that a graph with an unbounded documented range (a
        // division) can be measured too.
        args.auto_range = true;
        // The measuring runs under the permit and off the async threads
        // too: an FFT of a 2048² slice takes a while.
        compute(&shared, move |stop| {
            let v = render::values(&args, stop)?;
            let m = spectrum::moments(&v.values);
            let (edges, counts) = spectrum::histogram(&v.values, &m, 64);
            let n = v.width.min(v.height) as usize;
            let square: Vec<f64> = (0..n * n)
                .map(|k| v.values[(k / n) * v.width as usize + k % n])
                .collect();
            if stop() {
                return Err(MemoryError::Stopped);
            }
            let power = spectrum::power_spectrum(&square, n, m.mean);
            let a = spectrum::analyse(&power, n, v.spacing.0, v.spacing.1);
            Ok(json!({
                "size": [v.width, v.height],
                "documented_range": [v.range.0, v.range.1],
                "min": m.min, "max": m.max, "mean": m.mean, "std": m.std,
                "histogram": {"edges": edges, "counts": counts},
                "spectrum": {"frequency": a.frequency, "power": a.power,
                             "centroid": a.centroid, "peak": a.peak,
                             "anisotropy": a.anisotropy},
            }))
        })
        .await
    };
    match run.await {
        Ok(v) => axum::Json(v).into_response(),
        Err(e) => refuse(e),
    }
}

/// `POST /api/export`: the resolved config as TOML and JSON, its
/// expression, and a `surflet render` command that reproduces it.
async fn export_config(
    State(shared): State<Shared>,
    body: Result<Bytes, BytesRejection>,
) -> Response {
    let run = async {
        let bytes = read(body, &shared.limits)?;
        let d = describe(&bytes, &shared.limits)?;
        let args = d.render_args(d.body.size)?;
        let doc = compute(&shared, move |_| {
            render::resolve(&args).map_err(MemoryError::Usage)
        })
        .await?;
        export::all(&doc).map_err(|e| (500, e))
    };
    match run.await {
        Ok(v) => axum::Json(v).into_response(),
        Err(e) => refuse(e),
    }
}

/// `POST /api/sample`: values (and gradients) at points, in `f64`, as
/// `surflet sample --config` prints them.
async fn sample(State(shared): State<Shared>, body: Result<Bytes, BytesRejection>) -> Response {
    let run = async {
        let bytes = read(body, &shared.limits)?;
        let mut d = describe(&bytes, &shared.limits)?;
        let points = d.body.points.take().unwrap_or_default();
        if points.len() > shared.limits.max_points {
            return Err((
                413,
                format!(
                    "{} points: this server takes at most {} a request",
                    points.len(),
                    shared.limits.max_points
                ),
            ));
        }
        let dims = points.first().map_or(2, Vec::len);
        if !(1..=4).contains(&dims) || points.iter().any(|p| p.len() != dims) {
            return Err((
                400,
                "points must all have the same number of coordinates, 1 to 4".into(),
            ));
        }
        let args = StackArgs {
            doc: d.doc.take(),
            expr: d.expr.take(),
            ..StackArgs::default()
        };
        let gradient = d.body.gradient;
        compute(&shared, move |stop| {
            let r = args.resolve(None).map_err(MemoryError::Usage)?;
            let field = crate::stack_field::resolved(&r, dims).map_err(MemoryError::Usage)?;
            let mut values = Vec::with_capacity(points.len());
            let mut gradients = Vec::new();
            for (i, p) in points.iter().enumerate() {
                if i % 4096 == 0 && stop() {
                    return Err(MemoryError::Stopped);
                }
                let e = field.eval(p, false, gradient);
                values.push(e.value);
                if gradient {
                    gradients.push(e.gradient[..dims].to_vec());
                }
            }
            Ok(if gradient {
                json!({"dims": dims, "values": values, "gradients": gradients})
            } else {
                json!({"dims": dims, "values": values})
            })
        })
        .await
    };
    match run.await {
        Ok(v) => axum::Json(v).into_response(),
        Err(e) => refuse(e),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The `(value, label)` of each `<option>` of the page's select `id`.
    fn options(id: &str) -> Vec<(&'static str, &'static str)> {
        let start = PAGE
            .find(&format!("<select id=\"{id}\">"))
            .unwrap_or_else(|| panic!("no select {id}"));
        let end = start + PAGE[start..].find("</select>").unwrap();
        PAGE[start..end]
            .split("<option value=\"")
            .skip(1)
            .map(|o| {
                let (value, rest) = o.split_once("\">").unwrap();
                (value, rest.split_once("</option>").unwrap().0)
            })
            .collect()
    }

    /// A user who learns a word in the explorer can type it on the command
    /// line: each pixel mode, range and ramp is labelled with the value
    /// `render` takes for it.
    #[test]
    fn the_page_uses_the_cli_words() {
        let modes = options("mode");
        for mode in render::Mode::ALL {
            let name = mode.name();
            assert!(
                modes.iter().any(|&(v, l)| v == name && l == name),
                "--mode {name} is not offered as {name:?}: {modes:?}"
            );
        }
        for (value, label) in &modes {
            // The explorer's own views, which it exports as ramps.
            if ["3d", "tiled"].contains(value) {
                continue;
            }
            assert!(render::Mode::from_name(value).is_ok(), "{value}");
            assert_eq!(value, label);
        }
        let ranges = options("range");
        assert_eq!(ranges, [("documented", "documented"), ("auto", "auto")]);
        for (value, _) in ranges {
            let spec: Result<crate::document::RangeSpec, _> = serde_json::from_value(json!(value));
            assert!(spec.is_ok(), "range = {value:?} is not a config value");
        }
        for ramp in RAMPS {
            assert!(crate::imaging::color::Ramp::parse(ramp).is_ok(), "{ramp}");
        }
        // The words the explorer used to say for the same things, and a
        // checkbox label that read "on" beside an empty box.
        for word in [
            "derived",
            "grey",
            "colour ramp",
            "measured</option>",
            "'on'",
        ] {
            assert!(!PAGE.contains(word), "the page says {word:?}");
            assert!(!SCRIPT.contains(word), "the script says {word:?}");
        }
    }

    #[test]
    fn hosts() {
        let v4: SocketAddr = "127.0.0.1:8123".parse().unwrap();
        for ok in [
            "127.0.0.1:8123",
            "localhost:8123",
            "LOCALHOST:8123",
            "[::1]:8123",
        ] {
            assert!(host_allowed(ok, v4), "{ok}");
        }
        for bad in [
            "evil.example:8123",
            "127.0.0.1:8124",
            "127.0.0.1",
            "",
            "localhost.evil.example:8123",
            "127.0.0.1:8123:8123",
        ] {
            assert!(!host_allowed(bad, v4), "{bad}");
        }
        let v6: SocketAddr = "[::1]:80".parse().unwrap();
        assert!(host_allowed("[::1]", v6));
        assert!(host_allowed("localhost", v6));
        // Other machines reach --bind 0.0.0.0 by an address.
        let any: SocketAddr = "0.0.0.0:9000".parse().unwrap();
        assert!(host_allowed("192.168.1.5:9000", any));
        assert!(!host_allowed("my-desktop.example:9000", any));
        assert!(!host_allowed("192.168.1.5:9001", any));
        assert!(!host_allowed("[::1:9000", any));
    }
}
