//! The listeners to sign-ups and payments (see `http::hooks`): a domain that
//! acts on them adds one line here.

use std::sync::Arc;

use crate::config::Config;
use crate::db::notify::Notifier;
use crate::http::AppHooks;
use crate::mail::Mailer;
use crate::{billing, contact, leaderboard, messages, partners, personality};

/// The listeners the server runs with: the partner programme, the
/// personality purchase, the contact mails, billing's receipts and refund
/// mails, and the wake-ups of the users' event streams.
pub fn registry(config: &Config, mailer: &Mailer, base_url: &str, notifier: &Notifier) -> AppHooks {
    AppHooks::new(vec![
        Arc::new(partners::PartnerHooks {
            hold_days: config.partners.commission_hold_days,
            sandbox_earns: !config.is_public(),
        }),
        Arc::new(personality::PersonalityHooks),
        Arc::new(contact::hooks::ContactHooks {
            mailer: mailer.clone(),
            base_url: base_url.to_owned(),
            reply_window_days: config.payments.reply_window_days,
        }),
        Arc::new(billing::mail::BillingMails {
            mailer: mailer.clone(),
            base_url: base_url.to_owned(),
            help_email: config.contact_email.clone(),
            reply_window_days: config.payments.reply_window_days,
        }),
        Arc::new(messages::events::RequestPaymentWakes {
            notifier: notifier.clone(),
        }),
        // What can be reported, and how it is removed (issue 41).
        Arc::new(leaderboard::reports::PhotoReports),
        Arc::new(messages::reports::MessageReports),
    ])
}
