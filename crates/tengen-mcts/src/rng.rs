//! A small, fast, seedable generator for playouts.
//!
//! Hand-written rather than taken from `rand`: the playout loop draws one
//! number per candidate point, and this is two multiplies and a shift with
//! no indirection, reproducible from a seed on every platform.

/// PCG-XSH-RR 32-bit output, 64-bit state.
#[derive(Clone, Debug)]
pub struct Rng {
    state: u64,
}

const MUL: u64 = 6_364_136_223_846_793_005;
const INC: u64 = 1_442_695_040_888_963_407;

impl Rng {
    /// A generator from a seed; equal seeds give equal sequences.
    pub fn new(seed: u64) -> Rng {
        let mut r = Rng { state: 0 };
        r.next_u32();
        r.state = r.state.wrapping_add(seed);
        r.next_u32();
        r
    }

    /// The next 32 random bits.
    #[inline]
    pub fn next_u32(&mut self) -> u32 {
        let old = self.state;
        self.state = old.wrapping_mul(MUL).wrapping_add(INC);
        let xorshifted = (((old >> 18) ^ old) >> 27) as u32;
        xorshifted.rotate_right((old >> 59) as u32)
    }

    /// A uniform number in `[0, 1)`, 24 bits of it.
    #[inline]
    pub fn unit(&mut self) -> f32 {
        (self.next_u32() >> 8) as f32 * (1.0 / 16_777_216.0)
    }

    /// A uniform number in `0..n` (Lemire's multiply-shift; the bias is
    /// below 2^-20 for the board sizes used here).
    #[inline]
    pub fn below(&mut self, n: usize) -> usize {
        ((u64::from(self.next_u32()) * n as u64) >> 32) as usize
    }
}
