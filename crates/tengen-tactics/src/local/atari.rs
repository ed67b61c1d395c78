//! Captures and escapes: the answers to an atari that a playout plays
//! first, next to the last move or, with no last move, anywhere.
//!
//! Left out: whether a capture is snapped back or an escape survives the
//! next atari, beyond one ladder (see [`crate::reading`]).

use super::liberties_after;
use crate::ladder::read_ladder;
use tengen_core::{Board, Color, Point};

/// The moves that answer an atari next to `last`, for `color` to move:
/// capturing the chain of `last` when it is in atari, and saving each own
/// chain next to `last` in atari (capture a neighbour in atari, or extend
/// when the extension has two liberties).
pub fn atari_answers(board: &Board, color: Color, last: Point, out: &mut Vec<Point>) {
    if board.get(last) == Some(color.opponent())
        && let Some(l) = board.last_liberty(last)
    {
        out.push(l);
    }
    let mut seen: [Option<Point>; 4] = [None; 4];
    for (i, q) in board.neighbours(last).enumerate() {
        if board.get(q) != Some(color) || board.liberties(q) != 1 {
            continue;
        }
        let id = board.chain_id(q);
        if seen.contains(&id) {
            continue;
        }
        seen[i] = id;
        save_chain(board, q, color, out);
    }
}

/// The atari answers of the whole board, for `color` to move: capture each
/// enemy chain in atari, save each own chain in atari.
pub fn board_atari_answers(board: &Board, color: Color, out: &mut Vec<Point>) {
    for p in board.chains() {
        let Some(c) = board.get(p) else {
            continue;
        };
        if board.liberties(p) != 1 {
            continue;
        }
        if c == color {
            save_chain(board, p, color, out);
        } else if let Some(l) = board.last_liberty(p)
            && !out.contains(&l)
        {
            out.push(l);
        }
    }
}

/// Moves that save the chain at `p` (in atari): capturing an enemy
/// neighbour in atari, or extending at the liberty when that gives two.
pub fn save_chain(board: &Board, p: Point, color: Color, out: &mut Vec<Point>) {
    let enemy = Some(color.opponent());
    for s in board.chain(p) {
        for r in board.neighbours(s) {
            if board.get(r) == enemy
                && let Some(l) = board.last_liberty(r)
                && !out.contains(&l)
            {
                out.push(l);
            }
        }
    }
    if let Some(l) = board.last_liberty(p)
        && liberties_after(board, l, color) >= 2
        && !out.contains(&l)
    {
        out.push(l);
    }
}

/// Whether a stone of `color` at `p`, extending a chain out of atari,
/// leaves it with two liberties that a ladder takes (running is then
/// useless).
pub fn runs_into_ladder(board: &Board, p: Point, color: Color) -> bool {
    if liberties_after(board, p, color) != 2 {
        return false;
    }
    let mut after = board.clone();
    after.play_unchecked(p, color);
    after.liberties(p) == 2 && read_ladder(&after, p).works()
}

#[cfg(test)]
mod tests {
    use super::super::tests::{at, board};
    use super::*;

    fn sorted(mut v: Vec<Point>) -> Vec<Point> {
        v.sort_by_key(|p| p.index());
        v
    }

    #[test]
    fn an_atari_is_answered_by_capturing_or_by_extending() {
        // White's D5 ataris Black's C5, which extends to B5 and two
        // liberties; White, after Black's C5, captures there.
        let b = board(
            ". . X O .
             . . O . .
             . . . . .
             . . . . .
             . . . . .",
        );
        let mut out = Vec::new();
        atari_answers(&b, Color::Black, at(&b, 3, 0), &mut out);
        assert_eq!(out, vec![at(&b, 1, 0)]);
        let mut out = Vec::new();
        atari_answers(&b, Color::White, at(&b, 2, 0), &mut out);
        assert_eq!(out, vec![at(&b, 1, 0)]);
    }

    #[test]
    fn an_extension_to_one_liberty_is_no_answer() {
        // Black's B5 in atari: A5 would leave it one liberty.
        let b = board(
            ". X O . .
             . O . . .
             . . . . .",
        );
        let mut out = Vec::new();
        atari_answers(&b, Color::Black, at(&b, 2, 0), &mut out);
        assert!(out.is_empty(), "{out:?}");
    }

    #[test]
    fn with_no_last_move_every_atari_on_the_board_is_answered() {
        // Black's corner stone and White's D2 are both in atari: each side
        // saves its own and captures the other's.
        let b = board(
            "X O . . .
             . . . . .
             . . . X .
             . . X O X
             . . . . .",
        );
        let both = sorted(vec![at(&b, 0, 1), at(&b, 3, 4)]);
        for color in [Color::Black, Color::White] {
            let mut out = Vec::new();
            board_atari_answers(&b, color, &mut out);
            assert_eq!(sorted(out), both, "{color:?}");
        }
    }
}
