//! The programme's rules as plain functions: codes, tiers and commission
//! arithmetic. Amounts are whole cents; a commission is rounded half up to
//! the cent once, on the sale, and every later figure (the parent's share,
//! what a partial refund keeps) is derived from that stored figure.

use crate::billing::rules::{Purchase, contact_fee_split};
pub use crate::values::codes::{SHORT_CODE_MESSAGE, normalise_code, promo_code, short_code};

/// Tiers and their commission rates (spec: starter 15 %, pro 20 %, elite 30 %).
pub const TIERS: [(&str, f64); 3] = [("starter", 0.15), ("pro", 0.20), ("elite", 0.30)];
/// What a parent partner earns of each commission a partner they referred earns.
pub const PARENT_RATE: f64 = 0.10;
/// The discount a partner's promo code gives on the first payment.
pub const PROMO_PERCENT_OFF: u8 = 10;
/// A referred user's payments earn commission for this many months after
/// they were referred.
pub const EARNING_MONTHS: u32 = 12;
/// The referral cookie lives 60 days.
pub const REFERRAL_COOKIE_DAYS: i64 = 60;
/// The 429 for an address over its clicks a minute.
pub const TOO_MANY_CLICKS: &str =
    "Too many referral clicks from your network. Please wait a minute and try again.";

/// The rate of `tier`, if it is one.
pub fn tier_rate(tier: &str) -> Option<f64> {
    TIERS
        .iter()
        .find(|(name, _)| *name == tier)
        .map(|(_, rate)| *rate)
}

/// `amount × rate`, rounded half up to the cent (rates are whole basis points).
pub fn commission(amount_cents: i64, rate: f64) -> i64 {
    let basis_points = (rate * 10_000.0).round() as i64;
    (amount_cents * basis_points + 5_000).div_euclid(10_000)
}

/// What a sale's commission keeps after `refunded` of `amount` came back:
/// the same share of what stayed paid, rounded down.
pub fn kept(commission_cents: i64, amount_cents: i64, refunded_cents: i64) -> i64 {
    if amount_cents <= 0 || refunded_cents >= amount_cents {
        return 0;
    }
    let refunded = refunded_cents.max(0);
    (commission_cents * (amount_cents - refunded)).div_euclid(amount_cents)
}

/// The part of a payment a partner earns on: a contact fee's platform share,
/// everything else whole.
pub fn commissionable(purpose: &str, amount_cents: i64) -> i64 {
    if purpose == Purchase::ContactRequest.as_str() {
        contact_fee_split(amount_cents).0
    } else {
        amount_cents
    }
}

/// An address reduced to what identifies a mailbox: lower case, and for
/// Gmail without dots and `+tags` (the usual self-referral trick).
pub fn comparable_email(email: &str) -> String {
    let email = email.trim().to_lowercase();
    let Some((local, domain)) = email.rsplit_once('@') else {
        return email;
    };
    let local = local.split('+').next().unwrap_or(local);
    if domain == "gmail.com" || domain == "googlemail.com" {
        format!("{}@gmail.com", local.replace('.', ""))
    } else {
        format!("{local}@{domain}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn commissions_round_half_up_once() {
        assert_eq!(commission(999, 0.15), 150); // 149.85
        assert_eq!(commission(999, 0.20), 200); // 199.8
        assert_eq!(commission(999, 0.30), 300); // 299.7
        assert_eq!(commission(499, 0.15), 75); // 74.85
        assert_eq!(commission(200, PARENT_RATE), 20);
        assert_eq!(commission(15, PARENT_RATE), 2); // 1.5
        assert_eq!(commission(0, 0.3), 0);
    }

    #[test]
    fn a_refund_keeps_the_share_that_stayed_paid() {
        assert_eq!(kept(200, 999, 0), 200);
        assert_eq!(kept(200, 999, 999), 0);
        assert_eq!(kept(200, 1000, 500), 100);
        assert_eq!(kept(200, 999, 1), 199);
        assert_eq!(kept(200, 0, 0), 0);
    }

    #[test]
    fn contact_fees_earn_on_the_platform_share() {
        assert_eq!(commissionable("contact_request", 100_000), 25_000);
        assert_eq!(commissionable("subscription", 999), 999);
    }

    #[test]
    fn look_alike_addresses_compare_equal() {
        assert_eq!(comparable_email("A.B+x@Gmail.com"), "ab@gmail.com");
        assert_eq!(comparable_email("a.b+x@example.com"), "a.b@example.com");
        assert_ne!(
            comparable_email("a@example.com"),
            comparable_email("b@example.com")
        );
    }

    #[test]
    fn tiers_have_the_spec_rates() {
        assert_eq!(tier_rate("starter"), Some(0.15));
        assert_eq!(tier_rate("pro"), Some(0.20));
        assert_eq!(tier_rate("elite"), Some(0.30));
        assert_eq!(tier_rate("gold"), None);
    }
}
