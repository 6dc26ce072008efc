//! Integration tests: each starts the real app on port 0 (or opens a
//! database) with a fresh database of its own. Tests declared with
//! `on_both_databases!` run on SQLite always and on PostgreSQL when
//! `PRETTYSCORE_TEST_POSTGRES` names a server; without one the PostgreSQL
//! variant prints NOT RUN, and under CI it fails.

mod harness;

mod admin;
mod analyses;
mod auth;
mod backup;
mod billing;
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
mod operations;
mod opportunities;
mod partners;
mod payouts;
mod personality;
mod photos;
mod saved_feet_and_hands;
mod storage;
mod storage_hygiene;
mod verification;
mod web_app;
