//! Billing's rules, as plain functions: what each purchase costs (decided
//! here, never by the client), the contact fee by rank, and what is premium.

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use crate::providers::payments::CheckoutMode;

/// Premium Editing: $9.99 a month.
pub const PREMIUM_EDITING_CENTS: i64 = 999;
/// The detailed personality analysis: $4.99 once.
pub const PERSONALITY_DETAILED_CENTS: i64 = 499;
pub const CURRENCY: &str = "usd";
/// The platform keeps 25 % of a contact fee; the contestant is paid the
/// rest, and a partner earns on the platform's share.
pub const PLATFORM_SHARE_PERCENT: i64 = 25;

/// What a checkout buys (`type` of `create-checkout`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum Purchase {
    /// The Premium Editing subscription (the spec's `subscription`).
    Subscription,
    /// The detailed personality analysis.
    PersonalityDetailed,
    /// The fee to contact a ranked contestant, held until they answer.
    ContactRequest,
}

impl Purchase {
    /// The value stored in `purpose` columns.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Subscription => "subscription",
            Self::PersonalityDetailed => "personality_detailed",
            Self::ContactRequest => "contact_request",
        }
    }

    pub fn parse(value: &str) -> Option<Self> {
        match value {
            "subscription" => Some(Self::Subscription),
            "personality_detailed" => Some(Self::PersonalityDetailed),
            "contact_request" => Some(Self::ContactRequest),
            _ => None,
        }
    }

    /// The price of a purchase with one price for everyone, in cents, and
    /// its price id; `None` for a contact request, priced by its seller
    /// (contact, through the hooks) from the request's stored rank with
    /// [`contact_fee_cents`].
    pub fn fixed_price(self) -> Option<(i64, &'static str)> {
        match self {
            Self::Subscription => Some((PREMIUM_EDITING_CENTS, "price_premium_editing")),
            Self::PersonalityDetailed => {
                Some((PERSONALITY_DETAILED_CENTS, "price_personality_detailed"))
            }
            Self::ContactRequest => None,
        }
    }

    /// How the provider takes the money: a subscription, one payment, or a
    /// hold captured when the contestant approves.
    pub fn mode(self) -> CheckoutMode {
        match self {
            Self::Subscription => CheckoutMode::Subscription,
            Self::PersonalityDetailed => CheckoutMode::Payment,
            Self::ContactRequest => CheckoutMode::Hold,
        }
    }

    /// Where the buyer returns from the checkout: `(paid, gave up)`.
    pub fn returns(self) -> (&'static str, &'static str) {
        match self {
            Self::Subscription => ("/premium?success=true", "/premium?canceled=true"),
            Self::PersonalityDetailed => (
                "/personality-test?success=true",
                "/personality-test?canceled=true",
            ),
            // The provider fills in the session's id, so the page can say
            // when this payment was a second one, given back at once.
            Self::ContactRequest => (
                "/leaderboard?contact=success&checkout={CHECKOUT_SESSION_ID}",
                "/leaderboard?contact=canceled",
            ),
        }
    }

    /// What the buyer sees on the checkout page and in their payments.
    pub fn description(self) -> &'static str {
        match self {
            Self::Subscription => "Premium Editing (monthly)",
            Self::PersonalityDetailed => "Detailed personality analysis",
            Self::ContactRequest => "Contact request fee",
        }
    }
}

/// The contact fee for a contestant at `rank` (1 is first), in whole
/// dollars: `max(1000 - (rank - 1) * 50, 100)` (spec 2 §9). Rank 1 costs
/// $1000; from rank 19 on, $100. The leaderboard issue shows this price; the
/// server charges it.
pub fn contact_fee_dollars(rank: u32) -> i64 {
    let rank = i64::from(rank.max(1));
    (1000 - (rank - 1) * 50).max(100)
}

/// [`contact_fee_dollars`] in cents.
pub fn contact_fee_cents(rank: u32) -> i64 {
    contact_fee_dollars(rank) * 100
}

/// 75 % of a contact fee goes to the contestant, 25 %
/// ([`PLATFORM_SHARE_PERCENT`]) to the platform: `(platform, contestant)` in
/// cents, summing to the fee (the platform's share rounds down).
pub fn contact_fee_split(fee_cents: i64) -> (i64, i64) {
    let platform = fee_cents * PLATFORM_SHARE_PERCENT / 100;
    (platform, fee_cents - platform)
}

/// The spec's price id for a contact fee: `price_contact_{fee}`.
pub fn contact_price_id(rank: u32) -> String {
    format!("price_contact_{}", contact_fee_dollars(rank))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_contact_fee_falls_50_dollars_a_rank_to_a_floor_of_100() {
        assert_eq!(contact_fee_dollars(1), 1000);
        assert_eq!(contact_fee_dollars(2), 950);
        assert_eq!(contact_fee_dollars(18), 150);
        assert_eq!(contact_fee_dollars(19), 100);
        assert_eq!(contact_fee_dollars(500), 100);
        assert_eq!(contact_fee_dollars(u32::MAX), 100);
        assert_eq!(contact_fee_cents(3), 90_000);
        assert_eq!(contact_price_id(1), "price_contact_1000");
    }

    #[test]
    fn the_split_gives_the_contestant_75_percent_and_loses_no_cent() {
        assert_eq!(contact_fee_split(100_000), (25_000, 75_000));
        let (platform, contestant) = contact_fee_split(10_001);
        assert_eq!(platform + contestant, 10_001);
    }
}
