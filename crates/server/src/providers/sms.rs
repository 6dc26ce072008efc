//! Text messages for phone sign-in and phone MFA factors: the interface only.
//! No implementation is built in yet (neither a real one nor an embedded
//! one): without one, the auth API's phone flows answer GoTrue's clear errors
//! (`phone_provider_disabled`, `sms_send_failed`) instead of failing.

/// A provider such as Twilio or MessageBird. Returns the provider's message id.
#[async_trait::async_trait]
pub trait SmsProvider: Send + Sync {
    async fn send(&self, phone: &str, body: &str) -> anyhow::Result<String>;
}
