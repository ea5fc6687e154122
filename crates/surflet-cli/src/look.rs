//! The config document, which the library reads and writes
//! ([`surflet::document`]): one file for everything that decides the output
//! except its file format.
//!
//! `sample` reads the stack part, `render` all of it; `surflet help config`
//! documents the keys for users.

pub use surflet::document::{
    Animation, Document as Look, Pixels as PixelSpec, RangeSpec, Ratio, VERSION, View,
};

/// A ratio as `NUM/DEN`, as configs write a fraction and `--scale` reads it.
pub fn ratio_text(r: Ratio) -> String {
    format!("{}/{}", r.num, r.den)
}
