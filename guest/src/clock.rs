//! Time, as the host passes it in. The guest never reads a clock: `now` and the host's zone arrive in
//! the call's context, so every result is reproducible.

use jiff::Timestamp;
use jiff::civil::{Date, DateTime};
use jiff::tz::TimeZone;

use crate::error::{Error, Result};

/// The instant of the call and the zone in which "today" is judged.
#[derive(Debug, Clone)]
pub struct Clock {
    pub now: Timestamp,
    pub zone: TimeZone,
    /// The IANA name of `zone` (`UTC` when nothing better is known).
    pub zone_name: String,
    /// Set when the state's own `timezone` was unusable and the host's zone was used instead.
    pub warning: Option<String>,
}

impl Clock {
    /// `now` must be RFC 3339 with an offset. The zone is the state's `timezone` when it names a known IANA
    /// zone, else the host's, else UTC.
    pub fn new(now: &str, state_zone: Option<&str>, host_zone: Option<&str>) -> Result<Clock> {
        let now = parse_now(now)?;
        let mut warning = None;
        if let Some(name) = state_zone.map(str::trim).filter(|s| !s.is_empty()) {
            match jiff::tz::db().get(name) {
                Ok(zone) => {
                    return Ok(Clock {
                        now,
                        zone,
                        zone_name: name.to_owned(),
                        warning,
                    });
                }
                Err(_) => {
                    warning = Some(format!(
                        "state.json timezone {name:?} is not a known IANA zone; using the host's zone"
                    ))
                }
            }
        }
        let (zone, zone_name) = host_zone
            .map(str::trim)
            .filter(|s| !s.is_empty())
            .and_then(|name| jiff::tz::db().get(name).ok().map(|z| (z, name.to_owned())))
            .unwrap_or_else(|| (TimeZone::UTC, "UTC".to_owned()));
        Ok(Clock {
            now,
            zone,
            zone_name,
            warning,
        })
    }

    /// `now` as written into the documents.
    pub fn stamp(&self) -> String {
        stamp(self.now)
    }

    /// The user's local calendar date of `now`.
    pub fn today(&self) -> Date {
        self.now.to_zoned_datetime(self.zone.clone()).date()
    }

    /// The user's local calendar date of a stored timestamp.
    pub fn local_date_of(&self, ts: Timestamp) -> Date {
        ts.to_zoned_datetime(self.zone.clone()).date()
    }
}

/// Parse the host-supplied `now` (RFC 3339 with an offset).
pub fn parse_now(now: &str) -> Result<Timestamp> {
    now.trim().parse::<Timestamp>().map_err(|e| {
        Error::invalid(
            "now",
            format!(
                "{now:?} is not an RFC 3339 time with an offset (e.g. 2026-11-29T09:00:00Z): {e}"
            ),
        )
    })
}

/// RFC 3339 in UTC with whole seconds and a numeric offset (`2026-11-29T09:00:00+00:00`): what Python's
/// `datetime.fromisoformat` reads on every version, so the original's helpers can read our files.
pub fn stamp(ts: Timestamp) -> String {
    ts.to_zoned_datetime(TimeZone::UTC)
        .strftime("%Y-%m-%dT%H:%M:%S%:z")
        .to_string()
}

/// Read a timestamp from a stored document: RFC 3339 with an offset, or (as the original writes on some
/// platforms) a naive date-time or a bare date, both read as UTC. `None` if it is neither.
pub fn parse_stored(text: &str) -> Option<Timestamp> {
    let text = text.trim();
    utc_seconds(text).or_else(|| parse_general(text))
}

/// [`parse_stored`] by the general parsers (`text` trimmed).
fn parse_general(text: &str) -> Option<Timestamp> {
    if let Ok(ts) = text.parse::<Timestamp>() {
        return Some(ts);
    }
    if let Ok(dt) = text.parse::<DateTime>() {
        return dt
            .to_zoned_datetime(TimeZone::UTC)
            .ok()
            .map(|z| z.timestamp());
    }
    if let Ok(d) = text.parse::<Date>() {
        return d
            .to_zoned_datetime(TimeZone::UTC)
            .ok()
            .map(|z| z.timestamp());
    }
    None
}

/// `YYYY-MM-DDTHH:MM:SSZ`, the form registries and the original write (`filter` reads one per
/// candidate), read without the general parser: the instant `text.parse::<Timestamp>()` gives, or
/// `None` for any other text, which then takes the general path. Only years 1000–9998 and seconds
/// 00–59 (a leap second `60` is left to jiff, which reads it as 59).
fn utc_seconds(text: &str) -> Option<Timestamp> {
    let b: &[u8; 20] = text.as_bytes().try_into().ok()?;
    if b[4] != b'-'
        || b[7] != b'-'
        || b[10] != b'T'
        || b[13] != b':'
        || b[16] != b':'
        || b[19] != b'Z'
    {
        return None;
    }
    let num = |at: usize, digits: usize| -> Option<i64> {
        b[at..at + digits].iter().try_fold(0i64, |n, &d| {
            d.is_ascii_digit().then(|| n * 10 + i64::from(d - b'0'))
        })
    };
    let (y, m, d) = (num(0, 4)?, num(5, 2)?, num(8, 2)?);
    let (h, mi, s) = (num(11, 2)?, num(14, 2)?, num(17, 2)?);
    let leap = y % 4 == 0 && (y % 100 != 0 || y % 400 == 0);
    let month_days = match m {
        2 if leap => 29,
        2 => 28,
        4 | 6 | 9 | 11 => 30,
        _ => 31,
    };
    if !(1000..=9998).contains(&y)
        || !(1..=12).contains(&m)
        || !(1..=month_days).contains(&d)
        || h > 23
        || mi > 59
        || s > 59
    {
        return None;
    }
    // Days since 1970-01-01 of the proleptic Gregorian date (H. Hinnant's `days_from_civil`).
    let y = if m <= 2 { y - 1 } else { y };
    let era = y.div_euclid(400);
    let yoe = y - era * 400;
    let doy = (153 * ((m + 9) % 12) + 2) / 5 + d - 1;
    let days = era * 146_097 + yoe * 365 + yoe / 4 - yoe / 100 + doy - 719_468;
    Timestamp::from_second(days * 86_400 + h * 3_600 + mi * 60 + s).ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The short path reads every date-time it takes as the general parsers do, and leaves every
    /// other text to them: each day of 1968–2104 and of the years around century and era turns (leap
    /// and not), at varied times, and texts one step off the form (bad days, months, hours, minutes,
    /// seconds, separators, case, lengths).
    #[test]
    fn utc_seconds_reads_as_the_general_parsers_do() {
        let mut checked = 0;
        let years = (1968..=2104).chain([
            1000, 1600, 1700, 1899, 1900, 1999, 2000, 2400, 9000, 9998, 9999,
        ]);
        for y in years {
            for m in 0..=13 {
                for d in 0..=32 {
                    let t = (y * 7 + m * 13 + d * 31) as usize;
                    let (h, mi, s) = (t % 24, (t * 7) % 60, (t * 11) % 60);
                    for text in [
                        format!("{y:04}-{m:02}-{d:02}T{h:02}:{mi:02}:{s:02}Z"),
                        format!("{y:04}-{m:02}-{d:02}T23:59:59Z"),
                        format!("{y:04}-{m:02}-{d:02}T00:00:00Z"),
                    ] {
                        assert_eq!(
                            utc_seconds(&text),
                            utc_seconds(&text).and(parse_general(&text)),
                            "{text}"
                        );
                        if utc_seconds(&text).is_some() {
                            checked += 1;
                        }
                        assert_eq!(parse_stored(&text), parse_general(&text), "{text}");
                    }
                }
            }
        }
        assert!(checked > 100_000, "{checked}");
        for text in [
            "2026-10-01T24:00:00Z",
            "2026-10-01T23:60:00Z",
            "2026-10-01T23:59:60Z",
            "2026-10-01t00:00:00Z",
            "2026-10-01T00:00:00z",
            "2026-10-01 00:00:00Z",
            "2026-10-01T00:00:00+00:00",
            "2026-10-01T00:00:00.5Z",
            "2026-10-01T00:00:00",
            "2026-10-01",
            "2026-1-01T00:00:00Z ",
            "+2026-10-01T00:00:0Z",
            "2026/10/01T00:00:00Z",
            "2026-10-01T00-00-00Z",
            "２026-10-01T00:00:00Z",
            "2026-02-29T00:00:00Z",
            "2024-02-29T00:00:00Z",
            "1900-02-29T12:00:00Z",
            "2000-02-29T12:00:00Z",
            "0999-12-31T23:59:59Z",
            "9999-12-30T00:00:00Z",
            "-0001-01-01T00:00:00Z",
            "",
            "Z",
        ] {
            assert_eq!(parse_stored(text), parse_general(text.trim()), "{text:?}");
        }
        assert_eq!(
            utc_seconds("1970-01-01T00:00:01Z"),
            Some(Timestamp::from_second(1).unwrap())
        );
        assert_eq!(utc_seconds("2026-10-01T00:00:00+00:00"), None);
    }

    #[test]
    fn now_must_have_an_offset() {
        assert!(parse_now("2026-11-29T09:00:00Z").is_ok());
        assert!(parse_now("2026-11-29T17:00:00+08:00").is_ok());
        let err = parse_now("2026-11-29 09:00").unwrap_err();
        assert!(
            matches!(err, Error::InvalidInput { ref field, .. } if field == "now"),
            "{err}"
        );
    }

    #[test]
    fn stamps_are_utc_with_numeric_offset() {
        let ts = parse_now("2026-11-29T17:30:05.123+08:00").unwrap();
        assert_eq!(stamp(ts), "2026-11-29T09:30:05+00:00");
    }

    #[test]
    fn stored_times_accept_naive_and_dates_as_utc() {
        let a = parse_stored("2026-05-01T10:00:00").unwrap();
        assert_eq!(stamp(a), "2026-05-01T10:00:00+00:00");
        let b = parse_stored("2026-05-01").unwrap();
        assert_eq!(stamp(b), "2026-05-01T00:00:00+00:00");
        let c = parse_stored("2026-05-01T10:00:00.123456+02:00").unwrap();
        assert_eq!(stamp(c), "2026-05-01T08:00:00+00:00");
        assert!(parse_stored("yesterday").is_none());
    }

    #[test]
    fn zone_prefers_state_then_host_then_utc() {
        let c = Clock::new(
            "2026-11-29T09:00:00Z",
            Some("Asia/Shanghai"),
            Some("Europe/Berlin"),
        )
        .unwrap();
        assert_eq!(c.zone_name, "Asia/Shanghai");
        let c = Clock::new(
            "2026-11-29T09:00:00Z",
            Some("Mars/Olympus"),
            Some("Europe/Berlin"),
        )
        .unwrap();
        assert_eq!(c.zone_name, "Europe/Berlin");
        assert!(c.warning.is_some());
        let c = Clock::new("2026-11-29T09:00:00Z", None, None).unwrap();
        assert_eq!(c.zone_name, "UTC");
    }

    #[test]
    fn shanghai_midnight_is_still_yesterday_in_utc() {
        // 00:30 in Shanghai on the 30th is 16:30 UTC on the 29th.
        let c = Clock::new("2026-11-29T16:30:00Z", Some("Asia/Shanghai"), None).unwrap();
        assert_eq!(c.today().to_string(), "2026-11-30");
        let c = Clock::new("2026-11-29T16:30:00Z", None, None).unwrap();
        assert_eq!(c.today().to_string(), "2026-11-29");
    }
}
