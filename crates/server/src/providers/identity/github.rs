//! GitHub's OAuth 2 (it has no ID token): the code is redeemed for an access
//! token, and the person is read from its REST API, the email from
//! `/user/emails` (the profile's `email` is only the public one, often none).

use serde::Deserialize;
use serde_json::{Value, json};

use super::{IdentityError, OAuthErrorBody, ProviderUser, failed, unreachable};
use crate::config::GithubEndpoints;

#[derive(Debug, Deserialize)]
struct Profile {
    id: u64,
    login: String,
    #[serde(default)]
    name: Option<String>,
    #[serde(default)]
    email: Option<String>,
    #[serde(default)]
    avatar_url: Option<String>,
}

#[derive(Debug, Deserialize)]
struct Email {
    email: String,
    #[serde(default)]
    primary: bool,
    #[serde(default)]
    verified: bool,
}

pub async fn exchange(
    http: &reqwest::Client,
    endpoints: &GithubEndpoints,
    client_id: &str,
    client_secret: &str,
    code: &str,
    redirect_uri: &str,
) -> Result<ProviderUser, IdentityError> {
    let form = url::form_urlencoded::Serializer::new(String::new())
        .append_pair("client_id", client_id)
        .append_pair("client_secret", client_secret)
        .append_pair("code", code)
        .append_pair("redirect_uri", redirect_uri)
        .finish();
    let response = http
        .post(format!(
            "{}/login/oauth/access_token",
            endpoints.web_url.trim_end_matches('/')
        ))
        .header(reqwest::header::ACCEPT, "application/json")
        .header(
            reqwest::header::CONTENT_TYPE,
            "application/x-www-form-urlencoded",
        )
        .body(form)
        .send()
        .await
        .map_err(unreachable)?;
    let status = response.status();
    let body = response.bytes().await.map_err(unreachable)?;
    if !status.is_success() {
        return Err(failed(status, &body));
    }
    // GitHub answers a bad code with 200 and an OAuth error body.
    if let Ok(error) = serde_json::from_slice::<OAuthErrorBody>(&body) {
        return Err(IdentityError::Refused(error.describe()));
    }
    let token: Value = serde_json::from_slice(&body)
        .map_err(|err| IdentityError::Refused(format!("unreadable token answer: {err}")))?;
    let access_token = token
        .get("access_token")
        .and_then(Value::as_str)
        .ok_or_else(|| IdentityError::Refused("the token answer has no access token".into()))?
        .to_owned();

    let api = endpoints.api_url.trim_end_matches('/');
    let profile: Profile = get(http, &format!("{api}/user"), &access_token).await?;
    let emails: Vec<Email> = get(http, &format!("{api}/user/emails"), &access_token).await?;
    Ok(user(profile, &emails, access_token))
}

async fn get<T: serde::de::DeserializeOwned>(
    http: &reqwest::Client,
    url: &str,
    token: &str,
) -> Result<T, IdentityError> {
    let response = http
        .get(url)
        .bearer_auth(token)
        .header(reqwest::header::ACCEPT, "application/vnd.github+json")
        .header("X-GitHub-Api-Version", "2022-11-28")
        .send()
        .await
        .map_err(unreachable)?;
    let status = response.status();
    let body = response.bytes().await.map_err(unreachable)?;
    if !status.is_success() {
        return Err(failed(status, &body));
    }
    serde_json::from_slice(&body)
        .map_err(|err| IdentityError::Refused(format!("unreadable answer from GitHub: {err}")))
}

/// The primary address if GitHub verified it, else any verified one, else
/// the primary (unverified, so it links nothing).
fn user(profile: Profile, emails: &[Email], access_token: String) -> ProviderUser {
    let chosen = emails
        .iter()
        .find(|e| e.primary && e.verified)
        .or_else(|| emails.iter().find(|e| e.verified))
        .or_else(|| emails.iter().find(|e| e.primary));
    let (email, email_verified) = match chosen {
        Some(e) => (Some(e.email.to_lowercase()), e.verified),
        None => (profile.email.map(|e| e.to_lowercase()), false),
    };
    let subject = profile.id.to_string();
    let name = profile
        .name
        .filter(|n| !n.trim().is_empty())
        .unwrap_or_else(|| profile.login.clone());
    ProviderUser {
        identity_data: json!({
            "sub": subject,
            "provider_id": subject,
            "iss": "https://api.github.com",
            "email": email,
            "email_verified": email_verified,
            "name": name,
            "full_name": name,
            "user_name": profile.login,
            "preferred_username": profile.login,
            "avatar_url": profile.avatar_url,
        }),
        subject,
        email,
        email_verified,
        name: Some(name),
        avatar_url: profile.avatar_url,
        provider_token: Some(access_token),
        provider_refresh_token: None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn profile() -> Profile {
        Profile {
            id: 583231,
            login: "octocat".into(),
            name: None,
            email: Some("octocat@public.example".into()),
            avatar_url: None,
        }
    }

    fn email(address: &str, primary: bool, verified: bool) -> Email {
        Email {
            email: address.into(),
            primary,
            verified,
        }
    }

    #[test]
    fn the_verified_primary_address_wins() {
        let emails = [
            email("old@example.com", false, true),
            email("Main@Example.com", true, true),
        ];
        let user = user(profile(), &emails, "t".into());
        assert_eq!(user.email.as_deref(), Some("main@example.com"));
        assert!(user.email_verified);
        assert_eq!(user.subject, "583231");
        assert_eq!(user.name.as_deref(), Some("octocat"));
    }

    #[test]
    fn an_unverified_address_is_never_called_verified() {
        let user_with = |emails: &[Email]| user(profile(), emails, "t".into());
        let only_unverified = user_with(&[email("new@example.com", true, false)]);
        assert_eq!(only_unverified.email.as_deref(), Some("new@example.com"));
        assert!(!only_unverified.email_verified);
        let none = user_with(&[]);
        assert_eq!(none.email.as_deref(), Some("octocat@public.example"));
        assert!(!none.email_verified);
        let verified_secondary = user_with(&[
            email("primary@example.com", true, false),
            email("second@example.com", false, true),
        ]);
        assert_eq!(
            verified_secondary.email.as_deref(),
            Some("second@example.com")
        );
        assert!(verified_secondary.email_verified);
    }
}
