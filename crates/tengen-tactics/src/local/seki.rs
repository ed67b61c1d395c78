//! Seki a playout must leave alone: the three-stone seki that a liberty
//! filled would break, and the false eye that a chain's own stone would
//! fill down to two liberties. Playouts that broke them would count a
//! living group dead.
//!
//! Left out: seki of larger strings (see [`crate::eyes`]'s
//! `breaks_nakade_seki`) and seki without eyes between two groups.

use super::{liberties_after_up_to, two_liberties};
use tengen_core::{Board, Color, Point};

/// Whether `color` playing the empty point `m` breaks a three-stone seki
/// (Pachi's check): `m` is one of the two liberties of an enemy string of
/// three stones, both liberties hemmed in at its ends, and capturing it
/// would leave an eye space of three whose vital point kills, while the
/// chain around has no other one-point eye. Playouts that broke such a
/// seki would count the group dead when it lives. [`crate::eyes`]'s
/// `breaks_nakade_seki` reads the general case (three to six stones) by
/// eye-space shapes; this is the playouts' allocation-free special case.
pub fn breaks_three_stone_seki(board: &Board, m: Point, color: Color) -> bool {
    let enemy = Some(color.opponent());
    if board.neighbours(m).any(|q| board.is_empty(q)) {
        return false;
    }
    let mut inside = None;
    let mut own = None;
    for q in board.neighbours(m) {
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
    let Some(libs) = two_liberties(board, g3) else {
        return false;
    };
    for l in libs {
        let mut enemies = 0;
        for q in board.neighbours(l) {
            if board.is_empty(q) {
                return false;
            }
            if board.get(q) == enemy {
                enemies += 1;
                // A liberty next to the string's middle stone: no seki.
                let middle = board
                    .neighbours(q)
                    .filter(|&r| board.get(r) == enemy)
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
        for q in board.neighbours(s) {
            if board.get(q) == Some(color) && board.liberties(q) == 1 {
                return false;
            }
        }
    }
    // Another eye makes the seki needless.
    !board.chain(own).any(|s| {
        board
            .neighbours(s)
            .any(|q| !libs.contains(&q) && board.is_one_point_eye(q, color))
    })
}

/// Whether a stone of `color` at `p` fills a point surrounded by its own
/// stones (a false eye: the one-point eyes are never played) without
/// saving a chain in atari and leaves its chain two liberties. In a seki
/// whose chains share a false eye, that is the move that lets the other
/// side's sacrifice kill: playouts that play it count a living group dead.
pub fn fills_own_eye_shape(board: &Board, p: Point, color: Color) -> bool {
    board
        .neighbours(p)
        .all(|q| board.get(q) == Some(color) && board.liberties(q) >= 2)
        && liberties_after_up_to::<3>(board, p, color) <= 2
}

#[cfg(test)]
mod tests {
    use super::super::tests::{at, board};
    use super::*;

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
        assert!(fills_own_eye_shape(&b, at(&b, 8, 2), Color::White));
        // Not an eye shape: G8 touches Black's H8.
        assert!(!fills_own_eye_shape(&b, at(&b, 6, 1), Color::White));
        // White's own eye in the bottom right has many liberties around.
        assert!(!fills_own_eye_shape(&b, at(&b, 3, 8), Color::White));
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
        assert!(breaks_three_stone_seki(&b, at(&b, 5, 2), Color::White));
        assert!(breaks_three_stone_seki(&b, at(&b, 5, 4), Color::White));
        // Elsewhere, or for Black, nothing to break.
        assert!(!breaks_three_stone_seki(&b, at(&b, 3, 3), Color::White));
        assert!(!breaks_three_stone_seki(&b, at(&b, 5, 2), Color::Black));
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
            at(&open, 5, 4),
            Color::White
        ));
    }
}
