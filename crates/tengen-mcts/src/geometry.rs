//! Tables over one board size that the search and the playouts read in their
//! hot loops: the eight neighbours of each point, its line from the edge,
//! and the points themselves.

use tengen_core::{Board, BoardSize, Color, Point};

/// Per-point tables for one board size, indexed by [`Point::index`].
#[derive(Clone, Debug)]
pub(crate) struct Geometry {
    size: BoardSize,
    points: Vec<Point>,
    /// The eight neighbours, row by row (top left to bottom right, the
    /// centre left out); `None` off the board.
    around: Vec<[Option<Point>; 8]>,
    /// The four orthogonal neighbours on the board.
    adjacent: Vec<Vec<Point>>,
    /// 1 on the edge, 2 on the second line, and so on.
    line: Vec<u8>,
    xy: Vec<(i32, i32)>,
}

/// Offsets of [`Geometry::around`], in its order.
const AROUND: [(i32, i32); 8] = [
    (-1, -1),
    (0, -1),
    (1, -1),
    (-1, 0),
    (1, 0),
    (-1, 1),
    (0, 1),
    (1, 1),
];

impl Geometry {
    pub(crate) fn new(size: BoardSize) -> Geometry {
        let points: Vec<Point> = size.points().collect();
        let cells = points.iter().map(|p| p.index()).max().unwrap_or(0) + 1;
        let mut around = vec![[None; 8]; cells];
        let mut adjacent = vec![Vec::new(); cells];
        let mut line = vec![0u8; cells];
        let mut xy = vec![(0, 0); cells];
        let (w, h) = (size.width() as i32, size.height() as i32);
        let at = |x: i32, y: i32| -> Option<Point> {
            if x < 0 || y < 0 || x >= w || y >= h {
                None
            } else {
                size.point(x as u32, y as u32)
            }
        };
        for &p in &points {
            let (x, y) = size.xy(p);
            let (x, y) = (x as i32, y as i32);
            let i = p.index();
            xy[i] = (x, y);
            for (k, (dx, dy)) in AROUND.iter().enumerate() {
                around[i][k] = at(x + dx, y + dy);
            }
            adjacent[i] = size.neighbours(p).collect();
            let l = x.min(y).min(w - 1 - x).min(h - 1 - y) + 1;
            line[i] = l.clamp(0, 255) as u8;
        }
        Geometry {
            size,
            points,
            around,
            adjacent,
            line,
            xy,
        }
    }

    /// Length of a table indexed by [`Point::index`].
    pub(crate) fn cells(&self) -> usize {
        self.line.len()
    }

    pub(crate) fn size(&self) -> BoardSize {
        self.size
    }

    /// Column and row of a point (0 = left, 0 = top).
    #[inline]
    pub(crate) fn xy(&self, p: Point) -> (i32, i32) {
        self.xy[p.index()]
    }

    /// Every point, in the order of [`BoardSize::points`].
    pub(crate) fn points(&self) -> &[Point] {
        &self.points
    }

    #[inline]
    pub(crate) fn around(&self, p: Point) -> &[Option<Point>; 8] {
        &self.around[p.index()]
    }

    #[inline]
    pub(crate) fn adjacent(&self, p: Point) -> &[Point] {
        &self.adjacent[p.index()]
    }

    /// 1 on the edge, 2 on the second line...
    #[inline]
    pub(crate) fn line(&self, p: Point) -> u8 {
        self.line[p.index()]
    }

    /// Manhattan distance between two points.
    #[inline]
    pub(crate) fn distance(&self, a: Point, b: Point) -> i32 {
        let (ax, ay) = self.xy[a.index()];
        let (bx, by) = self.xy[b.index()];
        (ax - bx).abs() + (ay - by).abs()
    }

    /// The 3x3 neighbourhood of `p` as 16 bits, two per neighbour in the
    /// order of [`Geometry::around`]: 0 empty, 1 black, 2 white, 3 off the
    /// board.
    #[inline]
    pub(crate) fn code3(&self, board: &Board, p: Point) -> u16 {
        let mut code = 0u16;
        for (k, q) in self.around(p).iter().enumerate() {
            let v = match q {
                None => 3,
                Some(q) => match board.get(*q) {
                    None => 0,
                    Some(Color::Black) => 1,
                    Some(Color::White) => 2,
                },
            };
            code |= v << (2 * k);
        }
        code
    }

    /// Whether any stone lies within Manhattan distance `d` of `p`.
    pub(crate) fn stones_near(&self, board: &Board, p: Point, d: i32) -> bool {
        let (x, y) = self.xy[p.index()];
        for dy in -d..=d {
            let r = d - dy.abs();
            for dx in -r..=r {
                let (qx, qy) = (x + dx, y + dy);
                if qx < 0 || qy < 0 {
                    continue;
                }
                if let Some(q) = self.size.point(qx as u32, qy as u32)
                    && board.get(q).is_some()
                {
                    return true;
                }
            }
        }
        false
    }
}
