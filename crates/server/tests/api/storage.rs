//! The S3 backend of object storage, against a real S3-compatible server
//! (s3s-fs) running in the test process.

use crate::harness::{Backend, on_both_databases};
use bytes::Bytes;
use hyper_util::rt::{TokioExecutor, TokioIo};
use hyper_util::server::conn::auto::Builder as ConnBuilder;
use prettyscore_server::config::{Config, S3Config, Secret, StorageConfig};
use prettyscore_server::storage::Storage;
use s3s::auth::SimpleAuth;
use s3s::service::S3ServiceBuilder;

const ACCESS_KEY: &str = "test-access-key";
const SECRET_KEY: &str = "test-secret-key";

/// Starts an S3-compatible server on a free port; returns its endpoint.
async fn spawn_s3(root: &std::path::Path, bucket: &str) -> String {
    std::fs::create_dir_all(root.join(bucket)).unwrap();
    let fs = s3s_fs::FileSystem::new(root).unwrap();
    let mut builder = S3ServiceBuilder::new(fs);
    builder.set_auth(SimpleAuth::from_single(ACCESS_KEY, SECRET_KEY));
    let service = builder.build();
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let endpoint = format!("http://{}", listener.local_addr().unwrap());
    tokio::spawn(async move {
        let http = ConnBuilder::new(TokioExecutor::new());
        while let Ok((socket, _)) = listener.accept().await {
            let conn = http
                .serve_connection(TokioIo::new(socket), service.clone())
                .into_owned();
            tokio::spawn(conn);
        }
    });
    endpoint
}

fn s3_config(endpoint: String, secret: &str) -> Config {
    Config {
        storage: StorageConfig::S3(S3Config {
            bucket: "media".into(),
            endpoint: Some(endpoint),
            region: "us-east-1".into(),
            access_key_id: Some(ACCESS_KEY.into()),
            secret_access_key: Some(Secret::new(secret)),
            allow_http: true,
            connect_timeout_secs: 3,
            request_timeout_secs: 20,
        }),
        ..Config::default()
    }
}

#[tokio::test]
async fn s3_storage_round_trips_and_deletes_objects() {
    let root = tempfile::tempdir().unwrap();
    let endpoint = spawn_s3(root.path(), "media").await;
    let storage = Storage::from_config(&s3_config(endpoint, SECRET_KEY)).unwrap();
    assert_eq!(storage.backend(), "s3");

    storage
        .put("photos/u1/original.jpg", Bytes::from_static(b"jpeg bytes"))
        .await
        .unwrap();
    assert!(
        root.path().join("media/photos/u1/original.jpg").is_file(),
        "stored in the bucket"
    );
    let read = storage.get("photos/u1/original.jpg").await.unwrap();
    assert_eq!(read.as_deref(), Some(&b"jpeg bytes"[..]));

    storage.delete("photos/u1/original.jpg").await.unwrap();
    assert_eq!(storage.get("photos/u1/original.jpg").await.unwrap(), None);
}

#[tokio::test]
async fn s3_storage_lists_and_deletes_a_photos_folder() {
    let root = tempfile::tempdir().unwrap();
    let endpoint = spawn_s3(root.path(), "media").await;
    let storage = Storage::from_config(&s3_config(endpoint, SECRET_KEY)).unwrap();
    for key in [
        "photos/u/p/original.jpg",
        "photos/u/p/edits/a.jpg",
        "photos/u/p2/original.jpg",
    ] {
        storage.put(key, Bytes::from_static(b"x")).await.unwrap();
    }
    assert!(storage.exists("photos/u/p/edits/a.jpg").await.unwrap());
    let mut keys = storage.list("photos/u/p/").await.unwrap();
    keys.sort();
    assert_eq!(keys, ["photos/u/p/edits/a.jpg", "photos/u/p/original.jpg"]);
    assert_eq!(storage.delete_prefix("photos/u/p/").await.unwrap(), 2);
    assert!(!storage.exists("photos/u/p/edits/a.jpg").await.unwrap());
    assert!(storage.exists("photos/u/p2/original.jpg").await.unwrap());
}

#[tokio::test]
async fn s3_storage_with_wrong_keys_fails_instead_of_pretending() {
    let root = tempfile::tempdir().unwrap();
    let endpoint = spawn_s3(root.path(), "media").await;
    let storage = Storage::from_config(&s3_config(endpoint, "wrong-secret")).unwrap();
    let result = storage.put("a.jpg", Bytes::from_static(b"x")).await;
    assert!(result.is_err(), "a signature mismatch must be an error");
    assert!(!root.path().join("media/a.jpg").exists());
}

/// An endpoint that accepts connections and never answers.
async fn spawn_hanging_endpoint() -> String {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let endpoint = format!("http://{}", listener.local_addr().unwrap());
    tokio::spawn(async move {
        let mut held = Vec::new();
        while let Ok((socket, _)) = listener.accept().await {
            held.push(socket);
        }
    });
    endpoint
}

/// An endpoint nobody listens on (connections are refused).
async fn closed_endpoint() -> String {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let endpoint = format!("http://{}", listener.local_addr().unwrap());
    drop(listener);
    endpoint
}

on_both_databases!(storage_that_hangs_or_refuses_is_a_503_soon_and_saves_no_row,);

/// Issue 25, item 6: with the S3 endpoint hanging, uploads and media reads
/// waited 150 s and more; refusing connections, uploads got 500.
async fn storage_that_hangs_or_refuses_is_a_503_soon_and_saves_no_row(backend: Backend) {
    for endpoint in [spawn_hanging_endpoint().await, closed_endpoint().await] {
        let app = crate::harness::spawn_app_with(backend, move |config| {
            let StorageConfig::S3(mut s3) = s3_config(endpoint, SECRET_KEY).storage else {
                unreachable!()
            };
            s3.connect_timeout_secs = 1;
            s3.request_timeout_secs = 1;
            config.storage = StorageConfig::S3(s3);
        })
        .await;
        let token = crate::harness::access(&app.sign_up("ada@example.com").await).to_owned();
        let response = app
            .client
            .post(app.url("/api/v1/photos"))
            .bearer_auth(&token)
            .multipart(crate::harness::image_form(
                crate::harness::testdata("face/astronaut.png"),
                "a.png",
            ))
            .send()
            .await
            .unwrap();
        assert_eq!(response.status(), reqwest::StatusCode::SERVICE_UNAVAILABLE);
        assert_eq!(response.headers()["retry-after"], "10");
        let body: serde_json::Value = response.json().await.unwrap();
        assert_eq!(body["code"], "storage_unavailable", "{body}");
        assert_eq!(
            body["message"],
            "Photos can't be stored or read right now. Please try again in a moment."
        );
        use sea_orm::{EntityTrait, PaginatorTrait};
        let rows = prettyscore_server::photos::entity::Entity::find()
            .count(&app.db)
            .await
            .unwrap();
        assert_eq!(rows, 0, "no row for an image that was not stored");
    }
}

/// A proxy to `upstream` that holds every connection's bytes until
/// `release` is set, then passes them on: storage that hangs, and then
/// comes back and does what it was asked, though the asker gave up. Counts
/// the writes (PUTs) it passed on whose asker had gone, once answered.
async fn spawn_stalling_proxy(
    upstream: &str,
) -> (
    String,
    tokio::sync::watch::Sender<bool>,
    std::sync::Arc<std::sync::atomic::AtomicUsize>,
) {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let endpoint = format!("http://{}", listener.local_addr().unwrap());
    let (release, released) = tokio::sync::watch::channel(false);
    let late_writes = std::sync::Arc::new(std::sync::atomic::AtomicUsize::new(0));
    let counted = late_writes.clone();
    let upstream = upstream.trim_start_matches("http://").to_owned();
    tokio::spawn(async move {
        while let Ok((mut client, _)) = listener.accept().await {
            let mut released = released.clone();
            let upstream = upstream.clone();
            let counted = counted.clone();
            tokio::spawn(async move {
                let mut held = Vec::new();
                let mut buffer = vec![0u8; 64 * 1024];
                let mut client_open = true;
                while !*released.borrow_and_update() {
                    tokio::select! {
                        read = client.read(&mut buffer), if client_open => match read {
                            Ok(0) | Err(_) => client_open = false,
                            Ok(n) => held.extend_from_slice(&buffer[..n]),
                        },
                        changed = released.changed() => if changed.is_err() { return },
                    }
                }
                let Ok(mut server) = tokio::net::TcpStream::connect(&upstream).await else {
                    return;
                };
                if server.write_all(&held).await.is_err() {
                    return;
                }
                if client_open {
                    let _ = tokio::io::copy_bidirectional(&mut client, &mut server).await;
                } else {
                    // The asker is gone; the storage still does the work.
                    let mut answer = [0u8; 1024];
                    let answered = tokio::time::timeout(
                        std::time::Duration::from_secs(10),
                        server.read(&mut answer),
                    )
                    .await;
                    if held.starts_with(b"PUT ") && matches!(answered, Ok(Ok(n)) if n > 0) {
                        counted.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
                    }
                }
            });
        }
    });
    (endpoint, release, late_writes)
}

/// Every file stored under `dir`, as paths relative to it.
fn files_under(dir: &std::path::Path) -> Vec<String> {
    let mut files = Vec::new();
    let mut pending = vec![dir.to_owned()];
    while let Some(current) = pending.pop() {
        let Ok(entries) = std::fs::read_dir(&current) else {
            continue;
        };
        for entry in entries.flatten() {
            let path = entry.path();
            if path.is_dir() {
                pending.push(path);
            } else {
                files.push(path.strip_prefix(dir).unwrap().display().to_string());
            }
        }
    }
    files
}

on_both_databases!(an_upload_given_up_in_a_hang_leaves_no_object_without_a_row,);

/// Issue 43: an upload given up during an S3 hang still wrote its image when
/// S3 came back, leaving an image that no photo row names.
async fn an_upload_given_up_in_a_hang_leaves_no_object_without_a_row(backend: Backend) {
    let root = tempfile::tempdir().unwrap();
    let s3 = spawn_s3(root.path(), "media").await;
    let (endpoint, release, late_writes) = spawn_stalling_proxy(&s3).await;
    let app = crate::harness::spawn_app_with(backend, move |config| {
        let StorageConfig::S3(mut s3) = s3_config(endpoint, SECRET_KEY).storage else {
            unreachable!()
        };
        s3.connect_timeout_secs = 1;
        s3.request_timeout_secs = 1;
        config.storage = StorageConfig::S3(s3);
    })
    .await;
    let token = crate::harness::access(&app.sign_up("ada@example.com").await).to_owned();
    let response = app
        .client
        .post(app.url("/api/v1/photos"))
        .bearer_auth(&token)
        .multipart(crate::harness::image_form(
            crate::harness::testdata("face/astronaut.png"),
            "a.png",
        ))
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), reqwest::StatusCode::SERVICE_UNAVAILABLE);
    // S3 comes back and writes what it was sent...
    release.send(true).unwrap();
    let photos = root.path().join("media/photos");
    crate::harness::eventually_within(
        std::time::Duration::from_secs(30),
        "the late write to land",
        || async { late_writes.load(std::sync::atomic::Ordering::SeqCst) > 0 },
    )
    .await;
    // ...and the instance removes it: no row names it.
    crate::harness::eventually_within(
        std::time::Duration::from_secs(60),
        "no image without its row left in the bucket",
        || async { files_under(&photos).is_empty() },
    )
    .await;
}
