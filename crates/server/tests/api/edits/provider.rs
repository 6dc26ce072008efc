//! The generative provider, against a local double of the OpenAI-compatible
//! image-edit API.

use std::time::Duration;

use wiremock::matchers::header;

use super::*;

/// The multipart body of the provider request, as text where it is text.
fn body_text(request: &wiremock::Request) -> String {
    String::from_utf8_lossy(&request.body).into_owned()
}

/// The value of a text field in a multipart body.
fn field<'a>(body: &'a str, name: &str) -> Option<&'a str> {
    let marker = format!("name=\"{name}\"\r\n\r\n");
    let start = body.find(&marker)? + marker.len();
    let end = body[start..].find("\r\n")?;
    Some(&body[start..start + end])
}

async fn provider_answering(template: ResponseTemplate) -> MockServer {
    let server = MockServer::start().await;
    Mock::given(method("POST"))
        .and(path("/v1/images/edits"))
        .respond_with(template)
        .mount(&server)
        .await;
    server
}

on_both_databases!(
    prompts_beyond_the_engine_go_to_the_provider_and_its_image_is_stored,
    the_providers_429_is_our_rate_limit_message_and_costs_nothing,
    the_providers_402_asks_for_credits,
    an_exhausted_provider_balance_asks_for_credits_too,
    a_slow_or_broken_provider_is_a_failed_edit,
    gpt_image_models_are_not_sent_a_response_format,
    a_photo_just_under_ten_megabytes_fits_in_the_request
);

async fn prompts_beyond_the_engine_go_to_the_provider_and_its_image_is_stored(backend: Backend) {
    let provider = MockServer::start().await;
    Mock::given(method("POST"))
        .and(path("/v1/images/edits"))
        .and(header(
            "authorization",
            format!("Bearer {API_KEY}").as_str(),
        ))
        .respond_with(ResponseTemplate::new(200).set_body_json(provider_answer()))
        .expect(1)
        .mount(&provider)
        .await;
    let app = spawn_with_provider(backend, &provider).await;
    let photo = sample_png();
    let mut browser = Browser::default();
    let reply = browser
        .edit(
            &app,
            json!({"imageUrl": data_url(&photo), "prompt": format!("  {GENERATIVE_PROMPT} ")}),
        )
        .await;
    let body = reply.ok();
    assert_eq!(body["engine"], "generative");
    assert_eq!(body["operations"], json!(["generative"]));
    assert_eq!(body["editsRemaining"], 4);

    let requests = provider.received_requests().await.unwrap();
    let request = &requests[0];
    let content_type = request
        .headers
        .get("content-type")
        .unwrap()
        .to_str()
        .unwrap();
    assert!(
        content_type.starts_with("multipart/form-data; boundary="),
        "{content_type}"
    );
    let text = body_text(request);
    assert_eq!(field(&text, "model"), Some(MODEL));
    assert_eq!(
        field(&text, "prompt"),
        Some(GENERATIVE_PROMPT),
        "the trimmed prompt"
    );
    assert_eq!(field(&text, "response_format"), Some("b64_json"));
    assert!(
        text.contains("name=\"image\"; filename=\"image.png\""),
        "{}",
        &text[..400.min(text.len())]
    );
    let sent_image = request
        .body
        .windows(photo.len())
        .any(|window| window == photo.as_slice());
    assert!(sent_image, "the photo's bytes are the image part");

    // What is stored is the provider's image, as a JPEG.
    let (status, stored) = fetch(&app, body["editedImageUrl"].as_str().unwrap()).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(&stored[..3], &[0xFF, 0xD8, 0xFF]);
    let stored = image::load_from_memory(&stored).unwrap().to_rgb8();
    assert_eq!(stored.dimensions(), (24, 16));
    let centre = stored.get_pixel(12, 8);
    assert!(
        centre[0] > 180 && centre[1] < 60,
        "the provider's red image: {centre:?}"
    );
}

async fn the_providers_429_is_our_rate_limit_message_and_costs_nothing(backend: Backend) {
    let provider = provider_answering(
            ResponseTemplate::new(429).set_body_json(json!({"error": {"message": "slow down", "type": "requests", "code": "rate_limit_exceeded"}})),
        )
        .await;
    let app = spawn_with_provider(backend, &provider).await;
    let mut browser = Browser::default();
    let reply = browser.generative_edit(&app).await;
    reply.assert_error(StatusCode::TOO_MANY_REQUESTS, "rate_limited");
    assert_eq!(
        reply.body["message"],
        "Rate limit exceeded. Please try again later."
    );
    assert_eq!(browser.quota(&app).await["remaining"], 5);
}

async fn the_providers_402_asks_for_credits(backend: Backend) {
    let provider = provider_answering(
        ResponseTemplate::new(402).set_body_json(json!({"error": {"message": "Payment required"}})),
    )
    .await;
    let app = spawn_with_provider(backend, &provider).await;
    let mut browser = Browser::default();
    let reply = browser.generative_edit(&app).await;
    reply.assert_error(StatusCode::PAYMENT_REQUIRED, "provider_credits");
    assert_eq!(
        reply.body["message"],
        "Please add credits to continue editing."
    );
    assert_eq!(browser.quota(&app).await["remaining"], 5);
}

async fn an_exhausted_provider_balance_asks_for_credits_too(backend: Backend) {
    // OpenAI answers an empty balance with 429 `insufficient_quota`.
    let provider = provider_answering(
            ResponseTemplate::new(429).set_body_json(json!({"error": {"message": "You exceeded your current quota", "type": "insufficient_quota", "code": "insufficient_quota"}})),
        )
        .await;
    let app = spawn_with_provider(backend, &provider).await;
    let reply = Browser::default().generative_edit(&app).await;
    reply.assert_error(StatusCode::PAYMENT_REQUIRED, "provider_credits");
}

async fn a_slow_or_broken_provider_is_a_failed_edit(backend: Backend) {
    let provider = MockServer::start().await;
    Mock::given(method("POST"))
        .and(path("/v1/images/edits"))
        .respond_with(
            ResponseTemplate::new(200)
                .set_body_json(provider_answer())
                .set_delay(Duration::from_secs(4)),
        )
        .mount(&provider)
        .await;
    let base_url = format!("{}/v1", provider.uri());
    let app = spawn_app_with(backend, move |config| {
        config.edits.provider.base_url = Some(base_url);
        config.edits.provider.timeout_secs = 1;
    })
    .await;
    let mut browser = Browser::default();
    let reply = browser.generative_edit(&app).await;
    reply.assert_error(StatusCode::BAD_GATEWAY, "edit_failed");
    assert_eq!(
        reply.body["message"],
        "Failed to edit photo. Please try again."
    );
    // Without a model, none is sent and the provider's default applies.
    let requests = provider.received_requests().await.unwrap();
    assert_eq!(field(&body_text(&requests[0]), "model"), None);
    assert!(
        requests[0].headers.get("authorization").is_none(),
        "no key configured, none sent"
    );

    for broken in [
        ResponseTemplate::new(200).set_body_json(json!({"data": []})),
        ResponseTemplate::new(200)
            .set_body_json(json!({"data": [{"url": "https://example.com/a.png"}]})),
        ResponseTemplate::new(200)
            .set_body_json(json!({"data": [{"b64_json": BASE64.encode(b"not an image")}]})),
        ResponseTemplate::new(200).set_body_string("<html>"),
        ResponseTemplate::new(400).set_body_json(json!({"error": {"message": "bad"}})),
        ResponseTemplate::new(302).insert_header("location", "http://169.254.169.254/"),
    ] {
        provider.reset().await;
        Mock::given(method("POST"))
            .respond_with(broken)
            .mount(&provider)
            .await;
        let reply = browser.generative_edit(&app).await;
        reply.assert_error(StatusCode::BAD_GATEWAY, "edit_failed");
    }
    assert_eq!(
        browser.quota(&app).await["remaining"],
        5,
        "no failure counted"
    );
}

async fn gpt_image_models_are_not_sent_a_response_format(backend: Backend) {
    let provider = provider_double().await;
    let base_url = format!("{}/v1", provider.uri());
    let app = spawn_app_with(backend, move |config| {
        config.edits.provider.base_url = Some(base_url);
        config.edits.provider.model = Some("gpt-image-1".into());
    })
    .await;
    Browser::default().generative_edit(&app).await.ok();
    let requests = provider.received_requests().await.unwrap();
    let text = body_text(&requests[0]);
    assert_eq!(field(&text, "model"), Some("gpt-image-1"));
    assert_eq!(field(&text, "response_format"), None);
}

async fn a_photo_just_under_ten_megabytes_fits_in_the_request(backend: Backend) {
    // 9.9 MB as a data URL is a 13 MB body: above the 11 MB of uploads.
    let provider = provider_double().await;
    let app = spawn_with_provider(backend, &provider).await;
    let mut photo = sample_png();
    photo.resize(9_900_000, 0);
    let reply = Browser::default()
        .edit(
            &app,
            json!({"imageUrl": data_url(&photo), "prompt": GENERATIVE_PROMPT}),
        )
        .await;
    assert_eq!(reply.ok()["engine"], "generative");
    let sent = &provider.received_requests().await.unwrap()[0];
    assert!(sent.body.len() > 9_900_000);
}
