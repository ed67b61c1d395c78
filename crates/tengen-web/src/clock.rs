//! Game clocks kept by the server: absolute, byo-yomi, Canadian and Fischer.
//!
//! Time is spent from the stored time of each action, in milliseconds, so
//! that replaying the stored actions rebuilds the clocks exactly.

use serde::{Deserialize, Serialize};
use tengen_core::{ByColor, Color};

/// Longest main time or period accepted: ten hours.
const MAX_SECONDS: u32 = 36_000;

/// How much time each player has.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum TimeControl {
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

impl TimeControl {
    /// Checks the durations and counts.
    ///
    /// # Errors
    /// [`TimeControlError`] for a zero or huge duration, or empty overtime.
    pub fn validate(self) -> Result<TimeControl, TimeControlError> {
        let in_range = |s: u32| (1..=MAX_SECONDS).contains(&s);
        let ok = match self {
            TimeControl::Absolute { main_s } => in_range(main_s),
            TimeControl::ByoYomi {
                main_s,
                periods,
                period_s,
            } => {
                if periods == 0 || periods > 100 {
                    return Err(TimeControlError::Overtime);
                }
                main_s <= MAX_SECONDS && in_range(period_s)
            }
            TimeControl::Canadian {
                main_s,
                stones,
                period_s,
            } => {
                if stones == 0 || stones > 1000 {
                    return Err(TimeControlError::Overtime);
                }
                main_s <= MAX_SECONDS && in_range(period_s)
            }
            TimeControl::Fischer {
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

    fn main_ms(self) -> i64 {
        let s = match self {
            TimeControl::Absolute { main_s }
            | TimeControl::ByoYomi { main_s, .. }
            | TimeControl::Canadian { main_s, .. }
            | TimeControl::Fischer { main_s, .. } => main_s,
        };
        i64::from(s) * 1000
    }
}

/// One player's time.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct SideClock {
    /// Main time left, ms.
    pub main_ms: i64,
    /// Byo-yomi periods left.
    pub periods: u32,
    /// Time left in the current overtime period, ms.
    pub period_ms: i64,
    /// Canadian moves left to play in the current period.
    pub stones: u32,
}

/// Both players' time under one control.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Clock {
    control: TimeControl,
    sides: ByColor<SideClock>,
}

/// The flag fell: the player used more time than he had.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Flagged;

impl Clock {
    /// Full time for both players.
    pub fn new(control: TimeControl) -> Clock {
        let (periods, period_ms, stones) = match control {
            TimeControl::ByoYomi {
                periods, period_s, ..
            } => (periods, i64::from(period_s) * 1000, 0),
            TimeControl::Canadian {
                stones, period_s, ..
            } => (0, i64::from(period_s) * 1000, stones),
            _ => (0, 0, 0),
        };
        let side = SideClock {
            main_ms: control.main_ms(),
            periods,
            period_ms,
            stones,
        };
        Clock {
            control,
            sides: ByColor::new(side, side),
        }
    }

    /// The control.
    pub fn control(&self) -> TimeControl {
        self.control
    }

    /// Each player's time, as it stood when his turn began.
    pub fn sides(&self) -> ByColor<SideClock> {
        self.sides
    }

    /// How long `color` may think from the start of his turn before his
    /// flag falls, ms.
    pub fn allowance(&self, color: Color) -> i64 {
        let s = self.sides[color];
        match self.control {
            TimeControl::Absolute { .. } => s.main_ms,
            TimeControl::Fischer { .. } => s.main_ms,
            TimeControl::ByoYomi { period_s, .. } => {
                s.main_ms + i64::from(s.periods) * i64::from(period_s) * 1000
            }
            TimeControl::Canadian { period_s, .. } if s.main_ms > 0 => {
                s.main_ms + i64::from(period_s) * 1000
            }
            TimeControl::Canadian { .. } => s.period_ms,
        }
    }

    /// `color` moved after thinking `elapsed_ms`: his time is spent, and
    /// the overtime or increment applied.
    ///
    /// # Errors
    /// [`Flagged`] when the move came after his flag fell (his time is then
    /// all spent).
    pub fn spend(&mut self, color: Color, elapsed_ms: i64) -> Result<(), Flagged> {
        let elapsed = elapsed_ms.max(0);
        let flagged = elapsed > self.allowance(color);
        let control = self.control;
        let s = &mut self.sides[color];
        let over = (elapsed - s.main_ms).max(0);
        s.main_ms = (s.main_ms - elapsed).max(0);
        match control {
            TimeControl::Absolute { .. } => {}
            TimeControl::Fischer {
                increment_s, max_s, ..
            } => {
                if !flagged {
                    s.main_ms += i64::from(increment_s) * 1000;
                    if max_s > 0 {
                        s.main_ms = s.main_ms.min(i64::from(max_s) * 1000);
                    }
                }
            }
            TimeControl::ByoYomi { period_s, .. } => {
                let period = i64::from(period_s) * 1000;
                if over > 0 {
                    // Each period overrun is used up; a move inside the
                    // next one keeps it.
                    let used = u32::try_from(over / period.max(1)).unwrap_or(u32::MAX);
                    s.periods = s.periods.saturating_sub(used);
                }
                s.period_ms = period;
            }
            TimeControl::Canadian {
                stones, period_s, ..
            } => {
                let period = i64::from(period_s) * 1000;
                if over > 0 {
                    // Overtime: the period (full on entering it) runs.
                    s.period_ms = (s.period_ms - over).max(0);
                    s.stones = s.stones.saturating_sub(1);
                    if s.stones == 0 {
                        s.stones = stones;
                        s.period_ms = period;
                    }
                }
            }
        }
        if flagged {
            let s = &mut self.sides[color];
            s.main_ms = 0;
            s.periods = 0;
            s.period_ms = 0;
            Err(Flagged)
        } else {
            Ok(())
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn absolute_time_runs_out() {
        let mut c = Clock::new(TimeControl::Absolute { main_s: 10 });
        assert_eq!(c.spend(Color::Black, 4_000), Ok(()));
        assert_eq!(c.allowance(Color::Black), 6_000);
        assert_eq!(c.allowance(Color::White), 10_000);
        assert_eq!(c.spend(Color::Black, 6_001), Err(Flagged));
    }

    #[test]
    fn byo_yomi_keeps_a_period_used_in_time_and_loses_an_overrun_one() {
        let control = TimeControl::ByoYomi {
            main_s: 1,
            periods: 3,
            period_s: 10,
        };
        let mut c = Clock::new(control);
        // 1 s of main time, then 5 s into the first period: kept.
        assert_eq!(c.spend(Color::Black, 6_000), Ok(()));
        assert_eq!(c.sides()[Color::Black].periods, 3);
        assert_eq!(c.allowance(Color::Black), 30_000);
        // 15 s: the first period is gone, the move falls in the second.
        assert_eq!(c.spend(Color::Black, 15_000), Ok(()));
        assert_eq!(c.sides()[Color::Black].periods, 2);
        assert_eq!(c.spend(Color::Black, 20_001), Err(Flagged));
    }

    #[test]
    fn canadian_period_refills_after_its_stones() {
        let control = TimeControl::Canadian {
            main_s: 0,
            stones: 2,
            period_s: 10,
        };
        let mut c = Clock::new(control);
        assert_eq!(c.spend(Color::White, 6_000), Ok(()));
        assert_eq!(c.allowance(Color::White), 4_000);
        assert_eq!(c.spend(Color::White, 3_000), Ok(()));
        // Two stones played: a fresh period.
        assert_eq!(c.allowance(Color::White), 10_000);
        assert_eq!(c.spend(Color::White, 10_001), Err(Flagged));
    }

    #[test]
    fn fischer_adds_the_increment_up_to_the_cap() {
        let control = TimeControl::Fischer {
            main_s: 10,
            increment_s: 5,
            max_s: 12,
        };
        let mut c = Clock::new(control);
        assert_eq!(c.spend(Color::Black, 1_000), Ok(()));
        assert_eq!(c.allowance(Color::Black), 12_000);
        assert_eq!(c.spend(Color::Black, 10_000), Ok(()));
        assert_eq!(c.allowance(Color::Black), 7_000);
    }

    #[test]
    fn zero_times_are_refused() {
        assert_eq!(
            TimeControl::Absolute { main_s: 0 }.validate(),
            Err(TimeControlError::Range)
        );
        let no_periods = TimeControl::ByoYomi {
            main_s: 60,
            periods: 0,
            period_s: 30,
        };
        assert_eq!(no_periods.validate(), Err(TimeControlError::Overtime));
    }
}
