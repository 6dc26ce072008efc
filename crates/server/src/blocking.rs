//! Blocking work (image decoding, analyses, edits) runs on the blocking
//! thread pool, a bounded number at once, so a burst of uploads cannot starve
//! the async runtime or exhaust memory.

use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

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
    activity: Arc<Activity>,
}

/// When the pool last worked, for handing idle memory back.
#[derive(Debug)]
struct Activity {
    /// Jobs finished so far.
    finished: AtomicU64,
    running: AtomicUsize,
    last_finished: Mutex<Instant>,
}

impl BlockingPool {
    /// `max_concurrent` jobs at once; `None` means one per CPU core.
    pub fn new(max_concurrent: Option<usize>) -> Self {
        let cores = std::thread::available_parallelism().map_or(2, usize::from);
        Self {
            permits: Arc::new(Semaphore::new(max_concurrent.unwrap_or(cores).max(1))),
            activity: Arc::new(Activity {
                finished: AtomicU64::new(0),
                running: AtomicUsize::new(0),
                last_finished: Mutex::new(Instant::now()),
            }),
        }
    }

    /// How many jobs have finished, if none is running and the last finished
    /// at least `quiet` ago; `None` while the pool is busy or was just busy.
    pub fn idle_since(&self, quiet: Duration) -> Option<u64> {
        let activity = &self.activity;
        let last = *activity.last_finished.lock().expect("activity lock");
        (activity.running.load(Ordering::Acquire) == 0 && last.elapsed() >= quiet)
            .then(|| activity.finished.load(Ordering::Acquire))
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
        let _running = Running::start(&self.activity);
        Ok(tokio::task::spawn_blocking(work).await?)
    }
}

/// Counts a job as running until it ends, also when the caller gives up on it.
struct Running<'a>(&'a Activity);

impl<'a> Running<'a> {
    fn start(activity: &'a Activity) -> Self {
        activity.running.fetch_add(1, Ordering::AcqRel);
        Self(activity)
    }
}

impl Drop for Running<'_> {
    fn drop(&mut self) {
        *self.0.last_finished.lock().expect("activity lock") = Instant::now();
        self.0.finished.fetch_add(1, Ordering::AcqRel);
        self.0.running.fetch_sub(1, Ordering::AcqRel);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn the_pool_is_idle_only_after_its_jobs_and_a_quiet_spell() {
        let pool = BlockingPool::new(Some(1));
        assert_eq!(pool.idle_since(Duration::ZERO), Some(0));
        let (tx, rx) = std::sync::mpsc::channel::<()>();
        let job = tokio::spawn({
            let pool = pool.clone();
            async move { pool.run(move || rx.recv().unwrap()).await.unwrap() }
        });
        while pool.activity.running.load(Ordering::Acquire) == 0 {
            tokio::task::yield_now().await;
        }
        assert_eq!(pool.idle_since(Duration::ZERO), None);
        tx.send(()).unwrap();
        job.await.unwrap();
        assert_eq!(pool.idle_since(Duration::ZERO), Some(1));
        assert_eq!(pool.idle_since(Duration::from_secs(3600)), None);
    }
}
