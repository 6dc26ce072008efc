//! Free texts people write to each other or to the moderators: a contact
//! request's message, a moderation reason or report, an admin's notes.

use super::text;
use super::{Invalid, chars, present};

/// The spec's contact message limits, in characters.
pub const MIN_MESSAGE_CHARS: usize = 10;
pub const MAX_MESSAGE_CHARS: usize = 1000;
/// Longest moderation reason or report.
pub const MAX_REASON_CHARS: usize = 500;
/// Longest note an admin keeps on a decision.
pub const MAX_NOTES_CHARS: usize = 1000;

/// A contact request's message: trimmed, 10 to 1000 characters.
pub fn contact_message(raw: &str) -> Result<String, Invalid> {
    let message = raw.trim();
    let count = chars(message);
    if count < MIN_MESSAGE_CHARS {
        return Err(Invalid::new("Message must be at least 10 characters"));
    }
    if count > MAX_MESSAGE_CHARS {
        return Err(Invalid::new("Message must be less than 1000 characters"));
    }
    Ok(message.to_owned())
}

/// A required free-text reason (a rejection, a report): trimmed, 1 to 500
/// characters, no control characters; `missing` is said when it is blank.
pub fn reason(raw: Option<&str>, missing: &'static str) -> Result<String, Invalid> {
    let reason = raw.map(str::trim).unwrap_or_default();
    if reason.is_empty() {
        return Err(Invalid::new(missing));
    }
    text::check_text("Reason", reason)?;
    if chars(reason) > MAX_REASON_CHARS {
        return Err(Invalid::new("The reason must be at most 500 characters"));
    }
    Ok(reason.to_owned())
}

/// An admin's notes: optional, trimmed, at most 1000 characters.
pub fn notes(raw: Option<&str>) -> Result<Option<String>, Invalid> {
    let notes = present(raw);
    if notes.is_some_and(|notes| chars(notes) > MAX_NOTES_CHARS) {
        return Err(Invalid::new(
            "Admin notes must be less than 1000 characters",
        ));
    }
    Ok(notes.map(str::to_owned))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn contact_messages_are_ten_to_a_thousand_characters() {
        let message = |raw: &str| contact_message(raw).map_err(|err| err.message().to_owned());
        assert_eq!(
            message("  too short "),
            Err("Message must be at least 10 characters".to_owned())
        );
        assert_eq!(message(&"é".repeat(10)), Ok("é".repeat(10)));
        assert_eq!(message(&"a".repeat(1000)).map(|m| m.len()), Ok(1000));
        assert_eq!(
            message(&"a".repeat(1001)),
            Err("Message must be less than 1000 characters".to_owned())
        );
    }

    #[test]
    fn a_reason_is_required_and_at_most_500_characters() {
        assert_eq!(
            reason(Some("  "), "Say why").unwrap_err().message(),
            "Say why"
        );
        assert_eq!(reason(Some(" spam "), "Say why").unwrap(), "spam");
        assert!(reason(Some(&"r".repeat(500)), "Say why").is_ok());
        assert!(reason(Some(&"r".repeat(501)), "Say why").is_err());
        assert!(reason(Some("a\u{0}b"), "Say why").is_err());
    }

    #[test]
    fn notes_are_optional_and_at_most_1000_characters() {
        assert_eq!(notes(Some("  ")).unwrap(), None);
        assert_eq!(notes(Some(" ok ")).unwrap().as_deref(), Some("ok"));
        assert!(notes(Some(&"n".repeat(1001))).is_err());
    }
}
