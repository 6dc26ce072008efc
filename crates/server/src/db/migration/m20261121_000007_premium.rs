//! Premium and gated features: subscriptions, one free trial per gated feature,
//! the free AI-edit quota, personality test results and opportunity
//! applications.
//!
//! Everything here belongs to a user (CASCADE), except the edit quota: it counts
//! edits per browser, and deleting an account must not hand that browser a fresh
//! set of free edits, so its `user_id` is SET NULL.

use sea_orm_migration::prelude::*;

use super::common::*;

#[derive(DeriveMigrationName)]
pub struct Migration;

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        let db = manager.get_database_backend();
        use ForeignKeyAction::{Cascade, SetNull};

        // Premium = a row with plan_type 'premium_editing', status 'active' and
        // expires_at NULL or in the future. Statuses are Stripe's.
        let subscriptions = Table::create()
            .table(Subscriptions::Table)
            .col(pk_uuid(Subscriptions::Id))
            .col(uuid(Subscriptions::UserId))
            .col(text_enum(
                Subscriptions::Status,
                "subscriptions_status_check",
                &[
                    "incomplete",
                    "incomplete_expired",
                    "trialing",
                    "active",
                    "past_due",
                    "canceled",
                    "unpaid",
                    "paused",
                ],
                None,
            ))
            .col(text_enum(
                Subscriptions::PlanType,
                "subscriptions_plan_type_check",
                &["premium_editing", "pay_per_view"],
                None,
            ))
            .col(text_enum(
                Subscriptions::Provider,
                "subscriptions_provider_check",
                &["sandbox", "stripe"],
                None,
            ))
            .col(text_null(Subscriptions::ProviderCustomerId))
            .col(text_null(Subscriptions::ProviderSubscriptionId))
            // End of the paid period.
            .col(timestamp_null(Subscriptions::ExpiresAt))
            .col(timestamp_now(Subscriptions::CreatedAt, db))
            .col(timestamp_now(Subscriptions::UpdatedAt, db))
            .foreign_key(&mut fk(
                "subscriptions_user_id_fkey",
                (Subscriptions::Table, Subscriptions::UserId),
                (Users::Table, Users::Id),
                Cascade,
            ))
            .to_owned();

        // The unique key makes "use the one free trial" a single INSERT: a second
        // attempt fails on `feature_trials_user_id_feature_name_key`.
        let feature_trials = Table::create()
            .table(FeatureTrials::Table)
            .col(pk_uuid(FeatureTrials::Id))
            .col(uuid(FeatureTrials::UserId))
            .col(text_enum(
                FeatureTrials::FeatureName,
                "feature_trials_feature_name_check",
                &[
                    "ai_editor",
                    "personality_test",
                    "feet_scoring",
                    "hands_scoring",
                ],
                None,
            ))
            .col(timestamp_now(FeatureTrials::UsedAt, db))
            .foreign_key(&mut fk(
                "feature_trials_user_id_fkey",
                (FeatureTrials::Table, FeatureTrials::UserId),
                (Users::Table, Users::Id),
                Cascade,
            ))
            .to_owned();

        // Free AI edits per browser. `device_id` is the id the server issues to the
        // browser (cookie); `user_id` is the last signed-in user on it, so a user's
        // use can also be summed across browsers. The limit (5) is configuration,
        // not schema. Taking an edit is one atomic statement on both databases:
        //   INSERT ... ON CONFLICT (device_id) DO UPDATE
        //     SET edits_used = edit_quota_usage.edits_used + 1
        //     WHERE edit_quota_usage.edits_used < 5 RETURNING edits_used
        let edit_quota_usage = Table::create()
            .table(EditQuotaUsage::Table)
            .col(pk_uuid(EditQuotaUsage::Id))
            .col(text(EditQuotaUsage::DeviceId))
            .col(uuid_null(EditQuotaUsage::UserId))
            .col(
                ColumnDef::new(EditQuotaUsage::EditsUsed)
                    .integer()
                    .not_null()
                    .default(0),
            )
            .col(timestamp_now(EditQuotaUsage::CreatedAt, db))
            .col(timestamp_now(EditQuotaUsage::UpdatedAt, db))
            .check((
                "edit_quota_usage_edits_used_check",
                Expr::col(EditQuotaUsage::EditsUsed).gte(0),
            ))
            .foreign_key(&mut fk(
                "edit_quota_usage_user_id_fkey",
                (EditQuotaUsage::Table, EditQuotaUsage::UserId),
                (Users::Table, Users::Id),
                SetNull,
            ))
            .to_owned();

        // A basic result is saved with paid false; a detailed one is a new row
        // with paid true. `answers` maps question index to option value.
        let personality_results = Table::create()
            .table(PersonalityResults::Table)
            .col(pk_uuid(PersonalityResults::Id))
            .col(uuid(PersonalityResults::UserId))
            .col(text_enum(
                PersonalityResults::QuizType,
                "personality_results_quiz_type_check",
                &["basic", "detailed"],
                None,
            ))
            .col(json(PersonalityResults::Answers))
            .col(int(PersonalityResults::Score))
            .col(text(PersonalityResults::PersonalityType))
            .col(text(PersonalityResults::Analysis))
            .col(flag(PersonalityResults::Paid, false))
            .col(timestamp_now(PersonalityResults::CreatedAt, db))
            .foreign_key(&mut fk(
                "personality_results_user_id_fkey",
                (PersonalityResults::Table, PersonalityResults::UserId),
                (Users::Table, Users::Id),
                Cascade,
            ))
            .to_owned();

        // One application per user: a second one fails on
        // `opportunity_claims_user_id_key` ("You've already submitted an application").
        let opportunity_claims = Table::create()
            .table(OpportunityClaims::Table)
            .col(pk_uuid(OpportunityClaims::Id))
            .col(uuid(OpportunityClaims::UserId))
            .col(text(OpportunityClaims::FullName))
            .col(text(OpportunityClaims::Email))
            .col(text_null(OpportunityClaims::Phone))
            .col(text_null(OpportunityClaims::Instagram))
            .col(text(OpportunityClaims::Location))
            .col(text_null(OpportunityClaims::Bio))
            // A JSON array of the interest options.
            .col(json_default(OpportunityClaims::Interests, "[]"))
            .col(timestamp_now(OpportunityClaims::CreatedAt, db))
            .foreign_key(&mut fk(
                "opportunity_claims_user_id_fkey",
                (OpportunityClaims::Table, OpportunityClaims::UserId),
                (Users::Table, Users::Id),
                Cascade,
            ))
            .to_owned();

        let indexes = vec![
            index(
                "subscriptions_user_id_status_idx",
                Subscriptions::Table,
                [Subscriptions::UserId, Subscriptions::Status],
            ),
            // Webhooks find the row by the provider's id; one row per provider subscription.
            unique(
                "subscriptions_provider_subscription_id_key",
                Subscriptions::Table,
                [Subscriptions::ProviderSubscriptionId],
            ),
            unique(
                "feature_trials_user_id_feature_name_key",
                FeatureTrials::Table,
                [FeatureTrials::UserId, FeatureTrials::FeatureName],
            ),
            unique(
                "edit_quota_usage_device_id_key",
                EditQuotaUsage::Table,
                [EditQuotaUsage::DeviceId],
            ),
            index(
                "edit_quota_usage_user_id_idx",
                EditQuotaUsage::Table,
                [EditQuotaUsage::UserId],
            ),
            index(
                "personality_results_user_id_created_at_idx",
                PersonalityResults::Table,
                [
                    (PersonalityResults::UserId, IndexOrder::Asc),
                    (PersonalityResults::CreatedAt, IndexOrder::Desc),
                ],
            ),
            unique(
                "opportunity_claims_user_id_key",
                OpportunityClaims::Table,
                [OpportunityClaims::UserId],
            ),
        ];

        create_all(
            manager,
            vec![
                subscriptions,
                feature_trials,
                edit_quota_usage,
                personality_results,
                opportunity_claims,
            ],
            indexes,
        )
        .await
    }

    async fn down(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        drop_all(
            manager,
            [
                OpportunityClaims::Table.into_iden(),
                PersonalityResults::Table.into_iden(),
                EditQuotaUsage::Table.into_iden(),
                FeatureTrials::Table.into_iden(),
                Subscriptions::Table.into_iden(),
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
enum Subscriptions {
    Table,
    Id,
    UserId,
    Status,
    PlanType,
    Provider,
    ProviderCustomerId,
    ProviderSubscriptionId,
    ExpiresAt,
    CreatedAt,
    UpdatedAt,
}

#[derive(DeriveIden, Clone, Copy)]
enum FeatureTrials {
    Table,
    Id,
    UserId,
    FeatureName,
    UsedAt,
}

#[derive(DeriveIden, Clone, Copy)]
enum EditQuotaUsage {
    Table,
    Id,
    DeviceId,
    UserId,
    EditsUsed,
    CreatedAt,
    UpdatedAt,
}

#[derive(DeriveIden, Clone, Copy)]
enum PersonalityResults {
    Table,
    Id,
    UserId,
    QuizType,
    Answers,
    Score,
    PersonalityType,
    Analysis,
    Paid,
    CreatedAt,
}

#[derive(DeriveIden, Clone, Copy)]
enum OpportunityClaims {
    Table,
    Id,
    UserId,
    FullName,
    Email,
    Phone,
    Instagram,
    Location,
    Bio,
    Interests,
    CreatedAt,
}
