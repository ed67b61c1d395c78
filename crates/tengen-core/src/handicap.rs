//! Handicap points: the fixed ones, as the GTP `fixed_handicap` table (GNU
//! Go `engine/handicap.c`) places them, extended to rectangular boards axis
//! by axis; a free placement for any count (GTP `place_free_handicap`); and
//! the star points a board is drawn with, taken from the same table so that
//! handicap stones stand on them. Whether the rules accept free stones, and
//! what White receives for them, is the game's business, not this module's.

use crate::size::{BoardSize, Point, Symmetry};

/// Why a handicap cannot be given.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum HandicapError {
    /// More or fewer stones than the placement allows.
    #[error(
        "invalid number of handicap stones: {asked} (this board and placement allow {min} to {max})"
    )]
    Count {
        /// Stones asked for.
        asked: u32,
        /// Fewest allowed.
        min: u32,
        /// Most allowed.
        max: u32,
    },
    /// Free stones given where the rules fix the points.
    #[error("these rules put handicap stones on the fixed points")]
    NotFixed,
    /// A point given twice or off the board.
    #[error("handicap points must be distinct points of the board")]
    BadPoint,
    /// The board already has stones.
    #[error("the board is not empty")]
    NotEmpty,
}

/// The most fixed handicap stones this board takes: 9 when both sides are
/// odd and at least 9, 4 when both are at least 7, else none.
pub fn max_fixed(size: BoardSize) -> u32 {
    let (w, h) = (size.width(), size.height());
    if w.min(h) < 7 {
        0
    } else if w % 2 == 1 && h % 2 == 1 && w.min(h) >= 9 {
        9
    } else {
        4
    }
}

/// The fixed handicap points for `n` stones (2 to [`max_fixed`]), in the
/// reference order: lower left, upper right, upper left, lower right, then
/// centre, left and right sides, top and bottom sides.
///
/// # Errors
/// [`HandicapError::Count`] when `n` is not allowed on this board.
pub fn fixed_points(size: BoardSize, n: u32) -> Result<Vec<Point>, HandicapError> {
    let max = max_fixed(size);
    if n < 2 || n > max {
        return Err(HandicapError::Count {
            asked: n,
            min: 2,
            max,
        });
    }
    let line = |len: u32| if len <= 11 { 2 } else { 3 };
    let (w, h) = (size.width(), size.height());
    let (lo_x, hi_x, mid_x) = (line(w), w - 1 - line(w), w / 2);
    let (lo_y, hi_y, mid_y) = (line(h), h - 1 - line(h), h / 2);
    // (x, y) with y = 0 at the top: "lower left" is (lo_x, hi_y).
    let lower_left = (lo_x, hi_y);
    let upper_right = (hi_x, lo_y);
    let upper_left = (lo_x, lo_y);
    let lower_right = (hi_x, hi_y);
    let centre = (mid_x, mid_y);
    let (left, right) = ((lo_x, mid_y), (hi_x, mid_y));
    let (top, bottom) = ((mid_x, lo_y), (mid_x, hi_y));
    let corners = [lower_left, upper_right, upper_left, lower_right];
    let mut xy: Vec<(u32, u32)> = corners.iter().take(n.min(4) as usize).copied().collect();
    match n {
        5 => xy.push(centre),
        6 => xy.extend([left, right]),
        7 => xy.extend([left, right, centre]),
        8 => xy.extend([left, right, bottom, top]),
        9 => xy.extend([left, right, bottom, top, centre]),
        _ => {}
    }
    Ok(xy
        .into_iter()
        .filter_map(|(x, y)| size.point(x, y))
        .collect())
}

/// The star points (hoshi) a board is drawn with: the corner handicap
/// points, the centre when both sides are odd, and the side points too on
/// boards of 19 lines and more; none below 7 lines. Drawn from the handicap
/// table, so that a handicap stone always stands on a star point of the
/// corners.
pub fn star_points(size: BoardSize) -> Vec<Point> {
    let (w, h) = (size.width(), size.height());
    let stones = match max_fixed(size) {
        0 => return Vec::new(),
        9 if w.min(h) >= 19 => 9,
        _ => 4,
    };
    let mut points = fixed_points(size, stones).unwrap_or_default();
    if stones == 4 && w % 2 == 1 && h % 2 == 1 {
        points.extend(size.point(w / 2, h / 2));
    }
    points
}

/// Where a free placement puts `n` stones (fewer than the points of the
/// board): the standard fixed points when the board has a layout for `n`
/// (players expect them, and GNU Go does the same); else its largest fixed
/// layout, then, greedily, the points farthest from the stones already
/// chosen, two at a time through the centre's symmetry while two or more
/// are missing. Candidates are the 3rd line and inside (the 2nd on boards
/// of 7 lines or fewer); closer to the edge only once those are full. Ties
/// go to the higher line, then to the left and lower point, so the choice
/// is deterministic.
pub fn free_points(size: BoardSize, n: u32) -> Vec<Point> {
    let base = max_fixed(size).min(n);
    let mut taken: Vec<Point> = fixed_points(size, base).unwrap_or_default();
    // The centre's symmetry never swaps axes, so every point has an image.
    let mirror = |p: Point| size.transform(p, Symmetry::HALF_TURN).unwrap_or(p);
    let dist2 = |a: Point, b: Point| {
        let ((ax, ay), (bx, by)) = (size.xy(a), size.xy(b));
        ax.abs_diff(bx).pow(2) + ay.abs_diff(by).pow(2)
    };
    // The squared distance from each point to the nearest stone chosen
    // (0 on the stones themselves), by point index.
    let mut near = vec![u32::MAX; size.cells()];
    for p in size.points() {
        near[p.index()] = taken.iter().map(|&t| dist2(p, t)).min().unwrap_or(u32::MAX);
    }
    let rank = |p: Point, spacing: u32| {
        let (x, y) = size.xy(p);
        (spacing, size.line(p), std::cmp::Reverse(x), y)
    };
    let (w, h) = (size.width(), size.height());
    let mut lowest = if w.min(h) <= 7 { 2 } else { 3 };
    while (taken.len() as u32) < n {
        let band: Vec<Point> = size
            .points()
            .filter(|&p| near[p.index()] > 0 && size.line(p) >= lowest)
            .collect();
        if band.is_empty() {
            if lowest <= 1 {
                break;
            }
            lowest -= 1;
            continue;
        }
        let pair = if n - taken.len() as u32 >= 2 {
            band.iter()
                .copied()
                .filter(|&p| mirror(p) != p && near[mirror(p).index()] > 0)
                .max_by_key(|&p| {
                    let m = mirror(p);
                    rank(p, near[p.index()].min(near[m.index()]).min(dist2(p, m)))
                })
        } else {
            None
        };
        let picks = match pair {
            Some(p) => vec![p, mirror(p)],
            None => band
                .iter()
                .copied()
                .max_by_key(|&p| rank(p, near[p.index()]))
                .into_iter()
                .collect(),
        };
        for c in picks {
            taken.push(c);
            for q in size.points() {
                near[q.index()] = near[q.index()].min(dist2(q, c));
            }
        }
    }
    taken
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::vertex::Vertex;

    fn names(size: BoardSize, n: u32) -> Vec<String> {
        fixed_points(size, n)
            .unwrap()
            .into_iter()
            .map(|p| Vertex::point_name(p, size))
            .collect()
    }

    #[test]
    fn matches_the_gtp_table() {
        let s19 = BoardSize::square(19).unwrap();
        assert_eq!(names(s19, 2), ["D4", "Q16"]);
        assert_eq!(names(s19, 3), ["D4", "Q16", "D16"]);
        assert_eq!(names(s19, 4), ["D4", "Q16", "D16", "Q4"]);
        assert_eq!(names(s19, 5), ["D4", "Q16", "D16", "Q4", "K10"]);
        assert_eq!(names(s19, 6), ["D4", "Q16", "D16", "Q4", "D10", "Q10"]);
        assert_eq!(
            names(s19, 8),
            ["D4", "Q16", "D16", "Q4", "D10", "Q10", "K4", "K16"]
        );
        assert_eq!(names(s19, 9).len(), 9);
        let s9 = BoardSize::square(9).unwrap();
        assert_eq!(names(s9, 2), ["C3", "G7"]);
        assert_eq!(names(s9, 5)[4], "E5");
        let s13 = BoardSize::square(13).unwrap();
        assert_eq!(names(s13, 2), ["D4", "K10"]);
        assert_eq!(max_fixed(BoardSize::square(8).unwrap()), 4);
        assert_eq!(max_fixed(BoardSize::square(7).unwrap()), 4);
        assert_eq!(max_fixed(BoardSize::square(6).unwrap()), 0);
        assert!(fixed_points(s19, 1).is_err());
        assert!(fixed_points(s19, 10).is_err());
        assert!(fixed_points(BoardSize::square(8).unwrap(), 5).is_err());
    }

    fn stars(size: BoardSize) -> Vec<String> {
        let mut v: Vec<String> = star_points(size)
            .into_iter()
            .map(|p| Vertex::point_name(p, size))
            .collect();
        v.sort();
        v
    }

    #[test]
    fn star_points_are_handicap_points() {
        let sq = |n| BoardSize::square(n).unwrap();
        assert_eq!(stars(sq(19)).len(), 9);
        assert_eq!(stars(sq(19)), {
            let mut v = names(sq(19), 9);
            v.sort();
            v
        });
        assert_eq!(stars(sq(13)), ["D10", "D4", "G7", "K10", "K4"]);
        assert_eq!(stars(sq(9)), ["C3", "C7", "E5", "G3", "G7"]);
        assert_eq!(stars(sq(7)), ["C3", "C5", "D4", "E3", "E5"]);
        assert_eq!(stars(sq(8)), ["C3", "C6", "F3", "F6"]);
        // 12 lines: on the fourth line, where the handicap stones go.
        assert_eq!(stars(sq(12)), ["D4", "D9", "J4", "J9"]);
        assert!(stars(sq(6)).is_empty());
        assert_eq!(stars(BoardSize::new(19, 9).unwrap()).len(), 5);
    }

    fn sorted_names(size: BoardSize, points: &[Point]) -> Vec<String> {
        let mut names: Vec<String> = points
            .iter()
            .map(|&p| Vertex::point_name(p, size))
            .collect();
        names.sort();
        names
    }

    #[test]
    fn free_handicap_keeps_the_fixed_layouts() {
        let s19 = BoardSize::STANDARD;
        assert_eq!(
            sorted_names(s19, &free_points(s19, 9)),
            ["D10", "D16", "D4", "K10", "K16", "K4", "Q10", "Q16", "Q4"]
        );
        assert_eq!(sorted_names(s19, &free_points(s19, 2)), ["D4", "Q16"]);
        // 7x7 has four fixed points; a fifth stone goes to the centre.
        let s7 = BoardSize::square(7).unwrap();
        assert_eq!(
            sorted_names(s7, &free_points(s7, 5)),
            ["C3", "C5", "D4", "E3", "E5"]
        );
        // Beyond nine on 9x9, the nine stay.
        let s9 = BoardSize::square(9).unwrap();
        let ten = free_points(s9, 10);
        for p in fixed_points(s9, 9).unwrap() {
            assert!(ten.contains(&p));
        }
    }

    #[test]
    fn free_handicap_places_distinct_stones_on_any_board() {
        for (w, h, n) in [
            (9, 9, 12),
            (9, 9, 80),
            (7, 7, 6),
            (7, 7, 48),
            (6, 6, 4),
            (5, 5, 3),
            (5, 5, 24),
            (19, 5, 7),
            (13, 9, 11),
            (1, 5, 4),
            (2, 2, 3),
            (25, 25, 40),
        ] {
            let size = BoardSize::new(w, h).unwrap();
            let points = free_points(size, n);
            assert_eq!(points.len() as u32, n, "{w}x{h} {n}");
            let mut distinct = points.clone();
            distinct.sort();
            distinct.dedup();
            assert_eq!(distinct.len(), points.len(), "{w}x{h} {n}");
            assert!(points.iter().all(|&p| size.contains(p)));
            assert_eq!(free_points(size, n), points, "deterministic");
        }
        // An even count away from the fixed layouts is symmetric through
        // the centre.
        let size = BoardSize::new(19, 5).unwrap();
        let points = free_points(size, 6);
        for &p in &points {
            let (x, y) = size.xy(p);
            let mirror = size.point(18 - x, 4 - y).unwrap();
            assert!(
                points.contains(&mirror),
                "{}",
                sorted_names(size, &points).join(" ")
            );
        }
        // Small boards keep off the edge while they can.
        let s6 = BoardSize::square(6).unwrap();
        for p in free_points(s6, 4) {
            let (x, y) = s6.xy(p);
            assert!(x.min(5 - x).min(y).min(5 - y) >= 1);
        }
    }
}
