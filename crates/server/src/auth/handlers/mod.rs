//! `/auth/v1` handlers: thin, they parse the request, apply the rules of the
//! sibling modules and shape GoTrue's answers. One file per flow:
//! [`signup`], [`token`] (sessions), [`user`], [`verify`] (codes and links by
//! mail), [`oauth`] (sign-in through outside providers) and [`settings`]
//! (what this server offers); the steps and request bodies they share
//! are in [`steps`], and the answer's shape is [`crate::auth::reply`].

mod oauth;
mod settings;
mod signup;
mod steps;
mod token;
mod user;
mod verify;

pub use oauth::{authorize, callback_get, callback_post, link_identity};
pub use settings::{admin_oauth, health, jwks, not_found, oauth_server_disabled, settings, sso};
pub use signup::signup;
pub use token::{logout, token};
pub use user::{get_user, reauthenticate, unlink_identity, update_user};
pub use verify::{otp, recover, resend, verify_get, verify_post};
