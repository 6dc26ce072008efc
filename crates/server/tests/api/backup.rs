//! `prettyscore backup PATH`, run as the real binary: on SQLite an online
//! copy taken while the app serves and writes; on PostgreSQL the pg_dump
//! command to use instead.

use std::path::Path;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};

use crate::harness::{Backend, PASSWORD, TestApp, postgres_available, spawn_app_with};
use sea_orm::{ConnectionTrait, Database, Statement};
use serde_json::json;

/// Runs `prettyscore backup <target>` on the app's database, off the test's
/// runtime thread, so the app goes on serving while it runs.
async fn backup(app: &TestApp, target: &Path) -> std::process::Output {
    let data_dir = app.config.data_dir.clone();
    let database_url = app.config.database_url();
    let target = target.to_owned();
    tokio::task::spawn_blocking(move || {
        std::process::Command::new(env!("CARGO_BIN_EXE_prettyscore"))
            .arg("backup")
            .arg(&target)
            .arg("--data-dir")
            .arg(&data_dir)
            .env("DATABASE_URL", database_url)
            .env("RUST_LOG", "error")
            .output()
            .unwrap()
    })
    .await
    .unwrap()
}

async fn app_with_cheap_sign_ups(backend: Backend) -> TestApp {
    spawn_app_with(backend, |config| {
        config.auth.rate_limits.mail_requests_per_5min = 100_000;
    })
    .await
}

#[tokio::test]
async fn backup_of_a_serving_sqlite_database_holds_the_rows_written_before() {
    let app = app_with_cheap_sign_ups(Backend::Sqlite).await;
    let before: Vec<String> = (0..5).map(|i| format!("before-{i}@example.com")).collect();
    for email in &before {
        app.sign_up(email).await;
    }

    // Sign-ups keep writing while the backup runs.
    let stop = Arc::new(AtomicBool::new(false));
    let written = Arc::new(AtomicUsize::new(0));
    let writer = {
        let (stop, written) = (stop.clone(), written.clone());
        let (client, url) = (app.client.clone(), app.url("/auth/v1/signup"));
        tokio::spawn(async move {
            let mut failures = Vec::new();
            let mut i = 0;
            while !stop.load(Ordering::Relaxed) {
                let reply = client
                    .post(&url)
                    .json(
                        &json!({"email": format!("during-{i}@example.com"), "password": PASSWORD}),
                    )
                    .send()
                    .await
                    .unwrap();
                if reply.status().is_success() {
                    written.fetch_add(1, Ordering::Relaxed);
                } else {
                    failures.push(reply.status());
                }
                i += 1;
            }
            failures
        })
    };
    crate::harness::eventually("the writer to be writing", || {
        let written = written.clone();
        async move { written.load(Ordering::Relaxed) > 0 }
    })
    .await;

    let dir = tempfile::tempdir().unwrap();
    let target = dir.path().join("prettyscore-backup.sqlite");
    let output = backup(&app, &target).await;
    stop.store(true, Ordering::Relaxed);
    let failures = writer.await.unwrap();
    assert!(output.status.success(), "{output:?}");
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(stdout.contains("Backed up"), "{stdout}");
    assert!(
        failures.is_empty(),
        "sign-ups failed during the backup: {failures:?}"
    );
    assert_eq!(app.get("/readyz").await.status(), 200);

    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let mode = std::fs::metadata(&target).unwrap().permissions().mode();
        assert_eq!(mode & 0o777, 0o600, "the backup is private: {mode:o}");
    }
    assert!(
        !dir.path().join("prettyscore-backup.sqlite-wal").exists(),
        "the copy is one file"
    );

    let copy = Database::connect(format!("sqlite://{}?mode=ro", target.display()))
        .await
        .unwrap();
    let check = copy
        .query_one_raw(Statement::from_string(
            copy.get_database_backend(),
            "PRAGMA integrity_check",
        ))
        .await
        .unwrap()
        .unwrap();
    assert_eq!(check.try_get_by_index::<String>(0).unwrap(), "ok");
    let emails: Vec<String> = copy
        .query_all_raw(Statement::from_string(
            copy.get_database_backend(),
            "SELECT email FROM users",
        ))
        .await
        .unwrap()
        .iter()
        .map(|row| row.try_get_by_index::<String>(0).unwrap())
        .collect();
    for email in &before {
        assert!(
            emails.contains(email),
            "{email} is in the backup: {emails:?}"
        );
    }
    let migrations = copy
        .query_one_raw(Statement::from_string(
            copy.get_database_backend(),
            "SELECT COUNT(*) FROM seaql_migrations",
        ))
        .await
        .unwrap()
        .unwrap()
        .try_get_by_index::<i64>(0)
        .unwrap();
    assert!(migrations > 0, "the schema's history is in the backup");
}

#[tokio::test]
async fn backup_refuses_a_target_that_exists() {
    let app = app_with_cheap_sign_ups(Backend::Sqlite).await;
    app.sign_up("kept@example.com").await;
    let dir = tempfile::tempdir().unwrap();
    let target = dir.path().join("yesterday.sqlite");
    std::fs::write(&target, "yesterday's backup").unwrap();

    let output = backup(&app, &target).await;
    assert!(!output.status.success(), "{output:?}");
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.contains("already exists"), "{stderr}");
    assert_eq!(
        std::fs::read_to_string(&target).unwrap(),
        "yesterday's backup",
        "the existing file is untouched"
    );
}

#[tokio::test]
async fn backup_on_postgresql_gives_the_pg_dump_command() {
    if !postgres_available("backup::backup_on_postgresql_gives_the_pg_dump_command") {
        return;
    }
    let app = app_with_cheap_sign_ups(Backend::Postgres).await;
    let dir = tempfile::tempdir().unwrap();
    let target = dir.path().join("prettyscore.dump");

    let output = backup(&app, &target).await;
    assert!(!output.status.success(), "{output:?}");
    let stderr = String::from_utf8_lossy(&output.stderr);
    let expected = format!(
        "pg_dump --format=custom --no-owner --file={} \"$DATABASE_URL\"",
        target.display()
    );
    assert!(stderr.contains(&expected), "{stderr}");
    assert!(
        !stderr.contains(&app.config.database_url()),
        "the database URL is not printed: {stderr}"
    );
    assert!(!target.exists(), "nothing is written");
}
