//! Small board helpers the readers share: liberty lists, neighbouring
//! chains, a point set, and a board without one stone. The board's own
//! questions (neighbours, diagonals, a chain's first liberties) are
//! `tengen_core::Board`'s.
//!
//! Public for the lexicon (`tengen-lexicon`), which asks the same small
//! questions as the readers it calls; the rest stays inside the crate.

use tengen_core::{Board, BoardSize, Color, Point};

/// A set of points of one board, as a bit per padded index (every padded
/// index is below 1024, see `tengen_core::size`). 128 bytes, no allocation.
#[derive(Clone, Copy, Debug, Default)]
pub struct PointSet {
    bits: [u64; 16],
}

impl PointSet {
    /// The empty set.
    pub const fn new() -> PointSet {
        PointSet { bits: [0; 16] }
    }

    /// Adds `p`; whether it was new.
    #[inline]
    pub fn insert(&mut self, p: Point) -> bool {
        let i = p.index();
        let (w, b) = ((i >> 6) & 15, i & 63);
        let new = self.bits[w] & (1 << b) == 0;
        self.bits[w] |= 1 << b;
        new
    }

    /// Whether `p` is in the set.
    #[inline]
    pub fn contains(&self, p: Point) -> bool {
        let i = p.index();
        self.bits[(i >> 6) & 15] & (1 << (i & 63)) != 0
    }
}

/// Every liberty of the chain at `p`, in the order the chain walk meets them.
pub fn liberty_list(board: &Board, p: Point) -> Vec<Point> {
    let mut seen = PointSet::new();
    let mut out = Vec::new();
    for s in board.chain(p) {
        for q in board.neighbours(s) {
            if board.is_empty(q) && seen.insert(q) {
                out.push(q);
            }
        }
    }
    out
}

/// The distinct chains orthogonally adjacent to the point `p`, of `color`
/// (one stone of each).
pub fn chains_around(board: &Board, p: Point, color: Color) -> Vec<Point> {
    let mut ids: Vec<Point> = Vec::new();
    let mut out = Vec::new();
    for q in board.neighbours(p) {
        if board.get(q) == Some(color)
            && let Some(id) = board.chain_id(q)
            && !ids.contains(&id)
        {
            ids.push(id);
            out.push(q);
        }
    }
    out
}

/// Points within Manhattan distance `r` of `p` (not `p` itself), on the board.
pub fn within(size: BoardSize, p: Point, r: i64) -> impl Iterator<Item = Point> {
    let (x, y) = size.xy(p);
    (-r..=r).flat_map(move |dx| {
        (-r..=r).filter_map(move |dy| {
            let (nx, ny) = (i64::from(x) + dx, i64::from(y) + dy);
            if (dx == 0 && dy == 0) || dx.abs() + dy.abs() > r || nx < 0 || ny < 0 {
                return None;
            }
            size.point(nx as u32, ny as u32)
        })
    })
}

/// Number of on-board neighbours of `p` (4 in the middle, 3 on an edge, 2 in a corner).
pub(crate) fn on_board_neighbours(board: &Board, p: Point) -> usize {
    board.neighbours(p).count()
}

/// Number of empty neighbours of `p`.
pub(crate) fn empty_neighbours(board: &Board, p: Point) -> usize {
    board.neighbours(p).filter(|&q| board.is_empty(q)).count()
}

/// The points reachable from `start` through points where `inside` holds,
/// or `None` when there are more than `max`.
pub(crate) fn flood(
    board: &Board,
    start: Point,
    inside: impl Fn(Point) -> bool,
    max: usize,
) -> Option<Vec<Point>> {
    let mut seen = PointSet::new();
    seen.insert(start);
    let mut out = vec![start];
    let mut i = 0;
    while i < out.len() {
        let q = out[i];
        i += 1;
        for n in board.neighbours(q) {
            if inside(n) && seen.insert(n) {
                out.push(n);
                if out.len() > max {
                    return None;
                }
            }
        }
    }
    Some(out)
}

/// The same position without the stone at `s` (the other stones are placed
/// again one by one; as removing a stone only adds liberties, no chain of
/// the result lacks a liberty and nothing is captured while placing them).
/// The simple-ko point is not kept.
pub(crate) fn without_stone(board: &Board, s: Point) -> Board {
    let size = board.size();
    let mut b = Board::new(size);
    for p in size.points() {
        if p != s
            && let Some(c) = board.get(p)
        {
            b.play_unchecked(p, c);
        }
    }
    b
}

/// Whether `color` may play at `p` on the fast board (empty, not the simple
/// ko point, not a suicide), checked on a point that may be off the board.
#[inline]
pub fn legal(board: &Board, p: Point, color: Color) -> bool {
    board.size().contains(p) && board.is_legal_simple(p, color)
}
