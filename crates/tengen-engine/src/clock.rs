//! Clocks as GTP sets them: `time_settings` (Canadian, the standard),
//! `kgs-time_settings` (none, absolute, byo-yomi, Canadian) and `time_left`.

use std::time::Duration;
use tengen_core::{ByColor, Color};
use tengen_gtp::GtpError;
use tengen_gtp::args::parse_number;
use tengen_mcts::time::{ClockState, TimeControl};

/// A number of seconds (GTP sends integers; fractions are accepted).
fn seconds(args: &[String], index: usize) -> Result<Duration, GtpError> {
    let s: f64 = parse_number(args, index)?;
    if s.is_finite() && s >= 0.0 {
        Ok(Duration::from_secs_f64(s))
    } else {
        Err(GtpError::Syntax)
    }
}

/// `time_settings main_time byo_yomi_time byo_yomi_stones`: Canadian
/// overtime; no overtime is absolute time, and the spec's "byo-yomi time
/// without stones" means no time limit.
pub fn time_settings(args: &[String]) -> Result<TimeControl, GtpError> {
    let main = seconds(args, 0)?;
    let period = seconds(args, 1)?;
    let stones: u32 = parse_number(args, 2)?;
    Ok(if !period.is_zero() && stones == 0 {
        TimeControl::None
    } else if period.is_zero() {
        TimeControl::Absolute { main }
    } else {
        TimeControl::Canadian {
            main,
            period,
            stones,
        }
    })
}

/// `kgs-time_settings none | absolute main | byoyomi main period periods |
/// canadian main period stones`.
pub fn kgs_time_settings(args: &[String]) -> Result<TimeControl, GtpError> {
    let kind = tengen_gtp::args::arg(args, 0)?;
    let rest = &args[1..];
    Ok(match kind.to_ascii_lowercase().as_str() {
        "none" => TimeControl::None,
        "absolute" => TimeControl::Absolute {
            main: seconds(rest, 0)?,
        },
        "byoyomi" => TimeControl::ByoYomi {
            main: seconds(rest, 0)?,
            period: seconds(rest, 1)?,
            periods: parse_number(rest, 2)?,
        },
        "canadian" => TimeControl::Canadian {
            main: seconds(rest, 0)?,
            period: seconds(rest, 1)?,
            stones: parse_number(rest, 2)?,
        },
        _ => return Err(GtpError::Syntax),
    })
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
    pub fn time_left(&mut self, args: &[String]) -> Result<(), GtpError> {
        let color = tengen_gtp::args::parse_color(tengen_gtp::args::arg(args, 0)?)?;
        let left = seconds(args, 1)?;
        let stones: u32 = parse_number(args, 2)?;
        let clock = &mut self.state[color];
        clock.main_left = left;
        clock.in_overtime = stones > 0;
        match self.control {
            TimeControl::ByoYomi { .. } if stones > 0 => clock.periods_left = stones,
            _ => clock.stones_left = stones,
        }
        Ok(())
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
    use crate::words;

    #[test]
    fn canadian_absolute_and_no_limit() {
        assert_eq!(
            time_settings(&words("600 30 5")),
            Ok(TimeControl::Canadian {
                main: Duration::from_secs(600),
                period: Duration::from_secs(30),
                stones: 5
            })
        );
        assert_eq!(
            time_settings(&words("300 0 0")),
            Ok(TimeControl::Absolute {
                main: Duration::from_secs(300)
            })
        );
        assert_eq!(time_settings(&words("0 1 0")), Ok(TimeControl::None));
        assert_eq!(time_settings(&words("1 2")), Err(GtpError::Syntax));
        assert_eq!(time_settings(&words("-1 2 3")), Err(GtpError::Syntax));
    }

    #[test]
    fn kgs_forms() {
        assert_eq!(kgs_time_settings(&words("none")), Ok(TimeControl::None));
        assert_eq!(
            kgs_time_settings(&words("byoyomi 60 10 3")),
            Ok(TimeControl::ByoYomi {
                main: Duration::from_secs(60),
                period: Duration::from_secs(10),
                periods: 3
            })
        );
        assert_eq!(
            kgs_time_settings(&words("fischer 1 2")),
            Err(GtpError::Syntax)
        );
        assert_eq!(kgs_time_settings(&[]), Err(GtpError::Syntax));
    }

    #[test]
    fn time_left_enters_overtime() {
        let mut clocks = Clocks::new(kgs_time_settings(&words("byoyomi 60 10 3")).unwrap());
        clocks.time_left(&words("white 8 2")).unwrap();
        let w = clocks.state[Color::White];
        assert!(w.in_overtime);
        assert_eq!(w.periods_left, 2);
        assert_eq!(w.main_left, Duration::from_secs(8));
        assert_eq!(
            clocks.time_left(&words("x 8 2")),
            Err(GtpError::InvalidColor)
        );
    }
}
