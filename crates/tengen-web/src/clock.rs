//! The clock at the web's edges: the time control as the page sends it and
//! the database stores it (JSON, whole seconds, within the server's limits)
//! and each side's time as the page reads it. The clock's rules (overtime,
//! the flag) are core's [`tengen_core::Clock`]; the server spends the stored
//! time of each action from it, so that replaying the stored actions
//! rebuilds the clocks exactly.

use serde::{Deserialize, Serialize};
use tengen_core::{SideClock, TimeControl};

/// Longest main time or period accepted: ten hours.
const MAX_SECONDS: u32 = 36_000;

/// How much time each player has, as JSON gives it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum ClockSettings {
    /// Main time only: the flag falls when it runs out.
    Absolute {
        /// Main time, seconds.
        main_s: u32,
    },
    /// Main time, then `periods` periods of `period_s`; a move within a
    /// period keeps it, overrunning one uses it up.
    ByoYomi {
        /// Main time, seconds.
        main_s: u32,
        /// Number of periods.
        periods: u32,
        /// Length of a period, seconds.
        period_s: u32,
    },
    /// Main time, then `stones` moves to play in each period of `period_s`.
    Canadian {
        /// Main time, seconds.
        main_s: u32,
        /// Moves per period.
        stones: u32,
        /// Length of a period, seconds.
        period_s: u32,
    },
    /// Main time, and `increment_s` added after each move (up to `max_s`
    /// when it is not 0).
    Fischer {
        /// Main time, seconds.
        main_s: u32,
        /// Added after each move, seconds.
        increment_s: u32,
        /// Cap on the time left, seconds (0: none).
        max_s: u32,
    },
}

/// Why a time control was refused.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum TimeControlError {
    /// A duration of zero or beyond the limit.
    #[error("times must be between 1 second and {MAX_SECONDS} seconds")]
    Range,
    /// Overtime with no period or no stone.
    #[error("overtime needs at least one period and one stone")]
    Overtime,
}

impl ClockSettings {
    /// Checks the durations and counts.
    ///
    /// # Errors
    /// [`TimeControlError`] for a zero or huge duration, or empty overtime.
    pub fn validate(self) -> Result<ClockSettings, TimeControlError> {
        let in_range = |s: u32| (1..=MAX_SECONDS).contains(&s);
        let ok = match self {
            ClockSettings::Absolute { main_s } => in_range(main_s),
            ClockSettings::ByoYomi {
                main_s,
                periods,
                period_s,
            } => {
                if periods == 0 || periods > 100 {
                    return Err(TimeControlError::Overtime);
                }
                main_s <= MAX_SECONDS && in_range(period_s)
            }
            ClockSettings::Canadian {
                main_s,
                stones,
                period_s,
            } => {
                if stones == 0 || stones > 1000 {
                    return Err(TimeControlError::Overtime);
                }
                main_s <= MAX_SECONDS && in_range(period_s)
            }
            ClockSettings::Fischer {
                main_s,
                increment_s,
                max_s,
            } => in_range(main_s) && increment_s <= MAX_SECONDS && max_s <= MAX_SECONDS,
        };
        if ok {
            Ok(self)
        } else {
            Err(TimeControlError::Range)
        }
    }

    /// The clock this describes.
    pub fn control(self) -> TimeControl {
        let ms = |s: u32| i64::from(s) * 1000;
        match self {
            ClockSettings::Absolute { main_s } => TimeControl::Absolute {
                main_ms: ms(main_s),
            },
            ClockSettings::ByoYomi {
                main_s,
                periods,
                period_s,
            } => TimeControl::ByoYomi {
                main_ms: ms(main_s),
                periods,
                period_ms: ms(period_s),
            },
            ClockSettings::Canadian {
                main_s,
                stones,
                period_s,
            } => TimeControl::Canadian {
                main_ms: ms(main_s),
                stones,
                period_ms: ms(period_s),
            },
            ClockSettings::Fischer {
                main_s,
                increment_s,
                max_s,
            } => TimeControl::Fischer {
                main_ms: ms(main_s),
                increment_ms: ms(increment_s),
                max_ms: ms(max_s),
            },
        }
    }
}

/// One player's time as the page reads it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct SideView {
    /// Main time left, ms.
    pub main_ms: i64,
    /// Byo-yomi periods left.
    pub periods: u32,
    /// Time left in the current overtime period, ms.
    pub period_ms: i64,
    /// Canadian moves left to play in the current period.
    pub stones: u32,
}

impl From<SideClock> for SideView {
    fn from(s: SideClock) -> SideView {
        SideView {
            main_ms: s.main_ms,
            periods: s.periods,
            period_ms: s.period_ms,
            stones: s.stones,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn zero_times_are_refused() {
        assert_eq!(
            ClockSettings::Absolute { main_s: 0 }.validate(),
            Err(TimeControlError::Range)
        );
        let no_periods = ClockSettings::ByoYomi {
            main_s: 60,
            periods: 0,
            period_s: 30,
        };
        assert_eq!(no_periods.validate(), Err(TimeControlError::Overtime));
    }

    #[test]
    fn seconds_become_the_clock_in_milliseconds() {
        let s = ClockSettings::Fischer {
            main_s: 10,
            increment_s: 5,
            max_s: 12,
        };
        assert_eq!(
            s.control(),
            TimeControl::Fischer {
                main_ms: 10_000,
                increment_ms: 5_000,
                max_ms: 12_000
            }
        );
    }
}
