//! Health, readiness, metrics, the error shape, request ids and the API docs.

use crate::harness::{Backend, eventually, on_both_databases, spawn_app};
use reqwest::StatusCode;
use serde_json::Value;

on_both_databases!(
    health_and_readiness_answer_ok,
    readiness_fails_when_the_database_is_gone,
    in_an_outage_the_leaderboard_answers_from_its_cache_for_a_second_at_most,
    an_unreachable_database_answers_503_with_retry_after_and_recovers
);

async fn health_and_readiness_answer_ok(backend: Backend) {
    let app = spawn_app(backend).await;
    let health = app.get("/healthz").await;
    assert_eq!(health.status(), StatusCode::OK);
    assert_eq!(
        health.json::<Value>().await.unwrap(),
        serde_json::json!({"status": "ok"})
    );

    let ready = app.get("/readyz").await;
    assert_eq!(ready.status(), StatusCode::OK);
    assert_eq!(ready.json::<Value>().await.unwrap()["database"], "ok");
}

async fn readiness_fails_when_the_database_is_gone(backend: Backend) {
    let app = spawn_app(backend).await;
    app.db.close_by_ref().await.unwrap();
    let ready = app.get("/readyz").await;
    assert_eq!(ready.status(), StatusCode::SERVICE_UNAVAILABLE);
    // Every 503 says when to come back (issue 43).
    assert_eq!(ready.headers()["retry-after"], "5");
    let body: Value = ready.json().await.unwrap();
    assert_eq!(body["code"], "database_unavailable");
    assert_eq!(
        app.get("/healthz").await.status(),
        StatusCode::OK,
        "still alive"
    );
}

/// Issue 43 asked whether leaderboard reads answering 200 during a database
/// outage are intended. They are: anonymous readers share a page read from
/// the database at most a second ago (`http::recent_reads::TTL`), outage or
/// not; the cache never holds a page longer because the database is gone.
async fn in_an_outage_the_leaderboard_answers_from_its_cache_for_a_second_at_most(
    backend: Backend,
) {
    let app = spawn_app(backend).await;
    assert_eq!(
        app.get("/api/v1/leaderboard").await.status(),
        StatusCode::OK
    );
    app.db.close_by_ref().await.unwrap();
    eventually(
        "the leaderboard to answer 503 once its second is over",
        || async {
            let response = app.get("/api/v1/leaderboard").await;
            response.status() == StatusCode::SERVICE_UNAVAILABLE
                && response.headers().contains_key("retry-after")
        },
    )
    .await;
}

#[tokio::test]
async fn unknown_api_paths_get_a_json_404_in_the_one_error_shape() {
    let app = spawn_app(Backend::Sqlite).await;
    for path in [
        "/api/v1/nope",
        "/api/nope",
        "/auth/v1/nope",
        "/functions/v1/nope",
        "/api",
    ] {
        let response = app.get(path).await;
        assert_eq!(response.status(), StatusCode::NOT_FOUND, "{path}");
        assert_eq!(
            response.headers()["content-type"],
            "application/json",
            "{path}"
        );
        let body: Value = response.json().await.unwrap();
        assert_eq!(body["code"], "not_found", "{path}");
        // The auth API answers in GoTrue's variant of the shape (docs/auth-compat.md §2).
        if !path.starts_with("/auth/") {
            let message = body["message"].as_str().unwrap();
            assert!(message.contains(path), "{path}: {body}");
        }
    }
    let response = app
        .client
        .post(app.url("/functions/v1/nope"))
        .json(&serde_json::json!({}))
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), StatusCode::NOT_FOUND);
}

#[tokio::test]
async fn every_response_carries_a_request_id_and_keeps_the_callers() {
    let app = spawn_app(Backend::Sqlite).await;
    let response = app.get("/healthz").await;
    let generated = response.headers()["x-request-id"].to_str().unwrap();
    assert_eq!(generated.len(), 36, "a UUID: {generated}");

    let response = app
        .client
        .get(app.url("/api/v1/nope"))
        .header("x-request-id", "trace-me-123")
        .send()
        .await
        .unwrap();
    assert_eq!(response.headers()["x-request-id"], "trace-me-123");
}

#[tokio::test]
async fn metrics_count_requests_by_route_in_prometheus_text() {
    let app = spawn_app(Backend::Sqlite).await;
    app.get("/healthz").await;
    let response = app.get("/metrics").await;
    assert_eq!(response.status(), StatusCode::OK);
    assert!(
        response.headers()["content-type"]
            .to_str()
            .unwrap()
            .starts_with("text/plain")
    );
    let text = response.text().await.unwrap();
    let line = text
        .lines()
        .find(|line| {
            line.starts_with("http_requests_total{") && line.contains("route=\"/healthz\"")
        })
        .unwrap_or_else(|| panic!("no request counter for /healthz in:\n{text}"));
    assert!(line.contains("status=\"200\""), "{line}");
    assert!(
        text.contains("http_request_duration_seconds_bucket"),
        "{text}"
    );
}

#[tokio::test]
async fn the_openapi_document_describes_the_api_and_has_a_docs_page() {
    let app = spawn_app(Backend::Sqlite).await;
    let response = app.get("/api/openapi.json").await;
    assert_eq!(response.status(), StatusCode::OK);
    let doc: Value = response.json().await.unwrap();
    assert!(doc["openapi"].as_str().unwrap().starts_with("3."), "{doc}");
    for path in ["/healthz", "/readyz", "/metrics", "/api/v1/app-config"] {
        assert!(doc["paths"].get(path).is_some(), "missing {path}");
    }
    assert!(doc["components"]["schemas"].get("ErrorBody").is_some());
    let mut dangling = Vec::new();
    collect_dangling_refs(&doc, &doc, &mut dangling);
    assert!(dangling.is_empty(), "unresolved $refs: {dangling:?}");
    assert_eq!(
        doc,
        serde_json::to_value(prettyscore_server::app::openapi()).unwrap()
    );

    // Operation ids are the generated types' keys: two handlers of the same
    // name (two domains' `reject`) would merge into one operation there.
    let mut ids = std::collections::BTreeMap::<&str, usize>::new();
    for methods in doc["paths"].as_object().unwrap().values() {
        for operation in methods.as_object().unwrap().values() {
            if let Some(id) = operation["operationId"].as_str() {
                *ids.entry(id).or_default() += 1;
            }
        }
    }
    let repeated: Vec<_> = ids.iter().filter(|(_, n)| **n > 1).collect();
    assert!(repeated.is_empty(), "repeated operation ids: {repeated:?}");

    // Every error code is in the document, so the web app's generated types
    // know each one.
    let codes: Vec<&str> = doc["components"]["schemas"]["ErrorCode"]["enum"]
        .as_array()
        .expect("the ErrorCode schema lists its values")
        .iter()
        .map(|code| code.as_str().unwrap())
        .collect();
    let all: Vec<&str> = prettyscore_server::http::error::ErrorCode::ALL
        .iter()
        .map(|code| code.as_str())
        .collect();
    assert_eq!(codes, all);
    assert_eq!(
        doc["components"]["schemas"]["ErrorBody"]["properties"]["code"]["$ref"],
        "#/components/schemas/ErrorCode"
    );

    let docs = app.get("/api/docs/").await;
    assert_eq!(docs.status(), StatusCode::OK);
    assert!(
        docs.text().await.unwrap().contains("swagger"),
        "a Swagger UI page"
    );
}

#[tokio::test]
async fn app_config_tells_the_web_app_the_configured_contact_address() {
    let app = crate::harness::spawn_app_with(Backend::Sqlite, |config| {
        config.contact_email = "privacy@example.org".into();
    })
    .await;
    let body: Value = app.get("/api/v1/app-config").await.json().await.unwrap();
    assert_eq!(body["contact_email"], "privacy@example.org");
    assert_eq!(body["site_name"], "PrettyScore");
}

#[tokio::test]
async fn the_binary_serves_on_a_free_port_and_prints_its_url() {
    use std::io::{BufRead, BufReader};
    let dir = tempfile::tempdir().unwrap();
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_prettyscore"))
        .args(["serve", "--bind", "127.0.0.1:0", "--data-dir"])
        .arg(dir.path())
        .env_remove("DATABASE_URL")
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let stdout = child.stdout.take().unwrap();
    let line = BufReader::new(stdout).lines().next().unwrap().unwrap();
    let url = line
        .strip_prefix("PrettyScore listening on ")
        .unwrap_or_else(|| panic!("unexpected first line: {line}"))
        .to_owned();
    let health = reqwest::get(format!("{url}/healthz")).await;
    child.kill().ok();
    child.wait().ok();
    assert_eq!(health.unwrap().status(), StatusCode::OK);
    assert!(
        dir.path().join("prettyscore.sqlite").is_file(),
        "SQLite in the data dir"
    );
    assert!(
        dir.path().join("media").is_dir(),
        "media under the data dir"
    );
}

/// Every `$ref` must point at a schema the document defines, or generated
/// clients cannot be built from it.
fn collect_dangling_refs(doc: &Value, node: &Value, dangling: &mut Vec<String>) {
    match node {
        Value::Object(map) => {
            if let Some(Value::String(target)) = map.get("$ref") {
                let pointer = target.trim_start_matches('#');
                if doc.pointer(pointer).is_none() {
                    dangling.push(target.clone());
                }
            }
            map.values()
                .for_each(|child| collect_dangling_refs(doc, child, dangling));
        }
        Value::Array(items) => items
            .iter()
            .for_each(|child| collect_dangling_refs(doc, child, dangling)),
        _ => {}
    }
}

/// The binary as deployed (started directly, without `scripts/run.sh`'s
/// variables) purges freed memory at once; an operator's variable still wins.
#[cfg(target_os = "linux")]
#[test]
fn allocator_defaults_are_built_in() {
    let options = |extra: &[(&str, &str)]| {
        let mut command = std::process::Command::new(env!("CARGO_BIN_EXE_prettyscore"));
        command
            .arg("--help")
            .env_remove("MIMALLOC_PURGE_DELAY")
            .env_remove("MIMALLOC_ARENA_EAGER_COMMIT")
            .env("MIMALLOC_VERBOSE", "1");
        for (key, value) in extra {
            command.env(key, value);
        }
        let output = command.output().unwrap();
        assert!(output.status.success());
        String::from_utf8(output.stderr).unwrap()
    };
    let built_in = options(&[]);
    assert!(built_in.contains("option 'purge_delay': 0"), "{built_in}");
    assert!(
        built_in.contains("option 'arena_eager_commit': 0"),
        "{built_in}"
    );
    let operator = options(&[("MIMALLOC_PURGE_DELAY", "250")]);
    assert!(operator.contains("option 'purge_delay': 250"), "{operator}");
}

/// A TCP proxy to the PostgreSQL test server that the test can cut (every
/// open connection dropped, new ones closed at once) and restore: a
/// database outage without stopping the shared server.
struct CuttableProxy {
    address: std::net::SocketAddr,
    up: std::sync::Arc<std::sync::atomic::AtomicBool>,
    links: std::sync::Arc<std::sync::Mutex<Vec<tokio::task::JoinHandle<()>>>>,
}

impl CuttableProxy {
    async fn start(upstream: String) -> Self {
        use std::sync::atomic::Ordering;
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let proxy = Self {
            address: listener.local_addr().unwrap(),
            up: std::sync::Arc::new(std::sync::atomic::AtomicBool::new(true)),
            links: std::sync::Arc::default(),
        };
        let (up, links) = (proxy.up.clone(), proxy.links.clone());
        tokio::spawn(async move {
            while let Ok((mut client, _)) = listener.accept().await {
                if !up.load(Ordering::SeqCst) {
                    continue; // dropped: the connection closes at once
                }
                let upstream = upstream.clone();
                links.lock().unwrap().push(tokio::spawn(async move {
                    if let Ok(mut server) = tokio::net::TcpStream::connect(&upstream).await {
                        let _ = tokio::io::copy_bidirectional(&mut client, &mut server).await;
                    }
                }));
            }
        });
        proxy
    }

    fn cut(&self) {
        self.up.store(false, std::sync::atomic::Ordering::SeqCst);
        for link in self.links.lock().unwrap().drain(..) {
            link.abort();
        }
    }

    fn restore(&self) {
        self.up.store(true, std::sync::atomic::Ordering::SeqCst);
    }
}

/// An API, an auth and a function route, signed in with `token`.
async fn three_routes(app: &crate::harness::TestApp, token: &str) -> Vec<reqwest::Response> {
    let mut answers = Vec::new();
    for (method, path) in [
        (reqwest::Method::GET, "/api/v1/contact-requests/unread"),
        (reqwest::Method::GET, "/auth/v1/user"),
        (reqwest::Method::POST, "/functions/v1/check-subscription"),
    ] {
        answers.push(
            app.client
                .request(method, app.url(path))
                .bearer_auth(token)
                .json(&serde_json::json!({}))
                .send()
                .await
                .unwrap(),
        );
    }
    answers
}

/// Asserts 503 `database_unavailable` with `Retry-After` on every answer.
async fn assert_all_unavailable(answers: Vec<reqwest::Response>) {
    for answer in answers {
        let path = answer.url().path().to_owned();
        assert_eq!(answer.status(), StatusCode::SERVICE_UNAVAILABLE, "{path}");
        let retry_after: u64 = answer.headers()["retry-after"]
            .to_str()
            .unwrap()
            .parse()
            .unwrap();
        assert!(retry_after >= 1, "{path}");
        let body: Value = answer.json().await.unwrap();
        assert_eq!(body["code"], "database_unavailable", "{path}: {body}");
        assert!(body["message"].as_str().is_some_and(|m| !m.is_empty()));
        if path.starts_with("/auth/") {
            // GoTrue's shape: both code fields and both message fields.
            assert_eq!(body["error_code"], "database_unavailable", "{body}");
            assert_eq!(body["msg"], body["message"], "{body}");
        }
    }
}

/// Issue 25: with the database out of reach, API, auth and function routes
/// answer 503 `database_unavailable` with `Retry-After` (they waited 10 s
/// for a connection and answered 500); when it is back, the same server
/// answers again without a restart. On PostgreSQL the outage is a proxy
/// the test cuts and restores; on SQLite, which has no server to lose, the
/// pool is closed (no recovery to test there).
async fn an_unreachable_database_answers_503_with_retry_after_and_recovers(backend: Backend) {
    use prettyscore_server::config::Secret;
    let proxy = match backend {
        Backend::Sqlite => None,
        Backend::Postgres => {
            let dir = tempfile::tempdir().unwrap();
            let url = crate::harness::fresh_database_url(backend, dir.path()).await;
            let (scheme_and_user, rest) = url.split_once('@').unwrap();
            let (upstream, name) = rest.split_once('/').unwrap();
            let proxy = CuttableProxy::start(upstream.to_owned()).await;
            let proxied = format!("{scheme_and_user}@{}/{name}", proxy.address);
            Some((proxy, proxied))
        }
    };
    let proxied = proxy.as_ref().map(|(_, url)| url.clone());
    let app = crate::harness::spawn_app_with(backend, |config| {
        if let Some(url) = proxied {
            config.database_url = Some(Secret::new(url));
        }
    })
    .await;
    let token = crate::harness::access(&app.sign_up("ada@example.com").await).to_owned();
    for answer in three_routes(&app, &token).await {
        assert!(answer.status().is_success(), "{}", answer.url());
    }

    match &proxy {
        Some((proxy, _)) => proxy.cut(),
        None => app.db.close_by_ref().await.unwrap(),
    }
    assert_all_unavailable(three_routes(&app, &token).await).await;
    assert_eq!(
        app.get("/readyz").await.status(),
        StatusCode::SERVICE_UNAVAILABLE
    );
    assert_eq!(app.get("/healthz").await.status(), StatusCode::OK);

    let Some((proxy, _)) = &proxy else { return };
    proxy.restore();
    crate::harness::eventually(
        "the server to answer again once the database is back",
        || async { app.get("/readyz").await.status() == StatusCode::OK },
    )
    .await;
    for answer in three_routes(&app, &token).await {
        assert!(
            answer.status().is_success(),
            "{} after recovery",
            answer.url()
        );
    }
}

/// SIGTERM as an operator (or systemd) sends it to the binary: the instance
/// first says it is leaving on `/readyz` while it keeps serving (each answer
/// with `Connection: close`, so a proxy does not reuse the connection);
/// after the drain period it stops accepting, its open event streams end
/// with a reconnect hint, a request in flight still gets its answer, and
/// the process exits 0.
#[cfg(unix)]
#[tokio::test]
async fn sigterm_drains_finishes_what_is_in_flight_and_exits_0() {
    use std::io::{BufRead, BufReader};
    use tokio::io::{AsyncReadExt, AsyncWriteExt};

    let dir = tempfile::tempdir().unwrap();
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_prettyscore"))
        .args(["serve", "--bind", "127.0.0.1:0", "--data-dir"])
        .arg(dir.path())
        .env_remove("DATABASE_URL")
        .env("PRETTYSCORE_HTTP__DRAIN_SECS", "3")
        .env("PRETTYSCORE_HTTP__SHUTDOWN_GRACE_SECS", "30")
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let stdout = child.stdout.take().unwrap();
    let line = BufReader::new(stdout).lines().next().unwrap().unwrap();
    let url = line
        .strip_prefix("PrettyScore listening on ")
        .unwrap_or_else(|| panic!("unexpected first line: {line}"))
        .to_owned();
    let client = reqwest::Client::new();

    // A signed-in user's event stream, open.
    let session: Value = client
        .post(format!("{url}/auth/v1/signup"))
        .json(&serde_json::json!({"email": "drain@example.com", "password": "Drain-test-passw0rd", "data": {
            "date_of_birth": crate::harness::seed::ADULT_BIRTH_DATE,
            "terms_version": prettyscore_server::config::Config::default().community.terms_version,
        }}))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    let token = session["access_token"]
        .as_str()
        .expect("a session")
        .to_owned();
    let mut events = client
        .get(format!("{url}/api/v1/events/stream"))
        .bearer_auth(&token)
        .send()
        .await
        .unwrap();
    assert_eq!(events.status(), StatusCode::OK);
    let first = events.chunk().await.unwrap().expect("the first event");
    assert!(String::from_utf8_lossy(&first).contains("unread"));

    // An upload in flight: its headers and the start of its body.
    let address = url.trim_start_matches("http://").to_owned();
    let body = "--XYZ\r\nContent-Disposition: form-data; name=\"image\"; filename=\"a.jpg\"\r\n\r\nnot an image\r\n--XYZ--\r\n";
    let mut upload = tokio::net::TcpStream::connect(&address).await.unwrap();
    upload
        .write_all(
            format!(
                "POST /api/v1/analyses/pet HTTP/1.1\r\nHost: test\r\nContent-Type: multipart/form-data; boundary=XYZ\r\nContent-Length: {}\r\n\r\n{}",
                body.len(),
                &body[..20]
            )
            .as_bytes(),
        )
        .await
        .unwrap();

    let status = std::process::Command::new("kill")
        .args(["-TERM", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(status.success());

    // Draining: not ready, still serving, each answer closing its connection.
    eventually("/readyz to say the instance is shutting down", || async {
        let ready = client.get(format!("{url}/readyz")).send().await.unwrap();
        if ready.status() != StatusCode::SERVICE_UNAVAILABLE {
            return false;
        }
        let body: Value = ready.json().await.unwrap();
        assert_eq!(body["code"], "shutting_down");
        true
    })
    .await;
    let served = client
        .get(format!("{url}/api/v1/app-config"))
        .send()
        .await
        .unwrap();
    assert_eq!(
        served.status(),
        StatusCode::OK,
        "still serving while draining"
    );
    assert_eq!(
        served
            .headers()
            .get("connection")
            .map(|v| v.to_str().unwrap()),
        Some("close")
    );

    // After the drain: the stream ends with a reconnect hint…
    let mut rest = String::new();
    while let Some(chunk) = events.chunk().await.unwrap() {
        rest.push_str(&String::from_utf8_lossy(&chunk));
    }
    assert!(rest.contains("retry: 1000"), "no reconnect hint: {rest:?}");

    // …new connections are refused…
    eventually("new connections to be refused after the drain", || async {
        tokio::net::TcpStream::connect(&address).await.is_err()
    })
    .await;

    // …and the upload in flight is read to its end and answered.
    upload.write_all(&body.as_bytes()[20..]).await.unwrap();
    let mut answer = Vec::new();
    upload.read_to_end(&mut answer).await.unwrap();
    let answer = String::from_utf8_lossy(&answer);
    assert!(answer.starts_with("HTTP/1.1 400"), "{answer}");
    assert!(answer.contains("not_an_image"), "{answer}");

    // The process exits: waited for as such (the 30 s bound only keeps a
    // hung process from hanging the test).
    let pid = child.id().to_string();
    let exited = tokio::time::timeout(
        std::time::Duration::from_secs(30),
        tokio::task::spawn_blocking(move || child.wait()),
    )
    .await;
    let Ok(status) = exited else {
        std::process::Command::new("kill")
            .args(["-KILL", &pid])
            .status()
            .ok();
        panic!("the process did not exit after the drain");
    };
    let status = status.unwrap().unwrap();
    assert_eq!(status.code(), Some(0), "{status}");
}
