//! PrettyScore's server: the JSON API, the auth API, media and the web app.

pub mod admin;
pub mod analyses;
pub mod app;
pub mod auth;
pub mod billing;
pub mod blocking;
pub mod config;
pub mod db;
pub mod edits;
pub mod http;
pub mod mail;
pub mod media;
pub mod photos;
pub mod providers;
pub mod rate_limit;
pub mod site;
pub mod storage;
pub mod tokens;
