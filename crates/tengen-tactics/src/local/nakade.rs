//! Nakade: the vital point of a small eye space, and the throw-in of a few
//! stones whose capture leaves a space of one eye. Without them the
//! playouts would count as alive a group that one stone inside kills.
//! Eye-space shapes here are read from neighbour counts in a fixed array,
//! for the playouts; [`crate::eyes`] names the shapes for the lexicon.
//!
//! Left out: spaces of more than six points and the corner's bent four.

use tengen_core::{Board, Color, Point};

/// The vital point of a small eye space of `color`'s opponent next to its
/// last move `last` (see [`nakade_point`]), for `color` to take. As in
/// Pachi, only when the empty neighbours of `last` touch each other
/// diagonally: two opposite ones (three or four empty neighbours always
/// include such a pair) mean open space, and one region is flooded at most.
pub fn nakade_answer(board: &Board, color: Color, last: Point) -> Option<Point> {
    let mut first = None;
    for q in board.neighbours(last) {
        if !board.is_empty(q) {
            continue;
        }
        match first {
            None => first = Some(q),
            Some(f) if !board.around(f).any(|r| r == q) => return None,
            Some(_) => {}
        }
    }
    nakade_point(board, first?, color.opponent())
}

/// What a bounded flood does at a point, by its content.
enum Step {
    /// The point belongs to the region: go through it.
    Enter,
    /// A border: stop there.
    Skip,
    /// The region is not the kind looked for: give up.
    Abort,
}

/// The region reached from `start` (included whatever it holds) through
/// the points `step` enters, in a fixed array (no allocation in the
/// playouts) with its length; `None` when it aborts or passes `N` points.
fn flood_within<const N: usize>(
    board: &Board,
    start: Point,
    step: impl Fn(Option<Color>) -> Step,
) -> Option<([Point; N], usize)> {
    let mut area = [start; N];
    let mut n = 1;
    let mut i = 0;
    while i < n {
        for c in board.neighbours(area[i]) {
            match step(board.get(c)) {
                Step::Abort => return None,
                Step::Skip => {}
                Step::Enter => {
                    if !area[..n].contains(&c) {
                        if n == N {
                            return None;
                        }
                        area[n] = c;
                        n += 1;
                    }
                }
            }
        }
        i += 1;
    }
    Some((area, n))
}

/// Largest eye space [`nakade_point`] looks at.
const NAKADE_MAX: usize = 6;

/// The vital point of the empty region at `around` when it is an eye space
/// of three to six points enclosed by `owner` alone whose shape has one
/// (straight and bent three, pyramid four, bulky five, rabbity six): a
/// stone there keeps the region from making two eyes.
pub fn nakade_point(board: &Board, around: Point, owner: Color) -> Option<Point> {
    let (area, n) = flood_within::<NAKADE_MAX>(board, around, |c| match c {
        None => Step::Enter,
        Some(col) if col == owner => Step::Skip,
        Some(_) => Step::Abort,
    })?;
    vital_point(board, &area[..n])
}

/// The vital point of a region of three to six points by its shape alone
/// (straight and bent three, pyramid four, bulky five, rabbity six).
fn vital_point(board: &Board, area: &[Point]) -> Option<Point> {
    // Neighbours inside the region, and one point for each count.
    let mut by_count = [0usize; 5];
    let mut point_with = [None; 5];
    for &a in area {
        let k = board.neighbours(a).filter(|q| area.contains(q)).count();
        by_count[k] += 1;
        point_with[k] = Some(a);
    }
    match area.len() {
        3 => point_with[2],
        4 if by_count[3] == 1 => point_with[3],
        5 if by_count[3] == 1 && by_count[1] == 1 => point_with[3],
        5 if by_count[4] == 1 => point_with[4],
        6 if by_count[4] == 1 && by_count[2] == 3 => point_with[4],
        _ => None,
    }
}

/// Whether `color` at the empty point `m`, a self-atari joining its own
/// stones, fills the opponent's enclosed space but for the last liberty so
/// that the capture leaves a space of one eye, one chain's: two or three
/// points, or a shape with a vital point. Without such sacrifices the
/// playouts would count as alive a group that a throw-in of two stones or
/// more kills.
pub fn kills_as_nakade(board: &Board, m: Point, color: Color) -> bool {
    let Some((area, n)) = flood_within::<NAKADE_MAX>(board, m, |c| match c {
        Some(c) if c != color => Step::Skip,
        _ => Step::Enter,
    }) else {
        return false;
    };
    let region = &area[..n];
    // The space is the chain after the move and its one liberty: two
    // empty points, `m` and the liberty.
    let mut empties = region.iter().filter(|&&q| board.is_empty(q));
    let (Some(_), Some(_), None) = (empties.next(), empties.next(), empties.next()) else {
        return false;
    };
    let Some(&lib) = region.iter().find(|&&q| q != m && board.is_empty(q)) else {
        return false;
    };
    // The space must be one chain's once the capture at `lib` joins the
    // chains around it: a second chain there (a seki with a living group
    // beside it) could connect through the space and live.
    let them = color.opponent();
    let capturer = |q: Point| {
        board
            .neighbours(lib)
            .any(|l| board.get(l) == Some(them) && board.chain_id(l) == board.chain_id(q))
    };
    let mut captured = [m; NAKADE_MAX];
    let mut k = 0;
    for &q in region.iter().filter(|&&q| q != lib) {
        if board
            .neighbours(q)
            .any(|n| board.get(n) == Some(them) && !capturer(n))
        {
            return false;
        }
        captured[k] = q;
        k += 1;
    }
    k <= 3 || vital_point(board, &captured[..k]).is_some()
}

#[cfg(test)]
mod tests {
    use super::super::tests::{SHARED_LIBERTIES, at, board};
    use super::*;
    use tengen_core::BoardSize;

    #[test]
    fn nakade_finds_the_middle_of_three_and_the_centre_of_a_pyramid() {
        let b = board(
            "X X X X X . .
             X . . . X . .
             X X X X X . .
             . . . . . . .
             . X X X . . .
             X . . . X . .
             X X . X X . .",
        );
        assert_eq!(
            nakade_point(&b, at(&b, 1, 1), Color::Black),
            Some(at(&b, 2, 1))
        );
        assert_eq!(
            nakade_point(&b, at(&b, 1, 5), Color::Black),
            Some(at(&b, 2, 5))
        );
        // Enclosed by the other colour: not Black's eye space.
        assert_eq!(nakade_point(&b, at(&b, 1, 1), Color::White), None);
        // The open area is far more than six points.
        assert_eq!(nakade_point(&b, at(&b, 6, 6), Color::Black), None);
        assert_eq!(b.size(), BoardSize::square(7).expect("size"));
        // From a last move of the encloser: its empty neighbours (one, or
        // two touching diagonally) lead to the vital point; two opposite
        // ones mean open space.
        let answer = |last: Point| nakade_answer(&b, Color::White, last);
        assert_eq!(answer(at(&b, 2, 0)), Some(at(&b, 2, 1)));
        assert_eq!(answer(at(&b, 3, 6)), Some(at(&b, 2, 5)));
        assert_eq!(answer(at(&b, 2, 4)), None);
    }

    #[test]
    fn a_throw_in_that_leaves_one_eye_is_a_nakade() {
        // Black at J9 (or J7) gives two stones: White's capture leaves a
        // space of two points, one eye.
        let b = board(SHARED_LIBERTIES);
        assert!(kills_as_nakade(&b, at(&b, 8, 0), Color::Black));
        assert!(kills_as_nakade(&b, at(&b, 8, 2), Color::Black));
        // Three stones in a space of four: the capture leaves a straight
        // three, whose middle Black takes next.
        let three = board(
            "O O O O O O
             O X X . . O
             O O O O O O
             . . . . . .",
        );
        assert!(kills_as_nakade(&three, at(&three, 3, 1), Color::Black));
        // Four in a space of five: the capture leaves a straight four, two
        // eyes; and with room beyond the liberty, no capture is forced.
        let four = board(
            "O O O O O O O
             O X X X . . O
             O O O O O O O
             . . . . . . .",
        );
        assert!(!kills_as_nakade(&four, at(&four, 4, 1), Color::Black));
        let room = board(
            "O O O O O O O
             O X . . . . O
             O O O O O O O
             . . . . . . .",
        );
        assert!(!kills_as_nakade(&room, at(&room, 2, 1), Color::Black));
        // Pachi's seki (t-unit/seki.t): the space Black would fill borders
        // White's living group too, which connects through it.
        let seki = board(
            ". . O X . O
             . O O X . O
             . O X O O O
             . O X X X X
             . O X . X .
             . O X . X .",
        );
        assert!(!kills_as_nakade(&seki, at(&seki, 4, 0), Color::Black));
    }
}
