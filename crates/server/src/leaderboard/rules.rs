//! The leaderboard's rules as plain functions: the keyset cursor of a page, contest months, and the moderators' texts.

use chrono::{DateTime, Datelike, NaiveDate, SecondsFormat, TimeZone, Utc};
use uuid::Uuid;

use crate::values::Invalid;

/// Where a leaderboard page ends: the last entry's sort key (score, created_at,
/// id) and its rank, so the next page starts right after it with one index
/// range scan and goes on counting ranks without counting the rows before it.
/// The rank it carries is only what the page shows; a contact fee is always
/// computed again from the entry's current rank (`rank_of`).
#[derive(Debug, Clone, PartialEq)]
pub struct Cursor {
    pub score: f64,
    pub created_at: DateTime<Utc>,
    pub id: Uuid,
    /// The rank of that last entry.
    pub rank: u32,
    /// Its position in the whole order (1-based): equal (score, created_at)
    /// pairs share a rank, positions never repeat.
    pub position: u32,
}

impl Cursor {
    pub fn encode(&self) -> String {
        let raw = format!(
            "{}|{}|{}|{}|{}",
            self.score,
            self.created_at.to_rfc3339_opts(SecondsFormat::Nanos, true),
            self.id,
            self.rank,
            self.position
        );
        data_encoding::BASE64URL_NOPAD.encode(raw.as_bytes())
    }

    pub fn decode(cursor: &str) -> Result<Self, Invalid> {
        Self::parse(cursor).ok_or_else(|| {
            Invalid::query("This page link is invalid. Please start again from the first page.")
        })
    }

    fn parse(cursor: &str) -> Option<Self> {
        let bytes = data_encoding::BASE64URL_NOPAD
            .decode(cursor.as_bytes())
            .ok()?;
        let raw = String::from_utf8(bytes).ok()?;
        let mut parts = raw.split('|');
        let score: f64 = parts.next()?.parse().ok()?;
        let created_at = DateTime::parse_from_rfc3339(parts.next()?)
            .ok()?
            .with_timezone(&Utc);
        let id = Uuid::parse_str(parts.next()?).ok()?;
        let rank: u32 = parts.next()?.parse().ok()?;
        let position: u32 = parts.next()?.parse().ok()?;
        if parts.next().is_some() || !score.is_finite() || rank == 0 || rank > position {
            return None;
        }
        Some(Self {
            score,
            created_at,
            id,
            rank,
            position,
        })
    }
}

/// Ranks for a run of entries in leaderboard order that follows `previous`
/// (the last entry of the page before, if any): rank = 1 + the number of
/// entries ahead, so entries with equal score and created_at share one.
pub fn ranks_after(previous: Option<&Cursor>, keys: &[(f64, DateTime<Utc>)]) -> Vec<(u32, u32)> {
    let mut last = previous.map(|c| ((c.score, c.created_at), c.rank, c.position));
    keys.iter()
        .map(|&key| {
            let (rank, position) = match last {
                None => (1, 1),
                Some((last_key, last_rank, last_position)) => {
                    let position = last_position + 1;
                    if last_key == key {
                        (last_rank, position)
                    } else {
                        (position, position)
                    }
                }
            };
            last = Some((key, rank, position));
            (rank, position)
        })
        .collect()
}

/// The contest month of an instant, `YYYY-MM` in UTC.
pub fn month_of(at: DateTime<Utc>) -> String {
    format!("{:04}-{:02}", at.year(), at.month())
}

/// A `YYYY-MM` month, checked.
pub fn parse_month(raw: &str) -> Result<(i32, u32), Invalid> {
    let invalid = || Invalid::query("The month must look like 2026-11 (year and month).");
    let (year, month) = raw.trim().split_once('-').ok_or_else(invalid)?;
    if year.len() != 4 || month.len() != 2 {
        return Err(invalid());
    }
    let year: i32 = year.parse().map_err(|_| invalid())?;
    let month: u32 = month.parse().map_err(|_| invalid())?;
    if !(1..=12).contains(&month) || !(2000..=9999).contains(&year) {
        return Err(invalid());
    }
    Ok((year, month))
}

/// The first instant after the month `YYYY-MM` (when its contest closes).
pub fn month_end(raw: &str) -> Result<DateTime<Utc>, Invalid> {
    let (year, month) = parse_month(raw)?;
    let (year, month) = if month == 12 {
        (year + 1, 1)
    } else {
        (year, month + 1)
    };
    let date = NaiveDate::from_ymd_opt(year, month, 1).expect("a valid first of month");
    Ok(Utc.from_utc_datetime(&date.and_hms_opt(0, 0, 0).expect("midnight")))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cursors_round_trip_exactly_and_refuse_tampering() {
        let cursor = Cursor {
            score: 9.7,
            created_at: Utc.timestamp_opt(1_790_000_000, 123_456_789).unwrap(),
            id: Uuid::new_v4(),
            rank: 20,
            position: 21,
        };
        assert_eq!(Cursor::decode(&cursor.encode()).unwrap(), cursor);
        for bad in [
            "",
            "abc",
            "!!!",
            &data_encoding::BASE64URL_NOPAD.encode(b"1|x|y|1|1"),
        ] {
            assert!(Cursor::decode(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn equal_score_and_time_share_a_rank_and_the_next_one_skips() {
        let t0 = Utc.timestamp_opt(1_000, 0).unwrap();
        let t1 = Utc.timestamp_opt(2_000, 0).unwrap();
        let keys = [(9.9, t0), (9.5, t0), (9.5, t0), (9.5, t1), (8.0, t0)];
        let ranks: Vec<u32> = ranks_after(None, &keys).into_iter().map(|r| r.0).collect();
        assert_eq!(ranks, [1, 2, 2, 4, 5]);
        // A later page goes on from the cursor.
        let previous = Cursor {
            score: 8.0,
            created_at: t0,
            id: Uuid::nil(),
            rank: 5,
            position: 5,
        };
        let next = ranks_after(Some(&previous), &[(8.0, t0), (7.0, t0)]);
        assert_eq!(next, [(5, 6), (7, 7)]);
    }

    #[test]
    fn months_parse_and_end_at_the_next_first() {
        assert_eq!(
            month_of(Utc.with_ymd_and_hms(2026, 1, 31, 23, 59, 59).unwrap()),
            "2026-01"
        );
        assert_eq!(
            month_end("2026-12").unwrap(),
            Utc.with_ymd_and_hms(2027, 1, 1, 0, 0, 0).unwrap()
        );
        for bad in ["2026-13", "2026-1", "26-01", "2026/01", ""] {
            assert!(parse_month(bad).is_err(), "{bad}");
        }
    }
}
