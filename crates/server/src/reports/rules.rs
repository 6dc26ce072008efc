//! The rules of reports: the reasons, which are urgent, which keep evidence,
//! the rule of /guidelines each answers, and the decisions an admin takes.
//! Plain functions, tested below.

use chrono::{DateTime, Duration, Utc};

/// How long a report may wait for a decision (TAKE IT DOWN Act: a reported
/// intimate image comes down within 48 hours; every report is held to it).
pub const ANSWER_WITHIN_HOURS: i64 = 48;

/// When a report made at `at` is due.
pub fn due_at(at: DateTime<Utc>) -> DateTime<Utc> {
    at + Duration::hours(ANSWER_WITHIN_HOURS)
}

/// Why something is reported.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Reason {
    SpamOrScam,
    Harassment,
    NudityOrSexualContent,
    Under18,
    IntimateImageWithoutConsent,
    MyPhotoWithoutConsent,
    OtherIllegalContent,
    Other,
}

impl Reason {
    pub const ALL: [Reason; 8] = [
        Reason::SpamOrScam,
        Reason::Harassment,
        Reason::NudityOrSexualContent,
        Reason::Under18,
        Reason::IntimateImageWithoutConsent,
        Reason::MyPhotoWithoutConsent,
        Reason::OtherIllegalContent,
        Reason::Other,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            Reason::SpamOrScam => "spam_or_scam",
            Reason::Harassment => "harassment",
            Reason::NudityOrSexualContent => "nudity_or_sexual_content",
            Reason::Under18 => "under_18",
            Reason::IntimateImageWithoutConsent => "intimate_image_without_consent",
            Reason::MyPhotoWithoutConsent => "my_photo_without_consent",
            Reason::OtherIllegalContent => "other_illegal_content",
            Reason::Other => "other",
        }
    }

    pub fn parse(raw: &str) -> Option<Self> {
        Self::ALL
            .into_iter()
            .find(|reason| reason.as_str() == raw.trim())
    }

    /// In the user's words.
    pub fn label(self) -> &'static str {
        match self {
            Reason::SpamOrScam => "Spam or scam",
            Reason::Harassment => "Harassment",
            Reason::NudityOrSexualContent => "Nudity or sexual content",
            Reason::Under18 => "Someone under 18",
            Reason::IntimateImageWithoutConsent => "An intimate image shared without consent",
            Reason::MyPhotoWithoutConsent => "A photo of me used without my consent",
            Reason::OtherIllegalContent => "Other illegal content",
            Reason::Other => "Something else",
        }
    }

    /// Looked at first: a minor, or an intimate image shared without consent.
    pub fn is_urgent(self) -> bool {
        matches!(self, Reason::Under18 | Reason::IntimateImageWithoutConsent)
    }

    /// A removal for this reason keeps the content as evidence (never
    /// public) for `moderation.evidence_days`: what the authorities may ask
    /// for. Every other removal deletes the bytes at once.
    pub fn keeps_evidence(self) -> bool {
        matches!(
            self,
            Reason::Under18 | Reason::IntimateImageWithoutConsent | Reason::OtherIllegalContent
        )
    }

    /// The rule of /guidelines the reason points to.
    pub fn rule(self) -> &'static Rule {
        let id = match self {
            Reason::Under18 => "g1",
            Reason::MyPhotoWithoutConsent => "g2",
            Reason::NudityOrSexualContent => "g3",
            Reason::IntimateImageWithoutConsent => "g4",
            Reason::Harassment => "g5",
            Reason::SpamOrScam => "g6",
            Reason::Other => "g9",
            Reason::OtherIllegalContent => "g10",
        };
        rule(id).expect("every reason has a rule")
    }

    /// Sort order of the queue: urgent first.
    pub fn priority(self) -> u8 {
        u8::from(!self.is_urgent())
    }
}

/// A rule of the community guidelines, as decisions cite it: the anchors
/// and titles of /guidelines (`web/src/features/legal/guidelines.tsx`), which
/// must stay in step with this table.
#[derive(Debug, PartialEq, Eq)]
pub struct Rule {
    pub id: &'static str,
    pub title: &'static str,
}

pub const RULES: &[Rule] = &[
    Rule {
        id: "g1",
        title: "Adults only",
    },
    Rule {
        id: "g2",
        title: "Only your own photos",
    },
    Rule {
        id: "g3",
        title: "No nudity or sexual content",
    },
    Rule {
        id: "g4",
        title: "Never share intimate images without consent",
    },
    Rule {
        id: "g5",
        title: "No harassment, hate or threats",
    },
    Rule {
        id: "g6",
        title: "No spam or scams",
    },
    Rule {
        id: "g7",
        title: "Be who you say you are",
    },
    Rule {
        id: "g8",
        title: "Keep other people's details private",
    },
    Rule {
        id: "g9",
        title: "Respect a no",
    },
    Rule {
        id: "g10",
        title: "Nothing illegal",
    },
];

pub fn rule(id: &str) -> Option<&'static Rule> {
    RULES.iter().find(|rule| rule.id == id)
}

/// The link to a rule: `<base>/guidelines#gN`.
pub fn rule_link(base_url: &str, rule: &Rule) -> String {
    format!("{}/guidelines#{}", base_url.trim_end_matches('/'), rule.id)
}

/// What an admin decides about reported content.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Action {
    /// Nothing breaks the guidelines.
    Dismiss,
    /// The content goes, everywhere at once, bytes included.
    Remove,
    /// Its owner cannot sign in for a number of days.
    Suspend,
    /// Its owner cannot sign in again; listings and open requests withdrawn.
    Ban,
}

impl Action {
    pub fn parse(raw: &str) -> Option<Self> {
        match raw {
            "dismiss" => Some(Self::Dismiss),
            "remove" => Some(Self::Remove),
            "suspend" => Some(Self::Suspend),
            "ban" => Some(Self::Ban),
            _ => None,
        }
    }

    pub fn as_str(self) -> &'static str {
        match self {
            Self::Dismiss => "dismiss",
            Self::Remove => "remove",
            Self::Suspend => "suspend",
            Self::Ban => "ban",
        }
    }

    /// What was decided, in a sentence for the mails.
    pub fn sentence(self, what: &str, days: Option<i32>) -> String {
        match self {
            Self::Dismiss => {
                format!("We found that {what} does not break our guidelines; it stays up.")
            }
            Self::Remove => format!("We removed {what}."),
            Self::Suspend => format!(
                "We suspended the account behind {what} for {} days.",
                days.unwrap_or(0)
            ),
            Self::Ban => format!("We banned the account behind {what}."),
        }
    }
}

/// Suspensions last 1 to 365 days.
pub const MAX_SUSPEND_DAYS: i32 = 365;

/// A ban, as GoTrue writes one ("876000h"): about a hundred years.
pub fn ban_until(now: DateTime<Utc>) -> DateTime<Utc> {
    now + Duration::hours(876_000)
}

/// The kinds a report may name, and the canonical kind each is decided under.
pub const TARGET_KINDS: &[&str] = &[
    "photo",
    "share",
    "message",
    "conversation",
    "contest_entry",
    "user",
];

/// Whether `word` list item occurs in `text` as a whole word (or phrase), in
/// any case.
pub fn mentions(text: &str, word: &str) -> bool {
    let word = word.trim().to_lowercase();
    if word.is_empty() {
        return false;
    }
    let text = text.to_lowercase();
    let mut from = 0;
    while let Some(found) = text[from..].find(&word) {
        let start = from + found;
        let end = start + word.len();
        let before = text[..start].chars().next_back();
        let after = text[end..].chars().next();
        let boundary = |c: Option<char>| c.is_none_or(|c| !c.is_alphanumeric());
        if boundary(before) && boundary(after) {
            return true;
        }
        from = start + text[start..].chars().next().map_or(1, char::len_utf8);
    }
    false
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_reason_reads_back_and_has_a_rule() {
        for reason in Reason::ALL {
            assert_eq!(Reason::parse(reason.as_str()), Some(reason));
            assert!(rule(reason.rule().id).is_some());
        }
        assert_eq!(Reason::parse("bad"), None);
    }

    #[test]
    fn minors_and_intimate_images_are_urgent_and_keep_evidence() {
        assert!(Reason::Under18.is_urgent());
        assert!(Reason::IntimateImageWithoutConsent.is_urgent());
        assert!(!Reason::SpamOrScam.is_urgent());
        assert!(Reason::OtherIllegalContent.keeps_evidence());
        assert!(!Reason::Harassment.keeps_evidence());
    }

    #[test]
    fn words_match_whole_in_any_case() {
        assert!(mentions("You IDIOT!", "idiot"));
        assert!(mentions("idiot", "idiot"));
        assert!(!mentions("idiotic plan", "idiot"));
        assert!(!mentions("Sussex is nice", "sex"));
        assert!(mentions("send nudes please", "nudes"));
        assert!(!mentions("anything", ""));
    }

    #[test]
    fn rule_links_point_into_the_guidelines() {
        assert_eq!(
            rule_link("http://x/", Reason::Harassment.rule()),
            "http://x/guidelines#g5"
        );
    }
}
