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

/// Rows looked at per round of a sweep.
const SWEEP_BATCH: u64 = 100;

/// Stores a temporary edit result and records when it expires. Returns its key.
pub async fn store(
    state: &AppState,
    user_id: Option<Uuid>,
    jpeg: Vec<u8>,
) -> anyhow::Result<String> {
    let id = Uuid::new_v4();
    let key = format!("tmp/edits/{id}.jpg");
    let now = Utc::now();
    let ttl = chrono::Duration::seconds(
        i64::try_from(state.config.edits.temp_ttl_secs).unwrap_or(i64::MAX / 1000),
    );
    let row = ActiveModel {
        id: Set(id),
        storage_key: Set(key.clone()),
        user_id: Set(user_id),
        content_type: Set("image/jpeg".to_owned()),
        byte_size: Set(i64::try_from(jpeg.len())?),
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
        return Err(err.into());
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
