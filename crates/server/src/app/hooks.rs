//! The listeners to sign-ups and payments (see `http::hooks`): a domain that
//! acts on them adds one line here.

use std::sync::Arc;

use crate::config::Config;
use crate::http::hooks::HookRegistry;
use crate::partners;

pub fn registry(config: &Config) -> HookRegistry {
    HookRegistry::new(vec![Arc::new(partners::PartnerHooks {
        hold_days: config.partners.commission_hold_days,
        sandbox_earns: !config.is_public(),
    })])
}
