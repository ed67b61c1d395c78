//! Game clocks: absolute, byo-yomi, Canadian and Fischer time, in integer
//! milliseconds, with the flag fall.
//!
//! One clock for every place that keeps time: the web server (spending the
//! stored time of each action, so that a replay rebuilds the clocks
//! exactly), the GTP session (where the controller's `time_left` corrects
//! what the engine spent) and the engine's time management (how long to
//! think is read from the same [`SideClock`]). The texts of GTP and JSON are
//! parsed at their edges into these values; nothing here reads a clock of
//! the wall, so the type stays pure arithmetic.
//!
//! Values are kept in `i64` milliseconds and every sum saturates: a clock
//! given absurd times is clamped, never overflows.

use crate::color::{ByColor, Color};

/// How much time each player has.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum TimeControl {
    /// No clock: nobody's flag falls.
    #[default]
    None,
    /// Main time only (sudden death): the flag falls when it runs out.
    Absolute {
        /// Main time.
        main_ms: i64,
    },
    /// Japanese byo-yomi: main time, then `periods` periods of `period_ms`;
    /// a move within a period keeps it, each period overrun is used up.
    ByoYomi {
        /// Main time.
        main_ms: i64,
        /// Number of periods.
        periods: u32,
        /// Length of one period.
        period_ms: i64,
    },
    /// Canadian overtime: main time, then `stones` moves to play in each
    /// period of `period_ms`.
    Canadian {
        /// Main time.
        main_ms: i64,
        /// Moves to make in each period.
        stones: u32,
        /// Length of one period.
        period_ms: i64,
    },
    /// Fischer: `increment_ms` added after each move made in time, the time
    /// left never above `max_ms` (0: no cap).
    Fischer {
        /// Time at the start.
        main_ms: i64,
        /// Added after each move.
        increment_ms: i64,
        /// Cap on the time left (0: none).
        max_ms: i64,
    },
}

impl TimeControl {
    /// Main time at the start of the game.
    pub fn main_ms(self) -> i64 {
        match self {
            TimeControl::None => 0,
            TimeControl::Absolute { main_ms }
            | TimeControl::ByoYomi { main_ms, .. }
            | TimeControl::Canadian { main_ms, .. }
            | TimeControl::Fischer { main_ms, .. } => main_ms.max(0),
        }
    }
}

/// One player's time, as it stands at the start of his turn.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct SideClock {
    /// Main time left.
    pub main_ms: i64,
    /// Byo-yomi periods left.
    pub periods: u32,
    /// Time left in the current overtime period (a full period before
    /// overtime begins).
    pub period_ms: i64,
    /// Canadian: moves still to make in the current period.
    pub stones: u32,
}

impl SideClock {
    /// Whether main time is spent and the player is in overtime.
    pub fn in_overtime(&self, control: TimeControl) -> bool {
        self.main_ms <= 0
            && matches!(
                control,
                TimeControl::ByoYomi { .. } | TimeControl::Canadian { .. }
            )
    }
}

/// Seconds as a text gives them (GTP, SGF; fractions allowed) in
/// milliseconds; `None` for a negative or infinite time. Times beyond what
/// a clock can hold saturate (`as` does): a controller's `1e20` is a very
/// long game, not an error.
pub fn seconds_to_ms(seconds: f64) -> Option<i64> {
    (seconds.is_finite() && seconds >= 0.0).then(|| (seconds * 1000.0).round() as i64)
}

/// Milliseconds as whole seconds, to the nearest: how GTP and SGF write a
/// setting.
pub fn whole_seconds(ms: i64) -> i64 {
    ms.saturating_add(500).max(0) / 1000
}

/// The flag fell: the player used more time than he had.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[error("the flag fell: the time is spent")]
pub struct Flagged;

/// Both players' time under one control.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Clock {
    control: TimeControl,
    sides: ByColor<SideClock>,
}

impl Default for Clock {
    fn default() -> Clock {
        Clock::new(TimeControl::None)
    }
}

impl Clock {
    /// Full time for both players.
    pub fn new(control: TimeControl) -> Clock {
        let (periods, period_ms, stones) = match control {
            TimeControl::ByoYomi {
                periods, period_ms, ..
            } => (periods, period_ms.max(0), 0),
            TimeControl::Canadian {
                stones, period_ms, ..
            } => (0, period_ms.max(0), stones),
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

    /// `color`'s time.
    pub fn side(&self, color: Color) -> SideClock {
        self.sides[color]
    }

    /// How long `color` may think from the start of his turn before his
    /// flag falls; `None` without a clock.
    pub fn allowance(&self, color: Color) -> Option<i64> {
        let s = self.sides[color];
        Some(match self.control {
            TimeControl::None => return None,
            TimeControl::Absolute { .. } | TimeControl::Fischer { .. } => s.main_ms,
            // The current period (perhaps begun, as a controller reports
            // it), then the full ones after it.
            TimeControl::ByoYomi { period_ms, .. } if s.periods > 0 => s
                .main_ms
                .saturating_add(s.period_ms)
                .saturating_add(i64::from(s.periods - 1).saturating_mul(period_ms)),
            TimeControl::ByoYomi { .. } => s.main_ms,
            TimeControl::Canadian { period_ms, .. } if s.main_ms > 0 => {
                s.main_ms.saturating_add(period_ms)
            }
            TimeControl::Canadian { .. } => s.period_ms,
        })
    }

    /// `color` moved after thinking `elapsed_ms`: his time is spent, and
    /// the overtime or increment applied.
    ///
    /// # Errors
    /// [`Flagged`] when the move came after his flag fell (his time is then
    /// all spent).
    pub fn spend(&mut self, color: Color, elapsed_ms: i64) -> Result<(), Flagged> {
        let elapsed = elapsed_ms.max(0);
        let flagged = self.allowance(color).is_some_and(|a| elapsed > a);
        let control = self.control;
        let s = &mut self.sides[color];
        let over = elapsed.saturating_sub(s.main_ms).max(0);
        s.main_ms = s.main_ms.saturating_sub(elapsed).max(0);
        match control {
            TimeControl::None | TimeControl::Absolute { .. } => {}
            TimeControl::Fischer {
                increment_ms,
                max_ms,
                ..
            } => {
                if !flagged {
                    s.main_ms = s.main_ms.saturating_add(increment_ms.max(0));
                    if max_ms > 0 {
                        s.main_ms = s.main_ms.min(max_ms);
                    }
                }
            }
            TimeControl::ByoYomi { period_ms, .. } => {
                if over > 0 {
                    // Each period overrun is used up; a move inside the
                    // next one keeps it.
                    let used = u32::try_from(over / period_ms.max(1)).unwrap_or(u32::MAX);
                    s.periods = s.periods.saturating_sub(used);
                }
                s.period_ms = period_ms.max(0);
            }
            TimeControl::Canadian {
                stones, period_ms, ..
            } => {
                if over > 0 {
                    // Overtime: the period (full on entering it) runs.
                    s.period_ms = s.period_ms.saturating_sub(over).max(0);
                    s.stones = s.stones.saturating_sub(1);
                    if s.stones == 0 {
                        s.stones = stones;
                        s.period_ms = period_ms.max(0);
                    }
                }
            }
        }
        if flagged {
            s.main_ms = 0;
            s.periods = 0;
            s.period_ms = 0;
            Err(Flagged)
        } else {
            Ok(())
        }
    }

    /// Sets `color`'s time as a controller reports it (GTP `time_left`):
    /// with `count` 0, `left_ms` is main time; otherwise the player is in
    /// overtime, `left_ms` is the time of the current period and `count`
    /// the periods (byo-yomi, as KGS sends them) or the stones (Canadian)
    /// still to go.
    pub fn set_left(&mut self, color: Color, left_ms: i64, count: u32) {
        let left = left_ms.max(0);
        let s = &mut self.sides[color];
        if count == 0 {
            s.main_ms = left;
            return;
        }
        s.main_ms = 0;
        s.period_ms = left;
        match self.control {
            TimeControl::ByoYomi { .. } => s.periods = count,
            _ => s.stones = count,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn absolute_time_runs_out() {
        let mut c = Clock::new(TimeControl::Absolute { main_ms: 10_000 });
        assert_eq!(c.spend(Color::Black, 4_000), Ok(()));
        assert_eq!(c.allowance(Color::Black), Some(6_000));
        assert_eq!(c.allowance(Color::White), Some(10_000));
        assert_eq!(c.spend(Color::Black, 6_001), Err(Flagged));
    }

    #[test]
    fn byo_yomi_keeps_a_period_used_in_time_and_loses_an_overrun_one() {
        let control = TimeControl::ByoYomi {
            main_ms: 1_000,
            periods: 3,
            period_ms: 10_000,
        };
        let mut c = Clock::new(control);
        // 1 s of main time, then 5 s into the first period: kept.
        assert_eq!(c.spend(Color::Black, 6_000), Ok(()));
        assert_eq!(c.side(Color::Black).periods, 3);
        assert!(c.side(Color::Black).in_overtime(control));
        assert_eq!(c.allowance(Color::Black), Some(30_000));
        // 15 s: the first period is gone, the move falls in the second.
        assert_eq!(c.spend(Color::Black, 15_000), Ok(()));
        assert_eq!(c.side(Color::Black).periods, 2);
        assert_eq!(c.spend(Color::Black, 20_001), Err(Flagged));
    }

    #[test]
    fn canadian_period_refills_after_its_stones() {
        let control = TimeControl::Canadian {
            main_ms: 0,
            stones: 2,
            period_ms: 10_000,
        };
        let mut c = Clock::new(control);
        assert_eq!(c.spend(Color::White, 6_000), Ok(()));
        assert_eq!(c.allowance(Color::White), Some(4_000));
        assert_eq!(c.spend(Color::White, 3_000), Ok(()));
        // Two stones played: a fresh period.
        assert_eq!(c.allowance(Color::White), Some(10_000));
        assert_eq!(c.spend(Color::White, 10_001), Err(Flagged));
    }

    #[test]
    fn fischer_adds_the_increment_up_to_the_cap() {
        let control = TimeControl::Fischer {
            main_ms: 10_000,
            increment_ms: 5_000,
            max_ms: 12_000,
        };
        let mut c = Clock::new(control);
        assert_eq!(c.spend(Color::Black, 1_000), Ok(()));
        assert_eq!(c.allowance(Color::Black), Some(12_000));
        assert_eq!(c.spend(Color::Black, 10_000), Ok(()));
        assert_eq!(c.allowance(Color::Black), Some(7_000));
    }

    #[test]
    fn no_clock_never_flags() {
        let mut c = Clock::default();
        assert_eq!(c.allowance(Color::Black), None);
        assert_eq!(c.spend(Color::Black, i64::MAX), Ok(()));
    }

    #[test]
    fn a_controller_sets_the_time_left() {
        let control = TimeControl::ByoYomi {
            main_ms: 60_000,
            periods: 3,
            period_ms: 10_000,
        };
        let mut c = Clock::new(control);
        c.set_left(Color::White, 8_000, 2);
        let w = c.side(Color::White);
        assert!(w.in_overtime(control));
        assert_eq!((w.periods, w.period_ms, w.main_ms), (2, 8_000, 0));
        c.set_left(Color::Black, 30_000, 0);
        assert_eq!(c.side(Color::Black).main_ms, 30_000);
        assert!(!c.side(Color::Black).in_overtime(control));
    }

    #[test]
    fn absurd_times_saturate() {
        let control = TimeControl::ByoYomi {
            main_ms: i64::MAX,
            periods: u32::MAX,
            period_ms: i64::MAX,
        };
        let mut c = Clock::new(control);
        assert_eq!(c.allowance(Color::Black), Some(i64::MAX));
        assert_eq!(c.spend(Color::Black, i64::MAX), Ok(()));
    }

    /// What the former clocks agreed on, where they were right: the
    /// server's flag falls one millisecond past the allowance and not at
    /// it; the GTP session's main time runs down by the time used, plus
    /// the Fischer increment.
    mod former {
        use super::*;
        use proptest::prelude::*;

        fn controls() -> impl Strategy<Value = TimeControl> {
            let ms = 0i64..10_000_000;
            prop_oneof![
                ms.clone()
                    .prop_map(|main_ms| TimeControl::Absolute { main_ms }),
                (ms.clone(), 1u32..10, 1i64..100_000).prop_map(|(main_ms, periods, period_ms)| {
                    TimeControl::ByoYomi {
                        main_ms,
                        periods,
                        period_ms,
                    }
                }),
                (ms.clone(), 1u32..30, 1i64..1_000_000).prop_map(|(main_ms, stones, period_ms)| {
                    TimeControl::Canadian {
                        main_ms,
                        stones,
                        period_ms,
                    }
                }),
                (ms, 0i64..100_000).prop_map(|(main_ms, increment_ms)| TimeControl::Fischer {
                    main_ms,
                    increment_ms,
                    max_ms: 0,
                }),
            ]
        }

        proptest! {
            #[test]
            fn the_flag_falls_just_past_the_allowance(
                control in controls(),
                moves in proptest::collection::vec(0i64..200_000, 0..20),
            ) {
                let mut c = Clock::new(control);
                for used in moves {
                    let Some(a) = c.allowance(Color::Black) else { unreachable!() };
                    let mut over = c;
                    prop_assert_eq!(over.spend(Color::Black, a.saturating_add(1)), Err(Flagged));
                    let mut at = c;
                    prop_assert_eq!(at.spend(Color::Black, a), Ok(()));
                    if used > a {
                        break;
                    }
                    let before = c.side(Color::Black).main_ms;
                    prop_assert_eq!(c.spend(Color::Black, used), Ok(()));
                    let increment = match control {
                        TimeControl::Fischer { increment_ms, .. } => increment_ms,
                        _ => 0,
                    };
                    prop_assert_eq!(
                        c.side(Color::Black).main_ms,
                        (before - used).max(0) + increment
                    );
                }
            }
        }
    }
}
