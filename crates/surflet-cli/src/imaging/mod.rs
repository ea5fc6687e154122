//! Image machinery shared by `render` and `gallery`: turning values into
//! colours ([`color`]), encoding PNG, APNG, GIF, TIFF and raw files
//! ([`encode`]), and writing them atomically with Ctrl-C cleanup and memory
//! and disk guards ([`output`]).

pub(crate) mod color;
pub(crate) mod encode;
pub(crate) mod output;
