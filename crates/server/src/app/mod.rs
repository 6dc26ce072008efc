//! The composition root, the top layer: the only place that names every
//! domain. It builds the [`AppState`](crate::http::AppState) (`startup`),
//! assembles the router from every domain's routes (`router`), registers each
//! domain's share of a user's data (`account`), starts the background jobs,
//! and runs the command line (`cli`).

mod account;
pub mod cli;
pub mod hooks;
mod openapi;
mod router;
mod startup;

pub use router::openapi;
pub use startup::Application;
