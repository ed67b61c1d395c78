//! Local answers of the playouts beyond atari, as Pachi's playout policy
//! plays them: two-liberty fights next to the last move (atari a chain
//! that cannot escape, extend or counter-atari in a capturing race) and
//! the vital point of a small eye space (nakade). Light playouts lose
//! these fights at random; these answers make a group's life and death in
//! the playouts depend on the position rather than on luck.

use crate::geometry::Geometry;
use crate::policy::{last_liberty, liberties_after_up_to};
use tengen_core::{Board, Color, Point};

/// The two liberties of the chain at `p`, if it has exactly two.
pub(crate) fn two_liberties(board: &Board, geo: &Geometry, p: Point) -> Option<[Point; 2]> {
    if board.liberties(p) != 2 {
        return None;
    }
    let mut libs = [p; 2];
    let mut n = 0;
    for s in board.chain(p) {
        for &q in geo.adjacent(s) {
            if board.is_empty(q) && !libs[..n].contains(&q) {
                libs[n] = q;
                n += 1;
                if n == 2 {
                    return Some(libs);
                }
            }
        }
    }
    None
}

/// Moves of `color` in the two-liberty fights next to `last`: for the
/// chain of `last` and each chain touching it with two liberties (either
/// colour), see [`two_liberty_fight`].
pub(crate) fn two_liberty_answers(
    board: &Board,
    geo: &Geometry,
    color: Color,
    last: Point,
    out: &mut Vec<Point>,
) {
    let mut seen: [Option<Point>; 5] = [None; 5];
    let chains = std::iter::once(last).chain(geo.adjacent(last).iter().copied());
    for (i, q) in chains.enumerate() {
        // The liberty count first: it is kept at the chain's head, and
        // most chains have more (or are no chain: 0).
        if board.liberties(q) != 2 {
            continue;
        }
        let id = board.chain_id(q);
        if seen.contains(&id) {
            continue;
        }
        seen[i] = id;
        if let Some(libs) = two_liberties(board, geo, q) {
            two_liberty_fight(board, geo, q, libs, color, out);
        }
    }
}

/// The moves of `color` about the chain at `p` with liberties `libs`:
/// none when its owner can answer an atari on either side (miai), else
/// its liberties (an atari for the attacker, an extension for the
/// defender); the defender also captures a neighbour in atari or ataris a
/// neighbour with two liberties (the capturing race).
fn two_liberty_fight(
    board: &Board,
    geo: &Geometry,
    p: Point,
    libs: [Point; 2],
    color: Color,
    out: &mut Vec<Point>,
) {
    let Some(owner) = board.get(p) else {
        return;
    };
    if miai_safe(board, geo, p, libs, owner) {
        return;
    }
    liberty_moves(board, geo, libs, owner, color, out);
    if owner != color {
        return;
    }
    let enemy = Some(owner.opponent());
    // Neighbour chains already looked at; a fixed array keeps the playouts
    // free of allocation (past eight, a chain may be looked at twice, which
    // `out`'s own check makes harmless).
    let mut seen = [None; 8];
    let mut n_seen = 0;
    for s in board.chain(p) {
        for &q in geo.adjacent(s) {
            if board.get(q) != enemy {
                continue;
            }
            let id = board.chain_id(q);
            if seen.contains(&id) {
                continue;
            }
            if n_seen < seen.len() {
                seen[n_seen] = id;
                n_seen += 1;
            }
            match board.liberties(q) {
                1 => {
                    if let Some(l) = last_liberty(board, geo, q)
                        && !out.contains(&l)
                    {
                        out.push(l);
                    }
                }
                2 => {
                    if let Some(their) = two_liberties(board, geo, q) {
                        liberty_moves(board, geo, their, owner.opponent(), color, out);
                    }
                }
                _ => {}
            }
        }
    }
}

/// Whether the chain at `p` (liberties `libs`, colour `owner`) answers an
/// atari on either liberty: it can connect at both to a chain with two
/// liberties or more, or connect at one and run out at the other.
fn miai_safe(board: &Board, geo: &Geometry, p: Point, libs: [Point; 2], owner: Color) -> bool {
    let id = board.chain_id(p);
    let connects =
        |c: Point| board.get(c) == Some(owner) && board.chain_id(c) != id && board.liberties(c) > 1;
    let [a, b] = libs;
    let mut can_connect = false;
    let mut can_run = false;
    for &c in geo.adjacent(a) {
        if c != b && board.is_empty(c) {
            can_run = true;
        } else if connects(c) {
            can_connect = true;
        }
    }
    for &c in geo.adjacent(b) {
        if c == a {
            continue;
        }
        if board.is_empty(c) && can_connect {
            return true;
        }
        if connects(c) {
            return can_connect || can_run;
        }
    }
    false
}

/// The liberties `libs` of a chain of `owner` that `color` may play: not a
/// point hemmed in by the chain and the edge (an atari there is a wasted
/// throw-in), and for the defender only an extension to three liberties
/// or more (two would only be chased).
fn liberty_moves(
    board: &Board,
    geo: &Geometry,
    libs: [Point; 2],
    owner: Color,
    color: Color,
    out: &mut Vec<Point>,
) {
    for l in libs {
        let adjacent = geo.adjacent(l);
        let walls = 4 - adjacent.len()
            + adjacent
                .iter()
                .filter(|&&q| board.get(q) == Some(owner))
                .count();
        if walls > 2 || out.contains(&l) {
            continue;
        }
        if owner == color && liberties_after_up_to::<3>(board, geo, l, color) < 3 {
            continue;
        }
        out.push(l);
    }
}

/// The vital point of a small eye space of `color`'s opponent next to its
/// last move `last` (see [`nakade_point`]), for `color` to take. As in
/// Pachi, only when the empty neighbours of `last` touch each other
/// diagonally: two opposite ones (three or four empty neighbours always
/// include such a pair) mean open space, and one region is flooded at most.
pub(crate) fn nakade_answer(
    board: &Board,
    geo: &Geometry,
    color: Color,
    last: Point,
) -> Option<Point> {
    let mut first = None;
    for &q in geo.adjacent(last) {
        if !board.is_empty(q) {
            continue;
        }
        match first {
            None => first = Some(q),
            Some(f) if !geo.around(f).contains(&Some(q)) => return None,
            Some(_) => {}
        }
    }
    nakade_point(board, geo, first?, color.opponent())
}

/// What a bounded flood does at a point, by its content.
pub(crate) enum Step {
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
pub(crate) fn flood_within<const N: usize>(
    board: &Board,
    geo: &Geometry,
    start: Point,
    step: impl Fn(Option<Color>) -> Step,
) -> Option<([Point; N], usize)> {
    let mut area = [start; N];
    let mut n = 1;
    let mut i = 0;
    while i < n {
        for &c in geo.adjacent(area[i]) {
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
pub(crate) fn nakade_point(
    board: &Board,
    geo: &Geometry,
    around: Point,
    owner: Color,
) -> Option<Point> {
    let (area, n) = flood_within::<NAKADE_MAX>(board, geo, around, |c| match c {
        None => Step::Enter,
        Some(col) if col == owner => Step::Skip,
        Some(_) => Step::Abort,
    })?;
    vital_point(geo, &area[..n])
}

/// The vital point of a region of three to six points by its shape alone
/// (straight and bent three, pyramid four, bulky five, rabbity six).
fn vital_point(geo: &Geometry, area: &[Point]) -> Option<Point> {
    // Neighbours inside the region, and one point for each count.
    let mut by_count = [0usize; 5];
    let mut point_with = [None; 5];
    for &a in area {
        let k = geo.adjacent(a).iter().filter(|q| area.contains(q)).count();
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
/// points, or a shape with a vital point. Without such sacrifices the playouts would
/// count as alive a group that a throw-in of two stones or more kills.
pub(crate) fn kills_as_nakade(board: &Board, geo: &Geometry, m: Point, color: Color) -> bool {
    let Some((area, n)) = flood_within::<NAKADE_MAX>(board, geo, m, |c| match c {
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
        geo.adjacent(lib)
            .iter()
            .any(|&l| board.get(l) == Some(them) && board.chain_id(l) == board.chain_id(q))
    };
    let mut captured = [m; NAKADE_MAX];
    let mut k = 0;
    for &q in region.iter().filter(|&&q| q != lib) {
        if geo
            .adjacent(q)
            .iter()
            .any(|&n| board.get(n) == Some(them) && !capturer(n))
        {
            return false;
        }
        captured[k] = q;
        k += 1;
    }
    k <= 3 || vital_point(geo, &captured[..k]).is_some()
}

/// Whether `color` playing the empty point `m` breaks a three-stone seki
/// (Pachi's check): `m` is one of the two liberties of an enemy string of
/// three stones, both liberties hemmed in at its ends, and capturing it
/// would leave an eye space of three whose vital point kills, while the
/// chain around has no other one-point eye. Playouts that broke such a
/// seki would count the group dead when it lives.
pub(crate) fn breaks_three_stone_seki(
    board: &Board,
    geo: &Geometry,
    m: Point,
    color: Color,
) -> bool {
    let enemy = Some(color.opponent());
    let adjacent = geo.adjacent(m);
    if adjacent.iter().any(|&q| board.is_empty(q)) {
        return false;
    }
    let mut inside = None;
    let mut own = None;
    for &q in adjacent {
        if board.get(q) == enemy {
            if inside.is_some() || board.liberties(q) != 2 || board.chain_len(q) != 3 {
                return false;
            }
            inside = Some(q);
        } else if board.get(q) == Some(color) {
            own = Some(q);
        }
    }
    let (Some(g3), Some(own)) = (inside, own) else {
        return false;
    };
    let Some(libs) = two_liberties(board, geo, g3) else {
        return false;
    };
    for l in libs {
        let mut enemies = 0;
        for &q in geo.adjacent(l) {
            if board.is_empty(q) {
                return false;
            }
            if board.get(q) == enemy {
                enemies += 1;
                // A liberty next to the string's middle stone: no seki.
                let middle = geo
                    .adjacent(q)
                    .iter()
                    .filter(|&&r| board.get(r) == enemy)
                    .count()
                    == 2;
                if middle {
                    return false;
                }
            }
        }
        if enemies >= 2 {
            return false;
        }
    }
    // The string could capture its way out.
    for s in board.chain(g3) {
        for &q in geo.adjacent(s) {
            if board.get(q) == Some(color) && board.liberties(q) == 1 {
                return false;
            }
        }
    }
    // Another eye makes the seki needless.
    !board.chain(own).any(|s| {
        geo.adjacent(s)
            .iter()
            .any(|&q| !libs.contains(&q) && board.is_one_point_eye(q, color))
    })
}

/// Whether a stone of `color` at `p` fills a point surrounded by its own
/// stones (a false eye: the one-point eyes are never played) without
/// saving a chain in atari and leaves its chain two liberties. In a seki
/// whose chains share a false eye, that is the move that lets the other
/// side's sacrifice kill: playouts that play it count a living group dead.
pub(crate) fn fills_own_eye_shape(board: &Board, geo: &Geometry, p: Point, color: Color) -> bool {
    geo.adjacent(p)
        .iter()
        .all(|&q| board.get(q) == Some(color) && board.liberties(q) >= 2)
        && liberties_after_up_to::<3>(board, geo, p, color) <= 2
}

#[cfg(test)]
mod tests {
    use super::*;
    use tengen_core::BoardSize;

    fn at(board: &Board, x: u32, y: u32) -> Point {
        board.size().point(x, y).expect("on the board")
    }

    fn board(rows: &str) -> Board {
        Board::from_ascii(rows).expect("a board")
    }

    #[test]
    fn filling_a_false_eye_down_to_two_liberties_breaks_a_seki() {
        // The end of a game against GNU Go: White's E9-J4 and J8 share the
        // false eye J7 and, with Black's H9-H8, the liberties G8 and J9.
        let b = board(
            ". X . X O O O X .
             X . X X X O . X O
             X X X O O O O O .
             O X X X X X X O O
             O X X O X O X X O
             O O O O X O X X O
             . O X . O O O X X
             O . X O . O O X X
             . O O . O O O O O",
        );
        let geo = Geometry::new(b.size());
        assert!(fills_own_eye_shape(&b, &geo, at(&b, 8, 2), Color::White));
        // Not an eye shape: G8 touches Black's H8.
        assert!(!fills_own_eye_shape(&b, &geo, at(&b, 6, 1), Color::White));
        // White's own eye in the bottom right has many liberties around.
        assert!(!fills_own_eye_shape(&b, &geo, at(&b, 3, 8), Color::White));
    }

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
        let geo = Geometry::new(b.size());
        assert_eq!(
            nakade_point(&b, &geo, at(&b, 1, 1), Color::Black),
            Some(at(&b, 2, 1))
        );
        assert_eq!(
            nakade_point(&b, &geo, at(&b, 1, 5), Color::Black),
            Some(at(&b, 2, 5))
        );
        // Enclosed by the other colour: not Black's eye space.
        assert_eq!(nakade_point(&b, &geo, at(&b, 1, 1), Color::White), None);
        // The open area is far more than six points.
        assert_eq!(nakade_point(&b, &geo, at(&b, 6, 6), Color::Black), None);
        assert_eq!(b.size(), BoardSize::square(7).expect("size"));
        // From a last move of the encloser: its empty neighbours (one, or
        // two touching diagonally) lead to the vital point; two opposite
        // ones mean open space.
        let answer = |last: Point| nakade_answer(&b, &geo, Color::White, last);
        assert_eq!(answer(at(&b, 2, 0)), Some(at(&b, 2, 1)));
        assert_eq!(answer(at(&b, 3, 6)), Some(at(&b, 2, 5)));
        assert_eq!(answer(at(&b, 2, 4)), None);
    }

    fn answers(b: &Board, color: Color, last: Point) -> Vec<Point> {
        let geo = Geometry::new(b.size());
        let mut out = Vec::new();
        two_liberty_answers(b, &geo, color, last, &mut out);
        out.sort_by_key(|p| p.index());
        out
    }

    fn sorted(mut v: Vec<Point>) -> Vec<Point> {
        v.sort_by_key(|p| p.index());
        v
    }

    #[test]
    fn a_stone_with_two_liberties_and_no_escape_is_ataried() {
        let b = board(
            ". O X . .
             . . . . .
             . . . . .
             . . . . .
             . . . . .",
        );
        // White ataris the black stone on either side, or extends its own
        // two-liberty stone to three liberties (not into the corner).
        let last = at(&b, 2, 0);
        assert_eq!(
            answers(&b, Color::White, last),
            sorted(vec![at(&b, 3, 0), at(&b, 2, 1), at(&b, 1, 1)])
        );
    }

    #[test]
    fn the_defender_extends_to_three_liberties_or_captures() {
        // Black's corner stone just ataried itself next to White's stone,
        // which has two liberties: White extends either way, or captures.
        let b = board(
            "X O . . .
             . . . . .
             . . . . .
             . . . . .
             . . . . .",
        );
        let last = at(&b, 0, 0);
        assert_eq!(
            answers(&b, Color::White, last),
            sorted(vec![at(&b, 2, 0), at(&b, 1, 1), at(&b, 0, 1)])
        );
    }

    #[test]
    fn the_three_stone_seki_of_pachis_tests_is_not_broken() {
        // Pachi's t-unit/seki.t, "3-stone seki (don't break)": White
        // filling f5 or f3 lets the three black stones be captured into a
        // straight three, whose vital point kills White.
        let b = board(
            ". X . X X X .
             . X X X O O O
             . . X . O . X
             . . X . O O X
             . . X . O . X
             . . X X O O O
             . . . X X X .",
        );
        let geo = Geometry::new(b.size());
        assert!(breaks_three_stone_seki(
            &b,
            &geo,
            at(&b, 5, 2),
            Color::White
        ));
        assert!(breaks_three_stone_seki(
            &b,
            &geo,
            at(&b, 5, 4),
            Color::White
        ));
        // Elsewhere, or for Black, nothing to break.
        assert!(!breaks_three_stone_seki(
            &b,
            &geo,
            at(&b, 3, 3),
            Color::White
        ));
        assert!(!breaks_three_stone_seki(
            &b,
            &geo,
            at(&b, 5, 2),
            Color::Black
        ));
        // Pachi's "not 3-stone seki (not fully surrounded)": E5 is open.
        let open = board(
            ". X . X X X .
             . X X X O O O
             . . X . . . X
             . . X . O O X
             . . X . O . X
             . . X X O O O
             . . . X X X .",
        );
        assert!(!breaks_three_stone_seki(
            &open,
            &geo,
            at(&open, 5, 4),
            Color::White
        ));
    }

    #[test]
    fn a_chain_that_connects_on_both_sides_is_left_alone() {
        // The black stone at C3 has two liberties, B3 and C4, and either
        // connects it to a black stone with liberties to spare (miai).
        let b = board(
            ". . X . .
             . . . . .
             X . X O .
             . . O . .
             . . . . .",
        );
        let last = at(&b, 2, 2);
        assert!(answers(&b, Color::White, last).is_empty());
    }

    /// The end of a tengen-GNU Go game (9x9, a match under Chinese rules):
    /// White's group on the right shares its last liberties with Black's
    /// stone at J8 after Black has filled the outside ones.
    const SHARED_LIBERTIES: &str = include_str!("../tests/data/shared_liberties.txt");

    #[test]
    fn a_capture_of_several_stones_is_no_self_atari() {
        // White has filled J7: its eight stones and Black's J8 have J9
        // alone. Black at J9 captures them; counting one liberty per stone
        // next to the move made it a self-atari the playouts refused.
        let mut b = board(SHARED_LIBERTIES);
        for (x, y, c) in [
            (7, 5, Color::Black),
            (8, 6, Color::Black),
            (8, 2, Color::White),
        ] {
            let p = at(&b, x, y);
            b.play_unchecked(p, c);
        }
        let j9 = at(&b, 8, 0);
        assert_eq!(b.liberties(at(&b, 7, 0)), 1);
        assert_eq!(b.liberties(at(&b, 8, 1)), 1);
        assert_eq!(
            liberties_after_up_to::<2>(&b, &Geometry::new(b.size()), j9, Color::Black),
            2
        );
    }

    #[test]
    fn a_throw_in_that_leaves_one_eye_is_a_nakade() {
        // Black at J9 (or J7) gives two stones: White's capture leaves a
        // space of two points, one eye.
        let b = board(SHARED_LIBERTIES);
        let geo = Geometry::new(b.size());
        assert!(kills_as_nakade(&b, &geo, at(&b, 8, 0), Color::Black));
        assert!(kills_as_nakade(&b, &geo, at(&b, 8, 2), Color::Black));
        // Three stones in a space of four: the capture leaves a straight
        // three, whose middle Black takes next.
        let three = board(
            "O O O O O O
             O X X . . O
             O O O O O O
             . . . . . .",
        );
        let geo = Geometry::new(three.size());
        assert!(kills_as_nakade(
            &three,
            &geo,
            at(&three, 3, 1),
            Color::Black
        ));
        // Four in a space of five: the capture leaves a straight four, two
        // eyes; and with room beyond the liberty, no capture is forced.
        let four = board(
            "O O O O O O O
             O X X X . . O
             O O O O O O O
             . . . . . . .",
        );
        let geo = Geometry::new(four.size());
        assert!(!kills_as_nakade(&four, &geo, at(&four, 4, 1), Color::Black));
        let room = board(
            "O O O O O O O
             O X . . . . O
             O O O O O O O
             . . . . . . .",
        );
        assert!(!kills_as_nakade(&room, &geo, at(&room, 2, 1), Color::Black));
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
        let geo = Geometry::new(seki.size());
        assert!(!kills_as_nakade(&seki, &geo, at(&seki, 4, 0), Color::Black));
    }
}
