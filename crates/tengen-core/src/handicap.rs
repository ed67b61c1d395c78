//! Fixed handicap points, as the GTP `fixed_handicap` table (GNU Go
//! `engine/handicap.c`) places them, extended to rectangular boards axis by
//! axis.

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
}
