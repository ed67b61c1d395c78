//! What every term detector is given (the play in its position), and the
//! words the sentences share.

use super::Named;
use tengen_core::{Board, Color, Point, Turn, Vertex};

/// One stone play in its position.
pub(crate) struct Play<'a> {
    /// The position before the move.
    pub(crate) before: &'a Board,
    /// The position after it (captures made).
    pub(crate) after: &'a Board,
    /// Where the stone went.
    pub(crate) m: Point,
    /// Who played it.
    pub(crate) color: Color,
    /// Opposing stones it captured.
    pub(crate) captured: u32,
    /// Opposing chains it left in atari (one stone of each).
    pub(crate) ataris: Vec<Point>,
}

impl Play<'_> {
    /// The vertex name of `p` (`D4`).
    pub(crate) fn name(&self, p: Point) -> String {
        Vertex::point_name(p, self.before.size())
    }
}

/// The turn before the one being named, with the position it was played in.
#[derive(Clone, Copy)]
pub(crate) struct Previous<'a> {
    /// The position before that turn.
    pub(crate) board: &'a Board,
    /// The turn.
    pub(crate) turn: Turn,
}

/// A term with its two sentences.
pub(crate) fn named(id: &'static str, en: String, fr: String) -> Named {
    Named { id, en, fr }
}

/// `black` or `white`, for a stone or a chain.
pub(crate) fn stone_en(c: Color) -> &'static str {
    match c {
        Color::Black => "black",
        Color::White => "white",
    }
}

/// `noire` or `blanche` (a French stone, pierre, is feminine; add `s` for
/// the plural).
pub(crate) fn stone_fr(c: Color) -> &'static str {
    match c {
        Color::Black => "noire",
        Color::White => "blanche",
    }
}

/// `Black` or `White`, the player.
pub(crate) fn player_en(c: Color) -> &'static str {
    match c {
        Color::Black => "Black",
        Color::White => "White",
    }
}

/// `Noir` or `Blanc`, the player.
pub(crate) fn player_fr(c: Color) -> &'static str {
    match c {
        Color::Black => "Noir",
        Color::White => "Blanc",
    }
}
