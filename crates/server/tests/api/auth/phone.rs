//! Phone sign-in with an SMS provider: the embedded one (texts kept in the
//! outbox) and Twilio's Messages API (a local double).

use super::*;
use prettyscore_server::config::{Secret, SmsProviderKind};
use prettyscore_server::mail::outbox;
use sea_orm::{ColumnTrait, EntityTrait, QueryFilter, QueryOrder};
use wiremock::matchers::{body_string_contains, header, method, path};
use wiremock::{Mock, MockServer, ResponseTemplate};

const PHONE: &str = "+15551234567";

on_both_databases!(
    with_the_embedded_provider_a_phone_signs_in_with_a_texted_code,
    a_phone_sign_up_is_confirmed_by_its_texted_code
);

fn embedded(config: &mut Config) {
    config.auth.sms.provider = SmsProviderKind::Embedded;
    config.auth.dev_outbox = true;
}

/// The code in the newest text to `phone`, read from the outbox.
async fn last_text(app: &TestApp, phone: &str) -> String {
    let row = outbox::Entity::find()
        .filter(outbox::Column::ToAddress.eq(phone))
        .filter(outbox::Column::Kind.eq("sms"))
        .order_by_desc(outbox::Column::CreatedAt)
        .one(&app.db)
        .await
        .unwrap()
        .unwrap_or_else(|| panic!("no text to {phone}"));
    row.body_text
}

fn six_digits(text: &str) -> String {
    let at = text
        .find(|c: char| c.is_ascii_digit())
        .expect("a code in the text");
    text[at..at + 6].to_owned()
}

async fn with_the_embedded_provider_a_phone_signs_in_with_a_texted_code(backend: Backend) {
    let app = spawn_app_with(backend, embedded).await;
    let settings = app
        .call(reqwest::Method::GET, "/settings", None, None)
        .await;
    assert_eq!(settings.assert_ok()["external"]["phone"], true);

    let sent = app.post("/otp", json!({"phone": PHONE})).await;
    assert!(
        sent.assert_ok()["message_id"].is_string(),
        "{:?}",
        sent.body
    );
    let text = last_text(&app, PHONE).await;
    // The development outbox shows it beside the mail.
    let listed = app
        .call(reqwest::Method::GET, "/api/v1/dev/outbox", None, None)
        .await;
    assert!(
        listed.assert_ok()["messages"]
            .as_array()
            .unwrap()
            .iter()
            .any(|m| m["to"] == PHONE && m["kind"] == "sms"),
        "{:?}",
        listed.body
    );

    let wrong = app
        .post(
            "/verify",
            json!({"type": "sms", "phone": PHONE, "token": "000000"}),
        )
        .await;
    if six_digits(&text) != "000000" {
        wrong.assert_error(403, "otp_expired");
    }
    let tokens = app
        .post(
            "/verify",
            json!({"type": "sms", "phone": PHONE, "token": six_digits(&text)}),
        )
        .await;
    let tokens = tokens.assert_ok();
    assert_eq!(tokens["user"]["phone"], "15551234567");
    assert!(tokens["user"]["phone_confirmed_at"].is_string());
    assert_eq!(claims(access(tokens))["amr"][0]["method"], "otp");
    // A code works once.
    app.post(
        "/verify",
        json!({"type": "sms", "phone": PHONE, "token": six_digits(&text)}),
    )
    .await
    .assert_error(403, "otp_expired");
}

async fn phone_sign_in(app: &TestApp) -> Reply {
    app.post(
        "/token?grant_type=password",
        json!({"phone": PHONE, "password": PASSWORD}),
    )
    .await
}

async fn a_phone_sign_up_is_confirmed_by_its_texted_code(backend: Backend) {
    let app = spawn_app_with(backend, |c| {
        embedded(c);
        c.auth.rate_limits.email_resend_gap_secs = 0;
    })
    .await;
    let user = app
        .post("/signup", json!({"phone": PHONE, "password": PASSWORD}))
        .await;
    assert!(user.assert_ok()["phone_confirmed_at"].is_null());
    phone_sign_in(&app)
        .await
        .assert_error(400, "phone_not_confirmed");

    // A texted code cannot be spent as a mail code (it is used up trying).
    let code = six_digits(&last_text(&app, PHONE).await);
    app.post(
        "/verify",
        json!({"type": "signup", "token_hash": sha256_hex(&format!("15551234567{code}"))}),
    )
    .await
    .assert_error(403, "otp_expired");
    assert!(app.get_user_by_phone().await.email_confirmed_at.is_none());

    // A new code by /resend confirms the phone.
    let resent = app
        .post("/resend", json!({"type": "sms", "phone": PHONE}))
        .await;
    assert!(resent.assert_ok()["message_id"].is_string());
    let code = six_digits(&last_text(&app, PHONE).await);
    app.post(
        "/verify",
        json!({"type": "sms", "phone": PHONE, "token": code}),
    )
    .await
    .assert_ok();
    phone_sign_in(&app).await.assert_ok();
}

impl TestApp {
    async fn get_user_by_phone(&self) -> prettyscore_server::db::entities::users::Model {
        prettyscore_server::db::entities::users::Entity::find()
            .filter(prettyscore_server::db::entities::users::Column::Phone.eq("15551234567"))
            .one(&self.db)
            .await
            .unwrap()
            .unwrap()
    }
}

fn sha256_hex(text: &str) -> String {
    use sha2::{Digest, Sha256};
    data_encoding::HEXLOWER.encode(&Sha256::digest(text.as_bytes()))
}

on_both_databases!(with_twilio_the_code_goes_to_the_messages_api,);

async fn with_twilio_the_code_goes_to_the_messages_api(backend: Backend) {
    let twilio = MockServer::start().await;
    Mock::given(method("POST"))
        .and(path("/2010-04-01/Accounts/AC123/Messages.json"))
        // Basic auth: AC123:secret-token.
        .and(header("authorization", "Basic QUMxMjM6c2VjcmV0LXRva2Vu"))
        .and(header("content-type", "application/x-www-form-urlencoded"))
        .and(body_string_contains("To=%2B15551234567"))
        .and(body_string_contains("From=%2B15005550006"))
        .respond_with(
            ResponseTemplate::new(201)
                .set_body_json(json!({"sid": "SM42", "status": "queued", "error_code": null})),
        )
        .expect(1)
        .mount(&twilio)
        .await;
    let base_url = twilio.uri();
    let app = spawn_app_with(backend, |c| {
        c.auth.sms.provider = SmsProviderKind::Twilio;
        c.auth.sms.twilio.base_url = base_url;
        c.auth.sms.twilio.account_sid = Some("AC123".into());
        c.auth.sms.twilio.auth_token = Some(Secret::new("secret-token"));
        c.auth.sms.twilio.from = Some("+15005550006".into());
    })
    .await;
    let sent = app.post("/otp", json!({"phone": PHONE})).await;
    assert_eq!(sent.assert_ok()["message_id"], "SM42");

    // The code Twilio was asked to send signs the user in.
    let requests = twilio.received_requests().await.unwrap();
    let form: Vec<(String, String)> = url::form_urlencoded::parse(&requests[0].body)
        .into_owned()
        .collect();
    let body = &form.iter().find(|(k, _)| k == "Body").unwrap().1;
    app.post(
        "/verify",
        json!({"type": "sms", "phone": PHONE, "token": six_digits(body)}),
    )
    .await
    .assert_ok();
}

on_both_databases!(a_twilio_refusal_is_sms_send_failed,);

async fn a_twilio_refusal_is_sms_send_failed(backend: Backend) {
    let twilio = MockServer::start().await;
    Mock::given(method("POST"))
        .respond_with(ResponseTemplate::new(400).set_body_json(
            json!({"code": 21211, "message": "The 'To' number is not a valid phone number.", "status": 400}),
        ))
        .mount(&twilio)
        .await;
    let base_url = twilio.uri();
    let app = spawn_app_with(backend, |c| {
        c.auth.sms.provider = SmsProviderKind::Twilio;
        c.auth.sms.twilio.base_url = base_url;
        c.auth.sms.twilio.account_sid = Some("AC123".into());
        c.auth.sms.twilio.auth_token = Some(Secret::new("secret-token"));
        c.auth.sms.twilio.message_service_sid = Some("MG1".into());
    })
    .await;
    app.post("/otp", json!({"phone": PHONE}))
        .await
        .assert_error(500, "sms_send_failed");
}
