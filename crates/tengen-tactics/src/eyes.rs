//! Eyes: one-point eyes and false eyes, the shapes of small eye spaces
//! (which can be killed by a play inside, nakade), and the nakade seki that
//! filling a liberty would break.
//!
//! A one-point eye of a colour is an empty point whose neighbours on the
//! board are all stones of that colour. It is *false* when the opponent
//! holds too many of its diagonal points: two or more in the middle of the
//! board, one or more on the edge or in the corner (the classic rule; the
//! diagonal stones may one day be captured, which this shape test does not
//! read). A point whose neighbours all belong to one single chain is a real
//! eye of that chain whatever the diagonals, since nothing can cut it.
//!
//! An eye space is a region of up to seven points (empty, or holding
//! opposing stones) enclosed by one colour. Its shape decides whether the
//! opponent, playing first at the vital point, leaves only one eye: every
//! space of one to three points, the square and pyramid fours, the bulky and
//! crossed fives and the rabbity six can be killed that way (the standard
//! list); straight, bent and twisted fours, and larger spaces, make two eyes.
//! The edge is not taken into account (bent four in the corner is a rules
//! question, not a shape one).

use crate::util::{PointSet, chains_around, flood, legal, liberty_list};
use tengen_core::{Board, BoardSize, Color, Point};

/// What kind of one-point eye a point is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum EyeKind {
    /// A real eye: the opponent can never fill it while the chains around
    /// have another liberty.
    Real,
    /// A false eye: the opponent holds enough diagonal points to cut the
    /// chains around it, which will have to connect by filling it.
    False,
}

/// Whether the empty point `p` is a one-point eye of `color`, and which
/// kind (see the module docs). `None` when `p` is not empty or a neighbour
/// is not a stone of `color`.
pub fn eye(board: &Board, p: Point, color: Color) -> Option<EyeKind> {
    if !board.is_empty(p) {
        return None;
    }
    let mut first_chain = None;
    let mut one_chain = true;
    let mut neighbours = 0;
    for q in board.neighbours(p) {
        if board.get(q) != Some(color) {
            return None;
        }
        neighbours += 1;
        let id = board.chain_id(q);
        match first_chain {
            None => first_chain = Some(id),
            Some(f) if f != id => one_chain = false,
            Some(_) => {}
        }
    }
    if one_chain {
        return Some(EyeKind::Real);
    }
    let enemy = board
        .diagonals(p)
        .filter(|&d| board.get(d) == Some(color.opponent()))
        .count();
    let limit = if neighbours == 4 { 2 } else { 1 };
    Some(if enemy >= limit {
        EyeKind::False
    } else {
        EyeKind::Real
    })
}

/// The shape of a small eye space, by the names Go players use.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum EyeShape {
    /// One point.
    One,
    /// Two points.
    Two,
    /// Three in a row.
    StraightThree,
    /// Three in an L.
    BentThree,
    /// Four in a row (alive).
    StraightFour,
    /// Four in an L (alive, except as the corner's special bent four).
    BentFour,
    /// Four in an S or Z (alive).
    TwistedFour,
    /// A 2x2 square (dead).
    SquareFour,
    /// A T of four, the pyramid (killed at its centre).
    PyramidFour,
    /// A square with one point added, the bulky five (killed at the point
    /// next to three others).
    BulkyFive,
    /// A plus sign, the crossed five (killed at its centre).
    CrossedFive,
    /// The rabbity (flower) six: a plus sign and one point making a square
    /// with its centre (killed at the centre).
    RabbitySix,
    /// Any other shape of this many points (five or more: alive).
    Other(u8),
}

/// A small eye space and what a play inside it does.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EyeSpace {
    /// Its points (empty, or holding opposing stones), in discovery order.
    pub points: Vec<Point>,
    /// Its shape.
    pub shape: EyeShape,
    /// Whether the opponent, playing first, can leave only one eye here.
    pub killable: bool,
    /// The point where a play decides between one eye and two, for the
    /// spaces that have one (three points and the killable shapes).
    pub vital: Option<Point>,
}

/// The eye space of `color` containing `p`: the points reachable from `p`
/// without crossing a stone of `color`, when there are at most
/// [`MAX_EYE_SPACE`] of them. `None` when `p` holds a stone of `color` or
/// the region is larger (it is then open, or a large territory).
pub fn eye_space(board: &Board, p: Point, color: Color) -> Option<EyeSpace> {
    if board.get(p) == Some(color) {
        return None;
    }
    let points = flood(board, p, |n| board.get(n) != Some(color), MAX_EYE_SPACE)?;
    Some(classify_space(board.size(), points))
}

/// The largest eye space [`eye_space`] classifies.
pub const MAX_EYE_SPACE: usize = 7;

/// Classifies a connected set of points as an eye space.
pub fn classify_space(size: BoardSize, points: Vec<Point>) -> EyeSpace {
    let n = points.len();
    let xy: Vec<(i64, i64)> = points
        .iter()
        .map(|&p| {
            let (x, y) = size.xy(p);
            (i64::from(x), i64::from(y))
        })
        .collect();
    let adjacent = |a: (i64, i64), b: (i64, i64)| (a.0 - b.0).abs() + (a.1 - b.1).abs() == 1;
    let degree: Vec<usize> = xy
        .iter()
        .map(|&a| xy.iter().filter(|&&b| adjacent(a, b)).count())
        .collect();
    let max_degree = degree.iter().copied().max().unwrap_or(0);
    let has = |x: i64, y: i64| xy.contains(&(x, y));
    let has_square = xy
        .iter()
        .any(|&(x, y)| has(x + 1, y) && has(x, y + 1) && has(x + 1, y + 1));
    let (min_x, max_x) = (
        xy.iter().map(|p| p.0).min().unwrap_or(0),
        xy.iter().map(|p| p.0).max().unwrap_or(0),
    );
    let (min_y, max_y) = (
        xy.iter().map(|p| p.1).min().unwrap_or(0),
        xy.iter().map(|p| p.1).max().unwrap_or(0),
    );
    let (w, h) = (max_x - min_x + 1, max_y - min_y + 1);
    let three_in_line = (min_x..=max_x).any(|x| xy.iter().filter(|p| p.0 == x).count() >= 3)
        || (min_y..=max_y).any(|y| xy.iter().filter(|p| p.1 == y).count() >= 3);
    let with_degree = |d: usize| degree.iter().position(|&k| k == d).map(|i| points[i]);
    let (shape, killable, vital) = match n {
        1 => (EyeShape::One, true, None),
        2 => (EyeShape::Two, true, None),
        3 if w == 3 || h == 3 => (EyeShape::StraightThree, true, with_degree(2)),
        3 => (EyeShape::BentThree, true, with_degree(2)),
        4 if has_square => (EyeShape::SquareFour, true, None),
        4 if max_degree == 3 => (EyeShape::PyramidFour, true, with_degree(3)),
        4 if w == 4 || h == 4 => (EyeShape::StraightFour, false, None),
        4 if three_in_line => (EyeShape::BentFour, false, None),
        4 => (EyeShape::TwistedFour, false, None),
        5 if max_degree == 4 => (EyeShape::CrossedFive, true, with_degree(4)),
        5 if has_square && max_degree == 3 => (EyeShape::BulkyFive, true, with_degree(3)),
        6 if has_square && max_degree == 4 => (EyeShape::RabbitySix, true, with_degree(4)),
        k => (EyeShape::Other(k as u8), false, None),
    };
    EyeSpace {
        points,
        shape,
        killable,
        vital,
    }
}

/// Whether `color` playing at `m` would break a nakade seki: an opposing
/// chain of three to six stones sits inside `color`'s eye space with two
/// liberties, `m` and one other, both inside; if `color` fills `m` and then
/// captures the chain, the space it leaves is a killable shape and the
/// surrounding chain has no other eye, so it dies, while left alone neither
/// side can approach (the opposing chain plus either liberty is not a
/// killable shape either). Pachi's `breaking_nakade_seki` asks the same
/// question; this is an independent formulation by eye-space shapes.
pub fn breaks_nakade_seki(board: &Board, m: Point, color: Color) -> bool {
    if !board.is_empty(m) {
        return false;
    }
    let them = color.opponent();
    let inside = chains_around(board, m, them);
    if inside.len() != 1 || chains_around(board, m, color).is_empty() {
        return false;
    }
    let g = inside[0];
    let stones = board.chain_len(g);
    if board.liberties(g) != 2 || !(3..=6).contains(&stones) {
        return false;
    }
    let libs = liberty_list(board, g);
    let Some(&q) = libs.iter().find(|&&l| l != m) else {
        return false;
    };
    // The chain and its two liberties must be enclosed by `color` alone.
    let mut region: Vec<Point> = board.chain(g).collect();
    region.push(m);
    region.push(q);
    let mut own_around = Vec::new();
    for &r in &region {
        for n in board.neighbours(r) {
            if region.contains(&n) {
                continue;
            }
            match board.get(n) {
                Some(c) if c == color => own_around.push(n),
                _ => return false,
            }
        }
    }
    // No counter-capture: no surrounding chain in atari.
    if own_around.iter().any(|&s| board.liberties(s) == 1) {
        return false;
    }
    let size = board.size();
    let g_points: Vec<Point> = board.chain(g).collect();
    // Left alone, the opponent cannot grow the chain into a killable shape.
    for extra in [m, q] {
        let mut grown = g_points.clone();
        grown.push(extra);
        if classify_space(size, grown).killable {
            return false;
        }
    }
    // Once captured, the chain's space is killable...
    if !classify_space(size, g_points.clone()).killable {
        return false;
    }
    // ...and after filling `m` and capturing at `q` the surrounding stones
    // form one chain with no other eye.
    let mut b = board.clone();
    if !legal(&b, m, color) {
        return false;
    }
    b.play_unchecked(m, color);
    if !legal(&b, q, color) {
        return false;
    }
    let took = b.play_unchecked(q, color);
    if took.captured == 0 || b.get(g).is_some() {
        return false;
    }
    let Some(id) = b.chain_id(m) else {
        return false;
    };
    if own_around.iter().any(|&s| b.chain_id(s) != Some(id)) {
        return false;
    }
    let mut captured_area = PointSet::new();
    for &p in &g_points {
        captured_area.insert(p);
    }
    !has_other_eye(&b, m, &captured_area)
}

/// Whether the chain at `chain` has an eye outside `exclude`: a liberty all
/// of whose neighbours are stones of the chain, or a small enclosed space
/// bordered only by it.
fn has_other_eye(board: &Board, chain: Point, exclude: &PointSet) -> bool {
    let Some(color) = board.get(chain) else {
        return false;
    };
    let id = board.chain_id(chain);
    for l in liberty_list(board, chain) {
        if exclude.contains(l) {
            continue;
        }
        if board
            .neighbours(l)
            .all(|n| board.chain_id(n) == id && board.get(n) == Some(color))
        {
            return true;
        }
        if let Some(space) = eye_space(board, l, color)
            && space.points.iter().all(|&p| !exclude.contains(p))
            && space.points.iter().all(|&p| {
                board
                    .neighbours(p)
                    .all(|n| board.get(n) != Some(color) || board.chain_id(n) == id)
            })
        {
            return true;
        }
    }
    false
}
