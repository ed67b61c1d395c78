//! Spatial patterns: what lies around a candidate move, out to a
//! "gridcular" circle (points with dx + dy + max(dx, dy) <= d, Coulom 2007),
//! from the 3x3 square (d = 3, 8 points) to d = 10 (72 points, five lines
//! out), seen from the player to move (own, opponent, empty, off the board).
//!
//! A pattern is known by one 64-bit Zobrist hash per radius, the smallest
//! of its eight rotations and reflections, so that a shape learned in one
//! corner is known in the other three. Hashes, not dictionaries: what a
//! pattern is worth is [`crate::model`]'s business.
//!
//! Left out: liberties and the age of stones (the tactical features of
//! [`crate::features`] carry them), and boards wider than 25.

use std::sync::LazyLock;
use tengen_core::zobrist::splitmix;
use tengen_core::{Board, Color, Point, Symmetry};

/// The smallest radius: the 3x3 square.
pub const MIN_RADIUS: usize = 3;
/// The largest radius.
pub const MAX_RADIUS: usize = 10;
/// Radii from `MIN_RADIUS` to `MAX_RADIUS`.
pub const RADII: usize = MAX_RADIUS - MIN_RADIUS + 1;
/// The farthest a pattern reaches along a line (d = 10 at (0, 5)).
const REACH: usize = 5;

/// What a point holds, from the mover's side.
const EMPTY: u8 = 0;
const OWN: u8 = 1;
const OPPONENT: u8 = 2;
const OFF: u8 = 3;

/// The gridcular distance of an offset.
pub const fn gridcular(dx: i32, dy: i32) -> i32 {
    let (ax, ay) = (dx.abs(), dy.abs());
    ax + ay + if ax > ay { ax } else { ay }
}

/// The offsets of the circle of `MAX_RADIUS`, by radius, then row, then
/// column (the centre left out), and where each radius ends in that list.
fn circle() -> (Vec<(i32, i32)>, [usize; RADII]) {
    let r = REACH as i32;
    let mut offsets = Vec::new();
    let mut ends = [0; RADII];
    for d in 2..=MAX_RADIUS as i32 {
        for dy in -r..=r {
            for dx in -r..=r {
                if gridcular(dx, dy) == d {
                    offsets.push((dx, dy));
                }
            }
        }
        if d >= MIN_RADIUS as i32 {
            ends[d as usize - MIN_RADIUS] = offsets.len();
        }
    }
    (offsets, ends)
}

/// Offsets of the largest circle (d <= 10 has 72 points besides the centre).
const POINTS: usize = 72;

/// One key per position in the circle and content; fixed forever, since
/// the shipped model is indexed by these hashes.
const fn keys() -> [[u64; 4]; POINTS] {
    let mut t = [[0u64; 4]; POINTS];
    let mut state = 0x7370_6174_6961_6c00_u64; // "spatial"
    let mut i = 0;
    while i < POINTS {
        let mut c = 0;
        while c < 4 {
            let (s, z) = splitmix(state);
            state = s;
            t[i][c] = z;
            c += 1;
        }
        i += 1;
    }
    t
}

static KEYS: [[u64; 4]; POINTS] = keys();

/// Keys that tell the radii apart.
const fn radius_keys() -> [u64; RADII] {
    let mut t = [0u64; RADII];
    let mut state = 0x7261_6469_7573_u64; // "radius"
    let mut i = 0;
    while i < RADII {
        let (s, z) = splitmix(state);
        state = s;
        t[i] = z;
        i += 1;
    }
    t
}

static RADIUS_KEYS: [u64; RADII] = radius_keys();

/// `SYMMETRY_KEYS[j][k]`: the keys circle point `j` takes under symmetry
/// `k`, those of the point `i` that `k` carries onto `j`. The pattern
/// under `k` is the XOR over `i` of `KEYS[i]` for what lies where `k`
/// carries `i`; summed by the point reached, each point of the board is
/// read once, not once per symmetry (the hot loop of the priors at every
/// expansion). The same for every board, so made once.
static SYMMETRY_KEYS: LazyLock<Box<[[[u64; 4]; 8]; POINTS]>> = LazyLock::new(|| {
    let (offsets, _) = circle();
    let mut keys = Box::new([[[0u64; 4]; 8]; POINTS]);
    for (k, symmetry) in Symmetry::ALL.iter().enumerate() {
        for (i, &o) in offsets.iter().enumerate().take(POINTS) {
            // A symmetry keeps the distance, so `j` is in `i`'s radius.
            if let Some(j) = offsets.iter().position(|&q| q == symmetry.offset(o))
                && let Some(row) = keys.get_mut(j)
            {
                row[k] = KEYS[i];
            }
        }
    }
    keys
});

/// The tables of one board size: a padded copy of the board (so that the
/// circle never needs a bounds check) and the circle's offsets on it.
#[derive(Clone, Debug)]
pub struct Spatial {
    width: usize,
    height: usize,
    /// Width of the padded array.
    stride: usize,
    /// `deltas[j]`: offset on the padded array of circle point `j`.
    deltas: [isize; POINTS],
    /// Where each radius ends in the circle.
    ends: [usize; RADII],
    /// The padded board from the mover's side.
    cells: Vec<u8>,
}

impl Spatial {
    /// Tables for a `width` x `height` board.
    pub fn new(width: usize, height: usize) -> Spatial {
        let (offsets, ends) = circle();
        let stride = width + 2 * REACH;
        let mut deltas = [0isize; POINTS];
        for (d, &(dx, dy)) in deltas.iter_mut().zip(&offsets) {
            *d = dy as isize * stride as isize + dx as isize;
        }
        Spatial {
            width,
            height,
            stride,
            deltas,
            ends,
            cells: vec![OFF; stride * (height + 2 * REACH)],
        }
    }

    /// Copies `board` in, seen from `color`.
    pub fn load(&mut self, board: &Board, color: Color) {
        let size = board.size();
        for y in 0..self.height {
            for x in 0..self.width {
                let v = match size.point(x as u32, y as u32).and_then(|p| board.get(p)) {
                    None => EMPTY,
                    Some(c) if c == color => OWN,
                    Some(_) => OPPONENT,
                };
                let i = self.cell(x, y);
                if let Some(c) = self.cells.get_mut(i) {
                    *c = v;
                }
            }
        }
    }

    fn cell(&self, x: usize, y: usize) -> usize {
        (y + REACH) * self.stride + x + REACH
    }

    /// The hash of the pattern at each radius around `p` (a point of the
    /// loaded board), smallest radius first.
    pub fn hashes(&self, board: &Board, p: Point) -> [u64; RADII] {
        let (x, y) = board.size().xy(p);
        let centre = self.cell(x as usize, y as usize) as isize;
        let mut h = [0u64; 8];
        let mut out = [0u64; RADII];
        let mut start = 0;
        for (r, &end) in self.ends.iter().enumerate() {
            let circle = SYMMETRY_KEYS.iter().zip(&self.deltas);
            for (keys, &delta) in circle.take(end).skip(start) {
                let at = (centre + delta) as usize;
                // A cell holds 0 to 3; the mask lets `key[c]` go unchecked.
                let c = usize::from(self.cells.get(at).copied().unwrap_or(OFF) & 3);
                for (hk, key) in h.iter_mut().zip(keys) {
                    *hk ^= key[c];
                }
            }
            start = end;
            out[r] = h.iter().copied().min().unwrap_or(0) ^ RADIUS_KEYS[r];
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use tengen_core::BoardSize;

    #[test]
    fn the_circle_of_radius_ten_has_72_points_and_the_3x3_square_8() {
        let (offsets, ends) = circle();
        assert_eq!(offsets.len(), POINTS);
        assert_eq!(ends[0], 8);
        assert_eq!(ends[RADII - 1], 72);
    }

    fn hashes_at(text: &str, x: u32, y: u32, color: Color) -> [u64; RADII] {
        let board = Board::from_ascii(text).unwrap();
        let mut s = Spatial::new(
            board.size().width() as usize,
            board.size().height() as usize,
        );
        s.load(&board, color);
        let p = board.size().point(x, y).unwrap();
        s.hashes(&board, p)
    }

    #[test]
    fn the_four_corners_share_their_patterns() {
        let size = BoardSize::square(9).unwrap();
        let empty = Board::new(size);
        let mut s = Spatial::new(9, 9);
        s.load(&empty, Color::Black);
        let corners = [(2, 2), (6, 2), (2, 6), (6, 6)];
        let h: Vec<_> = corners
            .iter()
            .map(|&(x, y)| s.hashes(&empty, size.point(x, y).unwrap()))
            .collect();
        assert!(h.iter().all(|x| *x == h[0]));
        // The 3-3 point and the 4-4 point differ once the edge is in sight.
        let four = s.hashes(&empty, size.point(3, 3).unwrap());
        assert_eq!(four[0], h[0][0], "both see an empty 3x3 square");
        assert_ne!(four[RADII - 1], h[0][RADII - 1]);
    }

    #[test]
    fn a_shape_and_its_mirror_match_and_colours_are_seen_from_the_mover() {
        let a = "\
. . . . .
. X . . .
. . . O .
. . . . .
. . . . .";
        let mirrored = "\
. . . . .
. . . X .
. O . . .
. . . . .
. . . . .";
        assert_eq!(
            hashes_at(a, 2, 2, Color::Black),
            hashes_at(mirrored, 2, 2, Color::Black)
        );
        let swapped = "\
. . . . .
. O . . .
. . . X .
. . . . .
. . . . .";
        assert_eq!(
            hashes_at(a, 2, 2, Color::Black),
            hashes_at(swapped, 2, 2, Color::White)
        );
        assert_ne!(
            hashes_at(a, 2, 2, Color::Black),
            hashes_at(a, 2, 2, Color::White)
        );
    }

    /// The definition, read straight off the board: under each symmetry,
    /// the XOR of each circle point's key for what lies where the symmetry
    /// carries it; the smallest of the eight at each radius.
    fn by_definition(board: &Board, p: Point, color: Color) -> [u64; RADII] {
        let (offsets, ends) = circle();
        let size = board.size();
        let (x, y) = size.xy(p);
        let mut out = [0u64; RADII];
        for (r, &end) in ends.iter().enumerate() {
            let each = Symmetry::ALL.iter().map(|k| {
                offsets
                    .iter()
                    .take(end)
                    .enumerate()
                    .fold(0u64, |h, (i, &o)| {
                        let (dx, dy) = k.offset(o);
                        let (qx, qy) = (x as i32 + dx, y as i32 + dy);
                        let inside = (0..size.width() as i32).contains(&qx)
                            && (0..size.height() as i32).contains(&qy);
                        let c = match inside.then(|| size.point(qx as u32, qy as u32)).flatten() {
                            None => OFF,
                            Some(q) => match board.get(q) {
                                None => EMPTY,
                                Some(c) if c == color => OWN,
                                Some(_) => OPPONENT,
                            },
                        };
                        h ^ KEYS[i][usize::from(c)]
                    })
            });
            out[r] = each.min().unwrap() ^ RADIUS_KEYS[r];
        }
        out
    }

    #[test]
    fn every_point_of_played_boards_hashes_as_the_definition_says() {
        use tengen_core::{Game, Preset};
        let mut rng = crate::Rng::new(5);
        for (side, turns) in [(19, 150), (19, 400), (9, 60), (13, 120)] {
            let size = BoardSize::square(side).unwrap();
            let rules = Preset::Chinese.rules();
            let mut game = Game::new(rules, size);
            for t in crate::random::random_game(rules, size, turns, &mut rng) {
                game.play_as(t.color, t.mv).unwrap();
            }
            let board = game.board();
            let mut s = Spatial::new(side as usize, side as usize);
            for color in [Color::Black, Color::White] {
                s.load(board, color);
                for p in size.points().filter(|&p| board.get(p).is_none()) {
                    assert_eq!(s.hashes(board, p), by_definition(board, p, color));
                }
            }
        }
    }
}
