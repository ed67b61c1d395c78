//! Fixed handicap points, as the GTP `fixed_handicap` table (GNU Go
//! `engine/handicap.c`) places them, extended to rectangular boards axis by
//! axis, and the star points a board is drawn with, taken from the same
//! table so that handicap stones stand on them.

use crate::size::{BoardSize, Point};

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
}
