//! Integration tests: each starts the real app on port 0 (or opens a
//! database) with a fresh database of its own, through the harness in
//! `harness/`, which every test file uses:
//!
//! - `harness::app`: the one way to start the app (`spawn_app`,
//!   `spawn_app_with` a configuration change, `TestApp::second_instance` on
//!   the same database), raw SQL on either database, and waiting for what
//!   happens in the background: `eventually` polls for a condition (a row,
//!   a state) and `in_one_window` re-runs a scenario that met a boundary of
//!   the server's fixed time windows. Tests wait for an event, never for a
//!   guessed time.
//! - `harness::client`: one client; every call answers a `Reply` with
//!   `assert_error(status, code)` and `ok()`. `call`/`get`/`post` reach the
//!   app's API as a signed-in `Caller`; `app.post`, `app.get_as`, … reach
//!   the GoTrue-shaped auth API (`/auth/v1`), whose errors `assert_error`
//!   checks in GoTrue's shape too.
//! - `harness::seed`: users (signed up, or bare rows), admins, Premium
//!   members, contestants' photos (rows in any moderation state, or
//!   uploads of the images in `testdata/`), personality results.
//! - `harness::payments`: the app on the sandbox or on Stripe, the Stripe
//!   double (wiremock) and how to read what it was sent, Stripe's events
//!   delivered signed to the webhook, the sandbox's events delivered as its
//!   worker does, buying in the sandbox.
//!
//! Tests declared with `on_both_databases!` run on SQLite always and on
//! PostgreSQL when `PRETTYSCORE_TEST_POSTGRES` names a server; without one
//! the PostgreSQL variant prints NOT RUN, and under CI it fails. Tests that
//! store or read users, photos, payments or mail are declared so; plain
//! `#[tokio::test]`s on SQLite are those about SQLite itself (its backup,
//! its timestamp format), the HTTP layer (connections, headers, static
//! files, the binary) or an anonymous analysis.

mod harness;

mod admin;
mod analyses;
mod auth;
mod backup;
mod billing;
mod community;
mod contact;
mod contact_once;
mod dashboard;
mod database;
mod editor_save;
mod edits;
mod hardening;
mod incomplete_images;
mod jobs;
mod leaderboard;
mod messages;
mod migrations;
mod money_holds;
mod operations;
mod opportunities;
mod paid_conversations;
mod partners;
mod payouts;
mod personality;
mod photos;
mod reports;
mod saved_feet_and_hands;
mod screening;
mod share_links;
mod storage;
mod storage_hygiene;
mod verification;
mod web_app;
