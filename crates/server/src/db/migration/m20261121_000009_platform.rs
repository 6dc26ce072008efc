//! Plumbing shared by every server instance through the database: rate-limit
//! counters, the outgoing mail queue and the index of stored media objects.

use sea_orm_migration::prelude::*;

use super::common::*;

#[derive(DeriveMigrationName)]
pub struct Migration;

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        let db = manager.get_database_backend();

        // Fixed-window counters. `key` names the limit and the subject (for
        // example `token:ip:203.0.113.7`), `window_start` is the start of the
        // window, truncated by the server. The natural key is the primary key, so
        // counting a hit is one atomic statement on both databases:
        //   INSERT ... ON CONFLICT (key, window_start)
        //     DO UPDATE SET count = rate_limit_buckets.count + 1 RETURNING count
        // Old windows are purged by `window_start`.
        let rate_limit_buckets = Table::create()
            .table(RateLimitBuckets::Table)
            .col(text(RateLimitBuckets::Key))
            .col(
                ColumnDef::new(RateLimitBuckets::WindowStart)
                    .timestamp_with_time_zone()
                    .not_null(),
            )
            .col(
                ColumnDef::new(RateLimitBuckets::Count)
                    .integer()
                    .not_null()
                    .default(0),
            )
            .primary_key(
                Index::create()
                    .name("rate_limit_buckets_pkey")
                    .col(RateLimitBuckets::Key)
                    .col(RateLimitBuckets::WindowStart),
            )
            .check((
                "rate_limit_buckets_count_check",
                Expr::col(RateLimitBuckets::Count).gte(0),
            ))
            .to_owned();

        // Transactional outbox: mail is inserted in the transaction that decides
        // to send it, and a worker on any instance delivers it (SMTP in
        // production; in development it is only logged and readable in the app).
        // A worker claims a row by setting status 'sending' and `locked_until`
        // (FOR UPDATE SKIP LOCKED on PostgreSQL); an expired lock means the worker
        // died and the row may be claimed again. No user foreign key: mail is
        // addressed to an address, and a sent message is a log entry.
        let mail_outbox = Table::create()
            .table(MailOutbox::Table)
            .col(pk_uuid(MailOutbox::Id))
            .col(text(MailOutbox::ToAddress))
            .col(text(MailOutbox::Subject))
            .col(text(MailOutbox::BodyText))
            .col(text_null(MailOutbox::BodyHtml))
            // The template it came from (confirmation, recovery, ...), for the dev view and metrics.
            .col(text(MailOutbox::Kind))
            .col(text_enum(
                MailOutbox::Status,
                "mail_outbox_status_check",
                &["pending", "sending", "sent", "failed"],
                Some("pending"),
            ))
            .col(
                ColumnDef::new(MailOutbox::Attempts)
                    .integer()
                    .not_null()
                    .default(0),
            )
            .col(text_null(MailOutbox::LastError))
            .col(timestamp_now(MailOutbox::NextAttemptAt, db))
            .col(timestamp_null(MailOutbox::LockedUntil))
            .col(timestamp_null(MailOutbox::SentAt))
            .col(timestamp_now(MailOutbox::CreatedAt, db))
            .col(timestamp_now(MailOutbox::UpdatedAt, db))
            .check((
                "mail_outbox_attempts_check",
                Expr::col(MailOutbox::Attempts).gte(0),
            ))
            .to_owned();

        // One row per object in the media store (local directory or bucket).
        // `expires_at` marks temporary images (un-saved uploads, edit results)
        // that a sweeper deletes, blob first, then row. The owner reference is
        // SET NULL rather than CASCADE: a cascade would delete the row and leave
        // the blob behind unseen, while an ownerless row tells the sweeper which
        // blobs to delete when an account goes.
        let media_objects = Table::create()
            .table(MediaObjects::Table)
            .col(pk_uuid(MediaObjects::Id))
            .col(text(MediaObjects::StorageKey))
            .col(uuid_null(MediaObjects::UserId))
            .col(text(MediaObjects::ContentType))
            .col(
                ColumnDef::new(MediaObjects::ByteSize)
                    .big_integer()
                    .not_null(),
            )
            // Hex SHA-256 of the stored bytes (after EXIF stripping).
            .col(text_null(MediaObjects::Sha256))
            .col(text_enum(
                MediaObjects::Visibility,
                "media_objects_visibility_check",
                &["public", "private"],
                Some("private"),
            ))
            .col(timestamp_null(MediaObjects::ExpiresAt))
            .col(timestamp_now(MediaObjects::CreatedAt, db))
            .check((
                "media_objects_byte_size_check",
                Expr::col(MediaObjects::ByteSize).gte(0),
            ))
            .foreign_key(&mut fk(
                "media_objects_user_id_fkey",
                (MediaObjects::Table, MediaObjects::UserId),
                (Users::Table, Users::Id),
                ForeignKeyAction::SetNull,
            ))
            .to_owned();

        let indexes = vec![
            index(
                "rate_limit_buckets_window_start_idx",
                RateLimitBuckets::Table,
                [RateLimitBuckets::WindowStart],
            ),
            // The worker's queue: due pending mail, oldest first.
            index(
                "mail_outbox_status_next_attempt_at_idx",
                MailOutbox::Table,
                [MailOutbox::Status, MailOutbox::NextAttemptAt],
            ),
            // The development mail view: one address's mail, newest first.
            index(
                "mail_outbox_to_address_created_at_idx",
                MailOutbox::Table,
                [
                    (MailOutbox::ToAddress, IndexOrder::Asc),
                    (MailOutbox::CreatedAt, IndexOrder::Desc),
                ],
            ),
            unique(
                "media_objects_storage_key_key",
                MediaObjects::Table,
                [MediaObjects::StorageKey],
            ),
            index(
                "media_objects_user_id_idx",
                MediaObjects::Table,
                [MediaObjects::UserId],
            ),
            index(
                "media_objects_expires_at_idx",
                MediaObjects::Table,
                [MediaObjects::ExpiresAt],
            ),
        ];

        create_all(
            manager,
            vec![rate_limit_buckets, mail_outbox, media_objects],
            indexes,
        )
        .await
    }

    async fn down(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        drop_all(
            manager,
            [
                MediaObjects::Table.into_iden(),
                MailOutbox::Table.into_iden(),
                RateLimitBuckets::Table.into_iden(),
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
enum RateLimitBuckets {
    Table,
    Key,
    WindowStart,
    Count,
}

#[derive(DeriveIden, Clone, Copy)]
enum MailOutbox {
    Table,
    Id,
    ToAddress,
    Subject,
    BodyText,
    BodyHtml,
    Kind,
    Status,
    Attempts,
    LastError,
    NextAttemptAt,
    LockedUntil,
    SentAt,
    CreatedAt,
    UpdatedAt,
}

#[derive(DeriveIden, Clone, Copy)]
enum MediaObjects {
    Table,
    Id,
    StorageKey,
    UserId,
    ContentType,
    ByteSize,
    Sha256,
    Visibility,
    ExpiresAt,
    CreatedAt,
}
