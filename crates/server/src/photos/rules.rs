//! What a saved photo's user-given fields must look like, parsed once at the
//! boundary.

use crate::values::Invalid;
use crate::values::person::Bio;

pub use crate::values::person::{DisplayName, MAX_BIO_CHARS, MAX_DISPLAY_NAME_CHARS};

/// An optional bio: blank means none.
pub fn parse_bio(raw: Option<&str>) -> Result<Option<String>, Invalid> {
    Ok(Bio::parse(raw)?.map(|bio| bio.as_str().to_owned()))
}

/// A form flag: "true"/"1"/"on" is set, absent or "false"/"0"/"off" is not.
pub fn parse_flag(raw: Option<&str>) -> Result<bool, Invalid> {
    match raw
        .map(|value| value.trim().to_ascii_lowercase())
        .as_deref()
    {
        None | Some("" | "false" | "0" | "off") => Ok(false),
        Some("true" | "1" | "on") => Ok(true),
        Some(_) => Err(Invalid::new("public_listing must be true or false")),
    }
}

/// The listing fields of a save: a leaderboard entry needs a display name,
/// a private save may carry one.
pub struct Listing {
    pub public_listing: bool,
    pub display_name: Option<String>,
    pub bio: Option<String>,
}

impl Listing {
    pub fn parse(
        public_listing: Option<&str>,
        display_name: Option<&str>,
        bio: Option<&str>,
        reserved_words: &[String],
    ) -> Result<Self, Invalid> {
        let public_listing = parse_flag(public_listing)?;
        let display_name = match display_name {
            Some(raw) if public_listing || !raw.trim().is_empty() => {
                Some(DisplayName::parse_unreserved(raw, reserved_words)?.into_inner())
            }
            None if public_listing => return Err(DisplayName::parse("").unwrap_err()),
            _ => None,
        };
        Ok(Self {
            public_listing,
            display_name,
            bio: parse_bio(bio)?,
        })
    }
}

/// What a saved photo shows: `face` (the default), `feet` or `hands`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PhotoType {
    Face,
    Feet,
    Hands,
}

impl PhotoType {
    /// The form's `photo_type`; absent or blank is a face.
    pub fn parse(raw: Option<&str>) -> Result<Self, Invalid> {
        match raw.map(str::trim).unwrap_or_default() {
            "" | "face" => Ok(Self::Face),
            "feet" => Ok(Self::Feet),
            "hands" => Ok(Self::Hands),
            _ => Err(Invalid::new("photo_type must be face, feet or hands")),
        }
    }

    pub fn as_str(self) -> &'static str {
        match self {
            Self::Face => "face",
            Self::Feet => "feet",
            Self::Hands => "hands",
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn photo_types_are_face_by_default_and_only_the_three() {
        assert_eq!(PhotoType::parse(None).unwrap(), PhotoType::Face);
        assert_eq!(PhotoType::parse(Some(" ")).unwrap(), PhotoType::Face);
        assert_eq!(PhotoType::parse(Some("feet")).unwrap(), PhotoType::Feet);
        assert_eq!(PhotoType::parse(Some("hands")).unwrap(), PhotoType::Hands);
        let err = PhotoType::parse(Some("pet")).unwrap_err();
        assert_eq!(err.message(), "photo_type must be face, feet or hands");
    }

    #[test]
    fn a_leaderboard_entry_needs_a_display_name_and_a_private_save_does_not() {
        assert!(Listing::parse(Some("true"), None, None, &[]).is_err());
        assert!(Listing::parse(Some("true"), Some("  "), None, &[]).is_err());
        let entry = Listing::parse(Some("true"), Some(" Ada "), Some("  hi "), &[]).unwrap();
        assert!(entry.public_listing);
        assert_eq!(entry.display_name.as_deref(), Some("Ada"));
        assert_eq!(entry.bio.as_deref(), Some("hi"));

        let private = Listing::parse(None, Some("  "), Some(""), &[]).unwrap();
        assert!(!private.public_listing);
        assert_eq!(private.display_name, None);
        assert_eq!(private.bio, None);
    }

    #[test]
    fn names_need_a_visible_character_and_no_control_or_bidi_character() {
        for bad in [
            "\u{200B}\u{200B}",
            "A\u{0}da",
            "A\u{202E}da",
            "Ada\nLovelace",
        ] {
            let err = crate::http::error::ApiError::from(DisplayName::parse(bad).unwrap_err());
            assert_eq!(
                err.status(),
                axum::http::StatusCode::UNPROCESSABLE_ENTITY,
                "{bad:?}"
            );
            assert_eq!(err.code(), crate::http::error::ErrorCode::ValidationFailed);
        }
        assert!(parse_bio(Some("line\nline")).is_ok());
        assert!(parse_bio(Some("nul\u{0}")).is_err());
    }

    #[test]
    fn bios_over_1000_characters_are_refused() {
        assert!(parse_bio(Some(&"b".repeat(1000))).is_ok());
        assert_eq!(
            parse_bio(Some(&"b".repeat(1001))).unwrap_err().message(),
            "Bio must be less than 1000 characters"
        );
    }

    #[test]
    fn flags_accept_the_usual_spellings_and_refuse_others() {
        assert!(parse_flag(Some("TRUE")).unwrap());
        assert!(!parse_flag(Some("off")).unwrap());
        assert!(!parse_flag(None).unwrap());
        assert!(parse_flag(Some("maybe")).is_err());
    }
}
