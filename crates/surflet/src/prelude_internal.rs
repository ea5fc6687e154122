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

/// [`core::array::from_fn`] for `Copy` elements, calling `f` in the same
/// order (0 first): a plain loop. `from_fn` goes through `try_from_fn`, and
/// its copies were a tenth of the library's IR before optimisation (1,081
/// of them, `cargo llvm-lines`: docs/BUILD.md), which LLVM then inlines
/// away again in every build.
#[inline(always)]
pub(crate) fn array_of<T: Copy, const N: usize, F: FnMut(usize) -> T>(mut f: F) -> [T; N] {
    let mut a = [core::mem::MaybeUninit::<T>::uninit(); N];
    let mut i = 0;
    while i < N {
        a[i] = core::mem::MaybeUninit::new(f(i));
        i += 1;
    }
    // SAFETY: the loop wrote every element, and `[MaybeUninit<T>; N]` has
    // the layout of `[T; N]`.
    unsafe { core::mem::transmute_copy(&a) }
}
