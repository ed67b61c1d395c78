//! The two colours and a pair of values indexed by colour.

use std::fmt;
use std::ops::{Index, IndexMut, Not};

/// A player, or the colour of a stone.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum Color {
    /// Black moves first in an even game.
    Black,
    /// White receives komi.
    White,
}

impl Color {
    /// Both colours, Black first.
    pub const ALL: [Color; 2] = [Color::Black, Color::White];

    /// The other colour.
    #[inline]
    pub const fn opponent(self) -> Color {
        match self {
            Color::Black => Color::White,
            Color::White => Color::Black,
        }
    }

    /// `B` or `W`, as SGF and GTP results write it.
    pub const fn letter(self) -> char {
        match self {
            Color::Black => 'B',
            Color::White => 'W',
        }
    }

    /// 0 for Black, 1 for White: the index into tables kept per colour.
    #[inline]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// +1 for Black, -1 for White: turns a value seen from Black's side
    /// (a margin, an ownership, a lead) into this colour's, and back.
    #[inline]
    pub const fn sign(self) -> f32 {
        match self {
            Color::Black => 1.0,
            Color::White => -1.0,
        }
    }

    /// The English name in lowercase.
    pub const fn name(self) -> &'static str {
        match self {
            Color::Black => "black",
            Color::White => "white",
        }
    }
}

impl Not for Color {
    type Output = Color;
    #[inline]
    fn not(self) -> Color {
        self.opponent()
    }
}

/// Why a colour's text was rejected.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{0:?} is not a colour (b, black, w or white)")]
pub struct ParseColorError(pub String);

impl std::str::FromStr for Color {
    type Err = ParseColorError;

    /// `b`, `black`, `w` or `white`, any case (as GTP and SGF write them).
    fn from_str(s: &str) -> Result<Color, ParseColorError> {
        match s.trim().to_ascii_lowercase().as_str() {
            "b" | "black" => Ok(Color::Black),
            "w" | "white" => Ok(Color::White),
            _ => Err(ParseColorError(s.to_string())),
        }
    }
}

impl fmt::Display for Color {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// One value per colour (captures, scores, clocks), instead of a bare tuple.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct ByColor<T> {
    /// Black's value.
    pub black: T,
    /// White's value.
    pub white: T,
}

impl<T> ByColor<T> {
    /// Both values.
    pub const fn new(black: T, white: T) -> Self {
        ByColor { black, white }
    }

    /// The value built by `f` for each colour.
    pub fn from_fn(mut f: impl FnMut(Color) -> T) -> Self {
        ByColor {
            black: f(Color::Black),
            white: f(Color::White),
        }
    }

    /// Applies `f` to both values.
    pub fn map<U>(self, mut f: impl FnMut(T) -> U) -> ByColor<U> {
        ByColor {
            black: f(self.black),
            white: f(self.white),
        }
    }
}

impl<T> Index<Color> for ByColor<T> {
    type Output = T;
    #[inline]
    fn index(&self, color: Color) -> &T {
        match color {
            Color::Black => &self.black,
            Color::White => &self.white,
        }
    }
}

impl<T> IndexMut<Color> for ByColor<T> {
    #[inline]
    fn index_mut(&mut self, color: Color) -> &mut T {
        match color {
            Color::Black => &mut self.black,
            Color::White => &mut self.white,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn colours_read_as_gtp_and_sgf_write_them() {
        for (text, color) in [
            ("b", Color::Black),
            ("Black", Color::Black),
            ("W", Color::White),
        ] {
            assert_eq!(text.parse::<Color>(), Ok(color));
        }
        assert_eq!(Color::White.to_string().parse::<Color>(), Ok(Color::White));
        let bad = "red".parse::<Color>().unwrap_err();
        assert_eq!(
            bad.to_string(),
            "\"red\" is not a colour (b, black, w or white)"
        );
    }

    #[test]
    fn a_value_from_black_side_turns_to_either_colour_and_back() {
        let black_lead = 6.5f32;
        assert_eq!(black_lead * Color::Black.sign(), 6.5);
        assert_eq!(black_lead * Color::White.sign(), -6.5);
        for c in Color::ALL {
            assert_eq!(c.sign(), -c.opponent().sign());
            assert_eq!(black_lead * c.sign() * c.sign(), black_lead);
        }
    }
}
