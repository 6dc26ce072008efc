//! The security audit log (`audit_log_entries`), in GoTrue's payload shape:
//! the auth API's events and the administrators' decisions (written through
//! `http::extract::AdminAction`). Writing it never fails a request: a
//! failure is logged and dropped.

use chrono::Utc;
use sea_orm::{ActiveModelTrait, ConnectionTrait, Set};
use serde_json::{Value, json};
use uuid::Uuid;

use crate::db::entities::audit_log_entries;

/// Records `action` (e.g. `login`, `logout`, `user_signedup`,
/// `token_revoked`, `user_deleted`) by `actor`.
pub async fn record(
    db: &impl ConnectionTrait,
    action: &str,
    actor_id: Option<Uuid>,
    actor_email: Option<&str>,
    ip: &str,
    traits: Value,
) {
    let log_type = match action {
        "login" | "logout" | "token_revoked" | "token_refreshed" => "token",
        "user_signedup" | "user_deleted" | "user_invited" => "team",
        _ => "user",
    };
    write(db, action, log_type, actor_id, actor_email, ip, traits).await;
}

/// The `log_type` of an administrator's decision on an admin page.
pub const ADMIN_LOG_TYPE: &str = "admin";

/// Records an administrator's decision on an admin page (`log_type`
/// `admin`): who, what (`action`), when, and in `traits` what it was
/// applied to, with the state before and after. `/admin/audit` lists these.
pub async fn record_admin(
    db: &impl ConnectionTrait,
    action: &str,
    admin_id: Uuid,
    admin_email: Option<&str>,
    ip: &str,
    traits: Value,
) {
    write(
        db,
        action,
        ADMIN_LOG_TYPE,
        Some(admin_id),
        admin_email,
        ip,
        traits,
    )
    .await;
}

async fn write(
    db: &impl ConnectionTrait,
    action: &str,
    log_type: &str,
    actor_id: Option<Uuid>,
    actor_email: Option<&str>,
    ip: &str,
    traits: Value,
) {
    let entry = audit_log_entries::ActiveModel {
        id: Set(Uuid::now_v7()),
        payload: Set(json!({
            "action": action,
            "actor_id": actor_id,
            "actor_username": actor_email.unwrap_or_default(),
            "actor_via_sso": false,
            "log_type": log_type,
            "traits": traits,
        })),
        ip_address: Set(ip.to_owned()),
        created_at: Set(Utc::now()),
    };
    if let Err(err) = entry.insert(db).await {
        tracing::warn!(error = %err, action, "could not write the audit log");
    }
}
