//! Vertices as people and GTP write them: a column letter (A to Z, no I) and
//! a row number counted from the bottom, or `pass`. A [`Point`] is an index
//! that means something only on its board, so its text is read and written
//! against a [`BoardSize`]: [`Point::parse`] and [`Point::name`] (and a
//! move's, in the `moves` module).

use crate::size::{BoardSize, Point};
use std::fmt;

/// Why a vertex text was rejected.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ParseVertexError {
    /// Not a letter followed by a number.
    #[error("{0:?} is not a vertex (expected a column letter and a row number, like D4)")]
    Malformed(String),
    /// A well-formed vertex outside the board.
    #[error("{text} is off the {size} board")]
    OffBoard {
        /// The vertex as written.
        text: String,
        /// The board it was read against.
        size: BoardSize,
    },
    /// `pass` where a point is wanted.
    #[error("pass is not a point of the board")]
    Pass,
}

const LETTERS: &[u8; 25] = b"ABCDEFGHJKLMNOPQRSTUVWXYZ";

/// A point or a pass, read from or written as vertex text.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Vertex {
    /// A point of the board.
    Point(Point),
    /// `pass`.
    Pass,
}

impl Vertex {
    /// Reads `D4`, `q16`, `pass` against a board size.
    ///
    /// # Errors
    /// [`ParseVertexError`] when the text is malformed or off the board.
    pub fn parse(text: &str, size: BoardSize) -> Result<Vertex, ParseVertexError> {
        let t = text.trim();
        if t.eq_ignore_ascii_case("pass") {
            return Ok(Vertex::Pass);
        }
        let malformed = || ParseVertexError::Malformed(text.to_string());
        let mut chars = t.chars();
        let letter = chars.next().ok_or_else(malformed)?.to_ascii_uppercase();
        let digits = chars.as_str();
        if !letter.is_ascii_alphabetic() || letter == 'I' {
            return Err(malformed());
        }
        if digits.is_empty() || digits.len() > 3 || !digits.bytes().all(|b| b.is_ascii_digit()) {
            return Err(malformed());
        }
        let col = LETTERS
            .iter()
            .position(|&l| l as char == letter)
            .ok_or_else(malformed)? as u32;
        let row: u32 = digits.parse().map_err(|_| malformed())?;
        let off = || ParseVertexError::OffBoard {
            text: t.to_string(),
            size,
        };
        if row == 0 || row > size.height() {
            return Err(off());
        }
        size.point(col, size.height() - row)
            .map(Vertex::Point)
            .ok_or_else(off)
    }

    /// The text of a point: `D4` (column letter, row from the bottom).
    pub fn point_name(p: Point, size: BoardSize) -> String {
        let (x, y) = size.xy(p);
        let letter = LETTERS.get(x as usize).map_or('?', |&l| l as char);
        format!("{letter}{}", size.height().saturating_sub(y))
    }

    /// The text of this vertex on a board of `size`.
    pub fn display(self, size: BoardSize) -> impl fmt::Display {
        match self {
            Vertex::Pass => "pass".to_string(),
            Vertex::Point(p) => Vertex::point_name(p, size),
        }
    }
}

impl Point {
    /// Reads `D4` or `q16` as a point of a board of `size`.
    ///
    /// # Errors
    /// [`ParseVertexError`]: malformed, off the board, or `pass`.
    pub fn parse(text: &str, size: BoardSize) -> Result<Point, ParseVertexError> {
        match Vertex::parse(text, size)? {
            Vertex::Point(p) => Ok(p),
            Vertex::Pass => Err(ParseVertexError::Pass),
        }
    }

    /// The point's text on a board of `size`: `D4`.
    pub fn name(self, size: BoardSize) -> String {
        Vertex::point_name(self, size)
    }
}

/// Reads a list of vertices separated by commas or spaces (`D4,Q16 K10`).
///
/// # Errors
/// The first vertex that does not read, or a pass in the list.
pub fn parse_points(text: &str, size: BoardSize) -> Result<Vec<Point>, ParseVertexError> {
    text.split(|c: char| c == ',' || c.is_whitespace())
        .filter(|s| !s.is_empty())
        .map(|s| Point::parse(s, size))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_and_writes_vertices() {
        let size = BoardSize::square(19).unwrap();
        let p = match Vertex::parse("D4", size).unwrap() {
            Vertex::Point(p) => p,
            Vertex::Pass => unreachable!(),
        };
        assert_eq!(size.xy(p), (3, 15));
        assert_eq!(Vertex::point_name(p, size), "D4");
        assert_eq!(
            Vertex::parse("q16", size)
                .unwrap()
                .display(size)
                .to_string(),
            "Q16"
        );
        assert_eq!(
            Vertex::parse("T19", size)
                .unwrap()
                .display(size)
                .to_string(),
            "T19"
        );
        assert_eq!(Vertex::parse("PASS", size).unwrap(), Vertex::Pass);
        for bad in ["I5", "A0", "A20", "U1", "", "4D", "D", "D-1", "DD4"] {
            assert!(Vertex::parse(bad, size).is_err(), "{bad}");
        }
        // Points read and write their own text.
        let d4 = Point::parse("d4", size).unwrap();
        assert_eq!(d4, p);
        assert_eq!(d4.name(size), "D4");
        assert_eq!(Point::parse("pass", size), Err(ParseVertexError::Pass));
        let big = BoardSize::square(25).unwrap();
        for p in big.points() {
            let text = Vertex::point_name(p, big);
            assert_eq!(Vertex::parse(&text, big).unwrap(), Vertex::Point(p));
        }
    }
}
