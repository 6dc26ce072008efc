//! What contact requests and their conversations need beyond the first
//! schema: `contact_blocks`, one row per contestant and blocked requester
//! (`contact_blocks_pair_key`), and `message_reads`, the last message
//! sequence each party of a conversation has read
//! (`message_reads_conversation_user_key`), which gives unread counts and the
//! 'Seen' mark; and `contact_reports`, a contestant's report of a requester
//! for the admins (one per request, `contact_reports_request_key`). And
//! `contact_requests_open_pair_key`: at most one pending request per
//! requester and contestant, so two requests sent at once cannot both open.

use sea_orm_migration::prelude::*;

use super::common::*;

#[derive(DeriveMigrationName)]
pub struct Migration;

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        let db = manager.get_database_backend();
        use ForeignKeyAction::Cascade;
        let blocks = Table::create()
            .table(ContactBlocks::Table)
            .col(pk_uuid(ContactBlocks::Id))
            .col(uuid(ContactBlocks::ContestantId))
            .col(uuid(ContactBlocks::RequesterId))
            .col(timestamp_now(ContactBlocks::CreatedAt, db))
            .foreign_key(&mut fk(
                "contact_blocks_contestant_id_fkey",
                (ContactBlocks::Table, ContactBlocks::ContestantId),
                (Users::Table, Users::Id),
                Cascade,
            ))
            .foreign_key(&mut fk(
                "contact_blocks_requester_id_fkey",
                (ContactBlocks::Table, ContactBlocks::RequesterId),
                (Users::Table, Users::Id),
                Cascade,
            ))
            .to_owned();
        let reads = Table::create()
            .table(MessageReads::Table)
            .col(pk_uuid(MessageReads::Id))
            .col(uuid(MessageReads::ContactRequestId))
            .col(uuid(MessageReads::UserId))
            .col(big_zero(MessageReads::LastReadSeq))
            .col(timestamp_now(MessageReads::UpdatedAt, db))
            .foreign_key(&mut fk(
                "message_reads_contact_request_id_fkey",
                (MessageReads::Table, MessageReads::ContactRequestId),
                (ContactRequests::Table, ContactRequests::Id),
                Cascade,
            ))
            .foreign_key(&mut fk(
                "message_reads_user_id_fkey",
                (MessageReads::Table, MessageReads::UserId),
                (Users::Table, Users::Id),
                Cascade,
            ))
            .to_owned();
        let reports = Table::create()
            .table(ContactReports::Table)
            .col(pk_uuid(ContactReports::Id))
            .col(uuid(ContactReports::ContactRequestId))
            .col(uuid(ContactReports::ReporterId))
            .col(uuid(ContactReports::ReportedId))
            .col(text(ContactReports::Reason))
            .col(text_enum(
                ContactReports::Status,
                "contact_reports_status_check",
                &["open", "resolved"],
                Some("open"),
            ))
            .col(timestamp_now(ContactReports::CreatedAt, db))
            .foreign_key(&mut fk(
                "contact_reports_contact_request_id_fkey",
                (ContactReports::Table, ContactReports::ContactRequestId),
                (ContactRequests::Table, ContactRequests::Id),
                Cascade,
            ))
            .foreign_key(&mut fk(
                "contact_reports_reporter_id_fkey",
                (ContactReports::Table, ContactReports::ReporterId),
                (Users::Table, Users::Id),
                Cascade,
            ))
            .foreign_key(&mut fk(
                "contact_reports_reported_id_fkey",
                (ContactReports::Table, ContactReports::ReportedId),
                (Users::Table, Users::Id),
                Cascade,
            ))
            .to_owned();
        let indexes = vec![
            unique(
                "contact_requests_open_pair_key",
                ContactRequests::Table,
                [ContactRequests::RequesterId, ContactRequests::ContestantId],
            )
            .and_where(Expr::col(ContactRequests::Status).eq("pending"))
            .to_owned(),
            unique(
                "contact_reports_request_key",
                ContactReports::Table,
                [ContactReports::ContactRequestId],
            ),
            index(
                "contact_reports_status_created_at_idx",
                ContactReports::Table,
                [
                    (ContactReports::Status, IndexOrder::Asc),
                    (ContactReports::CreatedAt, IndexOrder::Desc),
                ],
            ),
            unique(
                "contact_blocks_pair_key",
                ContactBlocks::Table,
                [ContactBlocks::ContestantId, ContactBlocks::RequesterId],
            ),
            index(
                "contact_blocks_requester_id_idx",
                ContactBlocks::Table,
                [(ContactBlocks::RequesterId, IndexOrder::Asc)],
            ),
            unique(
                "message_reads_conversation_user_key",
                MessageReads::Table,
                [MessageReads::ContactRequestId, MessageReads::UserId],
            ),
            index(
                "message_reads_user_id_idx",
                MessageReads::Table,
                [(MessageReads::UserId, IndexOrder::Asc)],
            ),
        ];
        create_all(manager, vec![blocks, reads, reports], indexes).await
    }

    async fn down(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        drop_index(
            manager,
            "contact_requests_open_pair_key",
            ContactRequests::Table,
        )
        .await?;
        drop_all(
            manager,
            [
                ContactReports::Table.into_iden(),
                MessageReads::Table.into_iden(),
                ContactBlocks::Table.into_iden(),
            ],
        )
        .await
    }

    fn use_transaction(&self) -> Option<bool> {
        Some(true)
    }
}

#[derive(DeriveIden, Clone, Copy)]
enum Users {
    Table,
    Id,
}

#[derive(DeriveIden, Clone, Copy)]
enum ContactRequests {
    Table,
    Id,
    RequesterId,
    ContestantId,
    Status,
}

#[derive(DeriveIden, Clone, Copy)]
enum ContactBlocks {
    Table,
    Id,
    ContestantId,
    RequesterId,
    CreatedAt,
}

#[derive(DeriveIden, Clone, Copy)]
enum MessageReads {
    Table,
    Id,
    ContactRequestId,
    UserId,
    LastReadSeq,
    UpdatedAt,
}

#[derive(DeriveIden, Clone, Copy)]
enum ContactReports {
    Table,
    Id,
    ContactRequestId,
    ReporterId,
    ReportedId,
    Reason,
    Status,
    CreatedAt,
}
