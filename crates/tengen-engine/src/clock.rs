//! Clocks as GTP sets them: `time_settings` (Canadian, the standard),
//! `kgs-time_settings` (none, absolute, byo-yomi, Canadian) and `time_left`,
//! their arguments already read by `tengen-gtp`.

use std::time::Duration;
use tengen_core::{ByColor, Color};
use tengen_gtp::{KgsTimeSettings, Overtime};
use tengen_mcts::time::{ClockState, TimeControl};

/// `time_settings main_time byo_yomi_time byo_yomi_stones`: Canadian
/// overtime; no overtime is absolute time, and the spec's "byo-yomi time
/// without stones" means no time limit.
pub fn time_settings(main: Duration, period: Duration, stones: u32) -> TimeControl {
    if !period.is_zero() && stones == 0 {
        TimeControl::None
    } else if period.is_zero() {
        TimeControl::Absolute { main }
    } else {
        TimeControl::Canadian {
            main,
            period,
            stones,
        }
    }
}

/// `kgs-time_settings none | absolute main | byoyomi main period periods |
/// canadian main period stones`.
pub fn kgs_time_settings(settings: KgsTimeSettings) -> TimeControl {
    let KgsTimeSettings::Timed { main, overtime } = settings else {
        return TimeControl::None;
    };
    match overtime {
        None => TimeControl::Absolute { main },
        Some(Overtime::ByoYomi { period, periods }) => TimeControl::ByoYomi {
            main,
            period,
            periods,
        },
        Some(Overtime::Canadian { period, stones }) => TimeControl::Canadian {
            main,
            period,
            stones,
        },
    }
}

/// Both players' clocks under one time control.
#[derive(Clone, Debug)]
pub struct Clocks {
    /// The control.
    pub control: TimeControl,
    /// Each player's clock.
    pub state: ByColor<ClockState>,
}

impl Clocks {
    /// Fresh clocks under `control`.
    pub fn new(control: TimeControl) -> Clocks {
        let start = ClockState::start(&control);
        Clocks {
            control,
            state: ByColor {
                black: start,
                white: start,
            },
        }
    }

    /// `time_left color time stones`: stones 0 means main time; otherwise
    /// overtime, with the stones (Canadian) or periods (byo-yomi, as KGS
    /// sends them) still to go.
    pub fn time_left(&mut self, color: Color, left: Duration, stones: u32) {
        let clock = &mut self.state[color];
        clock.main_left = left;
        clock.in_overtime = stones > 0;
        match self.control {
            TimeControl::ByoYomi { .. } if stones > 0 => clock.periods_left = stones,
            _ => clock.stones_left = stones,
        }
    }

    /// Takes `used` off `color`'s clock after its move (the controller's
    /// next `time_left` corrects any drift).
    pub fn spend(&mut self, color: Color, used: Duration) {
        let clock = &mut self.state[color];
        clock.main_left = clock.main_left.saturating_sub(used);
        if let TimeControl::Fischer { increment, .. } = self.control {
            clock.main_left += increment;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const fn secs(s: u64) -> Duration {
        Duration::from_secs(s)
    }

    #[test]
    fn canadian_absolute_and_no_limit() {
        assert_eq!(
            time_settings(secs(600), secs(30), 5),
            TimeControl::Canadian {
                main: secs(600),
                period: secs(30),
                stones: 5
            }
        );
        assert_eq!(
            time_settings(secs(300), secs(0), 0),
            TimeControl::Absolute { main: secs(300) }
        );
        assert_eq!(time_settings(secs(0), secs(1), 0), TimeControl::None);
    }

    #[test]
    fn kgs_forms() {
        assert_eq!(kgs_time_settings(KgsTimeSettings::None), TimeControl::None);
        assert_eq!(
            kgs_time_settings(byoyomi()),
            TimeControl::ByoYomi {
                main: secs(60),
                period: secs(10),
                periods: 3
            }
        );
        let absolute = KgsTimeSettings::Timed {
            main: secs(60),
            overtime: None,
        };
        assert_eq!(
            kgs_time_settings(absolute),
            TimeControl::Absolute { main: secs(60) }
        );
    }

    /// `kgs-time_settings byoyomi 60 10 3`.
    fn byoyomi() -> KgsTimeSettings {
        KgsTimeSettings::Timed {
            main: secs(60),
            overtime: Some(Overtime::ByoYomi {
                period: secs(10),
                periods: 3,
            }),
        }
    }

    #[test]
    fn time_left_enters_overtime() {
        let mut clocks = Clocks::new(kgs_time_settings(byoyomi()));
        clocks.time_left(Color::White, secs(8), 2);
        let w = clocks.state[Color::White];
        assert!(w.in_overtime);
        assert_eq!(w.periods_left, 2);
        assert_eq!(w.main_left, secs(8));
    }
}
