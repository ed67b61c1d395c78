//! The two-liberty fights next to the last move, as Pachi's playout policy
//! plays them: atari a chain that cannot escape, extend or counter-atari
//! in a capturing race. Light playouts lose these fights at random.
//!
//! Left out: who wins the race (see [`crate::semeai`]).

use super::{liberties_after_up_to, two_liberties};
use tengen_core::{Board, Color, Point};

/// Moves of `color` in the two-liberty fights next to `last`: for the
/// chain of `last` and each chain touching it with two liberties (either
/// colour): its liberties, or none when it can answer an atari on either
/// side; the defender also captures or ataris in the capturing race.
pub fn two_liberty_answers(board: &Board, color: Color, last: Point, out: &mut Vec<Point>) {
    let mut seen: [Option<Point>; 5] = [None; 5];
    let chains = std::iter::once(last).chain(board.neighbours(last));
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
        if let Some(libs) = two_liberties(board, q) {
            two_liberty_fight(board, q, libs, color, out);
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
    p: Point,
    libs: [Point; 2],
    color: Color,
    out: &mut Vec<Point>,
) {
    let Some(owner) = board.get(p) else {
        return;
    };
    if miai_safe(board, p, libs, owner) {
        return;
    }
    liberty_moves(board, libs, owner, color, out);
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
        for q in board.neighbours(s) {
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
                    if let Some(l) = board.last_liberty(q)
                        && !out.contains(&l)
                    {
                        out.push(l);
                    }
                }
                2 => {
                    if let Some(their) = two_liberties(board, q) {
                        liberty_moves(board, their, owner.opponent(), color, out);
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
fn miai_safe(board: &Board, p: Point, libs: [Point; 2], owner: Color) -> bool {
    let id = board.chain_id(p);
    let connects =
        |c: Point| board.get(c) == Some(owner) && board.chain_id(c) != id && board.liberties(c) > 1;
    let [a, b] = libs;
    let mut can_connect = false;
    let mut can_run = false;
    for c in board.neighbours(a) {
        if c != b && board.is_empty(c) {
            can_run = true;
        } else if connects(c) {
            can_connect = true;
        }
    }
    for c in board.neighbours(b) {
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
    libs: [Point; 2],
    owner: Color,
    color: Color,
    out: &mut Vec<Point>,
) {
    for l in libs {
        // The edge and the chain's own stones are walls; the other
        // neighbours on the board are not.
        let open = board
            .neighbours(l)
            .filter(|&q| board.get(q) != Some(owner))
            .count();
        if open < 2 || out.contains(&l) {
            continue;
        }
        if owner == color && liberties_after_up_to::<3>(board, l, color) < 3 {
            continue;
        }
        out.push(l);
    }
}

#[cfg(test)]
mod tests {
    use super::super::tests::{at, board};
    use super::*;

    fn answers(b: &Board, color: Color, last: Point) -> Vec<Point> {
        let mut out = Vec::new();
        two_liberty_answers(b, color, last, &mut out);
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
}
