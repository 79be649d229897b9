//! Dates and timestamps for the datasets, computed without a date library.

/// The proleptic Gregorian date `days` days after 1970-01-01, as `(year, month, day)`.
pub fn civil_from_days(days: i64) -> (i64, u32, u32) {
    // Shift the epoch to 0000-03-01 so leap days fall at the end of a 400-year era.
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097); // day of era, 0..=146096
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365; // 0..=399
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100); // 0..=365, from March 1
    let mp = (5 * doy + 2) / 153; // month from March, 0..=11
    let day = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let month = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    let year = yoe + era * 400 + i64::from(month <= 2);
    (year, month, day)
}

/// `YYYY-MM-DD` for a day count since 1970-01-01.
pub fn date(days: i64) -> String {
    let (y, m, d) = civil_from_days(days);
    format!("{y:04}-{m:02}-{d:02}")
}

/// `YYYY-MM-DDTHH:MM:SSZ` for seconds since 1970-01-01T00:00:00Z.
pub fn timestamp(seconds: i64) -> String {
    let days = seconds.div_euclid(86_400);
    let s = seconds.rem_euclid(86_400);
    format!(
        "{}T{:02}:{:02}:{:02}Z",
        date(days),
        s / 3600,
        s % 3600 / 60,
        s % 60
    )
}

/// Days from 1970-01-01 to 2025-01-01, the start of every generated time range.
pub const DAY_2025_01_01: i64 = 20_089;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn known_dates() {
        assert_eq!(date(0), "1970-01-01");
        assert_eq!(date(DAY_2025_01_01), "2025-01-01");
        assert_eq!(date(DAY_2025_01_01 + 59), "2025-03-01");
        assert_eq!(date(11_016), "2000-02-29");
        assert_eq!(date(-1), "1969-12-31");
        assert_eq!(timestamp(1_700_000_000), "2023-11-14T22:13:20Z");
    }

    #[test]
    fn consecutive_days_are_consecutive_dates() {
        let mut prev = civil_from_days(DAY_2025_01_01 - 1);
        for d in DAY_2025_01_01..DAY_2025_01_01 + 800 {
            let cur = civil_from_days(d);
            let next_day = cur.2 == prev.2 + 1 && cur.1 == prev.1 && cur.0 == prev.0;
            let next_month = cur.2 == 1 && (cur.1 == prev.1 + 1 || (cur.1 == 1 && prev.1 == 12));
            assert!(next_day || next_month, "{prev:?} -> {cur:?}");
            prev = cur;
        }
    }
}
