//! The free AI-edit quota, kept in `edit_quota_usage` so every instance
//! shares it.
//!
//! - One row per browser (`device_id`, the id in the `ps_device` cookie),
//!   tagged with the last signed-in user who edited on it.
//! - Anonymous: the browser's count is capped at the limit.
//! - Signed in: the browser's count plus the user's counts on their other
//!   browsers is capped at the limit, so a user shares one allowance across
//!   browsers and a fresh browser does not reset it. Editing while signed in
//!   on a browser attributes that browser's earlier edits to the account
//!   (most likely the same person), so signing in never unlocks more edits.
//! - Premium members (an active `premium_editing` subscription, as the billing
//!   domain's `MaybePremium` extractor says) skip all this.
//!
//! An edit is taken by one conditional upsert *before* the engine runs and
//! given back if the edit fails, so double submits and parallel tabs cannot
//! overspend and only successful edits count. SQLite runs a statement under
//! its single write lock; on PostgreSQL the statement runs after a
//! transaction-scoped advisory lock, so its snapshot includes every earlier
//! take (the lock is held for that one statement, never during an edit).

use chrono::Utc;
use sea_orm::{
    ConnectionTrait, DatabaseBackend, DatabaseConnection, DbErr, Statement, TransactionTrait, Value,
};
use uuid::Uuid;

/// The advisory lock that orders quota takes on PostgreSQL.
const QUOTA_LOCK: i64 = 0x5053_4544_4954; // "PSEDIT"

/// What a browser (and its signed-in user) has left.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Usage {
    pub limit: u32,
    pub used: u32,
    /// Premium: no limit.
    pub unlimited: bool,
}

impl Usage {
    /// `None` when unlimited.
    pub fn remaining(&self) -> Option<u32> {
        (!self.unlimited).then(|| self.limit.saturating_sub(self.used))
    }
}

/// `$n` placeholders for PostgreSQL, `?n` for SQLite: one SQL text for both.
fn statement(db: &impl ConnectionTrait, sql: &str, values: Vec<Value>) -> Statement {
    let backend = db.get_database_backend();
    let sql = match backend {
        DatabaseBackend::Sqlite => sql.replace('$', "?"),
        _ => sql.to_owned(),
    };
    Statement::from_sql_and_values(backend, sql, values)
}

/// Edits counted against this browser and user: the browser's own count plus
/// the user's counts on their other browsers.
pub async fn used(
    db: &DatabaseConnection,
    device_id: &str,
    user_id: Option<Uuid>,
) -> Result<u32, DbErr> {
    let sql = "SELECT \
        CAST(COALESCE((SELECT edits_used FROM edit_quota_usage WHERE device_id = $1), 0) AS BIGINT) AS device_used, \
        CAST(COALESCE((SELECT SUM(edits_used) FROM edit_quota_usage \
                       WHERE user_id = $2 AND device_id <> $1), 0) AS BIGINT) AS others";
    let row = db
        .query_one_raw(statement(db, sql, vec![device_id.into(), user_id.into()]))
        .await?
        .ok_or_else(|| DbErr::RecordNotFound("the quota query returned no row".into()))?;
    let device: i64 = row.try_get("", "device_used")?;
    let others: i64 = row.try_get("", "others")?;
    Ok(u32::try_from(device + others).unwrap_or(u32::MAX))
}

/// Takes one edit if the limit allows it; `false` when it is used up.
pub async fn take(
    db: &DatabaseConnection,
    device_id: &str,
    user_id: Option<Uuid>,
    limit: u32,
) -> Result<bool, DbErr> {
    if limit == 0 {
        return Ok(false);
    }
    // A new browser row starts at 1 if the user still has edits left; an
    // existing one goes up by 1 if its count plus the user's counts on their
    // other browsers is under the limit. The row then belongs to this user.
    let sql = "INSERT INTO edit_quota_usage (id, device_id, user_id, edits_used, created_at, updated_at) \
        SELECT $1, $2, $3, 1, $4, $4 \
        WHERE (SELECT COALESCE(SUM(edits_used), 0) FROM edit_quota_usage WHERE user_id = $3) < $5 \
        ON CONFLICT (device_id) DO UPDATE SET \
            edits_used = edit_quota_usage.edits_used + 1, \
            user_id = COALESCE(excluded.user_id, edit_quota_usage.user_id), \
            updated_at = excluded.updated_at \
        WHERE edit_quota_usage.edits_used \
            + (SELECT COALESCE(SUM(other.edits_used), 0) FROM edit_quota_usage other \
               WHERE other.user_id = $3 AND other.device_id <> edit_quota_usage.device_id) < $5 \
        RETURNING edits_used";
    let values: Vec<Value> = vec![
        Uuid::new_v4().into(),
        device_id.into(),
        user_id.into(),
        Utc::now().into(),
        i64::from(limit).into(),
    ];
    let taken = match db.get_database_backend() {
        DatabaseBackend::Postgres => {
            let txn = db.begin().await?;
            txn.execute_raw(Statement::from_sql_and_values(
                DatabaseBackend::Postgres,
                "SELECT pg_advisory_xact_lock($1)",
                [QUOTA_LOCK.into()],
            ))
            .await?;
            let row = txn.query_one_raw(statement(&txn, sql, values)).await?;
            txn.commit().await?;
            row.is_some()
        }
        _ => db
            .query_one_raw(statement(db, sql, values))
            .await?
            .is_some(),
    };
    Ok(taken)
}

/// Gives back an edit taken for a request that then failed.
pub async fn give_back(db: &DatabaseConnection, device_id: &str) -> Result<(), DbErr> {
    let sql = "UPDATE edit_quota_usage SET edits_used = edits_used - 1, updated_at = $2 \
               WHERE device_id = $1 AND edits_used > 0";
    db.execute_raw(statement(
        db,
        sql,
        vec![device_id.into(), Utc::now().into()],
    ))
    .await?;
    Ok(())
}
