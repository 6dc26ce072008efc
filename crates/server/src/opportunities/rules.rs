//! The application form's rules (spec document 2, "Validation"), parsed once at
//! the boundary into [`Application`]. The first broken rule, in the form's
//! field order, is the one reported, with the spec's exact message; the web
//! form checks the same rules with the same messages before it sends.

use serde::Deserialize;
use utoipa::ToSchema;

use crate::auth::users::is_valid_email;
use crate::http::error::ApiError;

/// The six interest options, exactly as the form shows them.
pub const INTERESTS: [&str; 6] = [
    "Fashion Modeling",
    "Commercial Modeling",
    "Brand Partnerships",
    "Social Media Campaigns",
    "Acting & Entertainment",
    "Influencer Collaborations",
];

/// The form as it is sent (camelCase, as the spec names the fields). Every
/// field is optional here so that a missing one gets the form's own message,
/// not a deserialiser's.
#[derive(Debug, Default, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ApplicationForm {
    pub full_name: Option<String>,
    /// Ignored: the application, and its confirmation mail, use the
    /// account's verified address (a typed one could be anybody's).
    pub email: Option<String>,
    /// E.164, e.g. +14155552671; optional.
    pub phone: Option<String>,
    /// 1-30 letters, digits, dots or underscores, with an optional leading @; optional.
    pub instagram: Option<String>,
    pub location: Option<String>,
    /// Up to 1000 characters; optional.
    pub bio: Option<String>,
    /// Any of the six options.
    #[serde(default)]
    pub interests: Vec<String>,
    /// Must be true.
    #[serde(default)]
    pub agree_terms: bool,
}

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

/// A bio of at most 1000 characters.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Bio(String);

/// An application that keeps every rule.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Application {
    pub full_name: FullName,
    pub email: Email,
    pub phone: Option<Phone>,
    pub instagram: Option<Instagram>,
    pub location: Location,
    pub bio: Option<Bio>,
    /// In the form's order, each once.
    pub interests: Vec<&'static str>,
}

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

fn invalid(message: &'static str) -> ApiError {
    ApiError::invalid(message)
}

fn chars(value: &str) -> usize {
    value.chars().count()
}

/// A blank optional field is an absent one.
fn present(value: Option<&str>) -> Option<&str> {
    value.map(str::trim).filter(|value| !value.is_empty())
}

impl FullName {
    pub fn parse(raw: Option<&str>) -> Result<Self, ApiError> {
        let value = present(raw).ok_or_else(|| invalid("Full name is required"))?;
        if chars(value) > 100 {
            return Err(invalid("Full name must be less than 100 characters"));
        }
        Ok(Self(value.to_owned()))
    }
}

impl Email {
    pub fn parse(raw: Option<&str>) -> Result<Self, ApiError> {
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
    pub fn parse(raw: Option<&str>) -> Result<Option<Self>, ApiError> {
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
    pub fn parse(raw: Option<&str>) -> Result<Option<Self>, ApiError> {
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
    pub fn parse(raw: Option<&str>) -> Result<Self, ApiError> {
        let value = present(raw).ok_or_else(|| invalid("Location is required"))?;
        if chars(value) > 200 {
            return Err(invalid("Location must be less than 200 characters"));
        }
        Ok(Self(value.to_owned()))
    }
}

impl Bio {
    pub fn parse(raw: Option<&str>) -> Result<Option<Self>, ApiError> {
        let Some(value) = present(raw) else {
            return Ok(None);
        };
        if chars(value) > 1000 {
            return Err(invalid("Bio must be less than 1000 characters"));
        }
        Ok(Some(Self(value.to_owned())))
    }
}

/// The chosen options in the form's order; anything else is refused.
fn parse_interests(raw: &[String]) -> Result<Vec<&'static str>, ApiError> {
    if let Some(unknown) = raw.iter().find(|i| !INTERESTS.contains(&i.as_str())) {
        return Err(ApiError::invalid(format!(
            "'{unknown}' is not one of the interests on the form"
        )));
    }
    Ok(INTERESTS
        .into_iter()
        .filter(|option| raw.iter().any(|chosen| chosen == option))
        .collect())
}

impl Application {
    /// The form's rules in its field order; the first broken one is the
    /// error. The address is the account's (`account_email`), never the
    /// form's.
    pub fn parse(form: &ApplicationForm, account_email: Email) -> Result<Self, ApiError> {
        let full_name = FullName::parse(form.full_name.as_deref())?;
        let email = account_email;
        let phone = Phone::parse(form.phone.as_deref())?;
        let instagram = Instagram::parse(form.instagram.as_deref())?;
        let location = Location::parse(form.location.as_deref())?;
        let bio = Bio::parse(form.bio.as_deref())?;
        let interests = parse_interests(&form.interests)?;
        if !form.agree_terms {
            return Err(invalid("You must agree to the terms"));
        }
        Ok(Self {
            full_name,
            email,
            phone,
            instagram,
            location,
            bio,
            interests,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn message(result: Result<impl std::fmt::Debug, ApiError>) -> String {
        result.unwrap_err().message().to_owned()
    }

    fn account() -> Email {
        Email::of_account("ada@example.com")
    }

    fn good() -> ApplicationForm {
        ApplicationForm {
            full_name: Some("Ada Lovelace".into()),
            email: Some("ada@example.com".into()),
            phone: Some("+14155552671".into()),
            instagram: Some("@ada.l_1815".into()),
            location: Some("London".into()),
            bio: Some("Mathematician.".into()),
            interests: vec!["Brand Partnerships".into(), "Fashion Modeling".into()],
            agree_terms: true,
        }
    }

    #[test]
    fn a_good_form_is_parsed_and_normalised() {
        let app = Application::parse(&good(), account()).unwrap();
        assert_eq!(app.full_name.as_str(), "Ada Lovelace");
        assert_eq!(app.email.as_str(), "ada@example.com");

        let mut typed = good();
        typed.email = Some("someone.else@example.com".into());
        let app = Application::parse(&typed, account()).unwrap();
        assert_eq!(
            app.email.as_str(),
            "ada@example.com",
            "the account's address, not the typed one"
        );
        assert_eq!(app.instagram.unwrap().as_str(), "ada.l_1815", "no @");
        assert_eq!(
            app.interests,
            vec!["Fashion Modeling", "Brand Partnerships"],
            "the form's order"
        );
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
    fn the_first_broken_rule_in_form_order_is_reported() {
        let mut form = good();
        form.location = None;
        form.agree_terms = false;
        form.phone = Some("12-34".into());
        assert_eq!(
            message(Application::parse(&form, account())),
            "Phone must be in E.164 format (e.g., +14155552671)"
        );
        form.phone = None;
        assert_eq!(
            message(Application::parse(&form, account())),
            "Location is required"
        );
        form.location = Some("Paris".into());
        assert_eq!(
            message(Application::parse(&form, account())),
            "You must agree to the terms"
        );
        form.agree_terms = true;
        form.interests = vec!["Astronaut".into()];
        assert!(message(Application::parse(&form, account())).contains("not one of the interests"));
    }
}
