//! Sign-in through an outside provider, in GoTrue's shapes so that auth-js's
//! `signInWithOAuth`, `linkIdentity` and `exchangeCodeForSession` work
//! unchanged:
//! - `GET /authorize?provider=…` sends the browser to the provider with a
//!   signed `state` (provider, where to return, the nonce, the PKCE flow);
//! - the provider sends it back to `GET|POST /callback` (Apple posts a form);
//!   the code is redeemed, the ID token checked, the person found, created
//!   or linked ([`crate::auth::external`]);
//! - the browser returns to `redirect_to` with `?code=` (PKCE) or the session
//!   in the fragment, or with `error`, `error_code`, `error_description`.
//!
//! Without PKCE nothing ties the callback to the browser that started the
//! sign-in, so anyone could send a victim their own callback link and sign
//! the victim in as themselves (login CSRF, issue 43). `/authorize` then
//! sets a random cookie ([`BROWSER_COOKIE`]) whose hash the signed state
//! carries, and the callback completes only in a browser that has it.
//! (With PKCE the code is redeemed with a verifier only the starting page
//! holds.)
//!
//! A social sign-up declares its date of birth and terms at `/authorize`
//! (issue 41). They travel to the callback in a signed cookie bound to the
//! sign-in's nonce ([`DECLARED_COOKIE`]), never in the `state` the provider
//! sees; the account is made with them on file.

use axum::body::Bytes;
use axum::extract::State;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Redirect, Response};
use chrono::Utc;
use data_encoding::BASE64URL_NOPAD;
use serde::Deserialize;
use serde_json::{Value, json};
use uuid::Uuid;

use super::steps::{TokenBody, present, with_fragment, with_query};
use super::user::manual_linking_disabled;
use crate::auth::community::{self, SignupFacts};
use crate::auth::error::{AuthError, AuthResult};
use crate::auth::external::{self, Declared, Outcome};
use crate::auth::extract::{AuthQuery, Bearer};
use crate::auth::reply::{api_url, ok, site_url};
use crate::auth::{otp, pkce, sessions};
use crate::http::AppState;
use crate::http::extract::ClientInfo;
use crate::providers::identity::{Callback, IdentityError, IdentityProvider};

/// A sign-in has this long between leaving for the provider and coming back.
const STATE_LIFETIME_SECS: i64 = 600;
const STATE_PURPOSE: &str = "oauth_state";
/// The cookie that ties a sign-in without PKCE to its browser.
pub const BROWSER_COOKIE: &str = "ps_oauth_browser";
/// The cookie that carries a declared date of birth and terms to the
/// callback, signed and bound to the sign-in's nonce. Not in the `state`,
/// which the provider sees: the date is shown to nobody else (issue 41).
pub const DECLARED_COOKIE: &str = "ps_oauth_declared";
const DECLARED_PURPOSE: &str = "oauth_declared";

fn browser_hash(binding: &str) -> String {
    use sha2::Digest;
    BASE64URL_NOPAD.encode(&sha2::Sha256::digest(binding.as_bytes()))
}

/// A started sign-in: the provider's URL, and for a flow without PKCE the
/// value of [`BROWSER_COOKIE`] to set.
struct Started {
    url: String,
    binding: Option<String>,
    /// The value of [`DECLARED_COOKIE`] to set, when something was declared.
    declared: Option<String>,
}

impl Started {
    /// `response` with the binding and declaration cookies set, when there
    /// are any.
    fn bind(&self, state: &AppState, mut response: Response) -> Response {
        for (name, value) in [
            (BROWSER_COOKIE, &self.binding),
            (DECLARED_COOKIE, &self.declared),
        ] {
            if let Some(value) = value {
                crate::http::cookies::set_cross_site(
                    state,
                    response.headers_mut(),
                    name,
                    value,
                    STATE_LIFETIME_SECS,
                );
            }
        }
        response
    }
}

#[derive(Debug, Default, Deserialize)]
#[serde(default)]
pub struct AuthorizeQuery {
    pub provider: Option<String>,
    pub redirect_to: Option<String>,
    pub scopes: Option<String>,
    pub code_challenge: Option<String>,
    pub code_challenge_method: Option<String>,
    pub skip_http_redirect: Option<String>,
    /// Ours, not GoTrue's (auth-js sends them as `options.queryParams`):
    /// what a new account is made with, checked before the browser leaves
    /// (issue 41). `YYYY-MM-DD`; under 18 goes straight back with
    /// `error_code=underage` and nothing is stored.
    pub date_of_birth: Option<String>,
    pub terms_version: Option<String>,
    /// `true`: make no new account without a date (the web app's Sign In
    /// tab, which cannot know whether the person has one): the browser
    /// comes back with `error_code=age_required` and the page asks.
    pub require_date_of_birth: Option<String>,
}

impl AuthorizeQuery {
    /// What the browser declared, checked as a sign-up's `data` is.
    fn declared(&self, state: &AppState) -> AuthResult<Declared> {
        let mut fields = serde_json::Map::new();
        fields.insert(
            community::DATE_OF_BIRTH_KEY.into(),
            json!(self.date_of_birth),
        );
        fields.insert(
            community::TERMS_VERSION_KEY.into(),
            json!(self.terms_version),
        );
        let mut data = Some(Value::Object(fields));
        let facts = community::take_signup_facts(&state.config.community, &mut data)?;
        Ok(Declared {
            // A sign-up that declared a date wants one: if its declaration
            // does not reach the callback (another browser), no account.
            require_date_of_birth: self.require_date_of_birth.as_deref() == Some("true")
                || facts.date_of_birth.is_some(),
            facts,
        })
    }
}

/// `GET /authorize`: off to the provider.
pub async fn authorize(
    State(state): State<AppState>,
    AuthQuery(query): AuthQuery<AuthorizeQuery>,
) -> AuthResult<Response> {
    // The browser is on its way out: a refusal goes back to the app with
    // the reason, as from a failed callback (a minor never leaves for the
    // provider, and nothing is stored).
    let back = |err: AuthError| {
        let target = otp::redirect_target(&state, query.redirect_to.as_deref());
        let error = if err.status.is_server_error() {
            "server_error"
        } else {
            "invalid_request"
        };
        let params = error_params(error, err.code, &err.message);
        Redirect::to(&with_fragment(&with_query(&target, &params), &params)).into_response()
    };
    let declared = match query.declared(&state) {
        Ok(declared) => declared,
        Err(err) => return Ok(back(err)),
    };
    match start(&state, &query, None, declared).await {
        Ok(started) => Ok(started.bind(&state, found(&started.url))),
        Err(err) if err.code == "provider_unavailable" => Ok(back(err)),
        Err(err) => Err(err),
    }
}

/// `GET /user/identities/authorize`: a signed-in user links a provider.
/// auth-js asks with `skip_http_redirect=true` and navigates itself.
pub async fn link_identity(
    State(state): State<AppState>,
    bearer: Bearer,
    AuthQuery(query): AuthQuery<AuthorizeQuery>,
) -> AuthResult<Response> {
    if !state.config.auth.manual_linking {
        return Err(manual_linking_disabled());
    }
    let declared = query.declared(&state)?;
    let started = start(&state, &query, Some(bearer.user.id), declared).await?;
    if query.skip_http_redirect.as_deref() == Some("true") {
        return Ok(started.bind(&state, ok(json!({ "url": started.url }))));
    }
    Ok(started.bind(&state, found(&started.url)))
}

fn found(url: &str) -> Response {
    (StatusCode::FOUND, [(axum::http::header::LOCATION, url)]).into_response()
}

fn unsupported_provider() -> AuthError {
    AuthError::bad_request(
        "validation_failed",
        "Unsupported provider: provider is not enabled",
    )
}

/// Where the provider must send the browser back (registered with it).
fn callback_url(state: &AppState) -> String {
    format!("{}/callback", api_url(state))
}

async fn start(
    state: &AppState,
    query: &AuthorizeQuery,
    linking: Option<Uuid>,
    declared: Declared,
) -> AuthResult<Started> {
    let name = query.provider.as_deref().unwrap_or_default();
    let provider = state
        .identity_providers
        .get(name)
        .ok_or_else(unsupported_provider)?;
    let challenge = pkce::parse(
        query.code_challenge.as_deref(),
        query.code_challenge_method.as_deref(),
    )?;
    let target = otp::redirect_target(state, query.redirect_to.as_deref());
    let flow = match &challenge {
        Some(challenge) => {
            Some(pkce::create_for_provider(&state.db, &provider.name, challenge).await?)
        }
        None => None,
    };
    let nonce = BASE64URL_NOPAD.encode(&rand::random::<[u8; 24]>());
    let binding = flow
        .is_none()
        .then(|| BASE64URL_NOPAD.encode(&rand::random::<[u8; 24]>()));
    let now = Utc::now().timestamp();
    let signed = state.keys.sign(&json!({
        "purpose": STATE_PURPOSE,
        "provider": provider.name,
        "referrer": target,
        "flow_state_id": flow,
        "linking_target_id": linking,
        "nonce": nonce,
        "browser": binding.as_deref().map(browser_hash),
        "require_date_of_birth": declared.require_date_of_birth,
        "iat": now,
        "exp": now + STATE_LIFETIME_SECS,
    }));
    let facts = &declared.facts;
    let declared = (facts.date_of_birth.is_some() || facts.terms_version.is_some()).then(|| {
        state.keys.sign(&json!({
            "purpose": DECLARED_PURPOSE,
            "nonce": nonce,
            "date_of_birth": facts.date_of_birth.map(|date| date.format("%Y-%m-%d").to_string()),
            "terms_version": facts.terms_version,
            "iat": now,
            "exp": now + STATE_LIFETIME_SECS,
        }))
    });
    let url = provider
        .authorize_url(
            &callback_url(state),
            &signed,
            &nonce,
            query.scopes.as_deref(),
        )
        .await
        .map_err(|err| unavailable(provider, &err))?;
    Ok(Started {
        url,
        binding,
        declared,
    })
}

fn unavailable(provider: &IdentityProvider, err: &IdentityError) -> AuthError {
    tracing::warn!(provider = %provider.name, error = %err, "identity provider failed");
    AuthError::new(
        StatusCode::BAD_GATEWAY,
        "provider_unavailable",
        format!(
            "{} could not be reached. Try again in a moment.",
            provider.label
        ),
    )
}

/// What the provider sends back, in the query or (Apple) a posted form.
#[derive(Debug, Default)]
pub struct CallbackParams {
    pub state: Option<String>,
    pub code: Option<String>,
    pub error: Option<String>,
    pub error_description: Option<String>,
    /// Apple's first-sign-in name.
    pub user: Option<String>,
}

pub async fn callback_get(
    State(state): State<AppState>,
    client: ClientInfo,
    headers: axum::http::HeaderMap,
    query: axum::extract::RawQuery,
) -> Response {
    let params = CallbackParams::parse(query.0.as_deref().unwrap_or_default().as_bytes());
    callback(&state, &client, params, &headers).await
}

pub async fn callback_post(
    State(state): State<AppState>,
    client: ClientInfo,
    headers: axum::http::HeaderMap,
    body: Bytes,
) -> Response {
    callback(&state, &client, CallbackParams::parse(&body), &headers).await
}

impl CallbackParams {
    /// Lenient: whatever is unreadable is absent, and the state check
    /// then sends the browser back with a clear error.
    fn parse(form: &[u8]) -> Self {
        let mut params = Self::default();
        for (key, value) in url::form_urlencoded::parse(form) {
            let slot = match key.as_ref() {
                "state" => &mut params.state,
                "code" => &mut params.code,
                "error" => &mut params.error,
                "error_description" => &mut params.error_description,
                "user" => &mut params.user,
                _ => continue,
            };
            *slot = Some(value.into_owned());
        }
        params
    }
}

/// The signed state, once checked.
struct SignInState {
    provider: String,
    referrer: String,
    flow: Option<Uuid>,
    linking: Option<Uuid>,
    nonce: Option<String>,
    /// The hash of the browser's [`BROWSER_COOKIE`] (a flow without PKCE).
    browser: Option<String>,
    /// Checked at `/authorize`.
    declared: Declared,
}

/// What the browser declared at `/authorize`, from [`DECLARED_COOKIE`]:
/// nothing unless it is ours, unexpired and of this sign-in (`nonce`).
async fn read_declared(state: &AppState, cookie: Option<&str>, nonce: Option<&str>) -> SignupFacts {
    let Some(cookie) = cookie else {
        return SignupFacts::default();
    };
    let Ok(claims) = state.keys.verify(&state.db, cookie).await else {
        return SignupFacts::default();
    };
    let text = |name: &str| claims.get(name).and_then(Value::as_str);
    if text("purpose") != Some(DECLARED_PURPOSE) || nonce.is_none() || text("nonce") != nonce {
        return SignupFacts::default();
    }
    SignupFacts {
        date_of_birth: text("date_of_birth")
            .and_then(|date| chrono::NaiveDate::parse_from_str(date, "%Y-%m-%d").ok()),
        terms_version: text("terms_version").map(str::to_owned),
    }
}

async fn read_state(state: &AppState, signed: Option<&str>) -> Option<SignInState> {
    let claims = state.keys.verify(&state.db, signed?).await.ok()?;
    if claims.get("purpose").and_then(Value::as_str) != Some(STATE_PURPOSE) {
        return None;
    }
    let text = |name: &str| claims.get(name).and_then(Value::as_str).map(str::to_owned);
    let id = |name: &str| text(name).and_then(|v| v.parse::<Uuid>().ok());
    Some(SignInState {
        provider: text("provider")?,
        referrer: text("referrer")?,
        flow: id("flow_state_id"),
        linking: id("linking_target_id"),
        nonce: text("nonce"),
        browser: text("browser"),
        declared: Declared {
            // Filled from the declaration cookie by the callback.
            facts: SignupFacts::default(),
            require_date_of_birth: claims.get("require_date_of_birth").and_then(Value::as_bool)
                == Some(true),
        },
    })
}

async fn callback(
    state: &AppState,
    client: &ClientInfo,
    params: CallbackParams,
    headers: &axum::http::HeaderMap,
) -> Response {
    let browser = crate::http::cookies::read(headers, BROWSER_COOKIE);
    let Some(mut signed) = read_state(state, params.state.as_deref()).await else {
        // Nobody knows where this sign-in began: back to the site, in both
        // places auth-js looks.
        let params = error_params(
            "invalid_request",
            "bad_oauth_state",
            "The sign-in link is invalid or has expired. Please start the sign-in again.",
        );
        let site = site_url(state);
        return Redirect::to(&with_fragment(&with_query(&site, &params), &params)).into_response();
    };
    signed.declared.facts = read_declared(
        state,
        crate::http::cookies::read(headers, DECLARED_COOKIE),
        signed.nonce.as_deref(),
    )
    .await;
    let pkce = signed.flow.is_some();
    let fail = |error: &str, code: &str, description: &str| {
        let params = error_params(error, code, description);
        let location = if pkce {
            with_fragment(&with_query(&signed.referrer, &params), &params)
        } else {
            with_fragment(&signed.referrer, &params)
        };
        Redirect::to(&location).into_response()
    };
    if let Some(expected) = &signed.browser
        && browser.map(browser_hash).as_ref() != Some(expected)
    {
        return fail(
            "invalid_request",
            "bad_oauth_state",
            "This sign-in was started in another browser. Please start the sign-in again here.",
        );
    }
    let Some(provider) = state.identity_providers.get(&signed.provider).cloned() else {
        return fail(
            "invalid_request",
            "provider_disabled",
            "This sign-in provider is no longer enabled.",
        );
    };
    if let Some(error) = params.error.as_deref() {
        // The person said no, or the provider could not proceed.
        let description = params
            .error_description
            .clone()
            .unwrap_or_else(|| format!("The sign-in with {} was cancelled.", provider.label));
        return fail(
            if error == "access_denied" {
                "access_denied"
            } else {
                "server_error"
            },
            "provider_error",
            &description,
        );
    }
    let Some(code) = params.code.as_deref().filter(|c| !c.is_empty()) else {
        return fail(
            "invalid_request",
            "bad_oauth_callback",
            &format!("{} sent no authorization code.", provider.label),
        );
    };
    let person = match provider
        .exchange(
            Callback {
                code,
                nonce: signed.nonce.as_deref(),
                apple_user: params.user.as_deref(),
            },
            &callback_url(state),
        )
        .await
    {
        Ok(person) => person,
        Err(err) => {
            tracing::warn!(provider = %provider.name, error = %err, "sign-in by provider failed");
            let label = &provider.label;
            return match err {
                IdentityError::Unavailable(_) => fail(
                    "server_error",
                    "provider_unavailable",
                    &format!("{label} could not be reached. Try again in a moment."),
                ),
                IdentityError::Refused(reason) => fail(
                    "invalid_request",
                    "bad_oauth_callback",
                    &format!("The sign-in with {label} could not be completed: {reason}."),
                ),
                IdentityError::InvalidToken(reason) => fail(
                    "invalid_request",
                    "bad_jwt",
                    &format!("The sign-in with {label} could not be verified: {reason}."),
                ),
            };
        }
    };
    let result: AuthResult<String> = async {
        let outcome = external::resolve(
            state,
            &provider.name,
            &provider.label,
            &person,
            signed.linking,
            &signed.declared,
            client,
        )
        .await?;
        let user = match outcome {
            Outcome::SignIn(user) => user,
            Outcome::AwaitsConfirmation(user) => {
                super::signup::send_confirmation(state, &user, Some(&signed.referrer), None)
                    .await?;
                let label = &provider.label;
                return Err(AuthError::unprocessable(
                    "provider_email_needs_verification",
                    format!(
                        "Unverified email with {label}. A confirmation email has been sent to \
                         your {label} email"
                    ),
                ));
            }
        };
        if let Some(flow) = signed.flow {
            if crate::auth::users::is_banned(&user) {
                return Err(AuthError::bad_request("user_banned", "User is banned"));
            }
            let code = pkce::complete(&state.db, flow, user.id)
                .await?
                .ok_or_else(|| {
                    AuthError::unprocessable(
                        "flow_state_not_found",
                        "This sign-in was already completed. Please start the sign-in again.",
                    )
                })?;
            return Ok(with_query(
                &signed.referrer,
                &format!("code={}", otp::encode(&code)),
            ));
        }
        let tokens = sessions::sign_in(state, &user, "oauth", client).await?;
        let field = |name: &str| match &tokens[name] {
            Value::String(s) => otp::encode(s),
            other => other.to_string(),
        };
        let mut fragment = format!(
            "access_token={}&expires_at={}&expires_in={}&refresh_token={}&token_type=bearer",
            field("access_token"),
            field("expires_at"),
            field("expires_in"),
            field("refresh_token"),
        );
        if let Some(token) = &person.provider_token {
            fragment.push_str(&format!("&provider_token={}", otp::encode(token)));
        }
        if let Some(token) = &person.provider_refresh_token {
            fragment.push_str(&format!("&provider_refresh_token={}", otp::encode(token)));
        }
        Ok(with_fragment(&signed.referrer, &fragment))
    }
    .await;
    match result {
        Ok(location) => Redirect::to(&location).into_response(),
        Err(err) => fail(
            if err.status.is_server_error() {
                "server_error"
            } else {
                "access_denied"
            },
            err.code,
            &err.message,
        ),
    }
}

fn error_params(error: &str, code: &str, description: &str) -> String {
    format!(
        "error={}&error_code={}&error_description={}",
        otp::encode(error),
        otp::encode(code),
        otp::encode(description)
    )
}

/// `grant_type=id_token`: an ID token the app got from a native Google or
/// Apple sign-in, checked like the callback's, for a session.
pub(super) async fn id_token_grant(
    state: &AppState,
    client: &ClientInfo,
    body: &TokenBody,
) -> AuthResult<Value> {
    let named = body.provider.as_deref().unwrap_or_default();
    let provider = state
        .identity_providers
        .by_name_or_issuer(named)
        .ok_or_else(|| {
            AuthError::bad_request(
                "provider_disabled",
                format!("Provider (issuer \"{named}\") is not enabled"),
            )
        })?;
    let Some(id_token) = present(&body.id_token) else {
        return Err(AuthError::validation("id_token must be provided"));
    };
    let person = provider
        .verify_id_token(id_token, present(&body.nonce))
        .await
        .map_err(|err| match err {
            IdentityError::Unavailable(_) => unavailable(provider, &err),
            IdentityError::Refused(reason) => AuthError::bad_request("bad_oauth_callback", reason),
            IdentityError::InvalidToken(reason) => {
                AuthError::bad_request("bad_jwt", format!("The ID token is not valid: {reason}"))
            }
        })?;
    match external::resolve(
        state,
        &provider.name,
        &provider.label,
        &person,
        None,
        // GoTrue's grant carries no sign-up data: a new account is made as
        // GoTrue makes it, and asked its date at its first community feature.
        &Declared::default(),
        client,
    )
    .await?
    {
        Outcome::SignIn(user) => sessions::sign_in(state, &user, "id_token", client).await,
        Outcome::AwaitsConfirmation(user) => {
            super::signup::send_confirmation(state, &user, None, None).await?;
            Err(AuthError::unprocessable(
                "provider_email_needs_verification",
                format!(
                    "Unverified email with {label}. A confirmation email has been sent to your \
                     {label} email",
                    label = provider.label
                ),
            ))
        }
    }
}
