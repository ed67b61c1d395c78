//! Clocks as GTP sets them: `time_settings` (Canadian, the standard),
//! `kgs-time_settings` (none, absolute, byo-yomi, Canadian) and `time_left`,
//! read into core's [`Clock`]. Only the text is read here: the clock's rules
//! (overtime, the flag) are core's.

use tengen_core::{Clock, TimeControl};
use tengen_gtp::GtpError;
use tengen_gtp::args::parse_number;

/// A number of seconds in milliseconds (GTP sends integers; fractions are
/// accepted; values beyond what a clock can hold saturate).
fn millis(args: &[String], index: usize) -> Result<i64, GtpError> {
    let s: f64 = parse_number(args, index)?;
    if s.is_finite() && s >= 0.0 {
        // `as` saturates at i64::MAX.
        Ok((s * 1000.0).round() as i64)
    } else {
        Err(GtpError::Syntax)
    }
}

/// `time_settings main_time byo_yomi_time byo_yomi_stones`: Canadian
/// overtime; no overtime is absolute time, and the spec's "byo-yomi time
/// without stones" means no time limit.
pub fn time_settings(args: &[String]) -> Result<TimeControl, GtpError> {
    let main_ms = millis(args, 0)?;
    let period_ms = millis(args, 1)?;
    let stones: u32 = parse_number(args, 2)?;
    Ok(if period_ms != 0 && stones == 0 {
        TimeControl::None
    } else if period_ms == 0 {
        TimeControl::Absolute { main_ms }
    } else {
        TimeControl::Canadian {
            main_ms,
            stones,
            period_ms,
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
            main_ms: millis(rest, 0)?,
        },
        "byoyomi" => TimeControl::ByoYomi {
            main_ms: millis(rest, 0)?,
            period_ms: millis(rest, 1)?,
            periods: parse_number(rest, 2)?,
        },
        "canadian" => TimeControl::Canadian {
            main_ms: millis(rest, 0)?,
            period_ms: millis(rest, 1)?,
            stones: parse_number(rest, 2)?,
        },
        _ => return Err(GtpError::Syntax),
    })
}

/// `time_left color time stones`: stones 0 means main time; otherwise
/// overtime, with the stones (Canadian) or periods (byo-yomi, as KGS sends
/// them) still to go.
pub fn time_left(clock: &mut Clock, args: &[String]) -> Result<(), GtpError> {
    let color = tengen_gtp::args::parse_color(tengen_gtp::args::arg(args, 0)?)?;
    let left_ms = millis(args, 1)?;
    let count: u32 = parse_number(args, 2)?;
    clock.set_left(color, left_ms, count);
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::words;
    use tengen_core::Color;

    #[test]
    fn canadian_absolute_and_no_limit() {
        assert_eq!(
            time_settings(&words("600 30 5")),
            Ok(TimeControl::Canadian {
                main_ms: 600_000,
                period_ms: 30_000,
                stones: 5
            })
        );
        assert_eq!(
            time_settings(&words("300 0 0")),
            Ok(TimeControl::Absolute { main_ms: 300_000 })
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
                main_ms: 60_000,
                period_ms: 10_000,
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
        let control = kgs_time_settings(&words("byoyomi 60 10 3")).unwrap();
        let mut clock = Clock::new(control);
        time_left(&mut clock, &words("white 8 2")).unwrap();
        let w = clock.side(Color::White);
        assert!(w.in_overtime(control));
        assert_eq!(w.periods, 2);
        assert_eq!(w.period_ms, 8_000);
        assert_eq!(
            time_left(&mut clock, &words("x 8 2")),
            Err(GtpError::InvalidColor)
        );
    }

    /// Times beyond what a clock holds saturate instead of failing.
    #[test]
    fn huge_times_saturate() {
        assert_eq!(
            time_settings(&words("1e20 0 0")),
            Ok(TimeControl::Absolute { main_ms: i64::MAX })
        );
        assert_eq!(time_settings(&words("inf 0 0")), Err(GtpError::Syntax));
    }
}
