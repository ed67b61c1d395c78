//! Board dimensions and points.
//!
//! A point is an index into a padded one-dimensional array: `x + 1 + (y + 1) *
//! (width + 1)`, with `y = 0` the top row (as in SGF). One border column is
//! shared by the left and right edges, and the rows above and below are
//! border, so the four neighbours and four diagonals of any point on the
//! board are valid indexes and no neighbour loop checks bounds.
//!
//! The board's geometry lives here too: the line of a point (its distance
//! to the edge), steps by an offset, and the eight symmetries of the square
//! ([`Symmetry`]). Distances between points are left to their users, who
//! measure them differently (Manhattan, Chebyshev, gridcular).

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
// Read back through `BoardSize::new`, so that no size off the limits gets in.
#[cfg_attr(
    feature = "serde",
    derive(serde::Serialize, serde::Deserialize),
    serde(try_from = "SizeText", into = "SizeText")
)]
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

/// A board size as it is written: width and height.
#[cfg(feature = "serde")]
#[derive(serde::Serialize, serde::Deserialize)]
struct SizeText {
    width: u32,
    height: u32,
}

#[cfg(feature = "serde")]
impl From<BoardSize> for SizeText {
    fn from(s: BoardSize) -> SizeText {
        SizeText {
            width: s.width(),
            height: s.height(),
        }
    }
}

#[cfg(feature = "serde")]
impl TryFrom<SizeText> for BoardSize {
    type Error = SizeError;

    fn try_from(s: SizeText) -> Result<BoardSize, SizeError> {
        BoardSize::new(s.width, s.height)
    }
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

    /// The eight offsets around a point, row by row from the top left.
    #[inline]
    pub(crate) const fn around_offsets(self) -> [isize; 8] {
        let s = self.stride() as isize;
        [-s - 1, -s, -s + 1, -1, 1, s - 1, s, s + 1]
    }

    /// The neighbours of `p` that are on the board.
    pub fn neighbours(self, p: Point) -> impl Iterator<Item = Point> {
        self.adjacent_offsets()
            .into_iter()
            .map(move |d| p.offset(d))
            .filter(move |&q| self.contains(q))
    }

    /// The line of `p` from the nearest edge: 1 on the edge, 2 on the
    /// second line, and so on (the third and fourth lines are where Go
    /// players open).
    #[inline]
    pub fn line(self, p: Point) -> u32 {
        let (x, y) = self.xy(p);
        1 + x
            .min(y)
            .min(self.width().saturating_sub(x + 1))
            .min(self.height().saturating_sub(y + 1))
    }

    /// The point `dx` columns right and `dy` rows down of `p`, if on the
    /// board.
    pub fn shift(self, p: Point, (dx, dy): (i32, i32)) -> Option<Point> {
        let (x, y) = self.xy(p);
        let x = u32::try_from(i64::from(x) + i64::from(dx)).ok()?;
        let y = u32::try_from(i64::from(y) + i64::from(dy)).ok()?;
        self.point(x, y)
    }

    /// The symmetries that map this board onto itself: all eight on a
    /// square board, the four that keep the axes on any other.
    pub fn symmetries(self) -> &'static [Symmetry] {
        if self.is_square() {
            &Symmetry::ALL
        } else {
            &Symmetry::ALL[..4]
        }
    }

    /// Where `sym` takes the point `p` of this board; `None` when `sym`
    /// swaps the axes of a board that is not square (see
    /// [`BoardSize::symmetries`]) or `p` is not on the board.
    pub fn transform(self, p: Point, sym: Symmetry) -> Option<Point> {
        if !self.contains(p) || (sym.swaps_axes() && !self.is_square()) {
            return None;
        }
        let (x, y) = self.xy(p);
        let (x, y) = if sym.swaps_axes() { (y, x) } else { (x, y) };
        let x = if sym.mirrors_x() {
            self.width() - 1 - x
        } else {
            x
        };
        let y = if sym.mirrors_y() {
            self.height() - 1 - y
        } else {
            y
        };
        self.point(x, y)
    }
}

/// One of the eight symmetries of the square (four rotations, each with or
/// without a reflection), under which a shape keeps its meaning: the axes
/// swapped first when [`Symmetry::swaps_axes`], then each mirrored.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Symmetry(u8);

impl Symmetry {
    /// Bit 0 mirrors left and right, bit 1 top and bottom, bit 2 swaps the
    /// axes; the four that keep the axes come first.
    pub const ALL: [Symmetry; 8] = [
        Symmetry(0),
        Symmetry(1),
        Symmetry(2),
        Symmetry(3),
        Symmetry(4),
        Symmetry(5),
        Symmetry(6),
        Symmetry(7),
    ];

    /// Everything stays.
    pub const IDENTITY: Symmetry = Symmetry(0);

    /// The half turn about the centre (both mirrors), which every board
    /// has.
    pub const HALF_TURN: Symmetry = Symmetry(3);

    /// Rows become columns (the reflection in the main diagonal).
    pub const TRANSPOSE: Symmetry = Symmetry(4);

    /// Whether rows become columns (only square boards have these).
    #[inline]
    pub const fn swaps_axes(self) -> bool {
        self.0 & 4 != 0
    }

    /// Whether left and right are exchanged (after any swap of the axes).
    #[inline]
    pub const fn mirrors_x(self) -> bool {
        self.0 & 1 != 0
    }

    /// Whether top and bottom are exchanged (after any swap of the axes).
    #[inline]
    pub const fn mirrors_y(self) -> bool {
        self.0 & 2 != 0
    }

    /// The symmetry that undoes this one: itself, except that a swap of
    /// the axes followed by one mirror is undone by the swap and the other
    /// mirror (the quarter turns go back the other way).
    #[inline]
    pub const fn inverse(self) -> Symmetry {
        if self.swaps_axes() {
            Symmetry(4 | (self.0 & 1) << 1 | (self.0 & 2) >> 1)
        } else {
            self
        }
    }

    /// The offset `(dx, dy)` (columns right, rows down) under this
    /// symmetry.
    #[inline]
    pub const fn offset(self, (dx, dy): (i32, i32)) -> (i32, i32) {
        let (dx, dy) = if self.swaps_axes() {
            (dy, dx)
        } else {
            (dx, dy)
        };
        (
            if self.mirrors_x() { -dx } else { dx },
            if self.mirrors_y() { -dy } else { dy },
        )
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

    #[test]
    fn lines_count_from_the_nearest_edge() {
        let size = BoardSize::new(19, 13).unwrap();
        let at = |x, y| size.point(x, y).unwrap();
        assert_eq!(size.line(at(0, 6)), 1);
        assert_eq!(size.line(at(3, 2)), 3);
        assert_eq!(size.line(at(15, 9)), 4);
        assert_eq!(size.line(at(9, 6)), 7);
        let one = BoardSize::square(1).unwrap();
        assert_eq!(one.line(one.point(0, 0).unwrap()), 1);
    }

    #[test]
    fn shifts_stay_on_the_board() {
        let size = BoardSize::square(9).unwrap();
        let at = |x, y| size.point(x, y).unwrap();
        assert_eq!(size.shift(at(2, 3), (1, -2)), Some(at(3, 1)));
        assert_eq!(size.shift(at(0, 0), (-1, 0)), None);
        assert_eq!(size.shift(at(8, 8), (0, 1)), None);
    }

    #[test]
    fn symmetries_permute_the_points_and_agree_with_offsets() {
        for (w, h) in [(9, 9), (19, 19), (7, 5), (1, 3)] {
            let size = BoardSize::new(w, h).unwrap();
            let syms = size.symmetries();
            assert_eq!(syms.len(), if w == h { 8 } else { 4 });
            for &sym in syms {
                let mut images: Vec<Point> = size
                    .points()
                    .map(|p| size.transform(p, sym).unwrap())
                    .collect();
                images.sort_unstable();
                images.dedup();
                assert_eq!(images.len(), size.num_points());
                // The inverse takes every image back.
                for p in size.points() {
                    let back = size
                        .transform(p, sym)
                        .and_then(|t| size.transform(t, sym.inverse()));
                    assert_eq!(back, Some(p), "{sym:?}");
                }
                // A step between two points is the offset's image.
                for p in size.points() {
                    for q in size.neighbours(p) {
                        let (px, py) = size.xy(p);
                        let (qx, qy) = size.xy(q);
                        let step = (qx as i32 - px as i32, qy as i32 - py as i32);
                        let (tp, tq) = (size.transform(p, sym), size.transform(q, sym));
                        assert_eq!(tp.and_then(|t| size.shift(t, sym.offset(step))), tq);
                    }
                }
            }
            if w != h {
                let p = size.point(0, 0).unwrap();
                assert_eq!(size.transform(p, Symmetry::TRANSPOSE), None);
            }
        }
        let size = BoardSize::new(19, 5).unwrap();
        let p = size.point(2, 1).unwrap();
        assert_eq!(size.transform(p, Symmetry::HALF_TURN), size.point(16, 3));
        assert_eq!(size.transform(p, Symmetry::IDENTITY), Some(p));
        // Eight distinct knight's moves.
        let mut knights: Vec<(i32, i32)> = Symmetry::ALL.iter().map(|s| s.offset((2, 1))).collect();
        knights.sort_unstable();
        knights.dedup();
        assert_eq!(knights.len(), 8);
    }
}
