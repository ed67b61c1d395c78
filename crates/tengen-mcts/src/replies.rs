//! Last good replies with forgetting (Drake 2009; Baier and Drake 2010,
//! "The Power of Forgetting"): the playouts of one search learn, from the
//! simulations already run, which reply to a move won, and play it again
//! where it is still playable.
//!
//! After each simulation, every move of the winner is stored as the reply
//! to the opponent's move before it (and to the pair of moves before it),
//! and every move of the loser that is the stored reply is forgotten. A
//! playout tries the reply to the last two moves, then to the last move,
//! after its atari answers and before its other answers (tried before the
//! atari answers too, as in the paper, it won 15 of 40 games of 9x9
//! against the playouts without it). What a fight's replies should be is what the
//! hand-set and learned answers cannot know: it depends on the position
//! searched, and this table learns it there.
//!
//! Left out: passes (a pass breaks the chain of replies, as in the paper),
//! and any memory from one search to the next (each search starts empty).
//! The table is shared by every thread of a search, its entries relaxed
//! atomics: a reply overwritten or forgotten by another thread between
//! read and play costs a simulation nothing but that reply.

use std::sync::atomic::{AtomicU16, Ordering};
use tengen_core::{BoardSize, Color, Point};

/// No reply stored.
const NONE: u16 = 0;

/// The replies learned in one search, for boards of one size.
#[derive(Debug)]
pub(crate) struct Replies {
    cells: usize,
    /// Each point by its padded index, to read the stored indices back.
    points: Vec<Option<Point>>,
    /// Reply of each colour to the opponent's last move: `[colour][last]`,
    /// the reply's index plus one.
    one: Vec<AtomicU16>,
    /// Reply of each colour to the last two moves: `[colour][before][last]`.
    two: Vec<AtomicU16>,
}

impl Replies {
    /// An empty table for boards of `size`.
    pub(crate) fn new(size: BoardSize) -> Replies {
        let cells = size.cells();
        let mut points = vec![None; cells];
        for p in size.points() {
            points[p.index()] = Some(p);
        }
        let atomics = |n: usize| (0..n).map(|_| AtomicU16::new(NONE)).collect();
        Replies {
            cells,
            points,
            one: atomics(2 * cells),
            two: atomics(2 * cells * cells),
        }
    }

    /// The stored replies of `color` to its opponent's `last` move, the
    /// one to the pair (`before`, `last`) first.
    #[inline]
    pub(crate) fn to(
        &self,
        color: Color,
        before: Option<Point>,
        last: Point,
    ) -> [Option<Point>; 2] {
        let read = |slot: Option<&AtomicU16>| {
            let stored = slot.map_or(NONE, |s| s.load(Ordering::Relaxed));
            match stored {
                NONE => None,
                i => self.points.get(usize::from(i) - 1).copied().flatten(),
            }
        };
        [
            read(before.and_then(|b| self.two.get(self.two_slot(color, b, last)))),
            read(self.one.get(self.one_slot(color, last))),
        ]
    }

    /// Learns from one simulation's stone plays, in order: the winner's
    /// replies are stored, the loser's forgotten. No winner (a draw), no
    /// lesson.
    pub(crate) fn learn(&self, moves: &[(Point, Color)], winner: Option<Color>) {
        let Some(winner) = winner else {
            return;
        };
        for i in 1..moves.len() {
            let (last, last_color) = moves[i - 1];
            let (reply, color) = moves[i];
            // After a pass the same colour plays twice: no reply there.
            if last_color == color {
                continue;
            }
            let code = reply.index() as u16 + 1;
            let before = i
                .checked_sub(2)
                .map(|j| moves[j])
                .filter(|&(_, c)| c == color)
                .map(|(p, _)| p);
            let slots = [
                before.map(|b| &self.two[self.two_slot(color, b, last)]),
                Some(&self.one[self.one_slot(color, last)]),
            ];
            for slot in slots.into_iter().flatten() {
                if color == winner {
                    slot.store(code, Ordering::Relaxed);
                } else {
                    // Forgotten only if it is still this reply.
                    let _ = slot.compare_exchange(code, NONE, Ordering::Relaxed, Ordering::Relaxed);
                }
            }
        }
    }

    #[inline]
    fn one_slot(&self, color: Color, last: Point) -> usize {
        color.index() * self.cells + last.index()
    }

    #[inline]
    fn two_slot(&self, color: Color, before: Point, last: Point) -> usize {
        (color.index() * self.cells + before.index()) * self.cells + last.index()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(size: BoardSize, x: u32, y: u32) -> Point {
        size.point(x, y).unwrap()
    }

    #[test]
    fn the_winners_replies_are_stored_and_the_losers_forgotten() {
        let size = BoardSize::square(9).unwrap();
        let replies = Replies::new(size);
        let (a, b, c, d) = (
            at(size, 2, 2),
            at(size, 3, 2),
            at(size, 2, 3),
            at(size, 6, 6),
        );
        let game = [(a, Color::Black), (b, Color::White), (c, Color::Black)];
        // Nothing learned: no reply.
        assert_eq!(replies.to(Color::White, None, a), [None, None]);
        replies.learn(&game, Some(Color::White));
        // White's reply b to a is stored; Black's c (to b, after a) is not.
        assert_eq!(replies.to(Color::White, None, a), [None, Some(b)]);
        assert_eq!(replies.to(Color::Black, Some(a), b), [None, None]);
        // Black wins the same line: his replies stored, White's forgotten,
        // the pair's reply beside the single one.
        replies.learn(&game, Some(Color::Black));
        assert_eq!(replies.to(Color::White, None, a), [None, None]);
        assert_eq!(replies.to(Color::Black, Some(a), b), [Some(c), Some(c)]);
        // Another pair before b keeps the single reply only.
        assert_eq!(replies.to(Color::Black, Some(d), b), [None, Some(c)]);
        // A loser's other reply forgets nothing.
        replies.learn(&[(b, Color::White), (d, Color::Black)], Some(Color::White));
        assert_eq!(replies.to(Color::Black, None, b), [None, Some(c)]);
        // A draw teaches nothing.
        replies.learn(&[(b, Color::White), (c, Color::Black)], None);
        assert_eq!(replies.to(Color::Black, None, b), [None, Some(c)]);
    }

    #[test]
    fn the_same_colour_twice_is_no_reply() {
        // A pass between two of Black's stones, left out of the plays.
        let size = BoardSize::square(9).unwrap();
        let replies = Replies::new(size);
        let (a, b) = (at(size, 0, 0), at(size, 4, 4));
        replies.learn(&[(a, Color::Black), (b, Color::Black)], Some(Color::Black));
        assert_eq!(replies.to(Color::Black, None, a), [None, None]);
    }
}
