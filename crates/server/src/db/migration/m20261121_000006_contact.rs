//! Paid contact requests to ranked contestants, and the conversation an approved
//! request opens.
//!
//! A request and its messages are the private data of both parties: deleting
//! either user deletes them (CASCADE). The money trail lives in
//! `checkout_sessions`, which survives users. Deleting the photo a request was
//! made for keeps the request (SET NULL; `rank_at_request` keeps the context).
//!
//! `messages.seq` is the realtime resume cursor ("give me everything after N").
//! It is the table's primary key because SQLite only auto-increments an
//! `INTEGER PRIMARY KEY`; `messages.id` stays the UUID the API exposes (unique).
//! On PostgreSQL an identity value is taken at insert, not at commit, so two
//! concurrent inserts into one conversation can become visible out of order. The
//! server must insert a message in a transaction that first locks its contact
//! request (`SELECT ... FOR UPDATE`), which makes `seq` order equal commit order
//! within a conversation. SQLite has a single writer, so this holds there anyway.

use sea_orm_migration::prelude::*;

use super::common::*;

#[derive(DeriveMigrationName)]
pub struct Migration;

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        let db = manager.get_database_backend();
        use ForeignKeyAction::{Cascade, SetNull};

        let contact_requests = Table::create()
            .table(ContactRequests::Table)
            .col(pk_uuid(ContactRequests::Id))
            .col(uuid(ContactRequests::RequesterId))
            .col(uuid(ContactRequests::ContestantId))
            .col(uuid_null(ContactRequests::PhotoId))
            .col(int(ContactRequests::RankAtRequest))
            // fee = platform share (25 %) + contestant share (75 %), in cents.
            .col(cents(ContactRequests::FeeAmountCents))
            .col(cents(ContactRequests::PlatformShareCents))
            .col(cents(ContactRequests::ContestantShareCents))
            .col(text(ContactRequests::MessagePreview))
            .col(flag(ContactRequests::Paid, false))
            .col(text_enum(
                ContactRequests::PaymentStatus,
                "contact_requests_payment_status_check",
                &["pending_payment", "paid", "failed", "refunded"],
                Some("pending_payment"),
            ))
            .col(text_enum(
                ContactRequests::Status,
                "contact_requests_status_check",
                &["pending", "approved", "denied"],
                Some("pending"),
            ))
            .col(timestamp_now(ContactRequests::CreatedAt, db))
            .col(timestamp_now(ContactRequests::UpdatedAt, db))
            .check((
                "contact_requests_rank_at_request_check",
                Expr::col(ContactRequests::RankAtRequest).gte(1),
            ))
            .check((
                "contact_requests_amounts_check",
                Expr::col(ContactRequests::PlatformShareCents)
                    .gte(0)
                    .and(Expr::col(ContactRequests::ContestantShareCents).gte(0))
                    .and(
                        Expr::col(ContactRequests::PlatformShareCents)
                            .add(Expr::col(ContactRequests::ContestantShareCents))
                            .eq(Expr::col(ContactRequests::FeeAmountCents)),
                    ),
            ))
            .check((
                "contact_requests_not_self_check",
                Expr::col(ContactRequests::RequesterId)
                    .ne(Expr::col(ContactRequests::ContestantId)),
            ))
            .foreign_key(&mut fk(
                "contact_requests_requester_id_fkey",
                (ContactRequests::Table, ContactRequests::RequesterId),
                (Users::Table, Users::Id),
                Cascade,
            ))
            .foreign_key(&mut fk(
                "contact_requests_contestant_id_fkey",
                (ContactRequests::Table, ContactRequests::ContestantId),
                (Users::Table, Users::Id),
                Cascade,
            ))
            .foreign_key(&mut fk(
                "contact_requests_photo_id_fkey",
                (ContactRequests::Table, ContactRequests::PhotoId),
                (Photos::Table, Photos::Id),
                SetNull,
            ))
            .to_owned();

        let messages = Table::create()
            .table(Messages::Table)
            .col(
                ColumnDef::new(Messages::Seq)
                    .big_integer()
                    .not_null()
                    .auto_increment()
                    .primary_key(),
            )
            .col(uuid(Messages::Id))
            .col(uuid(Messages::ContactRequestId))
            .col(uuid(Messages::SenderId))
            .col(uuid(Messages::ReceiverId))
            .col(text(Messages::Content))
            .col(timestamp_now(Messages::CreatedAt, db))
            .check((
                "messages_not_self_check",
                Expr::col(Messages::SenderId).ne(Expr::col(Messages::ReceiverId)),
            ))
            .foreign_key(&mut fk(
                "messages_contact_request_id_fkey",
                (Messages::Table, Messages::ContactRequestId),
                (ContactRequests::Table, ContactRequests::Id),
                Cascade,
            ))
            .foreign_key(&mut fk(
                "messages_sender_id_fkey",
                (Messages::Table, Messages::SenderId),
                (Users::Table, Users::Id),
                Cascade,
            ))
            .foreign_key(&mut fk(
                "messages_receiver_id_fkey",
                (Messages::Table, Messages::ReceiverId),
                (Users::Table, Users::Id),
                Cascade,
            ))
            .to_owned();

        let indexes = vec![
            // Contestant inbox and requester history, newest first.
            index(
                "contact_requests_contestant_id_created_at_idx",
                ContactRequests::Table,
                [
                    (ContactRequests::ContestantId, IndexOrder::Asc),
                    (ContactRequests::CreatedAt, IndexOrder::Desc),
                ],
            ),
            index(
                "contact_requests_requester_id_created_at_idx",
                ContactRequests::Table,
                [
                    (ContactRequests::RequesterId, IndexOrder::Asc),
                    (ContactRequests::CreatedAt, IndexOrder::Desc),
                ],
            ),
            index(
                "contact_requests_photo_id_idx",
                ContactRequests::Table,
                [ContactRequests::PhotoId],
            ),
            unique("messages_id_key", Messages::Table, [Messages::Id]),
            index(
                "messages_contact_request_id_created_at_idx",
                Messages::Table,
                [Messages::ContactRequestId, Messages::CreatedAt],
            ),
            // Resume a conversation's stream after a given seq.
            index(
                "messages_contact_request_id_seq_idx",
                Messages::Table,
                [Messages::ContactRequestId, Messages::Seq],
            ),
            index(
                "messages_sender_id_idx",
                Messages::Table,
                [Messages::SenderId],
            ),
            // Also resumes a per-user stream (receiver_id, seq > N).
            index(
                "messages_receiver_id_seq_idx",
                Messages::Table,
                [Messages::ReceiverId, Messages::Seq],
            ),
        ];

        create_all(manager, vec![contact_requests, messages], indexes).await
    }

    async fn down(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        drop_all(
            manager,
            [
                Messages::Table.into_iden(),
                ContactRequests::Table.into_iden(),
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
enum Photos {
    Table,
    Id,
}

#[derive(DeriveIden, Clone, Copy)]
enum ContactRequests {
    Table,
    Id,
    RequesterId,
    ContestantId,
    PhotoId,
    RankAtRequest,
    FeeAmountCents,
    PlatformShareCents,
    ContestantShareCents,
    MessagePreview,
    Paid,
    PaymentStatus,
    Status,
    CreatedAt,
    UpdatedAt,
}

#[derive(DeriveIden, Clone, Copy)]
enum Messages {
    Table,
    Seq,
    Id,
    ContactRequestId,
    SenderId,
    ReceiverId,
    Content,
    CreatedAt,
}
