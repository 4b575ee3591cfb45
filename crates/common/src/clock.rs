//! Timestamps for cases and deliveries: RFC 3339, UTC, always millisecond precision.
//!
//! The fixed width makes text order equal time order, so SQLite can compare and sort the stored
//! strings directly (`next_attempt_at <= ?now`, oldest waiting first); it is the same shape as
//! SQLite's own `strftime('%Y-%m-%dT%H:%M:%fZ')`.

use std::time::Duration;

use time::format_description::FormatItem;
use time::macros::format_description;
use time::OffsetDateTime;

const STAMP: &[FormatItem<'static>] =
    format_description!("[year]-[month]-[day]T[hour]:[minute]:[second].[subsecond digits:3]Z");

/// The current time as a stored timestamp.
pub fn now() -> String {
    format(OffsetDateTime::now_utc())
}

/// The time `delay` from now as a stored timestamp.
pub fn after(delay: Duration) -> String {
    format(OffsetDateTime::now_utc() + delay)
}

/// Formats a UTC instant the way every stored timestamp is written.
pub fn format(at: OffsetDateTime) -> String {
    at.to_offset(time::UtcOffset::UTC).format(STAMP).expect("a UTC date within year 9999 always formats")
}

/// Whole seconds since the Unix epoch, as the `webhook-timestamp` header wants.
pub fn unix_seconds() -> i64 {
    OffsetDateTime::now_utc().unix_timestamp()
}

/// Parses a stored timestamp back (any RFC 3339 is accepted).
pub fn parse(stamp: &str) -> Option<OffsetDateTime> {
    OffsetDateTime::parse(stamp, &time::format_description::well_known::Rfc3339).ok()
}

/// How long from now until a stored timestamp: zero when it is past, `None` when it does not
/// read. What a job sleeps before its next due time.
pub fn until(stamp: &str) -> Option<Duration> {
    parse(stamp).map(|at| (at - OffsetDateTime::now_utc()).try_into().unwrap_or(Duration::ZERO))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stamps_have_fixed_width_utc_and_milliseconds() {
        let at = OffsetDateTime::from_unix_timestamp(1_700_000_000).unwrap();
        assert_eq!(format(at), "2023-11-14T22:13:20.000Z");
        assert_eq!(parse("2023-11-14T22:13:20.000Z"), Some(at));
    }

    #[test]
    fn later_stamps_sort_after_earlier_ones_as_text() {
        let first = now();
        let later = after(Duration::from_millis(1500));
        assert!(later > first, "{later} should sort after {first}");
    }

    #[test]
    fn until_a_past_time_is_zero_and_until_a_later_one_is_the_gap() {
        assert_eq!(until("2000-01-01T00:00:00.000Z"), Some(Duration::ZERO));
        let gap = until(&after(Duration::from_secs(60))).unwrap();
        assert!(gap > Duration::from_secs(59) && gap <= Duration::from_secs(60), "{gap:?}");
        assert_eq!(until("not a time"), None);
    }
}
