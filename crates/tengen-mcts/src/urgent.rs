//! The fights a position's next move decides, read by `tengen-tactics`'s
//! reader: a chain of the mover's that the opponent could capture and one
//! move saves, and a chain of the opponent's that the mover can capture
//! and its owner could still save. The move that decides each, with the
//! stones at stake, adds won simulations to the learned prior
//! ([`crate::prior::Prior::with_urgent`]).
//!
//! Why: the policy network sees liberties but does not read, and the
//! playouts misjudge capture races, so a group in danger of dying in a
//! fight was left unreinforced for lack of a prior on the move that saves
//! it. The reading runs only where the network's priors are asked (the
//! root and nodes of [`crate::search`]'s network threshold), so that its
//! price is paid where the search spends its visits.
//!
//! Left out: chains of three liberties or more (reading those too cost
//! two fifths of the simulations of a 19x19 middle game, where chains of
//! one or two cost an eighth), life and death by eye shape, and kos (a
//! capture only through a ko counts as none).

use tengen_core::{Board, Color, Point};
use tengen_tactics::{Attack, Defence, Limits, Reader};

/// Liberties above which a chain is not read (see the module's doc).
const READ_LIBERTIES: u32 = 2;

/// The reader's bounds: the general reader's, on fewer nodes, since every
/// node of the tree that asks the network reads all its short chains.
pub(crate) const URGENT_LIMITS: Limits = Limits {
    max_nodes: 2_000,
    ..Limits::TACTICAL
};

/// A move that decides a fight, and the stones at stake.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Urgent {
    /// The move.
    pub(crate) point: Point,
    /// Stones of the chain it saves or captures.
    pub(crate) stones: u32,
}

/// The moves of `color`, to move on `board`, that save a chain of its own
/// in danger or capture an opposing chain that could still be saved.
pub(crate) fn urgent_moves(board: &Board, color: Color, reader: &mut Reader) -> Vec<Urgent> {
    let mut urgent = Vec::new();
    for p in board.chains() {
        let Some(owner) = board.get(p) else {
            continue;
        };
        if board.liberties(p) > READ_LIBERTIES {
            continue;
        }
        // Ours: the opponent moving first captures it, and a move saves it.
        // Theirs: we capture it moving first, and they could save it.
        let Attack::Captures { first } = reader.attack(board, p) else {
            continue;
        };
        let Defence::Saved { first: save } = reader.defend(board, p) else {
            continue;
        };
        if let Some(point) = if owner == color { save } else { Some(first) } {
            urgent.push(Urgent {
                point,
                stones: board.chain_len(p),
            });
        }
    }
    urgent
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(board: &Board, name: &str) -> Point {
        Point::parse(name, board.size()).unwrap()
    }

    fn sorted(mut moves: Vec<Urgent>) -> Vec<(Point, u32)> {
        moves.sort_by_key(|u| u.point.index());
        moves.into_iter().map(|u| (u.point, u.stones)).collect()
    }

    #[test]
    fn the_urgent_moves_save_a_chain_in_danger_and_take_a_chain_that_could_escape() {
        // Black E5 is in atari and escapes at E4; White G7 is in atari and
        // escapes at G6; Black A2 is in atari and cannot escape (A1 leaves
        // it one liberty), so neither side need spend a move on it. Every
        // other chain has three liberties: not read.
        let board = Board::from_ascii(
            "
            . . . . . . . . .
            . . . . . . X . .
            . . . . . X O X .
            . . . . O . . . .
            . . . O X O . . .
            . . . . . . . . .
            O . . . . . . . .
            X O . . . . . . .
            . . . . . . . . .
            ",
        )
        .unwrap();
        let mut reader = Reader::new(URGENT_LIMITS);
        let (e4, g6) = (at(&board, "E4"), at(&board, "G6"));
        let mut expected = vec![(e4, 1), (g6, 1)];
        expected.sort_by_key(|(p, _)| p.index());
        for color in [Color::Black, Color::White] {
            assert_eq!(
                sorted(urgent_moves(&board, color, &mut reader)),
                expected,
                "{color:?}"
            );
        }
    }

    #[test]
    fn a_quiet_board_has_no_urgent_move() {
        let board = Board::from_ascii(
            "
            . . . . . . . . .
            . . . . . . . . .
            . . O . . . X . .
            . . . . . . . . .
            . . . . . . . . .
            . . . . . . . . .
            . . X . . . O . .
            . . . . . . . . .
            . . . . . . . . .
            ",
        )
        .unwrap();
        let mut reader = Reader::new(URGENT_LIMITS);
        assert!(urgent_moves(&board, Color::Black, &mut reader).is_empty());
    }
}
