//! `/auth/v1`, the GoTrue-compatible auth API (docs/auth-compat.md), and the
//! account endpoints. Every test gets a fresh app from the harness (cheap
//! argon2 parameters); the GoTrue-shaped calls (`app.post`, `app.get_as`,
//! …) are the harness client's auth layer; `on_both_databases!` runs a
//! test on SQLite and PostgreSQL. Here: reading the mails the app sent.

mod account;
mod admin;
mod authenticator;
mod compat;
mod display_name;
mod keys;
mod mail_flows;
mod mfa;
mod mfa_webauthn;
mod notices;
mod oidc_provider;
mod passkeys;
mod phone;
mod providers;
mod security;
mod sessions;
mod signup;
mod smtp;
mod user;

use prettyscore_server::config::Config;
use reqwest::Method;
use serde_json::{Value, json};

use crate::harness::*;

/// What the app sent by mail, on any test app.
impl TestApp {
    /// The newest mail to `address` in the outbox: (subject, body).
    pub async fn last_mail(&self, address: &str) -> (String, String) {
        use prettyscore_server::mail::outbox;
        use sea_orm::{ColumnTrait, EntityTrait, QueryFilter, QueryOrder};
        let row = outbox::Entity::find()
            .filter(outbox::Column::ToAddress.eq(address))
            .order_by_desc(outbox::Column::CreatedAt)
            .one(&self.db)
            .await
            .unwrap()
            .unwrap_or_else(|| panic!("no mail to {address}"));
        (row.subject, row.body_text)
    }

    /// The mails of `kind` (the outbox's template name) to `address`, oldest
    /// first: (subject, body).
    pub async fn mails_of_kind(&self, address: &str, kind: &str) -> Vec<(String, String)> {
        use prettyscore_server::mail::outbox;
        use sea_orm::{ColumnTrait, EntityTrait, QueryFilter, QueryOrder};
        outbox::Entity::find()
            .filter(outbox::Column::ToAddress.eq(address))
            .filter(outbox::Column::Kind.eq(kind))
            .order_by_asc(outbox::Column::CreatedAt)
            .all(&self.db)
            .await
            .unwrap()
            .into_iter()
            .map(|row| (row.subject, row.body_text))
            .collect()
    }

    pub async fn mail_count(&self, address: &str) -> u64 {
        use prettyscore_server::mail::outbox;
        use sea_orm::{ColumnTrait, EntityTrait, PaginatorTrait, QueryFilter};
        outbox::Entity::find()
            .filter(outbox::Column::ToAddress.eq(address))
            .count(&self.db)
            .await
            .unwrap()
    }
}

/// The six-digit code in a mail body.
pub fn code_in(body: &str) -> String {
    let at = body.find("code: ").expect("the mail has a code") + "code: ".len();
    body[at..at + 6].to_owned()
}

/// The link in a mail body.
pub fn link_in(body: &str) -> String {
    body.lines()
        .find(|line| line.starts_with("http"))
        .expect("the mail has a link")
        .to_owned()
}
