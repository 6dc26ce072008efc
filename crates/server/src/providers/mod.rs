//! Outside services behind small traits, each chosen by the configuration.
//! They know nothing of HTTP handlers or domains; the domains turn their
//! errors into answers.
//!
//! - [`image_edit`]: generative image edits, an OpenAI-compatible API;
//!   without one, the built-in engine does the edits it understands.
//! - [`sms`]: text messages for phone sign-in (interface only so far).
//! - [`payments`]: checkout, holds, captures, refunds and subscriptions;
//!   the embedded sandbox by default, Stripe when configured.

pub mod image_edit;
pub mod payments;
pub mod sms;
