//! Image machinery shared by `render`, `analyze`, `gallery` and `serve`:
//! turning values into colours ([`color`]), encoding PNG, APNG, GIF, TIFF
//! and raw files ([`encode`]), writing them atomically with Ctrl-C cleanup
//! and memory and disk guards ([`output`]); with the `plots` feature, the
//! 8-bit image of plots and figures (`image`), line plots (`plot`) and the
//! staged files of a command that writes several (`staged`); with `plots`
//! or `serve`, the spectra and moments that `analyze` measures
//! (`spectrum`).
//!
//! It depends on no subcommand: `analyze` and `gallery` both draw with it
//! and neither imports the other (checked by a test below).

pub(crate) mod color;
pub(crate) mod encode;
#[cfg(feature = "plots")]
pub(crate) mod image;
pub(crate) mod output;
#[cfg(feature = "plots")]
pub(crate) mod plot;
#[cfg(any(feature = "plots", feature = "serve"))]
pub(crate) mod spectrum;
#[cfg(feature = "plots")]
pub(crate) mod staged;

#[cfg(test)]
mod tests {
    use std::path::Path;

    /// The code lines (comments dropped) of every source file under
    /// `src/<module>`, with their file and line number.
    fn code(module: &str) -> Vec<(String, String)> {
        let dir = Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("src")
            .join(module);
        let mut lines = Vec::new();
        for entry in std::fs::read_dir(&dir).unwrap() {
            let path = entry.unwrap().path();
            let text = std::fs::read_to_string(&path).unwrap();
            for (k, line) in text.lines().enumerate() {
                let code = line.split("//").next().unwrap_or("");
                lines.push((format!("{}:{}", path.display(), k + 1), code.to_string()));
            }
        }
        assert!(
            lines.len() > 100,
            "too little source under {}",
            dir.display()
        );
        lines
    }

    /// The layers: `analyze` and `gallery` draw with `imaging` and neither
    /// names the other, and `imaging` names no subcommand, so a change to
    /// one command's figures cannot reach into another's.
    #[test]
    fn analyze_gallery_and_imaging_do_not_import_each_other() {
        // Module names, not paths: this file is read too.
        let forbidden: [(&str, &[&str]); 3] = [
            ("analyze", &["gallery"]),
            ("gallery", &["analyze"]),
            ("imaging", &["analyze", "gallery", "render", "serve"]),
        ];
        for (module, names) in forbidden {
            for (place, line) in code(module) {
                for name in names {
                    let path = format!("crate::{name}");
                    assert!(
                        !line.contains(&path),
                        "{place}: `{}` names {path}",
                        line.trim()
                    );
                }
            }
        }
    }
}
