//! Zobrist keys, computed at compile time (no start-up call to forget).

use crate::color::Color;
use crate::size::MAX_CELLS;

/// One step of SplitMix64: the next state and a well-mixed 64-bit value,
/// usable in `const` tables (every table of random keys of tengen).
pub const fn splitmix(state: u64) -> (u64, u64) {
    let s = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = s;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    (s, z ^ (z >> 31))
}

const fn table() -> [[u64; MAX_CELLS]; 2] {
    let mut t = [[0u64; MAX_CELLS]; 2];
    let mut state = 0x7465_6E67_656E_u64; // "tengen"
    let mut c = 0;
    while c < 2 {
        let mut i = 0;
        while i < MAX_CELLS {
            let (s, z) = splitmix(state);
            state = s;
            t[c][i] = z;
            i += 1;
        }
        c += 1;
    }
    t
}

static STONE_KEYS: [[u64; MAX_CELLS]; 2] = table();

/// The key of a stone of `color` at padded index `i`.
#[inline]
pub(crate) fn stone(color: Color, i: usize) -> u64 {
    STONE_KEYS[color.index()][i]
}
