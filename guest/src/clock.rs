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

#[cfg(test)]
mod tests {
    use super::*;

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
