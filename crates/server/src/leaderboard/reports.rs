//! The `leaderboard_reports` table (`m20261123_006001_leaderboard`): a user's
//! report of an entry, one per user and entry.

use std::collections::HashMap;

use chrono::Utc;
use sea_orm::entity::prelude::*;
use sea_orm::sea_query::OnConflict;
use sea_orm::{QuerySelect, Set};

#[derive(Clone, Debug, PartialEq, DeriveEntityModel)]
#[sea_orm(table_name = "leaderboard_reports")]
pub struct Model {
    #[sea_orm(primary_key, auto_increment = false)]
    pub id: Uuid,
    pub photo_id: Uuid,
    pub reporter_id: Uuid,
    pub reason: String,
    /// `open` or `resolved`.
    pub status: String,
    pub resolved_by: Option<Uuid>,
    pub resolved_at: Option<DateTimeUtc>,
    pub created_at: DateTimeUtc,
}

#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}

/// Records a report unless this user already reported this entry; the id of
/// the report either way.
pub async fn insert_once(
    db: &impl ConnectionTrait,
    photo_id: Uuid,
    reporter_id: Uuid,
    reason: &str,
) -> Result<Uuid, DbErr> {
    let row = ActiveModel {
        id: Set(Uuid::now_v7()),
        photo_id: Set(photo_id),
        reporter_id: Set(reporter_id),
        reason: Set(reason.to_owned()),
        status: Set("open".to_owned()),
        resolved_by: Set(None),
        resolved_at: Set(None),
        created_at: Set(Utc::now()),
    };
    Entity::insert(row)
        .on_conflict(
            OnConflict::columns([Column::PhotoId, Column::ReporterId])
                .do_nothing()
                .to_owned(),
        )
        .exec_without_returning(db)
        .await?;
    let report = Entity::find()
        .filter(Column::PhotoId.eq(photo_id))
        .filter(Column::ReporterId.eq(reporter_id))
        .one(db)
        .await?
        .ok_or_else(|| DbErr::RecordNotFound("the report just written".to_owned()))?;
    Ok(report.id)
}

/// Open reports per photo.
pub async fn open_counts(
    db: &impl ConnectionTrait,
    photo_ids: impl IntoIterator<Item = Uuid>,
) -> Result<HashMap<Uuid, u64>, DbErr> {
    let ids: Vec<Uuid> = photo_ids.into_iter().collect();
    if ids.is_empty() {
        return Ok(HashMap::new());
    }
    let rows: Vec<(Uuid, i64)> = Entity::find()
        .select_only()
        .column(Column::PhotoId)
        .column_as(Column::Id.count(), "open")
        .filter(Column::PhotoId.is_in(ids))
        .filter(Column::Status.eq("open"))
        .group_by(Column::PhotoId)
        .into_tuple()
        .all(db)
        .await?;
    Ok(rows
        .into_iter()
        .map(|(id, count)| (id, u64::try_from(count).unwrap_or(0)))
        .collect())
}
