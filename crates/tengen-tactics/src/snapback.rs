//! Snapback (utte-gaeshi): a stone offered for capture so that the capturing
//! chain is caught at once, with more stones than were given.
//!
//! The definition of ecosystem-study section 6.3, checked by a two-ply
//! look-ahead: the sacrifice leaves its own chain with one liberty and
//! captures nothing; the opponent captures it by playing that liberty; the
//! capturing chain is then left with exactly one liberty, and playing it
//! captures at least two stones (one stone would be a ko, not a snapback).

use crate::util::legal;
use tengen_core::{Board, Color, Point};

/// A snapback set up by a sacrifice.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Snapback {
    /// Where the opponent captures the sacrifice.
    pub capture_at: Point,
    /// Where the sacrificing side then recaptures.
    pub recapture_at: Point,
    /// Stones the sacrifice gives.
    pub given: u32,
    /// Stones the recapture takes (at least two).
    pub taken: u32,
}

/// Whether `color` playing at `m` sets up a snapback (see the module docs).
/// `None` for an illegal move, a move that captures, or one that is not a
/// self-atari.
///
/// ```
/// use tengen_core::{Board, Color, Vertex};
/// use tengen_tactics::snapback;
///
/// // Black throws in at C4: if White takes, Black takes back three stones.
/// let board = Board::from_ascii(
///     ". X O . .
///      X . . O .
///      X O O X .
///      . X X X .
///      . . . . .",
/// )
/// .unwrap();
/// let Vertex::Point(c4) = Vertex::parse("C4", board.size()).unwrap() else { unreachable!() };
/// let s = snapback(&board, c4, Color::Black).unwrap();
/// assert_eq!((s.given, s.taken), (1, 3));
/// ```
pub fn snapback(board: &Board, m: Point, color: Color) -> Option<Snapback> {
    if !legal(board, m, color) {
        return None;
    }
    let them = color.opponent();
    let mut b = board.clone();
    let played = b.play_unchecked(m, color);
    if played.captured > 0 || b.liberties(m) != 1 {
        return None;
    }
    let given = b.chain_len(m);
    let capture_at = b.last_liberty(m)?;
    if !legal(&b, capture_at, them) {
        return None;
    }
    let took = b.play_unchecked(capture_at, them);
    if took.captured == 0 || b.liberties(capture_at) != 1 {
        return None;
    }
    let recapture_at = b.last_liberty(capture_at)?;
    if !legal(&b, recapture_at, color) {
        return None;
    }
    let taken = b.preview(recapture_at, color).captured;
    (taken >= 2).then_some(Snapback {
        capture_at,
        recapture_at,
        given,
        taken,
    })
}

/// Whether the capture `color` makes at `m` is snapped back: after it, the
/// capturing chain has one liberty and the opponent, playing it, takes back
/// at least two stones. Returns the stones the opponent would take; `None`
/// when the move is illegal, captures nothing, or is safe.
pub fn capture_is_snapped_back(board: &Board, m: Point, color: Color) -> Option<u32> {
    if !legal(board, m, color) {
        return None;
    }
    let them = color.opponent();
    let mut b = board.clone();
    let played = b.play_unchecked(m, color);
    if played.captured == 0 || b.liberties(m) != 1 {
        return None;
    }
    let r = b.last_liberty(m)?;
    if !legal(&b, r, them) {
        return None;
    }
    let taken = b.preview(r, them).captured;
    (taken >= 2).then_some(taken)
}
