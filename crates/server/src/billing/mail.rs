//! Telling people where their money went, through the durable mail outbox.
//! Every mail here goes out once per thing it is about: its outbox row
//! carries a key (`receipt:<payment>`, `refund:<payment>:<cents>`,
//! `reversal:<line>`, `paid:<line>`, `payout:<payout>`), and queueing a key
//! again changes nothing, so a replayed provider event, two events that say
//! the same (a session completed and its PaymentIntent succeeded), eight
//! instances at once or a retry after a crash mail once.
//!
//! - A **receipt** for every charge (Premium, each month's invoice; the
//!   detailed analysis; a contact fee when its hold is captured): what was
//!   bought, the amount, the date, the card (or "test payment" in the
//!   sandbox) and how to get help. Queued by [`BillingMails`] in the
//!   transaction of the provider event that charged it.
//! - A **refund** mail to the payer, with the reason, in the event's
//!   transaction too.
//! - A **reversal** mail to the payee whose share a refund or a dispute took
//!   back, with the reason (`/earnings` shows the same).
//! - **"You've been paid"** to a contestant when their share is sent
//!   ([`tell_paid`]) and to a partner when a payout is ([`tell_payout`]).

use chrono::{DateTime, Utc};
use sea_orm::{ColumnTrait, ConnectionTrait, DatabaseTransaction, DbErr, EntityTrait, QueryFilter};
use uuid::Uuid;

use super::entity::payment::{self, Status};
use super::entity::refund;
use super::payouts::entity::{LineStatus, TakenBack, line};
use super::refunds;
use super::rules::Purchase;
use crate::db::entities::users;
use crate::http::AppState;
use crate::http::hooks::Hooks;
use crate::mail::{Mail, Mailer};

/// Listens to every payment change (registered in `app::hooks`): receipts,
/// refund mails and reversal mails.
pub struct BillingMails {
    pub mailer: Mailer,
    /// The public address of the app, for the mails' links.
    pub base_url: String,
    /// Where people write for help (`contact_email`).
    pub help_email: String,
    /// `payments.reply_window_days`, said in a refund for want of a reply.
    pub reply_window_days: u32,
}

/// `$9.99` from cents.
pub fn money(cents: i64) -> String {
    let sign = if cents < 0 { "-" } else { "" };
    let cents = cents.abs();
    format!("{sign}${}.{:02}", cents / 100, cents % 100)
}

fn day(at: DateTime<Utc>) -> String {
    at.format("%B %-d, %Y").to_string()
}

async fn email_of(db: &impl ConnectionTrait, id: Option<Uuid>) -> Result<Option<String>, DbErr> {
    let Some(id) = id else { return Ok(None) };
    Ok(users::Entity::find_by_id(id)
        .one(db)
        .await?
        .and_then(|user| user.email))
}

/// How the payment was made, as a receipt says it: the card when the
/// provider named it.
pub fn paid_with(paid: &payment::Model) -> String {
    match (paid.provider.as_str(), &paid.card) {
        ("sandbox", _) => {
            "Test payment (sandbox): no card was charged and no money moved".to_owned()
        }
        (_, Some(card)) => format!("{card} (your card statement shows PRETTYSCORE)"),
        (_, None) => {
            "The card you entered at checkout (your card statement shows PRETTYSCORE)".to_owned()
        }
    }
}

/// What a receipt says was bought.
fn bought(paid: &payment::Model) -> String {
    match Purchase::parse(&paid.purpose) {
        Some(Purchase::Subscription) => "Premium Editing, one month".to_owned(),
        Some(Purchase::PersonalityDetailed) => "Detailed personality analysis".to_owned(),
        Some(Purchase::ContactRequest) => {
            "Contact request fee (the contestant approved your request, so the hold on your card was charged)"
                .to_owned()
        }
        None => paid.description.clone(),
    }
}

impl BillingMails {
    fn help(&self) -> String {
        format!(
            "Questions about this payment? Write to {} and say the payment's reference below. Your payments are on My Account: {}/account",
            self.help_email,
            self.base_url.trim_end_matches('/')
        )
    }

    async fn receipt(&self, txn: &DatabaseTransaction, paid: &payment::Model) -> Result<(), DbErr> {
        if !Status::CHARGED.contains(&paid.state()) || paid.amount_cents <= 0 {
            return Ok(());
        }
        let Some(to) = email_of(txn, paid.user_id).await? else {
            return Ok(());
        };
        let what = bought(paid);
        let body_text = format!(
            "Hi,\n\nThank you for your payment. This is your receipt.\n\nWhat you bought: {what}\nAmount: {amount} ({currency})\nDate: {date}\nPaid with: {card}\nReference: {reference}\n\n{help}\n\nThe PrettyScore team\n",
            amount = money(paid.amount_cents),
            currency = paid.currency.to_uppercase(),
            date = day(paid.updated_at),
            card = paid_with(paid),
            reference = paid.id,
            help = self.help(),
        );
        self.mailer
            .send_once_in(
                txn,
                &format!("receipt:{}", paid.id),
                Mail {
                    to,
                    subject: format!("Your PrettyScore receipt: {}", money(paid.amount_cents)),
                    body_text,
                    body_html: None,
                    kind: "payment_receipt",
                    link: None,
                },
            )
            .await?;
        Ok(())
    }

    /// Why `paid` was refunded, in the payer's words.
    async fn refund_reason(
        &self,
        txn: &DatabaseTransaction,
        paid: &payment::Model,
        share: Option<&line::Model>,
    ) -> Result<String, DbErr> {
        if share.and_then(|row| row.reason.as_deref()) == Some(TakenBack::NoReply.as_str()) {
            return Ok(format!(
                "The contestant approved your request but did not write to you within {} days, so your fee was refunded in full, automatically.",
                self.reply_window_days
            ));
        }
        let owed = refund::Entity::find()
            .filter(refund::Column::Provider.eq(paid.provider.clone()))
            .filter(
                sea_orm::Condition::any()
                    .add(
                        sea_orm::Condition::all()
                            .add(refund::Column::Kind.eq(refunds::PAYMENT))
                            .add(refund::Column::Target.eq(paid.id.to_string())),
                    )
                    .add(
                        sea_orm::Condition::all()
                            .add(refund::Column::Kind.eq(refunds::SUBSCRIPTION))
                            .add(
                                refund::Column::Target
                                    .eq(paid.provider_subscription_id.clone().unwrap_or_default()),
                            ),
                    ),
            )
            .one(txn)
            .await?;
        Ok(match owed {
            Some(row) => format!("{}.", row.reason.trim_end_matches('.')),
            None => "Your payment was refunded.".to_owned(),
        })
    }

    async fn refund(
        &self,
        txn: &DatabaseTransaction,
        paid: &payment::Model,
        share: Option<&line::Model>,
    ) -> Result<(), DbErr> {
        if !matches!(paid.state(), Status::Refunded | Status::PartiallyRefunded)
            || paid.refunded_cents <= 0
        {
            return Ok(());
        }
        let Some(to) = email_of(txn, paid.user_id).await? else {
            return Ok(());
        };
        let reason = self.refund_reason(txn, paid, share).await?;
        let whole = if paid.state() == Status::Refunded {
            "in full"
        } else {
            "in part"
        };
        let body_text = format!(
            "Hi,\n\nWe refunded {amount} of your payment of {paid_amount} for {what} {whole}.\n\nWhy: {reason}\n\nRefunded to: {card}\nDate: {date}\nReference: {reference}\n\nA refund to a card can take 5 to 10 days to show on your statement.\n\n{help}\n\nThe PrettyScore team\n",
            amount = money(paid.refunded_cents),
            paid_amount = money(paid.amount_cents),
            what = paid.description,
            card = paid_with(paid),
            date = day(paid.updated_at),
            reference = paid.id,
            help = self.help(),
        );
        self.mailer
            .send_once_in(
                txn,
                &format!("refund:{}:{}", paid.id, paid.refunded_cents),
                Mail {
                    to,
                    subject: format!("Your PrettyScore refund: {}", money(paid.refunded_cents)),
                    body_text,
                    body_html: None,
                    kind: "payment_refund",
                    link: None,
                },
            )
            .await?;
        Ok(())
    }

    /// The payee's share of a refunded or disputed payment was (or is being)
    /// taken back: told once, with the reason.
    async fn reversal(&self, txn: &DatabaseTransaction, share: &line::Model) -> Result<(), DbErr> {
        let taken = matches!(share.status, LineStatus::Canceled | LineStatus::Reversed)
            || share.reverse_owed;
        let Some(reason) = share.reason.as_deref().and_then(TakenBack::parse) else {
            return Ok(());
        };
        if !taken {
            return Ok(());
        }
        let Some(to) = email_of(txn, Some(share.payee_id)).await? else {
            return Ok(());
        };
        let why = match reason {
            TakenBack::NoReply => format!(
                "you approved the request but did not write to the requester within {} days, so they were refunded in full",
                self.reply_window_days
            ),
            TakenBack::Refund => "the requester's payment was refunded".to_owned(),
            TakenBack::Dispute => "the requester disputed the charge with their bank".to_owned(),
        };
        let what_happens = if share.status == LineStatus::Transferred || share.reverse_owed {
            "It was already sent to your payout account, so the transfer is taken back."
        } else {
            "It had not been paid out yet, so nothing leaves your payout account."
        };
        let link = format!("{}/earnings", self.base_url.trim_end_matches('/'));
        let body_text = format!(
            "Hi,\n\nYour share of {amount} for \"{what}\" no longer counts as earned: {why}.\n\n{what_happens}\n\nYour earnings page shows the same: {link}\n\n{help}\n\nThe PrettyScore team\n",
            amount = money(share.amount_cents),
            what = share.description,
            help = self.help(),
        );
        self.mailer
            .send_once_in(
                txn,
                &format!("reversal:{}", share.id),
                Mail {
                    to,
                    subject: match reason {
                        TakenBack::NoReply => {
                            "A contact request was refunded: you did not reply in time".to_owned()
                        }
                        TakenBack::Refund => {
                            "A contact fee was refunded: your share is taken back".to_owned()
                        }
                        TakenBack::Dispute => {
                            "A contact fee was disputed: your share is taken back".to_owned()
                        }
                    },
                    body_text,
                    body_html: None,
                    kind: "earning_reversed",
                    link: Some(link),
                },
            )
            .await?;
        Ok(())
    }
}

#[async_trait::async_trait]
impl Hooks<AppState> for BillingMails {
    async fn payment_changed(
        &self,
        txn: &DatabaseTransaction,
        payment_id: Uuid,
    ) -> Result<(), DbErr> {
        let Some(paid) = payment::Entity::find_by_id(payment_id).one(txn).await? else {
            return Ok(());
        };
        let share = line::Entity::find()
            .filter(line::Column::PaymentId.eq(payment_id))
            .one(txn)
            .await?;
        self.receipt(txn, &paid).await?;
        self.refund(txn, &paid, share.as_ref()).await?;
        if let Some(share) = &share {
            self.reversal(txn, share).await?;
        }
        Ok(())
    }
}

/// Mails the payee of line `line_id` that their share was sent, once.
/// Logged, never failing the payout run: the transfer is made either way.
pub async fn tell_paid(state: &AppState, line_id: Uuid) {
    if let Err(err) = queue_paid(state, line_id).await {
        tracing::warn!(line = %line_id, error = %err, "could not queue the you've-been-paid mail");
    }
}

async fn queue_paid(state: &AppState, line_id: Uuid) -> Result<(), DbErr> {
    {
        let Some(row) = line::Entity::find_by_id(line_id).one(&state.db).await? else {
            return Ok(());
        };
        let Some(to) = email_of(&state.db, Some(row.payee_id)).await? else {
            return Ok(());
        };
        let link = format!("{}/earnings", state.base_url.trim_end_matches('/'));
        let test = state.payments.provider.name() == "sandbox";
        let body_text = format!(
            "Hi,\n\nYou've been paid: we sent {amount} to your payout account, your share of \"{what}\" (a fee of {fee}).\n\nSent: {date}\n{arrives}\n\nYour earnings: {link}\n\nQuestions? Write to {help}.\n\nThe PrettyScore team\n",
            amount = money(row.amount_cents),
            what = row.description,
            fee = money(row.fee_cents),
            date = day(row.transferred_at.unwrap_or_else(Utc::now)),
            arrives = if test {
                "This was a test transfer (sandbox): no money moved."
            } else {
                "Your bank usually shows it within a few business days."
            },
            help = state.config.contact_email,
        );
        state
            .mailer
            .send_once(
                &format!("paid:{}", row.id),
                Mail {
                    to,
                    subject: format!(
                        "You've been paid {} on PrettyScore",
                        money(row.amount_cents)
                    ),
                    body_text,
                    body_html: None,
                    kind: "earning_paid",
                    link: Some(link),
                },
            )
            .await?;
        Ok(())
    }
}

/// Mails `user` that a payout of `amount_cents` (`what`: say, "your partner
/// commissions") was sent, once per `payout_id`. Logged, never failing.
pub async fn tell_payout(
    state: &AppState,
    user: Uuid,
    payout_id: Uuid,
    amount_cents: i64,
    what: &str,
    by_hand: bool,
) {
    if let Err(err) = queue_payout(state, user, payout_id, amount_cents, what, by_hand).await {
        tracing::warn!(payout = %payout_id, error = %err, "could not queue the payout mail");
    }
}

async fn queue_payout(
    state: &AppState,
    user: Uuid,
    payout_id: Uuid,
    amount_cents: i64,
    what: &str,
    by_hand: bool,
) -> Result<(), DbErr> {
    {
        let Some(to) = email_of(&state.db, Some(user)).await? else {
            return Ok(());
        };
        let how = if by_hand {
            "It was sent to you by hand, as agreed with you."
        } else if state.payments.provider.name() == "sandbox" {
            "It was sent to your payout account as a test transfer (sandbox): no money moved."
        } else {
            "It was sent to your payout account; your bank usually shows it within a few business days."
        };
        let body_text = format!(
            "Hi,\n\nYou've been paid: {amount} for {what}.\n\n{how}\nDate: {date}\nReference: {payout_id}\n\nQuestions? Write to {help}.\n\nThe PrettyScore team\n",
            amount = money(amount_cents),
            date = day(Utc::now()),
            help = state.config.contact_email,
        );
        state
            .mailer
            .send_once(
                &format!("payout:{payout_id}"),
                Mail {
                    to,
                    subject: format!("You've been paid {} on PrettyScore", money(amount_cents)),
                    body_text,
                    body_html: None,
                    kind: "payout_paid",
                    link: None,
                },
            )
            .await?;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn amounts_read_as_dollars_and_cents() {
        assert_eq!(money(499), "$4.99");
        assert_eq!(money(100_000), "$1000.00");
        assert_eq!(money(-135), "-$1.35");
        assert_eq!(money(5), "$0.05");
    }

    fn payment(provider: &str, card: Option<&str>) -> payment::Model {
        let now = Utc::now();
        payment::Model {
            id: Uuid::nil(),
            user_id: None,
            checkout_session_id: None,
            contact_request_id: None,
            provider: provider.to_owned(),
            purpose: "subscription".to_owned(),
            description: String::new(),
            amount_cents: 999,
            refunded_cents: 0,
            currency: "usd".to_owned(),
            status: "succeeded".to_owned(),
            provider_payment_intent_id: None,
            provider_invoice_id: None,
            created_at: now,
            updated_at: now,
            purchase_ref: None,
            provider_subscription_id: None,
            duplicate_of: None,
            card: card.map(str::to_owned),
        }
    }

    #[test]
    fn a_receipt_names_the_card_or_says_it_moved_no_money() {
        assert!(paid_with(&payment("sandbox", None)).starts_with("Test payment"));
        assert_eq!(
            paid_with(&payment("stripe", Some("Visa ending in 4242"))),
            "Visa ending in 4242 (your card statement shows PRETTYSCORE)"
        );
        let unnamed = paid_with(&payment("stripe", None));
        assert!(unnamed.starts_with("The card you entered"), "{unnamed}");
    }
}
