//! The migrations themselves, on SQLite (in memory) and PostgreSQL, each test
//! on a fresh, empty database of its own: up, down, named constraints,
//! cascades and defaults.

use std::collections::BTreeSet;

use sea_orm_migration::prelude::*;
use sea_orm_migration::sea_orm::{
    ConnectionTrait, Database, DatabaseConnection, DbBackend, QueryResult, Statement,
};
use uuid::Uuid;

use crate::harness::{Backend, POSTGRES_ENV, on_both_databases};
use prettyscore_server::db::constraints::{UNIQUE_KEYS, ViolationKind, violated_constraint};
use prettyscore_server::db::migration::{Migrator, TABLES};

on_both_databases!(
    migrations_create_every_table_and_reapplying_them_is_a_no_op,
    migrations_roll_back_completely_and_apply_again,
    migration_unique_key_registry_matches_the_schema,
    migration_second_opportunity_claim_of_a_user_violates_its_unique_key,
    migration_primary_key_and_composite_unique_violations_are_named,
    migration_invalid_contact_request_status_violates_its_check,
    migration_money_checks_reject_shares_that_do_not_add_up,
    migration_foreign_keys_are_enforced,
    migration_deleting_a_user_cascades_to_owned_rows_and_keeps_payment_history,
    migration_defaults_fill_timestamps_flags_and_json,
    migration_message_seq_increases_in_insert_order
);
const BOOKKEEPING_TABLE: &str = "seaql_migrations";

/// A fresh, empty database.
struct TestDb {
    conn: DatabaseConnection,
    // Declared after `conn`, so it is dropped after the connection pool.
    _postgres: Option<ScratchPostgresDatabase>,
}

impl TestDb {
    fn backend(&self) -> DbBackend {
        self.conn.get_database_backend()
    }
}

/// A fresh, empty database of `backend`.
async fn fresh_database(backend: Backend) -> TestDb {
    match backend {
        Backend::Sqlite => TestDb {
            conn: Database::connect("sqlite::memory:")
                .await
                .expect("open an in-memory SQLite database"),
            _postgres: None,
        },
        Backend::Postgres => {
            let server = std::env::var(POSTGRES_ENV).expect("a PostgreSQL test server");
            let (conn, scratch) = ScratchPostgresDatabase::create(&server).await;
            TestDb {
                conn,
                _postgres: Some(scratch),
            }
        }
    }
}

/// A uniquely named PostgreSQL database, dropped again when this value is
/// dropped, including when the test panicked.
struct ScratchPostgresDatabase {
    server_url: String,
    name: String,
}

impl ScratchPostgresDatabase {
    async fn create(server_url: &str) -> (DatabaseConnection, Self) {
        let name = format!("prettyscore_migration_{}", Uuid::new_v4().simple());
        let admin = Database::connect(server_url)
            .await
            .unwrap_or_else(|e| panic!("connect to {POSTGRES_ENV}={server_url}: {e}"));
        admin
            .execute_unprepared(&format!(r#"CREATE DATABASE "{name}""#))
            .await
            .expect("create the test database");
        admin.close().await.expect("close the admin connection");

        let mut url = url::Url::parse(server_url).expect("a postgres:// URL");
        url.set_path(&format!("/{name}"));
        let conn = Database::connect(url.as_str())
            .await
            .expect("connect to the test database");
        let scratch = Self {
            server_url: server_url.to_owned(),
            name,
        };
        (conn, scratch)
    }
}

impl Drop for ScratchPostgresDatabase {
    fn drop(&mut self) {
        let server_url = self.server_url.clone();
        let sql = format!(r#"DROP DATABASE IF EXISTS "{}" WITH (FORCE)"#, self.name);
        // Drop runs on the test's runtime thread, which cannot block on an
        // async call of its own: use a separate runtime on a separate thread.
        let outcome = std::thread::spawn(move || {
            let runtime = tokio::runtime::Builder::new_current_thread()
                .enable_all()
                .build()
                .map_err(|e| e.to_string())?;
            runtime.block_on(async move {
                let admin = Database::connect(&server_url)
                    .await
                    .map_err(|e| e.to_string())?;
                admin
                    .execute_unprepared(&sql)
                    .await
                    .map_err(|e| e.to_string())?;
                admin.close().await.map_err(|e| e.to_string())
            })
        })
        .join();
        match outcome {
            Ok(Ok(())) => {}
            Ok(Err(e)) => eprintln!("could not drop test database {}: {e}", self.name),
            Err(_) => eprintln!("could not drop test database {}: panicked", self.name),
        }
    }
}

/// A fresh database of `backend` with every migration applied.
async fn migrated_database(backend: Backend) -> TestDb {
    let db = fresh_database(backend).await;
    Migrator::up(&db.conn, None)
        .await
        .unwrap_or_else(|e| panic!("migrations apply on {backend:?}: {e}"));
    db
}

async fn query(db: &DatabaseConnection, sql: &str) -> Vec<QueryResult> {
    db.query_all_raw(Statement::from_string(db.get_database_backend(), sql))
        .await
        .unwrap_or_else(|e| panic!("{sql}: {e}"))
}

/// The tables in the database, from the backend's catalog.
async fn table_names(db: &DatabaseConnection) -> BTreeSet<String> {
    let sql = match db.get_database_backend() {
        DbBackend::Sqlite => {
            "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'"
        }
        DbBackend::Postgres => {
            "SELECT table_name::text AS name FROM information_schema.tables \
             WHERE table_schema = current_schema() AND table_type = 'BASE TABLE'"
        }
        other => panic!("unsupported backend {other:?}"),
    };
    query(db, sql)
        .await
        .iter()
        .map(|row| row.try_get::<String>("", "name").expect("a table name"))
        .collect()
}

fn all_tables() -> BTreeSet<String> {
    TABLES
        .iter()
        .copied()
        .chain([BOOKKEEPING_TABLE])
        .map(str::to_owned)
        .collect()
}

/// `(table, index name, columns)` of every unique index except primary keys.
async fn unique_indexes(db: &DatabaseConnection) -> BTreeSet<(String, String, Vec<String>)> {
    let sql = match db.get_database_backend() {
        DbBackend::Sqlite => {
            r#"SELECT m.name AS table_name, il.name AS index_name, ii.name AS column_name
               FROM sqlite_master m, pragma_index_list(m.name) il, pragma_index_info(il.name) ii
               WHERE m.type = 'table' AND il."unique" = 1 AND il.origin <> 'pk'
               ORDER BY m.name, il.name, ii.seqno"#
        }
        DbBackend::Postgres => {
            r#"SELECT t.relname::text AS table_name, i.relname::text AS index_name,
                      a.attname::text AS column_name
               FROM pg_index x
               JOIN pg_class i ON i.oid = x.indexrelid
               JOIN pg_class t ON t.oid = x.indrelid
               JOIN pg_namespace n ON n.oid = t.relnamespace
               CROSS JOIN LATERAL unnest(x.indkey::int2[]) WITH ORDINALITY AS k(attnum, ord)
               JOIN pg_attribute a ON a.attrelid = t.oid AND a.attnum = k.attnum
               WHERE x.indisunique AND NOT x.indisprimary AND n.nspname = current_schema()
               ORDER BY t.relname, i.relname, k.ord"#
        }
        other => panic!("unsupported backend {other:?}"),
    };
    let mut found: Vec<(String, String, Vec<String>)> = Vec::new();
    for row in query(db, sql).await {
        let table: String = row.try_get("", "table_name").unwrap();
        let index: String = row.try_get("", "index_name").unwrap();
        let column: String = row.try_get("", "column_name").unwrap();
        match found.last_mut() {
            Some((t, i, columns)) if *t == table && *i == index => columns.push(column),
            _ => found.push((table, index, vec![column])),
        }
    }
    found
        .into_iter()
        .filter(|(table, _, _)| table != BOOKKEEPING_TABLE)
        .collect()
}

/// Inserts one row with bound parameters.
async fn insert(
    db: &DatabaseConnection,
    table: &'static str,
    values: Vec<(&'static str, Value)>,
) -> Result<(), DbErr> {
    let (columns, values): (Vec<_>, Vec<_>) = values.into_iter().unzip();
    let stmt = Query::insert()
        .into_table(table)
        .columns(columns)
        .values_panic(values.into_iter().map(Expr::val))
        .to_owned();
    db.execute(&stmt).await.map(|_| ())
}

async fn insert_user(db: &DatabaseConnection) -> Uuid {
    let id = Uuid::now_v7();
    insert(
        db,
        "users",
        vec![
            ("id", id.into()),
            ("email", format!("{}@example.com", id.simple()).into()),
        ],
    )
    .await
    .expect("insert a user");
    id
}

fn opportunity_claim(user_id: Uuid) -> Vec<(&'static str, Value)> {
    vec![
        ("id", Uuid::now_v7().into()),
        ("user_id", user_id.into()),
        ("full_name", "Ada Lovelace".into()),
        ("email", "ada@example.com".into()),
        ("location", "London".into()),
        (
            "interests",
            serde_json::json!(["Fashion Modeling", "Brand Partnerships"]).into(),
        ),
    ]
}

/// A contact request for rank 1: fee $1000, 25 % platform, 75 % contestant.
fn contact_request(requester: Uuid, contestant: Uuid, status: &str) -> Vec<(&'static str, Value)> {
    vec![
        ("id", Uuid::now_v7().into()),
        ("requester_id", requester.into()),
        ("contestant_id", contestant.into()),
        ("rank_at_request", 1.into()),
        ("fee_amount_cents", 100_000_i64.into()),
        ("platform_share_cents", 25_000_i64.into()),
        ("contestant_share_cents", 75_000_i64.into()),
        ("message_preview", "Hello, I loved your photo!".into()),
        ("status", status.into()),
    ]
}

async fn count(db: &DatabaseConnection, table: &str, condition: &str) -> i64 {
    let rows = query(
        db,
        &format!(r#"SELECT COUNT(*) AS n FROM "{table}" WHERE {condition}"#),
    )
    .await;
    rows[0].try_get("", "n").unwrap()
}

async fn migrations_create_every_table_and_reapplying_them_is_a_no_op(backend: Backend) {
    let db = migrated_database(backend).await;
    let backend = db.backend();
    assert!(
        Migrator::get_pending_migrations(&db.conn)
            .await
            .unwrap()
            .is_empty(),
        "{backend:?}: nothing pending after up"
    );
    assert_eq!(table_names(&db.conn).await, all_tables(), "{backend:?}");

    Migrator::up(&db.conn, None)
        .await
        .unwrap_or_else(|e| panic!("{backend:?}: second up: {e}"));

    assert_eq!(
        Migrator::get_applied_migrations(&db.conn)
            .await
            .unwrap()
            .len(),
        Migrator::migrations().len(),
        "{backend:?}"
    );
    assert_eq!(table_names(&db.conn).await, all_tables(), "{backend:?}");
}

async fn migrations_roll_back_completely_and_apply_again(backend: Backend) {
    let db = migrated_database(backend).await;
    let backend = db.backend();
    Migrator::down(&db.conn, None)
        .await
        .unwrap_or_else(|e| panic!("{backend:?}: down: {e}"));
    assert_eq!(
        table_names(&db.conn).await,
        BTreeSet::from([BOOKKEEPING_TABLE.to_owned()]),
        "{backend:?}: only the bookkeeping table is left"
    );
    assert_eq!(
        Migrator::get_pending_migrations(&db.conn)
            .await
            .unwrap()
            .len(),
        Migrator::migrations().len(),
        "{backend:?}"
    );

    Migrator::up(&db.conn, None)
        .await
        .unwrap_or_else(|e| panic!("{backend:?}: up after down: {e}"));
    assert_eq!(table_names(&db.conn).await, all_tables(), "{backend:?}");
}

async fn migration_unique_key_registry_matches_the_schema(backend: Backend) {
    let expected: BTreeSet<(String, String, Vec<String>)> = UNIQUE_KEYS
        .iter()
        .map(|k| {
            (
                k.table.to_owned(),
                k.name.to_owned(),
                k.columns.iter().map(|c| (*c).to_owned()).collect(),
            )
        })
        .collect();
    assert_eq!(expected.len(), UNIQUE_KEYS.len(), "no duplicate entries");
    let db = migrated_database(backend).await;
    assert_eq!(
        unique_indexes(&db.conn).await,
        expected,
        "{:?}: every unique index is named, and listed in UNIQUE_KEYS",
        db.backend()
    );
}

async fn migration_second_opportunity_claim_of_a_user_violates_its_unique_key(backend: Backend) {
    let db = migrated_database(backend).await;
    let backend = db.backend();
    let user = insert_user(&db.conn).await;
    insert(&db.conn, "opportunity_claims", opportunity_claim(user))
        .await
        .unwrap_or_else(|e| panic!("{backend:?}: first claim: {e}"));

    let err = insert(&db.conn, "opportunity_claims", opportunity_claim(user))
        .await
        .expect_err("a second claim for the same user must fail");

    let violation = violated_constraint(&err)
        .unwrap_or_else(|| panic!("{backend:?}: not a constraint violation: {err}"));
    assert_eq!(violation.kind, ViolationKind::Unique, "{backend:?}");
    assert!(
        violation.is("opportunity_claims_user_id_key"),
        "{backend:?}: {violation:?}"
    );
    assert_eq!(
        count(&db.conn, "opportunity_claims", "1 = 1").await,
        1,
        "{backend:?}"
    );
}

async fn migration_primary_key_and_composite_unique_violations_are_named(backend: Backend) {
    let db = migrated_database(backend).await;
    let backend = db.backend();
    let user = insert_user(&db.conn).await;
    let err = insert(&db.conn, "users", vec![("id", user.into())])
        .await
        .expect_err("a duplicate primary key must fail");
    assert!(
        violated_constraint(&err).is_some_and(|v| v.is("users_pkey")),
        "{backend:?}: {err}"
    );

    let trial = |user: Uuid| {
        vec![
            ("id", Uuid::now_v7().into()),
            ("user_id", user.into()),
            ("feature_name", "ai_editor".into()),
        ]
    };
    insert(&db.conn, "feature_trials", trial(user))
        .await
        .unwrap_or_else(|e| panic!("{backend:?}: first trial: {e}"));
    let err = insert(&db.conn, "feature_trials", trial(user))
        .await
        .expect_err("a second trial of the same feature must fail");
    assert!(
        violated_constraint(&err).is_some_and(|v| v.is("feature_trials_user_id_feature_name_key")),
        "{backend:?}: {err}"
    );
}

async fn migration_invalid_contact_request_status_violates_its_check(backend: Backend) {
    let db = migrated_database(backend).await;
    let backend = db.backend();
    let requester = insert_user(&db.conn).await;
    let contestant = insert_user(&db.conn).await;
    insert(
        &db.conn,
        "contact_requests",
        contact_request(requester, contestant, "pending"),
    )
    .await
    .unwrap_or_else(|e| panic!("{backend:?}: a valid request: {e}"));

    let err = insert(
        &db.conn,
        "contact_requests",
        contact_request(requester, contestant, "archived"),
    )
    .await
    .expect_err("status 'archived' must be rejected");

    let violation = violated_constraint(&err)
        .unwrap_or_else(|| panic!("{backend:?}: not a constraint violation: {err}"));
    assert_eq!(violation.kind, ViolationKind::Check, "{backend:?}");
    assert!(
        violation.is("contact_requests_status_check"),
        "{backend:?}: {violation:?}"
    );
}

async fn migration_money_checks_reject_shares_that_do_not_add_up(backend: Backend) {
    let db = migrated_database(backend).await;
    let backend = db.backend();
    let requester = insert_user(&db.conn).await;
    let contestant = insert_user(&db.conn).await;
    let mut row = contact_request(requester, contestant, "pending");
    row.retain(|(column, _)| *column != "contestant_share_cents");
    row.push(("contestant_share_cents", 74_999_i64.into()));

    let err = insert(&db.conn, "contact_requests", row)
        .await
        .expect_err("shares must add up to the fee");
    assert!(
        violated_constraint(&err).is_some_and(|v| v.is("contact_requests_amounts_check")),
        "{backend:?}: {err}"
    );
}

async fn migration_foreign_keys_are_enforced(backend: Backend) {
    let db = migrated_database(backend).await;
    let backend = db.backend();
    let err = insert(
        &db.conn,
        "opportunity_claims",
        opportunity_claim(Uuid::now_v7()),
    )
    .await
    .expect_err("a claim for a user that does not exist must fail");
    let violation = violated_constraint(&err)
        .unwrap_or_else(|| panic!("{backend:?}: not a constraint violation: {err}"));
    assert_eq!(violation.kind, ViolationKind::ForeignKey, "{backend:?}");
    if backend == DbBackend::Postgres {
        assert!(
            violation.is("opportunity_claims_user_id_fkey"),
            "{violation:?}"
        );
    }
}

async fn migration_deleting_a_user_cascades_to_owned_rows_and_keeps_payment_history(
    backend: Backend,
) {
    let db = migrated_database(backend).await;
    let backend = db.backend();
    let user = insert_user(&db.conn).await;
    let other = insert_user(&db.conn).await;
    let photo = Uuid::now_v7();
    insert(
        &db.conn,
        "photos",
        vec![
            ("id", photo.into()),
            ("user_id", user.into()),
            ("original_image_url", "/media/a.jpg".into()),
            ("score", 8.5_f64.into()),
            ("rating_label", "Absolutely Stunning".into()),
            (
                "breakdown",
                serde_json::json!({"symmetry": 8.7, "skinQuality": 8.2, "facialHarmony": 8.6})
                    .into(),
            ),
        ],
    )
    .await
    .unwrap_or_else(|e| panic!("{backend:?}: photo: {e}"));
    insert(
        &db.conn,
        "checkout_sessions",
        vec![
            ("id", Uuid::now_v7().into()),
            ("user_id", user.into()),
            ("idempotency_key", Uuid::new_v4().to_string().into()),
            ("provider", "sandbox".into()),
            ("purpose", "subscription".into()),
            ("price_id", "price_premium_editing".into()),
            ("amount_cents", 999_i64.into()),
        ],
    )
    .await
    .unwrap_or_else(|e| panic!("{backend:?}: checkout: {e}"));
    // A request the other user made for this user's photo.
    insert(
        &db.conn,
        "contact_requests",
        contact_request(other, user, "pending"),
    )
    .await
    .unwrap_or_else(|e| panic!("{backend:?}: contact request: {e}"));

    let delete = Query::delete()
        .from_table("users")
        .and_where(Expr::col("id").eq(user))
        .to_owned();
    db.conn
        .execute(&delete)
        .await
        .unwrap_or_else(|e| panic!("{backend:?}: delete user: {e}"));

    assert_eq!(count(&db.conn, "photos", "1 = 1").await, 0, "{backend:?}");
    assert_eq!(
        count(&db.conn, "contact_requests", "1 = 1").await,
        0,
        "{backend:?}"
    );
    assert_eq!(
        count(&db.conn, "checkout_sessions", "user_id IS NULL").await,
        1,
        "{backend:?}: the payment record survives without its user"
    );
}

async fn migration_defaults_fill_timestamps_flags_and_json(backend: Backend) {
    let db = migrated_database(backend).await;
    let backend = db.backend();
    let before = chrono::Utc::now() - chrono::Duration::seconds(5);
    let user = insert_user(&db.conn).await;
    let select = Query::select()
        .columns([
            "created_at",
            "updated_at",
            "is_anonymous",
            "raw_app_meta_data",
            "aud",
        ])
        .from("users")
        .and_where(Expr::col("id").eq(user))
        .to_owned();
    let row = db.conn.query_one(&select).await.unwrap().unwrap();

    let created: chrono::DateTime<chrono::Utc> = row
        .try_get("", "created_at")
        .unwrap_or_else(|e| panic!("{backend:?}: created_at decodes: {e}"));
    let updated: chrono::DateTime<chrono::Utc> = row.try_get("", "updated_at").unwrap();
    let after = chrono::Utc::now() + chrono::Duration::seconds(5);
    assert!(
        before < created && created < after,
        "{backend:?}: {created}"
    );
    assert!(
        before < updated && updated < after,
        "{backend:?}: {updated}"
    );
    assert!(
        !row.try_get::<bool>("", "is_anonymous").unwrap(),
        "{backend:?}"
    );
    assert_eq!(
        row.try_get::<serde_json::Value>("", "raw_app_meta_data")
            .unwrap(),
        serde_json::json!({}),
        "{backend:?}"
    );
    assert_eq!(
        row.try_get::<String>("", "aud").unwrap(),
        "authenticated",
        "{backend:?}"
    );
}

#[tokio::test]
async fn migration_sqlite_timestamp_default_sorts_with_values_the_server_writes() {
    // SQLite compares timestamps as text: the default must have the shape sqlx
    // writes for a DateTime<Utc>, or same-day rows would sort by format.
    let db = migrated_database(Backend::Sqlite).await;
    let written_earlier = chrono::Utc::now() - chrono::Duration::milliseconds(10);
    let defaulted = insert_user(&db.conn).await;
    let explicit = Uuid::now_v7();
    insert(
        &db.conn,
        "users",
        vec![
            ("id", explicit.into()),
            ("created_at", written_earlier.into()),
        ],
    )
    .await
    .unwrap();
    let rows = query(&db.conn, "SELECT id FROM users ORDER BY created_at").await;
    let order: Vec<Uuid> = rows.iter().map(|r| r.try_get("", "id").unwrap()).collect();
    assert_eq!(order, vec![explicit, defaulted]);
}

async fn migration_message_seq_increases_in_insert_order(backend: Backend) {
    let db = migrated_database(backend).await;
    let backend = db.backend();
    let requester = insert_user(&db.conn).await;
    let contestant = insert_user(&db.conn).await;
    let request = contact_request(requester, contestant, "approved");
    let request_id = request[0].1.clone();
    insert(&db.conn, "contact_requests", request).await.unwrap();

    let mut ids = Vec::new();
    for (i, (from, to)) in [
        (requester, contestant),
        (contestant, requester),
        (requester, contestant),
    ]
    .into_iter()
    .enumerate()
    {
        let id = Uuid::now_v7();
        ids.push(id);
        insert(
            &db.conn,
            "messages",
            vec![
                ("id", id.into()),
                ("contact_request_id", request_id.clone()),
                ("sender_id", from.into()),
                ("receiver_id", to.into()),
                ("content", format!("message {i}").into()),
            ],
        )
        .await
        .unwrap_or_else(|e| panic!("{backend:?}: message {i}: {e}"));
    }

    let rows = query(&db.conn, "SELECT seq, id FROM messages ORDER BY seq").await;
    let seqs: Vec<i64> = rows.iter().map(|r| r.try_get("", "seq").unwrap()).collect();
    let order: Vec<Uuid> = rows.iter().map(|r| r.try_get("", "id").unwrap()).collect();
    assert_eq!(order, ids, "{backend:?}");
    assert!(
        seqs.windows(2).all(|w| w[0] < w[1]),
        "{backend:?}: {seqs:?}"
    );
}
