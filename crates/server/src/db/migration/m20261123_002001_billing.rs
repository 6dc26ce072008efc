//! Payments for real (issue 12): the user's payments, the embedded sandbox
//! provider's own objects and its event log, and the columns the
//! subscription's life and the one-use trials need.
//!
//! - `payments`: one row per charge the provider reports (a one-time checkout,
//!   a subscription invoice, a held contact fee), found again by the
//!   provider's PaymentIntent or invoice id, so an event that arrives twice or
//!   late updates the same row. History outlives the user and the checkout
//!   (`SET NULL`), like `checkout_sessions`.
//! - `sandbox_objects` / `sandbox_events`: the built-in sandbox provider keeps
//!   its checkout sessions, PaymentIntents and subscriptions as Stripe-shaped
//!   JSON, and writes every event it emits to a log that the billing domain
//!   delivers through the same fulfilment code as Stripe's webhooks.
//! - `subscriptions.cancel_at_period_end`, and `last_event_at` (the `created`
//!   time of the newest provider event applied to the row, so an older event
//!   that arrives late does not undo a newer one).
//! - `feature_trials.consumed_at`: when the one trial use was spent (an
//!   analysis done); an activated trial not yet consumed still gives access.

use sea_orm_migration::prelude::*;

use super::common::*;

#[derive(DeriveMigrationName)]
pub struct Migration;

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        let db = manager.get_database_backend();
        use ForeignKeyAction::SetNull;

        let payments = Table::create()
            .table(Payments::Table)
            .col(pk_uuid(Payments::Id))
            .col(uuid_null(Payments::UserId))
            .col(uuid_null(Payments::CheckoutSessionId))
            .col(uuid_null(Payments::ContactRequestId))
            .col(text_enum(
                Payments::Provider,
                "payments_provider_check",
                &["sandbox", "stripe"],
                None,
            ))
            .col(text_enum(
                Payments::Purpose,
                "payments_purpose_check",
                &["subscription", "personality_detailed", "contact_request"],
                None,
            ))
            .col(text(Payments::Description))
            .col(cents(Payments::AmountCents))
            .col(big_zero(Payments::RefundedCents))
            .col(text_default(Payments::Currency, "usd"))
            .col(text_enum(
                Payments::Status,
                "payments_status_check",
                &[
                    "pending",
                    "held",
                    "succeeded",
                    "failed",
                    "canceled",
                    "refunded",
                    "partially_refunded",
                ],
                Some("pending"),
            ))
            .col(text_null(Payments::ProviderPaymentIntentId))
            .col(text_null(Payments::ProviderInvoiceId))
            .col(timestamp_now(Payments::CreatedAt, db))
            .col(timestamp_now(Payments::UpdatedAt, db))
            .check((
                "payments_amounts_check",
                Expr::col(Payments::AmountCents)
                    .gte(0)
                    .and(Expr::col(Payments::RefundedCents).gte(0)),
            ))
            .foreign_key(&mut fk(
                "payments_user_id_fkey",
                (Payments::Table, Payments::UserId),
                (Users::Table, Users::Id),
                SetNull,
            ))
            .foreign_key(&mut fk(
                "payments_checkout_session_id_fkey",
                (Payments::Table, Payments::CheckoutSessionId),
                (CheckoutSessions::Table, CheckoutSessions::Id),
                SetNull,
            ))
            .foreign_key(&mut fk(
                "payments_contact_request_id_fkey",
                (Payments::Table, Payments::ContactRequestId),
                (ContactRequests::Table, ContactRequests::Id),
                SetNull,
            ))
            .to_owned();

        let sandbox_objects = Table::create()
            .table(SandboxObjects::Table)
            .col(pk_uuid(SandboxObjects::Id))
            // The provider-side id: cs_sandbox_…, pi_sandbox_…, sub_sandbox_…
            .col(text(SandboxObjects::ObjectId))
            .col(text_enum(
                SandboxObjects::Kind,
                "sandbox_objects_kind_check",
                &["checkout.session", "payment_intent", "subscription"],
                None,
            ))
            .col(json(SandboxObjects::Data))
            .col(timestamp_now(SandboxObjects::CreatedAt, db))
            .col(timestamp_now(SandboxObjects::UpdatedAt, db))
            .to_owned();

        let sandbox_events = Table::create()
            .table(SandboxEvents::Table)
            .col(pk_uuid(SandboxEvents::Id))
            .col(text(SandboxEvents::EventId))
            .col(text(SandboxEvents::EventType))
            // The whole event, as Stripe would send it.
            .col(json(SandboxEvents::Payload))
            .col(timestamp_now(SandboxEvents::CreatedAt, db))
            // Set once the billing domain has run it through fulfilment.
            .col(timestamp_null(SandboxEvents::DeliveredAt))
            .to_owned();

        create_all(
            manager,
            vec![payments, sandbox_objects, sandbox_events],
            vec![
                unique(
                    "payments_provider_provider_payment_intent_id_key",
                    Payments::Table,
                    [Payments::Provider, Payments::ProviderPaymentIntentId],
                ),
                unique(
                    "payments_provider_provider_invoice_id_key",
                    Payments::Table,
                    [Payments::Provider, Payments::ProviderInvoiceId],
                ),
                index(
                    "payments_user_id_created_at_idx",
                    Payments::Table,
                    [Payments::UserId, Payments::CreatedAt],
                ),
                unique(
                    "sandbox_objects_object_id_key",
                    SandboxObjects::Table,
                    [SandboxObjects::ObjectId],
                ),
                unique(
                    "sandbox_events_event_id_key",
                    SandboxEvents::Table,
                    [SandboxEvents::EventId],
                ),
                index(
                    "sandbox_events_delivered_at_idx",
                    SandboxEvents::Table,
                    [SandboxEvents::DeliveredAt],
                ),
            ],
        )
        .await?;

        // SQLite adds one column per ALTER TABLE.
        for column in [
            flag(Subscriptions::CancelAtPeriodEnd, false),
            timestamp_null(Subscriptions::LastEventAt),
        ] {
            manager
                .alter_table(
                    Table::alter()
                        .table(Subscriptions::Table)
                        .add_column(column)
                        .to_owned(),
                )
                .await?;
        }
        manager
            .alter_table(
                Table::alter()
                    .table(FeatureTrials::Table)
                    .add_column(timestamp_null(FeatureTrials::ConsumedAt))
                    .to_owned(),
            )
            .await
    }

    async fn down(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        manager
            .alter_table(
                Table::alter()
                    .table(FeatureTrials::Table)
                    .drop_column(FeatureTrials::ConsumedAt)
                    .to_owned(),
            )
            .await?;
        for column in [Subscriptions::LastEventAt, Subscriptions::CancelAtPeriodEnd] {
            manager
                .alter_table(
                    Table::alter()
                        .table(Subscriptions::Table)
                        .drop_column(column)
                        .to_owned(),
                )
                .await?;
        }
        drop_all(
            manager,
            [
                SandboxEvents::Table.into_iden(),
                SandboxObjects::Table.into_iden(),
                Payments::Table.into_iden(),
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
}

#[derive(DeriveIden, Clone, Copy)]
enum ContactRequests {
    Table,
    Id,
}

#[derive(DeriveIden, Clone, Copy)]
enum Payments {
    Table,
    Id,
    UserId,
    CheckoutSessionId,
    ContactRequestId,
    Provider,
    Purpose,
    Description,
    AmountCents,
    RefundedCents,
    Currency,
    Status,
    ProviderPaymentIntentId,
    ProviderInvoiceId,
    CreatedAt,
    UpdatedAt,
}

#[derive(DeriveIden, Clone, Copy)]
enum SandboxObjects {
    Table,
    Id,
    ObjectId,
    Kind,
    Data,
    CreatedAt,
    UpdatedAt,
}

#[derive(DeriveIden, Clone, Copy)]
enum SandboxEvents {
    Table,
    Id,
    EventId,
    EventType,
    Payload,
    CreatedAt,
    DeliveredAt,
}

#[derive(DeriveIden, Clone, Copy)]
enum Subscriptions {
    Table,
    CancelAtPeriodEnd,
    LastEventAt,
}

#[derive(DeriveIden, Clone, Copy)]
enum FeatureTrials {
    Table,
    ConsumedAt,
}
