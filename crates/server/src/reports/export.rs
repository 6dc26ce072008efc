//! A user's moderation records in their account export (GDPR Art. 15): the
//! reports they filed, the decisions taken about them with their statements
//! of reasons, and their appeals. Deleting the account keeps the rows (the
//! foreign keys set the user to null): a decision and its evidence must
//! outlive the account it was about for the period the README states.

use sea_orm::{ColumnTrait, DbErr, EntityTrait, QueryFilter, QueryOrder};
use serde_json::{Value, json};
use uuid::Uuid;

use super::entity::{appeal, decision, report};
use super::{DecisionView, view};
use crate::http::AppState;
use crate::http::user_data::UserData;

/// The decisions about `user`, newest first, each with its appeal.
pub(super) async fn decisions_about(
    state: &AppState,
    user: Uuid,
) -> Result<Vec<DecisionView>, DbErr> {
    let rows = decision::Entity::find()
        .filter(decision::Column::AffectedUserId.eq(user))
        .order_by_desc(decision::Column::CreatedAt)
        .all(&state.db)
        .await?;
    let appeals = appeal::Entity::find()
        .filter(appeal::Column::DecisionId.is_in(rows.iter().map(|row| row.id)))
        .all(&state.db)
        .await?;
    Ok(rows
        .into_iter()
        .map(|row| {
            let appealed = appeals.iter().find(|a| a.decision_id == row.id);
            view(state, row, appealed)
        })
        .collect())
}

/// The `moderation` section of the export.
pub struct ModerationRecords;

#[async_trait::async_trait]
impl UserData for ModerationRecords {
    fn name(&self) -> &'static str {
        "moderation"
    }

    async fn export(&self, state: &AppState, user_id: Uuid) -> anyhow::Result<Option<Value>> {
        let filed = report::Entity::find()
            .filter(report::Column::ReporterId.eq(user_id))
            .order_by_desc(report::Column::CreatedAt)
            .all(&state.db)
            .await?;
        let decisions = decisions_about(state, user_id).await?;
        let appeals = appeal::Entity::find()
            .filter(appeal::Column::UserId.eq(user_id))
            .order_by_desc(appeal::Column::CreatedAt)
            .all(&state.db)
            .await?;
        if filed.is_empty() && decisions.is_empty() && appeals.is_empty() {
            return Ok(None);
        }
        // What the user wrote and what was decided, not the internal
        // bookkeeping (token hashes, the admins' ids, evidence keys).
        let filed: Vec<Value> = filed
            .into_iter()
            .map(|r| {
                json!({
                    "id": r.id,
                    "reported_as": r.reported_as,
                    "target_kind": r.target_kind,
                    "target_id": r.target_id,
                    "reason": r.reason,
                    "details": r.details,
                    "reporter_email": r.reporter_email,
                    "status": r.status,
                    "decision_id": r.decision_id,
                    "created_at": r.created_at,
                })
            })
            .collect();
        let appeals: Vec<Value> = appeals
            .into_iter()
            .map(|a| {
                json!({
                    "id": a.id,
                    "decision_id": a.decision_id,
                    "statement": a.statement,
                    "status": a.status,
                    "answer": a.answer,
                    "created_at": a.created_at,
                    "decided_at": a.decided_at,
                })
            })
            .collect();
        Ok(Some(json!({
            "reports_filed": filed,
            "decisions_about_you": decisions,
            "appeals": appeals,
        })))
    }
}
