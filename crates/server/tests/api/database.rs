//! The migrations: every table of both spec documents on SQLite and
//! PostgreSQL, and applying them again changes nothing.

use crate::helpers::on_both_databases;
use prettyscore_server::db::{self, migration::TABLES};
use sea_orm::{ConnectionTrait, DatabaseBackend, Statement};

async fn table_names(db: &sea_orm::DatabaseConnection) -> Vec<String> {
    let sql = match db.get_database_backend() {
        DatabaseBackend::Sqlite => "SELECT name FROM sqlite_master WHERE type = 'table'",
        _ => {
            "SELECT table_name AS name FROM information_schema.tables WHERE table_schema = 'public'"
        }
    };
    let rows = db
        .query_all_raw(Statement::from_string(db.get_database_backend(), sql))
        .await
        .unwrap();
    rows.iter()
        .map(|row| row.try_get::<String>("", "name").unwrap())
        .collect()
}

on_both_databases! {
    async fn every_table_of_the_spec_exists(app) {
        let present = table_names(&app.db).await;
        let missing: Vec<_> = TABLES.iter().filter(|t| !present.iter().any(|p| p == *t)).collect();
        assert!(missing.is_empty(), "{:?}: missing tables {missing:?}", app.backend);
        for table in [
            "photos", "profiles", "contact_requests", "messages", "personality_results",
            "subscriptions", "opportunity_claims", "partner_accounts", "partner_conversions",
            "partner_payouts", "verification_requests", "user_roles", "users", "identities",
            "sessions", "refresh_tokens", "mfa_factors", "mfa_challenges", "one_time_tokens",
            "flow_states", "audit_log_entries",
        ] {
            assert!(TABLES.contains(&table), "{table} is not in TABLES");
        }
    }

    async fn applying_the_migrations_again_is_a_no_op(app) {
        let (known, applied) = db::migration_status(&app.db).await.unwrap();
        assert_eq!(known, applied, "all applied at start-up");
        let before = table_names(&app.db).await;
        db::migrate(&app.db).await.unwrap();
        db::migrate(&app.db).await.unwrap();
        assert_eq!(db::migration_status(&app.db).await.unwrap(), (known, applied));
        let mut after = table_names(&app.db).await;
        let mut before = before;
        before.sort();
        after.sort();
        assert_eq!(before, after);
    }
}
