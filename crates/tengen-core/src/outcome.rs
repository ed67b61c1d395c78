//! How a game ended, in words and in SGF `RE` form.

use crate::color::Color;
use crate::points::Points;
use std::fmt;

/// How a win came about.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum WinBy {
    /// By this many points at the count.
    Score(Points),
    /// The opponent resigned.
    Resignation,
    /// The opponent ran out of time.
    Time,
    /// The opponent forfeited.
    Forfeit,
    /// The capture goal was reached (this many stones captured in all).
    CaptureGoal(u32),
    /// More stones captured when two passes ended a capture game.
    Captures {
        /// The winner's captures.
        winner: u32,
        /// The loser's captures.
        loser: u32,
    },
}

/// The result of a finished game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum Outcome {
    /// One player won.
    Win {
        /// Who won.
        winner: Color,
        /// How.
        by: WinBy,
    },
    /// Equal score (or equal captures).
    Draw,
    /// No result: the same situation occurred a fourth time under simple ko.
    Void,
}

impl Outcome {
    /// The SGF `RE` value: `B+3.5`, `W+R`, `B+T`, `W+F`, `B+C`, `0`, `Void`.
    pub fn to_sgf(&self) -> String {
        match self {
            Outcome::Draw => "0".to_string(),
            Outcome::Void => "Void".to_string(),
            Outcome::Win { winner, by } => {
                let tail = match by {
                    WinBy::Score(p) => p.to_string(),
                    WinBy::Resignation => "R".to_string(),
                    WinBy::Time => "T".to_string(),
                    WinBy::Forfeit => "F".to_string(),
                    WinBy::CaptureGoal(_) | WinBy::Captures { .. } => "C".to_string(),
                };
                format!("{}+{tail}", winner.letter())
            }
        }
    }

    /// The winner, if any.
    pub fn winner(&self) -> Option<Color> {
        match self {
            Outcome::Win { winner, .. } => Some(*winner),
            _ => None,
        }
    }
}

impl fmt::Display for Outcome {
    /// The reason in English words ("black wins by 3.5 points").
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Outcome::Draw => f.write_str("draw: equal count"),
            Outcome::Void => {
                f.write_str("no result: the same situation occurred for the fourth time")
            }
            Outcome::Win { winner, by } => match by {
                WinBy::Score(p) => write!(f, "{winner} wins by {p} points"),
                WinBy::Resignation => write!(f, "{winner} wins by resignation"),
                WinBy::Time => write!(f, "{winner} wins on time"),
                WinBy::Forfeit => write!(f, "{winner} wins by forfeit"),
                WinBy::CaptureGoal(n) => {
                    write!(
                        f,
                        "{winner} wins by reaching the capture goal ({n} stones captured)"
                    )
                }
                WinBy::Captures {
                    winner: w,
                    loser: l,
                } => {
                    write!(f, "{winner} wins by captures after two passes ({w} to {l})")
                }
            },
        }
    }
}
