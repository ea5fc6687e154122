//! `surflet serve`: a noise explorer in the browser.
//!
//! One page and a small JSON API, served by axum on a local port. Every
//! asset is embedded in the binary ([`page`]); the API ([`api`]) renders
//! through the same plan, pixels and encoder as `surflet render` and
//! evaluates through the same fields as `surflet sample`, so the bytes and
//! the numbers are those of the commands.

mod api;
mod export;
mod limits;

use std::io::Write;
use std::net::{IpAddr, Ipv4Addr, SocketAddr};
use std::time::Duration;

use clap::Args;

use crate::CliError;
pub use limits::Limits;

/// Long description, shown by `surflet serve --help`.
pub const LONG_ABOUT: &str = "\
Start a local web server with a noise explorer: pick a noise, fractal and
warp or write an expression, drag the sliders, pan and zoom, and see the
pixels of render's --mode gray, ramp and normal, a 3D heightmap and a tiled
view, the histogram and the spectrum. An expression is also a graph of nodes
to wire by dragging, each node with its own preview. The preview is
antialiased (render --antialias) unless its box is cleared. Export the config
(TOML or JSON), the expression, the exact `surflet render` command, or the
image.

It prints its URL and serves until Ctrl-C. Everything it serves is built into
the binary; it reads no files.";

/// What `surflet serve --help` shows after the options.
pub const DETAILS: &str = "\
API
  GET  /api/noises   the noises, their parameters, defaults and ranges, every
                     function of the expression language with its parameters
                     and field inputs, and the limits below (the page builds
                     its controls and node palette from it)
  POST /api/render   {\"config\": {\"version\": 2, \"noise\": \"perlin\", ...}
                     or {\"toml\": \"version = 2 ...\"} or {\"expr\": \"...\"},
                     with \"size\": [W, H] -> image/png, the bytes `surflet
                     render` writes for that config (a smaller size keeps the
                     view). A config without a version is read as a version
                     1 file, at one world unit per pixel (surflet help
                     config), and answered with the warning `surflet render`
                     prints, in an X-Surflet-Warning header
  POST /api/analyze  the same body -> JSON: documented_range, measured min and
                     max, histogram, radial spectrum
  POST /api/export   the same body -> JSON: the resolved config as TOML and
                     JSON, the expression, its call tree (the node editor's
                     layout) and the `surflet render` command
  POST /api/sample   {... , \"points\": [[x, y], ...], \"gradient\": true}
                     -> JSON values (and gradients), as `surflet sample`

LIMITS (answered with the status in brackets)
  request body      1 MiB                         [413]
  image             2048 pixels per side          [413]
  points            65536 per request             [413]
  octaves           16 per fractal                [400]
  graph depth       32                            [400]
  time              --timeout seconds a request   [504]
  renders at once   --max-renders                 [503, Retry-After: 1]
  Host header       localhost or an IP address, with the
                    bound port (DNS rebinding sends a name) [403]
  Bad JSON or a bad description gets 400 with the message the CLI prints.";

fn parse_timeout(s: &str) -> Result<Duration, String> {
    match s.trim().parse::<f64>() {
        Ok(t) if t > 0.0 && t <= 3600.0 => Ok(Duration::from_secs_f64(t)),
        Ok(_) => Err("the timeout must be in (0, 3600] seconds".into()),
        Err(_) => Err(format!("{:?} is not a number of seconds", s.trim())),
    }
}

/// Arguments of `surflet serve`.
#[derive(Args, Debug, Clone)]
pub struct ServeArgs {
    /// The TCP port; 0 picks a free one (the URL printed says which).
    #[arg(long, value_name = "PORT", default_value_t = 0)]
    pub port: u16,

    /// The address to listen on. Anything but loopback lets other machines
    /// reach the server.
    #[arg(long, value_name = "ADDR", default_value_t = IpAddr::V4(Ipv4Addr::LOCALHOST))]
    pub bind: IpAddr,

    /// Open the page in the default browser.
    #[arg(long)]
    pub open: bool,

    /// Renders, analyses and samples computed at once; more are answered
    /// 503.
    #[arg(long, value_name = "N", default_value_t = 4, value_parser = clap::value_parser!(u32).range(1..=64))]
    pub max_renders: u32,

    /// Seconds a request may compute before it is cancelled (504).
    #[arg(long, value_name = "SECONDS", default_value = "10", value_parser = parse_timeout)]
    pub timeout: Duration,
}

/// The URL of a bound address.
fn url_of(addr: SocketAddr) -> String {
    match addr.ip() {
        IpAddr::V4(ip) => format!("http://{ip}:{}/", addr.port()),
        IpAddr::V6(ip) => format!("http://[{ip}]:{}/", addr.port()),
    }
}

/// Runs `surflet serve` until Ctrl-C or SIGTERM.
pub fn run(args: &ServeArgs) -> Result<(), CliError> {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .map_err(|e| CliError::Runtime(format!("cannot start the server's runtime: {e}")))?;
    runtime.block_on(async {
        let listener = tokio::net::TcpListener::bind((args.bind, args.port))
            .await
            .map_err(|e| {
                CliError::Runtime(format!("cannot listen on {}:{}: {e}", args.bind, args.port))
            })?;
        let addr = listener
            .local_addr()
            .map_err(|e| CliError::Runtime(format!("cannot read the bound address: {e}")))?;
        let url = url_of(addr);
        {
            // Scripts read this line to find the port.
            let mut out = std::io::stdout().lock();
            writeln!(out, "surflet serve: listening on {url}")
                .and_then(|()| out.flush())
                .map_err(CliError::Write)?;
        }
        if !args.bind.is_loopback() {
            eprintln!(
                "warning: listening on {}, which other machines may reach",
                args.bind
            );
        }
        if args.open {
            open_browser(&url);
        }
        let limits = Limits {
            max_renders: args.max_renders as usize,
            timeout: args.timeout,
            ..Limits::default()
        };
        let app = api::router(addr, limits);
        axum::serve(listener, app)
            .with_graceful_shutdown(shutdown())
            .await
            .map_err(|e| CliError::Runtime(format!("the server failed: {e}")))
    })
}

/// Resolves on Ctrl-C or SIGTERM.
async fn shutdown() {
    let ctrl_c = async {
        let _ = tokio::signal::ctrl_c().await;
    };
    #[cfg(unix)]
    let term = async {
        match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
            Ok(mut s) => {
                s.recv().await;
            }
            Err(_) => std::future::pending::<()>().await,
        }
    };
    #[cfg(not(unix))]
    let term = std::future::pending::<()>();
    tokio::select! {
        () = ctrl_c => {},
        () = term => {},
    }
}

/// Asks the desktop to open `url`; says so if it cannot.
fn open_browser(url: &str) {
    let (program, args): (&str, Vec<&str>) = if cfg!(target_os = "macos") {
        ("open", vec![url])
    } else if cfg!(windows) {
        ("cmd", vec!["/C", "start", "", url])
    } else {
        ("xdg-open", vec![url])
    };
    let spawned = std::process::Command::new(program)
        .args(&args)
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn();
    if let Err(e) = spawned {
        eprintln!("note: could not open a browser ({program}: {e}); open {url} yourself");
    }
}
