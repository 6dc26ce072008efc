//! Temporary edit results: edits not attached to a saved photo are stored at
//! `tmp/edits/<uuid>.jpg` with a `media_objects` row whose `expires_at` says
//! when they go. A sweeper on every instance deletes expired ones.
//!
//! Several instances may sweep at once: each expired row is *claimed* by
//! deleting it, and only the instance whose `DELETE` removed the row deletes
//! the object. If that fails, the row is put back so a later sweep retries.

use std::time::Duration;

use bytes::Bytes;
use chrono::{DateTime, Utc};
use sea_orm::entity::prelude::*;
use sea_orm::sea_query::Expr;
use sea_orm::{ActiveModelTrait, DatabaseConnection, QueryOrder, QuerySelect, Set};
use uuid::Uuid;

use crate::http::AppState;
use crate::http::user_data::UserData;
use crate::storage::Storage;

pub mod media_object {
    //! The `media_objects` table (created by `m20261121_000009_platform`).
    use sea_orm::entity::prelude::*;

    #[derive(Clone, Debug, PartialEq, DeriveEntityModel)]
    #[sea_orm(table_name = "media_objects")]
    pub struct Model {
        #[sea_orm(primary_key, auto_increment = false)]
        pub id: Uuid,
        pub storage_key: String,
        pub user_id: Option<Uuid>,
        pub content_type: String,
        pub byte_size: i64,
        pub sha256: Option<String>,
        pub visibility: String,
        pub expires_at: Option<DateTimeUtc>,
        pub created_at: DateTimeUtc,
    }

    #[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
    pub enum Relation {}

    impl ActiveModelBehavior for ActiveModel {}
}

use media_object::{ActiveModel, Column, Entity};

/// Where temporary results are stored.
const TEMP_FOLDER: &str = "tmp/edits";

/// Rows looked at per round of a sweep.
const SWEEP_BATCH: u64 = 100;

/// Why a temporary result was not stored.
#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    /// Temporary results already take `edits.temp_budget_bytes`.
    #[error("temporary results are over their storage budget")]
    OverBudget,
    /// The signed-out clients of this address stored
    /// `edits.anonymous_temp_bytes_per_address` in the current window; the
    /// window ends in this many seconds.
    #[error("this address's signed-out edit results are over their bytes")]
    AddressOverBudget(u64),
    #[error(transparent)]
    Failed(#[from] anyhow::Error),
}

impl From<DbErr> for StoreError {
    fn from(err: DbErr) -> Self {
        Self::Failed(err.into())
    }
}

/// The bytes temporary results take now (rows that expire are theirs).
async fn temp_bytes(db: &DatabaseConnection) -> Result<i64, DbErr> {
    let total: Option<Option<i64>> = Entity::find()
        .select_only()
        .column_as(
            Expr::cust("CAST(COALESCE(SUM(byte_size), 0) AS BIGINT)"),
            "total",
        )
        .filter(Column::ExpiresAt.is_not_null())
        .into_tuple()
        .one(db)
        .await?;
    Ok(total.flatten().unwrap_or(0))
}

/// Stores a temporary edit result and records when it expires. Returns its
/// key. Refused while temporary results fill their budget (several
/// instances storing at once may pass it by a few results), and, signed out
/// (`anonymous_address`: the client's rate key), while the address's
/// results of the window fill its bytes. A signed-out result is kept
/// `edits.anonymous_temp_ttl_secs` (55 minutes) at most.
pub async fn store(
    state: &AppState,
    user_id: Option<Uuid>,
    anonymous_address: Option<&str>,
    jpeg: Vec<u8>,
) -> Result<String, StoreError> {
    let size = i64::try_from(jpeg.len()).map_err(anyhow::Error::from)?;
    let edits = &state.config.edits;
    let mut ttl_secs = edits.temp_ttl_secs;
    if let Some(address) = anonymous_address.filter(|_| user_id.is_none()) {
        ttl_secs = ttl_secs.min(edits.anonymous_temp_ttl_secs).max(1);
        let window = i64::try_from(ttl_secs).unwrap_or(i64::MAX);
        let kib = i32::try_from(jpeg.len().div_ceil(1024)).unwrap_or(i32::MAX);
        let cap_kib = i64::try_from(edits.anonymous_temp_bytes_per_address.div_ceil(1024))
            .unwrap_or(i64::MAX);
        let held = crate::rate_limit::count_amount(
            &state.db,
            &format!("anonymous-edit-bytes:{address}"),
            window,
            kib,
        )
        .await?;
        if held > cap_kib {
            return Err(StoreError::AddressOverBudget(
                crate::rate_limit::window_remaining_secs(window),
            ));
        }
    }
    let budget = i64::try_from(state.config.edits.temp_budget_bytes).unwrap_or(i64::MAX);
    if temp_bytes(&state.db).await?.saturating_add(size) > budget {
        tracing::warn!(
            budget,
            "temporary edit results are over their storage budget"
        );
        return Err(StoreError::OverBudget);
    }
    let id = Uuid::new_v4();
    let key = format!("{TEMP_FOLDER}/{id}.jpg");
    let now = Utc::now();
    let ttl = chrono::Duration::seconds(i64::try_from(ttl_secs).unwrap_or(i64::MAX / 1000));
    let row = ActiveModel {
        id: Set(id),
        storage_key: Set(key.clone()),
        user_id: Set(user_id),
        content_type: Set("image/jpeg".to_owned()),
        byte_size: Set(size),
        sha256: Set(None),
        visibility: Set("private".to_owned()),
        expires_at: Set(Some(now + ttl)),
        created_at: Set(now),
    };
    // The row first: an object is never in storage without the row that
    // tells the sweeper to remove it.
    row.insert(&state.db).await?;
    if let Err(err) = state.storage.put(&key, Bytes::from(jpeg)).await {
        let _ = Entity::delete_by_id(id).exec(&state.db).await;
        // A hung write may still land: remove it when it does.
        state.storage.remove_later(key, false);
        return Err(anyhow::Error::from(err).into());
    }
    Ok(key)
}

/// Deletes every temporary object expired at `now`; returns how many this
/// caller removed.
pub async fn sweep_expired(
    db: &DatabaseConnection,
    storage: &Storage,
    now: DateTime<Utc>,
) -> Result<usize, DbErr> {
    let mut removed = 0;
    loop {
        let batch = Entity::find()
            .filter(Column::ExpiresAt.lt(now))
            .order_by_asc(Column::ExpiresAt)
            .limit(SWEEP_BATCH)
            .all(db)
            .await?;
        if batch.is_empty() {
            return Ok(removed);
        }
        for row in batch {
            if !claim(db, row.id).await? {
                continue; // another instance has it
            }
            if let Err(err) = storage.delete(&row.storage_key).await {
                tracing::warn!(key = %row.storage_key, error = %err, "could not delete an expired image; will retry");
                let _ = put_back(db, row).await;
                // Storage is failing: stop here rather than spin on it.
                return Ok(removed);
            }
            removed += 1;
        }
    }
}

/// Deletes every temporary result written before `written_before` that has
/// no row (a crash between a sweep's claim and its delete); returns how many
/// went.
pub async fn sweep_orphans(
    db: &DatabaseConnection,
    storage: &Storage,
    written_before: DateTime<Utc>,
) -> anyhow::Result<usize> {
    let settled: Vec<String> = storage
        .list_with_times(TEMP_FOLDER)
        .await?
        .into_iter()
        .filter(|(_, written)| *written < written_before)
        .map(|(key, _)| key)
        .collect();
    let mut removed = 0;
    for keys in settled.chunks(SWEEP_BATCH as usize) {
        let known: std::collections::HashSet<String> = Entity::find()
            .select_only()
            .column(Column::StorageKey)
            .filter(Column::StorageKey.is_in(keys.iter().cloned()))
            .into_tuple()
            .all(db)
            .await?
            .into_iter()
            .collect();
        for key in keys.iter().filter(|key| !known.contains(*key)) {
            storage.delete(key).await?;
            removed += 1;
        }
    }
    Ok(removed)
}

/// Restores a claimed row whose object could not be deleted.
async fn put_back(db: &DatabaseConnection, row: media_object::Model) -> Result<(), DbErr> {
    ActiveModel {
        id: Set(row.id),
        storage_key: Set(row.storage_key),
        user_id: Set(row.user_id),
        content_type: Set(row.content_type),
        byte_size: Set(row.byte_size),
        sha256: Set(row.sha256),
        visibility: Set(row.visibility),
        expires_at: Set(row.expires_at),
        created_at: Set(row.created_at),
    }
    .insert(db)
    .await?;
    Ok(())
}

/// Claims a row by deleting it: true for exactly one caller.
async fn claim(db: &DatabaseConnection, id: Uuid) -> Result<bool, DbErr> {
    Ok(Entity::delete_by_id(id).exec(db).await?.rows_affected == 1)
}

/// The edits domain's share of a user's data: temporary edit results, not
/// exported (they expire within a day), deleted with the account.
pub struct TemporaryEdits;

#[async_trait::async_trait]
impl UserData for TemporaryEdits {
    fn name(&self) -> &'static str {
        "edits"
    }

    async fn delete(&self, state: &AppState, user_id: Uuid) -> anyhow::Result<()> {
        Ok(delete_user_objects(state, user_id).await?)
    }
}

/// Deletes a user's temporary objects now (account deletion): they are
/// marked expired and swept like any other.
async fn delete_user_objects(state: &AppState, user_id: Uuid) -> Result<(), DbErr> {
    let now = Utc::now();
    Entity::update_many()
        .col_expr(Column::ExpiresAt, Expr::value(now))
        .filter(Column::UserId.eq(user_id))
        .filter(Column::ExpiresAt.is_not_null())
        .exec(&state.db)
        .await?;
    sweep_expired(
        &state.db,
        &state.storage,
        now + chrono::Duration::seconds(1),
    )
    .await?;
    Ok(())
}

/// Sweeps every `edits.sweep_interval_secs` for as long as the server runs.
pub fn spawn_sweeper(state: AppState) {
    let every = Duration::from_secs(state.config.edits.sweep_interval_secs.max(1));
    tokio::spawn(async move {
        let mut ticks = tokio::time::interval(every);
        ticks.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        loop {
            ticks.tick().await;
            match sweep_expired(&state.db, &state.storage, Utc::now()).await {
                Ok(0) => {}
                Ok(count) => tracing::info!(count, "removed expired edit results"),
                Err(err) => tracing::warn!(error = %err, "the expired-image sweep failed"),
            }
        }
    });
}
