//! A person's details as they type them: name, email, phone, Instagram
//! handle, location, bio and the display name shown on the leaderboard
//! (docs/spec-rules.md §5, and the leaderboard entry of §3).

use super::text;
use super::{Invalid, chars, present};

/// Longest display name shown on the leaderboard.
pub const MAX_DISPLAY_NAME_CHARS: usize = 50;
/// The spec's bio limit.
pub const MAX_BIO_CHARS: usize = 1000;

/// A full name: 1 to 100 characters after trimming.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FullName(String);

/// An address that passes the sign-in rules and has a dot in its host, at most
/// 255 characters.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Email(String);

/// E.164: an optional +, a first digit 1-9, 2 to 15 digits in all.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Phone(String);

/// An Instagram handle, stored without its leading @.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Instagram(String);

/// A location: 1 to 200 characters after trimming.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Location(String);

/// A bio of at most 1000 characters, line breaks allowed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Bio(String);

/// A trimmed, non-empty display name.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DisplayName(String);

macro_rules! as_str {
    ($($name:ident),*) => {$(
        impl $name {
            pub fn as_str(&self) -> &str {
                &self.0
            }
        }
    )*};
}
as_str!(FullName, Email, Phone, Instagram, Location, Bio);

fn invalid(message: &'static str) -> Invalid {
    Invalid::new(message)
}

/// GoTrue's email syntax (`validateEmail` in `internal/api/mail.go`, which
/// calls `checkmail.ValidateFormat`), the regular expression
/// ``^[a-zA-Z0-9.!#$%&'*+/=?^_`{|}~-]+@[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?(?:\.[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?)*$``
/// written out: a local part of those characters, one `@`, and a host of
/// dot-separated labels of 1 to 63 letters, digits and inner hyphens. A host
/// without a dot (`ada@localhost`) passes, as in GoTrue.
pub fn is_valid_email(email: &str) -> bool {
    let Some((local, host)) = email.split_once('@') else {
        return false;
    };
    let local_ok = !local.is_empty()
        && local
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b".!#$%&'*+/=?^_`{|}~-".contains(&b));
    let label_ok = |label: &str| {
        let bytes = label.as_bytes();
        (1..=63).contains(&bytes.len())
            && bytes[0].is_ascii_alphanumeric()
            && bytes[bytes.len() - 1].is_ascii_alphanumeric()
            && bytes
                .iter()
                .all(|b| b.is_ascii_alphanumeric() || *b == b'-')
    };
    local_ok && host.split('.').all(label_ok)
}

impl FullName {
    pub fn parse(raw: Option<&str>) -> Result<Self, Invalid> {
        let value = present(raw).ok_or_else(|| invalid("Full name is required"))?;
        if chars(value) > 100 {
            return Err(invalid("Full name must be less than 100 characters"));
        }
        Ok(Self(value.to_owned()))
    }
}

impl Email {
    pub fn parse(raw: Option<&str>) -> Result<Self, Invalid> {
        let value = raw.unwrap_or_default().trim();
        let host_has_dot = value
            .rsplit_once('@')
            .is_some_and(|(_, host)| host.contains('.'));
        if !is_valid_email(value) || !host_has_dot {
            return Err(invalid("Invalid email address"));
        }
        if chars(value) > 255 {
            return Err(invalid("Email must be less than 255 characters"));
        }
        Ok(Self(value.to_owned()))
    }

    /// The account's own verified address, which the sign-up rules already
    /// checked.
    pub fn of_account(address: &str) -> Self {
        Self(address.to_owned())
    }
}

impl Phone {
    pub fn parse(raw: Option<&str>) -> Result<Option<Self>, Invalid> {
        let Some(value) = present(raw) else {
            return Ok(None);
        };
        let digits = value.strip_prefix('+').unwrap_or(value);
        let ok = (2..=15).contains(&digits.len())
            && digits.bytes().all(|b| b.is_ascii_digit())
            && !digits.starts_with('0');
        if !ok {
            return Err(invalid(
                "Phone must be in E.164 format (e.g., +14155552671)",
            ));
        }
        Ok(Some(Self(value.to_owned())))
    }
}

impl Instagram {
    pub fn parse(raw: Option<&str>) -> Result<Option<Self>, Invalid> {
        let Some(value) = present(raw) else {
            return Ok(None);
        };
        let handle = value.strip_prefix('@').unwrap_or(value);
        let ok = (1..=30).contains(&handle.len())
            && handle
                .bytes()
                .all(|b| b.is_ascii_alphanumeric() || b == b'.' || b == b'_');
        if !ok {
            return Err(invalid(
                "Instagram handle must be 1-30 characters (letters, numbers, dots, underscores)",
            ));
        }
        Ok(Some(Self(handle.to_owned())))
    }
}

impl Location {
    pub fn parse(raw: Option<&str>) -> Result<Self, Invalid> {
        let value = present(raw).ok_or_else(|| invalid("Location is required"))?;
        if chars(value) > 200 {
            return Err(invalid("Location must be less than 200 characters"));
        }
        Ok(Self(value.to_owned()))
    }
}

impl Bio {
    pub fn parse(raw: Option<&str>) -> Result<Option<Self>, Invalid> {
        let Some(value) = present(raw) else {
            return Ok(None);
        };
        text::check_text("Bio", value)?;
        if chars(value) > MAX_BIO_CHARS {
            return Err(invalid("Bio must be less than 1000 characters"));
        }
        Ok(Some(Self(value.to_owned())))
    }
}

impl DisplayName {
    pub fn parse(raw: &str) -> Result<Self, Invalid> {
        let trimmed = raw.trim();
        if !trimmed.is_empty() {
            text::check_name("Display name", trimmed)?;
        }
        if trimmed.is_empty() {
            return Err(invalid("Please enter your display name"));
        }
        if chars(trimmed) > MAX_DISPLAY_NAME_CHARS {
            return Err(Invalid::new(format!(
                "Display name must be at most {MAX_DISPLAY_NAME_CHARS} characters"
            )));
        }
        Ok(Self(trimmed.to_owned()))
    }

    /// [`DisplayName::parse`], refusing names that pose as the service
    /// (`values::names`, the configured `words`).
    pub fn parse_unreserved(raw: &str, words: &[String]) -> Result<Self, Invalid> {
        let name = Self::parse(raw)?;
        super::names::check_not_reserved(&name.0, words)?;
        Ok(name)
    }

    pub fn into_inner(self) -> String {
        self.0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn message(result: Result<impl std::fmt::Debug, Invalid>) -> String {
        result.unwrap_err().message().to_owned()
    }

    #[test]
    fn full_name_is_1_to_100_characters() {
        assert_eq!(message(FullName::parse(None)), "Full name is required");
        assert_eq!(
            message(FullName::parse(Some("   "))),
            "Full name is required"
        );
        assert!(FullName::parse(Some("A")).is_ok());
        assert!(
            FullName::parse(Some(&"é".repeat(100))).is_ok(),
            "characters, not bytes"
        );
        assert_eq!(
            message(FullName::parse(Some(&"a".repeat(101)))),
            "Full name must be less than 100 characters"
        );
    }

    /// A valid address of exactly `len` characters: host labels stay under 63.
    fn address_of_length(len: usize) -> String {
        let mut host = String::new();
        while 64 + 1 + host.len() + 4 < len {
            if !host.is_empty() {
                host.push('.');
            }
            let room = len - (64 + 1 + host.len() + 4);
            host.push_str(&"b".repeat(room.min(60)));
        }
        let address = format!("{}@{host}.com", "a".repeat(64));
        assert_eq!(address.len(), len);
        address
    }

    #[test]
    fn email_is_valid_and_at_most_255_characters() {
        for bad in [
            "",
            "ada",
            "ada@",
            "@example.com",
            "ada@localhost",
            "a b@example.com",
        ] {
            assert_eq!(
                message(Email::parse(Some(bad))),
                "Invalid email address",
                "{bad}"
            );
        }
        assert!(Email::parse(Some(&address_of_length(255))).is_ok());
        assert_eq!(
            message(Email::parse(Some(&address_of_length(256)))),
            "Email must be less than 255 characters"
        );
    }

    #[test]
    fn phone_is_e164_or_absent() {
        assert_eq!(Phone::parse(None).unwrap(), None);
        assert_eq!(Phone::parse(Some("  ")).unwrap(), None);
        for good in ["+14155552671", "14155552671", "+12", "+123456789012345"] {
            assert!(Phone::parse(Some(good)).unwrap().is_some(), "{good}");
        }
        for bad in [
            "+1",
            "+0123456",
            "+1234567890123456",
            "+1 415 555 2671",
            "phone",
            "++1415",
        ] {
            assert_eq!(
                message(Phone::parse(Some(bad))),
                "Phone must be in E.164 format (e.g., +14155552671)",
                "{bad}"
            );
        }
    }

    #[test]
    fn instagram_is_1_to_30_allowed_characters_with_an_optional_at() {
        assert_eq!(Instagram::parse(Some("")).unwrap(), None);
        assert!(Instagram::parse(Some(&"a".repeat(30))).is_ok());
        assert!(Instagram::parse(Some(&format!("@{}", "a".repeat(30)))).is_ok());
        for bad in [
            "@",
            "a".repeat(31).as_str(),
            "ada-l",
            "ada l",
            "@@ada",
            "adá",
        ] {
            assert_eq!(
                message(Instagram::parse(Some(bad))),
                "Instagram handle must be 1-30 characters (letters, numbers, dots, underscores)",
                "{bad}"
            );
        }
    }

    #[test]
    fn location_is_required_and_bio_optional_with_their_limits() {
        assert_eq!(message(Location::parse(Some(""))), "Location is required");
        assert!(Location::parse(Some(&"x".repeat(200))).is_ok());
        assert_eq!(
            message(Location::parse(Some(&"x".repeat(201)))),
            "Location must be less than 200 characters"
        );
        assert_eq!(Bio::parse(None).unwrap(), None);
        assert!(Bio::parse(Some(&"x".repeat(1000))).unwrap().is_some());
        assert_eq!(
            message(Bio::parse(Some(&"x".repeat(1001)))),
            "Bio must be less than 1000 characters"
        );
    }

    #[test]
    fn display_names_are_trimmed_and_required() {
        assert_eq!(DisplayName::parse("  Ada  ").unwrap().into_inner(), "Ada");
        for blank in ["", "   ", "\t\n"] {
            let err = DisplayName::parse(blank).unwrap_err();
            assert_eq!(err.message(), "Please enter your display name");
        }
        assert!(DisplayName::parse(&"x".repeat(51)).is_err());
        assert!(
            DisplayName::parse(&"é".repeat(50)).is_ok(),
            "characters, not bytes"
        );
    }

    #[test]
    fn names_need_a_visible_character_and_no_control_or_bidi_character() {
        for bad in [
            "\u{200B}\u{200B}",
            "A\u{0}da",
            "A\u{202E}da",
            "Ada\nLovelace",
        ] {
            assert!(DisplayName::parse(bad).is_err(), "{bad:?}");
        }
        assert!(Bio::parse(Some("line\nline")).is_ok());
        assert!(Bio::parse(Some("nul\u{0}")).is_err());
    }
}
