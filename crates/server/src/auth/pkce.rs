//! PKCE (docs/auth-compat.md §7): a flow state is kept when a mail flow starts with a
//! code challenge; the mail link then redirects with `?code=`, which
//! `grant_type=pkce` redeems once with the verifier.

use chrono::Utc;
use data_encoding::BASE64URL_NOPAD;
use sea_orm::{
    ActiveModelTrait, ColumnTrait, ConnectionTrait, EntityTrait, QueryFilter, QueryOrder, Set,
};
use sha2::{Digest, Sha256};
use subtle::ConstantTimeEq;
use uuid::Uuid;

use super::error::{AuthError, AuthResult};
use crate::db::entities::flow_states;

/// A flow state may be redeemed this long after its code was issued.
pub const FLOW_STATE_TTL_SECS: i64 = 300;

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Challenge {
    pub method: String,
    pub challenge: String,
}

/// Both or neither; 43–128 characters of `[A-Za-z0-9._~-]`; `s256` or `plain`.
pub fn parse(challenge: Option<&str>, method: Option<&str>) -> AuthResult<Option<Challenge>> {
    let challenge = challenge.filter(|c| !c.is_empty());
    let method = method.filter(|m| !m.is_empty());
    match (challenge, method) {
        (None, None) => Ok(None),
        (Some(challenge), Some(method)) => {
            let method = method.to_lowercase();
            if method != "s256" && method != "plain" {
                return Err(AuthError::validation(
                    "code challenge method not supported: use s256 or plain",
                ));
            }
            let valid_chars = challenge
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || matches!(c, '.' | '_' | '~' | '-'));
            if !(43..=128).contains(&challenge.len()) || !valid_chars {
                return Err(AuthError::validation(
                    "code challenge has to be between 43 and 128 characters of [A-Za-z0-9._~-]",
                ));
            }
            Ok(Some(Challenge {
                method,
                challenge: challenge.to_owned(),
            }))
        }
        _ => Err(AuthError::validation(
            "PKCE flow requires code_challenge_method and code_challenge",
        )),
    }
}

pub fn verifier_matches(method: &str, challenge: &str, verifier: &str) -> bool {
    let expected = match method {
        "s256" => BASE64URL_NOPAD.encode(&Sha256::digest(verifier.as_bytes())),
        _ => verifier.to_owned(),
    };
    expected.as_bytes().ct_eq(challenge.as_bytes()).into()
}

/// Records a flow state for `user_id` and the mail flow `method`
/// (`email/signup`, `recovery`, `magiclink`, `email_change`, `invite`).
pub async fn create(
    db: &impl ConnectionTrait,
    user_id: Uuid,
    method: &str,
    challenge: &Challenge,
) -> AuthResult<()> {
    let now = Utc::now();
    flow_states::ActiveModel {
        id: Set(Uuid::new_v4()),
        user_id: Set(Some(user_id)),
        auth_code: Set(Uuid::new_v4().to_string()),
        code_challenge_method: Set(challenge.method.clone()),
        code_challenge: Set(challenge.challenge.clone()),
        provider_type: Set("email".into()),
        authentication_method: Set(method.to_owned()),
        auth_code_issued_at: Set(None),
        created_at: Set(now),
        updated_at: Set(now),
    }
    .insert(db)
    .await?;
    Ok(())
}

/// Records the flow state of a sign-in through an outside provider, before
/// anyone is known; [`complete`] names the user when the provider answers.
pub async fn create_for_provider(
    db: &impl ConnectionTrait,
    provider: &str,
    challenge: &Challenge,
) -> AuthResult<Uuid> {
    let now = Utc::now();
    // Sign-ins abandoned at the provider leave their flow behind: each new
    // one clears those over a day old.
    flow_states::Entity::delete_many()
        .filter(flow_states::Column::AuthenticationMethod.eq("oauth"))
        .filter(flow_states::Column::CreatedAt.lt(now - chrono::Duration::days(1)))
        .exec(db)
        .await?;
    let id = Uuid::new_v4();
    flow_states::ActiveModel {
        id: Set(id),
        user_id: Set(None),
        auth_code: Set(Uuid::new_v4().to_string()),
        code_challenge_method: Set(challenge.method.clone()),
        code_challenge: Set(challenge.challenge.clone()),
        provider_type: Set(provider.to_owned()),
        authentication_method: Set("oauth".into()),
        auth_code_issued_at: Set(None),
        created_at: Set(now),
        updated_at: Set(now),
    }
    .insert(db)
    .await?;
    Ok(id)
}

/// The provider's callback for flow `id` names `user_id`: returns the auth
/// code for the redirect. A flow completes once; a replayed callback (the
/// same state again) finds it taken and gets `None`.
pub async fn complete(
    db: &impl ConnectionTrait,
    id: Uuid,
    user_id: Uuid,
) -> AuthResult<Option<String>> {
    use sea_orm::sea_query::Expr;
    let code = Uuid::new_v4().to_string();
    let now = Utc::now();
    let taken = flow_states::Entity::update_many()
        .col_expr(flow_states::Column::UserId, Expr::value(Some(user_id)))
        .col_expr(flow_states::Column::AuthCode, Expr::value(code.clone()))
        .col_expr(
            flow_states::Column::AuthCodeIssuedAt,
            Expr::value(Some(now)),
        )
        .col_expr(flow_states::Column::UpdatedAt, Expr::value(now))
        .filter(flow_states::Column::Id.eq(id))
        .filter(flow_states::Column::UserId.is_null())
        .filter(flow_states::Column::AuthenticationMethod.eq("oauth"))
        .exec(db)
        .await?
        .rows_affected;
    Ok((taken == 1).then_some(code))
}

/// After a mail link was verified: the newest flow state of the user for
/// `method` gets a fresh auth code, returned for the redirect.
pub async fn issue_code(
    db: &impl ConnectionTrait,
    user_id: Uuid,
    method: &str,
) -> AuthResult<Option<String>> {
    let Some(flow) = flow_states::Entity::find()
        .filter(flow_states::Column::UserId.eq(user_id))
        .filter(flow_states::Column::AuthenticationMethod.eq(method))
        .order_by_desc(flow_states::Column::CreatedAt)
        .one(db)
        .await?
    else {
        return Ok(None);
    };
    let code = Uuid::new_v4().to_string();
    let mut active: flow_states::ActiveModel = flow.into();
    active.auth_code = Set(code.clone());
    active.auth_code_issued_at = Set(Some(Utc::now()));
    active.updated_at = Set(Utc::now());
    active.update(db).await?;
    Ok(Some(code))
}

/// Redeems an auth code: checks it is known, fresh and matches the verifier,
/// and deletes it. Returns the user id and the flow's method.
pub async fn redeem(
    db: &impl ConnectionTrait,
    auth_code: &str,
    verifier: &str,
) -> AuthResult<(Uuid, String)> {
    let flow = flow_states::Entity::find()
        .filter(flow_states::Column::AuthCode.eq(auth_code))
        .one(db)
        .await?
        .ok_or_else(|| {
            AuthError::not_found(
                "flow_state_not_found",
                "invalid flow state, no valid flow state found",
            )
        })?;
    let issued = flow.auth_code_issued_at.unwrap_or(flow.created_at);
    if issued + chrono::Duration::seconds(FLOW_STATE_TTL_SECS) < Utc::now() {
        flow_states::Entity::delete_by_id(flow.id).exec(db).await?;
        return Err(AuthError::unprocessable(
            "flow_state_expired",
            "invalid flow state, flow state has expired",
        ));
    }
    if !verifier_matches(&flow.code_challenge_method, &flow.code_challenge, verifier) {
        return Err(AuthError::bad_request(
            "bad_code_verifier",
            "code challenge does not match previously saved code verifier",
        ));
    }
    // Two requests with the same code: only the one that deletes it wins.
    let taken = flow_states::Entity::delete_by_id(flow.id)
        .exec(db)
        .await?
        .rows_affected;
    if taken != 1 {
        return Err(AuthError::not_found(
            "flow_state_not_found",
            "invalid flow state, no valid flow state found",
        ));
    }
    let user_id = flow.user_id.ok_or_else(|| {
        AuthError::not_found("flow_state_not_found", "invalid flow state, no user")
    })?;
    Ok((user_id, flow.authentication_method))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn s256_matches_the_rfc_7636_example() {
        let verifier = "dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk";
        let challenge = "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM";
        assert!(verifier_matches("s256", challenge, verifier));
        assert!(!verifier_matches("s256", challenge, "another-verifier"));
        assert!(verifier_matches("plain", verifier, verifier));
    }

    #[test]
    fn challenge_and_method_come_together_and_are_checked() {
        let c = "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM";
        assert_eq!(parse(None, None).unwrap(), None);
        assert_eq!(
            parse(Some(c), Some("S256")).unwrap().unwrap().method,
            "s256"
        );
        assert!(parse(Some(c), None).is_err());
        assert!(parse(Some("short"), Some("s256")).is_err());
        assert!(parse(Some(c), Some("md5")).is_err());
    }
}
