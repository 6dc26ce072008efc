//! Text messages for phone sign-in: [`SmsProvider`] sends one text.
//!
//! - [`TwilioSms`], the real implementation: Twilio's Messages API
//!   (`POST {base_url}/2010-04-01/Accounts/{account_sid}/Messages.json`, form
//!   fields `To`, `From` or `MessagingServiceSid`, `Body`; HTTP basic auth
//!   with the account SID and auth token), answered with the message `sid`.
//! - [`OutboxSms`], the embedded one: keeps the text in the mail outbox
//!   (`kind` `sms`, addressed to `+<phone>`), where the development outbox
//!   (`GET /api/v1/dev/outbox`) shows it beside the mail. Nothing leaves the
//!   machine.
//!
//! `auth.sms.provider` chooses (`none`, `embedded`, `twilio`); `none`, the
//! default, keeps phone sign-in off, and the auth API answers GoTrue's
//! `phone_provider_disabled`.

use std::sync::Arc;
use std::time::Duration;

use chrono::Utc;
use sea_orm::{ActiveModelTrait, DatabaseConnection, Set};
use serde::Deserialize;
use uuid::Uuid;

use crate::config::{SmsConfig, SmsProviderKind};
use crate::mail::outbox;

#[derive(Debug, thiserror::Error)]
pub enum SmsError {
    /// The provider refused the message (bad number, unverified sender…).
    #[error("the SMS provider refused the message: {0}")]
    Refused(String),
    /// The provider could not be reached or failed.
    #[error("the SMS provider failed: {0}")]
    Failed(String),
}

/// An outside service that sends text messages.
#[async_trait::async_trait]
pub trait SmsProvider: Send + Sync + std::fmt::Debug {
    /// Sends `body` to `phone` (E.164 digits, without the `+`); returns the
    /// provider's message id.
    async fn send(&self, phone: &str, body: &str) -> Result<String, SmsError>;
}

/// The provider the configuration names, if any.
pub fn from_config(
    config: &SmsConfig,
    db: &DatabaseConnection,
) -> anyhow::Result<Option<Arc<dyn SmsProvider>>> {
    Ok(match config.provider {
        SmsProviderKind::None => None,
        SmsProviderKind::Embedded => Some(Arc::new(OutboxSms::new(db.clone()))),
        SmsProviderKind::Twilio => Some(Arc::new(TwilioSms::from_config(config)?)),
    })
}

/// Twilio's Messages API.
pub struct TwilioSms {
    client: reqwest::Client,
    endpoint: String,
    account_sid: String,
    auth_token: crate::config::Secret,
    sender: Sender,
}

enum Sender {
    From(String),
    MessagingService(String),
}

impl std::fmt::Debug for TwilioSms {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("TwilioSms")
            .field("endpoint", &self.endpoint)
            .finish_non_exhaustive()
    }
}

#[derive(Deserialize)]
struct TwilioMessage {
    sid: Option<String>,
    error_code: Option<i64>,
    error_message: Option<String>,
}

#[derive(Deserialize)]
struct TwilioError {
    code: Option<i64>,
    message: Option<String>,
}

impl TwilioSms {
    pub fn from_config(config: &SmsConfig) -> anyhow::Result<Self> {
        let twilio = &config.twilio;
        let account_sid = twilio
            .account_sid
            .clone()
            .filter(|sid| !sid.trim().is_empty())
            .ok_or_else(|| anyhow::anyhow!("auth.sms.twilio.account_sid is required"))?;
        let auth_token = twilio
            .auth_token
            .clone()
            .ok_or_else(|| anyhow::anyhow!("auth.sms.twilio.auth_token is required"))?;
        let sender = match (&twilio.message_service_sid, &twilio.from) {
            (Some(service), _) if !service.trim().is_empty() => {
                Sender::MessagingService(service.clone())
            }
            (_, Some(from)) if !from.trim().is_empty() => Sender::From(from.clone()),
            _ => anyhow::bail!("auth.sms.twilio needs `from` or `message_service_sid`"),
        };
        let client = reqwest::Client::builder()
            .timeout(Duration::from_secs(10))
            .redirect(reqwest::redirect::Policy::none())
            .build()?;
        Ok(Self {
            client,
            endpoint: format!(
                "{}/2010-04-01/Accounts/{account_sid}/Messages.json",
                twilio.base_url.trim_end_matches('/')
            ),
            account_sid,
            auth_token,
            sender,
        })
    }
}

#[async_trait::async_trait]
impl SmsProvider for TwilioSms {
    async fn send(&self, phone: &str, body: &str) -> Result<String, SmsError> {
        let form = {
            let mut form = url::form_urlencoded::Serializer::new(String::new());
            form.append_pair("To", &format!("+{}", phone.trim_start_matches('+')));
            match &self.sender {
                Sender::From(from) => form.append_pair("From", from),
                Sender::MessagingService(sid) => form.append_pair("MessagingServiceSid", sid),
            };
            form.append_pair("Body", body);
            form.finish()
        };
        let response = self
            .client
            .post(&self.endpoint)
            .basic_auth(&self.account_sid, Some(self.auth_token.expose()))
            .header(
                reqwest::header::CONTENT_TYPE,
                "application/x-www-form-urlencoded",
            )
            .body(form)
            .send()
            .await
            .map_err(|err| SmsError::Failed(err.without_url().to_string()))?;
        let status = response.status();
        let bytes = response
            .bytes()
            .await
            .map_err(|err| SmsError::Failed(err.without_url().to_string()))?;
        if !status.is_success() {
            let detail = serde_json::from_slice::<TwilioError>(&bytes)
                .ok()
                .map(|error| {
                    format!(
                        "{} (code {})",
                        error.message.unwrap_or_default(),
                        error.code.unwrap_or_default()
                    )
                })
                .unwrap_or_else(|| format!("status {status}"));
            return Err(if status.is_client_error() && status.as_u16() != 429 {
                SmsError::Refused(detail)
            } else {
                SmsError::Failed(detail)
            });
        }
        let message: TwilioMessage = serde_json::from_slice(&bytes)
            .map_err(|err| SmsError::Failed(format!("unreadable answer: {err}")))?;
        if let Some(code) = message.error_code {
            return Err(SmsError::Refused(format!(
                "{} (code {code})",
                message.error_message.unwrap_or_default()
            )));
        }
        message
            .sid
            .ok_or_else(|| SmsError::Failed("no message sid in the answer".into()))
    }
}

/// The embedded provider: texts are kept in the mail outbox.
#[derive(Clone)]
pub struct OutboxSms {
    db: DatabaseConnection,
}

impl std::fmt::Debug for OutboxSms {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("OutboxSms")
    }
}

impl OutboxSms {
    pub fn new(db: DatabaseConnection) -> Self {
        Self { db }
    }
}

#[async_trait::async_trait]
impl SmsProvider for OutboxSms {
    async fn send(&self, phone: &str, body: &str) -> Result<String, SmsError> {
        let id = Uuid::now_v7();
        let now = Utc::now();
        let to = format!("+{}", phone.trim_start_matches('+'));
        outbox::ActiveModel {
            id: Set(id),
            to_address: Set(to.clone()),
            subject: Set("Text message".to_owned()),
            body_text: Set(body.to_owned()),
            body_html: Set(None),
            kind: Set("sms".to_owned()),
            // Never picked up by the SMTP worker, which sends `pending` rows.
            status: Set("sent".to_owned()),
            attempts: Set(0),
            last_error: Set(None),
            next_attempt_at: Set(now),
            locked_until: Set(None),
            sent_at: Set(Some(now)),
            created_at: Set(now),
            updated_at: Set(now),
            dedup_key: Set(None),
        }
        .insert(&self.db)
        .await
        .map_err(|err| SmsError::Failed(err.to_string()))?;
        tracing::info!(%to, "text message kept in the outbox (embedded SMS provider)");
        Ok(id.to_string())
    }
}
