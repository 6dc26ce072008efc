//! Contestants paid for a conversation, and mail about every payment
//! (issue 42, sections 2 and 3):
//!
//! - `earning_lines.replied_at`: when the payee first wrote in the
//!   conversation the payment paid for; a share is payable only once it is
//!   set (and the refund window has passed). Lines already charged when this
//!   runs were approved under the old rule: they take the first reply, or
//!   else their capture time, so nothing approved before is refunded by the
//!   new rule.
//! - `earning_lines.reason`: why a line was taken back (`refund`,
//!   `dispute`, `no_reply`), as `/earnings` and the mails say it.
//! - `mail_outbox.dedup_key` (unique, `mail_outbox_dedup_key_key`): a mail
//!   that must go out once per thing (a receipt per payment) carries its key,
//!   and a second queueing of the same key is a no-op.

use sea_orm_migration::prelude::*;

use super::common::*;

#[derive(DeriveMigrationName)]
pub struct Migration;

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        add_column(
            manager,
            EarningLines::Table,
            timestamp_null(EarningLines::RepliedAt),
        )
        .await?;
        add_column(
            manager,
            EarningLines::Table,
            text_null(EarningLines::Reason),
        )
        .await?;
        add_column(manager, MailOutbox::Table, text_null(MailOutbox::DedupKey)).await?;
        manager
            .create_index(unique(
                "mail_outbox_dedup_key_key",
                MailOutbox::Table,
                [MailOutbox::DedupKey],
            ))
            .await?;
        manager
            .get_connection()
            .execute_unprepared(
                "UPDATE earning_lines SET replied_at = COALESCE(\
                   (SELECT MIN(m.created_at) FROM messages m \
                     WHERE m.contact_request_id = earning_lines.reference \
                       AND m.sender_id = earning_lines.payee_id), \
                   captured_at) \
                 WHERE status IN ('captured', 'transferred')",
            )
            .await?;
        Ok(())
    }

    async fn down(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        drop_index(manager, "mail_outbox_dedup_key_key", MailOutbox::Table).await?;
        drop_column(manager, MailOutbox::Table, MailOutbox::DedupKey).await?;
        drop_column(manager, EarningLines::Table, EarningLines::Reason).await?;
        drop_column(manager, EarningLines::Table, EarningLines::RepliedAt).await
    }

    fn use_transaction(&self) -> Option<bool> {
        Some(true)
    }
}

#[derive(DeriveIden, Clone, Copy)]
enum EarningLines {
    Table,
    RepliedAt,
    Reason,
}

#[derive(DeriveIden, Clone, Copy)]
enum MailOutbox {
    Table,
    DedupKey,
}
