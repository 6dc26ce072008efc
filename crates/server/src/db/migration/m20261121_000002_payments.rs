//! Payments: checkout sessions (the `create-checkout` function) and the ids of
//! provider webhook events already processed.
//!
//! Both make money operations idempotent (STYLE.md, practice 9):
//! - a retried `create-checkout` with the same idempotency key finds its row
//!   through `checkout_sessions_user_id_idempotency_key_key` and returns the stored
//!   `url` instead of opening a second checkout;
//! - a redelivered webhook collides on `processed_webhook_events_provider_event_id_key`,
//!   inserted in the same transaction as the effect of the event, so the effect
//!   happens once.
//!
//! Payment records are history that must survive the user (accounting, refunds,
//! disputes, partner commissions), so `checkout_sessions.user_id` is
//! `ON DELETE SET NULL`.

use sea_orm_migration::prelude::*;

use super::common::*;

#[derive(DeriveMigrationName)]
pub struct Migration;

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        let db = manager.get_database_backend();

        let checkout_sessions = Table::create()
            .table(CheckoutSessions::Table)
            .col(pk_uuid(CheckoutSessions::Id))
            .col(uuid_null(CheckoutSessions::UserId))
            // Chosen by the client per attempt (a UUID); scoped to the user, so one
            // user cannot collide with, or probe, another's keys.
            .col(text(CheckoutSessions::IdempotencyKey))
            .col(text_enum(
                CheckoutSessions::Provider,
                "checkout_sessions_provider_check",
                &["sandbox", "stripe"],
                None,
            ))
            // The provider's id for the session (Stripe `cs_...`), known once created.
            .col(text_null(CheckoutSessions::ProviderSessionId))
            .col(text_enum(
                CheckoutSessions::Purpose,
                "checkout_sessions_purpose_check",
                &["contact_request", "subscription", "personality_detailed"],
                None,
            ))
            .col(text(CheckoutSessions::PriceId))
            .col(cents(CheckoutSessions::AmountCents))
            .col(text_default(CheckoutSessions::Currency, "usd"))
            .col(text_enum(
                CheckoutSessions::Status,
                "checkout_sessions_status_check",
                &["open", "complete", "expired"],
                Some("open"),
            ))
            // Where the browser is sent; replayed for a retried request.
            .col(text_null(CheckoutSessions::Url))
            // The spec's metadata: contact_request_id, fee_amount, rank or plan_name.
            .col(json_default(CheckoutSessions::Metadata, "{}"))
            .col(timestamp_null(CheckoutSessions::CompletedAt))
            .col(timestamp_now(CheckoutSessions::CreatedAt, db))
            .col(timestamp_now(CheckoutSessions::UpdatedAt, db))
            .check((
                "checkout_sessions_amount_cents_check",
                Expr::col(CheckoutSessions::AmountCents).gte(0),
            ))
            .foreign_key(&mut fk(
                "checkout_sessions_user_id_fkey",
                (CheckoutSessions::Table, CheckoutSessions::UserId),
                (Users::Table, Users::Id),
                ForeignKeyAction::SetNull,
            ))
            .to_owned();

        let processed_webhook_events = Table::create()
            .table(ProcessedWebhookEvents::Table)
            .col(pk_uuid(ProcessedWebhookEvents::Id))
            .col(text_enum(
                ProcessedWebhookEvents::Provider,
                "processed_webhook_events_provider_check",
                &["sandbox", "stripe"],
                None,
            ))
            .col(text(ProcessedWebhookEvents::EventId))
            .col(text(ProcessedWebhookEvents::EventType))
            .col(timestamp_now(ProcessedWebhookEvents::ProcessedAt, db))
            .to_owned();

        let indexes = vec![
            unique(
                "checkout_sessions_user_id_idempotency_key_key",
                CheckoutSessions::Table,
                [CheckoutSessions::UserId, CheckoutSessions::IdempotencyKey],
            ),
            unique(
                "checkout_sessions_provider_session_id_key",
                CheckoutSessions::Table,
                [CheckoutSessions::ProviderSessionId],
            ),
            unique(
                "processed_webhook_events_provider_event_id_key",
                ProcessedWebhookEvents::Table,
                [
                    ProcessedWebhookEvents::Provider,
                    ProcessedWebhookEvents::EventId,
                ],
            ),
        ];

        create_all(
            manager,
            vec![checkout_sessions, processed_webhook_events],
            indexes,
        )
        .await
    }

    async fn down(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        drop_all(
            manager,
            [
                ProcessedWebhookEvents::Table.into_iden(),
                CheckoutSessions::Table.into_iden(),
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
enum CheckoutSessions {
    Table,
    Id,
    UserId,
    IdempotencyKey,
    Provider,
    ProviderSessionId,
    Purpose,
    PriceId,
    AmountCents,
    Currency,
    Status,
    Url,
    Metadata,
    CompletedAt,
    CreatedAt,
    UpdatedAt,
}

#[derive(DeriveIden, Clone, Copy)]
enum ProcessedWebhookEvents {
    Table,
    Id,
    Provider,
    EventId,
    EventType,
    ProcessedAt,
}
