//! A date of birth (issue 41, "Adults only"): `YYYY-MM-DD`, a real day, not
//! in the future and not before 1900; and who counts as an adult.

use chrono::{Datelike, NaiveDate};

use super::Invalid;

/// The age from which a person may use the community features.
pub const ADULT_AGE: u32 = 18;

/// A checked date of birth.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct DateOfBirth(NaiveDate);

impl DateOfBirth {
    /// `YYYY-MM-DD`, a day that exists, between 1900-01-01 and `today`.
    pub fn parse(raw: &str, today: NaiveDate) -> Result<Self, Invalid> {
        let raw = raw.trim();
        let well_formed = raw.len() == 10
            && raw.char_indices().all(|(i, c)| {
                if i == 4 || i == 7 {
                    c == '-'
                } else {
                    c.is_ascii_digit()
                }
            });
        let date = well_formed
            .then(|| NaiveDate::parse_from_str(raw, "%Y-%m-%d").ok())
            .flatten()
            .ok_or_else(|| Invalid::new("Please enter your date of birth as YYYY-MM-DD"))?;
        if date > today {
            return Err(Invalid::new("Your date of birth cannot be in the future"));
        }
        if date.year() < 1900 {
            return Err(Invalid::new("Please check the year of your date of birth"));
        }
        Ok(Self(date))
    }

    pub fn date(self) -> NaiveDate {
        self.0
    }
}

/// Full years between `born` and `today` (a birthday on 29 February counts
/// on 1 March in other years).
pub fn age_on(born: NaiveDate, today: NaiveDate) -> u32 {
    let mut years = today.year() - born.year();
    if (today.month(), today.day()) < (born.month(), born.day()) {
        years -= 1;
    }
    u32::try_from(years).unwrap_or(0)
}

/// Whether someone born on `born` is an adult on `today`.
pub fn is_adult(born: NaiveDate, today: NaiveDate) -> bool {
    age_on(born, today) >= ADULT_AGE
}

/// The latest date of birth of an adult on `today`: `born <= this` exactly
/// when [`is_adult`], so a query can ask it of a date column.
pub fn latest_adult_birth_date(today: NaiveDate) -> NaiveDate {
    let year = today.year() - ADULT_AGE as i32;
    // 29 February has no twin in most years: the 28th is the last day whose
    // eighteenth birthday has come (a leap-day child turns 18 on 1 March).
    NaiveDate::from_ymd_opt(year, today.month(), today.day())
        .or_else(|| NaiveDate::from_ymd_opt(year, today.month(), today.day() - 1))
        .expect("the day before 29 February exists in every year")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn day(text: &str) -> NaiveDate {
        NaiveDate::parse_from_str(text, "%Y-%m-%d").unwrap()
    }

    #[test]
    fn eighteen_starts_on_the_birthday() {
        let born = day("2008-12-08");
        assert!(!is_adult(born, day("2026-12-07")));
        assert!(is_adult(born, day("2026-12-08")));
        assert_eq!(age_on(born, day("2026-12-07")), 17);
    }

    #[test]
    fn the_latest_adult_birth_date_agrees_with_is_adult_on_every_day() {
        // Four years of "today" (one leap day among them), each against the
        // birth dates around its cutoff.
        let mut today = day("2026-01-01");
        while today < day("2030-01-01") {
            let cutoff = latest_adult_birth_date(today);
            assert!(is_adult(cutoff, today), "{cutoff} on {today}");
            let after = cutoff.succ_opt().unwrap();
            assert!(!is_adult(after, today), "{after} on {today}");
            today = today.succ_opt().unwrap();
        }
        assert_eq!(
            latest_adult_birth_date(day("2028-02-29")),
            day("2010-02-28")
        );
    }

    #[test]
    fn a_leap_day_birthday_counts_on_the_first_of_march() {
        let born = day("2008-02-29");
        assert!(!is_adult(born, day("2026-02-28")));
        assert!(is_adult(born, day("2026-03-01")));
    }

    #[test]
    fn only_real_past_days_in_the_iso_form_are_dates_of_birth() {
        let today = day("2026-12-08");
        assert_eq!(
            DateOfBirth::parse("1990-05-17", today).unwrap().date(),
            day("1990-05-17")
        );
        for bad in [
            "",
            "1990-5-17",
            "17/05/1990",
            "1990-02-30",
            "19900517",
            "1990-05-17T00:00",
            "+990-05-17",
            "2027-01-01",
            "1899-12-31",
        ] {
            assert!(DateOfBirth::parse(bad, today).is_err(), "{bad:?}");
        }
    }
}
