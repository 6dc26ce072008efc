//! What this server offers: health, settings, the signing keys, and GoTrue's
//! answers for what it does not (the OAuth server, SAML).

use axum::extract::State;
use axum::http::{HeaderValue, header};
use axum::response::Response;
use serde_json::json;

use crate::auth::error::AuthError;
use crate::auth::reply::ok;
use crate::http::AppState;

pub async fn health() -> Response {
    ok(json!({
        "version": env!("CARGO_PKG_VERSION"),
        "name": "GoTrue",
        "description": "PrettyScore's GoTrue-compatible auth API",
    }))
}

pub async fn not_found() -> AuthError {
    AuthError::not_found("not_found", "Not found")
}

pub async fn settings(State(state): State<AppState>) -> Response {
    let auth = &state.config.auth;
    let mut external = json!({
        "anonymous_users": auth.anonymous_sign_ins,
        "email": true,
        "phone": state.sms.is_some(),
        "apple": false, "azure": false, "bitbucket": false, "discord": false,
        "facebook": false, "figma": false, "fly": false, "github": false,
        "gitlab": false, "google": false, "keycloak": false, "kakao": false,
        "linkedin_oidc": false, "notion": false, "slack_oidc": false,
        "spotify": false, "twitch": false, "twitter": false, "workos": false,
        "zoom": false, "saml": false, "web3": false,
    });
    // Our addition to GoTrue's answer: the name on each provider's button.
    let mut labels = serde_json::Map::new();
    for (name, label) in state.identity_providers.labels() {
        external[name] = json!(true);
        labels.insert(name.to_owned(), json!(label));
    }
    ok(json!({
        "external": external,
        "external_labels": labels,
        "disable_signup": auth.disable_signup,
        "mailer_autoconfirm": auth.autoconfirm(),
        "phone_autoconfirm": false,
        "sms_provider": match state.config.auth.sms.provider {
            crate::config::SmsProviderKind::Twilio => "twilio",
            crate::config::SmsProviderKind::Embedded => "embedded",
            crate::config::SmsProviderKind::None => "",
        },
        "saml_enabled": false,
        "mfa_enabled": true,
        // Off when passkeys are, or when no relying party can be worked out
        // (a site at a bare IP address without `auth.webauthn.rp_id`).
        "passkeys_enabled": auth.passkeys.enabled
            && crate::auth::webauthn::configured(&state).is_ok(),
    }))
}

pub async fn jwks(State(state): State<AppState>) -> Response {
    let mut response = ok(state.keys.jwks());
    response.headers_mut().insert(
        header::CACHE_CONTROL,
        HeaderValue::from_static("public, max-age=600"),
    );
    response
}

/// GoTrue's OAuth 2.1 server (`/oauth/*`, `/admin/oauth/*`) is not offered:
/// its answer when the server is disabled.
pub async fn oauth_server_disabled() -> AuthError {
    AuthError::not_found("feature_disabled", "OAuth server is disabled")
}

/// `/admin/oauth/*`: the admin check comes first, as in GoTrue.
pub async fn admin_oauth(_admin: super::super::extract::ServiceRole) -> AuthError {
    oauth_server_disabled().await
}

pub async fn sso() -> AuthError {
    AuthError::bad_request("saml_provider_disabled", "SAML 2.0 is disabled")
}
