use std::path::PathBuf;

use prettyscore_server::app::Application;
use prettyscore_server::config::{Config, Secret};
use sea_orm::{ConnectionTrait, Database, DatabaseConnection};
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
    pub backend: Backend,
    /// Kept so the directory lives as long as the app.
    pub _data_dir: TempDir,
}

impl TestApp {
    pub fn url(&self, path: &str) -> String {
        format!("{}{path}", self.address)
    }

    pub async fn get(&self, path: &str) -> reqwest::Response {
        self.client
            .get(self.url(path))
            .send()
            .await
            .expect("the test server answers")
    }
}

/// A fresh database for one test: a SQLite file in the test's data dir, or a
/// new database on the PostgreSQL server. `None` when PostgreSQL is asked
/// for but no server is named.
pub async fn fresh_database_url(backend: Backend, data_dir: &std::path::Path) -> Option<String> {
    match backend {
        Backend::Sqlite => Some(format!(
            "sqlite://{}?mode=rwc",
            data_dir.join("test.sqlite").display()
        )),
        Backend::Postgres => {
            let server = std::env::var(POSTGRES_ENV).ok()?;
            let server = server.trim_end_matches('/');
            let name = format!("prettyscore_test_{}", uuid::Uuid::new_v4().simple());
            let admin = Database::connect(format!("{server}/postgres"))
                .await
                .expect("the PostgreSQL test server accepts connections");
            admin
                .execute_unprepared(&format!("CREATE DATABASE \"{name}\""))
                .await
                .expect("a test database can be created");
            admin.close().await.ok();
            Some(format!("{server}/{name}"))
        }
    }
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

pub async fn spawn_app(backend: Backend) -> Option<TestApp> {
    spawn_app_with(backend, |_| {}).await
}

pub async fn spawn_app_with(
    backend: Backend,
    customise: impl FnOnce(&mut Config),
) -> Option<TestApp> {
    let data_dir = tempfile::tempdir().unwrap();
    let database_url = fresh_database_url(backend, data_dir.path()).await?;
    let mut config = Config {
        bind: "127.0.0.1:0".parse().unwrap(),
        data_dir: data_dir.path().to_owned(),
        database_url: Some(Secret::new(database_url)),
        web_dir: Some(fake_web_app(data_dir.path())),
        ..Config::default()
    };
    customise(&mut config);
    let app = Application::build(config.clone())
        .await
        .expect("the app builds");
    let address = app.url();
    let db = app.state().db.clone();
    tokio::spawn(app.run_until_stopped());
    Some(TestApp {
        address,
        client: reqwest::Client::builder()
            .redirect(reqwest::redirect::Policy::none())
            .build()
            .unwrap(),
        db,
        config,
        backend,
        _data_dir: data_dir,
    })
}

/// Declares each test twice, as `name::sqlite` and `name::postgres`. The
/// PostgreSQL variant returns early when no server is named; the test script
/// always names one (and CI insists on it).
macro_rules! on_both_databases {
    ($(async fn $name:ident($app:ident) $body:block)*) => {$(
        mod $name {
            #[allow(unused_imports)]
            use super::*;

            #[tokio::test]
            async fn sqlite() {
                let $app = crate::helpers::spawn_app(crate::helpers::Backend::Sqlite)
                    .await
                    .expect("SQLite is always available");
                $body
            }

            #[tokio::test]
            async fn postgres() {
                let Some($app) = crate::helpers::spawn_app(crate::helpers::Backend::Postgres).await
                else {
                    eprintln!("{} not set: PostgreSQL variant not run", crate::helpers::POSTGRES_ENV);
                    return;
                };
                $body
            }
        }
    )*};
}
pub(crate) use on_both_databases;

/// A sample image from the project's `testdata/`, e.g. `face/astronaut.png`.
pub fn testdata(name: &str) -> Vec<u8> {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../testdata")
        .join(name);
    std::fs::read(&path).unwrap_or_else(|err| panic!("{}: {err}", path.display()))
}

/// A multipart form with `bytes` as the `image` field.
pub fn image_form(bytes: Vec<u8>, file_name: &str) -> reqwest::multipart::Form {
    reqwest::multipart::Form::new().part(
        "image",
        reqwest::multipart::Part::bytes(bytes).file_name(file_name.to_owned()),
    )
}
