//! SSE4.1 for the one-lane backend: its floor in one instruction.

use crate::simd::{Element, Isa};

/// The one-lane backend's rounding by SSE4.1's `roundss`/`roundsd`, for
/// single points in an AVX2 entry point (every AVX2 CPU has SSE4.1): one
/// instruction where the portable floor takes about fifteen.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Sse41(());

impl Sse41 {
    /// The token if [`Isa::detect`] allows AVX2 (so the
    /// CPU has it), decided on the first call.
    #[inline(always)]
    pub(crate) fn cached() -> Option<Self> {
        use core::sync::atomic::{AtomicU8, Ordering};
        const UNKNOWN: u8 = 0;
        const YES: u8 = 1;
        const NO: u8 = 2;
        static STATE: AtomicU8 = AtomicU8::new(UNKNOWN);
        match STATE.load(Ordering::Relaxed) {
            YES => Some(Sse41(())),
            NO => None,
            _ => {
                // `detect` returns only a set the CPU has, and both vector
                // sets need AVX2.
                let yes = Isa::detect() != Isa::Scalar;
                STATE.store(if yes { YES } else { NO }, Ordering::Relaxed);
                yes.then_some(Sse41(()))
            }
        }
    }
}

impl crate::simd::scalar::Round for Sse41 {
    const FALLBACK: bool = false;
    #[inline(always)]
    fn floor<E: Element>(self, x: E) -> E {
        // SAFETY: a token exists only where the CPU has AVX2, hence SSE4.1.
        unsafe { x.floor_sse41() }
    }
}
