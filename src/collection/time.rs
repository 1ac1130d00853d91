//! Dates for the collection's history: seconds since 1970 (UTC), written
//! `2026-11-23 14:05 UTC`, and `--since` dates read as `YYYY-MM-DD`.

/// Now, in seconds since 1970 (0 if the clock is before it).
pub fn now() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| i64::try_from(d.as_secs()).unwrap_or(i64::MAX))
}

/// Days since 1970-01-01 of a civil date (proleptic Gregorian).
fn days_from_civil(y: i64, m: i64, d: i64) -> i64 {
    let y = if m <= 2 { y - 1 } else { y };
    let era = y.div_euclid(400);
    let yoe = y - era * 400;
    let mp = (m + 9) % 12;
    let doy = (153 * mp + 2) / 5 + d - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    era * 146_097 + doe - 719_468
}

/// The civil date of a day count since 1970-01-01.
fn civil_from_days(z: i64) -> (i64, i64, i64) {
    let z = z + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    (yoe + era * 400 + i64::from(m <= 2), m, d)
}

/// `2026-11-23 14:05 UTC`.
pub fn format(secs: i64) -> String {
    let (y, m, d) = civil_from_days(secs.div_euclid(86_400));
    let s = secs.rem_euclid(86_400);
    format!(
        "{y:04}-{m:02}-{d:02} {:02}:{:02} UTC",
        s / 3600,
        s / 60 % 60
    )
}

/// The first second of a `YYYY-MM-DD` day (UTC).
pub fn parse_date(text: &str) -> Result<i64, String> {
    let bad = || format!("\"{text}\" is not a date; write it as YYYY-MM-DD, e.g. 2026-11-23");
    let parts: Vec<&str> = text.trim().split('-').collect();
    let [y, m, d] = parts.as_slice() else {
        return Err(bad());
    };
    let num = |s: &str, len: usize| {
        (s.len() == len && s.bytes().all(|b| b.is_ascii_digit()))
            .then(|| s.parse::<i64>().ok())
            .flatten()
    };
    let (Some(y), Some(m), Some(d)) = (num(y, 4), num(m, 2), num(d, 2)) else {
        return Err(bad());
    };
    let leap = (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
    let days = [
        31,
        if leap { 29 } else { 28 },
        31,
        30,
        31,
        30,
        31,
        31,
        30,
        31,
        30,
        31,
    ];
    if !(1..=12).contains(&m) || d < 1 || d > days[(m - 1) as usize] {
        return Err(bad());
    }
    Ok(days_from_civil(y, m, d) * 86_400)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dates_round_trip_and_bad_ones_are_refused() {
        assert_eq!(format(0), "1970-01-01 00:00 UTC");
        // 2026-11-23 14:05 UTC, worked out by hand: 20,780 days.
        let t = 20_780 * 86_400 + 14 * 3600 + 5 * 60;
        assert_eq!(format(t), "2026-11-23 14:05 UTC");
        assert_eq!(parse_date("2026-11-23").unwrap(), 20_780 * 86_400);
        assert_eq!(parse_date("2024-02-29").unwrap(), 19_782 * 86_400);
        for bad in [
            "2023-02-29",
            "2026-13-01",
            "26-11-23",
            "yesterday",
            "2026-1-5",
        ] {
            assert!(parse_date(bad).is_err(), "{bad}");
        }
        for day in [-800_000i64, -1, 0, 59, 60, 365, 10_957, 20_415, 2_932_896] {
            let (y, m, d) = civil_from_days(day);
            assert_eq!(days_from_civil(y, m, d), day);
        }
    }
}
