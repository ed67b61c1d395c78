//! The time now (the store's clock), and the day of a time as SGF writes it (`DT[2025-03-14]`, in UTC): the
//! civil calendar's arithmetic (Howard Hinnant's `civil_from_days`), a few
//! lines where a date crate would be a dependency for one function.

pub use tengen_store::now_ms;

/// Milliseconds in a day.
const DAY_MS: i64 = 86_400_000;

/// The UTC date of `ms` (milliseconds since 1970-01-01), `YYYY-MM-DD`.
pub fn sgf_date(ms: i64) -> String {
    // Days since 0000-03-01, in 400-year eras of 146,097 days.
    let z = ms.div_euclid(DAY_MS) + 719_468;
    let era = z.div_euclid(146_097);
    let day_of_era = z - era * 146_097;
    let year_of_era =
        (day_of_era - day_of_era / 1460 + day_of_era / 36_524 - day_of_era / 146_096) / 365;
    let day_of_year = day_of_era - (365 * year_of_era + year_of_era / 4 - year_of_era / 100);
    // Months from March: January and February end the year before.
    let mp = (5 * day_of_year + 2) / 153;
    let day = day_of_year - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = year_of_era + era * 400 + i64::from(month <= 2);
    format!("{year:04}-{month:02}-{day:02}")
}

#[cfg(test)]
mod tests {
    use super::sgf_date;

    #[test]
    fn dates_of_known_days() {
        assert_eq!(sgf_date(0), "1970-01-01");
        assert_eq!(sgf_date(86_399_999), "1970-01-01");
        assert_eq!(sgf_date(86_400_000), "1970-01-02");
        assert_eq!(sgf_date(-1), "1969-12-31");
        // 2000 is a leap year, 1900 and 2100 are not.
        assert_eq!(sgf_date(951_782_400_000), "2000-02-29");
        assert_eq!(sgf_date(951_868_800_000), "2000-03-01");
        assert_eq!(sgf_date(4_107_456_000_000), "2100-02-28");
        assert_eq!(sgf_date(4_107_542_400_000), "2100-03-01");
        assert_eq!(sgf_date(1_700_000_000_000), "2023-11-14");
        assert_eq!(sgf_date(1_735_689_599_999), "2024-12-31");
    }
}
