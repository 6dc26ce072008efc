//! `prettyscore admin grant|revoke EMAIL`, run as the real binary.

use crate::helpers::{TestApp, on_both_databases};
use prettyscore_server::admin::roles::is_admin;
use sea_orm::ConnectionTrait;
use sea_orm::sea_query::{Alias, Query};
use uuid::Uuid;

async fn insert_user(app: &TestApp, email: &str) -> Uuid {
    let id = Uuid::new_v4();
    let insert = Query::insert()
        .into_table(Alias::new("users"))
        .columns([Alias::new("id"), Alias::new("email")])
        .values_panic([id.into(), email.into()])
        .to_owned();
    app.db.execute(&insert).await.unwrap();
    id
}

fn prettyscore(app: &TestApp, args: &[&str]) -> std::process::Output {
    std::process::Command::new(env!("CARGO_BIN_EXE_prettyscore"))
        .args(args)
        .arg("--data-dir")
        .arg(&app.config.data_dir)
        .env("DATABASE_URL", app.config.database_url())
        .env("RUST_LOG", "error")
        .output()
        .unwrap()
}

fn stdout(output: &std::process::Output) -> String {
    String::from_utf8_lossy(&output.stdout).into_owned()
}

on_both_databases! {
    async fn admin_grant_and_revoke_manage_the_admin_role(app) {
        let user = insert_user(&app, "ada@example.com").await;
        assert!(!is_admin(&app.db, user).await.unwrap());

        let granted = prettyscore(&app, &["admin", "grant", "Ada@Example.com"]);
        assert!(granted.status.success(), "{granted:?}");
        assert!(stdout(&granted).contains("is now an admin"), "{granted:?}");
        assert!(is_admin(&app.db, user).await.unwrap());

        let again = prettyscore(&app, &["admin", "grant", "ada@example.com"]);
        assert!(stdout(&again).contains("was already an admin"), "{again:?}");

        let revoked = prettyscore(&app, &["admin", "revoke", "ada@example.com"]);
        assert!(revoked.status.success(), "{revoked:?}");
        assert!(stdout(&revoked).contains("is no longer an admin"));
        assert!(!is_admin(&app.db, user).await.unwrap());
    }

    async fn admin_grant_for_an_unknown_email_fails_clearly(app) {
        let output = prettyscore(&app, &["admin", "grant", "nobody@example.com"]);
        assert!(!output.status.success());
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert!(stderr.contains("no user has the email address nobody@example.com"), "{stderr}");
    }
}
