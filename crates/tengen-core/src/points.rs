//! Exact scores and komi, in quarter points.
//!
//! Chinese komi is 3.75 *stones*; margins in stones are quarter points. No
//! float ever enters a score, so a draw is exactly zero.

use std::fmt;
use std::ops::{Add, AddAssign, Mul, Neg, Sub, SubAssign};
use std::str::FromStr;

/// A number of points, kept exactly as a whole number of quarter points.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Points(i32);

/// The largest komi accepted from text, in points (larger values are typos).
pub const MAX_KOMI: i32 = 1000;

/// Why a komi or score text was rejected.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ParsePointsError {
    /// Not a decimal number.
    #[error("{0:?} is not a number of points")]
    NotANumber(String),
    /// A fraction other than .25, .5 or .75.
    #[error("{0:?} is not a whole number of quarter points")]
    NotQuarter(String),
    /// Out of the sane range.
    #[error("{0:?} is out of range (at most {MAX_KOMI} points either way)")]
    OutOfRange(String),
}

impl Points {
    /// No points.
    pub const ZERO: Points = Points(0);

    /// `n` whole points.
    pub const fn whole(n: i32) -> Points {
        Points(n * 4)
    }

    /// `n` half points.
    pub const fn halves(n: i32) -> Points {
        Points(n * 2)
    }

    /// `n` quarter points.
    pub const fn quarters(n: i32) -> Points {
        Points(n)
    }

    /// The value in quarter points.
    pub const fn in_quarters(self) -> i32 {
        self.0
    }

    /// Half of this value (exact while it is a whole number of half quarters,
    /// which every score and komi here is: halves of halves are quarters).
    pub const fn half(self) -> Points {
        Points(self.0 / 2)
    }

    /// Twice this value.
    pub const fn double(self) -> Points {
        Points(self.0 * 2)
    }

    /// The absolute value.
    pub const fn abs(self) -> Points {
        Points(self.0.abs())
    }

    /// Whether this is exactly zero.
    pub const fn is_zero(self) -> bool {
        self.0 == 0
    }

    /// Whether this is a whole number of points.
    pub const fn is_whole(self) -> bool {
        self.0 % 4 == 0
    }

    /// Whether this is a whole number of half points (what komi and
    /// results usually are; Chinese komi in stones is not).
    pub const fn is_whole_halves(self) -> bool {
        self.0 % 2 == 0
    }
}

impl fmt::Display for Points {
    /// `7`, `7.5`, `3.75`, `-0.25`: the shortest exact decimal.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let sign = if self.0 < 0 { "-" } else { "" };
        let q = self.0.unsigned_abs();
        let frac = match q % 4 {
            0 => "",
            1 => ".25",
            2 => ".5",
            _ => ".75",
        };
        write!(f, "{sign}{}{frac}", q / 4)
    }
}

impl FromStr for Points {
    type Err = ParsePointsError;

    /// Accepts an optional sign, digits, and a fraction that is a whole
    /// number of quarters (`7.5`, `3.75`, `6.50`, `-0.25`).
    fn from_str(s: &str) -> Result<Points, ParsePointsError> {
        let text = s.trim();
        let bad = || ParsePointsError::NotANumber(s.to_string());
        let (negative, body) = match text.as_bytes().first() {
            Some(b'-') => (true, &text[1..]),
            Some(b'+') => (false, &text[1..]),
            _ => (false, text),
        };
        let (int_part, frac_part) = body.split_once('.').unwrap_or((body, ""));
        if (int_part.is_empty() && frac_part.is_empty())
            || !int_part.bytes().all(|b| b.is_ascii_digit())
            || !frac_part.bytes().all(|b| b.is_ascii_digit())
        {
            return Err(bad());
        }
        let int_digits = int_part.trim_start_matches('0');
        if int_digits.len() > 6 {
            return Err(ParsePointsError::OutOfRange(s.to_string()));
        }
        let whole: i32 = if int_digits.is_empty() {
            0
        } else {
            int_digits.parse().map_err(|_| bad())?
        };
        let frac = frac_part.trim_end_matches('0');
        let quarter = match frac {
            "" => 0,
            "25" => 1,
            "5" => 2,
            "75" => 3,
            _ => return Err(ParsePointsError::NotQuarter(s.to_string())),
        };
        if whole > MAX_KOMI || (whole == MAX_KOMI && quarter > 0) {
            return Err(ParsePointsError::OutOfRange(s.to_string()));
        }
        let q = whole * 4 + quarter;
        Ok(Points(if negative { -q } else { q }))
    }
}

impl Add for Points {
    type Output = Points;
    fn add(self, o: Points) -> Points {
        Points(self.0 + o.0)
    }
}

impl AddAssign for Points {
    fn add_assign(&mut self, o: Points) {
        self.0 += o.0;
    }
}

impl Sub for Points {
    type Output = Points;
    fn sub(self, o: Points) -> Points {
        Points(self.0 - o.0)
    }
}

impl SubAssign for Points {
    fn sub_assign(&mut self, o: Points) {
        self.0 -= o.0;
    }
}

impl Neg for Points {
    type Output = Points;
    fn neg(self) -> Points {
        Points(-self.0)
    }
}

impl Mul<i32> for Points {
    type Output = Points;
    fn mul(self, k: i32) -> Points {
        Points(self.0 * k)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_and_prints_exactly() {
        for (text, q, shown) in [
            ("7.5", 30, "7.5"),
            ("3.75", 15, "3.75"),
            ("7", 28, "7"),
            ("6.50", 26, "6.5"),
            ("-0.25", -1, "-0.25"),
            ("+2", 8, "2"),
            (".5", 2, "0.5"),
            ("0", 0, "0"),
        ] {
            let p: Points = text.parse().unwrap();
            assert_eq!(p.in_quarters(), q, "{text}");
            assert_eq!(p.to_string(), shown);
        }
    }

    #[test]
    fn rejects_bad_text() {
        for text in ["", "-", "7.3", "abc", "1e3", "7.5.5", "1001", "99999999999"] {
            assert!(text.parse::<Points>().is_err(), "{text}");
        }
    }
}
