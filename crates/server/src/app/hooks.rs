//! The listeners to sign-ups and payments (see `http::hooks`): a domain that
//! acts on them adds one line here.

use std::sync::Arc;

use crate::config::Config;
use crate::http::hooks::HookRegistry;
use crate::mail::Mailer;
use crate::{contact, partners, personality};

pub fn registry(config: &Config, mailer: &Mailer, base_url: &str) -> HookRegistry {
    HookRegistry::new(vec![
        Arc::new(partners::PartnerHooks {
            hold_days: config.partners.commission_hold_days,
        }),
        Arc::new(personality::PersonalityHooks),
        Arc::new(contact::mail::ContactHooks {
            mailer: mailer.clone(),
            base_url: base_url.to_owned(),
        }),
    ])
}
