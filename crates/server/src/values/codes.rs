//! A partner's codes: the short code of their referral link and the promo
//! code their audience types at checkout (docs/spec-rules.md).

use rand::RngCore;

use super::Invalid;

pub const SHORT_CODE_MESSAGE: &str = "Short code must be 3-10 alphanumeric characters";
pub const PROMO_CODE_MESSAGE: &str = "Promo code must be up to 20 letters, digits, - or _";
/// Random codes avoid look-alikes (0/O, 1/I).
const CODE_ALPHABET: &[u8] = b"ABCDEFGHJKLMNPQRSTUVWXYZ23456789";

/// The spec's normalisation of a typed code: upper case, letters and digits
/// only, at most 10 characters.
pub fn normalise_code(raw: &str) -> String {
    raw.chars()
        .filter(char::is_ascii_alphanumeric)
        .map(|c| c.to_ascii_uppercase())
        .take(10)
        .collect()
}

/// The short code to store: the normalised one if given (3-10 characters),
/// otherwise a random 5-character code.
pub fn short_code(raw: Option<&str>) -> Result<String, Invalid> {
    let typed = raw.map(str::trim).filter(|raw| !raw.is_empty());
    match typed {
        None => Ok(random_code()),
        Some(raw) => {
            let code = normalise_code(raw);
            if (3..=10).contains(&code.len()) {
                Ok(code)
            } else {
                Err(Invalid::new(SHORT_CODE_MESSAGE))
            }
        }
    }
}

/// A promo code to store: upper-cased and trimmed, `None` when blank.
/// Letters, digits, `-` and `_`, at most 20.
pub fn promo_code(raw: Option<&str>) -> Result<Option<String>, Invalid> {
    let Some(code) = raw.map(str::trim).filter(|raw| !raw.is_empty()) else {
        return Ok(None);
    };
    let code = code.to_uppercase();
    if code.len() > 20
        || !code
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_')
    {
        return Err(Invalid::new(PROMO_CODE_MESSAGE));
    }
    Ok(Some(code))
}

fn random_code() -> String {
    // 32 symbols: each random byte's low five bits pick one, without bias.
    let mut bytes = [0u8; 5];
    rand::rngs::OsRng.fill_bytes(&mut bytes);
    bytes
        .iter()
        .map(|byte| CODE_ALPHABET[usize::from(byte & 31)] as char)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn short_codes_are_normalised_and_bounded() {
        assert_eq!(short_code(Some("ab-c")), Ok("ABC".to_owned()));
        assert_eq!(
            short_code(Some("  my code 2024 ")),
            Ok("MYCODE2024".to_owned())
        );
        assert_eq!(
            short_code(Some("abcdefghijkl")),
            Ok("ABCDEFGHIJ".to_owned())
        );
        assert_eq!(
            short_code(Some("ab")),
            Err(Invalid::new(SHORT_CODE_MESSAGE))
        );
        assert_eq!(
            short_code(Some("a-b!")),
            Err(Invalid::new(SHORT_CODE_MESSAGE))
        );
        assert_eq!(
            short_code(Some("éé")),
            Err(Invalid::new(SHORT_CODE_MESSAGE))
        );
        for blank in [None, Some(""), Some("   ")] {
            let code = short_code(blank).unwrap();
            assert_eq!(code.len(), 5);
            assert!(
                code.chars()
                    .all(|c| c.is_ascii_uppercase() || c.is_ascii_digit())
            );
        }
    }

    #[test]
    fn promo_codes_are_upper_case_or_null() {
        assert_eq!(promo_code(Some(" save10 ")), Ok(Some("SAVE10".to_owned())));
        assert_eq!(promo_code(Some("  ")), Ok(None));
        assert_eq!(promo_code(None), Ok(None));
        assert!(promo_code(Some("no spaces")).is_err());
        assert!(promo_code(Some(&"A".repeat(21))).is_err());
    }
}
