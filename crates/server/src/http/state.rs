//! The application state every handler can reach: shared handles, nothing
//! that belongs to one domain.

use std::sync::Arc;

use metrics_exporter_prometheus::PrometheusHandle;
use sea_orm::DatabaseConnection;

use crate::blocking::BlockingPool;
use crate::config::Config;
use crate::http::spa::WebApp;
use crate::storage::Storage;

/// What every handler can reach. Cheap to clone.
#[derive(Clone)]
pub struct AppState {
    pub config: Arc<Config>,
    pub db: DatabaseConnection,
    pub storage: Storage,
    pub web: Arc<WebApp>,
    pub metrics: PrometheusHandle,
    pub auth: crate::auth::AuthState,
    pub blocking: BlockingPool,
    /// Photo edits: the built-in engine and the generative provider, if any.
    pub editor: crate::edits::engine::Editor,
    /// The address users reach the app at (`public_url`, or the listening
    /// address), for absolute links such as share pages.
    pub base_url: String,
}
