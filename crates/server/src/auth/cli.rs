//! `prettyscore auth …`: mint a service-role token for the admin API, rotate
//! the signing key.

use chrono::Utc;
use clap::Subcommand;
use sea_orm::DatabaseConnection;
use serde_json::json;

use crate::config::Config;
use crate::tokens::KeyRing;

#[derive(Debug, Subcommand)]
pub enum AuthAction {
    /// Print a JWT with role `service_role`, which opens `/auth/v1/admin/*`.
    /// Keep it secret: it can create, change and delete every user.
    ServiceToken {
        /// How long the token is valid, in days.
        #[arg(long, default_value_t = 365)]
        days: i64,
    },
    /// Generate a new ES256 signing key; the old one keeps verifying until its
    /// tokens have expired.
    RotateKey,
}

pub async fn run(
    config: &Config,
    db: &DatabaseConnection,
    action: AuthAction,
) -> anyhow::Result<()> {
    let keys = KeyRing::load(db, &config.auth).await?;
    match action {
        AuthAction::ServiceToken { days } => {
            let now = Utc::now().timestamp();
            let issuer = format!(
                "{}/auth/v1",
                config
                    .public_url
                    .clone()
                    .unwrap_or_else(|| format!("http://{}", config.bind))
                    .trim_end_matches('/')
            );
            let token = keys.sign(&json!({
                "iss": issuer,
                "role": "service_role",
                "iat": now,
                "exp": now + days.max(1) * 86_400,
            }));
            println!("{token}");
        }
        AuthAction::RotateKey => {
            let kid = keys.rotate(db).await?;
            println!("New signing key {kid}; running servers sign with it within a minute.");
        }
    }
    Ok(())
}
