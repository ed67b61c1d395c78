//! Helpers shared by the integration tests.

#![allow(dead_code)]

use tengen_core::Color;

/// A tiny deterministic generator: a test driven by a seed replays exactly.
#[derive(Clone, Debug)]
pub struct XorShift(u64);

impl XorShift {
    pub fn new(seed: u64) -> XorShift {
        let mut r = XorShift((seed ^ 0x9E37_79B9_7F4A_7C15) | 1);
        r.next();
        r
    }

    pub fn next(&mut self) -> u64 {
        let mut x = self.0;
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        self.0 = x;
        x.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    /// Uniform in `0..n` (0 when `n` is 0).
    pub fn below(&mut self, n: usize) -> usize {
        if n == 0 {
            0
        } else {
            (self.next() % n as u64) as usize
        }
    }

    pub fn chance(&mut self, per_mille: usize) -> bool {
        self.below(1000) < per_mille
    }

    pub fn pick<T: Copy>(&mut self, items: &[T]) -> T {
        items[self.below(items.len())]
    }

    pub fn color(&mut self) -> Color {
        self.pick(&Color::ALL)
    }

    pub fn range(&mut self, lo: i64, hi: i64) -> i64 {
        lo + self.below((hi - lo + 1) as usize) as i64
    }
}
