//! WebAuthn as a second factor (GoTrue's `factor_type: webauthn`): a
//! security key or passkey proves the second step. An unverified factor's
//! challenge creates its credential ("create"); a verified one's asks for an
//! assertion with it ("request"). The ceremony's server half rides on the
//! MFA challenge row, so it is consumed with the challenge.

use serde::{Deserialize, Serialize};
use serde_json::{Value, json};
use webauthn_rs::prelude::{
    PublicKeyCredential, RegisterPublicKeyCredential, SecurityKey, SecurityKeyAuthentication,
    SecurityKeyRegistration,
};

use crate::auth::error::{AuthError, AuthResult};
use crate::auth::webauthn::{account_name, relying_party};
use crate::db::entities::{mfa_challenges, mfa_factors, users};
use crate::http::AppState;
use sea_orm::{ColumnTrait, EntityTrait, QueryFilter};

/// The server half of a factor's ceremony, kept on its challenge.
#[derive(Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
enum Ceremony {
    Create(SecurityKeyRegistration),
    Request(SecurityKeyAuthentication),
}

/// `webauthn` of a verify body; the client's `rpId` and `rpOrigins` are
/// ignored: the relying party is the server's configuration.
#[derive(Debug, Default, Deserialize)]
#[serde(default)]
pub struct VerifyParams {
    #[serde(rename = "type")]
    pub kind: Option<String>,
    pub credential_response: Option<Value>,
}

impl VerifyParams {
    /// The ceremony type and the authenticator's response, or GoTrue's 400.
    pub fn require(params: Option<&Self>) -> AuthResult<(String, Value)> {
        let invalid = |message: &'static str| AuthError::bad_request("validation_failed", message);
        let params = params.ok_or_else(|| invalid("WebAuthn config required"))?;
        let kind = params
            .kind
            .clone()
            .filter(|kind| kind == "create" || kind == "request")
            .ok_or_else(|| invalid("WebAuthn type must be create or request"))?;
        let response = params
            .credential_response
            .clone()
            .filter(|r| !r.is_null())
            .ok_or_else(|| invalid("credential_response required"))?;
        Ok((kind, response))
    }
}

fn stored_key(factor: &mfa_factors::Model) -> AuthResult<SecurityKey> {
    let record = factor.web_authn_credential.as_deref().ok_or_else(|| {
        AuthError::internal(anyhow::anyhow!(
            "verified WebAuthn factor without a credential"
        ))
    })?;
    serde_json::from_str(record).map_err(AuthError::internal)
}

/// Starts the factor's ceremony: the state to keep on the challenge and the
/// challenge answer's `webauthn` (`{type, credential_options: {publicKey}}`).
pub async fn start(
    state: &AppState,
    user: &users::Model,
    factor: &mfa_factors::Model,
) -> AuthResult<(String, Value)> {
    let rp = relying_party(state)?;
    let (kind, ceremony, options) = if factor.status == "verified" {
        let key = stored_key(factor)?;
        let (options, authentication) = rp
            .start_securitykey_authentication(&[key])
            .map_err(AuthError::internal)?;
        let options = serde_json::to_value(options).map_err(AuthError::internal)?;
        ("request", Ceremony::Request(authentication), options)
    } else {
        // The user's other keys are excluded, so one key is not added twice.
        let exclude = mfa_factors::Entity::find()
            .filter(mfa_factors::Column::UserId.eq(user.id))
            .filter(mfa_factors::Column::FactorType.eq("webauthn"))
            .filter(mfa_factors::Column::Status.eq("verified"))
            .all(&state.db)
            .await?
            .iter()
            .filter_map(|f| stored_key(f).ok())
            .map(|key| key.cred_id().clone())
            .collect::<Vec<_>>();
        let (options, registration) = rp
            .start_securitykey_registration(
                user.id,
                &account_name(user),
                &account_name(user),
                Some(exclude),
                None,
                None,
            )
            .map_err(AuthError::internal)?;
        let mut options = serde_json::to_value(options).map_err(AuthError::internal)?;
        // The library asks keys to require user verification for this
        // credential (credProtect) while it only prefers verification: Chrome
        // refuses that pair (NotSupportedError, "protection policy is
        // inconsistent"), so a key would never be added. Ask for no policy.
        if let Some(extensions) = options["publicKey"]["extensions"].as_object_mut() {
            extensions.remove("credentialProtectionPolicy");
            extensions.remove("enforceCredentialProtectionPolicy");
        }
        ("create", Ceremony::Create(registration), options)
    };
    let ceremony = serde_json::to_string(&ceremony).map_err(AuthError::internal)?;
    Ok((
        ceremony,
        json!({"type": kind, "credential_options": options}),
    ))
}

fn refused(err: impl std::fmt::Debug) -> AuthError {
    tracing::debug!("WebAuthn factor refused: {err:?}");
    AuthError::unprocessable(
        "mfa_verification_failed",
        "The security key's answer could not be verified",
    )
}

fn unreadable(err: impl std::fmt::Display) -> AuthError {
    tracing::debug!("unreadable WebAuthn credential_response: {err}");
    AuthError::bad_request("validation_failed", "Invalid credential_response")
}

/// Checks the authenticator's answer to `challenge`; answers the factor's
/// credential to keep (new for "create", its counter moved for "request").
pub async fn finish(
    state: &AppState,
    factor: &mfa_factors::Model,
    challenge: &mfa_challenges::Model,
    kind: String,
    response: Value,
) -> AuthResult<String> {
    let ceremony: Ceremony = challenge
        .web_authn_session_data
        .as_deref()
        .map(serde_json::from_str)
        .transpose()
        .map_err(AuthError::internal)?
        .ok_or_else(|| AuthError::not_found("mfa_challenge_not_found", "Challenge not found"))?;
    let rp = relying_party(state)?;
    let key = match (ceremony, kind.as_str()) {
        (Ceremony::Create(registration), "create") => {
            let credential: RegisterPublicKeyCredential =
                serde_json::from_value(response).map_err(unreadable)?;
            rp.finish_securitykey_registration(&credential, &registration)
                .map_err(refused)?
        }
        (Ceremony::Request(authentication), "request") => {
            let credential: PublicKeyCredential =
                serde_json::from_value(response).map_err(unreadable)?;
            let result = rp
                .finish_securitykey_authentication(&credential, &authentication)
                .map_err(refused)?;
            let mut key = stored_key(factor)?;
            // A counting key's count must pass the stored one (read after
            // another answer's commit, the challenge's copy is stale);
            // the caller's conditional update settles answers at once.
            if key.update_credential(&result) != Some(true) && result.counter() > 0 {
                return Err(refused("the signature count did not move forward"));
            }
            key
        }
        _ => {
            return Err(AuthError::bad_request(
                "validation_failed",
                "WebAuthn type does not match the challenge",
            ));
        }
    };
    serde_json::to_string(&key).map_err(AuthError::internal)
}
