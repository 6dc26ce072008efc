//! What the reports domain needs of chats (issue 41): a message and a whole
//! conversation (a contact request's id) can be reported by either party;
//! removing a message blanks its words for both ("This message was
//! removed"), removing a conversation closes it and removes every message
//! in it. The words are kept as evidence only when the reason requires it.

use chrono::Utc;
use sea_orm::sea_query::Expr;
use sea_orm::{ColumnTrait, DbErr, EntityTrait, QueryFilter, QueryOrder};
use uuid::Uuid;

use super::entity;
use crate::contact;
use crate::http::AppState;
use crate::http::hooks::{Hooks, Removed, Reported};

/// The chats' reports listener, registered in `app::hooks`.
pub struct MessageReports;

fn excerpt(text: &str) -> String {
    let mut short: String = text.chars().take(280).collect();
    if text.chars().count() > 280 {
        short.push('…');
    }
    short
}

#[async_trait::async_trait]
impl Hooks<AppState> for MessageReports {
    async fn reported(
        &self,
        state: &AppState,
        kind: &str,
        id: &str,
    ) -> Result<Option<Option<Reported>>, DbErr> {
        if !matches!(kind, "message" | "conversation") {
            return Ok(None);
        }
        let Ok(id) = id.trim().parse::<Uuid>() else {
            return Ok(Some(None));
        };
        if kind == "message" {
            let Some(message) = entity::Entity::find()
                .filter(entity::Column::Id.eq(id))
                .one(&state.db)
                .await?
            else {
                return Ok(Some(None));
            };
            return Ok(Some(Some(Reported {
                kind: "message",
                id: message.id.to_string(),
                owner: Some(message.sender_id),
                label: "a chat message".to_owned(),
                excerpt: if message.removed_at.is_some() {
                    "This message was removed".to_owned()
                } else {
                    excerpt(&message.content)
                },
                image_url: None,
                public: false,
                parties: vec![message.sender_id, message.receiver_id],
            })));
        }
        let Some(row) = contact::entity::Entity::find_by_id(id)
            .one(&state.db)
            .await?
        else {
            return Ok(Some(None));
        };
        let last = entity::Entity::find()
            .filter(entity::Column::ContactRequestId.eq(row.id))
            .order_by_desc(entity::Column::Seq)
            .one(&state.db)
            .await?;
        // The requester, and the contestant once the request was paid (as
        // `contact::party_of` shows it).
        let mut parties = vec![row.requester_id];
        if row.paid || row.status != contact::Status::Pending {
            parties.push(row.contestant_id);
        }
        Ok(Some(Some(Reported {
            kind: "conversation",
            id: row.id.to_string(),
            // The affected party is the one the reporter is talking to.
            owner: None,
            label: "a conversation".to_owned(),
            excerpt: format!(
                "First message: {}{}",
                excerpt(&row.message_preview),
                last.map(|m| format!(" · Last message: {}", excerpt(&m.content)))
                    .unwrap_or_default()
            ),
            image_url: None,
            public: false,
            parties,
        })))
    }

    async fn remove_reported(
        &self,
        state: &AppState,
        kind: &str,
        id: &str,
        evidence: Option<&str>,
    ) -> Result<Option<Removed>, DbErr> {
        if !matches!(kind, "message" | "conversation") {
            return Ok(None);
        }
        let Ok(id) = id.trim().parse::<Uuid>() else {
            return Ok(Some(Removed::default()));
        };
        let column = if kind == "message" {
            entity::Column::Id
        } else {
            entity::Column::ContactRequestId
        };
        let kept = if evidence.is_some() {
            let rows = entity::Entity::find()
                .filter(column.eq(id))
                .filter(entity::Column::RemovedAt.is_null())
                .order_by_asc(entity::Column::Seq)
                .all(&state.db)
                .await?;
            Some(
                rows.iter()
                    .map(|row| format!("[{}] {}: {}", row.created_at, row.sender_id, row.content))
                    .collect::<Vec<_>>()
                    .join("\n"),
            )
        } else {
            None
        };
        entity::Entity::update_many()
            .col_expr(entity::Column::RemovedAt, Expr::value(Some(Utc::now())))
            .col_expr(entity::Column::Content, Expr::value(""))
            .filter(column.eq(id))
            .filter(entity::Column::RemovedAt.is_null())
            .exec(&state.db)
            .await?;
        if kind == "conversation" {
            contact::entity::Entity::update_many()
                .col_expr(contact::entity::Column::ClosedAt, Expr::value(Utc::now()))
                .filter(contact::entity::Column::Id.eq(id))
                .filter(contact::entity::Column::ClosedAt.is_null())
                .exec(&state.db)
                .await?;
        }
        Ok(Some(Removed {
            evidence_keys: Vec::new(),
            evidence_text: kept,
        }))
    }
}
