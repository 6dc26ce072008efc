//! The application form's rules (docs/spec-rules.md §5), parsed once at
//! the boundary into [`Application`]. The first broken rule, in the form's
//! field order, is the one reported, with the spec's exact message; the web
//! form checks the same rules with the same messages before it sends.

use serde::Deserialize;
use utoipa::ToSchema;

use crate::values::Invalid;
pub use crate::values::person::{Bio, Email, FullName, Instagram, Location, Phone};

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

/// The chosen options in the form's order; anything else is refused.
fn parse_interests(raw: &[String]) -> Result<Vec<&'static str>, Invalid> {
    if let Some(unknown) = raw.iter().find(|i| !INTERESTS.contains(&i.as_str())) {
        return Err(Invalid::new(format!(
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
    pub fn parse(form: &ApplicationForm, account_email: Email) -> Result<Self, Invalid> {
        let full_name = FullName::parse(form.full_name.as_deref())?;
        let email = account_email;
        let phone = Phone::parse(form.phone.as_deref())?;
        let instagram = Instagram::parse(form.instagram.as_deref())?;
        let location = Location::parse(form.location.as_deref())?;
        let bio = Bio::parse(form.bio.as_deref())?;
        let interests = parse_interests(&form.interests)?;
        if !form.agree_terms {
            return Err(Invalid::new("You must agree to the terms"));
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

    fn message(result: Result<impl std::fmt::Debug, Invalid>) -> String {
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
