//! The HTTP edge under abuse (issue 10): slow clients, connection and upload
//! floods, metrics for the scraper only, security headers, and every error in
//! the JSON shape with the right status.

use std::time::Duration;

use crate::harness::{Backend, TestApp, access, on_both_databases, spawn_app, spawn_app_with};
use reqwest::StatusCode;
use serde_json::{Value, json};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

on_both_databases!(
    a_client_over_its_rate_is_refused_before_it_sends_the_body,
    an_editor_over_its_rate_is_refused_before_it_sends_the_body,
    bodies_past_the_cap_in_flight_get_503_with_retry_after,
    one_address_holds_only_its_share_of_the_bodies_in_flight,
    uploads_trickling_from_many_addresses_do_not_turn_another_away,
    a_patch_body_over_the_limit_gets_413_in_the_error_shape,
);

/// A raw connection to the test app, for requests reqwest would not send
/// (headers never finished, a body that never comes).
async fn connect(app: &TestApp) -> TcpStream {
    let address = app.address.trim_start_matches("http://");
    TcpStream::connect(address).await.expect("the app accepts")
}

/// Reads what the server sends until it closes the connection or `wait`
/// passes; `None` when it sent nothing and kept the connection open.
async fn read_answer(stream: &mut TcpStream, wait: Duration) -> Option<String> {
    let mut answer = Vec::new();
    let mut buffer = [0u8; 4096];
    let deadline = tokio::time::Instant::now() + wait;
    loop {
        match tokio::time::timeout_at(deadline, stream.read(&mut buffer)).await {
            Ok(Ok(0)) | Ok(Err(_)) => break,
            Ok(Ok(n)) => {
                answer.extend_from_slice(&buffer[..n]);
                // The head and a short JSON body are enough.
                if answer.windows(4).any(|w| w == b"\r\n\r\n") && answer.ends_with(b"}") {
                    break;
                }
            }
            Err(_) if answer.is_empty() => return None,
            Err(_) => break,
        }
    }
    Some(String::from_utf8_lossy(&answer).into_owned())
}

/// The head of a multipart upload of `length` bytes, of which only the part
/// header is sent.
fn upload_head(path: &str, length: usize) -> Vec<u8> {
    upload_head_from(path, length, None)
}

/// [`upload_head`] from the client address `from` (for a server that trusts
/// `X-Forwarded-For`).
fn upload_head_from(path: &str, length: usize, from: Option<&str>) -> Vec<u8> {
    let forwarded = from
        .map(|ip| format!("X-Forwarded-For: {ip}\r\n"))
        .unwrap_or_default();
    format!(
        "POST {path} HTTP/1.1\r\nHost: test\r\n{forwarded}Content-Type: multipart/form-data; boundary=XYZ\r\n\
         Content-Length: {length}\r\n\r\n\
         --XYZ\r\nContent-Disposition: form-data; name=\"image\"; filename=\"a.jpg\"\r\n\r\n"
    )
    .into_bytes()
}

async fn a_client_over_its_rate_is_refused_before_it_sends_the_body(backend: Backend) {
    let app = spawn_app_with(backend, |config| {
        config.analysis.per_client_per_minute = 1;
    })
    .await;
    let first = app
        .client
        .post(app.url("/api/v1/analyses/pet"))
        .multipart(crate::harness::image_form(
            b"not an image".to_vec(),
            "a.jpg",
        ))
        .send()
        .await
        .unwrap();
    assert_ne!(first.status(), StatusCode::TOO_MANY_REQUESTS);

    // The second announces 5 MB and sends only the start: the server must
    // answer from the headers, not wait for (and buffer) the body.
    let mut stream = connect(&app).await;
    stream
        .write_all(&upload_head("/api/v1/analyses/pet", 5_000_000))
        .await
        .unwrap();
    let answer = read_answer(&mut stream, Duration::from_secs(10))
        .await
        .expect("an answer before the body is sent");
    assert!(answer.starts_with("HTTP/1.1 429"), "{answer}");
    assert!(answer.contains("\"code\":\"rate_limited\""), "{answer}");
}

async fn an_editor_over_its_rate_is_refused_before_it_sends_the_body(backend: Backend) {
    let app = spawn_app_with(backend, |config| {
        config.edits.per_client_per_minute = 1;
    })
    .await;
    let first = app
        .client
        .post(app.url("/functions/v1/edit-photo"))
        .json(&json!({"imageUrl": "data:image/png;base64,AAAA", "prompt": "brighter"}))
        .send()
        .await
        .unwrap();
    assert_ne!(first.status(), StatusCode::TOO_MANY_REQUESTS);

    // The JSON body of an edit carries the image (up to 10 MB as a data URL):
    // the second announces 5 MB and sends only its start.
    let mut stream = connect(&app).await;
    stream
        .write_all(
            b"POST /functions/v1/edit-photo HTTP/1.1\r\nHost: test\r\n\
              Content-Type: application/json\r\nContent-Length: 5000000\r\n\r\n\
              {\"imageUrl\": \"data:image/jpeg;base64,",
        )
        .await
        .unwrap();
    let answer = read_answer(&mut stream, Duration::from_secs(10))
        .await
        .expect("an answer before the body is sent");
    assert!(answer.starts_with("HTTP/1.1 429"), "{answer}");
    assert!(answer.contains("\"code\":\"rate_limited\""), "{answer}");
}

async fn bodies_past_the_cap_in_flight_get_503_with_retry_after(backend: Backend) {
    let app = spawn_app_with(backend, |config| {
        config.auth.trust_x_forwarded_for = true;
        config.http.max_body_bytes_in_flight = 1024 * 1024;
    })
    .await;
    // One upload that sent 900 kB of its 1 MB and stopped holds the room,
    // so another's bytes past it are refused. (Whichever handler reads
    // first holds the room: when the second wins, the first is refused
    // and the second waits for the rest of its body; try again.)
    let deadline = std::time::Instant::now() + Duration::from_secs(60);
    let refusal = loop {
        let mut slow = connect(&app).await;
        slow.write_all(&upload_head_from(
            "/api/v1/analyses/pet",
            1_000_000,
            Some("203.0.113.1"),
        ))
        .await
        .unwrap();
        slow.write_all(&vec![b'x'; 900_000]).await.unwrap();
        let mut second = connect(&app).await;
        second
            .write_all(&upload_head_from(
                "/api/v1/analyses/pet",
                900_000,
                Some("198.51.100.7"),
            ))
            .await
            .unwrap();
        second.write_all(&vec![b'x'; 300_000]).await.unwrap();
        let answer = read_answer(&mut second, Duration::from_secs(5)).await;
        if let Some(answer) = &answer
            && answer.starts_with("HTTP/1.1 503")
        {
            break answer.clone();
        }
        assert!(
            std::time::Instant::now() < deadline,
            "a second upload past the cap was never refused: {answer:?}"
        );
    };
    let head = refusal.to_ascii_lowercase();
    assert!(head.contains("\r\nretry-after: 5\r\n"), "{refusal}");
    assert!(head.contains("content-type: application/json"), "{refusal}");
    assert!(refusal.contains("\"code\":\"server_busy\""), "{refusal}");

    // Small requests are not held up meanwhile.
    assert_eq!(app.get("/healthz").await.status(), StatusCode::OK);
}

/// Issue 43, item 2: five addresses trickling 134 MB of declared uploads
/// made every 5 MB upload from a sixth fail with 503: the room was reserved
/// by declared size. It follows the bytes received now.
async fn uploads_trickling_from_many_addresses_do_not_turn_another_away(backend: Backend) {
    let app = spawn_app_with(backend, |config| {
        config.auth.trust_x_forwarded_for = true;
        config.http.max_body_bytes_in_flight = 64 * 1024 * 1024;
        // Each address's share: one largest upload (11 MiB).
        config.http.max_body_bytes_in_flight_per_address = 0;
    })
    .await;
    // Six addresses each declare 11 MB (63 MiB of the 64) and send nothing more.
    let mut trickling = Vec::new();
    for n in 1..=6 {
        let mut stream = connect(&app).await;
        stream
            .write_all(&upload_head_from(
                "/api/v1/analyses/pet",
                11_000_000,
                Some(&format!("203.0.113.{n}")),
            ))
            .await
            .unwrap();
        trickling.push(stream);
    }
    for stream in &mut trickling {
        assert_eq!(
            read_answer(stream, Duration::from_millis(200)).await,
            None,
            "a trickling upload is read, not refused"
        );
    }
    // A 5 MB upload from a seventh address is read to its end and judged.
    let response = app
        .client
        .post(app.url("/api/v1/analyses/pet"))
        .header("x-forwarded-for", "198.51.100.7")
        .multipart(crate::harness::image_form(vec![b'x'; 5_000_000], "a.jpg"))
        .send()
        .await
        .unwrap();
    let status = response.status();
    let body: Value = response.json().await.unwrap();
    assert_eq!(status, StatusCode::BAD_REQUEST, "{body}");
    assert_eq!(body["code"], "not_an_image", "{body}");
    drop(trickling);
}

/// Issue 25, item 10: 18 slow uploads from one address reserved the whole
/// room, and every other user's upload got 503.
async fn one_address_holds_only_its_share_of_the_bodies_in_flight(backend: Backend) {
    let app = spawn_app_with(backend, |config| {
        config.auth.trust_x_forwarded_for = true;
        config.http.max_body_bytes_in_flight = 64 * 1024 * 1024;
        // The smallest share there is: one largest upload (11 MiB).
        config.http.max_body_bytes_in_flight_per_address = 0;
    })
    .await;
    let upload = |from| upload_head_from("/api/v1/analyses/pet", 6_000_000, Some(from));
    // A slow upload of 6 MB holds most of 203.0.113.1's share...
    let mut slow = connect(&app).await;
    slow.write_all(&upload("203.0.113.1")).await.unwrap();
    // ...so its second is refused before its body is read (once the first
    // has reserved: try again until it has), though the room has 58 MiB left.
    let deadline = std::time::Instant::now() + Duration::from_secs(10);
    let refusal = loop {
        let mut second = connect(&app).await;
        second.write_all(&upload("203.0.113.1")).await.unwrap();
        if let Some(answer) = read_answer(&mut second, Duration::from_secs(2)).await
            && answer.starts_with("HTTP/1.1 429")
        {
            break answer;
        }
        assert!(
            std::time::Instant::now() < deadline,
            "a second upload past the address's share was never refused"
        );
    };
    assert!(refusal.contains("\"code\":\"rate_limited\""), "{refusal}");
    assert!(
        refusal
            .to_ascii_lowercase()
            .contains("\r\nretry-after: 5\r\n"),
        "{refusal}"
    );
    // Another address is let in: the server waits for its body.
    let mut other = connect(&app).await;
    other.write_all(&upload("198.51.100.7")).await.unwrap();
    assert_eq!(
        read_answer(&mut other, Duration::from_secs(2)).await,
        None,
        "another address's upload is read, not refused"
    );
    // Once the slow upload is gone, its address has its share back.
    drop(slow);
    let deadline = std::time::Instant::now() + Duration::from_secs(10);
    loop {
        let mut again = connect(&app).await;
        again.write_all(&upload("203.0.113.1")).await.unwrap();
        if read_answer(&mut again, Duration::from_secs(2))
            .await
            .is_none()
        {
            break;
        }
        assert!(
            std::time::Instant::now() < deadline,
            "the address never got its share back"
        );
    }
}

#[tokio::test]
async fn a_connection_that_never_finishes_its_headers_is_closed() {
    let app = spawn_app_with(Backend::Sqlite, |config| {
        config.http.header_read_timeout_secs = 1;
    })
    .await;
    let mut stream = connect(&app).await;
    stream
        .write_all(b"GET /healthz HTTP/1.1\r\nHost: test\r\nX-Slow: ")
        .await
        .unwrap();
    let mut rest = Vec::new();
    let closed = tokio::time::timeout(Duration::from_secs(10), stream.read_to_end(&mut rest)).await;
    assert!(
        closed.is_ok(),
        "the server still holds a connection whose headers never came"
    );
    assert!(
        !String::from_utf8_lossy(&rest).contains("200 OK"),
        "no request was served"
    );
}

#[tokio::test]
async fn connections_past_the_cap_wait_until_one_closes() {
    let app = spawn_app_with(Backend::Sqlite, |config| {
        config.http.max_connections = 1;
        config.http.header_read_timeout_secs = 60;
    })
    .await;
    let mut holder = connect(&app).await;
    holder
        .write_all(b"GET /healthz HTTP/1.1\r\nHost: test\r\n")
        .await
        .unwrap();
    // The slot is taken once the server reads from the holder; a request on a
    // second connection is then not served while the first stays open.
    let mut waiting = connect(&app).await;
    waiting
        .write_all(b"GET /healthz HTTP/1.1\r\nHost: test\r\nConnection: close\r\n\r\n")
        .await
        .unwrap();
    assert_eq!(
        read_answer(&mut waiting, Duration::from_secs(1)).await,
        None,
        "a second connection was served past the cap of one"
    );
    drop(holder);
    let answer = read_answer(&mut waiting, Duration::from_secs(10))
        .await
        .expect("served once the first connection closed");
    assert!(answer.starts_with("HTTP/1.1 200"), "{answer}");
}

#[tokio::test]
async fn an_upload_whose_body_stops_coming_gets_408_and_is_closed() {
    let app = spawn_app_with(Backend::Sqlite, |config| {
        config.http.body_read_timeout_secs = 1;
    })
    .await;
    let mut stream = connect(&app).await;
    stream
        .write_all(&upload_head("/api/v1/analyses/pet", 5_000_000))
        .await
        .unwrap();
    let answer = read_answer(&mut stream, Duration::from_secs(30))
        .await
        .expect("an answer once the body stalled");
    assert!(answer.starts_with("HTTP/1.1 408"), "{answer}");
    assert!(answer.contains("\"code\":\"body_timeout\""), "{answer}");
    let mut rest = Vec::new();
    let closed = tokio::time::timeout(Duration::from_secs(10), stream.read_to_end(&mut rest)).await;
    assert!(closed.is_ok(), "the stalled connection is still open");
}

#[tokio::test]
async fn a_slow_but_steady_upload_is_not_cut_by_the_body_timeout() {
    let app = spawn_app_with(Backend::Sqlite, |config| {
        config.http.body_read_timeout_secs = 1;
    })
    .await;
    // Ten pieces 400 ms apart: 4 s in all, never 1 s without data.
    let tail = b"not an image\r\n--XYZ--\r\n";
    let head = upload_head("/api/v1/analyses/pet", 0);
    let part = String::from_utf8(head).unwrap();
    let (headers, part_header) = part.split_once("\r\n\r\n").unwrap();
    let body = [part_header.as_bytes(), tail.as_slice()].concat();
    let headers = headers.replace(
        "Content-Length: 0",
        &format!("Content-Length: {}", body.len()),
    );
    let mut stream = connect(&app).await;
    stream
        .write_all(format!("{headers}\r\n\r\n").as_bytes())
        .await
        .unwrap();
    for piece in body.chunks(body.len().div_ceil(10)) {
        // The pauses are what this test sends, not a wait for the server:
        // there is no event to wait for, and the body timeout it must not
        // trip runs on the server's real clock (no test clock reaches it).
        tokio::time::sleep(Duration::from_millis(400)).await;
        stream.write_all(piece).await.unwrap();
    }
    let answer = read_answer(&mut stream, Duration::from_secs(30))
        .await
        .expect("an answer to the whole upload");
    assert!(
        answer.starts_with("HTTP/1.1 4") && !answer.starts_with("HTTP/1.1 408"),
        "the upload was read to its end and judged (not an image): {answer}"
    );
    assert!(answer.contains("not_an_image"), "{answer}");
}

/// Issue 43, item 1: one byte every few seconds restarted the body timeout,
/// so it held a connection for good. Past a short grace, a body must keep
/// up with a minimum rate.
#[tokio::test]
async fn a_body_slower_than_the_minimum_rate_is_cut_after_the_grace() {
    let app = spawn_app_with(Backend::Sqlite, |config| {
        config.http.body_read_timeout_secs = 60;
        config.http.body_rate_grace_secs = 1;
        config.http.min_body_bytes_per_sec = 240;
    })
    .await;
    let mut stream = connect(&app).await;
    stream
        .write_all(&upload_head("/api/v1/analyses/pet", 5_000_000))
        .await
        .unwrap();
    // A byte every 300 ms: never idle for long, far below 240 B/s.
    let mut bytes = 0;
    let answer = loop {
        if stream.write_all(b"x").await.is_ok() {
            bytes += 1;
        }
        if let Some(answer) = read_answer(&mut stream, Duration::from_millis(300)).await {
            break answer;
        }
        assert!(bytes < 100, "still read after 30 s of trickling");
    };
    assert!(answer.starts_with("HTTP/1.1 408"), "{answer}");
    assert!(answer.contains("\"code\":\"body_timeout\""), "{answer}");
}

/// A body that keeps up with the minimum rate still ends by the deadline of
/// its declared size.
#[tokio::test]
async fn a_body_not_complete_by_the_deadline_of_its_size_is_cut() {
    let app = spawn_app_with(Backend::Sqlite, |config| {
        config.http.body_read_timeout_secs = 60;
        config.http.min_body_bytes_per_sec = 1;
        config.http.body_deadline_base_secs = 1;
        // 1 s + 100 kB at 100 kB/s: 2 s for the whole body.
        config.http.body_deadline_bytes_per_sec = 100_000;
    })
    .await;
    let mut stream = connect(&app).await;
    stream
        .write_all(&upload_head("/api/v1/analyses/pet", 100_000))
        .await
        .unwrap();
    let mut sent = 0;
    let answer = loop {
        // 1 kB every 200 ms: 5 kB/s, above the minimum rate.
        if sent < 90_000 && stream.write_all(&[b'x'; 1000]).await.is_ok() {
            sent += 1000;
        }
        if let Some(answer) = read_answer(&mut stream, Duration::from_millis(200)).await {
            break answer;
        }
        assert!(sent < 90_000, "no answer after 18 s");
    };
    assert!(answer.starts_with("HTTP/1.1 408"), "{answer}");
    assert!(answer.contains("\"code\":\"body_timeout\""), "{answer}");
}

/// Issue 43, item 1: slow bodies held every connection and `/healthz`
/// failed. Some connections never receive a body, and when the body places
/// are full the slowest body gives its place to a new one.
#[tokio::test]
async fn requests_without_a_body_are_served_while_slow_bodies_hold_every_body_place() {
    let app = spawn_app_with(Backend::Sqlite, |config| {
        config.http.max_connections = 6;
        config.http.connections_kept_for_requests_without_body = 2;
        config.http.body_read_timeout_secs = 60;
        config.http.body_rate_grace_secs = 60;
    })
    .await;
    // Six slow uploads: four take the body places, the others are refused
    // (or take the place of one that has had its second).
    let mut slow = Vec::new();
    for _ in 0..6 {
        let mut stream = connect(&app).await;
        stream
            .write_all(&upload_head("/api/v1/analyses/pet", 5_000_000))
            .await
            .unwrap();
        slow.push(stream);
    }
    let mut health = connect(&app).await;
    health
        .write_all(b"GET /healthz HTTP/1.1\r\nHost: test\r\nConnection: close\r\n\r\n")
        .await
        .unwrap();
    let answer = read_answer(&mut health, Duration::from_secs(10))
        .await
        .expect("/healthz is served while slow bodies hold their places");
    assert!(answer.starts_with("HTTP/1.1 200"), "{answer}");
    // A fast upload takes the place of the slowest body once the bodies
    // have had their second (before that it is refused with 503).
    crate::harness::eventually("a fast upload to be read to its end", || async {
        let response = app
            .client
            .post(app.url("/api/v1/analyses/pet"))
            .multipart(crate::harness::image_form(vec![b'x'; 200_000], "a.jpg"))
            .send()
            .await;
        // Read to its end and judged: not an image.
        response.is_ok_and(|response| response.status() == StatusCode::BAD_REQUEST)
    })
    .await;
    let mut shed = 0;
    for stream in &mut slow {
        if let Some(answer) = read_answer(stream, Duration::from_millis(500)).await {
            assert!(
                answer.starts_with("HTTP/1.1 408") || answer.starts_with("HTTP/1.1 503"),
                "{answer}"
            );
            shed += 1;
        }
    }
    assert!(
        shed >= 3,
        "at most four slow bodies hold places: {shed} ended"
    );
}

/// A raw connection to the test app from another loopback address
/// (127.0.0.0/8 is all loopback on Linux).
async fn connect_from(app: &TestApp, from: &str) -> TcpStream {
    let socket = tokio::net::TcpSocket::new_v4().unwrap();
    socket.bind(format!("{from}:0").parse().unwrap()).unwrap();
    let address = app.address.trim_start_matches("http://");
    socket
        .connect(address.parse().unwrap())
        .await
        .expect("the app accepts")
}

#[cfg(target_os = "linux")]
#[tokio::test]
async fn one_address_holds_at_most_its_share_of_the_connections() {
    let app = spawn_app_with(Backend::Sqlite, |config| {
        config.http.max_connections_per_address = 4;
        config.http.header_read_timeout_secs = 60;
    })
    .await;
    let mut held = Vec::new();
    for _ in 0..4 {
        let mut stream = connect_from(&app, "127.0.0.2").await;
        stream
            .write_all(b"GET /healthz HTTP/1.1\r\nHost: test\r\n")
            .await
            .unwrap();
        held.push(stream);
    }
    let mut fifth = connect_from(&app, "127.0.0.2").await;
    let _ = fifth
        .write_all(b"GET /healthz HTTP/1.1\r\nHost: test\r\n\r\n")
        .await;
    let answer = read_answer(&mut fifth, Duration::from_secs(10)).await;
    assert!(
        answer
            .as_deref()
            .is_some_and(|answer| !answer.contains("200 OK")),
        "a fifth connection from one address was served: {answer:?}"
    );
    // Everyone else is served meanwhile.
    assert_eq!(app.get("/healthz").await.status(), StatusCode::OK);
    // A place freed is a place taken again.
    drop(held.pop());
    crate::harness::eventually("a freed place taken again", || async {
        let mut again = connect_from(&app, "127.0.0.2").await;
        if again
            .write_all(b"GET /healthz HTTP/1.1\r\nHost: test\r\nConnection: close\r\n\r\n")
            .await
            .is_err()
        {
            return false;
        }
        read_answer(&mut again, Duration::from_secs(5))
            .await
            .is_some_and(|answer| answer.starts_with("HTTP/1.1 200"))
    })
    .await;
}

#[tokio::test]
async fn behind_a_trusted_proxy_the_connections_are_not_capped_per_address() {
    let app = spawn_app_with(Backend::Sqlite, |config| {
        config.http.max_connections_per_address = 2;
        config.http.header_read_timeout_secs = 60;
        config.auth.trust_x_forwarded_for = true;
    })
    .await;
    let mut held = Vec::new();
    for _ in 0..4 {
        let mut stream = connect(&app).await;
        stream
            .write_all(b"GET /healthz HTTP/1.1\r\nHost: test\r\n")
            .await
            .unwrap();
        held.push(stream);
    }
    let mut proxied = connect(&app).await;
    proxied
        .write_all(b"GET /healthz HTTP/1.1\r\nHost: test\r\nConnection: close\r\n\r\n")
        .await
        .unwrap();
    let answer = read_answer(&mut proxied, Duration::from_secs(10))
        .await
        .expect("served");
    assert!(answer.starts_with("HTTP/1.1 200"), "{answer}");
}

#[tokio::test]
async fn made_up_methods_are_counted_under_one_label() {
    // /readyz: the recorder is shared by every test of the process, and
    // another test reads the first /healthz line.
    let app = spawn_app(Backend::Sqlite).await;
    let method = reqwest::Method::from_bytes(b"BREWCOFFEE").unwrap();
    let response = app
        .client
        .request(method, app.url("/readyz"))
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), StatusCode::METHOD_NOT_ALLOWED);
    let text = app.get("/metrics").await.text().await.unwrap();
    assert!(!text.contains("BREWCOFFEE"), "{text}");
    assert!(
        text.lines()
            .any(|line| line.starts_with("http_requests_total{")
                && line.contains("method=\"OTHER\"")
                && line.contains("route=\"/readyz\"")),
        "{text}"
    );
}

#[tokio::test]
async fn metrics_are_served_only_to_the_configured_scraper() {
    // Without a token: loopback only, and not through a proxy.
    let app = spawn_app(Backend::Sqlite).await;
    assert_eq!(app.get("/metrics").await.status(), StatusCode::OK);
    let proxied = app
        .client
        .get(app.url("/metrics"))
        .header("x-forwarded-for", "203.0.113.7")
        .send()
        .await
        .unwrap();
    assert_eq!(proxied.status(), StatusCode::NOT_FOUND);
    assert_eq!(proxied.json::<Value>().await.unwrap()["code"], "not_found");

    // With a token: only who carries it, loopback or not.
    let app = spawn_app_with(Backend::Sqlite, |config| {
        config.http.metrics_token = Some(prettyscore_server::config::Secret::new("scrape-token"));
    })
    .await;
    assert_eq!(app.get("/metrics").await.status(), StatusCode::NOT_FOUND);
    let scraper = app
        .client
        .get(app.url("/metrics"))
        .bearer_auth("scrape-token")
        .send()
        .await
        .unwrap();
    assert_eq!(scraper.status(), StatusCode::OK);
    assert!(
        scraper
            .text()
            .await
            .unwrap()
            .contains("http_requests_total")
    );
}

#[tokio::test]
async fn every_response_carries_the_security_headers_and_hsts_only_over_https() {
    let app = spawn_app(Backend::Sqlite).await;
    for path in [
        "/",
        "/leaderboard",
        "/assets/app-3f2a1b.js",
        "/healthz",
        "/api/v1/app-config",
        "/api/v1/nope",
        "/auth/v1/settings",
        "/api/docs/",
        "/api/openapi.json",
    ] {
        let response = app.get(path).await;
        let headers = response.headers();
        let csp = headers
            .get("content-security-policy")
            .unwrap_or_else(|| panic!("{path}: no CSP"))
            .to_str()
            .unwrap();
        assert!(csp.contains("frame-ancestors 'none'"), "{path}: {csp}");
        assert!(csp.contains("script-src 'self'"), "{path}: {csp}");
        assert!(!csp.contains("script-src 'self' 'unsafe"), "{path}: {csp}");
        assert_eq!(headers["x-content-type-options"], "nosniff", "{path}");
        assert_eq!(
            headers["referrer-policy"], "strict-origin-when-cross-origin",
            "{path}"
        );
        assert!(
            headers.get("strict-transport-security").is_none(),
            "{path}: HSTS on plain http"
        );
    }

    let app = spawn_app_with(Backend::Sqlite, |config| {
        config.public_url = Some("https://prettyscore.example".into());
        config.payments.allow_test_payments = true;
    })
    .await;
    for path in ["/", "/healthz", "/api/v1/nope"] {
        let response = app.get(path).await;
        assert_eq!(
            response.headers()["strict-transport-security"],
            "max-age=31536000; includeSubDomains",
            "{path}"
        );
    }
}

/// Sends `request` on a new connection and reads the answer. Bodies over a
/// limit are sent only up to one byte past it, so the server has read all
/// that was sent when it answers and closes (unread bytes would reset the
/// connection and lose the answer).
async fn exchange(app: &TestApp, request: &[u8]) -> String {
    let mut stream = connect(app).await;
    stream.write_all(request).await.unwrap();
    read_answer(&mut stream, Duration::from_secs(20))
        .await
        .expect("an answer")
}

/// The JSON body of a raw answer.
fn body_of(answer: &str) -> Value {
    let (_, body) = answer.split_once("\r\n\r\n").expect("a head and a body");
    serde_json::from_str(body).unwrap_or_else(|err| panic!("{err}: {answer}"))
}

#[tokio::test]
async fn auth_bodies_over_1_mb_get_413_in_gotrue_shape() {
    let app = spawn_app(Backend::Sqlite).await;
    let limit = prettyscore_server::auth::MAX_BODY_BYTES;
    // A declared length over the limit is refused from the headers...
    let declared = exchange(
        &app,
        format!(
            "POST /auth/v1/signup HTTP/1.1\r\nHost: test\r\nContent-Type: application/json\r\n\
             Content-Length: {}\r\n\r\n",
            limit + 1
        )
        .as_bytes(),
    )
    .await;
    // ...and a chunked body once it passes the limit.
    let mut chunked = format!(
        "POST /auth/v1/signup HTTP/1.1\r\nHost: test\r\nContent-Type: application/json\r\n\
         Transfer-Encoding: chunked\r\n\r\n{:x}\r\n",
        limit + 1
    )
    .into_bytes();
    chunked.extend(std::iter::repeat_n(b' ', limit + 1));
    let chunked = exchange(&app, &chunked).await;
    for answer in [declared, chunked] {
        assert!(answer.starts_with("HTTP/1.1 413"), "{answer}");
        assert!(
            answer
                .to_ascii_lowercase()
                .contains("content-type: application/json"),
            "{answer}"
        );
        let body = body_of(&answer);
        assert_eq!(body["error_code"], "request_too_large", "{body}");
        assert!(
            body["msg"].as_str().unwrap().contains("too large"),
            "{body}"
        );
    }
}

#[tokio::test]
async fn repeated_query_keys_get_400_in_the_error_shape() {
    let app = spawn_app(Backend::Sqlite).await;
    let response = app.get("/api/v1/photos?sort=latest&sort=rating").await;
    assert_eq!(response.status(), StatusCode::BAD_REQUEST);
    let body: Value = response.json().await.unwrap();
    assert_eq!(body["code"], "invalid_query", "{body}");
    assert!(body["message"].as_str().unwrap().contains("sort"), "{body}");

    let response = app
        .get("/auth/v1/verify?type=signup&token=a&type=recovery")
        .await;
    assert_eq!(response.status(), StatusCode::BAD_REQUEST);
    let body: Value = response.json().await.unwrap();
    assert_eq!(body["error_code"], "validation_failed", "{body}");
    assert!(body["msg"].as_str().unwrap().contains("type"), "{body}");
}

#[tokio::test]
async fn a_wrong_method_gets_405_in_the_error_shape_with_allow() {
    let app = spawn_app(Backend::Sqlite).await;
    for (method, path) in [
        (reqwest::Method::PUT, "/api/v1/app-config"),
        (reqwest::Method::DELETE, "/api/v1/analyses/face"),
        (reqwest::Method::POST, "/readyz"),
    ] {
        let response = app
            .client
            .request(method.clone(), app.url(path))
            .send()
            .await
            .unwrap();
        assert_eq!(
            response.status(),
            StatusCode::METHOD_NOT_ALLOWED,
            "{method} {path}"
        );
        assert!(response.headers().contains_key("allow"), "{method} {path}");
        let body: Value = response.json().await.unwrap();
        assert_eq!(body["code"], "method_not_allowed", "{method} {path}");
    }
    let response = app
        .client
        .get(app.url("/auth/v1/signup"))
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), StatusCode::METHOD_NOT_ALLOWED);
    let body: Value = response.json().await.unwrap();
    assert_eq!(body["error_code"], "method_not_allowed", "{body}");
}

async fn a_patch_body_over_the_limit_gets_413_in_the_error_shape(backend: Backend) {
    let app = spawn_app(backend).await;
    let tokens = app.sign_up("patcher@example.com").await;
    let length = prettyscore_server::http::BODY_LIMIT + 1;
    let mut request = format!(
        "PATCH /api/v1/photos/{} HTTP/1.1\r\nHost: test\r\nAuthorization: Bearer {}\r\n\
         Content-Type: application/json\r\nContent-Length: {length}\r\n\r\n",
        uuid::Uuid::new_v4(),
        access(&tokens)
    )
    .into_bytes();
    request.extend(std::iter::repeat_n(b' ', length));
    let answer = exchange(&app, &request).await;
    assert!(answer.starts_with("HTTP/1.1 413"), "{answer}");
    assert_eq!(body_of(&answer)["code"], "body_too_large", "{answer}");
}

#[tokio::test]
async fn the_openapi_document_declares_the_bearer_scheme_and_the_edge_errors() {
    let doc = serde_json::to_value(prettyscore_server::app::openapi()).unwrap();
    assert_eq!(
        doc["components"]["securitySchemes"]["bearer"],
        json!({
            "type": "http",
            "scheme": "bearer",
            "bearerFormat": "JWT",
            "description": doc["components"]["securitySchemes"]["bearer"]["description"],
        })
    );
    let mut checked = 0;
    for (path, item) in doc["paths"].as_object().unwrap() {
        for (method, operation) in item.as_object().unwrap() {
            let answers = &operation["responses"];
            let secured = operation["security"]
                .as_array()
                .is_some_and(|list| list.iter().any(|r| r.get("bearer").is_some()));
            if answers.get("401").is_some() {
                assert!(secured, "{method} {path} answers 401 but is not secured");
            }
            let body_types: Vec<&String> = operation["requestBody"]["content"]
                .as_object()
                .map(|content| content.keys().collect())
                .unwrap_or_default();
            if !body_types.is_empty() {
                for status in ["400", "413", "415"] {
                    assert!(
                        answers.get(status).is_some(),
                        "{method} {path}: no {status}"
                    );
                }
            }
            if body_types.iter().any(|t| t.contains("json")) {
                assert!(answers.get("422").is_some(), "{method} {path}: no 422");
            }
            checked += 1;
        }
    }
    assert!(checked > 10, "{checked} operations");
    for (method, path) in [
        ("get", "/api/v1/account/export"),
        ("delete", "/api/v1/account"),
    ] {
        let security = &doc["paths"][path][method]["security"];
        assert_eq!(security, &json!([{"bearer": []}]), "{method} {path}");
    }
    let listing = doc.pointer("/components/schemas/SavePhotoForm/properties/public_listing");
    let listing = listing.expect("SavePhotoForm.public_listing is documented");
    assert_eq!(listing["type"], "boolean", "not nullable: {listing}");
}
