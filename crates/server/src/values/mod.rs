//! Values that come in from outside, checked once into types that can only
//! hold a valid one: people's names and contact details, codes, messages.
//! Each rule refuses with the spec's words (the web forms check the same
//! rules with the same messages before they send).
//!
//! Plumbing: this knows nothing of HTTP or of the domains. A refusal is an
//! [`Invalid`], which the edge (`http::error`) answers as a 422
//! `validation_failed` (or, for a malformed link, a 400 `invalid_query`).
//!
//! - [`text`]: the characters any text may carry (controls, bidi overrides,
//!   invisible names);
//! - [`person`]: full name, email, phone, Instagram handle, location, bio,
//!   display name;
//! - [`codes`]: a partner's short code and promo code;
//! - [`message`]: a contact request's message, a moderation reason, notes;
//! - [`birth`]: a date of birth, and who is an adult;
//! - [`names`]: display names that would pose as the service.

pub mod birth;
pub mod codes;
pub mod message;
pub mod names;
pub mod person;
pub mod text;

use std::borrow::Cow;

/// Why a value was refused, in the user's words.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{message}")]
pub struct Invalid {
    kind: Kind,
    message: Cow<'static, str>,
}

/// What was wrong: a field a person typed, or a link or query the app made
/// (a page cursor, a month) that came back altered.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    Field,
    Query,
}

impl Invalid {
    /// A field that breaks its rule.
    pub fn new(message: impl Into<Cow<'static, str>>) -> Self {
        Self {
            kind: Kind::Field,
            message: message.into(),
        }
    }

    /// A query parameter or link that is not what the app sends.
    pub fn query(message: impl Into<Cow<'static, str>>) -> Self {
        Self {
            kind: Kind::Query,
            message: message.into(),
        }
    }

    pub fn kind(&self) -> Kind {
        self.kind
    }

    pub fn message(&self) -> &str {
        &self.message
    }
}

/// A refused character is a refused field.
impl From<text::TextError> for Invalid {
    fn from(err: text::TextError) -> Self {
        Self::new(err.message())
    }
}

/// Trimmed, and `None` when blank: a blank optional field is an absent one.
pub fn present(value: Option<&str>) -> Option<&str> {
    value.map(str::trim).filter(|value| !value.is_empty())
}

/// Characters, not bytes: limits are counted as people count.
pub fn chars(value: &str) -> usize {
    value.chars().count()
}
