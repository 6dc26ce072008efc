//! Sign-in against a real OpenID Connect provider: panva's `oidc-provider`
//! (OpenID Certified), started from `e2e/support/oidc-provider.mjs`, walked
//! through by a small browser (redirects and a cookie jar) as a person
//! would: its sign-in page, our callback, the code exchange, linking, a
//! replayed callback and a provider that went away.

use std::collections::BTreeMap;
use std::io::BufRead;
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};

use prettyscore_server::config::{IdentityProviderConfig, IdentityProviderKind, Secret};
use reqwest::Method;
use serde_json::{Value, json};

use crate::harness::*;

const VERIFIER: &str = "dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk";
const CHALLENGE: &str = "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM";
const RETURN_TO: &str = "http://app.test/auth";

/// The test provider, stopped when dropped.
struct TestProvider {
    issuer: String,
    child: Child,
}

impl TestProvider {
    /// Starts it on `port` for the app whose callback is `callback`.
    async fn start(port: u16, callback: &str) -> Self {
        let repo = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..");
        let script = repo.join("e2e/support/oidc-provider.mjs");
        assert!(
            repo.join("e2e/node_modules/oidc-provider").exists(),
            "the test OpenID Connect provider needs its npm packages: run `npm ci` in e2e/ \
             (scripts/test.sh does)"
        );
        let mut child = Command::new("node")
            .arg(script)
            .env("PORT", port.to_string())
            .env("REDIRECT_URIS", callback)
            .env("CLIENT_ID", "prettyscore")
            .env("CLIENT_SECRET", "test-secret")
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .expect("node runs the test provider");
        let stdout = child.stdout.take().unwrap();
        let line = tokio::task::spawn_blocking(move || {
            let mut line = String::new();
            std::io::BufReader::new(stdout)
                .read_line(&mut line)
                .unwrap();
            line.trim().to_owned()
        })
        .await
        .unwrap();
        let issuer = line
            .strip_prefix("OIDC provider listening on ")
            .unwrap_or_else(|| panic!("unexpected line: {line}"))
            .to_owned();
        Self { issuer, child }
    }

    fn stop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Drop for TestProvider {
    fn drop(&mut self) {
        self.stop();
    }
}

/// A free port for the provider: its address goes into the app's
/// configuration before either starts.
fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}

/// A browser's part: follows redirects by hand and keeps cookies by path.
#[derive(Default)]
struct Browser {
    cookies: BTreeMap<String, (String, String)>,
    /// Every address a redirect sent it to.
    visited: Vec<String>,
}

impl Browser {
    async fn request(
        &mut self,
        app: &TestApp,
        method: Method,
        url: &str,
        form: Option<String>,
    ) -> reqwest::Response {
        let parsed = url::Url::parse(url).unwrap();
        let cookie: Vec<String> = self
            .cookies
            .iter()
            .filter(|(_, (_, path))| parsed.path().starts_with(path.as_str()))
            .map(|(name, (value, _))| format!("{name}={value}"))
            .collect();
        let mut request = app.client.request(method, url);
        if !cookie.is_empty() {
            request = request.header("cookie", cookie.join("; "));
        }
        if let Some(form) = form {
            request = request
                .header("content-type", "application/x-www-form-urlencoded")
                .body(form);
        }
        let response = request.send().await.unwrap();
        for set in response.headers().get_all("set-cookie") {
            let set = set.to_str().unwrap();
            let mut parts = set.split(';').map(str::trim);
            let (name, value) = parts.next().unwrap().split_once('=').unwrap();
            let path = parts
                .find_map(|p| p.strip_prefix("path=").or_else(|| p.strip_prefix("Path=")))
                .unwrap_or("/")
                .to_owned();
            self.cookies
                .insert(name.to_owned(), (value.to_owned(), path));
        }
        response
    }

    /// From our `/authorize` (or a linking URL) through the provider's
    /// sign-in page to wherever our callback sends the browser.
    async fn sign_in(&mut self, app: &TestApp, start: &str, email: &str, verified: bool) -> String {
        let mut url = start.to_owned();
        let mut form = None;
        for _ in 0..12 {
            let method = if form.is_some() {
                Method::POST
            } else {
                Method::GET
            };
            let response = self.request(app, method, &url, form.take()).await;
            let status = response.status();
            if status.is_redirection() {
                let next = response.headers()["location"].to_str().unwrap();
                let next = url::Url::parse(&url)
                    .unwrap()
                    .join(next)
                    .unwrap()
                    .to_string();
                // The provider and the app both listen on 127.0.0.1; the
                // app's pages are at http://app.test.
                if !next.starts_with("http://127.0.0.1") {
                    return next;
                }
                url = next;
                self.visited.push(url.clone());
                continue;
            }
            let page = response.text().await.unwrap();
            assert_eq!(status, 200, "{url}: {page}");
            assert!(
                page.contains("Test ID — sign in"),
                "the provider's sign-in page: {page}"
            );
            let mut fields = url::form_urlencoded::Serializer::new(String::new());
            fields
                .append_pair("email", email)
                .append_pair("name", "Tess Tester");
            if verified {
                fields.append_pair("email_verified", "true");
            }
            form = Some(fields.finish());
        }
        panic!("too many steps from {start}");
    }
}

fn query_of(url: &str) -> BTreeMap<String, String> {
    let parsed = url::Url::parse(url).unwrap();
    let mut params: BTreeMap<String, String> = parsed.query_pairs().into_owned().collect();
    if let Some(fragment) = parsed.fragment() {
        params.extend(url::form_urlencoded::parse(fragment.as_bytes()).into_owned());
    }
    params
}

async fn app_with_test_provider(backend: Backend, port: u16) -> TestApp {
    spawn_app_with(backend, move |config| {
        config.auth.manual_linking = true;
        config.auth.providers.insert(
            "test".into(),
            IdentityProviderConfig {
                kind: IdentityProviderKind::Oidc,
                client_id: "prettyscore".into(),
                client_secret: Some(Secret::new("test-secret")),
                issuer: Some(format!("http://127.0.0.1:{port}")),
                label: Some("Test ID".into()),
                ..IdentityProviderConfig::default()
            },
        );
    })
    .await
}

async fn redeem(app: &TestApp, returned: &str) -> Value {
    let params = query_of(returned);
    let code = params
        .get("code")
        .unwrap_or_else(|| panic!("a code in {returned}"));
    app.post(
        "/token?grant_type=pkce",
        json!({"auth_code": code, "code_verifier": VERIFIER}),
    )
    .await
    .ok()
}

on_both_databases!(a_real_provider_signs_up_links_and_refuses_replays);

async fn a_real_provider_signs_up_links_and_refuses_replays(backend: Backend) {
    let port = free_port();
    let app = app_with_test_provider(backend, port).await;
    let provider = TestProvider::start(port, &app.url("/auth/v1/callback")).await;
    assert_eq!(provider.issuer, format!("http://127.0.0.1:{port}"));
    let authorize = app.url(&format!(
        "/auth/v1/authorize?provider=test&redirect_to={RETURN_TO}&code_challenge={CHALLENGE}&code_challenge_method=s256"
    ));

    // A new person: signed up, confirmed (the provider verified the address).
    let returned = Browser::default()
        .sign_in(&app, &authorize, "tess@example.com", true)
        .await;
    assert!(
        returned.starts_with(&format!("{RETURN_TO}?code=")),
        "{returned}"
    );
    let session = redeem(&app, &returned).await;
    assert_eq!(session["user"]["email"], "tess@example.com");
    assert_eq!(session["user"]["user_metadata"]["name"], "Tess Tester");
    assert!(session["user"]["email_confirmed_at"].is_string());
    let identity = &session["user"]["identities"][0];
    assert_eq!(identity["provider"], "test");
    assert!(
        identity["id"].as_str().unwrap().starts_with("test-"),
        "{identity}"
    );

    // The same callback again (a reload, or someone replaying it): the
    // provider will not redeem its code twice, and no session comes of it.
    let mut browser = Browser::default();
    let again = browser
        .sign_in(&app, &authorize, "tess@example.com", true)
        .await;
    assert!(again.contains("code="), "{again}");
    let callback = browser
        .visited
        .iter()
        .find(|u| u.starts_with(&app.url("/auth/v1/callback")))
        .expect("the provider sent the browser to our callback")
        .clone();
    let made_up = format!(
        "/auth/v1/callback?state={}&code=made-up",
        query_of(&callback)["state"]
    );
    for replay in [callback.replace(&app.address, ""), made_up] {
        let response = app.get(&replay).await;
        let location = response.headers()["location"].to_str().unwrap().to_owned();
        let params = query_of(&location);
        assert_eq!(params["error_code"], "bad_oauth_callback", "{location}");
        assert!(!params.contains_key("code") && !params.contains_key("access_token"));
    }

    // An unverified address that matches an account never takes it over.
    let owner = app.sign_up("owner@example.com").await;
    let returned = Browser::default()
        .sign_in(&app, &authorize, "owner@example.com", false)
        .await;
    assert_eq!(
        query_of(&returned)["error_code"],
        "email_exists",
        "{returned}"
    );
    assert_eq!(
        app.get_as(access(&owner), "/user").await.ok()["identities"]
            .as_array()
            .unwrap()
            .len(),
        1
    );

    // The owner links the provider from their account, then unlinks it.
    let link = app
        .get_as(
            access(&owner),
            &format!(
                "/user/identities/authorize?provider=test&skip_http_redirect=true&redirect_to={RETURN_TO}&code_challenge={CHALLENGE}&code_challenge_method=s256"
            ),
        )
        .await
        .ok();
    let returned = Browser::default()
        .sign_in(
            &app,
            link["url"].as_str().unwrap(),
            "owner@example.com",
            false,
        )
        .await;
    let linked = redeem(&app, &returned).await;
    assert_eq!(linked["user"]["id"], owner["user"]["id"]);
    let identities = linked["user"]["identities"].as_array().unwrap().clone();
    assert_eq!(identities.len(), 2);
    let test_identity = identities.iter().find(|i| i["provider"] == "test").unwrap();
    app.delete_as(
        access(&linked),
        &format!(
            "/user/identities/{}",
            test_identity["identity_id"].as_str().unwrap()
        ),
    )
    .await
    .assert_ok();
    assert_eq!(
        app.get_as(access(&linked), "/user").await.ok()["identities"]
            .as_array()
            .unwrap()
            .len(),
        1
    );

    // The provider goes away mid-sign-in: a clear error, no session.
    let response = app.get(&authorize.replace(&app.address, "")).await;
    let provider_url = response.headers()["location"].to_str().unwrap().to_owned();
    let state = query_of(&provider_url)["state"].clone();
    let mut provider = provider;
    provider.stop();
    let response = app
        .get(&format!("/auth/v1/callback?state={state}&code=whatever"))
        .await;
    let location = response.headers()["location"].to_str().unwrap().to_owned();
    let params = query_of(&location);
    assert_eq!(params["error_code"], "provider_unavailable", "{location}");
    assert_eq!(
        params["error_description"],
        "Test ID could not be reached. Try again in a moment."
    );
    assert_eq!(count(&app, "users").await, 2, "tess and the owner");
}
