//! Exact scores and komi.
//!
//! Chinese komi is 3.75 *stones*; margins in stones are quarter points, and
//! half of a quarter-point komi is an eighth. Values are kept in eighths of a
//! point, so halving never rounds. No float ever enters a score, so a draw is
//! exactly zero.

use std::fmt;
use std::ops::{Add, AddAssign, Mul, Neg, Sub, SubAssign};
use std::str::FromStr;

/// A number of points, kept exactly as a whole number of eighths.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
// As its exact text (`"7.5"`, `"3.75"`): a float would round eighths.
#[cfg_attr(
    feature = "serde",
    derive(serde::Serialize, serde::Deserialize),
    serde(into = "String", try_from = "String")
)]
pub struct Points(i32);

/// Eighths in a point.
const UNIT: i32 = 8;

/// The largest komi accepted from text, in points (larger values are typos).
pub const MAX_KOMI: i32 = 1000;

/// Why a komi or score text was rejected.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ParsePointsError {
    /// Not a decimal number.
    #[error("{0:?} is not a number of points")]
    NotANumber(String),
    /// A fraction finer than an eighth.
    #[error(
        "{0:?} is not a whole number of eighths of a point (komi is usually a multiple of 0.5)"
    )]
    NotQuarter(String),
    /// Out of the sane range.
    #[error("{0:?} is out of range (at most {MAX_KOMI} points either way)")]
    OutOfRange(String),
}

impl Points {
    /// No points.
    pub const ZERO: Points = Points(0);

    /// `n` whole points (saturating far beyond any board).
    pub const fn whole(n: i32) -> Points {
        Points(n.saturating_mul(UNIT))
    }

    /// `n` half points.
    pub const fn halves(n: i32) -> Points {
        Points(n.saturating_mul(UNIT / 2))
    }

    /// `n` quarter points.
    pub const fn quarters(n: i32) -> Points {
        Points(n.saturating_mul(UNIT / 4))
    }

    /// The value in quarter points, rounded toward zero (exact for every
    /// komi and score except halves of quarter-point komi).
    pub const fn in_quarters(self) -> i32 {
        self.0 / (UNIT / 4)
    }

    /// The value in eighths of a point (always exact).
    pub const fn in_eighths(self) -> i32 {
        self.0
    }

    /// The value in points as a float (exact), for the learned models'
    /// inputs, targets and measures.
    pub fn to_f64(self) -> f64 {
        f64::from(self.0) / f64::from(UNIT)
    }

    /// Half of this value, exact down to halves of quarters (every score and
    /// komi here: areas are whole, dame halves, komi quarters).
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
        self.0 % UNIT == 0
    }

    /// Whether this is a whole number of half points (what komi and
    /// results usually are; Chinese komi in stones is not).
    pub const fn is_whole_halves(self) -> bool {
        self.0 % (UNIT / 2) == 0
    }
}

impl fmt::Display for Points {
    /// `7`, `7.5`, `3.75`, `-0.25`, `1.875`: the shortest exact decimal.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let sign = if self.0 < 0 { "-" } else { "" };
        let e = self.0.unsigned_abs();
        let frac = ["", ".125", ".25", ".375", ".5", ".625", ".75", ".875"];
        let tail = frac.get((e % UNIT as u32) as usize).copied().unwrap_or("");
        write!(f, "{sign}{}{tail}", e / UNIT as u32)
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
        let eighths = match frac {
            "" => 0,
            "125" => 1,
            "25" => 2,
            "375" => 3,
            "5" => 4,
            "625" => 5,
            "75" => 6,
            "875" => 7,
            _ => return Err(ParsePointsError::NotQuarter(s.to_string())),
        };
        if whole > MAX_KOMI || (whole == MAX_KOMI && eighths > 0) {
            return Err(ParsePointsError::OutOfRange(s.to_string()));
        }
        let e = whole * UNIT + eighths;
        Ok(Points(if negative { -e } else { e }))
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

impl From<Points> for String {
    fn from(p: Points) -> String {
        p.to_string()
    }
}

impl TryFrom<String> for Points {
    type Error = ParsePointsError;

    fn try_from(s: String) -> Result<Points, ParsePointsError> {
        s.parse()
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
        // Half of a quarter-point komi is exact.
        let k: Points = "-4.75".parse().unwrap();
        assert_eq!(k.half().to_string(), "-2.375");
        assert_eq!(k.half().double(), k);
        assert_eq!("1.875".parse::<Points>().unwrap().in_eighths(), 15);
    }

    #[test]
    fn a_float_is_exact() {
        assert_eq!(Points::halves(15).to_f64(), 7.5);
        assert_eq!(Points::quarters(-15).to_f64(), -3.75);
        assert_eq!(Points::ZERO.to_f64(), 0.0);
    }

    #[test]
    fn rejects_bad_text() {
        for text in [
            "",
            "-",
            "7.3",
            "0.0625",
            "abc",
            "1e3",
            "7.5.5",
            "1001",
            "99999999999",
        ] {
            assert!(text.parse::<Points>().is_err(), "{text}");
        }
    }
}
