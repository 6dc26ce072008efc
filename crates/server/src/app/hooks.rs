//! The listeners to sign-ups and payments (see `http::hooks`): a domain that
//! acts on them adds one line here.

use std::sync::Arc;

use crate::config::Config;
use crate::db::notify::Notifier;
use crate::http::hooks::HookRegistry;
use crate::{messages, partners};

/// The listeners the server runs with: the partner programme, and the
/// wake-ups of the users' event streams.
pub fn registry_with(config: &Config, notifier: &Notifier) -> HookRegistry {
    HookRegistry::new(vec![
        partner_hooks(config),
        Arc::new(messages::events::RequestPaymentWakes {
            notifier: notifier.clone(),
        }),
    ])
}

/// The listeners that act on the data (no wake-ups), for tools and tests
/// that deliver payment events outside a running server.
pub fn registry(config: &Config) -> HookRegistry {
    HookRegistry::new(vec![partner_hooks(config)])
}

fn partner_hooks(config: &Config) -> Arc<dyn crate::http::hooks::Hooks> {
    Arc::new(partners::PartnerHooks {
        hold_days: config.partners.commission_hold_days,
        sandbox_earns: !config.is_public(),
    })
}
