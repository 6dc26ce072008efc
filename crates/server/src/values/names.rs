//! Names that would pose as the service (issue 41, "People are who they
//! say"): a display name may not contain the product's name or a staff word
//! (`admin`, `support`, `moderator`, `official`, `staff`, `team`), in any
//! case or spacing, with look-alike letters folded ("Supp0rt", "S U P P O R T",
//! "ＡＤＭＩＮ", "аdmin" with a Cyrillic а). The list is configuration
//! (`community.reserved_name_words`).

use super::Invalid;

/// The default list: the product's name and the staff words.
pub const DEFAULT_RESERVED_WORDS: &[&str] = &[
    "prettyscore",
    "admin",
    "support",
    "moderator",
    "official",
    "staff",
    "team",
];

/// The refusal, in the user's words.
pub fn reserved_message() -> Invalid {
    Invalid::new(
        "Display names can't include PrettyScore or words like admin, support, moderator, official, staff or team, so nobody can pose as the service. Please choose another name.",
    )
}

/// `name` folded for comparison: letters and digits only, lower case, with
/// look-alikes (full-width forms, Greek and Cyrillic capitals and small
/// letters that look Latin, digits that stand for letters, accents) turned
/// into the Latin letter they imitate.
pub fn fold(name: &str) -> String {
    let mut out = String::with_capacity(name.len());
    for c in name.chars() {
        let c = fold_char(c);
        for lower in c.to_lowercase() {
            if lower.is_ascii_alphanumeric() {
                out.push(lower);
            }
        }
    }
    out
}

fn fold_char(c: char) -> char {
    // Full-width ASCII (ＡＢＣ, ０１２).
    let c = match c as u32 {
        0xFF01..=0xFF5E => char::from_u32(c as u32 - 0xFF01 + 0x21).unwrap_or(c),
        _ => c,
    };
    match c {
        '0' | 'ο' | 'Ο' | 'о' | 'О' | 'ö' | 'ó' | 'ò' | 'ô' | 'õ' | 'ø' | 'Ø' => 'o',
        '1' | '!' | '|' | 'ı' | 'ɩ' | 'ι' | 'Ι' | 'і' | 'І' | 'í' | 'ì' | 'î' | 'ï' | 'ӏ' | 'l' => {
            'l'
        }
        '3' | 'е' | 'Е' | 'ε' | 'Ε' | 'é' | 'è' | 'ê' | 'ë' => 'e',
        '4' | '@' | 'а' | 'А' | 'α' | 'Α' | 'á' | 'à' | 'â' | 'ä' | 'ã' | 'å' => 'a',
        '5' | '$' | 'ѕ' | 'Ѕ' | 'ś' | 'š' => 's',
        '7' | '+' | 'т' | 'Т' | 'τ' | 'Τ' => 't',
        '8' | 'в' | 'В' | 'β' | 'Β' => 'b',
        'р' | 'Р' | 'ρ' | 'Ρ' => 'p',
        'с' | 'С' | 'ç' | 'ϲ' => 'c',
        'х' | 'Х' | 'χ' | 'Χ' => 'x',
        'у' | 'У' | 'γ' | 'ý' | 'ÿ' => 'y',
        'к' | 'К' | 'κ' | 'Κ' => 'k',
        'м' | 'М' | 'Μ' => 'm',
        'н' | 'Н' | 'Η' => 'h',
        'ν' | 'Ν' => 'n',
        'ñ' => 'n',
        'ú' | 'ù' | 'û' | 'ü' | 'υ' => 'u',
        'ԁ' => 'd',
        'ɡ' | '9' => 'g',
        'ј' | 'Ј' => 'j',
        'Ζ' => 'z',
        _ => c,
    }
}

/// `I` and `l` look alike; after folding, both are compared as `l`.
fn fold_il(folded: &str) -> String {
    folded.replace('i', "l")
}

/// 422 when `name` contains one of `words` after folding both.
pub fn check_not_reserved(name: &str, words: &[String]) -> Result<(), Invalid> {
    let folded = fold_il(&fold(name));
    let hit = words
        .iter()
        .map(|word| fold_il(&fold(word)))
        .any(|word| !word.is_empty() && folded.contains(&word));
    if hit { Err(reserved_message()) } else { Ok(()) }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn defaults() -> Vec<String> {
        DEFAULT_RESERVED_WORDS
            .iter()
            .map(|w| (*w).to_owned())
            .collect()
    }

    #[test]
    fn names_posing_as_the_service_are_refused_in_any_disguise() {
        for bad in [
            "PrettyScore Support Team",
            "prettyscore",
            "Pretty Score",
            "P.r.e.t.t.y-S.c.o.r.e",
            "Admin",
            "ADMIN",
            "a d m i n",
            "Adm1n",
            "Supp0rt",
            "SUPPORT",
            "ＡＤＭＩＮ",
            "\u{0430}dmin",
            "Mod3rator",
            "0fficial",
            "St4ff",
            "The Team",
            "Ada (staff)",
        ] {
            assert!(check_not_reserved(bad, &defaults()).is_err(), "{bad:?}");
        }
    }

    #[test]
    fn ordinary_names_pass() {
        for good in [
            "Ada",
            "Grace Hopper",
            "Stefan",
            "Léa",
            "Teodora",
            "Mo",
            "李雷",
        ] {
            assert!(check_not_reserved(good, &defaults()).is_ok(), "{good:?}");
        }
    }

    #[test]
    fn the_list_is_the_configured_one() {
        let words = vec!["acme".to_owned()];
        assert!(check_not_reserved("ACME helpdesk", &words).is_err());
        assert!(check_not_reserved("Support", &words).is_ok());
        assert!(check_not_reserved("anything", &[]).is_ok());
    }
}
