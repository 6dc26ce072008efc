//! One purchase per thing bought (issue 23):
//!
//! - `checkout_sessions.purchase_ref`: what a checkout buys beyond its
//!   purpose (`premium` for the subscription, the personality result's id
//!   for the detailed analysis). `checkout_sessions_open_purchase_key`: one
//!   open checkout per user and thing, so two tabs (or eight parallel
//!   clicks) share one checkout instead of opening two payable ones.
//! - `payments.purchase_ref` and `payments.provider_subscription_id`: which
//!   thing a payment bought, and for a subscription's payments which
//!   subscription, so a second purchase of the same thing can be found and
//!   refunded.
//! - `billing_refunds`: the durable queue of refunds billing owes because a
//!   thing was paid for twice (a second subscription, a second detailed
//!   analysis of one result): one row per provider object
//!   (`billing_refunds_target_key`), claimed by a conditional UPDATE, so it
//!   is refunded once across instances and retried until it is;
//!   `ended_at` records that a subscription was ended at the provider, so a
//!   retry only refunds.

use sea_orm_migration::prelude::*;

use super::common::*;

#[derive(DeriveMigrationName)]
pub struct Migration;

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        let db = manager.get_database_backend();
        add_column(
            manager,
            CheckoutSessions::Table,
            text_null(CheckoutSessions::PurchaseRef),
        )
        .await?;
        add_column(manager, Payments::Table, text_null(Payments::PurchaseRef)).await?;
        add_column(
            manager,
            Payments::Table,
            text_null(Payments::ProviderSubscriptionId),
        )
        .await?;
        let refunds = Table::create()
            .table(BillingRefunds::Table)
            .col(pk_uuid(BillingRefunds::Id))
            .col(uuid_null(BillingRefunds::UserId))
            .col(text(BillingRefunds::Provider))
            .col(text_enum(
                BillingRefunds::Kind,
                "billing_refunds_kind_check",
                &["subscription", "payment"],
                None,
            ))
            .col(text(BillingRefunds::Target))
            .col(text(BillingRefunds::Reason))
            .col(big_zero(BillingRefunds::Attempts))
            .col(text_null(BillingRefunds::LastError))
            .col(timestamp_null(BillingRefunds::EndedAt))
            .col(timestamp_null(BillingRefunds::ClaimedAt))
            .col(timestamp_null(BillingRefunds::DoneAt))
            .col(timestamp_now(BillingRefunds::CreatedAt, db))
            .to_owned();
        let indexes = vec![
            unique(
                "checkout_sessions_open_purchase_key",
                CheckoutSessions::Table,
                [
                    CheckoutSessions::UserId,
                    CheckoutSessions::Purpose,
                    CheckoutSessions::PurchaseRef,
                ],
            )
            .and_where(Expr::col(CheckoutSessions::Status).eq("open"))
            .and_where(Expr::col(CheckoutSessions::PurchaseRef).is_not_null())
            .to_owned(),
            index(
                "payments_purchase_ref_idx",
                Payments::Table,
                [
                    (Payments::Purpose, IndexOrder::Asc),
                    (Payments::PurchaseRef, IndexOrder::Asc),
                ],
            ),
            index(
                "payments_provider_subscription_id_idx",
                Payments::Table,
                [(Payments::ProviderSubscriptionId, IndexOrder::Asc)],
            ),
            unique(
                "billing_refunds_target_key",
                BillingRefunds::Table,
                [
                    BillingRefunds::Provider,
                    BillingRefunds::Kind,
                    BillingRefunds::Target,
                ],
            ),
            index(
                "billing_refunds_done_at_idx",
                BillingRefunds::Table,
                [(BillingRefunds::DoneAt, IndexOrder::Asc)],
            ),
        ];
        create_all(manager, vec![refunds], indexes).await
    }

    async fn down(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        drop_index(
            manager,
            "checkout_sessions_open_purchase_key",
            CheckoutSessions::Table,
        )
        .await?;
        drop_index(manager, "payments_purchase_ref_idx", Payments::Table).await?;
        drop_index(
            manager,
            "payments_provider_subscription_id_idx",
            Payments::Table,
        )
        .await?;
        drop_all(manager, [BillingRefunds::Table]).await?;
        drop_column(manager, Payments::Table, Payments::ProviderSubscriptionId).await?;
        drop_column(manager, Payments::Table, Payments::PurchaseRef).await?;
        drop_column(
            manager,
            CheckoutSessions::Table,
            CheckoutSessions::PurchaseRef,
        )
        .await
    }

    fn use_transaction(&self) -> Option<bool> {
        Some(true)
    }
}

#[derive(DeriveIden, Clone, Copy)]
enum CheckoutSessions {
    Table,
    UserId,
    Purpose,
    Status,
    PurchaseRef,
}

#[derive(DeriveIden, Clone, Copy)]
enum Payments {
    Table,
    Purpose,
    PurchaseRef,
    ProviderSubscriptionId,
}

#[derive(DeriveIden, Clone, Copy)]
enum BillingRefunds {
    Table,
    Id,
    UserId,
    Provider,
    Kind,
    Target,
    Reason,
    Attempts,
    LastError,
    EndedAt,
    ClaimedAt,
    DoneAt,
    CreatedAt,
}
