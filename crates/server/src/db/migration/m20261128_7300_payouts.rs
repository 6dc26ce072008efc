//! Payouts (issue 23): the contestant's 75 % of a contact fee, and a
//! partner's commission, sent to a payout account (Stripe Connect Express).
//!
//! - `payout_accounts`: one per user and provider
//!   (`payout_accounts_user_provider_key`), `onboarding` until the provider
//!   says it can receive transfers (`enabled`).
//! - `earning_lines`: the payee's ledger, one line per payment
//!   (`earning_lines_payment_key`): `held` while the requester's hold waits,
//!   `captured` when it is charged (payable once the refund window after
//!   `captured_at` has passed), `transferred`, and three ends in which
//!   nothing is owed: `released` (the hold was let go), `canceled` (refunded
//!   or disputed before it was sent) and `reversed` (after; the transfer was
//!   taken back). `reverse_owed` marks a line whose payment was refunded or
//!   disputed while it was being sent or after; `claimed_at` is the transfer
//!   job's claim, so one instance sends a line at a time, and `attempts`
//!   tells a line that was never tried (it may simply be canceled) from one
//!   whose transfer may have reached the provider.
//! - `partner_payouts.method` (`manual` for Mark as Paid, `stripe` for Pay
//!   through Stripe) and `transfer_id`: a `stripe` payout without a transfer
//!   id is one whose transfer is not confirmed yet, retried with the same key;
//!   `claimed_at` while one admin's request sends it.
//! - `sandbox_objects.kind` also takes `account` and `transfer`: the
//!   sandbox keeps its test payout accounts and transfers as it keeps its
//!   other Stripe-shaped objects. SQLite cannot change a CHECK, so there the
//!   table is rebuilt (nothing references it); PostgreSQL swaps the
//!   constraint.

use sea_orm_migration::prelude::*;

use super::common::*;

#[derive(DeriveMigrationName)]
pub struct Migration;

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        use ForeignKeyAction::Cascade;
        let db = manager.get_database_backend();
        let accounts = Table::create()
            .table(PayoutAccounts::Table)
            .col(pk_uuid(PayoutAccounts::Id))
            .col(uuid(PayoutAccounts::UserId))
            .col(text(PayoutAccounts::Provider))
            .col(text(PayoutAccounts::AccountId))
            .col(text_enum(
                PayoutAccounts::Status,
                "payout_accounts_status_check",
                &["onboarding", "enabled"],
                Some("onboarding"),
            ))
            .col(timestamp_null(PayoutAccounts::EnabledAt))
            .col(timestamp_now(PayoutAccounts::CreatedAt, db))
            .col(timestamp_now(PayoutAccounts::UpdatedAt, db))
            .foreign_key(&mut fk(
                "payout_accounts_user_id_fkey",
                (PayoutAccounts::Table, PayoutAccounts::UserId),
                (Users::Table, Users::Id),
                Cascade,
            ))
            .to_owned();
        let lines = Table::create()
            .table(EarningLines::Table)
            .col(pk_uuid(EarningLines::Id))
            .col(uuid(EarningLines::PayeeId))
            .col(uuid(EarningLines::PaymentId))
            .col(uuid_null(EarningLines::Reference))
            .col(text(EarningLines::Description))
            .col(cents(EarningLines::FeeCents))
            .col(cents(EarningLines::AmountCents))
            .col(text(EarningLines::Currency))
            .col(text_enum(
                EarningLines::Status,
                "earning_lines_status_check",
                &[
                    "held",
                    "captured",
                    "transferred",
                    "released",
                    "canceled",
                    "reversed",
                ],
                None,
            ))
            .col(timestamp_null(EarningLines::CapturedAt))
            .col(flag(EarningLines::ReverseOwed, false))
            .col(timestamp_null(EarningLines::ClaimedAt))
            .col(big_zero(EarningLines::Attempts))
            .col(text_null(EarningLines::LastError))
            .col(text_null(EarningLines::TransferId))
            .col(timestamp_null(EarningLines::TransferredAt))
            .col(text_null(EarningLines::ReversalId))
            .col(timestamp_null(EarningLines::ReversedAt))
            .col(timestamp_now(EarningLines::CreatedAt, db))
            .col(timestamp_now(EarningLines::UpdatedAt, db))
            .check((
                "earning_lines_amount_cents_check",
                Expr::col(EarningLines::AmountCents).gte(0),
            ))
            .foreign_key(&mut fk(
                "earning_lines_payee_id_fkey",
                (EarningLines::Table, EarningLines::PayeeId),
                (Users::Table, Users::Id),
                Cascade,
            ))
            .foreign_key(&mut fk(
                "earning_lines_payment_id_fkey",
                (EarningLines::Table, EarningLines::PaymentId),
                (Payments::Table, Payments::Id),
                Cascade,
            ))
            .to_owned();
        let indexes = vec![
            unique(
                "payout_accounts_user_provider_key",
                PayoutAccounts::Table,
                [PayoutAccounts::UserId, PayoutAccounts::Provider],
            ),
            unique(
                "payout_accounts_provider_account_key",
                PayoutAccounts::Table,
                [PayoutAccounts::Provider, PayoutAccounts::AccountId],
            ),
            unique(
                "earning_lines_payment_key",
                EarningLines::Table,
                [EarningLines::PaymentId],
            ),
            index(
                "earning_lines_payee_id_created_at_idx",
                EarningLines::Table,
                [
                    (EarningLines::PayeeId, IndexOrder::Asc),
                    (EarningLines::CreatedAt, IndexOrder::Desc),
                ],
            ),
            index(
                "earning_lines_status_captured_at_idx",
                EarningLines::Table,
                [
                    (EarningLines::Status, IndexOrder::Asc),
                    (EarningLines::CapturedAt, IndexOrder::Asc),
                ],
            ),
        ];
        create_all(manager, vec![accounts, lines], indexes).await?;
        sandbox_kinds(manager, WIDER_KINDS).await?;
        add_column(
            manager,
            PartnerPayouts::Table,
            text_default(PartnerPayouts::Method, "manual"),
        )
        .await?;
        add_column(
            manager,
            PartnerPayouts::Table,
            text_null(PartnerPayouts::TransferId),
        )
        .await?;
        add_column(
            manager,
            PartnerPayouts::Table,
            timestamp_null(PartnerPayouts::ClaimedAt),
        )
        .await
    }

    async fn down(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        manager
            .get_connection()
            .execute(
                &Query::delete()
                    .from_table(SandboxObjects::Table)
                    .and_where(Expr::col(SandboxObjects::Kind).is_in(["account", "transfer"]))
                    .to_owned(),
            )
            .await?;
        sandbox_kinds(manager, KINDS).await?;
        drop_column(manager, PartnerPayouts::Table, PartnerPayouts::ClaimedAt).await?;
        drop_column(manager, PartnerPayouts::Table, PartnerPayouts::TransferId).await?;
        drop_column(manager, PartnerPayouts::Table, PartnerPayouts::Method).await?;
        drop_all(manager, [EarningLines::Table]).await?;
        drop_all(manager, [PayoutAccounts::Table]).await
    }

    fn use_transaction(&self) -> Option<bool> {
        Some(true)
    }
}

/// `sandbox_objects.kind` before, and with the payout objects.
const KINDS: &[&str] = &["checkout.session", "payment_intent", "subscription"];
const WIDER_KINDS: &[&str] = &[
    "checkout.session",
    "payment_intent",
    "subscription",
    "account",
    "transfer",
];

/// Restricts `sandbox_objects.kind` to `kinds`.
async fn sandbox_kinds(manager: &SchemaManager<'_>, kinds: &[&'static str]) -> Result<(), DbErr> {
    let db = manager.get_database_backend();
    let connection = manager.get_connection();
    if db == sea_orm::DbBackend::Postgres {
        // Literals of this file only: nothing from outside is spliced in.
        let listed: Vec<String> = kinds.iter().map(|kind| format!("'{kind}'")).collect();
        let condition = format!("kind IN ({})", listed.join(", "));
        connection
            .execute_unprepared(&format!(
                "ALTER TABLE sandbox_objects DROP CONSTRAINT sandbox_objects_kind_check, \
                 ADD CONSTRAINT sandbox_objects_kind_check CHECK ({condition})"
            ))
            .await?;
        return Ok(());
    }
    // SQLite: the same table under a new name with the new CHECK, the rows
    // copied, the old one dropped, the new one renamed and its index made.
    let rebuilt = Table::create()
        .table(SandboxObjectsNext::Table)
        .col(pk_uuid(SandboxObjects::Id))
        .col(text(SandboxObjects::ObjectId))
        .col(text_enum(
            SandboxObjects::Kind,
            "sandbox_objects_kind_check",
            kinds,
            None,
        ))
        .col(json(SandboxObjects::Data))
        .col(timestamp_now(SandboxObjects::CreatedAt, db))
        .col(timestamp_now(SandboxObjects::UpdatedAt, db))
        .to_owned();
    manager.create_table(rebuilt).await?;
    for statement in [
        "INSERT INTO sandbox_objects_next (id, object_id, kind, data, created_at, updated_at) \
         SELECT id, object_id, kind, data, created_at, updated_at FROM sandbox_objects",
        "DROP TABLE sandbox_objects",
        "ALTER TABLE sandbox_objects_next RENAME TO sandbox_objects",
    ] {
        connection.execute_unprepared(statement).await?;
    }
    manager
        .create_index(unique(
            "sandbox_objects_object_id_key",
            SandboxObjects::Table,
            [SandboxObjects::ObjectId],
        ))
        .await
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
enum SandboxObjectsNext {
    Table,
}

#[derive(DeriveIden, Clone, Copy)]
enum PayoutAccounts {
    Table,
    Id,
    UserId,
    Provider,
    AccountId,
    Status,
    EnabledAt,
    CreatedAt,
    UpdatedAt,
}

#[derive(DeriveIden, Clone, Copy)]
enum EarningLines {
    Table,
    Id,
    PayeeId,
    PaymentId,
    Reference,
    Description,
    FeeCents,
    AmountCents,
    Currency,
    Status,
    CapturedAt,
    ReverseOwed,
    ClaimedAt,
    Attempts,
    LastError,
    TransferId,
    TransferredAt,
    ReversalId,
    ReversedAt,
    CreatedAt,
    UpdatedAt,
}

#[derive(DeriveIden, Clone, Copy)]
enum PartnerPayouts {
    Table,
    Method,
    TransferId,
    ClaimedAt,
}

#[derive(DeriveIden, Clone, Copy)]
enum Payments {
    Table,
    Id,
}

#[derive(DeriveIden, Clone, Copy)]
enum Users {
    Table,
    Id,
}
