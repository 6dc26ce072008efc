//! Events a lower domain announces and a higher one acts on, without the
//! lower one naming it: a sign-up (auth) and a payment that changed
//! (billing); and what billing asks of the domains that sell through it:
//! the price, whether the thing bought exists, who earns from it, and the
//! promo codes checkout accepts. The partner programme
//! listens (registered in `app::hooks`); each hook runs inside the
//! announcing domain's transaction, so its effect commits or rolls back with
//! the event.

use std::sync::Arc;

use sea_orm::{DatabaseConnection, DatabaseTransaction, DbErr};
use uuid::Uuid;

/// What a report points at, as the domain that keeps it describes it to the
/// reports domain (issue 41): whose it is, who may report it, and what an
/// admin sees of it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Reported {
    /// The kind decisions are kept under: `photo` for a photo, its share
    /// page and its contest entry alike, so that one decision covers them.
    pub kind: &'static str,
    /// The canonical id under `kind` (a share's slug becomes its photo's id).
    pub id: String,
    /// Whose content it is: the user a decision affects.
    pub owner: Option<Uuid>,
    /// What it is, in a few words for the mails and the queue ("a photo on
    /// the leaderboard", "a chat message").
    pub label: String,
    /// What the admin reads: a message's text, a photo's name.
    pub excerpt: String,
    /// A short-lived signed URL of its image, for the admin queue only.
    pub image_url: Option<String>,
    /// Anyone may see it (a share page, a leaderboard or contest entry), so
    /// a signed-out visitor may report it.
    pub public: bool,
    /// Besides the public: the users who may see it and so report it (the
    /// two parties of a conversation).
    pub parties: Vec<Uuid>,
}

/// What removing reported content did.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Removed {
    /// The storage keys the content's bytes were copied to as evidence
    /// (under the evidence folder given), when a reason required it.
    pub evidence_keys: Vec<String>,
    /// Text kept as evidence (a removed message's words).
    pub evidence_text: Option<String>,
}

/// A new account, made by its owner (not an admin, not anonymous).
#[derive(Debug, Clone)]
pub struct SignUp<'a> {
    pub user_id: Uuid,
    pub email: Option<&'a str>,
    /// The referral cookie the browser carried.
    pub referral_code: Option<&'a str>,
}

/// A promo code checkout accepted: the discount on the first payment, and
/// who it credits.
#[derive(Debug, Clone, PartialEq)]
pub struct Promo {
    pub code: String,
    pub percent_off: u8,
    pub partner_id: Uuid,
    /// Whether the buyer is the partner themself (their account, or an
    /// address of theirs written another way): they may not use their own code.
    pub buyer_is_owner: bool,
}

/// What a higher domain charges for what it sells under a reference, as its
/// own rules decide (the contact fee of the request's stored rank).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Priced {
    Price {
        amount_cents: i64,
        price_id: String,
    },
    /// No such thing of the buyer's.
    NotFound,
    /// Paid for already.
    AlreadyPaid,
}

/// Who a payment earns for, and how much of it is theirs: the contestant's
/// 75 % of a contact fee.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Payee {
    pub user_id: Uuid,
    pub share_cents: i64,
    /// What the payee sees on their earnings page.
    pub description: String,
}

/// Generic over the state the report hooks are handed (`AppState`), so that
/// this module need not name the state that holds the registry.
#[async_trait::async_trait]
pub trait Hooks<S: Sync>: Send + Sync {
    async fn signed_up(
        &self,
        _txn: &DatabaseTransaction,
        _sign_up: &SignUp<'_>,
    ) -> Result<(), DbErr> {
        Ok(())
    }

    /// A payment was recorded or advanced (paid, refunded).
    async fn payment_changed(
        &self,
        _txn: &DatabaseTransaction,
        _payment_id: Uuid,
    ) -> Result<(), DbErr> {
        Ok(())
    }

    /// Whether `buyer` may buy what `purpose` sells under `reference` (a
    /// saved personality result for `personality_detailed`): `Some(false)`
    /// when it is not theirs or does not exist, `None` when this listener
    /// does not sell `purpose`.
    async fn owns_purchase(
        &self,
        _db: &DatabaseConnection,
        _purpose: &str,
        _reference: Uuid,
        _buyer: Uuid,
    ) -> Result<Option<bool>, DbErr> {
        Ok(None)
    }

    /// The promo that `code` names, if it is valid (the caller refuses a
    /// partner's own code).
    async fn promo_code(
        &self,
        _db: &DatabaseConnection,
        _code: &str,
        _buyer: Uuid,
    ) -> Result<Option<Promo>, DbErr> {
        Ok(None)
    }

    /// What `buyer` pays for `purpose` under `reference`: `None` when this
    /// listener does not sell `purpose`.
    async fn price(
        &self,
        _db: &DatabaseConnection,
        _purpose: &str,
        _reference: Uuid,
        _buyer: Uuid,
    ) -> Result<Option<Priced>, DbErr> {
        Ok(None)
    }

    /// Whether the thing a payment for `purpose` buys under `reference`
    /// still exists (a payment only points at what exists): `None` when this
    /// listener does not sell `purpose`.
    async fn reference_exists(
        &self,
        _txn: &DatabaseTransaction,
        _purpose: &str,
        _reference: Uuid,
    ) -> Result<Option<bool>, DbErr> {
        Ok(None)
    }

    /// Who a payment for `purpose` under `reference` (a contact request's
    /// id) earns for, if anyone: `None` when this listener does not sell it.
    async fn payee(
        &self,
        _txn: &DatabaseTransaction,
        _purpose: &str,
        _reference: Uuid,
    ) -> Result<Option<Payee>, DbErr> {
        Ok(None)
    }

    /// Whether `user` is paid by this listener's domain outside the
    /// payments ledger (an approved partner), and so may open a payout
    /// account before their first ledger line.
    async fn receives_payouts(&self, _db: &DatabaseConnection, _user: Uuid) -> Result<bool, DbErr> {
        Ok(false)
    }

    /// The content a report names by `kind` and `id` (as the reporter sent
    /// them, or canonical): `None` when this listener does not keep `kind`,
    /// `Some(None)` when there is no such content. Who may report it is the
    /// reports domain's to decide, from `public` and `parties`.
    async fn reported(
        &self,
        _state: &S,
        _kind: &str,
        _id: &str,
    ) -> Result<Option<Option<Reported>>, DbErr> {
        Ok(None)
    }

    /// Removes the content `id` of the canonical `kind` everywhere at once,
    /// its stored bytes included; when `evidence` names a storage folder,
    /// the bytes (or text) are copied there first, never public. `None` when
    /// this listener does not keep `kind`.
    async fn remove_reported(
        &self,
        _state: &S,
        _kind: &str,
        _id: &str,
        _evidence: Option<&str>,
    ) -> Result<Option<Removed>, DbErr> {
        Ok(None)
    }

    /// `user` was banned: withdraw what they offer to others (listings,
    /// open requests, with their holds released).
    async fn user_banned(&self, _state: &S, _user: Uuid) -> Result<(), DbErr> {
        Ok(())
    }
}

/// Every listener, in registration order.
pub struct HookRegistry<S>(Arc<[Arc<dyn Hooks<S>>]>);

impl<S> Clone for HookRegistry<S> {
    fn clone(&self) -> Self {
        Self(self.0.clone())
    }
}

impl<S> Default for HookRegistry<S> {
    fn default() -> Self {
        Self(Arc::new([]))
    }
}

impl<S: Sync> HookRegistry<S> {
    pub fn new(hooks: Vec<Arc<dyn Hooks<S>>>) -> Self {
        Self(hooks.into())
    }

    pub async fn signed_up(
        &self,
        txn: &DatabaseTransaction,
        sign_up: &SignUp<'_>,
    ) -> Result<(), DbErr> {
        for hook in self.0.iter() {
            hook.signed_up(txn, sign_up).await?;
        }
        Ok(())
    }

    pub async fn payment_changed(
        &self,
        txn: &DatabaseTransaction,
        payment_id: Uuid,
    ) -> Result<(), DbErr> {
        for hook in self.0.iter() {
            hook.payment_changed(txn, payment_id).await?;
        }
        Ok(())
    }

    /// The first listener's answer on who may buy `reference`.
    pub async fn owns_purchase(
        &self,
        db: &DatabaseConnection,
        purpose: &str,
        reference: Uuid,
        buyer: Uuid,
    ) -> Result<Option<bool>, DbErr> {
        for hook in self.0.iter() {
            if let Some(owns) = hook.owns_purchase(db, purpose, reference, buyer).await? {
                return Ok(Some(owns));
            }
        }
        Ok(None)
    }

    /// The first listener's answer for `code`.
    pub async fn promo_code(
        &self,
        db: &DatabaseConnection,
        code: &str,
        buyer: Uuid,
    ) -> Result<Option<Promo>, DbErr> {
        for hook in self.0.iter() {
            if let Some(promo) = hook.promo_code(db, code, buyer).await? {
                return Ok(Some(promo));
            }
        }
        Ok(None)
    }

    /// The first listener's price for `reference`.
    pub async fn price(
        &self,
        db: &DatabaseConnection,
        purpose: &str,
        reference: Uuid,
        buyer: Uuid,
    ) -> Result<Option<Priced>, DbErr> {
        for hook in self.0.iter() {
            if let Some(priced) = hook.price(db, purpose, reference, buyer).await? {
                return Ok(Some(priced));
            }
        }
        Ok(None)
    }

    /// Whether a listener knows `reference` (false when none sells `purpose`).
    pub async fn reference_exists(
        &self,
        txn: &DatabaseTransaction,
        purpose: &str,
        reference: Uuid,
    ) -> Result<bool, DbErr> {
        for hook in self.0.iter() {
            if let Some(exists) = hook.reference_exists(txn, purpose, reference).await? {
                return Ok(exists);
            }
        }
        Ok(false)
    }

    /// The first listener's payee for a payment.
    pub async fn payee(
        &self,
        txn: &DatabaseTransaction,
        purpose: &str,
        reference: Uuid,
    ) -> Result<Option<Payee>, DbErr> {
        for hook in self.0.iter() {
            if let Some(payee) = hook.payee(txn, purpose, reference).await? {
                return Ok(Some(payee));
            }
        }
        Ok(None)
    }

    /// The first listener's view of a reported target (see [`Hooks::reported`]):
    /// `None` when no listener keeps `kind` or there is no such content.
    pub async fn reported(
        &self,
        state: &S,
        kind: &str,
        id: &str,
    ) -> Result<Option<Reported>, DbErr> {
        for hook in self.0.iter() {
            if let Some(found) = hook.reported(state, kind, id).await? {
                return Ok(found);
            }
        }
        Ok(None)
    }

    /// Removes reported content through the listener that keeps `kind`.
    pub async fn remove_reported(
        &self,
        state: &S,
        kind: &str,
        id: &str,
        evidence: Option<&str>,
    ) -> Result<Option<Removed>, DbErr> {
        for hook in self.0.iter() {
            if let Some(removed) = hook.remove_reported(state, kind, id, evidence).await? {
                return Ok(Some(removed));
            }
        }
        Ok(None)
    }

    /// Tells every listener that `user` was banned.
    pub async fn user_banned(&self, state: &S, user: Uuid) -> Result<(), DbErr> {
        for hook in self.0.iter() {
            hook.user_banned(state, user).await?;
        }
        Ok(())
    }

    /// Whether any listener pays `user` (see [`Hooks::receives_payouts`]).
    pub async fn receives_payouts(
        &self,
        db: &DatabaseConnection,
        user: Uuid,
    ) -> Result<bool, DbErr> {
        for hook in self.0.iter() {
            if hook.receives_payouts(db, user).await? {
                return Ok(true);
            }
        }
        Ok(false)
    }
}
