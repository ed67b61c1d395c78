//! Clocks as GTP says them, both ways: the engine reads `time_settings`,
//! `kgs-time_settings` and `time_left` (through [`crate::Request`]); a
//! controller (`tengen match`) writes them, as KGS and gogui-twogtp do, to
//! tell an engine its time control and, before each move, its time left.
//!
//! GTP 2's own `time_settings` knows absolute time and Canadian overtime;
//! Japanese byo-yomi needs KGS's `kgs-time_settings`, and an engine that
//! knows only the standard command is told byo-yomi as Canadian overtime of
//! one stone a period (it keeps each period, but learns of no lost ones).
//! Fischer time has no GTP command at all: an engine is told only its time
//! left. Seconds are written whole, as GNU Go reads them; the time left is
//! rounded down, so that no engine is told more than it has.

use crate::args::{arg, parse_millis, parse_number};
use crate::response::GtpError;
use tengen_core::{Color, SideClock, TimeControl, whole_seconds as seconds};

/// `time_settings main_time byo_yomi_time byo_yomi_stones`: Canadian
/// overtime; no overtime is absolute time, and the spec's "byo-yomi time
/// without stones" means no time limit.
///
/// # Errors
/// [`GtpError::Syntax`] for a missing or unreadable argument.
pub fn parse_time_settings(args: &[String]) -> Result<TimeControl, GtpError> {
    let main_ms = parse_millis(args, 0)?;
    let period_ms = parse_millis(args, 1)?;
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
/// canadian main period stones` (the kind in any case), also the words of
/// `tengen match --clock`.
///
/// # Errors
/// [`GtpError::Syntax`] for an unknown kind or a missing or unreadable
/// argument.
pub fn parse_kgs_time_settings(args: &[String]) -> Result<TimeControl, GtpError> {
    let kind = arg(args, 0)?.to_ascii_lowercase();
    let rest = args.get(1..).unwrap_or_default();
    Ok(match kind.as_str() {
        "none" => TimeControl::None,
        "absolute" => TimeControl::Absolute {
            main_ms: parse_millis(rest, 0)?,
        },
        "byoyomi" => TimeControl::ByoYomi {
            main_ms: parse_millis(rest, 0)?,
            period_ms: parse_millis(rest, 1)?,
            periods: parse_number(rest, 2)?,
        },
        "canadian" => TimeControl::Canadian {
            main_ms: parse_millis(rest, 0)?,
            period_ms: parse_millis(rest, 1)?,
            stones: parse_number(rest, 2)?,
        },
        _ => return Err(GtpError::Syntax),
    })
}

/// `kgs-time_settings` for `control`; `None` for Fischer time, which it
/// cannot say.
pub fn kgs_time_settings(control: TimeControl) -> Option<String> {
    Some(match control {
        TimeControl::None => "kgs-time_settings none".to_string(),
        TimeControl::Absolute { main_ms } => {
            format!("kgs-time_settings absolute {}", seconds(main_ms))
        }
        TimeControl::ByoYomi {
            main_ms,
            periods,
            period_ms,
        } => format!(
            "kgs-time_settings byoyomi {} {} {periods}",
            seconds(main_ms),
            seconds(period_ms)
        ),
        TimeControl::Canadian {
            main_ms,
            stones,
            period_ms,
        } => format!(
            "kgs-time_settings canadian {} {} {stones}",
            seconds(main_ms),
            seconds(period_ms)
        ),
        TimeControl::Fischer { .. } => return None,
    })
}

/// GTP 2's `time_settings` for `control`, byo-yomi as Canadian overtime of
/// one stone a period; `None` for Fischer time.
pub fn time_settings(control: TimeControl) -> Option<String> {
    let (main_ms, period_ms, stones) = match control {
        // The spec's "no time limit": a period without stones.
        TimeControl::None => (0, 1000, 0),
        TimeControl::Absolute { main_ms } => (main_ms, 0, 0),
        TimeControl::ByoYomi {
            main_ms, period_ms, ..
        } => (main_ms, period_ms, 1),
        TimeControl::Canadian {
            main_ms,
            stones,
            period_ms,
        } => (main_ms, period_ms, stones),
        TimeControl::Fischer { .. } => return None,
    };
    Some(format!(
        "time_settings {} {} {stones}",
        seconds(main_ms),
        seconds(period_ms)
    ))
}

/// `time_left color seconds count` for `side` under `control`: the main
/// time left and 0; in overtime, the current period's time and the periods
/// (byo-yomi) or stones (Canadian) left. `kgs`: whether the engine was told
/// the control by `kgs-time_settings` (else byo-yomi was told as Canadian
/// overtime of one stone, and the count is that stone).
pub fn time_left(color: Color, side: &SideClock, control: TimeControl, kgs: bool) -> String {
    let down = |ms: i64| ms.max(0) / 1000;
    let (ms, count) = if !side.in_overtime(control) {
        (side.main_ms, 0)
    } else {
        match control {
            TimeControl::ByoYomi { .. } if kgs => (side.period_ms, side.periods),
            TimeControl::ByoYomi { .. } => (side.period_ms, 1),
            _ => (side.period_ms, side.stones),
        }
    };
    format!("time_left {} {} {count}", color.name(), down(ms))
}

#[cfg(test)]
mod tests {
    use super::*;
    use tengen_core::Clock;

    fn words(text: &str) -> Vec<String> {
        text.split_whitespace().skip(1).map(String::from).collect()
    }

    /// Every control KGS can say reads back as itself from both commands
    /// where the command can say it.
    #[test]
    fn a_written_control_reads_back() {
        let controls = [
            TimeControl::None,
            TimeControl::Absolute { main_ms: 600_000 },
            TimeControl::ByoYomi {
                main_ms: 300_000,
                periods: 5,
                period_ms: 30_000,
            },
            TimeControl::Canadian {
                main_ms: 0,
                stones: 25,
                period_ms: 300_000,
            },
        ];
        for control in controls {
            let kgs = kgs_time_settings(control).unwrap();
            assert_eq!(parse_kgs_time_settings(&words(&kgs)), Ok(control), "{kgs}");
            let standard = time_settings(control).unwrap();
            let read = parse_time_settings(&words(&standard)).unwrap();
            match control {
                TimeControl::ByoYomi {
                    main_ms, period_ms, ..
                } => assert_eq!(
                    read,
                    TimeControl::Canadian {
                        main_ms,
                        stones: 1,
                        period_ms
                    }
                ),
                _ => assert_eq!(read, control, "{standard}"),
            }
        }
        let fischer = TimeControl::Fischer {
            main_ms: 60_000,
            increment_ms: 5_000,
            max_ms: 0,
        };
        assert_eq!(kgs_time_settings(fischer), None);
        assert_eq!(time_settings(fischer), None);
        assert_eq!(
            parse_kgs_time_settings(&words("kgs-time_settings fischer 60 5")),
            Err(GtpError::Syntax)
        );
    }

    /// The time left is rounded down, and overtime says its period and
    /// count as KGS does.
    #[test]
    fn the_time_left_never_flatters_and_counts_the_overtime() {
        let control = TimeControl::ByoYomi {
            main_ms: 10_000,
            periods: 3,
            period_ms: 30_000,
        };
        let mut clock = Clock::new(control);
        let left =
            |clock: &Clock, kgs| time_left(Color::Black, &clock.side(Color::Black), control, kgs);
        clock.spend(Color::Black, 1_400).unwrap();
        assert_eq!(left(&clock, true), "time_left black 8 0");
        // Into the second period.
        clock.spend(Color::Black, 8_600 + 31_000).unwrap();
        assert_eq!(left(&clock, true), "time_left black 30 2");
        assert_eq!(left(&clock, false), "time_left black 30 1");

        let control = TimeControl::Canadian {
            main_ms: 0,
            stones: 25,
            period_ms: 300_000,
        };
        let mut clock = Clock::new(control);
        clock.spend(Color::White, 20_500).unwrap();
        let side = clock.side(Color::White);
        assert_eq!(
            time_left(Color::White, &side, control, true),
            "time_left white 279 24"
        );
    }
}
