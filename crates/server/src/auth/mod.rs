//! The GoTrue-compatible auth service under `/auth/v1` (see
//! `docs/auth-compat.md`), driven by the official `@supabase/auth-js` client,
//! and the account endpoints under `/api/v1/account`.
//!
//! - `handlers`: sign-up, sign-in grants, sign-out, the user, mail flows;
//! - `sessions`: sessions, refresh-token rotation and the token response;
//! - `users`: user queries and the User object; `otp`: one-time codes and
//!   mail links; `pkce`: flow states; `mfa`: TOTP and WebAuthn factors;
//!   `passkeys`: sign-in with a passkey; `webauthn`: the relying party and
//!   ceremony states of both; `admin`: the admin
//!   API; `password`: the policy and argon2id (signing keys and JWTs are
//!   `crate::tokens`, the tables' models `crate::db::entities`);
//!   `rate_limit`: database-backed counters; `extract`: the auth API's
//!   bearer-token extractors (`/api` and `/functions` use `http::extract`);
//!   `account`: export and deletion of one's own account; `community`: the
//!   date of birth, the terms accepted and reserved display names, which the
//!   community gate (`http::extract::CommunityMember`) reads.

pub mod account;
pub mod admin;
pub mod cli;
pub mod community;
pub mod error;
pub mod external;
pub mod extract;
pub mod handlers;
pub mod mfa;
pub mod notices;
pub mod otp;
pub mod passkeys;
pub mod password;
pub mod pkce;
pub mod rate_limit;
pub mod reply;
pub mod sessions;
pub mod users;
pub mod webauthn;

use axum::Router;
use axum::http::{HeaderName, Method, header};
use axum::routing::{any, delete, get, post};
use tower_http::cors::{AllowOrigin, CorsLayer};
use tower_http::limit::RequestBodyLimitLayer;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use crate::http::AppState;
use reply::site_url;

/// `scheme://host[:port]` of a URL or URL pattern, lower-cased.
fn origin_of(url: &str) -> Option<String> {
    let (scheme, rest) = url.trim().split_once("://")?;
    let host = rest.split(['/', '?', '#']).next()?;
    (!scheme.is_empty() && !host.is_empty())
        .then(|| format!("{scheme}://{host}").to_ascii_lowercase())
}

/// Whether `origin` matches an allowed origin, where `*` in the allowed one
/// stands for one host label or port (`https://*.example.com`).
fn origin_matches(origin: &str, allowed: &str) -> bool {
    match allowed.split_once('*') {
        None => origin == allowed,
        Some((before, after)) => {
            let after = after.trim_start_matches('*');
            origin.len() >= before.len() + after.len()
                && origin.starts_with(before)
                && origin.ends_with(after)
                && !origin[before.len()..origin.len() - after.len()].contains(['/', '.', ':'])
        }
    }
}

/// The origins a browser may call `/auth/v1` from: the site URL, the
/// server's own address and the origins of the redirect allow-list. Any
/// other origin (and `null`, the origin of sandboxed frames and files) gets
/// no CORS headers, so its pages cannot read the answers.
pub fn allowed_origins(state: &AppState) -> Vec<String> {
    let mut origins: Vec<String> = [site_url(state), state.base_url.clone()]
        .iter()
        .chain(&state.config.auth.redirect_allow_list)
        .filter_map(|url| origin_of(url))
        .collect();
    origins.sort();
    origins.dedup();
    origins
}

/// GoTrue's CORS headers for the browser client, for the allowed origins only.
fn cors(state: &AppState) -> CorsLayer {
    let origins = allowed_origins(state);
    CorsLayer::new()
        .allow_origin(AllowOrigin::predicate(move |origin, _| {
            origin.to_str().is_ok_and(|origin| {
                let origin = origin.to_ascii_lowercase();
                origins
                    .iter()
                    .any(|allowed| origin_matches(&origin, allowed))
            })
        }))
        .allow_methods([
            Method::GET,
            Method::POST,
            Method::PUT,
            Method::PATCH,
            Method::DELETE,
            Method::OPTIONS,
        ])
        .allow_headers([
            header::AUTHORIZATION,
            header::CONTENT_TYPE,
            HeaderName::from_static("apikey"),
            HeaderName::from_static("x-client-info"),
            HeaderName::from_static("x-supabase-api-version"),
        ])
        .expose_headers([
            HeaderName::from_static("x-supabase-api-version"),
            HeaderName::from_static("x-total-count"),
            header::LINK,
        ])
        .allow_credentials(true)
        .max_age(std::time::Duration::from_secs(3600))
}

/// A known path with a method it does not take: 405 in GoTrue's shape
/// (axum still adds the `Allow` header).
async fn method_not_allowed(method: Method) -> error::AuthError {
    error::AuthError::new(
        axum::http::StatusCode::METHOD_NOT_ALLOWED,
        "method_not_allowed",
        format!("This endpoint does not take {method} requests."),
    )
}

/// The largest body the auth API reads.
pub const MAX_BODY_BYTES: usize = 1024 * 1024;

/// The body limit answers a declared oversize body with a plain-text 413;
/// clients get GoTrue's JSON shape instead.
async fn too_large_as_json(response: axum::response::Response) -> axum::response::Response {
    use axum::response::IntoResponse;
    let json = response
        .headers()
        .get(header::CONTENT_TYPE)
        .is_some_and(|value| value.as_bytes().starts_with(b"application/json"));
    if response.status() == axum::http::StatusCode::PAYLOAD_TOO_LARGE && !json {
        return error::AuthError::new(
            axum::http::StatusCode::PAYLOAD_TOO_LARGE,
            "request_too_large",
            error::BODY_TOO_LARGE,
        )
        .into_response();
    }
    response
}

/// GoTrue's request timeout: 10 s, then a retryable 504.
pub const REQUEST_TIMEOUT: std::time::Duration = std::time::Duration::from_secs(10);

async fn time_limit(
    request: axum::extract::Request,
    next: axum::middleware::Next,
) -> axum::response::Response {
    use axum::response::IntoResponse;
    match tokio::time::timeout(REQUEST_TIMEOUT, next.run(request)).await {
        Ok(response) => response,
        Err(_) => error::AuthError::new(
            axum::http::StatusCode::GATEWAY_TIMEOUT,
            "request_timeout",
            "Processing this request timed out, please retry after a moment.",
        )
        .into_response(),
    }
}

/// Refuses a path or query with a refused character (`http::text`) in
/// GoTrue's shape, and marks every answer `Cache-Control: no-store` unless it
/// says otherwise: tokens and users must not be kept by caches.
async fn edge(
    request: axum::extract::Request,
    next: axum::middleware::Next,
) -> axum::response::Response {
    use axum::response::IntoResponse;
    if let Err(err) = crate::http::text::check_uri(request.uri()) {
        return error::AuthError::from(err).into_response();
    }
    let mut response = next.run(request).await;
    response
        .headers_mut()
        .entry(header::CACHE_CONTROL)
        .or_insert(axum::http::HeaderValue::from_static("no-store"));
    response
}

/// The `/auth/v1` routes (nested by `app::router`).
pub fn routes(state: &AppState) -> Router<AppState> {
    use handlers as h;
    Router::new()
        .route("/health", get(h::health))
        .route("/settings", get(h::settings))
        .route("/.well-known/jwks.json", get(h::jwks))
        .route("/signup", post(h::signup))
        .route("/token", post(h::token))
        .route("/logout", post(h::logout))
        .route("/user", get(h::get_user).put(h::update_user))
        .route("/recover", post(h::recover))
        .route("/otp", post(h::otp))
        .route("/verify", post(h::verify_post).get(h::verify_get))
        .route("/resend", post(h::resend))
        .route("/reauthenticate", get(h::reauthenticate))
        .route("/user/identities/{id}", delete(h::unlink_identity))
        .route("/user/identities/authorize", get(h::link_identity))
        .route("/authorize", get(h::authorize))
        .route("/callback", get(h::callback_get).post(h::callback_post))
        .route("/sso", post(h::sso))
        .route("/factors", post(mfa::enroll))
        .route("/factors/{id}/challenge", post(mfa::challenge))
        .route("/factors/{id}/verify", post(mfa::verify))
        .route("/factors/{id}", delete(mfa::unenroll))
        .route(
            "/passkeys/registration/options",
            post(passkeys::registration_options),
        )
        .route(
            "/passkeys/registration/verify",
            post(passkeys::registration_verify),
        )
        .route(
            "/passkeys/authentication/options",
            post(passkeys::authentication_options),
        )
        .route(
            "/passkeys/authentication/verify",
            post(passkeys::authentication_verify),
        )
        .route("/passkeys", get(passkeys::list))
        .route(
            "/passkeys/{id}",
            axum::routing::patch(passkeys::update).delete(passkeys::delete),
        )
        .route("/invite", post(admin::invite))
        .route(
            "/admin/users",
            get(admin::list_users).post(admin::create_user),
        )
        .route(
            "/admin/users/{id}",
            get(admin::get_user)
                .put(admin::update_user)
                .delete(admin::delete_user),
        )
        .route("/admin/users/{id}/factors", get(admin::list_factors))
        .route(
            "/admin/users/{id}/factors/{factor_id}",
            delete(admin::delete_factor).put(admin::update_factor),
        )
        .route("/admin/users/{id}/passkeys", get(passkeys::admin_list))
        .route(
            "/admin/users/{id}/passkeys/{passkey_id}",
            delete(passkeys::admin_delete),
        )
        .route("/admin/generate_link", post(admin::generate_link))
        .route("/admin/oauth", any(h::admin_oauth))
        .route("/admin/oauth/{*rest}", any(h::admin_oauth))
        .route("/oauth/{*rest}", any(h::oauth_server_disabled))
        .route(
            "/.well-known/oauth-authorization-server",
            get(h::oauth_server_disabled),
        )
        .fallback(h::not_found)
        // Inside the CORS layer, so preflights still get their answer.
        .method_not_allowed_fallback(method_not_allowed)
        .layer(axum::middleware::from_fn(time_limit))
        .layer(axum::middleware::from_fn(edge))
        .layer(RequestBodyLimitLayer::new(MAX_BODY_BYTES))
        .layer(axum::middleware::map_response(too_large_as_json))
        .layer(cors(state))
}

/// `/account` (export, delete, date of birth, terms, standing), `/terms`
/// and the admin's date-of-birth correction, documented in the OpenAPI document; nested
/// under `/api/v1`.
pub fn api_routes() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(account::export))
        .routes(routes!(account::delete_account))
        .routes(routes!(notices::secure_account))
        .routes(routes!(community::current_terms))
        .routes(routes!(community::account_standing))
        .routes(routes!(community::declare_date_of_birth))
        .routes(routes!(community::accept_terms))
        .routes(routes!(community::correct_date_of_birth))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn origins_come_from_urls_and_patterns() {
        assert_eq!(
            origin_of("http://App.test/**").as_deref(),
            Some("http://app.test")
        );
        assert_eq!(
            origin_of("https://x.example.com:8443/cb?a=1").as_deref(),
            Some("https://x.example.com:8443")
        );
        assert_eq!(origin_of("/relative"), None);
    }

    #[test]
    fn a_wildcard_stands_for_one_label_only() {
        assert!(origin_matches(
            "https://a.example.com",
            "https://*.example.com"
        ));
        assert!(!origin_matches(
            "https://evil.com/.example.com",
            "https://*.example.com"
        ));
        assert!(!origin_matches(
            "https://a.b.example.com",
            "https://*.example.com"
        ));
        assert!(!origin_matches("null", "https://*.example.com"));
        assert!(origin_matches(
            "http://localhost:5173",
            "http://localhost:*"
        ));
        assert!(!origin_matches(
            "http://app.test.evil.com",
            "http://app.test"
        ));
    }
}
