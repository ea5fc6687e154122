//! Faithful ports of the published reference implementations.
//!
//! Every function here reproduces its original's output to the last bit (or,
//! where the original relies on undefined behaviour, documents what it does
//! instead). They keep the originals' quirks on purpose — a 256-cell period,
//! `perm % 12` gradient bias, radius² 0.6 seams, inexact floors — because their
//! purpose is to match existing content. For new work use the surflet family.
//!
//! | module | original | precision |
//! |---|---|---|
//! | [`perlin2002`] | Ken Perlin, `ImprovedNoise.java` (2002) | `f64` |
//! | [`simplex2012`] | Stefan Gustavson, `SimplexNoise.java` (2012-03-09) | `f64` |
//! | [`simplex2005`] | listing in "Simplex noise demystified" (2005) | `f64` |
//! | [`classic2005`] | `ClassicNoise` listing in the same paper | `f64` |
//! | [`noise1234`] | Gustavson, `noise1234.c` (`noise1..4`, `pnoise1..4`) | `f32` |
//! | [`simplexnoise1234`] | Gustavson, `simplexnoise1234.c` (`snoise1..4`) | `f32` |
//! | [`sdnoise1234`] | Gustavson, `sdnoise1234.c` (`sdnoise1..4`, with derivatives) | `f32` |
//! | [`srdnoise23`] | Gustavson, `srdnoise23.c` (`srdnoise2/3`, rotating gradients) | `f32` |
//! | [`opensimplex2`] | K.jpg, `OpenSimplex2.java` ("faster"; 2D–4D, every orientation) | `f64` in, `f32` out |
//! | [`opensimplex2s`] | K.jpg, `OpenSimplex2S.java` ("smooth", SuperSimplex) | `f64` in, `f32` out |
//!
//! The `f32` ports reproduce the C code's `double` promotions (double-literal
//! constants, `double` `sin`/`cos`) and never fuse multiply-adds, which is what
//! makes them bit-identical to the C compiled with `-ffp-contract=off`. The
//! OpenSimplex2 ports take a Java `long` seed and `double` coordinates and
//! return the Java `float`, mixing `double` and `float` steps exactly where
//! the Java does.

pub mod classic2005;
pub mod noise1234;
pub mod opensimplex2;
mod opensimplex2_shared;
pub mod opensimplex2s;
pub mod perlin2002;
pub mod sdnoise1234;
pub mod simplex2005;
pub mod simplex2012;
pub mod simplexnoise1234;
pub mod srdnoise23;

/// Ken Perlin's reference permutation of 0..=255, shared by every reference
/// implementation ported here.
pub const PERLIN_PERMUTATION: [u8; 256] = [
    151, 160, 137, 91, 90, 15, 131, 13, 201, 95, 96, 53, 194, 233, 7, 225, 140, 36, 103, 30, 69,
    142, 8, 99, 37, 240, 21, 10, 23, 190, 6, 148, 247, 120, 234, 75, 0, 26, 197, 62, 94, 252, 219,
    203, 117, 35, 11, 32, 57, 177, 33, 88, 237, 149, 56, 87, 174, 20, 125, 136, 171, 168, 68, 175,
    74, 165, 71, 134, 139, 48, 27, 166, 77, 146, 158, 231, 83, 111, 229, 122, 60, 211, 133, 230,
    220, 105, 92, 41, 55, 46, 245, 40, 244, 102, 143, 54, 65, 25, 63, 161, 1, 216, 80, 73, 209, 76,
    132, 187, 208, 89, 18, 169, 200, 196, 135, 130, 116, 188, 159, 86, 164, 100, 109, 198, 173,
    186, 3, 64, 52, 217, 226, 250, 124, 123, 5, 202, 38, 147, 118, 126, 255, 82, 85, 212, 207, 206,
    59, 227, 47, 16, 58, 17, 182, 189, 28, 42, 223, 183, 170, 213, 119, 248, 152, 2, 44, 154, 163,
    70, 221, 153, 101, 155, 167, 43, 172, 9, 129, 22, 39, 253, 19, 98, 108, 110, 79, 113, 224, 232,
    178, 185, 112, 104, 218, 246, 97, 228, 251, 34, 242, 193, 238, 210, 144, 12, 191, 179, 162,
    241, 81, 51, 145, 235, 249, 14, 239, 107, 49, 192, 214, 31, 181, 199, 106, 157, 184, 84, 204,
    176, 115, 121, 50, 45, 127, 4, 150, 254, 138, 236, 205, 93, 222, 114, 67, 29, 24, 72, 243, 141,
    128, 195, 78, 66, 215, 61, 156, 180,
];
