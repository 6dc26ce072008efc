//! MFA (docs/auth-compat.md §7): enrol, challenge, verify (the session becomes
//! aal2), unenrol, for TOTP apps and for WebAuthn security keys and
//! passkeys (`webauthn`). Phone factors answer GoTrue's "not enabled" error.

pub mod webauthn;

use chrono::Utc;
use data_encoding::BASE32_NOPAD;
use hmac::{Hmac, Mac};
use qrcode::QrCode;
use qrcode::render::svg;
use rand::RngCore;
use sea_orm::{
    ActiveModelTrait, ColumnTrait, EntityTrait, PaginatorTrait, QueryFilter, Set, TransactionTrait,
};
use serde::Deserialize;
use serde_json::{Value, json};
use sha1::Sha1;
use uuid::Uuid;

use super::error::{AuthError, AuthResult};
use super::extract::{AuthJson, Bearer};
use super::notices::Change;
use super::reply::{ok, site_url};
use super::{rate_limit, sessions as session_rules};
use crate::db::entities::{mfa_challenges, mfa_factors, sessions};
use crate::http::AppState;
use crate::http::extract::ClientInfo;
use axum::extract::{Path, State};
use axum::response::Response;

pub const CHALLENGE_TTL_SECS: i64 = 300;
pub const UNVERIFIED_FACTOR_TTL_SECS: i64 = 300;
pub const MAX_FACTORS: u64 = 10;
const STEP_SECS: u64 = 30;

/// The RFC 6238 code (SHA-1, 6 digits, 30 s) of `secret` at `unix` seconds.
pub fn totp(secret: &[u8], unix: u64) -> String {
    let counter = unix / STEP_SECS;
    let mut mac = Hmac::<Sha1>::new_from_slice(secret).expect("HMAC takes any key");
    mac.update(&counter.to_be_bytes());
    let digest = mac.finalize().into_bytes();
    let offset = (digest[19] & 0x0f) as usize;
    let binary = u32::from_be_bytes([
        digest[offset] & 0x7f,
        digest[offset + 1],
        digest[offset + 2],
        digest[offset + 3],
    ]);
    format!("{:06}", binary % 1_000_000)
}

/// Accepts the code of the current step and of one step either side.
pub fn totp_matches(secret_base32: &str, code: &str, unix: u64) -> bool {
    let Ok(secret) = BASE32_NOPAD.decode(secret_base32.as_bytes()) else {
        return false;
    };
    let code = code.trim();
    [unix.saturating_sub(STEP_SECS), unix, unix + STEP_SECS]
        .iter()
        .any(|&at| {
            subtle::ConstantTimeEq::ct_eq(totp(&secret, at).as_bytes(), code.as_bytes()).into()
        })
}

fn qr_svg(uri: &str) -> AuthResult<String> {
    let code = QrCode::new(uri.as_bytes())
        .map_err(|err| AuthError::internal(anyhow::anyhow!("QR code: {err}")))?;
    let markup = code
        .render::<svg::Color>()
        .min_dimensions(200, 200)
        .quiet_zone(true)
        .build();
    // Raw `<svg …>` markup, as GoTrue sends (the client makes a data URL of it).
    Ok(match markup.find("<svg") {
        Some(start) => markup[start..].to_owned(),
        None => markup,
    })
}

/// Whether the user has a second factor (their sessions may reach aal2).
pub async fn has_verified_factor(state: &AppState, user_id: Uuid) -> AuthResult<bool> {
    Ok(mfa_factors::Entity::find()
        .filter(mfa_factors::Column::UserId.eq(user_id))
        .filter(mfa_factors::Column::Status.eq("verified"))
        .count(&state.db)
        .await?
        > 0)
}

fn factor_not_found() -> AuthError {
    AuthError::not_found("mfa_factor_not_found", "Factor not found")
}

async fn limit(state: &AppState, client: &ClientInfo) -> AuthResult<()> {
    rate_limit::hit(
        &state.db,
        &format!("mfa:{}", client.rate_key()),
        60,
        state.config.auth.rate_limits.mfa_per_minute,
        AuthError::rate_limited,
    )
    .await
}

#[derive(Debug, Default, Deserialize)]
#[serde(default)]
pub struct EnrollBody {
    pub factor_type: Option<String>,
    pub friendly_name: Option<String>,
    pub issuer: Option<String>,
    pub phone: Option<String>,
}

pub async fn enroll(
    State(state): State<AppState>,
    bearer: Bearer,
    AuthJson(body): AuthJson<EnrollBody>,
) -> AuthResult<Response> {
    let user = &bearer.user;
    if user.is_anonymous {
        return Err(AuthError::forbidden(
            "not_admin",
            "Anonymous users cannot enroll MFA factors",
        ));
    }
    let factor_type = match body.factor_type.as_deref() {
        Some(kind @ ("totp" | "webauthn")) => kind,
        Some("phone") => {
            return Err(AuthError::unprocessable(
                "mfa_phone_enroll_not_enabled",
                "MFA enroll is disabled for Phone",
            ));
        }
        _ => {
            return Err(AuthError::bad_request(
                "validation_failed",
                "factor_type needs to be totp, phone or webauthn",
            ));
        }
    };
    // Unverified factors expire; clean them up first.
    mfa_factors::Entity::delete_many()
        .filter(mfa_factors::Column::UserId.eq(user.id))
        .filter(mfa_factors::Column::Status.eq("unverified"))
        .filter(
            mfa_factors::Column::CreatedAt
                .lt(Utc::now() - chrono::Duration::seconds(UNVERIFIED_FACTOR_TTL_SECS)),
        )
        .exec(&state.db)
        .await?;
    let factors = mfa_factors::Entity::find()
        .filter(mfa_factors::Column::UserId.eq(user.id))
        .all(&state.db)
        .await?;
    if factors.len() as u64 >= MAX_FACTORS {
        return Err(AuthError::unprocessable(
            "too_many_enrolled_mfa_factors",
            "Maximum number of verified factors reached, unenroll to continue",
        ));
    }
    if factors.iter().any(|f| f.status == "verified") && bearer.aal() != "aal2" {
        return Err(AuthError::unprocessable(
            "insufficient_aal",
            "AAL2 required to enroll a new factor",
        ));
    }
    let friendly_name = body.friendly_name.clone().filter(|n| !n.trim().is_empty());
    if let Some(name) = &friendly_name
        && factors
            .iter()
            .any(|f| f.friendly_name.as_deref() == Some(name))
    {
        return Err(AuthError::unprocessable(
            "mfa_factor_name_conflict",
            format!("A factor with the friendly name \"{name}\" for this user already exists"),
        ));
    }
    if factor_type == "webauthn" {
        let factor =
            insert_factor(&state, user.id, "webauthn", friendly_name.clone(), None).await?;
        return Ok(ok(json!({
            "id": factor.id,
            "type": "webauthn",
            "friendly_name": friendly_name.unwrap_or_default(),
        })));
    }
    let issuer = body
        .issuer
        .clone()
        .filter(|i| !i.trim().is_empty())
        .unwrap_or_else(|| default_issuer(&site_url(&state)));
    let account = user
        .email
        .clone()
        .or_else(|| user.phone.clone())
        .unwrap_or_default();
    let mut seed = [0u8; 20];
    rand::rngs::OsRng.fill_bytes(&mut seed);
    let secret = BASE32_NOPAD.encode(&seed);
    let uri = format!(
        "otpauth://totp/{}:{}?secret={secret}&issuer={}&algorithm=SHA1&digits=6&period=30",
        urlencode_path(&issuer),
        urlencode_path(&account),
        super::otp::encode(&issuer)
    );
    let factor = insert_factor(
        &state,
        user.id,
        "totp",
        friendly_name.clone(),
        Some(secret.clone()),
    )
    .await?;
    Ok(ok(json!({
        "id": factor.id,
        "type": "totp",
        "friendly_name": friendly_name.unwrap_or_default(),
        "totp": {
            "qr_code": qr_svg(&uri)?,
            "secret": secret,
            "uri": uri,
        },
    })))
}

/// A new unverified factor; its first verified challenge verifies it.
async fn insert_factor(
    state: &AppState,
    user_id: Uuid,
    factor_type: &str,
    friendly_name: Option<String>,
    secret: Option<String>,
) -> AuthResult<mfa_factors::Model> {
    let now = Utc::now();
    mfa_factors::ActiveModel {
        id: Set(Uuid::new_v4()),
        user_id: Set(user_id),
        friendly_name: Set(friendly_name),
        factor_type: Set(factor_type.into()),
        status: Set("unverified".into()),
        secret: Set(secret),
        phone: Set(None),
        last_challenged_at: Set(None),
        created_at: Set(now),
        updated_at: Set(now),
        web_authn_credential: Set(None),
    }
    .insert(&state.db)
    .await
    .map_err(
        |err| match crate::db::constraints::violated_constraint(&err) {
            Some(_) => AuthError::unprocessable(
                "mfa_factor_name_conflict",
                "A factor with this friendly name for this user already exists",
            ),
            None => AuthError::from(err),
        },
    )
}

fn default_issuer(site_url: &str) -> String {
    url::Url::parse(site_url)
        .ok()
        .and_then(|u| u.host_str().map(str::to_owned))
        .unwrap_or_else(|| "PrettyScore".into())
}

fn urlencode_path(value: &str) -> String {
    super::otp::encode(value).replace('+', "%20")
}

async fn own_factor(state: &AppState, bearer: &Bearer, id: &str) -> AuthResult<mfa_factors::Model> {
    let id: Uuid = id.parse().map_err(|_| factor_not_found())?;
    mfa_factors::Entity::find_by_id(id)
        .one(&state.db)
        .await?
        .filter(|f| f.user_id == bearer.user.id)
        .ok_or_else(factor_not_found)
}

pub async fn challenge(
    State(state): State<AppState>,
    bearer: Bearer,
    client: ClientInfo,
    Path(id): Path<String>,
    AuthJson(_body): AuthJson<Value>,
) -> AuthResult<Response> {
    limit(&state, &client).await?;
    let factor = own_factor(&state, &bearer, &id).await?;
    let (ceremony, options) = match factor.factor_type.as_str() {
        "totp" => (None, None),
        "webauthn" => {
            let (ceremony, options) = webauthn::start(&state, &bearer.user, &factor).await?;
            (Some(ceremony), Some(options))
        }
        _ => return Err(AuthError::sms_unavailable()),
    };
    let now = Utc::now();
    let challenge = mfa_challenges::ActiveModel {
        id: Set(Uuid::new_v4()),
        factor_id: Set(factor.id),
        ip_address: Set(client.ip.clone()),
        otp_code: Set(None),
        verified_at: Set(None),
        created_at: Set(now),
        web_authn_session_data: Set(ceremony),
    }
    .insert(&state.db)
    .await?;
    let factor_type = factor.factor_type.clone();
    let mut active: mfa_factors::ActiveModel = factor.into();
    active.last_challenged_at = Set(Some(now));
    active.update(&state.db).await?;
    let mut response = json!({
        "id": challenge.id,
        "type": factor_type,
        "expires_at": (now + chrono::Duration::seconds(CHALLENGE_TTL_SECS)).timestamp(),
    });
    if let Some(options) = options {
        response["webauthn"] = options;
    }
    Ok(ok(response))
}

#[derive(Debug, Default, Deserialize)]
#[serde(default)]
pub struct VerifyBody {
    pub challenge_id: Option<String>,
    pub code: Option<String>,
    pub webauthn: Option<webauthn::VerifyParams>,
}

pub async fn verify(
    State(state): State<AppState>,
    bearer: Bearer,
    client: ClientInfo,
    Path(id): Path<String>,
    AuthJson(body): AuthJson<VerifyBody>,
) -> AuthResult<Response> {
    limit(&state, &client).await?;
    let factor = own_factor(&state, &bearer, &id).await?;
    let assertion = match factor.factor_type.as_str() {
        "webauthn" => Some(webauthn::VerifyParams::require(body.webauthn.as_ref())?),
        _ => None,
    };
    let Some(session) = bearer.session.clone() else {
        return Err(AuthError::forbidden(
            "session_not_found",
            "A session is required to verify a factor",
        ));
    };
    let challenge_not_found =
        || AuthError::not_found("mfa_challenge_not_found", "Challenge not found");
    let challenge_id: Uuid = body
        .challenge_id
        .as_deref()
        .and_then(|c| c.parse().ok())
        .ok_or_else(challenge_not_found)?;
    let challenge = mfa_challenges::Entity::find_by_id(challenge_id)
        .one(&state.db)
        .await?
        .filter(|c| c.factor_id == factor.id && c.verified_at.is_none())
        .ok_or_else(challenge_not_found)?;
    if challenge.created_at + chrono::Duration::seconds(CHALLENGE_TTL_SECS) < Utc::now() {
        mfa_challenges::Entity::delete_by_id(challenge.id)
            .exec(&state.db)
            .await?;
        return Err(AuthError::unprocessable(
            "mfa_challenge_expired",
            "Challenge has expired, verify against another challenge or create a new challenge.",
        ));
    }
    if challenge.ip_address != client.ip {
        return Err(AuthError::unprocessable(
            "mfa_ip_address_mismatch",
            "Challenge and verify IP addresses mismatch.",
        ));
    }
    // The factor's WebAuthn credential after this ceremony (new, or with its
    // counter moved on).
    let credential = match assertion {
        Some((kind, response)) => {
            Some(webauthn::finish(&state, &factor, &challenge, kind, response).await?)
        }
        None => {
            let code = body.code.unwrap_or_default();
            let secret = factor.secret.clone().unwrap_or_default();
            if !totp_matches(&secret, &code, Utc::now().timestamp() as u64) {
                return Err(AuthError::unprocessable(
                    "mfa_verification_failed",
                    "Invalid TOTP code entered",
                ));
            }
            None
        }
    };
    let method = if credential.is_some() {
        "mfa/webauthn"
    } else {
        "totp"
    };

    let txn = state.db.begin().await?;
    // Consume the challenge; a second verify with it finds nothing.
    let consumed = mfa_challenges::Entity::delete_by_id(challenge.id)
        .exec(&txn)
        .await?;
    if consumed.rows_affected == 0 {
        return Err(challenge_not_found());
    }
    let now = Utc::now();
    if factor.status == "verified"
        && let (Some(new), Some(old)) = (&credential, factor.web_authn_credential.as_deref())
    {
        // A verified key's count moves forward in this one conditional
        // update: the stored credential must still be the one the answer was
        // checked against, so of answers carrying the same count (a cloned
        // key) exactly one raises a session.
        let moved = mfa_factors::Entity::update_many()
            .col_expr(
                mfa_factors::Column::WebAuthnCredential,
                sea_orm::sea_query::Expr::value(new.clone()),
            )
            .col_expr(
                mfa_factors::Column::UpdatedAt,
                sea_orm::sea_query::Expr::value(now),
            )
            .filter(mfa_factors::Column::Id.eq(factor.id))
            .filter(mfa_factors::Column::WebAuthnCredential.eq(old))
            .exec(&txn)
            .await?;
        if moved.rows_affected == 0 {
            return Err(AuthError::unprocessable(
                "mfa_verification_failed",
                "The security key's answer could not be verified",
            ));
        }
    } else if factor.status != "verified" || credential.is_some() {
        let mut active: mfa_factors::ActiveModel = factor.clone().into();
        active.status = Set("verified".into());
        if credential.is_some() {
            active.web_authn_credential = Set(credential);
        }
        active.updated_at = Set(now);
        active.update(&txn).await?;
    }
    if factor.status != "verified" {
        mfa_factors::Entity::delete_many()
            .filter(mfa_factors::Column::UserId.eq(bearer.user.id))
            .filter(mfa_factors::Column::Status.eq("unverified"))
            .exec(&txn)
            .await?;
    }
    let mut active: sessions::ActiveModel = session.into();
    active.aal = Set("aal2".into());
    active.factor_id = Set(Some(factor.id));
    active.updated_at = Set(now);
    let session = active.update(&txn).await?;
    session_rules::add_amr(&txn, session.id, method).await?;
    let response = session_rules::reissue(&state, &txn, &bearer.user, &session).await?;
    txn.commit().await?;
    crate::db::audit::record(
        &state.db,
        "mfa_code_login",
        Some(bearer.user.id),
        bearer.user.email.as_deref(),
        &client.ip,
        json!({"factor_id": factor.id, "session_id": session.id}),
    )
    .await;
    if factor.status != "verified" {
        notify_factor(&state, &bearer.user, &factor, Change::FactorAdded, &client).await;
    }
    Ok(ok(response))
}

pub async fn unenroll(
    State(state): State<AppState>,
    bearer: Bearer,
    client: ClientInfo,
    Path(id): Path<String>,
) -> AuthResult<Response> {
    let factor = own_factor(&state, &bearer, &id).await?;
    if factor.status == "verified" && bearer.aal() != "aal2" {
        return Err(AuthError::unprocessable(
            "insufficient_aal",
            "AAL2 required to unenroll verified factor",
        ));
    }
    delete_factor(&state, &factor).await?;
    crate::db::audit::record(
        &state.db,
        "factor_unenrolled",
        Some(bearer.user.id),
        bearer.user.email.as_deref(),
        "",
        json!({"factor_id": factor.id}),
    )
    .await;
    if factor.status == "verified" {
        notify_factor(
            &state,
            &bearer.user,
            &factor,
            Change::FactorRemoved,
            &client,
        )
        .await;
    }
    Ok(ok(json!({ "id": factor.id })))
}

/// Tells the owner a verified factor came or went (unverified ones were
/// never a way in). The mail names the factor by its name or type.
pub async fn notify_factor(
    state: &AppState,
    user: &crate::db::entities::users::Model,
    factor: &mfa_factors::Model,
    change: Change,
    client: &ClientInfo,
) {
    let kind = match factor.factor_type.as_str() {
        "webauthn" => "security key",
        _ => "authenticator app",
    };
    let detail = match factor.friendly_name.as_deref().filter(|n| !n.is_empty()) {
        Some(name) => format!("{kind} \"{name}\""),
        None => kind.to_owned(),
    };
    super::notices::notify(state, user, change, Some(&detail), client).await;
}

/// Deletes a factor; sessions it raised to aal2 fall back to aal1 when no
/// other verified factor remains.
pub async fn delete_factor(state: &AppState, factor: &mfa_factors::Model) -> AuthResult<()> {
    let txn = state.db.begin().await?;
    mfa_factors::Entity::delete_by_id(factor.id)
        .exec(&txn)
        .await?;
    let remaining = mfa_factors::Entity::find()
        .filter(mfa_factors::Column::UserId.eq(factor.user_id))
        .filter(mfa_factors::Column::Status.eq("verified"))
        .count(&txn)
        .await?;
    if remaining == 0 {
        sessions::Entity::update_many()
            .col_expr(
                sessions::Column::Aal,
                sea_orm::sea_query::Expr::value("aal1"),
            )
            .filter(sessions::Column::UserId.eq(factor.user_id))
            .exec(&txn)
            .await?;
    }
    txn.commit().await?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn totp_matches_the_rfc_6238_sha1_vectors() {
        let secret = b"12345678901234567890";
        // RFC 6238 appendix B gives 8 digits; the last 6 are the 6-digit code.
        assert_eq!(totp(secret, 59), "287082");
        assert_eq!(totp(secret, 1111111109), "081804");
        assert_eq!(totp(secret, 20000000000), "353130");
    }

    #[test]
    fn a_code_is_accepted_one_step_either_side_only() {
        let secret = BASE32_NOPAD.encode(b"12345678901234567890");
        let code = totp(b"12345678901234567890", 1111111109);
        assert!(totp_matches(&secret, &code, 1111111109));
        assert!(totp_matches(&secret, &code, 1111111109 + 30));
        assert!(!totp_matches(&secret, &code, 1111111109 + 90));
    }

    #[test]
    fn the_qr_code_is_raw_svg() {
        let svg = qr_svg("otpauth://totp/x:y?secret=AAAA").unwrap();
        assert!(svg.starts_with("<svg"), "{}", &svg[..40]);
    }
}
