//! `/auth/v1`, the GoTrue-compatible auth API (AUTH-COMPAT.md), and the
//! account endpoints. Every test gets a fresh app with cheap argon2
//! parameters ([`spawn`]); `on_both_databases!` runs a test on SQLite and
//! PostgreSQL.

mod account;
mod admin;
mod compat;
mod display_name;
mod keys;
mod mail_flows;
mod mfa;
mod phone;
mod security;
mod sessions;
mod signup;
mod smtp;
mod user;

use prettyscore_server::config::{Config, PasswordHashConfig};
use reqwest::header::HeaderMap;
use reqwest::{Method, StatusCode};
use serde_json::{Value, json};

use crate::helpers::{Backend, TestApp, on_both_databases, spawn_app_with};

pub const PASSWORD: &str = "correct-horse-battery";

/// The test configuration: production behaviour, cheap password hashing.
pub fn test_config(config: &mut Config) {
    config.auth.password_hash = PasswordHashConfig {
        memory_kib: 64,
        iterations: 1,
        parallelism: 1,
    };
    config.auth.site_url = Some("http://app.test".into());
    config.auth.redirect_allow_list = vec!["http://app.test/**".into()];
}

/// The app with the test configuration.
pub async fn spawn(backend: Backend) -> TestApp {
    spawn_with(backend, |_| {}).await
}

/// The app with the test configuration and `customise` applied.
pub async fn spawn_with(backend: Backend, customise: impl FnOnce(&mut Config)) -> TestApp {
    spawn_app_with(backend, |config| {
        test_config(config);
        customise(config);
    })
    .await
}

/// A response, read.
#[derive(Debug)]
pub struct Reply {
    pub status: StatusCode,
    pub headers: HeaderMap,
    pub body: Value,
}

impl Reply {
    /// Asserts a GoTrue error: status, code in every field, the version header.
    #[track_caller]
    pub fn assert_error(&self, status: u16, code: &str) {
        assert_eq!(self.status.as_u16(), status, "{:?}", self.body);
        assert_eq!(self.body["code"], code, "{:?}", self.body);
        assert_eq!(self.body["error_code"], code, "{:?}", self.body);
        assert!(self.body["msg"].is_string(), "{:?}", self.body);
        assert_eq!(self.body["msg"], self.body["message"]);
        assert_eq!(self.headers["x-supabase-api-version"], "2024-01-01");
    }

    #[track_caller]
    pub fn assert_ok(&self) -> &Value {
        assert!(self.status.is_success(), "{} {:?}", self.status, self.body);
        &self.body
    }

    pub fn message(&self) -> &str {
        self.body["msg"].as_str().unwrap_or_default()
    }
}

/// The auth API's client calls, on any test app.
impl TestApp {
    pub async fn call(
        &self,
        method: Method,
        path: &str,
        token: Option<&str>,
        body: Option<Value>,
    ) -> Reply {
        self.call_from(None, method, path, token, body).await
    }

    /// [`TestApp::call`] as a client at `client_ip`, given by
    /// `X-Forwarded-For` (the app must trust it: `auth.trust_x_forwarded_for`).
    pub async fn call_from(
        &self,
        client_ip: Option<&str>,
        method: Method,
        path: &str,
        token: Option<&str>,
        body: Option<Value>,
    ) -> Reply {
        let url = if path.starts_with("/api") {
            self.url(path)
        } else {
            self.url(&format!("/auth/v1{path}"))
        };
        let mut request = self
            .client
            .request(method, url)
            .header("X-Supabase-Api-Version", "2024-01-01")
            .header("apikey", "anon");
        if let Some(token) = token {
            request = request.bearer_auth(token);
        }
        if let Some(ip) = client_ip {
            request = request.header("x-forwarded-for", ip);
        }
        if let Some(body) = body {
            request = request.json(&body);
        }
        let response = request.send().await.expect("the test server answers");
        let status = response.status();
        let headers = response.headers().clone();
        let text = response.text().await.unwrap();
        let body = if text.is_empty() {
            Value::Null
        } else {
            serde_json::from_str(&text).unwrap_or(Value::String(text))
        };
        Reply {
            status,
            headers,
            body,
        }
    }

    pub async fn post(&self, path: &str, body: Value) -> Reply {
        self.call(Method::POST, path, None, Some(body)).await
    }

    pub async fn post_as(&self, token: &str, path: &str, body: Value) -> Reply {
        self.call(Method::POST, path, Some(token), Some(body)).await
    }

    pub async fn get_as(&self, token: &str, path: &str) -> Reply {
        self.call(Method::GET, path, Some(token), None).await
    }

    pub async fn put_as(&self, token: &str, path: &str, body: Value) -> Reply {
        self.call(Method::PUT, path, Some(token), Some(body)).await
    }

    pub async fn delete_as(&self, token: &str, path: &str) -> Reply {
        self.call(Method::DELETE, path, Some(token), None).await
    }

    /// Signs up (autoconfirm on) and returns the token response.
    pub async fn sign_up(&self, email: &str) -> Value {
        let reply = self
            .post("/signup", json!({"email": email, "password": PASSWORD}))
            .await;
        reply.assert_ok().clone()
    }

    /// Signs up with a display name in the user metadata (`data.display_name`,
    /// as the web app's sign-up form sends it) and returns the token response.
    pub async fn sign_up_named(&self, email: &str, display_name: &str) -> Value {
        let reply = self
            .post(
                "/signup",
                json!({"email": email, "password": PASSWORD, "data": {"display_name": display_name}}),
            )
            .await;
        reply.assert_ok().clone()
    }

    pub async fn sign_in(&self, email: &str, password: &str) -> Reply {
        self.post(
            "/token?grant_type=password",
            json!({"email": email, "password": password}),
        )
        .await
    }

    /// A password sign-in from the client address `ip` (see [`TestApp::call_from`]).
    pub async fn sign_in_from(&self, ip: &str, email: &str, password: &str) -> Reply {
        self.call_from(
            Some(ip),
            Method::POST,
            "/token?grant_type=password",
            None,
            Some(json!({"email": email, "password": password})),
        )
        .await
    }

    /// A POST from the client address `ip` (see [`TestApp::call_from`]).
    pub async fn post_from(&self, ip: &str, path: &str, body: Value) -> Reply {
        self.call_from(Some(ip), Method::POST, path, None, Some(body))
            .await
    }

    pub async fn refresh(&self, refresh_token: &str) -> Reply {
        self.post(
            "/token?grant_type=refresh_token",
            json!({"refresh_token": refresh_token}),
        )
        .await
    }

    /// The newest mail to `address` in the outbox: (subject, body).
    pub async fn last_mail(&self, address: &str) -> (String, String) {
        use prettyscore_server::mail::outbox;
        use sea_orm::{ColumnTrait, EntityTrait, QueryFilter, QueryOrder};
        let row = outbox::Entity::find()
            .filter(outbox::Column::ToAddress.eq(address))
            .order_by_desc(outbox::Column::CreatedAt)
            .one(&self.db)
            .await
            .unwrap()
            .unwrap_or_else(|| panic!("no mail to {address}"));
        (row.subject, row.body_text)
    }

    pub async fn mail_count(&self, address: &str) -> u64 {
        use prettyscore_server::mail::outbox;
        use sea_orm::{ColumnTrait, EntityTrait, PaginatorTrait, QueryFilter};
        outbox::Entity::find()
            .filter(outbox::Column::ToAddress.eq(address))
            .count(&self.db)
            .await
            .unwrap()
    }

    /// A service-role token signed with the server's own keys.
    pub async fn service_token(&self) -> String {
        self.sign(json!({"role": "service_role", "iss": "test", "exp": chrono::Utc::now().timestamp() + 600}))
            .await
    }

    /// Signs arbitrary claims with the app's signing keys (same database).
    pub async fn sign(&self, claims: Value) -> String {
        let keys = prettyscore_server::tokens::KeyRing::load(&self.db, &self.config.auth)
            .await
            .unwrap();
        keys.sign(&claims)
    }

    /// A media token for `key` until `exp`, made with the app's keys.
    pub async fn sign_media(&self, key: &str, exp: i64) -> String {
        let keys = prettyscore_server::tokens::KeyRing::load(&self.db, &self.config.auth)
            .await
            .unwrap();
        keys.sign_media(key, exp)
    }
}

/// The six-digit code in a mail body.
pub fn code_in(body: &str) -> String {
    let at = body.find("code: ").expect("the mail has a code") + "code: ".len();
    body[at..at + 6].to_owned()
}

/// The link in a mail body.
pub fn link_in(body: &str) -> String {
    body.lines()
        .find(|line| line.starts_with("http"))
        .expect("the mail has a link")
        .to_owned()
}

/// The claims of a JWT, unverified.
pub fn claims(token: &str) -> Value {
    use data_encoding::BASE64URL_NOPAD;
    let payload = token.split('.').nth(1).unwrap();
    serde_json::from_slice(&BASE64URL_NOPAD.decode(payload.as_bytes()).unwrap()).unwrap()
}

pub fn header(token: &str) -> Value {
    use data_encoding::BASE64URL_NOPAD;
    let payload = token.split('.').next().unwrap();
    serde_json::from_slice(&BASE64URL_NOPAD.decode(payload.as_bytes()).unwrap()).unwrap()
}

pub fn access(tokens: &Value) -> &str {
    tokens["access_token"].as_str().expect("an access token")
}

pub fn refresh_of(tokens: &Value) -> &str {
    tokens["refresh_token"].as_str().expect("a refresh token")
}
