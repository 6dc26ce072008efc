//! The partner programme's ledger. `partner_conversions` becomes a ledger of
//! lines: a sale's commission, the parent partner's share of it, and the
//! negative line that claws back a commission paid before its sale was
//! refunded. One line per (payment, partner, kind, refund level)
//! (`partner_conversions_line_key`), so a payment event delivered twice
//! writes nothing twice. Commissions wait until `payable_at` (the refund
//! window) before a payout takes them. The table is rebuilt, not altered:
//! no code wrote to the first shape, SQLite cannot change a column's checks,
//! and every index and key is new.
//!
//! `partner_clicks` records at most one click per partner, visitor and day
//! (`partner_clicks_visitor_day_key`); the visitor is a keyed digest, never
//! an address.

use sea_orm_migration::prelude::*;

use super::common::*;

#[derive(DeriveMigrationName)]
pub struct Migration;

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        let db = manager.get_database_backend();
        use ForeignKeyAction::{Cascade, SetNull};
        drop_all(manager, [PartnerConversions::Table]).await?;

        let conversions = Table::create()
            .table(PartnerConversions::Table)
            .col(pk_uuid(PartnerConversions::Id))
            .col(uuid(PartnerConversions::PartnerId))
            .col(text_enum(
                PartnerConversions::Kind,
                "partner_conversions_kind_check",
                &["sale", "parent", "clawback"],
                None,
            ))
            // Payments are never deleted (they outlive accounts).
            .col(uuid(PartnerConversions::PaymentId))
            .col(uuid_null(PartnerConversions::ReferredUserId))
            // What the commission is a share of: the sale's amount (the
            // platform's share of a contact fee), or for a parent line the
            // child's commission.
            .col(cents(PartnerConversions::AmountCents))
            .col(double(PartnerConversions::Rate))
            // Negative on a clawback line.
            .col(cents(PartnerConversions::CommissionCents))
            // The payment's refunded total a clawback line answers; 0 otherwise.
            .col(big_zero(PartnerConversions::RefundLevelCents))
            .col(text_enum(
                PartnerConversions::Status,
                "partner_conversions_status_check",
                &["unpaid", "paid", "reversed"],
                Some("unpaid"),
            ))
            .col(timestamp_now(PartnerConversions::PayableAt, db))
            .col(uuid_null(PartnerConversions::PayoutId))
            .col(timestamp_now(PartnerConversions::CreatedAt, db))
            .col(timestamp_now(PartnerConversions::UpdatedAt, db))
            .check((
                "partner_conversions_amounts_check",
                Expr::col(PartnerConversions::AmountCents)
                    .gte(0)
                    .and(Expr::col(PartnerConversions::RefundLevelCents).gte(0))
                    .and(Expr::col(PartnerConversions::Rate).between(0, 1)),
            ))
            .foreign_key(&mut fk(
                "partner_conversions_partner_id_fkey",
                (PartnerConversions::Table, PartnerConversions::PartnerId),
                (PartnerAccounts::Table, PartnerAccounts::Id),
                Cascade,
            ))
            .foreign_key(&mut fk(
                "partner_conversions_payment_id_fkey",
                (PartnerConversions::Table, PartnerConversions::PaymentId),
                (Payments::Table, Payments::Id),
                Cascade,
            ))
            // The referred user's account may go; the partner's history stays.
            .foreign_key(&mut fk(
                "partner_conversions_referred_user_id_fkey",
                (
                    PartnerConversions::Table,
                    PartnerConversions::ReferredUserId,
                ),
                (Users::Table, Users::Id),
                SetNull,
            ))
            .foreign_key(&mut fk(
                "partner_conversions_payout_id_fkey",
                (PartnerConversions::Table, PartnerConversions::PayoutId),
                (PartnerPayouts::Table, PartnerPayouts::Id),
                SetNull,
            ))
            .to_owned();

        let clicks = Table::create()
            .table(PartnerClicks::Table)
            .col(pk_uuid(PartnerClicks::Id))
            .col(uuid(PartnerClicks::PartnerId))
            .col(text(PartnerClicks::Visitor))
            .col(date(PartnerClicks::Day))
            .col(timestamp_now(PartnerClicks::CreatedAt, db))
            .foreign_key(&mut fk(
                "partner_clicks_partner_id_fkey",
                (PartnerClicks::Table, PartnerClicks::PartnerId),
                (PartnerAccounts::Table, PartnerAccounts::Id),
                Cascade,
            ))
            .to_owned();

        let indexes = vec![
            unique(
                "partner_conversions_line_key",
                PartnerConversions::Table,
                [
                    PartnerConversions::PaymentId,
                    PartnerConversions::PartnerId,
                    PartnerConversions::Kind,
                    PartnerConversions::RefundLevelCents,
                ],
            ),
            // Portal: a partner's recent lines.
            index(
                "partner_conversions_partner_id_created_at_idx",
                PartnerConversions::Table,
                [
                    (PartnerConversions::PartnerId, IndexOrder::Asc),
                    (PartnerConversions::CreatedAt, IndexOrder::Desc),
                ],
            ),
            // Payouts: unpaid lines by partner.
            index(
                "partner_conversions_status_partner_id_idx",
                PartnerConversions::Table,
                [
                    (PartnerConversions::Status, IndexOrder::Asc),
                    (PartnerConversions::PartnerId, IndexOrder::Asc),
                ],
            ),
            index(
                "partner_conversions_referred_user_id_idx",
                PartnerConversions::Table,
                [(PartnerConversions::ReferredUserId, IndexOrder::Asc)],
            ),
            index(
                "partner_conversions_payout_id_idx",
                PartnerConversions::Table,
                [(PartnerConversions::PayoutId, IndexOrder::Asc)],
            ),
            unique(
                "partner_clicks_visitor_day_key",
                PartnerClicks::Table,
                [
                    PartnerClicks::PartnerId,
                    PartnerClicks::Visitor,
                    PartnerClicks::Day,
                ],
            ),
        ];
        create_all(manager, vec![conversions, clicks], indexes).await
    }

    async fn down(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        let db = manager.get_database_backend();
        use ForeignKeyAction::{Cascade, SetNull};
        drop_all(
            manager,
            [
                PartnerClicks::Table.into_iden(),
                PartnerConversions::Table.into_iden(),
            ],
        )
        .await?;
        // The first shape (`m20261121_000003_partners`).
        let conversions = Table::create()
            .table(PartnerConversions::Table)
            .col(pk_uuid(PartnerConversions::Id))
            .col(uuid(PartnerConversions::PartnerId))
            .col(cents(PartnerConversions::AmountCents))
            .col(cents(PartnerConversions::CommissionCents))
            .col(text_enum(
                PartnerConversions::Status,
                "partner_conversions_status_check",
                &["unpaid", "paid"],
                Some("unpaid"),
            ))
            .col(uuid_null(PartnerConversions::ReferredUserId))
            .col(uuid_null(PartnerConversions::CheckoutSessionId))
            .col(uuid_null(PartnerConversions::PayoutId))
            .col(timestamp_now(PartnerConversions::CreatedAt, db))
            .check((
                "partner_conversions_amounts_check",
                Expr::col(PartnerConversions::AmountCents)
                    .gte(0)
                    .and(Expr::col(PartnerConversions::CommissionCents).gte(0))
                    .and(
                        Expr::col(PartnerConversions::CommissionCents)
                            .lte(Expr::col(PartnerConversions::AmountCents)),
                    ),
            ))
            .foreign_key(&mut fk(
                "partner_conversions_partner_id_fkey",
                (PartnerConversions::Table, PartnerConversions::PartnerId),
                (PartnerAccounts::Table, PartnerAccounts::Id),
                Cascade,
            ))
            .foreign_key(&mut fk(
                "partner_conversions_referred_user_id_fkey",
                (
                    PartnerConversions::Table,
                    PartnerConversions::ReferredUserId,
                ),
                (Users::Table, Users::Id),
                SetNull,
            ))
            .foreign_key(&mut fk(
                "partner_conversions_checkout_session_id_fkey",
                (
                    PartnerConversions::Table,
                    PartnerConversions::CheckoutSessionId,
                ),
                (CheckoutSessions::Table, CheckoutSessions::Id),
                SetNull,
            ))
            .foreign_key(&mut fk(
                "partner_conversions_payout_id_fkey",
                (PartnerConversions::Table, PartnerConversions::PayoutId),
                (PartnerPayouts::Table, PartnerPayouts::Id),
                SetNull,
            ))
            .to_owned();
        let indexes = vec![
            index(
                "partner_conversions_partner_id_created_at_idx",
                PartnerConversions::Table,
                [
                    (PartnerConversions::PartnerId, IndexOrder::Asc),
                    (PartnerConversions::CreatedAt, IndexOrder::Desc),
                ],
            ),
            index(
                "partner_conversions_status_partner_id_idx",
                PartnerConversions::Table,
                [
                    (PartnerConversions::Status, IndexOrder::Asc),
                    (PartnerConversions::PartnerId, IndexOrder::Asc),
                ],
            ),
            index(
                "partner_conversions_referred_user_id_idx",
                PartnerConversions::Table,
                [(PartnerConversions::ReferredUserId, IndexOrder::Asc)],
            ),
            unique(
                "partner_conversions_checkout_session_id_key",
                PartnerConversions::Table,
                [PartnerConversions::CheckoutSessionId],
            ),
            index(
                "partner_conversions_payout_id_idx",
                PartnerConversions::Table,
                [(PartnerConversions::PayoutId, IndexOrder::Asc)],
            ),
        ];
        create_all(manager, vec![conversions], indexes).await
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
enum Payments {
    Table,
    Id,
}

#[derive(DeriveIden, Clone, Copy)]
enum PartnerAccounts {
    Table,
    Id,
}

#[derive(DeriveIden, Clone, Copy)]
enum PartnerPayouts {
    Table,
    Id,
}

#[derive(DeriveIden, Clone, Copy)]
enum PartnerConversions {
    Table,
    Id,
    PartnerId,
    Kind,
    PaymentId,
    ReferredUserId,
    AmountCents,
    Rate,
    CommissionCents,
    RefundLevelCents,
    Status,
    PayableAt,
    PayoutId,
    CheckoutSessionId,
    CreatedAt,
    UpdatedAt,
}

#[derive(DeriveIden, Clone, Copy)]
enum PartnerClicks {
    Table,
    Id,
    PartnerId,
    Visitor,
    Day,
    CreatedAt,
}
