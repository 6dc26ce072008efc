//! The migrations: every table of the product (docs/spec-rules.md §3) on SQLite and
//! PostgreSQL, and applying them again changes nothing. A violated named
//! constraint is a clear 409 or 422 on both, never a 500.

use crate::harness::{Backend, TestApp, on_both_databases, spawn_app};
use prettyscore_server::db::entities::user_roles;
use prettyscore_server::db::{self, migration::TABLES};
use prettyscore_server::http::error::{ApiError, ConstraintError, DbResultExt, ErrorCode};
use reqwest::StatusCode;
use sea_orm::sea_query::{Alias, Query};
use sea_orm::{ActiveModelTrait, ConnectionTrait, DatabaseBackend, DbErr, Set, Statement};
use uuid::Uuid;

/// A user with the admin role: the role row is the one the tests duplicate.
async fn user_with_role(app: &TestApp, role: &str) -> Result<Uuid, DbErr> {
    let user = Uuid::new_v4();
    let insert = Query::insert()
        .into_table(Alias::new("users"))
        .columns([Alias::new("id"), Alias::new("email")])
        .values_panic([user.into(), format!("{user}@example.com").into()])
        .to_owned();
    app.db.execute(&insert).await?;
    insert_role(app, user, role).await?;
    Ok(user)
}

async fn insert_role(app: &TestApp, user: Uuid, role: &str) -> Result<user_roles::Model, DbErr> {
    user_roles::ActiveModel {
        id: Set(Uuid::new_v4()),
        user_id: Set(user),
        role: Set(role.to_owned()),
        created_at: Set(chrono::Utc::now()),
    }
    .insert(&app.db)
    .await
}

/// A made-up domain table, as a domain would declare it.
const ROLE_ERRORS: &[ConstraintError] = &[
    ConstraintError::conflict(
        "user_roles_user_id_role_key",
        ErrorCode::Conflict,
        "This user already has that role.",
    ),
    ConstraintError::invalid(
        "user_roles_role_check",
        ErrorCode::ValidationFailed,
        "There is no such role.",
    ),
];

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

on_both_databases!(
    instances_starting_together_on_a_fresh_database_both_migrate_it,
    a_schema_newer_than_the_server_is_refused_with_a_clear_message,
    every_table_of_the_spec_exists,
    applying_the_migrations_again_is_a_no_op,
    a_duplicate_is_a_409_with_the_domains_message,
    a_broken_rule_is_a_422_with_the_domains_message,
    violations_no_domain_names_are_still_409_or_422_and_other_failures_500
);

async fn every_table_of_the_spec_exists(backend: Backend) {
    let app = spawn_app(backend).await;
    let present = table_names(&app.db).await;
    let missing: Vec<_> = TABLES
        .iter()
        .filter(|t| !present.iter().any(|p| p == *t))
        .collect();
    assert!(
        missing.is_empty(),
        "{:?}: missing tables {missing:?}",
        app.backend
    );
    for table in [
        "photos",
        "profiles",
        "contact_requests",
        "messages",
        "personality_results",
        "subscriptions",
        "opportunity_claims",
        "partner_accounts",
        "partner_conversions",
        "partner_payouts",
        "verification_requests",
        "user_roles",
        "users",
        "identities",
        "sessions",
        "refresh_tokens",
        "mfa_factors",
        "mfa_challenges",
        "one_time_tokens",
        "flow_states",
        "audit_log_entries",
    ] {
        assert!(TABLES.contains(&table), "{table} is not in TABLES");
    }
}

async fn applying_the_migrations_again_is_a_no_op(backend: Backend) {
    let app = spawn_app(backend).await;
    let (known, applied) = db::migration_status(&app.db).await.unwrap();
    assert_eq!(known, applied, "all applied at start-up");
    let before = table_names(&app.db).await;
    db::migrate(&app.db).await.unwrap();
    db::migrate(&app.db).await.unwrap();
    assert_eq!(
        db::migration_status(&app.db).await.unwrap(),
        (known, applied)
    );
    let mut after = table_names(&app.db).await;
    let mut before = before;
    before.sort();
    after.sort();
    assert_eq!(before, after);
}

async fn a_duplicate_is_a_409_with_the_domains_message(backend: Backend) {
    let app = spawn_app(backend).await;
    let user = user_with_role(&app, "admin").await.unwrap();
    let err: ApiError = insert_role(&app, user, "admin")
        .await
        .on_constraints(ROLE_ERRORS)
        .unwrap_err();
    assert_eq!(err.status(), StatusCode::CONFLICT, "{err}");
    assert_eq!(err.code(), ErrorCode::Conflict);
    assert_eq!(err.message(), "This user already has that role.");
}

async fn a_broken_rule_is_a_422_with_the_domains_message(backend: Backend) {
    let app = spawn_app(backend).await;
    let user = user_with_role(&app, "admin").await.unwrap();
    let err = insert_role(&app, user, "superuser")
        .await
        .on_constraints(ROLE_ERRORS)
        .unwrap_err();
    assert_eq!(err.status(), StatusCode::UNPROCESSABLE_ENTITY, "{err}");
    assert_eq!(err.message(), "There is no such role.");
}

async fn violations_no_domain_names_are_still_409_or_422_and_other_failures_500(backend: Backend) {
    let app = spawn_app(backend).await;
    let user = user_with_role(&app, "admin").await.unwrap();
    let duplicate = ApiError::from(insert_role(&app, user, "admin").await.unwrap_err());
    assert_eq!(
        (duplicate.status(), duplicate.code()),
        (StatusCode::CONFLICT, ErrorCode::Conflict)
    );
    let check = ApiError::from(insert_role(&app, user, "superuser").await.unwrap_err());
    assert_eq!(
        (check.status(), check.code()),
        (
            StatusCode::UNPROCESSABLE_ENTITY,
            ErrorCode::ValidationFailed
        )
    );
    let dangling = ApiError::from(
        insert_role(&app, Uuid::new_v4(), "admin")
            .await
            .unwrap_err(),
    );
    assert_eq!(
        dangling.status(),
        StatusCode::UNPROCESSABLE_ENTITY,
        "a role of no user: {dangling}"
    );
    let broken = app
        .db
        .execute_unprepared("SELECT * FROM no_such_table")
        .await
        .unwrap_err();
    let broken = ApiError::from(broken);
    assert_eq!(
        (broken.status(), broken.code()),
        (StatusCode::INTERNAL_SERVER_ERROR, ErrorCode::InternalError)
    );
}

/// Issue 25: two instances starting together on a fresh database both come
/// up (on PostgreSQL one died with a duplicate `pg_type` key before the
/// migrations ran under an advisory lock). Four at once, each with its own
/// pool, as four processes would.
async fn instances_starting_together_on_a_fresh_database_both_migrate_it(backend: Backend) {
    let dir = tempfile::tempdir().unwrap();
    let url = crate::harness::fresh_database_url(backend, dir.path()).await;
    let mut connections = Vec::new();
    for _ in 0..4 {
        connections.push(db::connect(&url).await.unwrap());
    }
    let runs = connections.iter().map(db::migrate);
    for (n, result) in futures::future::join_all(runs)
        .await
        .into_iter()
        .enumerate()
    {
        result.unwrap_or_else(|err| panic!("instance {n} could not migrate: {err}"));
    }
    let (known, applied) = db::migration_status(&connections[0]).await.unwrap();
    assert_eq!(applied, known);
    let names = table_names(&connections[0]).await;
    for table in TABLES {
        assert!(names.iter().any(|name| name == table), "{table}");
    }
}

/// Issue 25: a database migrated by a newer version (a migration this build
/// does not know) is refused with a message that says so; the server does
/// not start on it.
async fn a_schema_newer_than_the_server_is_refused_with_a_clear_message(backend: Backend) {
    let app = spawn_app(backend).await;
    let future = "m20991231_000001_from_a_newer_version";
    app.db
        .execute_raw(Statement::from_string(
            backend_of(&app),
            format!("INSERT INTO seaql_migrations (version, applied_at) VALUES ('{future}', 0)"),
        ))
        .await
        .unwrap();
    let refused = db::migrate(&app.db).await.unwrap_err().to_string();
    assert!(refused.contains("newer than this server"), "{refused}");
    assert!(refused.contains(future), "{refused}");
    let mut config = app.config.clone();
    config.data_dir = app._data_dir.path().join("second");
    let Err(start) = prettyscore_server::app::Application::build(config).await else {
        panic!("a server started on a newer schema");
    };
    let chain = format!("{start:#}");
    assert!(chain.contains("newer than this server"), "{chain}");
}

fn backend_of(app: &TestApp) -> DatabaseBackend {
    app.db.get_database_backend()
}
