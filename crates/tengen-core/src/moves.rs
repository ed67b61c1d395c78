//! A turn's action on the board, a stone or a pass, and its text as people
//! and GTP write it (through [`Vertex`]).

use crate::size::{BoardSize, Point};
use crate::vertex::{ParseVertexError, Vertex};

/// A turn's action on the board.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Move {
    /// A stone on this point.
    Play(Point),
    /// A pass.
    Pass,
}

impl Move {
    /// Reads `D4`, `q16` or `pass` as a move on a board of `size`.
    ///
    /// # Errors
    /// [`ParseVertexError`] when the text is malformed or off the board.
    pub fn parse(text: &str, size: BoardSize) -> Result<Move, ParseVertexError> {
        Ok(match Vertex::parse(text, size)? {
            Vertex::Point(p) => Move::Play(p),
            Vertex::Pass => Move::Pass,
        })
    }

    /// The move's text on a board of `size`: `D4` or `pass`.
    pub fn name(self, size: BoardSize) -> String {
        match self {
            Move::Pass => "pass".to_string(),
            Move::Play(p) => p.name(size),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn moves_read_and_write_their_own_text() {
        let size = BoardSize::square(19).unwrap();
        assert_eq!(Move::parse("pass", size).unwrap(), Move::Pass);
        assert_eq!(Move::parse("D4", size).unwrap().name(size), "D4");
        assert_eq!(Move::Pass.name(size), "pass");
        let small = BoardSize::new(7, 5).unwrap();
        assert_eq!(
            Move::parse("H5", small).unwrap_err().to_string(),
            "H5 is off the 7x5 board"
        );
    }
}
