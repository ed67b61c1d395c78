//! Board dimensions and points.
//!
//! A point is an index into a padded one-dimensional array: `x + 1 + (y + 1) *
//! (width + 1)`, with `y = 0` the top row (as in SGF). One border column is
//! shared by the left and right edges, and the rows above and below are
//! border, so the four neighbours and four diagonals of any point on the
//! board are valid indexes and no neighbour loop checks bounds.

use std::fmt;

/// The widest and tallest board: 25 is the most GTP letters can name.
pub const MAX_SIZE: u8 = 25;

/// Slots of the padded arrays: a power of two above the cells of the largest
/// board, `(25 + 2) * (25 + 1) + 1 = 703`, so that [`Point::index`] can mask
/// its value and the compiler drops every bounds check in the hot loops
/// without `unsafe`.
pub(crate) const MAX_CELLS: usize = 1024;

const _: () = assert!((MAX_SIZE as usize + 2) * (MAX_SIZE as usize + 1) < MAX_CELLS);

/// Points of the largest board.
pub(crate) const MAX_POINTS: usize = MAX_SIZE as usize * MAX_SIZE as usize;

/// Width and height of a board, each from 1 to 25.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct BoardSize {
    width: u8,
    height: u8,
}

/// A size outside 1..=25.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[error(
    "board size {width}x{height} is not supported: width and height must be from 1 to {MAX_SIZE}"
)]
pub struct SizeError {
    /// The width asked for.
    pub width: u32,
    /// The height asked for.
    pub height: u32,
}

/// A point of the board: a padded index, only meaningful with its [`BoardSize`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Point(u16);

impl Point {
    /// The padded index (always below 703; the mask is free and lets the
    /// compiler prove it).
    #[inline]
    pub const fn index(self) -> usize {
        self.0 as usize & (MAX_CELLS - 1)
    }

    /// The point at a padded index, without checking that it is on a board.
    #[inline]
    pub(crate) const fn from_index(i: usize) -> Point {
        Point(i as u16)
    }

    /// Offset by `d` cells (neighbours and diagonals on the padded array).
    #[inline]
    pub(crate) const fn offset(self, d: isize) -> Point {
        Point((self.0 as isize + d) as u16)
    }
}

impl BoardSize {
    /// The standard 19x19 board.
    pub const STANDARD: BoardSize = BoardSize {
        width: 19,
        height: 19,
    };

    /// A board `width` points wide and `height` tall.
    ///
    /// # Errors
    /// [`SizeError`] when either is 0 or above 25.
    pub fn new(width: u32, height: u32) -> Result<BoardSize, SizeError> {
        let ok = |n: u32| (1..=MAX_SIZE as u32).contains(&n);
        if ok(width) && ok(height) {
            Ok(BoardSize {
                width: width as u8,
                height: height as u8,
            })
        } else {
            Err(SizeError { width, height })
        }
    }

    /// A square board.
    ///
    /// # Errors
    /// [`SizeError`] when `n` is 0 or above 25.
    pub fn square(n: u32) -> Result<BoardSize, SizeError> {
        BoardSize::new(n, n)
    }

    /// Points across.
    pub const fn width(self) -> u32 {
        self.width as u32
    }

    /// Points down.
    pub const fn height(self) -> u32 {
        self.height as u32
    }

    /// Whether the board is square.
    pub const fn is_square(self) -> bool {
        self.width == self.height
    }

    /// The number of points.
    pub const fn num_points(self) -> usize {
        self.width as usize * self.height as usize
    }

    /// Distance between vertically adjacent cells of the padded array.
    #[inline]
    pub(crate) const fn stride(self) -> usize {
        self.width as usize + 1
    }

    /// Number of cells of the padded array in use: one past the largest
    /// point index, the length of a table indexed by point.
    pub const fn cells(self) -> usize {
        (self.height as usize + 2) * self.stride() + 1
    }

    /// The point at column `x` (0 = left) and row `y` (0 = top), if on the board.
    pub fn point(self, x: u32, y: u32) -> Option<Point> {
        (x < self.width() && y < self.height())
            .then(|| Point((x as usize + 1 + (y as usize + 1) * self.stride()) as u16))
    }

    /// Whether `p` is a point of this board (not border, not out of range).
    #[inline]
    pub fn contains(self, p: Point) -> bool {
        let i = p.index();
        let s = self.stride();
        i > s && i < (self.height as usize + 1) * s && !i.is_multiple_of(s)
    }

    /// Column and row (0 = left, 0 = top) of a point of this board (for a
    /// point of another board the answer means nothing, but never panics).
    pub fn xy(self, p: Point) -> (u32, u32) {
        let s = self.stride();
        let i = p.index();
        (
            ((i % s) as u32).saturating_sub(1),
            ((i / s) as u32).saturating_sub(1),
        )
    }

    /// Every point, row by row from the top left.
    pub fn points(self) -> impl Iterator<Item = Point> + Clone {
        let s = self.stride();
        let w = self.width as usize;
        (0..self.height as usize)
            .flat_map(move |y| (0..w).map(move |x| Point((x + 1 + (y + 1) * s) as u16)))
    }

    /// The four neighbour offsets on the padded array.
    #[inline]
    pub(crate) const fn adjacent_offsets(self) -> [isize; 4] {
        let s = self.stride() as isize;
        [-s, -1, 1, s]
    }

    /// The four diagonal offsets on the padded array.
    #[inline]
    pub(crate) const fn diagonal_offsets(self) -> [isize; 4] {
        let s = self.stride() as isize;
        [-s - 1, -s + 1, s - 1, s + 1]
    }

    /// The neighbours of `p` that are on the board.
    pub fn neighbours(self, p: Point) -> impl Iterator<Item = Point> {
        self.adjacent_offsets()
            .into_iter()
            .map(move |d| p.offset(d))
            .filter(move |&q| self.contains(q))
    }
}

impl fmt::Display for BoardSize {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}x{}", self.width, self.height)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn points_round_trip_and_borders_are_off_board() {
        for (w, h) in [(1, 1), (2, 3), (9, 9), (19, 13), (25, 25)] {
            let size = BoardSize::new(w, h).unwrap();
            assert_eq!(size.points().count(), (w * h) as usize);
            for p in size.points() {
                assert!(size.contains(p));
                let (x, y) = size.xy(p);
                assert_eq!(size.point(x, y), Some(p));
                for d in size
                    .adjacent_offsets()
                    .into_iter()
                    .chain(size.diagonal_offsets())
                {
                    assert!(p.offset(d).index() < size.cells());
                }
            }
            let on_board = (0..size.cells())
                .filter(|&i| size.contains(Point::from_index(i)))
                .count();
            assert_eq!(on_board, (w * h) as usize);
            assert!(size.cells() <= MAX_CELLS);
        }
        assert!(BoardSize::new(0, 5).is_err());
        assert!(BoardSize::new(26, 5).is_err());
    }
}
