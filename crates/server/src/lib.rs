//! PrettyScore's server: the JSON API, the auth API, media and the web app.
//!
//! Layered, bottom up; a layer imports only from the layers below it, and
//! `tests/layering.rs` enforces it (see the crate's README).

// 1. Plumbing: no knowledge of HTTP or of the domains.
pub mod blocking;
pub mod config;
pub mod db;
pub mod mail;
pub mod providers;
pub mod rate_limit;
pub mod storage;
pub mod tokens;
pub mod values;

// 2. The HTTP edge: state, errors, extractors, upload reader, health, metrics.
pub mod http;

// 3. Media: signed URLs, serving, metadata stripping.
pub mod media;

// 4. The domains, each exposing `routes()`; a domain uses only the domains
// before it in tests/layering.rs (e.g. edits uses photos, never the reverse).
pub mod admin;
pub mod analyses;
pub mod auth;
pub mod billing;
pub mod contact;
pub mod dashboard;
pub mod edits;
pub mod features;
pub mod leaderboard;
pub mod messages;
pub mod opportunities;
pub mod partners;
pub mod personality;
pub mod photos;
pub mod reports;
pub mod site;
pub mod verification;

// 5. The composition root: the only place that names every domain.
pub mod app;
