//! K.jpg's OpenSimplex2, the "faster" variant (`OpenSimplex2.java`): 2D
//! simplex noise on the A₂* lattice, 3D noise on a rotated body-centred
//! cubic (BCC) lattice, and 4D noise on five offset copies of the A₄
//! lattice, each with several lattice orientations.
//!
//! Ported from `KdotJPG/OpenSimplex2`, `java/OpenSimplex2.java` (CC0 1.0,
//! by K.jpg), at commit `4cd120d35bfc27096698de90d1bcbf4f9d359a3b`,
//! operation for operation. Every function takes a Java `long` seed and
//! `double` coordinates and returns the Java `float`; the golden tests
//! check every row of the reference output bit for bit.
//!
//! What makes it bit-identical:
//!
//! * the Java mixes `double` (the orientation transforms, the floor, the
//!   fractional offsets before they are rounded to `float`, a few
//!   comparisons against `double` constants) and `float` (everything after).
//!   Each operation here is done in the type Java promotes it to, in the
//!   same order, and Rust never fuses a multiply-add;
//! * `long` and `int` arithmetic wraps (`wrapping_*`); `>>` on a `long` is
//!   arithmetic, as on `i64`; `(int)` of a `double` or `float` saturates and
//!   maps NaN to 0, as `as i32` does; an `int` used with a `long` is
//!   sign-extended (`i64::from`), and with a `float` rounded (`as f32`);
//! * the gradient tables are built as the Java static initialiser builds
//!   them: `float` literals divided by a `double` normaliser, rounded to
//!   `float`, repeated to fill 128 / 256 / 512 entries.
//!
//! Properties of the original, kept as they are:
//!
//! * **radius² 0.5 in 2D, but 0.6 in 3D and 4D**, with a fourth-power
//!   falloff `(r² − |d|²)⁴`. 3D sums two vertices per cubic lattice and 4D
//!   one per lattice copy, and a vertex's contribution has not always faded
//!   out where the choice of vertices changes, so the 3D and 4D functions
//!   are **not continuous**: scanning random segments finds jumps of about
//!   4e-3 (3D) and 3e-3 (4D) between points 1e-10 apart, the same bits as the
//!   Java's on both sides (`tests/suite/golden_opensimplex2.rs` pins some). No jump
//!   was found in 2D. [`super::opensimplex2s`] is the smoother variant;
//! * the seed enters only the gradient hash. 3D flips it for the second
//!   cubic lattice (`seed ^ SEED_FLIP_3D`) and 4D offsets it for each of the
//!   five lattice copies (`seed + k·SEED_OFFSET_4D`);
//! * the output is roughly in `[-1, 1]` (the normalisers were fitted to
//!   the extremes K.jpg observed), with no guarantee of staying inside;
//! * the 4D `improve_xyz*` orientations scale W by √5/10, and "W repeats
//!   eventually", as the Java says.
//!
//! Far from the origin the lattice cell, an `int`, saturates beyond about
//! ±2^31 lattice units; the fractional offset (rounded to `float`) then
//! grows without bound and the result is as meaningless as the Java's
//! (huge, infinite or NaN). No input panics: the `int` and `long` overflows
//! wrap as Java's do.

use super::opensimplex2_shared::{
    Gradients2, Gradients3, Gradients4, PRIME_W, PRIME_X, PRIME_Y, PRIME_Z, SEED_FLIP_3D,
    fast_floor, grad2, grad3, grad4, gradients2, gradients3, gradients4,
};

// The Java literals, kept verbatim (`ROOT2OVER2` is `FRAC_1_SQRT_2`).
#[allow(clippy::excessive_precision, clippy::approx_constant)]
mod constants {
    pub(super) const SEED_OFFSET_4D: i64 = 0x0E83_DC3E_0DA7_164D;

    pub(super) const ROOT2OVER2: f64 = 0.7071067811865476;
    pub(super) const SKEW_2D: f64 = 0.366025403784439;
    pub(super) const UNSKEW_2D: f64 = -0.21132486540518713;

    pub(super) const ROOT3OVER3: f64 = 0.577350269189626;
    pub(super) const FALLBACK_ROTATE_3D: f64 = 2.0 / 3.0;
    pub(super) const ROTATE_3D_ORTHOGONALIZER: f64 = UNSKEW_2D;

    pub(super) const SKEW_4D: f32 = -0.138196601125011;
    pub(super) const UNSKEW_4D: f32 = 0.309016994374947;
    pub(super) const LATTICE_STEP_4D: f32 = 0.2;

    pub(super) const NORMALIZER_2D: f64 = 0.01001634121365712;
    pub(super) const NORMALIZER_3D: f64 = 0.07969837668935331;
    pub(super) const NORMALIZER_4D: f64 = 0.0220065933241897;

    pub(super) const RSQUARED_2D: f32 = 0.5;
    pub(super) const RSQUARED_3D: f32 = 0.6;
    pub(super) const RSQUARED_4D: f32 = 0.6;

    // Literals of the 4D orientation transforms, as the Java writes them
    // inline.
    pub(super) const ORTHO_4D_S2: f64 = -0.21132486540518699998;
    pub(super) const ORTHO_4D_ZZ: f64 = 0.28867513459481294226;
    pub(super) const ORTHO_4D_WW: f64 = 0.2236067977499788;
    pub(super) const ORTHO_4D_ZR: f64 = -0.57735026918962599998;
    pub(super) const ORTHO_4D_WR: f64 = -0.866025403784439;
    pub(super) const XYZ_4D_S2: f64 = -0.16666666666666666;
    pub(super) const XY_ZW_S2_XY: f64 = -0.178275657951399372;
    pub(super) const XY_ZW_S2_ZW: f64 = 0.215623393288842828;
    pub(super) const XY_ZW_T2_ZW: f64 = -0.403949762580207112;
    pub(super) const XY_ZW_T2_XY: f64 = -0.375199083010075342;
}
use constants::*;

static GRADIENTS_2D: Gradients2 = gradients2(NORMALIZER_2D);
static GRADIENTS_3D: Gradients3 = gradients3(NORMALIZER_3D);
static GRADIENTS_4D: Gradients4 = gradients4(NORMALIZER_4D);

/// The Java `fastRound`: round half away from zero, through a saturating
/// `(int)` cast.
#[inline(always)]
fn fast_round(x: f64) -> i32 {
    if x < 0.0 {
        (x - 0.5) as i32
    } else {
        (x + 0.5) as i32
    }
}

/// `(a * a) * (a * a)`, the Java's fourth power, in that order.
#[inline(always)]
fn pow4(a: f32) -> f32 {
    (a * a) * (a * a)
}

/// 2D OpenSimplex2 noise, standard lattice orientation:
/// `OpenSimplex2.noise2(seed, x, y)`.
///
/// Radius² 0.5, continuous. Roughly in `[-1, 1]`.
///
/// # Example
///
/// ```
/// use surflet::reference::opensimplex2::noise2;
///
/// // A row of the Java reference output (`opensimplex2_noise2.csv`).
/// assert_eq!(noise2(42, -229.25972631287064, -130.65567594128564), -0.9427929);
/// ```
#[must_use]
pub fn noise2(seed: i64, x: f64, y: f64) -> f32 {
    // Get points for the A2* lattice.
    let s = SKEW_2D * (x + y);
    let xs = x + s;
    let ys = y + s;
    noise2_unskewed_base(seed, xs, ys)
}

/// 2D OpenSimplex2 noise with Y pointing down the main diagonal:
/// `OpenSimplex2.noise2_ImproveX(seed, x, y)`.
///
/// K.jpg suggests it for 2D side-view worlds where Y is vertical.
///
/// # Example
///
/// ```
/// use surflet::reference::opensimplex2::noise2_improve_x;
///
/// // A row of the Java reference output (`opensimplex2_noise2_improvex.csv`).
/// assert_eq!(noise2_improve_x(42, -229.25972631287064, -130.65567594128564), -0.78106105);
/// ```
#[must_use]
pub fn noise2_improve_x(seed: i64, x: f64, y: f64) -> f32 {
    // Skew transform and rotation baked into one.
    let xx = x * ROOT2OVER2;
    let yy = y * (ROOT2OVER2 * (1.0 + 2.0 * SKEW_2D));
    noise2_unskewed_base(seed, yy + xx, yy - xx)
}

/// `noise2_UnskewedBase`: the three vertices of the A₂* triangle around a
/// skewed point.
fn noise2_unskewed_base(seed: i64, xs: f64, ys: f64) -> f32 {
    // Base points and offsets.
    let xsb = fast_floor(xs);
    let ysb = fast_floor(ys);
    let xi = (xs - f64::from(xsb)) as f32;
    let yi = (ys - f64::from(ysb)) as f32;

    // Prime pre-multiplication for the hash.
    let xsbp = i64::from(xsb).wrapping_mul(PRIME_X);
    let ysbp = i64::from(ysb).wrapping_mul(PRIME_Y);

    // Unskew.
    let t = (xi + yi) * UNSKEW_2D as f32;
    let dx0 = xi + t;
    let dy0 = yi + t;

    // First vertex.
    let mut value = 0.0f32;
    let a0 = RSQUARED_2D - dx0 * dx0 - dy0 * dy0;
    if a0 > 0.0 {
        value = pow4(a0) * grad2(&GRADIENTS_2D, seed, xsbp, ysbp, dx0, dy0);
    }

    // Second vertex. The constants are Java `double` constant expressions
    // rounded to `float`.
    let c1 = (2.0 * (1.0 + 2.0 * UNSKEW_2D) * (1.0 / UNSKEW_2D + 2.0)) as f32;
    let c2 = (-2.0 * (1.0 + 2.0 * UNSKEW_2D) * (1.0 + 2.0 * UNSKEW_2D)) as f32;
    let a1 = c1 * t + (c2 + a0);
    if a1 > 0.0 {
        let dx1 = dx0 - (1.0 + 2.0 * UNSKEW_2D) as f32;
        let dy1 = dy0 - (1.0 + 2.0 * UNSKEW_2D) as f32;
        value += pow4(a1)
            * grad2(
                &GRADIENTS_2D,
                seed,
                xsbp.wrapping_add(PRIME_X),
                ysbp.wrapping_add(PRIME_Y),
                dx1,
                dy1,
            );
    }

    // Third vertex.
    if dy0 > dx0 {
        let dx2 = dx0 - UNSKEW_2D as f32;
        let dy2 = dy0 - (UNSKEW_2D + 1.0) as f32;
        let a2 = RSQUARED_2D - dx2 * dx2 - dy2 * dy2;
        if a2 > 0.0 {
            value += pow4(a2)
                * grad2(
                    &GRADIENTS_2D,
                    seed,
                    xsbp,
                    ysbp.wrapping_add(PRIME_Y),
                    dx2,
                    dy2,
                );
        }
    } else {
        let dx2 = dx0 - (UNSKEW_2D + 1.0) as f32;
        let dy2 = dy0 - UNSKEW_2D as f32;
        let a2 = RSQUARED_2D - dx2 * dx2 - dy2 * dy2;
        if a2 > 0.0 {
            value += pow4(a2)
                * grad2(
                    &GRADIENTS_2D,
                    seed,
                    xsbp.wrapping_add(PRIME_X),
                    ysbp,
                    dx2,
                    dy2,
                );
        }
    }

    value
}

/// 3D OpenSimplex2 noise with better visual isotropy in (X, Y):
/// `OpenSimplex2.noise3_ImproveXY(seed, x, y, z)`.
///
/// Z points up the main diagonal of the lattice. K.jpg recommends it for
/// terrain where Z is vertical and for animations of (x, y) in time z.
/// Radius² 0.6: not continuous everywhere (see the [module](self) notes).
///
/// # Example
///
/// ```
/// use surflet::reference::opensimplex2::noise3_improve_xy;
///
/// // A row of the Java reference output (`opensimplex2_noise3_improvexy.csv`).
/// assert_eq!(
///     noise3_improve_xy(42, -31.019215182296023, 111.34149188046604, 188.2489486206985),
///     -0.49355355
/// );
/// ```
#[must_use]
pub fn noise3_improve_xy(seed: i64, x: f64, y: f64, z: f64) -> f32 {
    // Re-orient the cubic lattices without skewing, so Z points up the main
    // lattice diagonal (an orthonormal rotation).
    let xy = x + y;
    let s2 = xy * ROTATE_3D_ORTHOGONALIZER;
    let zz = z * ROOT3OVER3;
    let xr = x + s2 + zz;
    let yr = y + s2 + zz;
    let zr = xy * -ROOT3OVER3 + zz;
    noise3_unrotated_base(seed, xr, yr, zr)
}

/// 3D OpenSimplex2 noise with better visual isotropy in (X, Z):
/// `OpenSimplex2.noise3_ImproveXZ(seed, x, y, z)`.
///
/// Y points up the main diagonal of the lattice: for worlds where Y is
/// vertical.
///
/// # Example
///
/// ```
/// use surflet::reference::opensimplex2::noise3_improve_xz;
///
/// // A row of the Java reference output (`opensimplex2_noise3_improvexz.csv`).
/// assert_eq!(
///     noise3_improve_xz(42, -31.019215182296023, 111.34149188046604, 188.2489486206985),
///     -0.22133036
/// );
/// ```
#[must_use]
pub fn noise3_improve_xz(seed: i64, x: f64, y: f64, z: f64) -> f32 {
    // Re-orient the cubic lattices without skewing, so Y points up the main
    // lattice diagonal (an orthonormal rotation).
    let xz = x + z;
    let s2 = xz * ROTATE_3D_ORTHOGONALIZER;
    let yy = y * ROOT3OVER3;
    let xr = x + s2 + yy;
    let zr = z + s2 + yy;
    let yr = xz * -ROOT3OVER3 + yy;
    noise3_unrotated_base(seed, xr, yr, zr)
}

/// 3D OpenSimplex2 noise, fallback rotation:
/// `OpenSimplex2.noise3_Fallback(seed, x, y, z)`.
///
/// K.jpg: prefer [`noise3_improve_xy`] or [`noise3_improve_xz`], which have
/// less diagonal bias.
///
/// # Example
///
/// ```
/// use surflet::reference::opensimplex2::noise3_fallback;
///
/// // A row of the Java reference output (`opensimplex2_noise3_fallback.csv`).
/// assert_eq!(
///     noise3_fallback(42, -31.019215182296023, 111.34149188046604, 188.2489486206985),
///     0.4399679
/// );
/// ```
#[must_use]
pub fn noise3_fallback(seed: i64, x: f64, y: f64, z: f64) -> f32 {
    // Re-orient the cubic lattices via rotation, to produce a familiar look.
    let r = FALLBACK_ROTATE_3D * (x + y + z);
    let xr = r - x;
    let yr = r - y;
    let zr = r - z;
    noise3_unrotated_base(seed, xr, yr, zr)
}

/// `noise3_UnrotatedBase`: the two interleaved cubic lattices of the BCC
/// lattice, the closest vertex and one more on each.
fn noise3_unrotated_base(mut seed: i64, xr: f64, yr: f64, zr: f64) -> f32 {
    // Base points and offsets.
    let xrb = fast_round(xr);
    let yrb = fast_round(yr);
    let zrb = fast_round(zr);
    let mut xri = (xr - f64::from(xrb)) as f32;
    let mut yri = (yr - f64::from(yrb)) as f32;
    let mut zri = (zr - f64::from(zrb)) as f32;

    // -1 if positive, 1 if negative: `(int)(-1.0f - xri) | 1`.
    let mut x_nsign = (-1.0f32 - xri) as i32 | 1;
    let mut y_nsign = (-1.0f32 - yri) as i32 | 1;
    let mut z_nsign = (-1.0f32 - zri) as i32 | 1;

    // Absolute values, through the signs above.
    let mut ax0 = x_nsign as f32 * -xri;
    let mut ay0 = y_nsign as f32 * -yri;
    let mut az0 = z_nsign as f32 * -zri;

    // Prime pre-multiplication for the hash.
    let mut xrbp = i64::from(xrb).wrapping_mul(PRIME_X);
    let mut yrbp = i64::from(yrb).wrapping_mul(PRIME_Y);
    let mut zrbp = i64::from(zrb).wrapping_mul(PRIME_Z);

    // Pick an edge on each lattice copy.
    let mut value = 0.0f32;
    let mut a = (RSQUARED_3D - xri * xri) - (yri * yri + zri * zri);
    let mut l = 0;
    loop {
        // Closest point on the cube.
        if a > 0.0 {
            value += pow4(a) * grad3(&GRADIENTS_3D, seed, xrbp, yrbp, zrbp, xri, yri, zri);
        }

        // Second-closest point.
        if ax0 >= ay0 && ax0 >= az0 {
            let mut b = a + ax0 + ax0;
            if b > 1.0 {
                b -= 1.0;
                value += pow4(b)
                    * grad3(
                        &GRADIENTS_3D,
                        seed,
                        xrbp.wrapping_sub(i64::from(x_nsign).wrapping_mul(PRIME_X)),
                        yrbp,
                        zrbp,
                        xri + x_nsign as f32,
                        yri,
                        zri,
                    );
            }
        } else if ay0 > ax0 && ay0 >= az0 {
            let mut b = a + ay0 + ay0;
            if b > 1.0 {
                b -= 1.0;
                value += pow4(b)
                    * grad3(
                        &GRADIENTS_3D,
                        seed,
                        xrbp,
                        yrbp.wrapping_sub(i64::from(y_nsign).wrapping_mul(PRIME_Y)),
                        zrbp,
                        xri,
                        yri + y_nsign as f32,
                        zri,
                    );
            }
        } else {
            let mut b = a + az0 + az0;
            if b > 1.0 {
                b -= 1.0;
                value += pow4(b)
                    * grad3(
                        &GRADIENTS_3D,
                        seed,
                        xrbp,
                        yrbp,
                        zrbp.wrapping_sub(i64::from(z_nsign).wrapping_mul(PRIME_Z)),
                        xri,
                        yri,
                        zri + z_nsign as f32,
                    );
            }
        }

        // Done after the second lattice copy.
        if l == 1 {
            break;
        }

        // Update the absolute values.
        ax0 = 0.5 - ax0;
        ay0 = 0.5 - ay0;
        az0 = 0.5 - az0;

        // Update the relative coordinates.
        xri = x_nsign as f32 * ax0;
        yri = y_nsign as f32 * ay0;
        zri = z_nsign as f32 * az0;

        // Update the falloff.
        a += (0.75 - ax0) - (ay0 + az0);

        // Update the primes for the hash: `(xNSign >> 1) & PRIME_X`.
        xrbp = xrbp.wrapping_add(i64::from(x_nsign >> 1) & PRIME_X);
        yrbp = yrbp.wrapping_add(i64::from(y_nsign >> 1) & PRIME_Y);
        zrbp = zrbp.wrapping_add(i64::from(z_nsign >> 1) & PRIME_Z);

        // Flip the sign indicators.
        x_nsign = x_nsign.wrapping_neg();
        y_nsign = y_nsign.wrapping_neg();
        z_nsign = z_nsign.wrapping_neg();

        // And the seed, for the other lattice copy.
        seed ^= SEED_FLIP_3D;
        l += 1;
    }

    value
}

/// 4D OpenSimplex2 noise, XYZ oriented like [`noise3_improve_xy`] and W an
/// extra degree of freedom: `OpenSimplex2.noise4_ImproveXYZ_ImproveXY`.
///
/// K.jpg recommends it for time-varied animations (W = time) texturing a 3D
/// object in a space where Z is vertical. W repeats eventually.
///
/// # Example
///
/// ```
/// use surflet::reference::opensimplex2::noise4_improve_xyz_improve_xy;
///
/// // A row of the Java reference output (`opensimplex2_noise4_improvexyz_improvexy.csv`).
/// assert_eq!(
///     noise4_improve_xyz_improve_xy(
///         42,
///         -38.04188730922351,
///         -44.81377261689295,
///         9.951493978532312,
///         -153.30895275116984,
///     ),
///     -0.14817172
/// );
/// ```
#[must_use]
pub fn noise4_improve_xyz_improve_xy(seed: i64, x: f64, y: f64, z: f64, w: f64) -> f32 {
    let xy = x + y;
    let s2 = xy * ORTHO_4D_S2;
    let zz = z * ORTHO_4D_ZZ;
    let ww = w * ORTHO_4D_WW;
    let xr = x + (zz + ww + s2);
    let yr = y + (zz + ww + s2);
    let zr = xy * ORTHO_4D_ZR + (zz + ww);
    let wr = z * ORTHO_4D_WR + ww;
    noise4_unskewed_base(seed, xr, yr, zr, wr)
}

/// 4D OpenSimplex2 noise, XYZ oriented like [`noise3_improve_xz`] and W an
/// extra degree of freedom: `OpenSimplex2.noise4_ImproveXYZ_ImproveXZ`.
///
/// For time-varied animations (W = time) in a space where Y is vertical.
///
/// # Example
///
/// ```
/// use surflet::reference::opensimplex2::noise4_improve_xyz_improve_xz;
///
/// // A row of the Java reference output (`opensimplex2_noise4_improvexyz_improvexz.csv`).
/// assert_eq!(
///     noise4_improve_xyz_improve_xz(
///         42,
///         -38.04188730922351,
///         -44.81377261689295,
///         9.951493978532312,
///         -153.30895275116984,
///     ),
///     0.21034577
/// );
/// ```
#[must_use]
pub fn noise4_improve_xyz_improve_xz(seed: i64, x: f64, y: f64, z: f64, w: f64) -> f32 {
    let xz = x + z;
    let s2 = xz * ORTHO_4D_S2;
    let yy = y * ORTHO_4D_ZZ;
    let ww = w * ORTHO_4D_WW;
    let xr = x + (yy + ww + s2);
    let zr = z + (yy + ww + s2);
    let yr = xz * ORTHO_4D_ZR + (yy + ww);
    let wr = y * ORTHO_4D_WR + ww;
    noise4_unskewed_base(seed, xr, yr, zr, wr)
}

/// 4D OpenSimplex2 noise, XYZ oriented like [`noise3_fallback`] and W an
/// extra degree of freedom: `OpenSimplex2.noise4_ImproveXYZ`.
///
/// For time-varied animations (W = time) with no clear vertical axis.
///
/// # Example
///
/// ```
/// use surflet::reference::opensimplex2::noise4_improve_xyz;
///
/// // A row of the Java reference output (`opensimplex2_noise4_improvexyz.csv`).
/// assert_eq!(
///     noise4_improve_xyz(
///         42,
///         -38.04188730922351,
///         -44.81377261689295,
///         9.951493978532312,
///         -153.30895275116984,
///     ),
///     -0.22750609
/// );
/// ```
#[must_use]
pub fn noise4_improve_xyz(seed: i64, x: f64, y: f64, z: f64, w: f64) -> f32 {
    let xyz = x + y + z;
    let ww = w * ORTHO_4D_WW;
    let s2 = xyz * XYZ_4D_S2 + ww;
    let xs = x + s2;
    let ys = y + s2;
    let zs = z + s2;
    let ws = -0.5 * xyz + ww;
    noise4_unskewed_base(seed, xs, ys, zs, ws)
}

/// 4D OpenSimplex2 noise with XY and ZW forming orthogonal triangular-based
/// planes: `OpenSimplex2.noise4_ImproveXY_ImproveZW`.
///
/// K.jpg recommends it for 3D terrain where X and Y (or Z and W) are
/// horizontal, and for the `noise(x, y, sin(t), cos(t))` looping trick.
///
/// # Example
///
/// ```
/// use surflet::reference::opensimplex2::noise4_improve_xy_improve_zw;
///
/// // A row of the Java reference output (`opensimplex2_noise4_improvexy_improvezw.csv`).
/// assert_eq!(
///     noise4_improve_xy_improve_zw(
///         42,
///         -38.04188730922351,
///         -44.81377261689295,
///         9.951493978532312,
///         -153.30895275116984,
///     ),
///     0.017910503
/// );
/// ```
#[must_use]
pub fn noise4_improve_xy_improve_zw(seed: i64, x: f64, y: f64, z: f64, w: f64) -> f32 {
    let s2 = (x + y) * XY_ZW_S2_XY + (z + w) * XY_ZW_S2_ZW;
    let t2 = (z + w) * XY_ZW_T2_ZW + (x + y) * XY_ZW_T2_XY;
    let xs = x + s2;
    let ys = y + s2;
    let zs = z + t2;
    let ws = w + t2;
    noise4_unskewed_base(seed, xs, ys, zs, ws)
}

/// 4D OpenSimplex2 noise, fallback lattice orientation (the plain A₄ skew):
/// `OpenSimplex2.noise4_Fallback`.
///
/// # Example
///
/// ```
/// use surflet::reference::opensimplex2::noise4_fallback;
///
/// // A row of the Java reference output (`opensimplex2_noise4_fallback.csv`).
/// assert_eq!(
///     noise4_fallback(
///         42,
///         -38.04188730922351,
///         -44.81377261689295,
///         9.951493978532312,
///         -153.30895275116984,
///     ),
///     0.28556985
/// );
/// ```
#[must_use]
pub fn noise4_fallback(seed: i64, x: f64, y: f64, z: f64, w: f64) -> f32 {
    // Get points for the A4 lattice: the `float` constant widened to `double`.
    let s = f64::from(SKEW_4D) * (x + y + z + w);
    let xs = x + s;
    let ys = y + s;
    let zs = z + s;
    let ws = w + s;
    noise4_unskewed_base(seed, xs, ys, zs, ws)
}

/// `noise4_UnskewedBase`: one vertex from each of five copies of the A₄
/// lattice, offset by 0.2 along the main diagonal from each other.
fn noise4_unskewed_base(mut seed: i64, xs: f64, ys: f64, zs: f64, ws: f64) -> f32 {
    // Base points and offsets.
    let xsb = fast_floor(xs);
    let ysb = fast_floor(ys);
    let zsb = fast_floor(zs);
    let wsb = fast_floor(ws);
    let mut xsi = (xs - f64::from(xsb)) as f32;
    let mut ysi = (ys - f64::from(ysb)) as f32;
    let mut zsi = (zs - f64::from(zsb)) as f32;
    let mut wsi = (ws - f64::from(wsb)) as f32;

    // The lattice copy sure to have a contributing vertex in its cell's base
    // simplex: `(int)(siSum * 1.25)`, the product in `double`.
    let si_sum = (xsi + ysi) + (zsi + wsi);
    let starting_lattice = (f64::from(si_sum) * 1.25) as i32;

    // Seed offset for the first lattice copy.
    seed = seed.wrapping_add(i64::from(starting_lattice).wrapping_mul(SEED_OFFSET_4D));

    // Offset of the lattice point relative positions (skewed).
    let starting_lattice_offset = starting_lattice as f32 * -LATTICE_STEP_4D;
    xsi += starting_lattice_offset;
    ysi += starting_lattice_offset;
    zsi += starting_lattice_offset;
    wsi += starting_lattice_offset;

    // Prep for the vertex contributions.
    let mut ssi = (si_sum + starting_lattice_offset * 4.0) * UNSKEW_4D;

    // Prime pre-multiplication for the hash.
    let mut xsvp = i64::from(xsb).wrapping_mul(PRIME_X);
    let mut ysvp = i64::from(ysb).wrapping_mul(PRIME_Y);
    let mut zsvp = i64::from(zsb).wrapping_mul(PRIME_Z);
    let mut wsvp = i64::from(wsb).wrapping_mul(PRIME_W);

    // Five points, one from each copy of the A4 lattice.
    let mut value = 0.0f32;
    let mut i: i32 = 0;
    loop {
        // The next point is the closest vertex of the 4-simplex whose base
        // vertex is the one above. `score0` is a `double`, and so are the
        // comparisons with it.
        let score0 = 1.0 + f64::from(ssi) * (-1.0 / f64::from(UNSKEW_4D));
        if xsi >= ysi && xsi >= zsi && xsi >= wsi && f64::from(xsi) >= score0 {
            xsvp = xsvp.wrapping_add(PRIME_X);
            xsi -= 1.0;
            ssi -= UNSKEW_4D;
        } else if ysi > xsi && ysi >= zsi && ysi >= wsi && f64::from(ysi) >= score0 {
            ysvp = ysvp.wrapping_add(PRIME_Y);
            ysi -= 1.0;
            ssi -= UNSKEW_4D;
        } else if zsi > xsi && zsi > ysi && zsi >= wsi && f64::from(zsi) >= score0 {
            zsvp = zsvp.wrapping_add(PRIME_Z);
            zsi -= 1.0;
            ssi -= UNSKEW_4D;
        } else if wsi > xsi && wsi > ysi && wsi > zsi && f64::from(wsi) >= score0 {
            wsvp = wsvp.wrapping_add(PRIME_W);
            wsi -= 1.0;
            ssi -= UNSKEW_4D;
        }

        // Gradient contribution with falloff.
        let dx = xsi + ssi;
        let dy = ysi + ssi;
        let dz = zsi + ssi;
        let dw = wsi + ssi;
        let mut a = (dx * dx + dy * dy) + (dz * dz + dw * dw);
        if a < RSQUARED_4D {
            a -= RSQUARED_4D;
            a *= a;
            value += a * a * grad4(&GRADIENTS_4D, seed, xsvp, ysvp, zsvp, wsvp, dx, dy, dz, dw);
        }

        // Done after the fifth copy.
        if i == 4 {
            break;
        }

        // Next lattice copy, shifted by <-0.2, -0.2, -0.2, -0.2>. The step
        // `LATTICE_STEP_4D * 4 * UNSKEW_4D` is a Java `float` constant.
        xsi += LATTICE_STEP_4D;
        ysi += LATTICE_STEP_4D;
        zsi += LATTICE_STEP_4D;
        wsi += LATTICE_STEP_4D;
        ssi += LATTICE_STEP_4D * 4.0 * UNSKEW_4D;
        seed = seed.wrapping_sub(SEED_OFFSET_4D);

        // Since the first copy is not always copy 0, a reset case.
        if i == starting_lattice {
            xsvp = xsvp.wrapping_sub(PRIME_X);
            ysvp = ysvp.wrapping_sub(PRIME_Y);
            zsvp = zsvp.wrapping_sub(PRIME_Z);
            wsvp = wsvp.wrapping_sub(PRIME_W);
            seed = seed.wrapping_add(SEED_OFFSET_4D.wrapping_mul(5));
        }
        i += 1;
    }

    value
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The Java initialiser divides the `float` literal in `double` and
    /// rounds once.
    #[test]
    #[allow(clippy::excessive_precision)] // the Java literal
    fn gradient_tables_are_normalised_in_double() {
        let first = (f64::from(0.38268343236509f32) / NORMALIZER_2D) as f32;
        assert_eq!(GRADIENTS_2D[0].to_bits(), first.to_bits());
        // The set repeats to fill the table: 24 pairs, 48 quadruples, 160
        // quadruples.
        assert_eq!(GRADIENTS_2D[48], GRADIENTS_2D[0]);
        assert_eq!(GRADIENTS_3D[192], GRADIENTS_3D[0]);
        assert_eq!(GRADIENTS_4D[640], GRADIENTS_4D[0]);
        assert_eq!(GRADIENTS_3D[3], 0.0);
    }

    #[test]
    fn fast_round_rounds_half_away_from_zero() {
        assert_eq!(fast_round(0.5), 1);
        assert_eq!(fast_round(-0.5), -1);
        assert_eq!(fast_round(0.49999999999999994), 1); // x + 0.5 rounds up
        assert_eq!(fast_round(-2.4), -2);
        assert_eq!(fast_round(f64::NAN), 0);
        assert_eq!(fast_round(1e300), i32::MAX);
    }
}
