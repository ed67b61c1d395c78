//! The 3x3 shape patterns of MoGo (Gelly et al., "Modification of UCT with
//! patterns in Monte-Carlo Go", 2006), in the form the Michi bot gives them:
//! hane, cuts and edge moves that a playout should answer locally instead
//! of at random. All rotations, reflections and both colourings are
//! expanded once into a bit table over the 16-bit neighbourhood code of
//! [`tengen_core::Board::neighbourhood_code`].

use std::sync::OnceLock;
use tengen_core::Symmetry;

/// The source patterns, centre = the move. `X`/`O` a stone of either colour
/// (expanded with colours swapped), `.` empty, `x` not `X`, `o` not `O`,
/// `?` anything, ` ` off the board.
const SOURCE: [[&str; 3]; 13] = [
    // hane: enclosing hane
    ["XOX", "...", "???"],
    // hane: non-cutting hane
    ["XO.", "...", "?.?"],
    // hane: magari
    ["XO?", "X..", "x.?"],
    // katatsuke or diagonal attachment
    [".O.", "X..", "..."],
    // cut: unprotected cut
    ["XO?", "O.o", "?o?"],
    // cut: peeped cut
    ["XO?", "O.X", "???"],
    // cut: de
    ["?X?", "O.O", "ooo"],
    // cut: keima
    ["OX?", "o.O", "???"],
    // edge: chase
    ["X.?", "O.?", "   "],
    // edge: block side cut
    ["OX?", "X.O", "   "],
    // edge: block side connection
    ["?X?", "x.O", "   "],
    // edge: sagari
    ["?XO", "x.x", "   "],
    // edge: cut
    ["?OX", "X.O", "   "],
];

/// One bit per 16-bit neighbourhood code.
pub(crate) struct PatternTable {
    bits: Vec<u64>,
}

impl PatternTable {
    /// Whether the neighbourhood `code` matches a pattern.
    #[inline]
    pub(crate) fn matches(&self, code: u16) -> bool {
        let c = usize::from(code);
        self.bits[c >> 6] >> (c & 63) & 1 == 1
    }
}

/// The table, built on first use.
pub(crate) fn table() -> &'static PatternTable {
    static TABLE: OnceLock<PatternTable> = OnceLock::new();
    TABLE.get_or_init(build)
}

/// Which cell values (0 empty, 1 black, 2 white, 3 edge) a pattern
/// character admits, with `X` = black.
fn admits(c: u8) -> u8 {
    match c {
        b'X' => 1 << 1,
        b'O' => 1 << 2,
        b'.' => 1 << 0,
        b'x' => (1 << 0) | (1 << 2) | (1 << 3),
        b'o' => (1 << 0) | (1 << 1) | (1 << 3),
        b' ' => 1 << 3,
        _ => 0b1111,
    }
}

fn swap_colours(c: u8) -> u8 {
    match c {
        b'X' => b'O',
        b'O' => b'X',
        b'x' => b'o',
        b'o' => b'x',
        other => other,
    }
}

/// The 3x3 grid of a pattern, `[y][x]`.
type Grid = [[u8; 3]; 3];

fn grids() -> Vec<Grid> {
    let mut out = Vec::new();
    for src in SOURCE {
        let mut g: Grid = [[b'?'; 3]; 3];
        for (y, row) in src.iter().enumerate() {
            for (x, c) in row.bytes().enumerate().take(3) {
                g[y][x] = c;
            }
        }
        for swapped in [false, true] {
            let mut base = g;
            if swapped {
                for row in base.iter_mut() {
                    for c in row.iter_mut() {
                        *c = swap_colours(*c);
                    }
                }
            }
            out.extend(Symmetry::ALL.iter().map(|&k| turned(&base, k)));
        }
    }
    out
}

/// The grid `g` under the symmetry `k`, about its centre.
fn turned(g: &Grid, k: Symmetry) -> Grid {
    let mut r = [[0u8; 3]; 3];
    for (y, row) in g.iter().enumerate() {
        for (x, &c) in row.iter().enumerate() {
            let (dx, dy) = k.offset((x as i32 - 1, y as i32 - 1));
            r[(dy + 1) as usize][(dx + 1) as usize] = c;
        }
    }
    r
}

/// Positions of the code's eight cells in the grid, in code order.
const CELLS: [(usize, usize); 8] = [
    (0, 0),
    (1, 0),
    (2, 0),
    (0, 1),
    (2, 1),
    (0, 2),
    (1, 2),
    (2, 2),
];

fn build() -> PatternTable {
    let masks: Vec<[u8; 8]> = grids()
        .iter()
        .map(|g| {
            let mut m = [0u8; 8];
            for (k, &(x, y)) in CELLS.iter().enumerate() {
                m[k] = admits(g[y][x]);
            }
            m
        })
        .collect();
    let mut bits = vec![0u64; 1 << 10];
    // Each mask admits a product of cell values: enumerate it directly.
    for m in &masks {
        let mut codes = vec![0u16];
        for (k, admitted) in m.iter().enumerate() {
            codes = codes
                .iter()
                .flat_map(|&c| {
                    (0..4u16)
                        .filter(move |v| admitted >> v & 1 == 1)
                        .map(move |v| c | v << (2 * k))
                })
                .collect();
        }
        for c in codes {
            let c = usize::from(c);
            bits[c >> 6] |= 1 << (c & 63);
        }
    }
    PatternTable { bits }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn code(rows: [&str; 3]) -> u16 {
        let mut code = 0u16;
        for (k, &(x, y)) in CELLS.iter().enumerate() {
            let v = match rows[y].as_bytes()[x] {
                b'.' => 0,
                b'X' => 1,
                b'O' => 2,
                _ => 3,
            };
            code |= v << (2 * k);
        }
        code
    }

    #[test]
    fn hane_matches_in_every_orientation_and_colour() {
        let t = table();
        assert!(t.matches(code(["XOX", "...", "..."])));
        assert!(t.matches(code(["OXO", "...", "..."])));
        assert!(t.matches(code(["..X", "..O", "..X"])));
    }

    #[test]
    fn empty_neighbourhood_matches_nothing() {
        assert!(!table().matches(code(["...", "...", "..."])));
    }
}
