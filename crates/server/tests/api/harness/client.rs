//! The one client. Every call answers a [`Reply`]: the status, the headers
//! and the body read as JSON (a string when it is not JSON, null when
//! empty). [`Reply::assert_error`] checks an error in the server's one error
//! shape (`code` and a `message`), and for a call to the auth API in
//! GoTrue's shape too; [`Reply::ok`] checks a 200 and gives the body.
//!
//! The app's own API: [`call`], [`get`] and [`post`] (as a signed-in
//! [`Caller`]), and [`TestApp::send`] for any request built on `app.client`
//! (multipart uploads, raw bodies). The auth API (`/auth/v1`, GoTrue's
//! shape, docs/auth-compat.md) is a thin layer over it: [`TestApp::call`] and its
//! shorthands add the headers a Supabase client sends and put paths under
//! `/auth/v1` (all but `/api/…`).

use reqwest::header::HeaderMap;
use reqwest::{Method, RequestBuilder, StatusCode};
use serde_json::{Value, json};

use super::app::TestApp;
use super::seed::{ADULT_BIRTH_DATE, Caller, PASSWORD};

/// A status for [`Reply::assert_error`]: a [`StatusCode`] or its number.
pub trait Status {
    fn code(self) -> StatusCode;
}

impl Status for StatusCode {
    fn code(self) -> StatusCode {
        self
    }
}

impl Status for u16 {
    fn code(self) -> StatusCode {
        StatusCode::from_u16(self).expect("an HTTP status")
    }
}

/// A number as written in a test (`404`).
impl Status for i32 {
    fn code(self) -> StatusCode {
        u16::try_from(self).expect("an HTTP status").code()
    }
}

/// A response, read.
#[derive(Debug)]
pub struct Reply {
    pub status: StatusCode,
    pub headers: HeaderMap,
    pub body: Value,
    /// An answer of the auth API, whose errors have GoTrue's shape.
    gotrue: bool,
}

impl Reply {
    /// Reads `response` to its end.
    pub async fn read(response: reqwest::Response) -> Reply {
        let status = response.status();
        let headers = response.headers().clone();
        let text = response.text().await.expect("the body arrives");
        let body = if text.is_empty() {
            Value::Null
        } else {
            serde_json::from_str(&text).unwrap_or(Value::String(text))
        };
        Reply {
            status,
            headers,
            body,
            gotrue: false,
        }
    }

    /// Asserts an error: `status`, `code`, a message; for the auth API
    /// also GoTrue's fields (`error_code`, `msg`) and its version header.
    #[track_caller]
    pub fn assert_error(&self, status: impl Status, code: &str) {
        assert_eq!(self.status, status.code(), "{}", self.body);
        assert_eq!(self.body["code"], code, "{}", self.body);
        assert!(
            self.body["message"].as_str().is_some_and(|m| !m.is_empty()),
            "an error message: {}",
            self.body
        );
        if self.gotrue {
            assert_eq!(self.body["error_code"], code, "{}", self.body);
            assert!(self.body["msg"].is_string(), "{}", self.body);
            assert_eq!(self.body["msg"], self.body["message"]);
            assert_eq!(self.headers["x-supabase-api-version"], "2024-01-01");
        }
    }

    /// Asserts a 200; the body.
    #[track_caller]
    pub fn ok(&self) -> Value {
        assert_eq!(self.status, StatusCode::OK, "{}", self.body);
        self.body.clone()
    }

    /// Asserts any success; the body.
    #[track_caller]
    pub fn assert_ok(&self) -> &Value {
        assert!(self.status.is_success(), "{} {}", self.status, self.body);
        &self.body
    }

    /// The auth API's error message (`msg`).
    pub fn message(&self) -> &str {
        self.body["msg"].as_str().unwrap_or_default()
    }

    /// The `Set-Cookie` header, if the reply sets one.
    pub fn set_cookie(&self) -> Option<&str> {
        self.headers
            .get(reqwest::header::SET_COOKIE)
            .map(|value| value.to_str().unwrap())
    }
}

impl TestApp {
    /// Sends `request` (built on `self.client`) and reads the reply.
    pub async fn send(&self, request: RequestBuilder) -> Reply {
        Reply::read(request.send().await.expect("the test server answers")).await
    }
}

/// A JSON call to any path of the app, with `token` as the bearer.
pub async fn call(
    app: &TestApp,
    method: Method,
    path: &str,
    token: Option<&str>,
    body: Option<Value>,
) -> Reply {
    let mut request = app.client.request(method, app.url(path));
    if let Some(token) = token {
        request = request.bearer_auth(token);
    }
    if let Some(body) = body {
        request = request.json(&body);
    }
    app.send(request).await
}

/// A POST of `body` as `caller`.
pub async fn post(app: &TestApp, path: &str, caller: &Caller, body: Value) -> Reply {
    call(app, Method::POST, path, Some(&caller.token), Some(body)).await
}

/// A GET as `caller`.
pub async fn get(app: &TestApp, path: &str, caller: &Caller) -> Reply {
    call(app, Method::GET, path, Some(&caller.token), None).await
}

/// The bytes at a relative media URL (signed or not) and their status.
pub async fn fetch(app: &TestApp, url: &str) -> (StatusCode, Vec<u8>) {
    assert!(url.starts_with("/media/"), "a relative media URL: {url}");
    let response = app.get(url).await;
    (response.status(), response.bytes().await.unwrap().to_vec())
}

/// The auth API's calls (GoTrue's shape), on any test app.
impl TestApp {
    /// A call to the auth API: `path` under `/auth/v1` (an `/api/…` path
    /// as it is), with the headers a Supabase client sends.
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
        let gotrue = !path.starts_with("/api");
        let url = if gotrue {
            self.url(&format!("/auth/v1{path}"))
        } else {
            self.url(path)
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
        Reply {
            gotrue,
            ..self.send(request).await
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

    /// A POST from the client address `ip` (see [`TestApp::call_from`]).
    pub async fn post_from(&self, ip: &str, path: &str, body: Value) -> Reply {
        self.call_from(Some(ip), Method::POST, path, None, Some(body))
            .await
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
        self.post_from(
            ip,
            "/token?grant_type=password",
            json!({"email": email, "password": password}),
        )
        .await
    }

    pub async fn refresh(&self, refresh_token: &str) -> Reply {
        self.post(
            "/token?grant_type=refresh_token",
            json!({"refresh_token": refresh_token}),
        )
        .await
    }

    /// Signs up (autoconfirm on) and returns the token response. Like the
    /// web app's form, it declares an adult date of birth ([`ADULT_BIRTH_DATE`])
    /// and accepts the terms in force, so the user may use the community
    /// features (issue 41); [`TestApp::sign_up_bare`] for a GoTrue client's
    /// sign-up without them.
    pub async fn sign_up(&self, email: &str) -> Value {
        let reply = self
            .post(
                "/signup",
                json!({"email": email, "password": PASSWORD, "data": self.member_data()}),
            )
            .await;
        reply.assert_ok().clone()
    }

    /// Signs up with only an email and a password, as auth-js's own tests do:
    /// no date of birth, no terms accepted.
    pub async fn sign_up_bare(&self, email: &str) -> Value {
        let reply = self
            .post("/signup", json!({"email": email, "password": PASSWORD}))
            .await;
        reply.assert_ok().clone()
    }

    /// The sign-up `data` of a community member: an adult date of birth and
    /// the terms in force.
    pub fn member_data(&self) -> Value {
        json!({
            "date_of_birth": ADULT_BIRTH_DATE,
            "terms_version": self.config.community.terms_version,
        })
    }

    /// Signs up with a display name in the user metadata (`data.display_name`,
    /// as the web app's sign-up form sends it), an adult date of birth and the
    /// terms in force, and returns the token response.
    pub async fn sign_up_named(&self, email: &str, display_name: &str) -> Value {
        let mut data = self.member_data();
        data["display_name"] = json!(display_name);
        let reply = self
            .post(
                "/signup",
                json!({"email": email, "password": PASSWORD, "data": data}),
            )
            .await;
        reply.assert_ok().clone()
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

/// The claims of a JWT, unverified.
pub fn claims(token: &str) -> Value {
    use data_encoding::BASE64URL_NOPAD;
    let payload = token.split('.').nth(1).unwrap();
    serde_json::from_slice(&BASE64URL_NOPAD.decode(payload.as_bytes()).unwrap()).unwrap()
}

/// The header of a JWT.
pub fn header(token: &str) -> Value {
    use data_encoding::BASE64URL_NOPAD;
    let payload = token.split('.').next().unwrap();
    serde_json::from_slice(&BASE64URL_NOPAD.decode(payload.as_bytes()).unwrap()).unwrap()
}

/// The access token of a token response.
pub fn access(tokens: &Value) -> &str {
    tokens["access_token"].as_str().expect("an access token")
}

/// The refresh token of a token response.
pub fn refresh_of(tokens: &Value) -> &str {
    tokens["refresh_token"].as_str().expect("a refresh token")
}
