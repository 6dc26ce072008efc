//! Sign-in through outside providers (`/authorize`, `/callback`,
//! `/user/identities/*`, `grant_type=id_token`) against wiremock doubles
//! with the answers Google's, Apple's and GitHub's endpoints give: the
//! special cases of each, every bad input, linking and its rules, and the
//! races. The real OpenID Connect provider is in `oidc_provider.rs`.

use std::collections::BTreeMap;

use aws_lc_rs::rand::SystemRandom;
use aws_lc_rs::signature::{ECDSA_P256_SHA256_FIXED_SIGNING, EcdsaKeyPair, KeyPair};
use data_encoding::BASE64URL_NOPAD;
use prettyscore_server::config::{
    AppleSigning, Config, GithubEndpoints, IdentityProviderConfig, IdentityProviderKind, Secret,
};
use reqwest::Method;
use serde_json::{Value, json};
use wiremock::matchers::{body_string_contains, header_regex, method, path};
use wiremock::{Mock, MockServer, Request, ResponseTemplate};

use crate::harness::*;

const CLIENT_ID: &str = "prettyscore-client";
const RETURN_TO: &str = "http://app.test/welcome";
const VERIFIER: &str = "dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk";
const CHALLENGE: &str = "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM";

/// A signing key of the double, published in its JWKS under `kid`.
struct SigningKey {
    kid: String,
    pair: EcdsaKeyPair,
}

impl SigningKey {
    fn new(kid: &str) -> Self {
        Self {
            kid: kid.into(),
            pair: EcdsaKeyPair::generate(&ECDSA_P256_SHA256_FIXED_SIGNING).unwrap(),
        }
    }

    fn jwk(&self) -> Value {
        let point = self.pair.public_key().as_ref();
        json!({
            "kty": "EC", "crv": "P-256", "use": "sig", "alg": "ES256", "kid": self.kid,
            "x": BASE64URL_NOPAD.encode(&point[1..33]),
            "y": BASE64URL_NOPAD.encode(&point[33..65]),
        })
    }

    fn sign(&self, claims: &Value) -> String {
        let part = |v: Value| BASE64URL_NOPAD.encode(v.to_string().as_bytes());
        let input = format!(
            "{}.{}",
            part(json!({"alg": "ES256", "kid": self.kid, "typ": "JWT"})),
            part(claims.clone())
        );
        let signature = self
            .pair
            .sign(&SystemRandom::new(), input.as_bytes())
            .unwrap();
        format!("{input}.{}", BASE64URL_NOPAD.encode(signature.as_ref()))
    }
}

/// An OpenID Connect issuer double (Google's or Apple's endpoints).
struct Issuer {
    server: MockServer,
    key: SigningKey,
}

impl Issuer {
    async fn start() -> Self {
        let server = MockServer::start().await;
        let key = SigningKey::new("key-1");
        let issuer = Self { server, key };
        let uri = issuer.server.uri();
        Mock::given(method("GET"))
            .and(path("/.well-known/openid-configuration"))
            .respond_with(ResponseTemplate::new(200).set_body_json(json!({
                "issuer": uri,
                "authorization_endpoint": format!("{uri}/o/oauth2/v2/auth"),
                "token_endpoint": format!("{uri}/token"),
                "jwks_uri": format!("{uri}/oauth2/v3/certs"),
                "userinfo_endpoint": format!("{uri}/v1/userinfo"),
                "token_endpoint_auth_methods_supported": ["client_secret_post", "client_secret_basic"],
            })))
            .mount(&issuer.server)
            .await;
        issuer.publish(&[&issuer.key]).await;
        issuer
    }

    async fn publish(&self, keys: &[&SigningKey]) {
        Mock::given(method("GET"))
            .and(path("/oauth2/v3/certs"))
            .respond_with(ResponseTemplate::new(200).set_body_json(json!({
                "keys": keys.iter().map(|k| k.jwk()).collect::<Vec<_>>(),
            })))
            .mount(&self.server)
            .await;
    }

    fn claims(&self, sub: &str, email: &str, verified: bool, nonce: &str) -> Value {
        let now = chrono::Utc::now().timestamp();
        json!({
            "iss": self.server.uri(), "aud": CLIENT_ID, "sub": sub, "email": email,
            "email_verified": verified, "name": "Ada Lovelace", "nonce": nonce,
            "picture": "https://lh3.example/photo.jpg", "iat": now, "exp": now + 3600,
        })
    }

    /// The token endpoint redeems `code` once, with `id_token`; a second
    /// try gets Google's `invalid_grant`.
    async fn answer_code(&self, code: &str, id_token: &str) {
        Mock::given(method("POST"))
            .and(path("/token"))
            .and(body_string_contains(format!("code={code}")))
            .respond_with(ResponseTemplate::new(200).set_body_json(json!({
                "access_token": format!("ya29.{code}"), "expires_in": 3599,
                "token_type": "Bearer", "scope": "openid email profile", "id_token": id_token,
            })))
            .up_to_n_times(1)
            .with_priority(1)
            .mount(&self.server)
            .await;
        Mock::given(method("POST"))
            .and(path("/token"))
            .respond_with(ResponseTemplate::new(400).set_body_json(json!({
                "error": "invalid_grant", "error_description": "Bad Request",
            })))
            .with_priority(10)
            .mount(&self.server)
            .await;
    }

    fn provider(&self, kind: IdentityProviderKind) -> IdentityProviderConfig {
        IdentityProviderConfig {
            kind,
            client_id: CLIENT_ID.into(),
            client_secret: Some(Secret::new("client-secret")),
            issuer: Some(self.server.uri()),
            ..IdentityProviderConfig::default()
        }
    }
}

fn with_providers(providers: Vec<(&str, IdentityProviderConfig)>) -> impl FnOnce(&mut Config) {
    move |config| {
        config.auth.manual_linking = true;
        config.auth.providers = providers
            .into_iter()
            .map(|(name, provider)| (name.to_owned(), provider))
            .collect::<BTreeMap<_, _>>();
    }
}

/// The query of a URL as a map.
fn query_of(url: &str) -> BTreeMap<String, String> {
    let query = url.split_once('?').map_or("", |(_, q)| q);
    let query = query.split_once('#').map_or(query, |(q, _)| q);
    url::form_urlencoded::parse(query.as_bytes())
        .into_owned()
        .collect()
}

fn fragment_of(url: &str) -> BTreeMap<String, String> {
    let fragment = url.split_once('#').map_or("", |(_, f)| f);
    url::form_urlencoded::parse(fragment.as_bytes())
        .into_owned()
        .collect()
}

/// The `Location` of a redirect (any 3xx).
async fn location(response: reqwest::Response) -> String {
    assert!(
        response.status().is_redirection(),
        "a redirect, not {}: {}",
        response.status(),
        response.text().await.unwrap_or_default()
    );
    response.headers()[reqwest::header::LOCATION]
        .to_str()
        .unwrap()
        .to_owned()
}

/// Makes a bad ID token for a sign-in's nonce.
type BadToken<'a> = Box<dyn Fn(&str) -> String + 'a>;

/// A started sign-in: the provider's authorization URL's parameters.
struct Started {
    state: String,
    nonce: String,
    url: String,
    /// The `name=value` of the cookie that ties a sign-in without PKCE to
    /// its browser.
    cookie: Option<String>,
    /// The `name=value` of the cookie that carries a declared date of birth.
    declared: Option<String>,
}

async fn start(app: &TestApp, provider: &str, pkce: bool) -> Started {
    start_declaring(app, provider, pkce, "").await
}

/// [`start`] with more of `/authorize`'s query (`&date_of_birth=…`).
async fn start_declaring(app: &TestApp, provider: &str, pkce: bool, more: &str) -> Started {
    let mut path = format!(
        "/auth/v1/authorize?provider={provider}&redirect_to={}{more}",
        url::form_urlencoded::byte_serialize(RETURN_TO.as_bytes()).collect::<String>()
    );
    if pkce {
        path.push_str(&format!(
            "&code_challenge={CHALLENGE}&code_challenge_method=s256"
        ));
    }
    let response = app.get(&path).await;
    let cookie = browser_cookie(&response);
    let declared = set_cookie(&response, "ps_oauth_declared");
    let url = location(response).await;
    let query = query_of(&url);
    Started {
        state: query["state"].clone(),
        nonce: query.get("nonce").cloned().unwrap_or_default(),
        url,
        cookie,
        declared,
    }
}

/// Starts linking a provider (`query`, with `skip_http_redirect=true`) for
/// `token`'s user: the provider's URL and the browser's binding cookie.
async fn start_linking(app: &TestApp, token: &str, query: &str) -> (String, String) {
    let response = app
        .client
        .get(app.url(&format!("/auth/v1/user/identities/authorize?{query}")))
        .bearer_auth(token)
        .send()
        .await
        .unwrap();
    let cookie = browser_cookie(&response).expect("a linking without PKCE binds the browser");
    let answer: Value = response.json().await.unwrap();
    (answer["url"].as_str().unwrap().to_owned(), cookie)
}

/// The `name=value` of the cookie that binds a sign-in to its browser.
fn browser_cookie(response: &reqwest::Response) -> Option<String> {
    set_cookie(response, "ps_oauth_browser")
}

/// The `name=value` of the `Set-Cookie` named `name`.
fn set_cookie(response: &reqwest::Response, name: &str) -> Option<String> {
    response
        .headers()
        .get_all(reqwest::header::SET_COOKIE)
        .iter()
        .filter_map(|value| value.to_str().ok())
        .find(|value| value.starts_with(&format!("{name}=")))
        .map(|value| value.split(';').next().unwrap().to_owned())
}

/// [`callback`] from a browser that carries `cookie`.
async fn callback_with_cookie(app: &TestApp, cookie: &str, state: &str, code: &str) -> String {
    location(
        app.client
            .get(app.url(&format!("/auth/v1/callback?state={state}&code={code}")))
            .header(reqwest::header::COOKIE, cookie)
            .send()
            .await
            .unwrap(),
    )
    .await
}

async fn callback(app: &TestApp, state: &str, code: &str) -> String {
    location(
        app.get(&format!("/auth/v1/callback?state={state}&code={code}"))
            .await,
    )
    .await
}

/// Redeems the `?code=` of a PKCE return for a session.
async fn redeem(app: &TestApp, returned: &str) -> Value {
    let code = query_of(returned)
        .get("code")
        .cloned()
        .unwrap_or_else(|| panic!("a code in {returned}"));
    app.post(
        "/token?grant_type=pkce",
        json!({"auth_code": code, "code_verifier": VERIFIER}),
    )
    .await
    .ok()
}

/// The error a return carries (query or fragment): (error_code, description).
fn error_in(returned: &str) -> (String, String) {
    let mut params = fragment_of(returned);
    params.extend(query_of(returned));
    assert!(
        !params.contains_key("access_token") && !params.contains_key("code"),
        "no session and no code with an error: {returned}"
    );
    (
        params
            .get("error_code")
            .cloned()
            .unwrap_or_else(|| panic!("an error in {returned}")),
        params.get("error_description").cloned().unwrap_or_default(),
    )
}

async fn identities(app: &TestApp, token: &str) -> Vec<Value> {
    app.get_as(token, "/user").await.ok()["identities"]
        .as_array()
        .unwrap()
        .clone()
}

on_both_databases!(
    google_sign_in_with_pkce_creates_the_user_once,
    every_bad_callback_returns_an_error_and_no_session,
    the_issuers_new_key_is_fetched_when_a_token_names_it,
    a_verified_email_links_and_an_unverified_one_never_takes_over,
    linking_and_unlinking_keep_a_way_in,
    eight_tabs_finishing_one_sign_up_make_one_user,
    github_reads_the_verified_email_from_its_api,
    apple_signs_its_client_secret_and_posts_the_name_once,
    a_native_id_token_signs_in,
    a_sign_in_started_on_one_instance_finishes_on_another,
    a_social_sign_up_is_asked_its_date_of_birth_before_the_account_exists,
);

async fn google_sign_in_with_pkce_creates_the_user_once(backend: Backend) {
    let google = Issuer::start().await;
    let app = spawn_app_with(
        backend,
        with_providers(vec![(
            "google",
            google.provider(IdentityProviderKind::Google),
        )]),
    )
    .await;

    let settings = app.call(Method::GET, "/settings", None, None).await;
    let settings = settings.assert_ok();
    assert_eq!(settings["external"]["google"], true);
    assert_eq!(settings["external"]["github"], false);
    assert_eq!(settings["external_labels"], json!({"google": "Google"}));

    let started = start(&app, "google", true).await;
    assert!(
        started
            .url
            .starts_with(&format!("{}/o/oauth2/v2/auth?", google.server.uri()))
    );
    let asked = query_of(&started.url);
    assert_eq!(asked["client_id"], CLIENT_ID);
    assert_eq!(asked["redirect_uri"], app.url("/auth/v1/callback"));
    assert_eq!(asked["response_type"], "code");
    assert_eq!(asked["scope"], "openid email profile");
    assert!(
        started.nonce.len() >= 32,
        "a random nonce: {}",
        started.nonce
    );

    let id_token = google
        .key
        .sign(&google.claims("g-1", "Ada@Example.com", true, &started.nonce));
    google.answer_code("code-1", &id_token).await;
    let returned = callback(&app, &started.state, "code-1").await;
    assert!(
        returned.starts_with(&format!("{RETURN_TO}?code=")),
        "{returned}"
    );
    let session = redeem(&app, &returned).await;
    let user = &session["user"];
    assert_eq!(user["email"], "ada@example.com");
    assert!(user["email_confirmed_at"].is_string(), "Google verified it");
    assert_eq!(user["app_metadata"]["provider"], "google");
    assert_eq!(user["app_metadata"]["providers"], json!(["google"]));
    assert_eq!(user["user_metadata"]["name"], "Ada Lovelace");
    assert_eq!(
        user["user_metadata"]["avatar_url"],
        "https://lh3.example/photo.jpg"
    );
    let linked = identities(&app, access(&session)).await;
    assert_eq!(linked.len(), 1, "{linked:?}");
    assert_eq!(linked[0]["provider"], "google");
    assert_eq!(linked[0]["id"], "g-1");
    assert_eq!(linked[0]["identity_data"]["email_verified"], true);
    assert!(linked[0]["identity_data"].get("nonce").is_none());
    let amr = claims(access(&session))["amr"].clone();
    assert_eq!(amr[0]["method"], "oauth", "{amr}");

    // The code went to the token endpoint with the client's credentials.
    let token_call = google
        .server
        .received_requests()
        .await
        .unwrap()
        .into_iter()
        .find(|r| r.url.path() == "/token")
        .unwrap();
    assert!(String::from_utf8_lossy(&token_call.body).contains("grant_type=authorization_code"));
    assert!(
        token_call.headers.contains_key("authorization"),
        "HTTP Basic"
    );

    // A second sign-in finds the same user: no second account or identity.
    let again = start(&app, "google", true).await;
    let id_token = google
        .key
        .sign(&google.claims("g-1", "ada@example.com", true, &again.nonce));
    google.answer_code("code-2", &id_token).await;
    let session_2 = redeem(&app, &callback(&app, &again.state, "code-2").await).await;
    assert_eq!(session_2["user"]["id"], user["id"]);
    assert_eq!(count(&app, "users").await, 1);
    assert_eq!(count(&app, "identities").await, 1);

    // The PKCE code is redeemed once.
    let replay = app
        .post(
            "/token?grant_type=pkce",
            json!({"auth_code": query_of(&returned)["code"], "code_verifier": VERIFIER}),
        )
        .await;
    replay.assert_error(404, "flow_state_not_found");

    // Without PKCE (implicit), the session is in the fragment, with
    // Google's own access token.
    let implicit = start(&app, "google", false).await;
    let id_token = google
        .key
        .sign(&google.claims("g-1", "ada@example.com", true, &implicit.nonce));
    google.answer_code("code-3", &id_token).await;
    // Issue 43 (login CSRF): the callback completes only in the browser that
    // started the sign-in, not in another that was sent its link.
    let cookie = implicit.cookie.clone().expect("a cookie binds the browser");
    let sessions_before = count(&app, "sessions").await;
    let elsewhere = callback(&app, &implicit.state, "code-3").await;
    assert_eq!(error_in(&elsewhere).0, "bad_oauth_state", "{elsewhere}");
    let other_browser = start(&app, "google", false).await.cookie.unwrap();
    let elsewhere = callback_with_cookie(&app, &other_browser, &implicit.state, "code-3").await;
    assert_eq!(error_in(&elsewhere).0, "bad_oauth_state", "{elsewhere}");
    assert_eq!(count(&app, "sessions").await, sessions_before);
    let returned = callback_with_cookie(&app, &cookie, &implicit.state, "code-3").await;
    assert!(returned.starts_with(&format!("{RETURN_TO}#")), "{returned}");
    let fragment = fragment_of(&returned);
    assert_eq!(fragment["provider_token"], "ya29.code-3");
    assert_eq!(fragment["token_type"], "bearer");
    let me = app.get_as(&fragment["access_token"], "/user").await.ok();
    assert_eq!(me["id"], user["id"]);
}

async fn every_bad_callback_returns_an_error_and_no_session(backend: Backend) {
    let google = Issuer::start().await;
    let app = spawn_app_with(
        backend,
        with_providers(vec![
            ("google", google.provider(IdentityProviderKind::Google)),
            (
                "down",
                IdentityProviderConfig {
                    issuer: Some("http://127.0.0.1:9".into()),
                    label: Some("Down ID".into()),
                    ..google.provider(IdentityProviderKind::Oidc)
                },
            ),
        ]),
    )
    .await;
    let good = |nonce: &str| google.claims("g-9", "eve@example.com", true, nonce);

    // Unknown and missing providers: GoTrue's JSON answer.
    for query in [
        "provider=facebook",
        "provider=",
        "redirect_to=http://app.test",
    ] {
        let reply = app
            .call(Method::GET, &format!("/authorize?{query}"), None, None)
            .await;
        reply.assert_error(400, "validation_failed");
    }
    // A malformed PKCE challenge.
    app.call(
        Method::GET,
        "/authorize?provider=google&code_challenge=short&code_challenge_method=s256",
        None,
        None,
    )
    .await
    .assert_error(400, "validation_failed");

    // A provider that is down: back to the app with the reason.
    let returned = location(
        app.get("/auth/v1/authorize?provider=down&redirect_to=http://app.test/x")
            .await,
    )
    .await;
    assert!(returned.starts_with("http://app.test/x?"), "{returned}");
    let (code, description) = error_in(&returned);
    assert_eq!(code, "provider_unavailable");
    assert_eq!(
        description,
        "Down ID could not be reached. Try again in a moment."
    );

    // A wrong or tampered state: back to the site.
    for state in [
        "nonsense",
        &app.sign(json!({"purpose": "oauth_state", "exp": 1})).await,
    ] {
        let returned = callback(&app, state, "code").await;
        assert!(returned.starts_with("http://app.test?"), "{returned}");
        assert_eq!(error_in(&returned).0, "bad_oauth_state");
    }
    // An access token is not a state.
    let session = app.sign_up("mallory@example.com").await;
    assert_eq!(
        error_in(&callback(&app, access(&session), "code").await).0,
        "bad_oauth_state"
    );
    // Nor is a posted form without one.
    let posted = app
        .client
        .post(app.url("/auth/v1/callback"))
        .header("content-type", "application/x-www-form-urlencoded")
        .body("code=abc")
        .send()
        .await
        .unwrap();
    assert_eq!(error_in(&location(posted).await).0, "bad_oauth_state");

    // The person said no at the provider.
    let started = start(&app, "google", true).await;
    let returned = location(
        app.get(&format!(
            "/auth/v1/callback?state={}&error=access_denied&error_description=The+user+denied",
            started.state
        ))
        .await,
    )
    .await;
    assert!(returned.starts_with(RETURN_TO));
    assert_eq!(
        error_in(&returned),
        ("provider_error".into(), "The user denied".into())
    );
    // No code at all.
    let returned = location(
        app.get(&format!("/auth/v1/callback?state={}", started.state))
            .await,
    )
    .await;
    assert_eq!(error_in(&returned).0, "bad_oauth_callback");

    // ID tokens that fail a check, each with its reason.
    let other_key = SigningKey::new("key-1");
    let cases: Vec<(&str, BadToken, &str)> = vec![
        (
            "audience",
            Box::new(|n| {
                google.key.sign(&{
                    let mut c = good(n);
                    c["aud"] = json!("someone-else");
                    c
                })
            }),
            "it was issued for another application",
        ),
        (
            "issuer",
            Box::new(|n| {
                google.key.sign(&{
                    let mut c = good(n);
                    c["iss"] = json!("https://evil.example");
                    c
                })
            }),
            "it was issued by https://evil.example, not by the provider",
        ),
        (
            "nonce",
            Box::new(|_| google.key.sign(&good("another-sign-in"))),
            "its nonce does not match this sign-in",
        ),
        (
            "expiry",
            Box::new(|n| {
                google.key.sign(&{
                    let mut c = good(n);
                    c["exp"] = json!(1_600_000_000);
                    c
                })
            }),
            "it has expired",
        ),
        (
            "signature",
            Box::new(|n| other_key.sign(&good(n))),
            "its signature does not match the provider's keys",
        ),
    ];
    for (index, (what, token, reason)) in cases.iter().enumerate() {
        let started = start(&app, "google", true).await;
        let code = format!("bad-{index}");
        google.answer_code(&code, &token(&started.nonce)).await;
        let returned = callback(&app, &started.state, &code).await;
        assert!(
            returned.starts_with(&format!("{RETURN_TO}?")),
            "{what}: {returned}"
        );
        let (code, description) = error_in(&returned);
        assert_eq!(code, "bad_jwt", "{what}");
        assert_eq!(
            description,
            format!("The sign-in with Google could not be verified: {reason}."),
            "{what}"
        );
    }

    // A replayed code: the provider refuses it, and the used state too.
    let started = start(&app, "google", true).await;
    google
        .answer_code("once", &google.key.sign(&good(&started.nonce)))
        .await;
    redeem(&app, &callback(&app, &started.state, "once").await).await;
    let (code, description) = error_in(&callback(&app, &started.state, "once").await);
    assert_eq!(code, "bad_oauth_callback");
    assert!(
        description.contains("Bad Request (invalid_grant)"),
        "{description}"
    );

    // The token endpoint is down.
    let started = start(&app, "google", true).await;
    Mock::given(method("POST"))
        .and(path("/token"))
        .and(body_string_contains("code=during-outage"))
        .respond_with(ResponseTemplate::new(503))
        .with_priority(1)
        .mount(&google.server)
        .await;
    let (code, description) = error_in(&callback(&app, &started.state, "during-outage").await);
    assert_eq!(code, "provider_unavailable");
    assert_eq!(
        description,
        "Google could not be reached. Try again in a moment."
    );

    // Through all of it, the one person who finished is the only account.
    assert_eq!(count(&app, "users").await, 2, "eve (once) and mallory");
    assert_eq!(
        count_where(&app, "identities", "provider = 'google'").await,
        1
    );
}

async fn the_issuers_new_key_is_fetched_when_a_token_names_it(backend: Backend) {
    let google = Issuer::start().await;
    let app = spawn_app_with(
        backend,
        with_providers(vec![(
            "google",
            google.provider(IdentityProviderKind::Google),
        )]),
    )
    .await;
    let jwks_reads = || async {
        google
            .server
            .received_requests()
            .await
            .unwrap()
            .iter()
            .filter(|r| r.url.path() == "/oauth2/v3/certs")
            .count()
    };
    redeem(&app, &sign_in_with(&app, &google, &google.key, "k1").await).await;
    redeem(
        &app,
        &sign_in_with(&app, &google, &google.key, "k1-again").await,
    )
    .await;
    assert_eq!(jwks_reads().await, 1, "the key set is cached");

    // Google rotates: a new key is published and signs the next token.
    let rotated = SigningKey::new("key-2");
    google.server.reset().await;
    // The reset dropped discovery too: publish it again with both keys.
    let uri = google.server.uri();
    Mock::given(method("GET"))
        .and(path("/.well-known/openid-configuration"))
        .respond_with(ResponseTemplate::new(200).set_body_json(json!({
            "issuer": uri, "authorization_endpoint": format!("{uri}/auth"),
            "token_endpoint": format!("{uri}/token"), "jwks_uri": format!("{uri}/oauth2/v3/certs"),
        })))
        .mount(&google.server)
        .await;
    google.publish(&[&google.key, &rotated]).await;
    let returned = sign_in_with(&app, &google, &rotated, "k2").await;
    redeem(&app, &returned).await;
    assert_eq!(
        jwks_reads().await,
        1,
        "one read after the reset: the unknown key's"
    );
}

/// A whole PKCE sign-in whose ID token `key` signs; the return address.
async fn sign_in_with(app: &TestApp, issuer: &Issuer, key: &SigningKey, code: &str) -> String {
    let started = start(app, "google", true).await;
    let token = key.sign(&issuer.claims("g-2", "kim@example.com", true, &started.nonce));
    issuer.answer_code(code, &token).await;
    callback(app, &started.state, code).await
}

async fn a_verified_email_links_and_an_unverified_one_never_takes_over(backend: Backend) {
    let google = Issuer::start().await;
    let app = spawn_app_with(
        backend,
        with_providers(vec![(
            "google",
            google.provider(IdentityProviderKind::Google),
        )]),
    )
    .await;
    let owner = app.sign_up("owner@example.com").await;
    let owner_id = owner["user"]["id"].clone();

    // Unverified at the provider: refused, nothing linked, no session.
    let started = start(&app, "google", true).await;
    google
        .answer_code(
            "unverified",
            &google
                .key
                .sign(&google.claims("g-evil", "owner@example.com", false, &started.nonce)),
        )
        .await;
    let (code, description) = error_in(&callback(&app, &started.state, "unverified").await);
    assert_eq!(code, "email_exists");
    assert!(
        description.contains("Google has not verified the address"),
        "{description}"
    );
    assert_eq!(identities(&app, access(&owner)).await.len(), 1);
    assert_eq!(count(&app, "users").await, 1);

    // Verified: the same account, now with both ways in.
    let started = start(&app, "google", true).await;
    google
        .answer_code(
            "verified",
            &google
                .key
                .sign(&google.claims("g-owner", "owner@example.com", true, &started.nonce)),
        )
        .await;
    let session = redeem(&app, &callback(&app, &started.state, "verified").await).await;
    assert_eq!(session["user"]["id"], owner_id);
    let providers: Vec<String> = identities(&app, access(&session))
        .await
        .iter()
        .map(|i| i["provider"].as_str().unwrap().to_owned())
        .collect();
    assert_eq!(providers, ["email", "google"]);
    assert_eq!(
        session["user"]["app_metadata"]["providers"],
        json!(["email", "google"])
    );

    // A new person with an unverified address, where sign-ups need
    // confirming: the account waits for the mail, no session yet.
    let strict = spawn_app_with(backend, |config| {
        with_providers(vec![(
            "google",
            google.provider(IdentityProviderKind::Google),
        )])(config);
        config.auth.autoconfirm = false;
    })
    .await;
    let started = start(&strict, "google", true).await;
    google
        .answer_code(
            "new-unverified",
            &google
                .key
                .sign(&google.claims("g-new", "new@example.com", false, &started.nonce)),
        )
        .await;
    let (code, description) = error_in(&callback(&strict, &started.state, "new-unverified").await);
    assert_eq!(code, "provider_email_needs_verification");
    assert_eq!(
        description,
        "Unverified email with Google. A confirmation email has been sent to your Google email"
    );
    assert_eq!(strict.mail_count("new@example.com").await, 1);

    // Sign-ups closed: no account from a provider either.
    let closed = spawn_app_with(backend, |config| {
        with_providers(vec![(
            "google",
            google.provider(IdentityProviderKind::Google),
        )])(config);
        config.auth.disable_signup = true;
    })
    .await;
    let started = start(&closed, "google", true).await;
    google
        .answer_code(
            "closed",
            &google
                .key
                .sign(&google.claims("g-closed", "late@example.com", true, &started.nonce)),
        )
        .await;
    assert_eq!(
        error_in(&callback(&closed, &started.state, "closed").await).0,
        "signup_disabled"
    );
    assert_eq!(count(&closed, "users").await, 0);
}

async fn linking_and_unlinking_keep_a_way_in(backend: Backend) {
    let google = Issuer::start().await;
    let app = spawn_app_with(
        backend,
        with_providers(vec![(
            "google",
            google.provider(IdentityProviderKind::Google),
        )]),
    )
    .await;
    let ada = app.sign_up("ada@example.com").await;
    let bob = app.sign_up("bob@example.com").await;

    // Who may ask: anonymous 401; off without manual linking (see user.rs).
    app.call(
        Method::GET,
        "/user/identities/authorize?provider=google",
        None,
        None,
    )
    .await
    .assert_error(401, "no_authorization");
    app.get_as(
        access(&ada),
        "/user/identities/authorize?provider=nope&skip_http_redirect=true",
    )
    .await
    .assert_error(400, "validation_failed");

    // Ada links a Google account with another address.
    let (url, cookie) = start_linking(
        &app,
        access(&ada),
        &format!("provider=google&skip_http_redirect=true&redirect_to={RETURN_TO}"),
    )
    .await;
    let asked = query_of(&url);
    google
        .answer_code(
            "link-ada",
            &google
                .key
                .sign(&google.claims("g-ada", "ada.l@gmail.example", true, &asked["nonce"])),
        )
        .await;
    let returned = callback_with_cookie(&app, &cookie, &asked["state"], "link-ada").await;
    let fragment = fragment_of(&returned);
    let me = app.get_as(&fragment["access_token"], "/user").await.ok();
    assert_eq!(me["id"], ada["user"]["id"], "still Ada");
    assert_eq!(me["email"], "ada@example.com", "her own address stays");
    let linked = identities(&app, access(&ada)).await;
    assert_eq!(linked.len(), 2);
    // Ada is told (issue 45).
    let told = app
        .mails_of_kind("ada@example.com", "security_identity_linked")
        .await;
    assert_eq!(told.len(), 1);
    assert!(told[0].1.contains("(Google)"), "{}", told[0].1);

    // Bob cannot link the Google account Ada has.
    let (url, cookie) = start_linking(
        &app,
        access(&bob),
        "provider=google&skip_http_redirect=true",
    )
    .await;
    let asked = query_of(&url);
    google
        .answer_code(
            "link-bob",
            &google
                .key
                .sign(&google.claims("g-ada", "ada.l@gmail.example", true, &asked["nonce"])),
        )
        .await;
    let (code, _) =
        error_in(&callback_with_cookie(&app, &cookie, &asked["state"], "link-bob").await);
    assert_eq!(code, "identity_already_exists");
    assert_eq!(identities(&app, access(&bob)).await.len(), 1);

    // Unlinking: not someone else's identity, and never the last way in,
    // even when both are unlinked at once from eight tabs.
    let google_identity = linked.iter().find(|i| i["provider"] == "google").unwrap();
    let email_identity = linked.iter().find(|i| i["provider"] == "email").unwrap();
    let path_of = |i: &Value| format!("/user/identities/{}", i["identity_id"].as_str().unwrap());
    app.delete_as(access(&bob), &path_of(google_identity))
        .await
        .assert_error(404, "identity_not_found");
    app.call(Method::DELETE, &path_of(google_identity), None, None)
        .await
        .assert_error(401, "no_authorization");
    let tabs = (0..8).map(|i| {
        let path = path_of(if i % 2 == 0 {
            google_identity
        } else {
            email_identity
        });
        let app = &app;
        let token = access(&ada).to_owned();
        async move { app.delete_as(&token, &path).await }
    });
    let replies = futures::future::join_all(tabs).await;
    let removed = replies.iter().filter(|r| r.status.is_success()).count();
    assert_eq!(
        removed,
        1,
        "{:?}",
        replies.iter().map(|r| r.status).collect::<Vec<_>>()
    );
    for reply in replies.iter().filter(|r| !r.status.is_success()) {
        assert!(
            reply.body["code"] == "single_identity_not_deletable"
                || reply.body["code"] == "identity_not_found",
            "{:?}",
            reply.body
        );
    }
    let left = identities(&app, access(&ada)).await;
    assert_eq!(left.len(), 1);
    assert_eq!(
        app.mails_of_kind("ada@example.com", "security_identity_unlinked")
            .await
            .len(),
        1
    );
    assert!(
        app.mails_of_kind("bob@example.com", "security_identity_unlinked")
            .await
            .is_empty(),
        "Bob's refused tries tell nobody"
    );
    let me = app.get_as(access(&ada), "/user").await.ok();
    assert_eq!(
        me["app_metadata"]["providers"],
        json!([left[0]["provider"]])
    );
}

async fn eight_tabs_finishing_one_sign_up_make_one_user(backend: Backend) {
    let google = Issuer::start().await;
    let app = spawn_app_with(
        backend,
        with_providers(vec![(
            "google",
            google.provider(IdentityProviderKind::Google),
        )]),
    )
    .await;
    let mut tabs = Vec::new();
    for tab in 0..8 {
        let started = start(&app, "google", tab % 2 == 0).await;
        let code = format!("tab-{tab}");
        google
            .answer_code(
                &code,
                &google.key.sign(&google.claims(
                    "g-twin",
                    "twin@example.com",
                    true,
                    &started.nonce,
                )),
            )
            .await;
        tabs.push((started.state, code, started.cookie));
    }
    let returns = futures::future::join_all(tabs.iter().map(|(state, code, cookie)| async {
        match cookie {
            Some(cookie) => callback_with_cookie(&app, cookie, state, code).await,
            None => callback(&app, state, code).await,
        }
    }))
    .await;
    for returned in &returns {
        let params: BTreeMap<_, _> = query_of(returned)
            .into_iter()
            .chain(fragment_of(returned))
            .collect();
        assert!(
            params.contains_key("code") || params.contains_key("access_token"),
            "every tab is signed in: {returned}"
        );
    }
    assert_eq!(count(&app, "users").await, 1);
    assert_eq!(count(&app, "identities").await, 1);
}

/// GitHub's endpoints: the OAuth pages under one address, the API under another.
async fn github_double() -> MockServer {
    let server = MockServer::start().await;
    Mock::given(method("POST"))
        .and(path("/login/oauth/access_token"))
        .and(body_string_contains("code=gh-good"))
        .respond_with(ResponseTemplate::new(200).set_body_json(json!({
            "access_token": "gho_16C7e42F292c6912E7710c838347Ae178B4a",
            "scope": "read:user,user:email", "token_type": "bearer",
        })))
        .with_priority(1)
        .mount(&server)
        .await;
    // GitHub answers a bad code with 200 and an error body.
    Mock::given(method("POST"))
        .and(path("/login/oauth/access_token"))
        .respond_with(ResponseTemplate::new(200).set_body_json(json!({
            "error": "bad_verification_code",
            "error_description": "The code passed is incorrect or expired.",
            "error_uri": "https://docs.github.com/apps/troubleshooting",
        })))
        .with_priority(5)
        .mount(&server)
        .await;
    Mock::given(method("GET"))
        .and(path("/api/user"))
        .and(header_regex("authorization", "^Bearer gho_"))
        .respond_with(ResponseTemplate::new(200).set_body_json(json!({
            "login": "octocat", "id": 583231, "avatar_url": "https://avatars.example/u/583231",
            "name": "The Octocat", "email": null, "type": "User",
        })))
        .mount(&server)
        .await;
    Mock::given(method("GET"))
        .and(path("/api/user/emails"))
        .respond_with(ResponseTemplate::new(200).set_body_json(json!([
            {"email": "octocat@users.noreply.github.com", "primary": false, "verified": true, "visibility": null},
            {"email": "Octocat@GitHub.example", "primary": true, "verified": true, "visibility": "private"},
        ])))
        .mount(&server)
        .await;
    server
}

async fn github_reads_the_verified_email_from_its_api(backend: Backend) {
    let github = github_double().await;
    let app = spawn_app_with(
        backend,
        with_providers(vec![(
            "github",
            IdentityProviderConfig {
                kind: IdentityProviderKind::Github,
                client_id: "Iv1.8a61f9b3a7aba766".into(),
                client_secret: Some(Secret::new("gh-secret")),
                github: GithubEndpoints {
                    web_url: github.uri(),
                    api_url: format!("{}/api", github.uri()),
                },
                ..IdentityProviderConfig::default()
            },
        )]),
    )
    .await;
    let started = start(&app, "github", true).await;
    assert!(
        started
            .url
            .starts_with(&format!("{}/login/oauth/authorize?", github.uri()))
    );
    let asked = query_of(&started.url);
    assert_eq!(asked["scope"], "read:user user:email");
    assert!(!asked.contains_key("nonce"), "OAuth 2 has no nonce");

    let (code, description) = error_in(&callback(&app, &started.state, "gh-stale").await);
    assert_eq!(code, "bad_oauth_callback");
    assert!(
        description.contains("The code passed is incorrect or expired."),
        "{description}"
    );

    let started = start(&app, "github", true).await;
    let session = redeem(&app, &callback(&app, &started.state, "gh-good").await).await;
    assert_eq!(session["user"]["email"], "octocat@github.example");
    assert_eq!(session["user"]["user_metadata"]["user_name"], "octocat");
    let linked = identities(&app, access(&session)).await;
    assert_eq!(linked[0]["provider"], "github");
    assert_eq!(linked[0]["id"], "583231");
    let sent = github.received_requests().await.unwrap();
    let exchange = sent
        .iter()
        .find(|r| {
            r.url.path() == "/login/oauth/access_token"
                && String::from_utf8_lossy(&r.body).contains("gh-good")
        })
        .unwrap();
    assert!(String::from_utf8_lossy(&exchange.body).contains("client_secret=gh-secret"));
    assert_eq!(exchange.headers["accept"], "application/json");
}

async fn apple_signs_its_client_secret_and_posts_the_name_once(backend: Backend) {
    let apple = Issuer::start().await;
    let team_key = EcdsaKeyPair::generate(&ECDSA_P256_SHA256_FIXED_SIGNING).unwrap();
    let pem = format!(
        "-----BEGIN PRIVATE KEY-----\n{}\n-----END PRIVATE KEY-----",
        data_encoding::BASE64.encode(team_key.to_pkcs8v1().unwrap().as_ref())
    );
    let app = spawn_app_with(
        backend,
        with_providers(vec![(
            "apple",
            IdentityProviderConfig {
                client_secret: None,
                apple: AppleSigning {
                    team_id: "TEAM123456".into(),
                    key_id: "KEY7654321".into(),
                    private_key: Some(Secret::new(pem)),
                },
                ..apple.provider(IdentityProviderKind::Apple)
            },
        )]),
    )
    .await;
    let started = start(&app, "apple", true).await;
    let asked = query_of(&started.url);
    assert_eq!(asked["response_mode"], "form_post");
    assert_eq!(asked["scope"], "name email");

    let mut token = apple.claims(
        "001234.abcd",
        "x7@privaterelay.appleid.com",
        true,
        &started.nonce,
    );
    token["email_verified"] = json!("true");
    token["is_private_email"] = json!("true");
    token.as_object_mut().unwrap().remove("name");
    apple
        .answer_code("apple-code", &apple.key.sign(&token))
        .await;
    let form = format!(
        "state={}&code=apple-code&user={}",
        started.state,
        url::form_urlencoded::byte_serialize(
            br#"{"name":{"firstName":"Grace","lastName":"Hopper"},"email":"x7@privaterelay.appleid.com"}"#
        )
        .collect::<String>()
    );
    let posted = app
        .client
        .post(app.url("/auth/v1/callback"))
        .header("content-type", "application/x-www-form-urlencoded")
        .header("origin", "https://appleid.apple.com")
        .body(form)
        .send()
        .await
        .unwrap();
    let session = redeem(&app, &location(posted).await).await;
    assert_eq!(session["user"]["email"], "x7@privaterelay.appleid.com");
    assert_eq!(session["user"]["user_metadata"]["name"], "Grace Hopper");
    assert!(
        session["user"]["email_confirmed_at"].is_string(),
        "\"true\" as a string"
    );

    // The client secret Apple received: an ES256 JWT from the team's key.
    let exchange: Request = apple
        .server
        .received_requests()
        .await
        .unwrap()
        .into_iter()
        .find(|r| r.url.path() == "/token")
        .unwrap();
    let form: BTreeMap<String, String> = url::form_urlencoded::parse(&exchange.body)
        .into_owned()
        .collect();
    assert_eq!(form["client_id"], CLIENT_ID);
    let secret = &form["client_secret"];
    assert_eq!(header(secret), json!({"alg": "ES256", "kid": "KEY7654321"}));
    let secret_claims = claims(secret);
    assert_eq!(secret_claims["iss"], "TEAM123456");
    assert_eq!(secret_claims["sub"], CLIENT_ID);
    assert_eq!(secret_claims["aud"], "https://appleid.apple.com");
    let (signed, signature) = secret.rsplit_once('.').unwrap();
    aws_lc_rs::signature::UnparsedPublicKey::new(
        &aws_lc_rs::signature::ECDSA_P256_SHA256_FIXED,
        team_key.public_key().as_ref(),
    )
    .verify(
        signed.as_bytes(),
        &BASE64URL_NOPAD.decode(signature.as_bytes()).unwrap(),
    )
    .expect("signed with the team's key");
}

async fn a_native_id_token_signs_in(backend: Backend) {
    let google = Issuer::start().await;
    let app = spawn_app_with(
        backend,
        with_providers(vec![(
            "google",
            IdentityProviderConfig {
                extra_audiences: vec!["ios-client".into()],
                ..google.provider(IdentityProviderKind::Google)
            },
        )]),
    )
    .await;
    let mut token = google.claims("g-native", "native@example.com", true, "raw-nonce");
    token["aud"] = json!("ios-client");
    let session = app
        .post(
            "/token?grant_type=id_token",
            json!({"provider": "google", "id_token": google.key.sign(&token), "nonce": "raw-nonce"}),
        )
        .await
        .ok();
    assert_eq!(session["user"]["email"], "native@example.com");
    assert_eq!(claims(access(&session))["amr"][0]["method"], "id_token");

    // By issuer too, as auth-js may pass it; a wrong nonce or audience is refused.
    let by_issuer = app
        .post(
            "/token?grant_type=id_token",
            json!({"provider": google.server.uri(), "id_token": google.key.sign(&token), "nonce": "raw-nonce"}),
        )
        .await
        .ok();
    assert_eq!(by_issuer["user"]["id"], session["user"]["id"]);
    app.post(
        "/token?grant_type=id_token",
        json!({"provider": "google", "id_token": google.key.sign(&token), "nonce": "other"}),
    )
    .await
    .assert_error(400, "bad_jwt");
    token["aud"] = json!("stranger");
    app.post(
        "/token?grant_type=id_token",
        json!({"provider": "google", "id_token": google.key.sign(&token), "nonce": "raw-nonce"}),
    )
    .await
    .assert_error(400, "bad_jwt");
    app.post("/token?grant_type=id_token", json!({"provider": "google"}))
        .await
        .assert_error(400, "validation_failed");
    app.post(
        "/token?grant_type=id_token",
        json!({"provider": "facebook", "id_token": "x"}),
    )
    .await
    .assert_error(400, "provider_disabled");
    assert_eq!(count(&app, "users").await, 1);
}

async fn a_sign_in_started_on_one_instance_finishes_on_another(backend: Backend) {
    let google = Issuer::start().await;
    let providers = with_providers(vec![(
        "google",
        google.provider(IdentityProviderKind::Google),
    )]);
    let first = spawn_app_with(backend, providers).await;
    let url = first.config.database_url.clone();
    let auth = first.config.auth.clone();
    let second = spawn_app_with(backend, move |config| {
        config.database_url = url;
        config.auth = auth;
    })
    .await;

    // The provider sends the browser back to whichever instance the load
    // balancer picks: the state and the flow live in the shared database.
    let started = start(&first, "google", true).await;
    google
        .answer_code(
            "across",
            &google
                .key
                .sign(&google.claims("g-across", "lb@example.com", true, &started.nonce)),
        )
        .await;
    let returned = callback(&second, &started.state, "across").await;
    let session = redeem(&first, &returned).await;
    assert_eq!(session["user"]["email"], "lb@example.com");
    // The flow completed once: replaying on the first instance finds it used.
    let (code, _) = error_in(&callback(&first, &started.state, "across").await);
    assert_eq!(
        code, "bad_oauth_callback",
        "the provider refuses the used code"
    );

    // A sign-in abandoned at the provider: its flow, once stale, is cleared
    // by the next sign-in.
    start(&first, "google", true).await;
    sql(
        &first,
        "UPDATE flow_states SET created_at = $1",
        vec![(chrono::Utc::now() - chrono::Duration::days(2)).into()],
    )
    .await;
    start(&second, "google", true).await;
    assert_eq!(
        count(&first, "flow_states").await,
        1,
        "only the new sign-in's flow"
    );
}

/// Issue 41: the web app asks for the date of birth and the terms before it
/// leaves for the provider. A minor goes straight back and nothing is
/// stored; an adult's account is made with both on file; from the Sign In
/// tab (`require_date_of_birth=true`) a person new here gets no account and
/// comes back to be asked, while someone with an account signs in.
async fn a_social_sign_up_is_asked_its_date_of_birth_before_the_account_exists(backend: Backend) {
    let google = Issuer::start().await;
    let app = spawn_app_with(
        backend,
        with_providers(vec![(
            "google",
            google.provider(IdentityProviderKind::Google),
        )]),
    )
    .await;
    let terms = app.config.community.terms_version.clone();
    let minor = (chrono::Utc::now().date_naive() - chrono::Days::new(17 * 365))
        .format("%Y-%m-%d")
        .to_string();

    // A minor never leaves for Google.
    let refused = location(
        app.get(&format!(
            "/auth/v1/authorize?provider=google&redirect_to={RETURN_TO}&date_of_birth={minor}&terms_version={terms}"
        ))
        .await,
    )
    .await;
    assert!(refused.starts_with(RETURN_TO), "{refused}");
    let (code, description) = error_in(&refused);
    assert_eq!(code, "underage");
    assert!(description.contains("18 or older"), "{description}");
    for bad in ["2001-02-30", "yesterday"] {
        let returned = location(
            app.get(&format!(
                "/auth/v1/authorize?provider=google&redirect_to={RETURN_TO}&date_of_birth={bad}"
            ))
            .await,
        )
        .await;
        assert_eq!(error_in(&returned).0, "validation_failed", "{returned}");
    }
    assert_eq!(count(&app, "users").await, 0);
    assert_eq!(
        count(&app, "flow_states").await,
        0,
        "no sign-in was started"
    );

    // From the Sign In tab, a person new here: no account, asked first.
    let started = start_declaring(&app, "google", true, "&require_date_of_birth=true").await;
    let token = google
        .key
        .sign(&google.claims("g-new", "new@example.com", true, &started.nonce));
    google.answer_code("code-new", &token).await;
    let returned = callback(&app, &started.state, "code-new").await;
    let (code, description) = error_in(&returned);
    assert_eq!(code, "age_required");
    assert!(description.contains("date of birth"), "{description}");
    assert_eq!(count(&app, "users").await, 0);

    // Asked, they come back with both: the account is made with them on file.
    let started = start_declaring(
        &app,
        "google",
        true,
        &format!("&date_of_birth={ADULT_BIRTH_DATE}&terms_version={terms}"),
    )
    .await;
    // The date never goes to the provider: it rides in our own cookie.
    let state_claims = started.state.split('.').nth(1).unwrap();
    let state_claims =
        String::from_utf8(BASE64URL_NOPAD.decode(state_claims.as_bytes()).unwrap()).unwrap();
    assert!(!state_claims.contains(ADULT_BIRTH_DATE), "{state_claims}");
    assert!(!started.url.contains(ADULT_BIRTH_DATE), "{}", started.url);
    let declared = started.declared.clone().expect("the declaration cookie");
    let token = google
        .key
        .sign(&google.claims("g-new", "new@example.com", true, &started.nonce));
    google.answer_code("code-adult", &token).await;

    // Without the cookie (another browser), nothing was declared: no account.
    let elsewhere = callback(&app, &started.state, "code-adult").await;
    assert_eq!(error_in(&elsewhere).0, "age_required");
    assert_eq!(count(&app, "users").await, 0);
    // A declaration cookie of another sign-in counts for nothing either.
    let other = start_declaring(
        &app,
        "google",
        true,
        &format!(
            "&date_of_birth={ADULT_BIRTH_DATE}&terms_version={terms}&require_date_of_birth=true"
        ),
    )
    .await;
    let token = google
        .key
        .sign(&google.claims("g-new", "new@example.com", true, &other.nonce));
    google.answer_code("code-other", &token).await;
    let mismatched = callback_with_cookie(&app, &declared, &other.state, "code-other").await;
    assert_eq!(error_in(&mismatched).0, "age_required");

    let started = start_declaring(
        &app,
        "google",
        true,
        &format!("&date_of_birth={ADULT_BIRTH_DATE}&terms_version={terms}"),
    )
    .await;
    let declared = started.declared.clone().expect("the declaration cookie");
    let token = google
        .key
        .sign(&google.claims("g-new", "new@example.com", true, &started.nonce));
    google.answer_code("code-adult-2", &token).await;
    let session = redeem(
        &app,
        &callback_with_cookie(&app, &declared, &started.state, "code-adult-2").await,
    )
    .await;
    let user = &session["user"];
    assert!(
        user["user_metadata"].get("date_of_birth").is_none(),
        "{user}"
    );
    let standing = app
        .call(
            Method::GET,
            "/api/v1/account/standing",
            Some(access(&session)),
            None,
        )
        .await
        .assert_ok()
        .clone();
    assert_eq!(standing["date_of_birth_on_file"], true, "{standing}");
    assert_eq!(standing["terms_accepted"], true, "{standing}");
    assert_eq!(count(&app, "birth_dates").await, 1);

    // Someone with an account signs in from the Sign In tab as before.
    let started = start_declaring(&app, "google", true, "&require_date_of_birth=true").await;
    let token = google
        .key
        .sign(&google.claims("g-new", "new@example.com", true, &started.nonce));
    google.answer_code("code-again", &token).await;
    let again = redeem(&app, &callback(&app, &started.state, "code-again").await).await;
    assert_eq!(again["user"]["id"], user["id"]);
    assert_eq!(count(&app, "users").await, 1);
}
