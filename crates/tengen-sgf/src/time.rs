//! A record's time control: `TM`, the main time in seconds, and `OT`, the
//! overtime in the words KGS and OGS write (`5x30 byo-yomi`, `25/300
//! Canadian`). SGF leaves `OT` free text; what neither form says (Fischer,
//! an editor's own words) reads as no known control, and the record is
//! replayed all the same. Per-move times (`BL`, `WL`) are left out.

use tengen_core::{TimeControl, seconds_to_ms, whole_seconds};

/// `TM` and `OT` for `control` (`None` where a property has nothing to
/// say): whole seconds, as the servers write them.
pub fn time_properties(control: TimeControl) -> (Option<String>, Option<String>) {
    let seconds = |ms: i64| whole_seconds(ms).to_string();
    match control {
        TimeControl::None | TimeControl::Fischer { .. } => (None, None),
        TimeControl::Absolute { main_ms } => (Some(seconds(main_ms)), None),
        TimeControl::ByoYomi {
            main_ms,
            periods,
            period_ms,
        } => (
            Some(seconds(main_ms)),
            Some(format!("{periods}x{} byo-yomi", seconds(period_ms))),
        ),
        TimeControl::Canadian {
            main_ms,
            stones,
            period_ms,
        } => (
            Some(seconds(main_ms)),
            Some(format!("{stones}/{} Canadian", seconds(period_ms))),
        ),
    }
}

/// The control `TM` and `OT` describe; [`TimeControl::None`] without `TM`,
/// or where `OT` is in words neither KGS nor OGS writes.
pub fn read_time_control(tm: Option<&str>, ot: Option<&str>) -> TimeControl {
    let Some(main_ms) = tm.and_then(millis) else {
        return TimeControl::None;
    };
    let ot = ot.map(str::trim).unwrap_or_default();
    if ot.is_empty() {
        return TimeControl::Absolute { main_ms };
    }
    let (count, rest) = ot.split_once(['x', '/']).unwrap_or_default();
    let (period, kind) = rest.trim().split_once(' ').unwrap_or_default();
    let (Ok(count), Some(period_ms)) = (count.trim().parse::<u32>(), millis(period)) else {
        return TimeControl::None;
    };
    match (ot.contains('x'), kind.trim().to_ascii_lowercase().as_str()) {
        (true, "byo-yomi" | "byoyomi") => TimeControl::ByoYomi {
            main_ms,
            periods: count,
            period_ms,
        },
        (false, "canadian") => TimeControl::Canadian {
            main_ms,
            stones: count,
            period_ms,
        },
        _ => TimeControl::None,
    }
}

/// Seconds (fractions allowed) in milliseconds.
fn millis(text: &str) -> Option<i64> {
    seconds_to_ms(text.trim().parse().ok()?)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_servers_forms_read_back_as_written() {
        for control in [
            TimeControl::Absolute { main_ms: 600_000 },
            TimeControl::ByoYomi {
                main_ms: 1_200_000,
                periods: 5,
                period_ms: 30_000,
            },
            TimeControl::Canadian {
                main_ms: 0,
                stones: 25,
                period_ms: 300_000,
            },
        ] {
            let (tm, ot) = time_properties(control);
            assert_eq!(
                read_time_control(tm.as_deref(), ot.as_deref()),
                control,
                "{tm:?} {ot:?}"
            );
        }
        let (tm, ot) = time_properties(TimeControl::ByoYomi {
            main_ms: 1_200_000,
            periods: 5,
            period_ms: 30_000,
        });
        assert_eq!(
            (tm.as_deref(), ot.as_deref()),
            (Some("1200"), Some("5x30 byo-yomi"))
        );
        assert_eq!(time_properties(TimeControl::None), (None, None));
    }

    /// Real records' `OT` as KGS and OGS write them, and words no server
    /// writes, which read as no control rather than a wrong one.
    #[test]
    fn other_words_are_no_known_control() {
        let read = |tm, ot| read_time_control(Some(tm), ot);
        assert_eq!(
            read("300", Some("3x30 byo-yomi")),
            TimeControl::ByoYomi {
                main_ms: 300_000,
                periods: 3,
                period_ms: 30_000
            }
        );
        assert_eq!(
            read("0", Some("25/600 Canadian")),
            TimeControl::Canadian {
                main_ms: 0,
                stones: 25,
                period_ms: 600_000
            }
        );
        assert_eq!(
            read("1800", None),
            TimeControl::Absolute { main_ms: 1_800_000 }
        );
        assert_eq!(read("1800", Some("30 fischer")), TimeControl::None);
        assert_eq!(read("1800", Some("1 moves / 30 sec")), TimeControl::None);
        assert_eq!(read("1800", Some("5x30 Canadian")), TimeControl::None);
        assert_eq!(read("ten minutes", None), TimeControl::None);
        assert_eq!(
            read_time_control(None, Some("5x30 byo-yomi")),
            TimeControl::None
        );
    }
}
