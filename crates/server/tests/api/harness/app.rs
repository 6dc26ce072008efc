//! Starting the app: the real app on port 0 with a fresh database of its
//! own, on either database, and the declaration of tests for both
//! ([`on_both_databases!`]); a second instance on the same database; the
//! database itself (raw SQL on either backend); and waiting for what
//! happens in the background ([`eventually`], [`in_one_window`]).

use std::io::Write;
use std::path::PathBuf;
use std::time::{Duration, Instant};

use prettyscore_server::app::Application;
use prettyscore_server::config::{Config, PasswordHashConfig, Secret};
use sea_orm::{ConnectionTrait, Database, DatabaseConnection, DbBackend, Statement};
use tempfile::TempDir;

/// The environment variable that names a PostgreSQL server for the tests,
/// e.g. `postgres://postgres@127.0.0.1:5432`.
pub const POSTGRES_ENV: &str = "PRETTYSCORE_TEST_POSTGRES";

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Backend {
    Sqlite,
    Postgres,
}

pub struct TestApp {
    pub address: String,
    pub client: reqwest::Client,
    pub db: DatabaseConnection,
    pub config: Config,
    /// The running app's state, for calling a background job directly.
    pub state: prettyscore_server::http::AppState,
    pub backend: Backend,
    /// Kept so the directory lives as long as the app.
    pub _data_dir: TempDir,
}

impl TestApp {
    pub fn url(&self, path: &str) -> String {
        format!("{}{path}", self.address)
    }

    /// A plain GET without credentials, the response unread.
    pub async fn get(&self, path: &str) -> reqwest::Response {
        self.client
            .get(self.url(path))
            .send()
            .await
            .expect("the test server answers")
    }

    /// A second instance on this app's database, with the same payment
    /// settings (and its own data dir).
    pub async fn second_instance(&self) -> TestApp {
        let url = self.config.database_url.clone();
        let payments = self.config.payments.clone();
        spawn_app_with(self.backend, move |config| {
            config.database_url = url;
            config.payments = payments;
        })
        .await
    }
}

/// Whether the tests run under CI: `CI` set to anything but empty, `0` or
/// `false`, as `scripts/lib/common.sh` reads it (`.ci/run` sets `CI=true`).
pub fn in_ci() -> bool {
    std::env::var("CI").is_ok_and(|value| !matches!(value.trim(), "" | "0" | "false"))
}

/// Whether the PostgreSQL variant `test` can run. Without a server named in
/// `PRETTYSCORE_TEST_POSTGRES` it says so on the terminal and does not run;
/// under CI it fails instead, since CI must run both databases.
pub fn postgres_available(test: &str) -> bool {
    if std::env::var(POSTGRES_ENV).is_ok_and(|url| !url.trim().is_empty()) {
        return true;
    }
    assert!(
        !in_ci(),
        "{test}: CI must run the PostgreSQL tests, but {POSTGRES_ENV} is not set"
    );
    // Straight to the terminal: the test harness captures only `eprintln!`.
    let _ = writeln!(
        std::io::stderr(),
        "{test}: NOT RUN ({POSTGRES_ENV} is not set; e.g. {POSTGRES_ENV}=postgres://postgres@127.0.0.1:5432)"
    );
    false
}

/// Declares tests for both databases. Each name is an
/// `async fn name(backend: Backend)` of the same module, which becomes the
/// tests `name::sqlite` and `name::postgres`; the bodies are plain functions,
/// so rustfmt formats them. The PostgreSQL variant runs when
/// `PRETTYSCORE_TEST_POSTGRES` names a server (see [`postgres_available`]).
macro_rules! on_both_databases {
    ($($name:ident),+ $(,)?) => {$(
        mod $name {
            #[tokio::test]
            async fn sqlite() {
                super::$name($crate::harness::Backend::Sqlite).await;
            }

            #[tokio::test]
            async fn postgres() {
                if $crate::harness::postgres_available(concat!(module_path!(), "::postgres")) {
                    super::$name($crate::harness::Backend::Postgres).await;
                }
            }
        }
    )+};
}
pub(crate) use on_both_databases;

/// A fresh database for one test: a SQLite file in the test's data dir, or a
/// new database on the PostgreSQL server `PRETTYSCORE_TEST_POSTGRES` names.
pub async fn fresh_database_url(backend: Backend, data_dir: &std::path::Path) -> String {
    match backend {
        Backend::Sqlite => format!(
            "sqlite://{}?mode=rwc",
            data_dir.join("test.sqlite").display()
        ),
        Backend::Postgres => {
            let (server, name) = new_postgres_database_name();
            let admin = Database::connect(format!("{server}/postgres"))
                .await
                .expect("the PostgreSQL test server accepts connections");
            admin
                .execute_unprepared(&format!("CREATE DATABASE \"{name}\""))
                .await
                .expect("a test database can be created");
            admin.close().await.ok();
            format!("{server}/{name}")
        }
    }
}

/// A fresh database for one app, already migrated: a copy of a template that
/// this test process migrates once per backend. Migrating took about 0.6 s of
/// each PostgreSQL test (1.08 s against 0.49 s on SQLite, for one request),
/// and the app's own start-up still runs `db::migrate`, which finds nothing
/// to do. Tests of migrating itself use [`fresh_database_url`].
pub async fn migrated_database_url(backend: Backend, data_dir: &std::path::Path) -> String {
    match backend {
        Backend::Sqlite => {
            let template = sqlite_template().await;
            let file = data_dir.join("test.sqlite");
            std::fs::copy(template, &file).expect("the migrated SQLite template can be copied");
            format!("sqlite://{}?mode=rwc", file.display())
        }
        Backend::Postgres => {
            let template = postgres_template().await;
            let (server, name) = new_postgres_database_name();
            let admin = Database::connect(format!("{server}/postgres"))
                .await
                .expect("the PostgreSQL test server accepts connections");
            admin
                .execute_unprepared(&format!(
                    "CREATE DATABASE \"{name}\" TEMPLATE \"{template}\""
                ))
                .await
                .expect("a test database can be created from the migrated template");
            admin.close().await.ok();
            format!("{server}/{name}")
        }
    }
}

/// The PostgreSQL server the tests use, and a new database name on it (the
/// prefix is what `scripts/test.sh` drops before a run).
fn new_postgres_database_name() -> (String, String) {
    let server = std::env::var(POSTGRES_ENV)
        .unwrap_or_else(|_| panic!("{POSTGRES_ENV} names the PostgreSQL test server"));
    let name = format!("prettyscore_test_{}", uuid::Uuid::new_v4().simple());
    (server.trim_end_matches('/').to_owned(), name)
}

/// Migrates the database at `url` with the server's own migrations and
/// closes every connection to it, so it can be copied.
async fn migrate_template(url: &str) {
    let db = prettyscore_server::db::connect(url)
        .await
        .expect("the template database accepts connections");
    prettyscore_server::db::migrate(&db)
        .await
        .expect("the template database migrates");
    if db.get_database_backend() == DbBackend::Sqlite {
        // Everything into the main file, which is all that is copied.
        db.execute_unprepared("PRAGMA wal_checkpoint(TRUNCATE)")
            .await
            .expect("the template's WAL is checkpointed");
    }
    db.close().await.expect("the template's connections close");
}

/// The migrated SQLite file that [`migrated_database_url`] copies, made
/// once per test process.
async fn sqlite_template() -> &'static std::path::Path {
    static TEMPLATE: tokio::sync::OnceCell<(TempDir, PathBuf)> = tokio::sync::OnceCell::const_new();
    let (_, file) = TEMPLATE
        .get_or_init(|| async {
            let dir = tempfile::tempdir().unwrap();
            let file = dir.path().join("template.sqlite");
            migrate_template(&format!("sqlite://{}?mode=rwc", file.display())).await;
            (dir, file)
        })
        .await;
    file
}

/// The name of the migrated PostgreSQL database that [`migrated_database_url`]
/// copies, made once per test process.
async fn postgres_template() -> &'static str {
    static TEMPLATE: tokio::sync::OnceCell<String> = tokio::sync::OnceCell::const_new();
    TEMPLATE
        .get_or_init(|| async {
            let url = fresh_database_url(Backend::Postgres, std::path::Path::new("")).await;
            migrate_template(&url).await;
            url.rsplit('/').next().unwrap().to_owned()
        })
        .await
}

/// A web app stand-in, so these tests do not depend on `npm run build`.
fn fake_web_app(data_dir: &std::path::Path) -> PathBuf {
    let web = data_dir.join("web");
    std::fs::create_dir_all(web.join("assets")).unwrap();
    std::fs::write(
        web.join("index.html"),
        "<!doctype html><title>PrettyScore test</title>",
    )
    .unwrap();
    std::fs::write(web.join("assets/app-3f2a1b.js"), "console.log('app')").unwrap();
    std::fs::write(web.join("robots.txt"), "User-agent: *").unwrap();
    web
}

/// The test configuration on top of the defaults: production behaviour but
/// cheap password hashing, and a site URL with its redirect allow-list for
/// the auth API's mail links.
pub fn test_config(config: &mut Config) {
    config.auth.password_hash = PasswordHashConfig {
        memory_kib: 64,
        iterations: 1,
        parallelism: 1,
    };
    config.auth.site_url = Some("http://app.test".into());
    config.auth.redirect_allow_list = vec!["http://app.test/**".into()];
}

/// The real app on port 0 with a fresh database of `backend` and the
/// [`test_config`].
pub async fn spawn_app(backend: Backend) -> TestApp {
    spawn_app_with(backend, |_| {}).await
}

/// [`spawn_app`] with a configuration change (made after the
/// [`test_config`], so it can undo any of it).
pub async fn spawn_app_with(backend: Backend, customise: impl FnOnce(&mut Config)) -> TestApp {
    let data_dir = tempfile::tempdir().unwrap();
    let database_url = migrated_database_url(backend, data_dir.path()).await;
    let mut config = Config {
        bind: "127.0.0.1:0".parse().unwrap(),
        data_dir: data_dir.path().to_owned(),
        database_url: Some(Secret::new(database_url)),
        web_dir: Some(fake_web_app(data_dir.path())),
        ..Config::default()
    };
    test_config(&mut config);
    customise(&mut config);
    let app = Application::build(config.clone())
        .await
        .expect("the app builds");
    let address = app.url();
    let db = app.state().db.clone();
    let state = app.state().clone();
    tokio::spawn(app.run_until_stopped());
    TestApp {
        address,
        client: reqwest::Client::builder()
            .redirect(reqwest::redirect::Policy::none())
            .build()
            .unwrap(),
        db,
        config,
        state,
        backend,
        _data_dir: data_dir,
    }
}

/// The files below `dir` (say, the app's media dir), at any depth.
pub fn files_under(dir: &std::path::Path) -> Vec<PathBuf> {
    std::fs::read_dir(dir).map_or_else(
        |_| Vec::new(),
        |entries| {
            entries
                .flatten()
                .flat_map(|entry| {
                    let path = entry.path();
                    if path.is_dir() {
                        files_under(&path)
                    } else {
                        vec![path]
                    }
                })
                .collect()
        },
    )
}

/// Runs SQL with `$n` placeholders on either database; the rows it changed.
pub async fn sql(app: &TestApp, statement: &str, values: Vec<sea_orm::Value>) -> u64 {
    let backend = app.db.get_database_backend();
    let statement = if backend == DbBackend::Sqlite {
        let mut text = statement.to_owned();
        for n in (1..=values.len()).rev() {
            text = text.replace(&format!("${n}"), &format!("?{n}"));
        }
        text
    } else {
        statement.to_owned()
    };
    app.db
        .execute_raw(Statement::from_sql_and_values(backend, statement, values))
        .await
        .unwrap()
        .rows_affected()
}

/// The rows of `table` (which may end in a `WHERE` clause).
pub async fn count(app: &TestApp, table: &str) -> i64 {
    let row = app
        .db
        .query_one_raw(Statement::from_string(
            app.db.get_database_backend(),
            format!("SELECT COUNT(*) AS n FROM {table}"),
        ))
        .await
        .unwrap()
        .unwrap();
    row.try_get::<i64>("", "n").unwrap()
}

/// The rows of `table` where `condition` (SQL) holds.
pub async fn count_where(app: &TestApp, table: &str, condition: &str) -> i64 {
    count(app, &format!("{table} WHERE {condition}")).await
}

/// Waits until `condition` holds, checking every 25 ms, and fails after 10 s
/// with `what`: for things that happen in the background (a worker, a key
/// reload), instead of sleeping for a fixed time.
pub async fn eventually<F, Fut>(what: &str, condition: F)
where
    F: FnMut() -> Fut,
    Fut: std::future::Future<Output = bool>,
{
    eventually_within(Duration::from_secs(10), what, condition).await;
}

/// [`eventually`] with another bound than 10 s.
pub async fn eventually_within<F, Fut>(bound: Duration, what: &str, mut condition: F)
where
    F: FnMut() -> Fut,
    Fut: std::future::Future<Output = bool>,
{
    let deadline = Instant::now() + bound;
    while !condition().await {
        assert!(
            Instant::now() < deadline,
            "gave up after {bound:?} waiting for {what}"
        );
        // The poll interval of a wait for a condition, not a fixed sleep.
        tokio::time::sleep(Duration::from_millis(25)).await;
    }
}

/// Runs a scenario whose counts hold only inside one of the server's fixed
/// `window_secs` windows, and runs it again on a fresh app when a boundary
/// of those windows passed while it ran and it failed: a busy machine can
/// take seconds over it, and no test has to sleep into a fresh window.
pub async fn in_one_window<F, Fut>(window_secs: i64, scenario: F)
where
    F: Fn() -> Fut,
    Fut: std::future::Future<Output = ()> + Send + 'static,
{
    let window = || chrono::Utc::now().timestamp().div_euclid(window_secs);
    for _ in 0..3 {
        let started = window();
        let outcome = tokio::spawn(scenario()).await;
        match outcome {
            Ok(()) => return,
            Err(err) if err.is_panic() && window() != started => continue,
            Err(err) if err.is_panic() => std::panic::resume_unwind(err.into_panic()),
            Err(err) => panic!("the scenario was cancelled: {err}"),
        }
    }
    panic!("three runs in a row met a window boundary");
}
