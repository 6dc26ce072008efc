//! The server hands out the web app: assets with long cache lifetimes,
//! index.html for client routes, a 404 status for unknown pages.

use crate::harness::{Backend, spawn_app};
use reqwest::StatusCode;

#[tokio::test]
async fn client_routes_get_the_app_with_revalidation() {
    let app = spawn_app(Backend::Sqlite).await;
    for path in [
        "/",
        "/auth",
        "/auth/reset",
        "/account",
        "/results",
        "/leaderboard",
        "/messages/abc-123",
        "/r/CODE1",
        "/admin/payouts",
    ] {
        let response = app.get(path).await;
        assert_eq!(response.status(), StatusCode::OK, "{path}");
        assert_eq!(response.headers()["cache-control"], "no-cache", "{path}");
        assert!(
            response.headers()["content-type"]
                .to_str()
                .unwrap()
                .starts_with("text/html")
        );
        assert!(
            response.text().await.unwrap().contains("PrettyScore test"),
            "{path}"
        );
    }
}

#[tokio::test]
async fn unknown_pages_get_the_app_with_a_404_status() {
    let app = spawn_app(Backend::Sqlite).await;
    let response = app.get("/no-such-page").await;
    assert_eq!(response.status(), StatusCode::NOT_FOUND);
    assert!(response.text().await.unwrap().contains("PrettyScore test"));
}

#[tokio::test]
async fn hashed_assets_are_cached_for_a_year_and_missing_ones_are_404() {
    let app = spawn_app(Backend::Sqlite).await;
    let response = app.get("/assets/app-3f2a1b.js").await;
    assert_eq!(response.status(), StatusCode::OK);
    assert_eq!(
        response.headers()["cache-control"],
        "public, max-age=31536000, immutable"
    );
    assert!(
        response.headers()["content-type"]
            .to_str()
            .unwrap()
            .contains("javascript")
    );

    assert_eq!(app.get("/robots.txt").await.status(), StatusCode::OK);
    assert_eq!(
        app.get("/assets/missing.js").await.status(),
        StatusCode::NOT_FOUND
    );
    assert_eq!(
        app.get("/missing.png").await.status(),
        StatusCode::NOT_FOUND
    );
}

#[tokio::test]
async fn paths_cannot_reach_files_outside_the_web_app() {
    let app = spawn_app(Backend::Sqlite).await;
    std::fs::write(app.config.data_dir.join("secret.txt"), "secret").unwrap();
    for path in [
        "/../secret.txt",
        "/%2e%2e/secret.txt",
        "/assets/..%2f..%2fsecret.txt",
    ] {
        let response = app.get(path).await;
        let body = response.text().await.unwrap();
        assert!(!body.contains("secret"), "{path} leaked: {body}");
    }
}

#[tokio::test]
async fn pages_cannot_be_posted_to() {
    let app = spawn_app(Backend::Sqlite).await;
    let response = app.client.post(app.url("/upload")).send().await.unwrap();
    assert_eq!(response.status(), StatusCode::METHOD_NOT_ALLOWED);
}
