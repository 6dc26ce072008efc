//! Payments: the app on the sandbox provider or on Stripe, the Stripe double
//! (a wiremock server and how to read what it was sent), Stripe's events
//! delivered to the webhook as Stripe signs them, the sandbox's events
//! delivered as its worker would, and buying in the sandbox.

use std::collections::BTreeMap;

use prettyscore_server::config::{Config, PaymentProviderKind, Secret, StripeConfig};
use prettyscore_server::providers::payments::stripe::Stripe;
use serde_json::{Value, json};
use uuid::Uuid;
use wiremock::matchers::{method, path};
use wiremock::{Mock, MockServer, ResponseTemplate};

use super::app::{Backend, TestApp, spawn_app_with};
use super::client::{Reply, get, post};
use super::seed::{Caller, personality_result};

pub const WEBHOOK_SECRET: &str = "whsec_test_secret";

/// The app on the sandbox provider (the default), with the webhook secret
/// set too.
pub async fn sandbox_app(backend: Backend) -> TestApp {
    spawn_app_with(backend, |config| {
        config.payments.stripe.webhook_secret = Some(Secret::new(WEBHOOK_SECRET));
    })
    .await
}

/// The app on the Stripe provider, talking to `stripe` (a double).
pub async fn stripe_app(backend: Backend, stripe: &str) -> TestApp {
    stripe_app_with(backend, stripe, |_| {}).await
}

/// [`stripe_app`] with a configuration change.
pub async fn stripe_app_with(
    backend: Backend,
    stripe: &str,
    customise: impl FnOnce(&mut Config),
) -> TestApp {
    let base_url = stripe.to_owned();
    spawn_app_with(backend, move |config| {
        config.payments.provider = PaymentProviderKind::Stripe;
        config.payments.stripe.base_url = base_url;
        config.payments.stripe.secret_key = Some(Secret::new("sk_test_double"));
        config.payments.stripe.webhook_secret = Some(Secret::new(WEBHOOK_SECRET));
        customise(config);
    })
    .await
}

/// A Stripe double that opens checkout sessions `cs_test_<n>`; mount more
/// mocks on it for the other calls a test makes.
pub async fn stripe_double() -> MockServer {
    let server = MockServer::start().await;
    Mock::given(method("POST"))
        .and(path("/v1/checkout/sessions"))
        .respond_with(|_: &wiremock::Request| {
            let n = uuid::Uuid::new_v4().simple().to_string();
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

/// The Stripe adapter itself, talking to `server`.
pub fn stripe_client(server: &MockServer) -> Stripe {
    Stripe::from_config(&StripeConfig {
        base_url: server.uri(),
        secret_key: Some(Secret::new("sk_test_double")),
        webhook_secret: None,
        timeout_secs: 5,
    })
    .unwrap()
}

/// The form a request to the Stripe double carried.
pub fn stripe_form(request: &wiremock::Request) -> BTreeMap<String, String> {
    url::form_urlencoded::parse(&request.body)
        .into_owned()
        .collect()
}

/// The `Idempotency-Key` a request to the Stripe double carried.
pub fn idempotency_key(request: &wiremock::Request) -> Option<String> {
    request
        .headers
        .get("Idempotency-Key")
        .and_then(|value| value.to_str().ok())
        .map(str::to_owned)
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

/// Now, as a Unix timestamp (an event's `created`, a signature's time).
pub fn now() -> i64 {
    chrono::Utc::now().timestamp()
}

/// Sends `event` to the webhook, signed with `secret` at `timestamp`.
pub async fn deliver_signed(app: &TestApp, event: &Value, secret: &str, timestamp: i64) -> Reply {
    let body = serde_json::to_vec(event).unwrap();
    let signature =
        prettyscore_server::providers::payments::stripe::signature_header(secret, timestamp, &body);
    let request = app
        .client
        .post(app.url("/api/v1/billing/webhook"))
        .header("Stripe-Signature", signature)
        .header("Content-Type", "application/json")
        .body(body);
    app.send(request).await
}

/// Sends `event` as Stripe would, now; asserts it was accepted.
pub async fn deliver(app: &TestApp, event: &Value) -> Value {
    deliver_signed(app, event, WEBHOOK_SECRET, now()).await.ok()
}

/// Delivers the sandbox's pending events, as its worker does.
pub async fn deliver_sandbox_events(app: &TestApp) {
    prettyscore_server::billing::deliver_sandbox_events(&app.state).await;
}

pub async fn subscription_of(app: &TestApp, caller: &Caller) -> Value {
    post(app, "/functions/v1/check-subscription", caller, json!({}))
        .await
        .ok()
}

pub async fn payments_of(app: &TestApp, caller: &Caller) -> Vec<Value> {
    get(app, "/api/v1/billing/payments", caller)
        .await
        .ok()
        .as_array()
        .unwrap()
        .clone()
}

/// Opens a checkout for `kind` as `caller` (the detailed analysis for a
/// new saved result of theirs).
pub async fn checkout(app: &TestApp, caller: &Caller, kind: &str) -> Value {
    post(
        app,
        "/functions/v1/create-checkout",
        caller,
        json!({"userId": caller.id, "email": caller.email, "type": kind,
               "metadata": purchase_metadata(app, caller, kind).await}),
    )
    .await
    .ok()
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

/// Pays the sandbox checkout `session` as `buyer`, with the test card.
pub async fn pay_in_sandbox(app: &TestApp, buyer: &Caller, session: &str) -> Value {
    post(
        app,
        &format!("/api/v1/billing/sandbox/{session}/pay"),
        buyer,
        json!({}),
    )
    .await
    .ok()
}

/// Buys Premium in the sandbox; the provider's subscription id.
pub async fn buy_premium(app: &TestApp, buyer: &Caller) -> String {
    let opened = checkout(app, buyer, "subscription").await;
    pay_in_sandbox(app, buyer, opened["sessionId"].as_str().unwrap()).await;
    subscription_id_of(app, buyer).await
}

/// The provider's id of `buyer`'s subscription.
pub async fn subscription_id_of(app: &TestApp, buyer: &Caller) -> String {
    use prettyscore_server::billing::entity as subscriptions;
    use sea_orm::{ColumnTrait, EntityTrait, QueryFilter};
    subscriptions::Entity::find()
        .filter(subscriptions::Column::UserId.eq(buyer.id))
        .one(&app.db)
        .await
        .unwrap()
        .unwrap()
        .provider_subscription_id
        .unwrap()
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
