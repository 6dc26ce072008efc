//! Outside services behind small traits, each with a real implementation and
//! an embedded one, chosen by the configuration. They know nothing of HTTP
//! handlers or domains; the domains turn their errors into answers.
//!
//! - [`image_edit`]: image edits from a prompt. Real: an OpenAI-compatible
//!   image-edit API (`edits.provider.base_url`). Embedded: the built-in
//!   engine (`prettyscore-imaging`), always there; the edits domain uses it
//!   for the prompts it understands and the configured API for the others.
//! - [`sms`]: text messages for phone sign-in. Real: Twilio's Messages API.
//!   Embedded: the mail outbox, shown by the development outbox.
//!   `auth.sms.provider` chooses; none (phone sign-in off) by default.
//! - [`identity`]: sign-in through Google, Apple, GitHub or any OpenID
//!   Connect issuer. Real only: none is configured by default, and sign-in
//!   by provider is then off.
//! - [`payments`]: checkout, holds, captures, refunds and subscriptions.
//!   Real: Stripe. Embedded: the sandbox, the default.

pub mod identity;
pub mod image_edit;
pub mod payments;
pub mod sms;
