//! Payments (issue 12): checkout at the server's price, the sandbox's test
//! checkout, Stripe's webhooks (signature, redelivery, order), the
//! subscription's life, refunds and holds, the feature gates and their one
//! trial, and the Stripe adapter against a wiremock double and localstripe.

pub(crate) mod checkout;
pub mod features;
mod localstripe;
mod once;
mod stripe;
mod webhook;

use prettyscore_server::config::{Config, PaymentProviderKind, Secret};
use reqwest::{Method, StatusCode};
use serde_json::{Value, json};
use uuid::Uuid;
use wiremock::matchers::{method, path};
use wiremock::{Mock, MockServer, ResponseTemplate};

use crate::auth::{access, claims, spawn_with};
use crate::helpers::{Backend, TestApp};

pub const WEBHOOK_SECRET: &str = "whsec_test_secret";

/// A signed-in user.
pub struct Caller {
    pub token: String,
    pub id: Uuid,
    pub email: String,
}

/// Signs up with a display name (the address's local part), as anyone who
/// writes to a contestant needs one; [`sign_up_unnamed`] for a user without.
pub async fn sign_up(app: &TestApp, email: &str) -> Caller {
    let name = email.split('@').next().unwrap_or(email);
    caller(app.sign_up_named(email, name).await, email)
}

/// Signs up without a display name.
pub async fn sign_up_unnamed(app: &TestApp, email: &str) -> Caller {
    caller(app.sign_up(email).await, email)
}

fn caller(tokens: Value, email: &str) -> Caller {
    let token = access(&tokens).to_owned();
    let id = claims(&token)["sub"].as_str().unwrap().parse().unwrap();
    Caller {
        token,
        id,
        email: email.to_owned(),
    }
}

/// A JSON call to any path; `(status, body)`.
pub async fn call(
    app: &TestApp,
    method: Method,
    path: &str,
    token: Option<&str>,
    body: Option<Value>,
) -> (StatusCode, Value) {
    let mut request = app.client.request(method, app.url(path));
    if let Some(token) = token {
        request = request.bearer_auth(token);
    }
    if let Some(body) = body {
        request = request.json(&body);
    }
    let response = request.send().await.expect("the test server answers");
    let status = response.status();
    let text = response.text().await.unwrap();
    let body = serde_json::from_str(&text).unwrap_or(Value::String(text));
    (status, body)
}

pub async fn post(app: &TestApp, path: &str, caller: &Caller, body: Value) -> (StatusCode, Value) {
    call(app, Method::POST, path, Some(&caller.token), Some(body)).await
}

pub async fn get(app: &TestApp, path: &str, caller: &Caller) -> (StatusCode, Value) {
    call(app, Method::GET, path, Some(&caller.token), None).await
}

#[track_caller]
pub fn assert_error(reply: &(StatusCode, Value), status: StatusCode, code: &str) {
    assert_eq!(reply.0, status, "{}", reply.1);
    assert_eq!(reply.1["code"], code, "{}", reply.1);
    assert!(reply.1["message"].as_str().is_some_and(|m| !m.is_empty()));
}

#[track_caller]
pub fn ok(reply: (StatusCode, Value)) -> Value {
    assert_eq!(reply.0, StatusCode::OK, "{}", reply.1);
    reply.1
}

/// The app on the sandbox provider (the default), with the webhook secret
/// set too.
pub async fn sandbox_app(backend: Backend) -> TestApp {
    spawn_with(backend, |config| {
        config.payments.stripe.webhook_secret = Some(Secret::new(WEBHOOK_SECRET));
    })
    .await
}

/// The app on the Stripe provider, talking to `stripe` (a double).
pub async fn stripe_app(backend: Backend, stripe: &str) -> TestApp {
    stripe_app_with(backend, stripe, |_| {}).await
}

pub async fn stripe_app_with(
    backend: Backend,
    stripe: &str,
    customise: impl FnOnce(&mut Config),
) -> TestApp {
    let base_url = stripe.to_owned();
    spawn_with(backend, move |config| {
        config.payments.provider = PaymentProviderKind::Stripe;
        config.payments.stripe.base_url = base_url;
        config.payments.stripe.secret_key = Some(Secret::new("sk_test_double"));
        config.payments.stripe.webhook_secret = Some(Secret::new(WEBHOOK_SECRET));
        customise(config);
    })
    .await
}

/// A Stripe double that opens checkout sessions `cs_test_<n>`.
pub async fn stripe_double() -> MockServer {
    let server = MockServer::start().await;
    Mock::given(method("POST"))
        .and(path("/v1/checkout/sessions"))
        .respond_with(|request: &wiremock::Request| {
            let n = uuid::Uuid::new_v4().simple().to_string();
            let _ = request;
            ResponseTemplate::new(200).set_body_json(json!({
                "id": format!("cs_test_{n}"),
                "object": "checkout.session",
                "url": format!("https://checkout.stripe.test/c/pay/cs_test_{n}"),
            }))
        })
        .mount(&server)
        .await;
    server
}

/// A Stripe event as Stripe sends it.
pub fn event(id: &str, kind: &str, created: i64, object: Value) -> Value {
    json!({
        "id": id,
        "object": "event",
        "type": kind,
        "created": created,
        "livemode": false,
        "data": { "object": object },
    })
}

pub fn now() -> i64 {
    chrono::Utc::now().timestamp()
}

/// Sends `event` to the webhook, signed with `secret` at `timestamp`.
pub async fn deliver_signed(
    app: &TestApp,
    event: &Value,
    secret: &str,
    timestamp: i64,
) -> (StatusCode, Value) {
    let body = serde_json::to_vec(event).unwrap();
    let signature =
        prettyscore_server::providers::payments::stripe::signature_header(secret, timestamp, &body);
    let response = app
        .client
        .post(app.url("/api/v1/billing/webhook"))
        .header("Stripe-Signature", signature)
        .header("Content-Type", "application/json")
        .body(body)
        .send()
        .await
        .unwrap();
    let status = response.status();
    (status, response.json().await.unwrap_or(Value::Null))
}

/// Sends `event` as Stripe would, now; asserts it was accepted.
pub async fn deliver(app: &TestApp, event: &Value) -> Value {
    ok(deliver_signed(app, event, WEBHOOK_SECRET, now()).await)
}

pub async fn subscription_of(app: &TestApp, caller: &Caller) -> Value {
    ok(post(app, "/functions/v1/check-subscription", caller, json!({})).await)
}

pub async fn payments_of(app: &TestApp, caller: &Caller) -> Vec<Value> {
    ok(get(app, "/api/v1/billing/payments", caller).await)
        .as_array()
        .unwrap()
        .clone()
}

pub async fn count(app: &TestApp, table: &str) -> i64 {
    use sea_orm::{ConnectionTrait, Statement};
    let row = app
        .db
        .query_one_raw(Statement::from_string(
            app.db.get_database_backend(),
            format!("SELECT COUNT(*) AS n FROM {table}"),
        ))
        .await
        .unwrap()
        .unwrap();
    row.try_get::<i64>("", "n").unwrap()
}

/// Runs SQL with `$n` placeholders on either database.
pub async fn sql(app: &TestApp, statement: &str, values: Vec<sea_orm::Value>) {
    use sea_orm::{ConnectionTrait, DbBackend, Statement};
    let backend = app.db.get_database_backend();
    let statement = if backend == DbBackend::Sqlite {
        let mut text = statement.to_owned();
        for n in (1..=values.len()).rev() {
            text = text.replace(&format!("${n}"), &format!("?{n}"));
        }
        text
    } else {
        statement.to_owned()
    };
    app.db
        .execute_raw(Statement::from_sql_and_values(backend, statement, values))
        .await
        .unwrap();
}

/// Opens a checkout for `kind` as `caller` (the detailed analysis for a
/// new saved result of theirs).
pub async fn checkout(app: &TestApp, caller: &Caller, kind: &str) -> Value {
    ok(post(
        app,
        "/functions/v1/create-checkout",
        caller,
        json!({"userId": caller.id, "email": caller.email, "type": kind,
               "metadata": purchase_metadata(app, caller, kind).await}),
    )
    .await)
}

/// The metadata a checkout of `kind` needs: a saved personality result of
/// the caller's for the detailed analysis.
pub async fn purchase_metadata(app: &TestApp, caller: &Caller, kind: &str) -> Value {
    if kind == "personality_detailed" {
        json!({"personality_result_id": personality_result(app, caller, 0).await})
    } else {
        json!({})
    }
}

/// Saves a basic personality result for `caller` (answers picked by
/// `seed`), as a finished quiz does; its id.
pub async fn personality_result(app: &TestApp, caller: &Caller, seed: usize) -> Uuid {
    use prettyscore_server::personality::{entity, quiz::QUESTIONS};
    use sea_orm::{ActiveModelTrait, Set};
    let answers: std::collections::BTreeMap<String, String> = (0..20)
        .map(|i| {
            (
                i.to_string(),
                QUESTIONS[i].options[(i + seed) % 3].value.to_owned(),
            )
        })
        .collect();
    entity::ActiveModel {
        id: Set(Uuid::now_v7()),
        user_id: Set(caller.id),
        quiz_type: Set("basic".to_owned()),
        answers: Set(json!(answers)),
        score: Set(75),
        personality_type: Set("Test".to_owned()),
        analysis: Set("A basic analysis.".to_owned()),
        paid: Set(false),
        created_at: Set(chrono::Utc::now()),
        payment_id: Set(None),
    }
    .insert(&app.db)
    .await
    .unwrap()
    .id
}

/// The checkout row's id (our `checkout_id` metadata) for a provider session.
pub async fn checkout_id(app: &TestApp, session_id: &str) -> Uuid {
    use prettyscore_server::billing::entity::checkout;
    use sea_orm::{ColumnTrait, EntityTrait, QueryFilter};
    checkout::Entity::find()
        .filter(checkout::Column::ProviderSessionId.eq(session_id))
        .one(&app.db)
        .await
        .unwrap()
        .expect("a checkout row for the session")
        .id
}
