//! Board geometry for the shape terms: signed offsets, lines counted toward
//! one edge, directions toward an edge. The board's own geometry (the line
//! of a point, a step by an offset, the eight symmetries) is
//! `tengen_core::BoardSize`'s.

use tengen_core::{Board, BoardSize, Color, Point, Symmetry};

/// An offset `(dx, dy)` on the board, `y` growing downwards as in
/// [`BoardSize::xy`].
pub(crate) type Offset = (i32, i32);

/// The four unit directions.
pub(crate) const DIRECTIONS: [Offset; 4] = [(1, 0), (-1, 0), (0, 1), (0, -1)];

/// `o` times `n`.
pub(crate) fn scale((a, b): Offset, n: i32) -> Offset {
    (a * n, b * n)
}

/// The sum of two offsets.
pub(crate) fn add((a, b): Offset, (c, d): Offset) -> Offset {
    (a + c, b + d)
}

/// The direction at right angles to `d`.
pub(crate) fn across((a, b): Offset) -> Offset {
    (b, a)
}

/// The line of `p` counted from the edge in direction `d` (1 on that edge).
pub(crate) fn line_toward(size: BoardSize, p: Point, d: Offset) -> i32 {
    let (x, y) = size.xy(p);
    let (x, y) = (x as i32, y as i32);
    let (w, h) = (size.width() as i32, size.height() as i32);
    match d {
        (1, 0) => w - x,
        (-1, 0) => x + 1,
        (0, 1) => h - y,
        _ => y + 1,
    }
}

/// Chebyshev distance between two points (the king's move distance).
pub(crate) fn distance(size: BoardSize, a: Point, b: Point) -> i32 {
    let (ax, ay) = size.xy(a);
    let (bx, by) = size.xy(b);
    (ax as i32 - bx as i32)
        .abs()
        .max((ay as i32 - by as i32).abs())
}

/// Whether the point at `p + o` holds `want` (`None`: empty, on the board).
pub(crate) fn holds(board: &Board, p: Point, o: Offset, want: Option<Color>) -> bool {
    board
        .size()
        .shift(p, o)
        .is_some_and(|q| board.get(q) == want)
}

/// A shape around the new stone: a stone of some colour at `target`, the
/// points of `empty` empty; all offsets from the new stone.
pub(crate) struct Relation {
    pub(crate) target: Offset,
    pub(crate) empty: &'static [Offset],
}

impl Relation {
    /// The first stone of `color` standing in this relation to `m`, under
    /// any of the eight symmetries.
    pub(crate) fn find(&self, board: &Board, m: Point, color: Color) -> Option<Point> {
        let size = board.size();
        Symmetry::ALL.iter().find_map(|k| {
            let t = size.shift(m, k.offset(self.target))?;
            let ok = board.get(t) == Some(color)
                && self
                    .empty
                    .iter()
                    .all(|&e| holds(board, m, k.offset(e), None));
            ok.then_some(t)
        })
    }
}

/// Whether a diagonal neighbour of `p` holds a stone of `color`.
pub(crate) fn touches_diagonally(board: &Board, p: Point, color: Color) -> bool {
    board.diagonals(p).any(|q| board.get(q) == Some(color))
}

/// Whether an orthogonal neighbour of `p` holds a stone of `color`.
pub(crate) fn touches(board: &Board, p: Point, color: Color) -> bool {
    board.neighbours(p).any(|q| board.get(q) == Some(color))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_count_from_the_nearest_edge() {
        let size = BoardSize::square(19).unwrap();
        let p = size.point(3, 2).unwrap();
        assert_eq!(size.line(p), 3);
        assert_eq!(line_toward(size, p, (-1, 0)), 4);
        assert_eq!(line_toward(size, p, (1, 0)), 16);
        assert_eq!(line_toward(size, p, (0, 1)), 17);
    }
}
