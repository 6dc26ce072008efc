//! Integration tests: each starts the real app on port 0 with a fresh
//! database, on SQLite always and on PostgreSQL when
//! `PRETTYSCORE_TEST_POSTGRES` names a server.

mod helpers;

mod admin;
mod analyses;
mod auth;
mod database;
mod edits;
mod operations;
mod photos;
mod storage;
mod web_app;
