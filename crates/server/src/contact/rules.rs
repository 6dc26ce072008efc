//! Contact requests' rules as plain functions: the message, the hold's
//! lifetime, and the name a contestant sees.

use chrono::{DateTime, Duration, Utc};
use serde_json::Value;

pub use crate::values::message::{MAX_MESSAGE_CHARS, MIN_MESSAGE_CHARS};
/// A paid request the contestant has not answered is released after this.
pub const HOLD_DAYS: i64 = 7;
/// Requests one user may start per hour.
pub const REQUESTS_PER_HOUR: u32 = 10;
/// Shown when a requester has no name of their own.
pub const ANONYMOUS_NAME: &str = "A PrettyScore member";

/// When a hold placed at `held_at` is released unanswered.
pub fn hold_expires_at(held_at: DateTime<Utc>) -> DateTime<Utc> {
    held_at + Duration::days(HOLD_DAYS)
}

/// The name a person chose, from the account's metadata: `display_name`
/// (set at sign-up or on /account), else a `full_name` or `name` an invite
/// or an import left there; `None` when there is none with a visible
/// character.
pub fn chosen_name(user_metadata: &Value) -> Option<String> {
    ["display_name", "full_name", "name"]
        .iter()
        .filter_map(|key| user_metadata.get(key).and_then(Value::as_str))
        .map(str::trim)
        .find(|name| !name.is_empty() && !name.chars().all(crate::values::text::is_invisible))
        .map(|name| name.chars().take(60).collect())
}

/// The name the contestant sees for a requester: their chosen name from the
/// account's metadata, never their address.
pub fn requester_name(user_metadata: &Value) -> String {
    chosen_name(user_metadata).unwrap_or_else(|| ANONYMOUS_NAME.to_owned())
}

/// Refused when a requester has no name: the user's words.
pub const NAME_REQUIRED: &str =
    "Please add a display name before contacting a contestant, so they know who is writing.";

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn the_name_comes_from_metadata_never_the_address() {
        assert_eq!(requester_name(&json!({"display_name": " Ada "})), "Ada");
        assert_eq!(
            requester_name(&json!({"full_name": "Ada Lovelace"})),
            "Ada Lovelace"
        );
        assert_eq!(
            requester_name(&json!({"display_name": "  ", "name": "Al"})),
            "Al"
        );
        assert_eq!(
            requester_name(&json!({"email": "ada@example.com"})),
            ANONYMOUS_NAME
        );
        assert_eq!(chosen_name(&json!({"display_name": "\u{200B}"})), None);
        assert_eq!(chosen_name(&json!({})), None);
    }

    #[test]
    fn a_hold_lasts_seven_days() {
        let at = DateTime::parse_from_rfc3339("2026-11-01T10:00:00Z")
            .unwrap()
            .with_timezone(&Utc);
        assert_eq!(
            hold_expires_at(at).to_rfc3339(),
            "2026-11-08T10:00:00+00:00"
        );
    }
}
