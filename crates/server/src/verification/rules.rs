//! The request form's rules, parsed once at the boundary: full name and
//! reason required, the rest optional (docs/spec-rules.md §5).

use serde::Deserialize;
use utoipa::ToSchema;

use crate::values::Invalid;
pub use crate::values::message::notes as parse_notes;
use crate::values::person::{FullName, Instagram};

pub const MAX_REASON_CHARS: usize = 1000;
pub const MAX_OTHER_SOCIAL_CHARS: usize = 200;

#[derive(Debug, Default, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct VerificationRequestForm {
    pub full_name: Option<String>,
    /// Why should you be verified?
    pub reason: Option<String>,
    /// @yourusername; optional.
    pub instagram_handle: Option<String>,
    /// Another profile (a link or a handle); optional.
    pub other_social: Option<String>,
}

/// A request that keeps every rule.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct VerificationForm {
    pub full_name: String,
    pub reason: String,
    /// Without the @.
    pub instagram_handle: Option<String>,
    pub other_social: Option<String>,
}

fn required(
    raw: Option<&str>,
    missing: &'static str,
    max: usize,
    too_long: &'static str,
) -> Result<String, Invalid> {
    let value = raw.map(str::trim).unwrap_or_default();
    if value.is_empty() {
        return Err(Invalid::new(missing));
    }
    if value.chars().count() > max {
        return Err(Invalid::new(too_long));
    }
    Ok(value.to_owned())
}

impl VerificationForm {
    pub fn parse(form: &VerificationRequestForm) -> Result<Self, Invalid> {
        let full_name = FullName::parse(form.full_name.as_deref())?
            .as_str()
            .to_owned();
        let reason = required(
            form.reason.as_deref(),
            "Please tell us why you should be verified",
            MAX_REASON_CHARS,
            "The reason must be less than 1000 characters",
        )?;
        let instagram_handle = Instagram::parse(form.instagram_handle.as_deref())?
            .map(|handle| handle.as_str().to_owned());
        let other_social = form
            .other_social
            .as_deref()
            .map(str::trim)
            .filter(|value| !value.is_empty())
            .map(|value| {
                if value.chars().count() > MAX_OTHER_SOCIAL_CHARS {
                    Err(Invalid::new(
                        "Other social media must be less than 200 characters",
                    ))
                } else {
                    Ok(value.to_owned())
                }
            })
            .transpose()?;
        Ok(Self {
            full_name,
            reason,
            instagram_handle,
            other_social,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn form(name: &str, reason: &str) -> VerificationRequestForm {
        VerificationRequestForm {
            full_name: Some(name.into()),
            reason: Some(reason.into()),
            ..VerificationRequestForm::default()
        }
    }

    #[test]
    fn name_and_reason_are_required_and_limited() {
        let msg = |f: &VerificationRequestForm| {
            VerificationForm::parse(f).unwrap_err().message().to_owned()
        };
        assert_eq!(msg(&form(" ", "x")), "Full name is required");
        assert_eq!(
            msg(&form("Ada", "")),
            "Please tell us why you should be verified"
        );
        assert_eq!(
            msg(&form(&"a".repeat(101), "x")),
            "Full name must be less than 100 characters"
        );
        assert_eq!(
            msg(&form("Ada", &"x".repeat(1001))),
            "The reason must be less than 1000 characters"
        );
        assert!(VerificationForm::parse(&form(&"a".repeat(100), &"x".repeat(1000))).is_ok());
    }

    #[test]
    fn optional_fields_are_trimmed_checked_and_blank_means_none() {
        let mut f = form("Ada", "Public figure");
        f.instagram_handle = Some(" @ada.l ".into());
        f.other_social = Some("  ".into());
        let parsed = VerificationForm::parse(&f).unwrap();
        assert_eq!(parsed.instagram_handle.as_deref(), Some("ada.l"));
        assert_eq!(parsed.other_social, None);
        f.instagram_handle = Some("ada l".into());
        assert!(VerificationForm::parse(&f).is_err());
        assert_eq!(parse_notes(Some("  ")).unwrap(), None);
        assert!(parse_notes(Some(&"n".repeat(1001))).is_err());
    }
}
