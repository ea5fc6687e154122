//! What every module may need from `alloc` (the `std` prelude has it; a
//! `no_std` build does not), and the scalar maths that `core` lacks.

#[cfg(not(feature = "std"))]
pub(crate) use crate::math::Math as _;
#[allow(unused_imports)]
pub(crate) use alloc::{
    borrow::ToOwned,
    boxed::Box,
    format,
    string::{String, ToString},
    vec,
    vec::Vec,
};
