//! The subcommands behind features (`serve`; `plots`: analyze and gallery):
//! every build lists them, and a build without one says how to get it.

use crate::common::*;

#[test]
fn every_build_lists_every_subcommand() {
    let o = surflet().arg("--help").output().unwrap();
    let help = String::from_utf8(o.stdout).unwrap();
    for sub in ["sample", "render", "gallery", "bench", "analyze", "serve"] {
        assert!(help.contains(&format!("\n  {sub} ")), "{sub}:\n{help}");
    }
}

/// `surflet COMMAND ARGS...` in a build without FEATURE: exit 1, nothing on
/// stdout, nothing written, and the two commands that get it on stderr.
#[cfg(not(all(feature = "serve", feature = "plots")))]
fn absent(args: &[&str], feature: &str) {
    let dir = tempfile::TempDir::new().unwrap();
    let o = surflet()
        .current_dir(dir.path())
        .args(args)
        .output()
        .unwrap();
    let err = String::from_utf8(o.stderr).unwrap();
    assert_eq!(o.status.code(), Some(1), "{args:?}: {err}");
    assert!(o.stdout.is_empty(), "{args:?}");
    assert!(
        err.starts_with(&format!("error: surflet {} is not in this build", args[0])),
        "{args:?}: {err}"
    );
    assert!(
        err.contains(&format!(
            "cargo install --locked --path crates/surflet-cli --features {feature}"
        )) && err.contains(&format!(
            "cargo run --release --features {feature} -- {}",
            args[0]
        )),
        "{args:?}: {err}"
    );
    assert_eq!(entries(dir.path()), Vec::<String>::new(), "{args:?}");
}

#[cfg(not(feature = "serve"))]
#[test]
fn serve_without_its_feature_says_how_to_get_it() {
    absent(&["serve"], "serve");
    absent(&["serve", "--open", "--port", "8080"], "serve");
}

#[cfg(not(feature = "plots"))]
#[test]
fn analyze_and_gallery_without_their_feature_say_how_to_get_them() {
    absent(&["analyze", "out", "--size", "64"], "plots");
    absent(&["gallery", "out", "-s", "7"], "plots");
}
