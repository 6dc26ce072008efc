//! Image work runs on the blocking thread pool, a bounded number at once, so a
//! burst of uploads cannot starve the async runtime or exhaust memory.

use std::sync::Arc;

use tokio::sync::Semaphore;

use crate::http::error::ApiError;

#[derive(Clone, Debug)]
pub struct AnalysisPool {
    permits: Arc<Semaphore>,
}

impl AnalysisPool {
    /// `max_concurrent` analyses at once; `None` means one per CPU core.
    pub fn new(max_concurrent: Option<usize>) -> Self {
        let cores = std::thread::available_parallelism().map_or(2, usize::from);
        Self {
            permits: Arc::new(Semaphore::new(max_concurrent.unwrap_or(cores).max(1))),
        }
    }

    /// Runs `work` off the async runtime once a slot is free.
    pub async fn run<T: Send + 'static>(
        &self,
        work: impl FnOnce() -> T + Send + 'static,
    ) -> Result<T, ApiError> {
        let _permit = self.permits.acquire().await.map_err(ApiError::internal)?;
        tokio::task::spawn_blocking(work)
            .await
            .map_err(ApiError::internal)
    }
}
