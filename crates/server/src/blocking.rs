//! Blocking work (image decoding, analyses, edits) runs on the blocking
//! thread pool, a bounded number at once, so a burst of uploads cannot starve
//! the async runtime or exhaust memory.

use std::sync::Arc;

use tokio::sync::Semaphore;

/// Why blocking work did not finish: the pool was shut down, or the work
/// panicked.
#[derive(Debug, thiserror::Error)]
pub enum BlockingError {
    #[error("the blocking pool is closed")]
    Closed,
    #[error("blocking work failed: {0}")]
    Failed(#[from] tokio::task::JoinError),
}

#[derive(Clone, Debug)]
pub struct BlockingPool {
    permits: Arc<Semaphore>,
}

impl BlockingPool {
    /// `max_concurrent` jobs at once; `None` means one per CPU core.
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
    ) -> Result<T, BlockingError> {
        let _permit = self
            .permits
            .acquire()
            .await
            .map_err(|_| BlockingError::Closed)?;
        Ok(tokio::task::spawn_blocking(work).await?)
    }
}
