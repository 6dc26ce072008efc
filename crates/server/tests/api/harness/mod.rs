//! The test harness: one way to start the app ([`app`]), one client
//! ([`client`]), one place to seed users, admins, contestants and photos
//! ([`seed`]), and payments: the Stripe double and event delivery
//! ([`payments`]). Test files import what they use from here.

pub mod app;
pub mod client;
pub mod payments;
pub mod seed;

pub use app::*;
pub use client::*;
pub use payments::*;
pub use seed::*;
