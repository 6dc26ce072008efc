//! Text that comes in from outside: the one place that decides which
//! characters a request may carry, used by every domain (and, for paths and
//! query strings, by `http::text`).
//!
//! Refused everywhere (bodies, form fields, paths, query strings), before any
//! query runs:
//! - NUL and the other C0 control characters, DEL and the C1 controls
//!   (PostgreSQL refuses NUL in text and answered with a 500; the others
//!   garble logs and terminals). Multi-line text keeps tab, line feed and
//!   carriage return.
//! - The bidi embeddings, overrides and isolates (U+202A–U+202E,
//!   U+2066–U+2069), which make a text display differently from what it is.
//!   The plain direction marks (U+200E, U+200F) stay: right-to-left text
//!   needs them.
//!
//! Names shown to others need at least one visible character: a name of only
//! spaces, zero-width or other invisible characters is refused.
//!
//! Secrets (passwords) are bytes the user chose: only NUL is refused there.

use std::borrow::Cow;

use serde_json::Value;

/// Why a text was refused.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Problem {
    /// NUL, another control character, or a line break in a one-line field.
    Control,
    /// A bidi embedding, override or isolate.
    Bidi,
    /// No visible character at all (a name).
    Invisible,
    /// A name longer than [`MAX_NAME_CHARS`].
    TooLong,
}

/// The longest name a person shows to others (a display name), in
/// characters after trimming.
pub const MAX_NAME_CHARS: usize = 50;

/// A refused text: which field, and why.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{}", self.message())]
pub struct TextError {
    pub field: Cow<'static, str>,
    pub problem: Problem,
}

impl TextError {
    fn new(field: impl Into<Cow<'static, str>>, problem: Problem) -> Self {
        Self {
            field: field.into(),
            problem,
        }
    }

    /// The user's message, e.g. "display_name contains a control character".
    pub fn message(&self) -> String {
        let field = &self.field;
        match self.problem {
            Problem::Control => {
                format!("{field} contains a control character, which is not allowed")
            }
            Problem::Bidi => format!(
                "{field} contains a text-direction override character, which is not allowed"
            ),
            Problem::Invisible => format!("{field} needs at least one visible character"),
            Problem::TooLong => format!("{field} must be at most {MAX_NAME_CHARS} characters"),
        }
    }
}

/// A bidi embedding, override or isolate.
pub fn is_bidi_control(c: char) -> bool {
    matches!(c, '\u{202A}'..='\u{202E}' | '\u{2066}'..='\u{2069}')
}

/// A character that draws nothing: white space, controls, zero-width and
/// other format characters, fillers, variation selectors and tags.
pub fn is_invisible(c: char) -> bool {
    c.is_whitespace()
        || c.is_control()
        || matches!(
            c,
            '\u{00AD}'
                | '\u{034F}'
                | '\u{061C}'
                | '\u{115F}'
                | '\u{1160}'
                | '\u{17B4}'
                | '\u{17B5}'
                | '\u{180B}'..='\u{180F}'
                | '\u{200B}'..='\u{200F}'
                | '\u{2028}'..='\u{202F}'
                | '\u{205F}'..='\u{206F}'
                | '\u{2800}'
                | '\u{3164}'
                | '\u{FE00}'..='\u{FE0F}'
                | '\u{FEFF}'
                | '\u{FFA0}'
                | '\u{FFF0}'..='\u{FFFB}'
                | '\u{1D173}'..='\u{1D17A}'
                | '\u{E0000}'..='\u{E0FFF}'
        )
}

fn check_chars(value: &str, multiline: bool) -> Result<(), Problem> {
    for c in value.chars() {
        if c.is_control() && !(multiline && matches!(c, '\t' | '\n' | '\r')) {
            return Err(Problem::Control);
        }
        if is_bidi_control(c) {
            return Err(Problem::Bidi);
        }
    }
    Ok(())
}

/// A one-line text (an email address, a name, a slug): no control character
/// at all, no bidi control.
pub fn check_line(field: impl Into<Cow<'static, str>>, value: &str) -> Result<(), TextError> {
    let field = field.into();
    check_chars(value, false).map_err(|problem| TextError::new(field, problem))
}

/// A free text (a bio, a message): tab and line breaks allowed.
pub fn check_text(field: impl Into<Cow<'static, str>>, value: &str) -> Result<(), TextError> {
    let field = field.into();
    check_chars(value, true).map_err(|problem| TextError::new(field, problem))
}

/// A name shown to others: a one-line text with a visible character.
pub fn check_name(field: impl Into<Cow<'static, str>>, value: &str) -> Result<(), TextError> {
    let field = field.into();
    check_chars(value, false).map_err(|problem| TextError::new(field.clone(), problem))?;
    if value.chars().all(is_invisible) {
        return Err(TextError::new(field, Problem::Invisible));
    }
    Ok(())
}

/// A person's display name: trimmed, then 1-[`MAX_NAME_CHARS`] characters
/// with a visible one, checked as [`check_name`]. Returns the trimmed name.
pub fn check_display_name(
    field: impl Into<Cow<'static, str>>,
    value: &str,
) -> Result<&str, TextError> {
    let field = field.into();
    let trimmed = value.trim();
    check_name(field.clone(), trimmed)?;
    if trimmed.chars().count() > MAX_NAME_CHARS {
        return Err(TextError::new(field, Problem::TooLong));
    }
    Ok(trimmed)
}

/// A secret the user chose (a password): only NUL is refused, since no
/// database or hash input takes it the same way everywhere.
pub fn check_secret(field: impl Into<Cow<'static, str>>, value: &str) -> Result<(), TextError> {
    if value.contains('\0') {
        return Err(TextError::new(field, Problem::Control));
    }
    Ok(())
}

/// Every string and key of a JSON document as free text; the values of the
/// keys in `secrets` (at any depth) only as secrets.
pub fn check_json(value: &Value, secrets: &[&str]) -> Result<(), TextError> {
    check_json_at(value, "body", secrets, false)
}

fn check_json_at(
    value: &Value,
    field: &str,
    secrets: &[&str],
    secret: bool,
) -> Result<(), TextError> {
    match value {
        Value::String(text) if secret => check_secret(field.to_owned(), text),
        Value::String(text) => check_text(field.to_owned(), text),
        Value::Array(items) => items
            .iter()
            .try_for_each(|item| check_json_at(item, field, secrets, secret)),
        Value::Object(map) => map.iter().try_for_each(|(key, item)| {
            check_line("a field name", key)?;
            check_json_at(
                item,
                key,
                secrets,
                secret || secrets.contains(&key.as_str()),
            )
        }),
        Value::Null | Value::Bool(_) | Value::Number(_) => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn nul_and_other_controls_are_refused_in_one_line_fields() {
        for bad in [
            "a\0b",
            "a\u{7}",
            "a\nb",
            "a\tb",
            "\u{1b}[31m",
            "a\u{7f}",
            "a\u{85}",
        ] {
            assert_eq!(
                check_line("email", bad).unwrap_err().problem,
                Problem::Control,
                "{bad:?}"
            );
        }
        assert!(check_line("email", "ada@example.com").is_ok());
    }

    #[test]
    fn free_text_keeps_line_breaks_and_tabs_but_not_nul() {
        assert!(check_text("bio", "line one\r\nline two\tend").is_ok());
        assert_eq!(
            check_text("bio", "a\0").unwrap_err().problem,
            Problem::Control
        );
    }

    #[test]
    fn bidi_overrides_are_refused_but_direction_marks_and_rtl_text_stay() {
        for bad in ["\u{202E}gpj.exe", "a\u{2066}b", "\u{202A}x"] {
            assert_eq!(check_text("bio", bad).unwrap_err().problem, Problem::Bidi);
        }
        assert!(check_text("bio", "שלום \u{200F}עולם").is_ok());
    }

    #[test]
    fn a_name_needs_a_visible_character() {
        for invisible in [
            "\u{200B}\u{200B}",
            " \u{FEFF} ",
            "\u{3164}",
            "\u{2800}",
            "\u{00AD}",
        ] {
            assert_eq!(
                check_name("display_name", invisible).unwrap_err().problem,
                Problem::Invisible,
                "{invisible:?}"
            );
        }
        for visible in ["Ada", "李", "😀", "a\u{200B}"] {
            assert!(check_name("display_name", visible).is_ok(), "{visible:?}");
        }
    }

    #[test]
    fn a_display_name_is_trimmed_and_one_to_fifty_characters() {
        assert_eq!(check_display_name("Display name", "  Ada  "), Ok("Ada"));
        assert_eq!(
            check_display_name("Display name", &"é".repeat(50)).map(str::len),
            Ok(100)
        );
        let err = check_display_name("Display name", &"a".repeat(51)).unwrap_err();
        assert_eq!(err.problem, Problem::TooLong);
        assert_eq!(err.message(), "Display name must be at most 50 characters");
        for bad in ["", "   ", "\u{200B}"] {
            assert_eq!(
                check_display_name("Display name", bad).unwrap_err().problem,
                Problem::Invisible,
                "{bad:?}"
            );
        }
        assert_eq!(
            check_display_name("Display name", "A\u{202E}da")
                .unwrap_err()
                .problem,
            Problem::Bidi
        );
    }

    #[test]
    fn secrets_only_refuse_nul() {
        assert!(check_secret("password", "p\u{7}ss\u{202E}word\n").is_ok());
        assert!(check_secret("password", "pass\0").is_err());
    }

    #[test]
    fn json_documents_are_checked_at_every_depth_with_secrets_apart() {
        let ok = json!({"data": {"nick": ["a\nb"]}, "password": "x\u{1}y"});
        assert!(check_json(&ok, &["password"]).is_ok());
        let bad = json!({"data": {"nick": ["ok", "b\u{0}"]}});
        let err = check_json(&bad, &["password"]).unwrap_err();
        assert_eq!(err.field, "nick");
        assert!(check_json(&json!({"pass\u{0}": 1}), &[]).is_err());
        assert!(check_json(&json!({"password": "a\0"}), &["password"]).is_err());
    }
}
