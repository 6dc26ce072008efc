//! One place for every report (issue 41, sections 3 and 4):
//!
//! - `reports`: one notice about one thing (`target_kind` + `target_id`, the
//!   canonical kind: `photo` for a photo, its share page and its contest
//!   entry alike; `reported_as` keeps the kind the reporter named), by a
//!   signed-in user (`reporter_id`) or a signed-out visitor
//!   (`reporter_email`, with their good-faith statement), with a reason,
//!   free text and the 48-hour deadline (`due_at`). A user reports a thing
//!   once (`reports_target_reporter_key`). Open until a decision covers it.
//! - `moderation_decisions`: what an admin decided about one thing (dismiss,
//!   remove, suspend, ban), under which rule of /guidelines, with the
//!   statement of reasons; the evidence kept, until when; the hash of the
//!   appeal link mailed to the affected user.
//! - `moderation_appeals`: the affected user's one appeal of a decision
//!   (`moderation_appeals_decision_key`), and the second admin's answer.
//! - `messages.removed_at`: a message taken down shows as removed.
//!
//! The leaderboard's and the contact requests' own report tables
//! (`leaderboard_reports`, `contact_reports`) are copied in (their open
//! reports stay open) and no longer written.

use sea_orm_migration::prelude::*;
use sea_orm_migration::sea_orm::{ConnectionTrait, Statement};

use super::common::*;

#[derive(DeriveMigrationName)]
pub struct Migration;

pub const REASONS: &[&str] = &[
    "spam_or_scam",
    "harassment",
    "nudity_or_sexual_content",
    "under_18",
    "intimate_image_without_consent",
    "my_photo_without_consent",
    "other_illegal_content",
    "other",
];

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        let db = manager.get_database_backend();
        use ForeignKeyAction::{Cascade, SetNull};
        let decisions = Table::create()
            .table(ModerationDecisions::Table)
            .col(pk_uuid(ModerationDecisions::Id))
            .col(text(ModerationDecisions::TargetKind))
            .col(text(ModerationDecisions::TargetId))
            .col(text(ModerationDecisions::TargetLabel))
            // The affected user; kept as history when their account goes.
            .col(uuid_null(ModerationDecisions::AffectedUserId))
            .col(text_enum(
                ModerationDecisions::Action,
                "moderation_decisions_action_check",
                &["dismiss", "remove", "suspend", "ban"],
                None,
            ))
            .col(text(ModerationDecisions::Reason))
            .col(text(ModerationDecisions::Rule))
            .col(text(ModerationDecisions::Statement))
            .col(
                ColumnDef::new(ModerationDecisions::SuspendDays)
                    .integer()
                    .null()
                    .take(),
            )
            .col(uuid_null(ModerationDecisions::DecidedBy))
            .col(json_default(ModerationDecisions::EvidenceKeys, "[]"))
            .col(text_null(ModerationDecisions::EvidenceText))
            .col(timestamp_null(ModerationDecisions::EvidenceUntil))
            .col(text(ModerationDecisions::AppealTokenHash))
            .col(timestamp_now(ModerationDecisions::CreatedAt, db))
            .foreign_key(&mut fk(
                "moderation_decisions_affected_user_id_fkey",
                (
                    ModerationDecisions::Table,
                    ModerationDecisions::AffectedUserId,
                ),
                (Users::Table, Users::Id),
                SetNull,
            ))
            .foreign_key(&mut fk(
                "moderation_decisions_decided_by_fkey",
                (ModerationDecisions::Table, ModerationDecisions::DecidedBy),
                (Users::Table, Users::Id),
                SetNull,
            ))
            .to_owned();
        let reports = Table::create()
            .table(Reports::Table)
            .col(pk_uuid(Reports::Id))
            .col(text_enum(
                Reports::TargetKind,
                "reports_target_kind_check",
                &["photo", "message", "conversation", "user"],
                None,
            ))
            .col(text(Reports::TargetId))
            .col(text(Reports::ReportedAs))
            .col(uuid_null(Reports::AffectedUserId))
            .col(uuid_null(Reports::ReporterId))
            .col(text_null(Reports::ReporterEmail))
            .col(text_enum(
                Reports::Reason,
                "reports_reason_check",
                REASONS,
                None,
            ))
            .col(text_default(Reports::Details, ""))
            .col(flag(Reports::GoodFaith, false))
            .col(text_enum(
                Reports::Status,
                "reports_status_check",
                &["open", "decided"],
                Some("open"),
            ))
            .col(uuid_null(Reports::DecisionId))
            .col(timestamp_now(Reports::DueAt, db))
            .col(timestamp_now(Reports::CreatedAt, db))
            .foreign_key(&mut fk(
                "reports_affected_user_id_fkey",
                (Reports::Table, Reports::AffectedUserId),
                (Users::Table, Users::Id),
                SetNull,
            ))
            // A reporter's account may go; the notice and its history stay.
            .foreign_key(&mut fk(
                "reports_reporter_id_fkey",
                (Reports::Table, Reports::ReporterId),
                (Users::Table, Users::Id),
                SetNull,
            ))
            .foreign_key(&mut fk(
                "reports_decision_id_fkey",
                (Reports::Table, Reports::DecisionId),
                (ModerationDecisions::Table, ModerationDecisions::Id),
                SetNull,
            ))
            .to_owned();
        let appeals = Table::create()
            .table(ModerationAppeals::Table)
            .col(pk_uuid(ModerationAppeals::Id))
            .col(uuid(ModerationAppeals::DecisionId))
            .col(uuid_null(ModerationAppeals::UserId))
            .col(text(ModerationAppeals::Statement))
            .col(text_enum(
                ModerationAppeals::Status,
                "moderation_appeals_status_check",
                &["open", "upheld", "reversed"],
                Some("open"),
            ))
            .col(text_null(ModerationAppeals::Answer))
            .col(uuid_null(ModerationAppeals::DecidedBy))
            .col(timestamp_null(ModerationAppeals::DecidedAt))
            .col(timestamp_now(ModerationAppeals::CreatedAt, db))
            .foreign_key(&mut fk(
                "moderation_appeals_decision_id_fkey",
                (ModerationAppeals::Table, ModerationAppeals::DecisionId),
                (ModerationDecisions::Table, ModerationDecisions::Id),
                Cascade,
            ))
            .foreign_key(&mut fk(
                "moderation_appeals_user_id_fkey",
                (ModerationAppeals::Table, ModerationAppeals::UserId),
                (Users::Table, Users::Id),
                SetNull,
            ))
            .foreign_key(&mut fk(
                "moderation_appeals_decided_by_fkey",
                (ModerationAppeals::Table, ModerationAppeals::DecidedBy),
                (Users::Table, Users::Id),
                SetNull,
            ))
            .to_owned();
        let indexes = vec![
            unique(
                "reports_target_reporter_key",
                Reports::Table,
                [Reports::TargetKind, Reports::TargetId, Reports::ReporterId],
            ),
            index(
                "reports_status_due_at_idx",
                Reports::Table,
                [
                    (Reports::Status, IndexOrder::Asc),
                    (Reports::DueAt, IndexOrder::Asc),
                ],
            ),
            index(
                "reports_target_idx",
                Reports::Table,
                [
                    (Reports::TargetKind, IndexOrder::Asc),
                    (Reports::TargetId, IndexOrder::Asc),
                ],
            ),
            index(
                "moderation_decisions_affected_user_id_idx",
                ModerationDecisions::Table,
                [(ModerationDecisions::AffectedUserId, IndexOrder::Asc)],
            ),
            unique(
                "moderation_appeals_decision_key",
                ModerationAppeals::Table,
                [ModerationAppeals::DecisionId],
            ),
        ];
        create_all(manager, vec![decisions, reports, appeals], indexes).await?;
        add_column(
            manager,
            Messages::Table,
            timestamp_null(Messages::RemovedAt),
        )
        .await?;
        copy_legacy_reports(manager).await
    }

    async fn down(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        drop_column(manager, Messages::Table, Messages::RemovedAt).await?;
        drop_all(manager, [ModerationAppeals::Table]).await?;
        drop_all(manager, [Reports::Table]).await?;
        drop_all(manager, [ModerationDecisions::Table]).await
    }

    fn use_transaction(&self) -> Option<bool> {
        Some(true)
    }
}

/// The open reports of the leaderboard and of contact requests, as open
/// reports of the one queue (due 48 hours after they were made). Ids are
/// read and written as values, so the SQL is the same on both databases.
async fn copy_legacy_reports(manager: &SchemaManager<'_>) -> Result<(), DbErr> {
    let db = manager.get_connection();
    let backend = manager.get_database_backend();
    let mut sql =
        "INSERT INTO reports (id, target_kind, target_id, reported_as, affected_user_id, \
                   reporter_id, reason, details, status, due_at, created_at) \
                   VALUES ($1, $2, $3, $4, $5, $6, 'other', $7, 'open', $8, $9)"
            .to_owned();
    if backend == sea_orm_migration::sea_orm::DbBackend::Sqlite {
        for n in (1..=9).rev() {
            sql = sql.replace(&format!("${n}"), &format!("?{n}"));
        }
    }
    let insert = |values: Vec<sea_orm_migration::sea_orm::Value>| {
        Statement::from_sql_and_values(backend, sql.clone(), values)
    };
    let leaderboard = db
        .query_all_raw(Statement::from_string(
            backend,
            "SELECT r.id, r.photo_id, r.reporter_id, r.reason, r.created_at, p.user_id \
             FROM leaderboard_reports r JOIN photos p ON p.id = r.photo_id \
             WHERE r.status = 'open'",
        ))
        .await?;
    for row in leaderboard {
        let photo: uuid::Uuid = row.try_get("", "photo_id")?;
        let created: chrono::DateTime<chrono::Utc> = row.try_get("", "created_at")?;
        db.execute_raw(insert(vec![
            row.try_get::<uuid::Uuid>("", "id")?.into(),
            "photo".into(),
            photo.to_string().into(),
            "photo".into(),
            row.try_get::<uuid::Uuid>("", "user_id")?.into(),
            row.try_get::<uuid::Uuid>("", "reporter_id")?.into(),
            row.try_get::<String>("", "reason")?.into(),
            (created + chrono::Duration::hours(48)).into(),
            created.into(),
        ]))
        .await?;
    }
    let contact = db
        .query_all_raw(Statement::from_string(
            backend,
            "SELECT id, contact_request_id, reporter_id, reported_id, reason, created_at \
             FROM contact_reports WHERE status = 'open'",
        ))
        .await?;
    for row in contact {
        let request: uuid::Uuid = row.try_get("", "contact_request_id")?;
        let created: chrono::DateTime<chrono::Utc> = row.try_get("", "created_at")?;
        db.execute_raw(insert(vec![
            row.try_get::<uuid::Uuid>("", "id")?.into(),
            "conversation".into(),
            request.to_string().into(),
            "conversation".into(),
            row.try_get::<uuid::Uuid>("", "reported_id")?.into(),
            row.try_get::<uuid::Uuid>("", "reporter_id")?.into(),
            row.try_get::<String>("", "reason")?.into(),
            (created + chrono::Duration::hours(48)).into(),
            created.into(),
        ]))
        .await?;
    }
    Ok(())
}

#[derive(DeriveIden, Clone, Copy)]
enum Users {
    Table,
    Id,
}

#[derive(DeriveIden, Clone, Copy)]
enum Messages {
    Table,
    RemovedAt,
}

#[derive(DeriveIden, Clone, Copy)]
enum Reports {
    Table,
    Id,
    TargetKind,
    TargetId,
    ReportedAs,
    AffectedUserId,
    ReporterId,
    ReporterEmail,
    Reason,
    Details,
    GoodFaith,
    Status,
    DecisionId,
    DueAt,
    CreatedAt,
}

#[derive(DeriveIden, Clone, Copy)]

enum ModerationDecisions {
    Table,
    Id,
    TargetKind,
    TargetId,
    TargetLabel,
    AffectedUserId,
    Action,
    Reason,
    Rule,
    Statement,
    SuspendDays,
    DecidedBy,
    EvidenceKeys,
    EvidenceText,
    EvidenceUntil,
    AppealTokenHash,
    CreatedAt,
}

#[derive(DeriveIden, Clone, Copy)]

enum ModerationAppeals {
    Table,
    Id,
    DecisionId,
    UserId,
    Statement,
    Status,
    Answer,
    DecidedBy,
    DecidedAt,
    CreatedAt,
}
