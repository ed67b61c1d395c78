//! What every term detector is given (the play in its position), and the
//! words the sentences share.

use crate::Named;
use tengen_core::{Board, Color, Point, Turn, Vertex};
use tengen_words::Sentence;

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

/// A term with its sentence, said in any language later.
pub(crate) fn named(id: &'static str, sentence: Sentence) -> Named {
    Named { id, sentence }
}

/// The catalogue's word for a stone or a chain of `c` (`black`, French
/// `noire`: a pierre and a chaîne are feminine).
pub(crate) fn stone(c: Color) -> &'static str {
    match c {
        Color::Black => "word.stone.black",
        Color::White => "word.stone.white",
    }
}

/// The same word for several stones or chains: French adds the `s` of
/// the plural (`noires`), English says `black` again.
pub(crate) fn stones(c: Color) -> &'static str {
    match c {
        Color::Black => "word.stones.black",
        Color::White => "word.stones.white",
    }
}

/// The catalogue's word for the player of `c` (`Black`, `Noir`).
pub(crate) fn player(c: Color) -> &'static str {
    match c {
        Color::Black => "word.player.black",
        Color::White => "word.player.white",
    }
}
