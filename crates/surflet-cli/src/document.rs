//! The config document, which the library reads and writes
//! ([`surflet::document`]): one file for everything that decides the output
//! except its file format.
//!
//! `sample` reads the stack part, `render` all of it; `surflet help config`
//! documents the keys for users.

pub use surflet::document::{Animation, Document, Pixels as PixelSpec, RangeSpec, VERSION, View};
