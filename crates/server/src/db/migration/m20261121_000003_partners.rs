//! The partner (affiliate) programme: accounts, the payouts sent to them and the
//! conversions they earned commission on.
//!
//! Deletion rules:
//! - a partner account belongs to its user (CASCADE), and its conversions to the
//!   account (CASCADE);
//! - payouts record money that was actually sent, which bookkeeping must keep:
//!   `partner_payouts.partner_id` is SET NULL;
//! - a conversion keeps its amount when the referred user, the checkout or the
//!   payout row goes away (SET NULL on those three references).
//!
//! `profiles.referred_by_partner` points here; `profiles` is created by the next
//! migration because SQLite can only declare a foreign key in `CREATE TABLE`.

use sea_orm_migration::prelude::*;

use super::common::*;

#[derive(DeriveMigrationName)]
pub struct Migration;

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        let db = manager.get_database_backend();
        use ForeignKeyAction::{Cascade, SetNull};

        let partner_accounts = Table::create()
            .table(PartnerAccounts::Table)
            .col(pk_uuid(PartnerAccounts::Id))
            .col(uuid(PartnerAccounts::UserId))
            .col(text(PartnerAccounts::DisplayName))
            // The referral short code, upper-cased by the server (3-10 A-Z0-9).
            .col(text(PartnerAccounts::Code))
            // Optional checkout discount code, upper-cased; unique so that a code
            // used at checkout names exactly one partner.
            .col(text_null(PartnerAccounts::PromoCode))
            .col(text_enum(
                PartnerAccounts::Status,
                "partner_accounts_status_check",
                &["pending", "approved", "suspended"],
                Some("pending"),
            ))
            .col(text_enum(
                PartnerAccounts::Tier,
                "partner_accounts_tier_check",
                &["starter", "pro", "elite"],
                Some("starter"),
            ))
            // A fraction (0.15 = 15 %), set together with the tier.
            .col(
                ColumnDef::new(PartnerAccounts::CommissionRate)
                    .double()
                    .not_null()
                    .default(0.15),
            )
            .col(big_zero(PartnerAccounts::TotalClicks))
            .col(big_zero(PartnerAccounts::TotalConversions))
            .col(big_zero(PartnerAccounts::TotalEarnedCents))
            .col(timestamp_now(PartnerAccounts::CreatedAt, db))
            .col(timestamp_now(PartnerAccounts::UpdatedAt, db))
            // sea-query writes CHAR_LENGTH on PostgreSQL and LENGTH on SQLite.
            .check((
                "partner_accounts_code_check",
                Func::char_length(Expr::col(PartnerAccounts::Code))
                    .between(3, 10)
                    .and(
                        Expr::col(PartnerAccounts::Code)
                            .eq(Func::upper(Expr::col(PartnerAccounts::Code))),
                    ),
            ))
            .check((
                "partner_accounts_commission_rate_check",
                Expr::col(PartnerAccounts::CommissionRate).between(0, 1),
            ))
            .check((
                "partner_accounts_totals_check",
                Expr::col(PartnerAccounts::TotalClicks)
                    .gte(0)
                    .and(Expr::col(PartnerAccounts::TotalConversions).gte(0))
                    .and(Expr::col(PartnerAccounts::TotalEarnedCents).gte(0)),
            ))
            .foreign_key(&mut fk(
                "partner_accounts_user_id_fkey",
                (PartnerAccounts::Table, PartnerAccounts::UserId),
                (Users::Table, Users::Id),
                Cascade,
            ))
            .to_owned();

        let partner_payouts = Table::create()
            .table(PartnerPayouts::Table)
            .col(pk_uuid(PartnerPayouts::Id))
            .col(uuid_null(PartnerPayouts::PartnerId))
            .col(date(PartnerPayouts::PeriodStart))
            .col(date(PartnerPayouts::PeriodEnd))
            .col(cents(PartnerPayouts::TotalAmountCents))
            .col(text_enum(
                PartnerPayouts::Status,
                "partner_payouts_status_check",
                &["sent"],
                Some("sent"),
            ))
            .col(timestamp_now(PartnerPayouts::CreatedAt, db))
            .check((
                "partner_payouts_period_check",
                Expr::col(PartnerPayouts::PeriodStart).lte(Expr::col(PartnerPayouts::PeriodEnd)),
            ))
            .check((
                "partner_payouts_total_amount_cents_check",
                Expr::col(PartnerPayouts::TotalAmountCents).gte(0),
            ))
            .foreign_key(&mut fk(
                "partner_payouts_partner_id_fkey",
                (PartnerPayouts::Table, PartnerPayouts::PartnerId),
                (PartnerAccounts::Table, PartnerAccounts::Id),
                SetNull,
            ))
            .to_owned();

        // One conversion per checkout (`partner_conversions_checkout_session_id_key`),
        // so a redelivered payment webhook cannot pay commission twice.
        let partner_conversions = Table::create()
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
            // The payout that settled this conversion, set with status 'paid'.
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
            unique(
                "partner_accounts_user_id_key",
                PartnerAccounts::Table,
                [PartnerAccounts::UserId],
            ),
            unique(
                "partner_accounts_code_key",
                PartnerAccounts::Table,
                [PartnerAccounts::Code],
            ),
            unique(
                "partner_accounts_promo_code_key",
                PartnerAccounts::Table,
                [PartnerAccounts::PromoCode],
            ),
            // Partner leaderboard: approved, by total earned.
            index(
                "partner_accounts_leaderboard_idx",
                PartnerAccounts::Table,
                [
                    (PartnerAccounts::Status, IndexOrder::Asc),
                    (PartnerAccounts::TotalEarnedCents, IndexOrder::Desc),
                ],
            ),
            // Admin list: newest first, optionally filtered by status.
            index(
                "partner_accounts_status_created_at_idx",
                PartnerAccounts::Table,
                [
                    (PartnerAccounts::Status, IndexOrder::Asc),
                    (PartnerAccounts::CreatedAt, IndexOrder::Desc),
                ],
            ),
            index(
                "partner_payouts_partner_id_created_at_idx",
                PartnerPayouts::Table,
                [
                    (PartnerPayouts::PartnerId, IndexOrder::Asc),
                    (PartnerPayouts::CreatedAt, IndexOrder::Desc),
                ],
            ),
            // Portal: a partner's recent conversions.
            index(
                "partner_conversions_partner_id_created_at_idx",
                PartnerConversions::Table,
                [
                    (PartnerConversions::PartnerId, IndexOrder::Asc),
                    (PartnerConversions::CreatedAt, IndexOrder::Desc),
                ],
            ),
            // Admin payouts: unpaid conversions grouped by partner.
            index(
                "partner_conversions_status_partner_id_idx",
                PartnerConversions::Table,
                [PartnerConversions::Status, PartnerConversions::PartnerId],
            ),
            index(
                "partner_conversions_referred_user_id_idx",
                PartnerConversions::Table,
                [PartnerConversions::ReferredUserId],
            ),
            unique(
                "partner_conversions_checkout_session_id_key",
                PartnerConversions::Table,
                [PartnerConversions::CheckoutSessionId],
            ),
            index(
                "partner_conversions_payout_id_idx",
                PartnerConversions::Table,
                [PartnerConversions::PayoutId],
            ),
        ];

        create_all(
            manager,
            vec![partner_accounts, partner_payouts, partner_conversions],
            indexes,
        )
        .await
    }

    async fn down(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        drop_all(
            manager,
            [
                PartnerConversions::Table.into_iden(),
                PartnerPayouts::Table.into_iden(),
                PartnerAccounts::Table.into_iden(),
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
enum PartnerAccounts {
    Table,
    Id,
    UserId,
    DisplayName,
    Code,
    PromoCode,
    Status,
    Tier,
    CommissionRate,
    TotalClicks,
    TotalConversions,
    TotalEarnedCents,
    CreatedAt,
    UpdatedAt,
}

#[derive(DeriveIden, Clone, Copy)]
enum PartnerPayouts {
    Table,
    Id,
    PartnerId,
    PeriodStart,
    PeriodEnd,
    TotalAmountCents,
    Status,
    CreatedAt,
}

#[derive(DeriveIden, Clone, Copy)]
enum PartnerConversions {
    Table,
    Id,
    PartnerId,
    AmountCents,
    CommissionCents,
    Status,
    ReferredUserId,
    CheckoutSessionId,
    PayoutId,
    CreatedAt,
}
