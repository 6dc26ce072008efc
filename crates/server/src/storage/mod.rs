//! Object storage behind one interface: a local directory under the data dir
//! by default, an S3-compatible bucket in production.

use std::sync::Arc;

use bytes::Bytes;
use futures::TryStreamExt;
use object_store::aws::AmazonS3Builder;
use object_store::local::LocalFileSystem;
use object_store::path::Path as ObjectPath;
use object_store::{ClientOptions, ObjectStore, ObjectStoreExt, PutPayload, RetryConfig};

use crate::config::{Config, StorageConfig};

#[derive(Clone)]
pub struct Storage {
    store: Arc<dyn ObjectStore>,
    backend: &'static str,
    /// The longest one call may take, retries included.
    deadline: std::time::Duration,
}

/// How long [`Storage::remove_later`] keeps removing a failed write.
const REMOVE_LATER_FOR: std::time::Duration = std::time::Duration::from_secs(600);

/// A local directory answers at once; this only bounds a stuck disk.
const LOCAL_DEADLINE: std::time::Duration = std::time::Duration::from_secs(60);

#[derive(Debug, thiserror::Error)]
pub enum StorageError {
    #[error("invalid object key {0:?}")]
    InvalidKey(String),
    #[error("object storage failed: {0}")]
    Backend(#[from] object_store::Error),
    #[error("object storage did not answer within {0:?}")]
    TimedOut(std::time::Duration),
    #[error("could not prepare the media directory: {0}")]
    Io(#[from] std::io::Error),
}

impl StorageError {
    /// Whether the storage service failed or did not answer (worth trying
    /// again later), as opposed to a key we should never have asked for.
    pub fn is_unavailable(&self) -> bool {
        matches!(self, Self::Backend(_) | Self::TimedOut(_))
    }
}

impl std::fmt::Debug for Storage {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Storage")
            .field("backend", &self.backend)
            .finish()
    }
}

impl Storage {
    pub fn from_config(config: &Config) -> Result<Self, StorageError> {
        match &config.storage {
            StorageConfig::Local => {
                let dir = config.media_dir();
                create_private_dir(&dir)?;
                // Deleting a file also removes the folders it leaves empty
                // (a deleted photo's, a deleted account's), up to the media dir.
                let store = LocalFileSystem::new_with_prefix(&dir)?.with_automatic_cleanup(true);
                Ok(Self {
                    store: Arc::new(store),
                    backend: "local",
                    deadline: LOCAL_DEADLINE,
                })
            }
            StorageConfig::S3(s3) => {
                // A hanging or refusing endpoint must not hold a request for
                // minutes (object_store's defaults: 30 s a try, 10 retries
                // within 3 minutes): the whole call, retries included, ends
                // by the deadline, so the app's 503 comes before the proxy's
                // timeout (issue 43: an upload waited 80 s, a read 40 s).
                let deadline = std::time::Duration::from_secs(s3.request_timeout_secs.max(1));
                let per_try = (deadline / 3).max(std::time::Duration::from_secs(1));
                let client = ClientOptions::new()
                    .with_connect_timeout(
                        std::time::Duration::from_secs(s3.connect_timeout_secs.max(1)).min(per_try),
                    )
                    .with_timeout(per_try)
                    .with_allow_http(s3.allow_http);
                let retry = RetryConfig {
                    max_retries: 2,
                    retry_timeout: deadline,
                    ..RetryConfig::default()
                };
                let mut builder = AmazonS3Builder::new()
                    .with_bucket_name(&s3.bucket)
                    .with_region(&s3.region)
                    .with_allow_http(s3.allow_http)
                    .with_client_options(client)
                    .with_retry(retry);
                if let Some(endpoint) = &s3.endpoint {
                    // S3-compatible services are usually addressed path-style.
                    builder = builder
                        .with_endpoint(endpoint)
                        .with_virtual_hosted_style_request(false);
                }
                if let Some(key) = &s3.access_key_id {
                    builder = builder.with_access_key_id(key);
                }
                if let Some(secret) = &s3.secret_access_key {
                    builder = builder.with_secret_access_key(secret.expose());
                }
                Ok(Self {
                    store: Arc::new(builder.build()?),
                    backend: "s3",
                    deadline,
                })
            }
        }
    }

    pub fn backend(&self) -> &'static str {
        self.backend
    }

    /// The longest one call may take, retries included.
    pub fn deadline(&self) -> std::time::Duration {
        self.deadline
    }

    /// `call`, given up (`TimedOut`) past the deadline.
    async fn within_deadline<T>(
        &self,
        call: impl std::future::Future<Output = Result<T, StorageError>>,
    ) -> Result<T, StorageError> {
        tokio::time::timeout(self.deadline, call)
            .await
            .unwrap_or(Err(StorageError::TimedOut(self.deadline)))
    }

    pub async fn put(&self, key: &str, bytes: Bytes) -> Result<(), StorageError> {
        let path = object_path(key)?;
        self.within_deadline(async {
            self.store.put(&path, PutPayload::from_bytes(bytes)).await?;
            Ok(())
        })
        .await
    }

    /// The object's bytes, or `None` when there is no such object.
    pub async fn get(&self, key: &str) -> Result<Option<Bytes>, StorageError> {
        let path = object_path(key)?;
        self.within_deadline(async {
            match self.store.get(&path).await {
                Ok(result) => Ok(Some(result.bytes().await?)),
                Err(object_store::Error::NotFound { .. }) => Ok(None),
                Err(err) => Err(err.into()),
            }
        })
        .await
    }

    /// Whether an object is stored under `key`.
    pub async fn exists(&self, key: &str) -> Result<bool, StorageError> {
        let path = object_path(key)?;
        self.within_deadline(async {
            match self.store.head(&path).await {
                Ok(_) => Ok(true),
                Err(object_store::Error::NotFound { .. }) => Ok(false),
                Err(err) => Err(err.into()),
            }
        })
        .await
    }

    /// The keys of every object under `prefix` (a folder: whole segments, so
    /// `photos/a` does not match `photos/ab/…`).
    pub async fn list(&self, prefix: &str) -> Result<Vec<String>, StorageError> {
        let objects = self.list_with_times(prefix).await?;
        Ok(objects.into_iter().map(|(key, _)| key).collect())
    }

    /// Every object under `prefix` with when it was last written.
    pub async fn list_with_times(
        &self,
        prefix: &str,
    ) -> Result<Vec<(String, chrono::DateTime<chrono::Utc>)>, StorageError> {
        let prefix = object_path(prefix.trim_end_matches('/'))?;
        let objects: Vec<_> = self.store.list(Some(&prefix)).try_collect().await?;
        Ok(objects
            .into_iter()
            .map(|meta| (meta.location.to_string(), meta.last_modified))
            .collect())
    }

    /// Removes every object under `prefix` and returns how many went.
    pub async fn delete_prefix(&self, prefix: &str) -> Result<usize, StorageError> {
        let keys = self.list(prefix).await?;
        for key in &keys {
            self.delete(key).await?;
        }
        Ok(keys.len())
    }

    /// Removes `key` (or, with `folder`, everything under it) in the
    /// background after a write that failed or hung: storage that hangs
    /// holds such a write and may finish it after the request gave up (issue
    /// 43: an image with no photo row). Tried at once and then again, twice
    /// the deadline apart and doubling, for ten minutes, so a late write
    /// goes too; the hourly orphan sweep remains the backstop (a restart).
    pub fn remove_later(&self, key: String, folder: bool) {
        let storage = self.clone();
        tokio::spawn(async move {
            let mut pause = std::time::Duration::ZERO;
            let mut waited = std::time::Duration::ZERO;
            while waited <= REMOVE_LATER_FOR {
                tokio::time::sleep(pause).await;
                waited += pause;
                let removed = if folder {
                    storage.delete_prefix(&key).await.map(drop)
                } else {
                    storage.delete(&key).await
                };
                if let Err(err) = removed {
                    tracing::debug!(%key, error = %err, "could not remove a failed write yet");
                }
                pause = (pause * 2).max(storage.deadline * 2);
            }
        });
    }

    /// Removes the object; removing a missing object is not an error.
    pub async fn delete(&self, key: &str) -> Result<(), StorageError> {
        let path = object_path(key)?;
        self.within_deadline(async {
            match self.store.delete(&path).await {
                Ok(()) | Err(object_store::Error::NotFound { .. }) => Ok(()),
                Err(err) => Err(err.into()),
            }
        })
        .await
    }
}

/// Creates a folder (and its parents) that only the server's user may enter
/// (0700 on Unix); an existing one is made private too. The data dir holds
/// the database, with its signing keys and password hashes, and the media
/// dir everyone's private photos.
pub fn create_private_dir(dir: &std::path::Path) -> std::io::Result<()> {
    std::fs::create_dir_all(dir)?;
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(dir, std::fs::Permissions::from_mode(0o700))?;
    }
    Ok(())
}

/// Keys are relative paths of plain segments; anything that could climb out
/// of the media directory or alias another key is refused.
pub fn is_valid_key(key: &str) -> bool {
    !key.is_empty()
        && key.split('/').all(|segment| {
            !segment.is_empty()
                && segment != "."
                && segment != ".."
                && segment
                    .bytes()
                    .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'-' | b'_' | b'.'))
        })
}

fn object_path(key: &str) -> Result<ObjectPath, StorageError> {
    if !is_valid_key(key) {
        return Err(StorageError::InvalidKey(key.to_owned()));
    }
    ObjectPath::parse(key).map_err(|_| StorageError::InvalidKey(key.to_owned()))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn local_storage(dir: &std::path::Path) -> Storage {
        let config = Config {
            data_dir: dir.to_owned(),
            ..Config::default()
        };
        Storage::from_config(&config).unwrap()
    }

    #[tokio::test]
    async fn local_storage_round_trips_and_deletes_files_under_the_data_dir() {
        let dir = tempfile::tempdir().unwrap();
        let storage = local_storage(dir.path());
        storage
            .put("photos/abc/original.jpg", Bytes::from_static(b"jpeg bytes"))
            .await
            .unwrap();
        assert!(dir.path().join("media/photos/abc/original.jpg").is_file());
        let read = storage.get("photos/abc/original.jpg").await.unwrap();
        assert_eq!(read.as_deref(), Some(&b"jpeg bytes"[..]));

        storage.delete("photos/abc/original.jpg").await.unwrap();
        assert_eq!(storage.get("photos/abc/original.jpg").await.unwrap(), None);
        storage.delete("photos/abc/original.jpg").await.unwrap();
    }

    #[tokio::test]
    async fn a_folder_is_listed_and_deleted_whole_and_alone() {
        let dir = tempfile::tempdir().unwrap();
        let storage = local_storage(dir.path());
        for key in [
            "photos/u/p/original.jpg",
            "photos/u/p/edits/1.jpg",
            "photos/u/p2/original.jpg",
        ] {
            storage.put(key, Bytes::from_static(b"x")).await.unwrap();
        }
        let mut keys = storage.list("photos/u/p/").await.unwrap();
        keys.sort();
        assert_eq!(keys, ["photos/u/p/edits/1.jpg", "photos/u/p/original.jpg"]);
        assert_eq!(storage.delete_prefix("photos/u/p").await.unwrap(), 2);
        assert!(storage.list("photos/u/p").await.unwrap().is_empty());
        assert_eq!(
            storage.list("photos/u").await.unwrap(),
            ["photos/u/p2/original.jpg"]
        );
        assert!(storage.list("nothing/here").await.unwrap().is_empty());
    }

    #[cfg(unix)]
    #[test]
    fn the_media_folder_is_private_to_the_servers_user() {
        use std::os::unix::fs::PermissionsExt;
        let dir = tempfile::tempdir().unwrap();
        // An existing, world-readable media folder is made private too.
        std::fs::create_dir_all(dir.path().join("media")).unwrap();
        std::fs::set_permissions(
            dir.path().join("media"),
            std::fs::Permissions::from_mode(0o755),
        )
        .unwrap();
        local_storage(dir.path());
        let mode = std::fs::metadata(dir.path().join("media"))
            .unwrap()
            .permissions()
            .mode();
        assert_eq!(mode & 0o777, 0o700);
    }

    #[tokio::test]
    async fn deleting_the_last_file_of_a_folder_removes_the_empty_folders_up_to_the_media_dir() {
        let dir = tempfile::tempdir().unwrap();
        let storage = local_storage(dir.path());
        for key in [
            "photos/u/p/original.jpg",
            "photos/u/p/edits/1.jpg",
            "photos/u/q/original.jpg",
        ] {
            storage.put(key, Bytes::from_static(b"x")).await.unwrap();
        }
        storage.delete_prefix("photos/u/p").await.unwrap();
        let media = dir.path().join("media");
        assert!(
            !media.join("photos/u/p").exists(),
            "the photo's folder went"
        );
        assert!(
            media.join("photos/u/q").is_dir(),
            "the other photo's stayed"
        );
        storage.delete("photos/u/q/original.jpg").await.unwrap();
        assert!(!media.join("photos").exists(), "no empty folder is left");
        assert!(media.is_dir(), "the media dir itself stays");
        storage
            .put("photos/u/r/original.jpg", Bytes::from_static(b"x"))
            .await
            .unwrap();
        assert!(
            media.join("photos/u/r/original.jpg").is_file(),
            "and is used again"
        );
    }

    #[tokio::test]
    async fn keys_that_could_escape_the_media_directory_are_refused() {
        let dir = tempfile::tempdir().unwrap();
        let storage = local_storage(dir.path());
        for key in ["../secret", "a//b", "/abs", "a/./b", "", "a b", "a\\b"] {
            let err = storage.put(key, Bytes::new()).await.unwrap_err();
            assert!(matches!(err, StorageError::InvalidKey(_)), "{key}: {err}");
        }
    }
}
