//! Local answers: the questions a playout asks at every move, answered by
//! liberty counts and shapes next to the last move, with no reading and no
//! allocation (the one exception, [`runs_into_ladder`], reads a ladder and
//! is for the search's priors, not the playouts). The playout policy and
//! the priors of `tengen-mcts` share them, so that the tree and the
//! playouts agree on what a local answer is.
//!
//! | file | answers |
//! |---|---|
//! | this one | liberties a stone would have ([`liberties_after`]), a chain's two liberties |
//! | `atari.rs` | captures and escapes next to the last move or anywhere ([`atari_answers`], [`board_atari_answers`], [`save_chain`]) |
//! | `fight.rs` | the two-liberty fights next to the last move ([`two_liberty_answers`]) |
//! | `nakade.rs` | the vital point of a small eye space and the throw-in that kills as a nakade ([`nakade_answer`], [`kills_as_nakade`]) |
//! | `seki.rs` | the moves that would break a seki a playout must leave alone ([`breaks_three_stone_seki`], [`fills_own_eye_shape`]) |
//!
//! Left out: whether an answer works (that is reading, see
//! [`crate::reading`]), and the full rules (these run on the fast board,
//! with simple ko).

mod atari;
mod fight;
mod nakade;
mod seki;

pub use atari::{atari_answers, board_atari_answers, runs_into_ladder, save_chain};
pub use fight::two_liberty_answers;
pub use nakade::{kills_as_nakade, nakade_answer, nakade_point};
pub use seki::{breaks_three_stone_seki, fills_own_eye_shape};

use tengen_core::{Board, Color, Point};

/// Liberties a stone of `color` at the empty point `p` would have, counted
/// up to 2 (enough to tell self-atari).
#[inline]
pub fn liberties_after(board: &Board, p: Point, color: Color) -> u32 {
    liberties_after_up_to::<2>(board, p, color)
}

/// Liberties a stone of `color` at the empty point `p` would have, counted
/// up to `N`: its empty neighbours, the other liberties of the friendly
/// chains it joins, and the points of the enemy chains it captures.
pub fn liberties_after_up_to<const N: usize>(board: &Board, p: Point, color: Color) -> u32 {
    let mut found = [p; N];
    let mut n = 0usize;
    let mut add = |q: Point| -> bool {
        if q != p && !found[..n].contains(&q) {
            found[n] = q;
            n += 1;
        }
        n >= N
    };
    for q in board.neighbours(p) {
        match board.get(q) {
            None => {
                if add(q) {
                    return N as u32;
                }
            }
            Some(c) if c == color => {
                if board.liberties(q) > N as u32 {
                    return N as u32;
                }
            }
            // A capture: its stones are points the move frees, counted as
            // liberties (those not next to the new chain are few, and a
            // capture of two stones or more is never a gift).
            Some(_) => {
                if board.liberties(q) == 1 {
                    for s in board.chain(q) {
                        if add(s) {
                            return N as u32;
                        }
                    }
                }
            }
        }
    }
    // Each friendly chain has `N` liberties or fewer (the loop above
    // returned otherwise): all of them.
    for q in board.neighbours(p) {
        if board.get(q) == Some(color) {
            let (libs, k) = board.liberties_up_to::<N>(q);
            for &r in &libs[..k] {
                if add(r) {
                    return N as u32;
                }
            }
        }
    }
    n as u32
}

/// The two liberties of the chain at `p`, if it has exactly two.
#[inline]
fn two_liberties(board: &Board, p: Point) -> Option<[Point; 2]> {
    if board.liberties(p) != 2 {
        return None;
    }
    match board.liberties_up_to::<2>(p) {
        (libs, 2) => Some(libs),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The end of a tengen-GNU Go game (9x9, a match under Chinese rules):
    /// White's group on the right shares its last liberties with Black's
    /// stone at J8 after Black has filled the outside ones.
    pub(super) const SHARED_LIBERTIES: &str = include_str!("../../tests/data/shared_liberties.txt");

    pub(super) fn board(rows: &str) -> Board {
        Board::from_ascii(rows).expect("a board")
    }

    pub(super) fn at(board: &Board, x: u32, y: u32) -> Point {
        board.size().point(x, y).expect("on the board")
    }

    #[test]
    fn a_lone_stone_in_the_open_has_its_liberties_counted_up_to_the_bound() {
        let b = Board::new(tengen_core::BoardSize::square(5).expect("size"));
        let p = at(&b, 2, 2);
        assert_eq!(liberties_after(&b, p, Color::Black), 2);
        assert_eq!(liberties_after_up_to::<4>(&b, p, Color::Black), 4);
    }

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
        assert_eq!(liberties_after_up_to::<2>(&b, j9, Color::Black), 2);
    }
}
