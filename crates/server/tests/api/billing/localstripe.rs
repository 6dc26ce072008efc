//! The Stripe adapter against localstripe (PyPI: a stateful Stripe fake),
//! which `scripts/test.sh` starts on 127.0.0.1 and names in
//! `PRETTYSCORE_TEST_LOCALSTRIPE`: PaymentIntents with manual capture,
//! capture, cancel and refunds through the adapter, and a subscription whose
//! signed webhooks (localstripe signs them with the endpoint's secret) reach
//! the app's webhook and make the user Premium, then not. localstripe has no
//! Checkout Sessions; the wiremock double covers those.
//!
//! Without localstripe the test prints NOT RUN; under CI it fails.

use std::collections::BTreeMap;
use std::io::Write;

use prettyscore_server::config::StripeConfig;
use prettyscore_server::providers::payments::stripe::Stripe;
use prettyscore_server::providers::payments::{HoldRequest, PaymentProvider};

use super::*;

const LOCALSTRIPE_ENV: &str = "PRETTYSCORE_TEST_LOCALSTRIPE";
const KEY: &str = "sk_test_localstripe";

fn localstripe() -> Option<String> {
    if let Ok(url) = std::env::var(LOCALSTRIPE_ENV)
        && !url.trim().is_empty()
    {
        return Some(url.trim_end_matches('/').to_owned());
    }
    assert!(
        !in_ci(),
        "CI must run the Stripe adapter against localstripe, but {LOCALSTRIPE_ENV} is not set"
    );
    let _ = writeln!(
        std::io::stderr(),
        "billing::localstripe: NOT RUN ({LOCALSTRIPE_ENV} is not set; scripts/test.sh starts localstripe)"
    );
    None
}

/// A direct call to localstripe (setting up what a real Stripe account has:
/// cards, customers, plans).
async fn stripe_post(base: &str, path: &str, form: &[(&str, &str)]) -> Value {
    let body = url::form_urlencoded::Serializer::new(String::new())
        .extend_pairs(form.iter())
        .finish();
    let response = reqwest::Client::new()
        .post(format!("{base}{path}"))
        .basic_auth(KEY, Some(""))
        .header("Content-Type", "application/x-www-form-urlencoded")
        .body(body)
        .send()
        .await
        .unwrap();
    let status = response.status();
    let text = response.text().await.unwrap();
    assert!(status.is_success(), "{path}: {status} {text}");
    serde_json::from_str(&text).unwrap_or(Value::String(text))
}

async fn card(base: &str) -> String {
    stripe_post(
        base,
        "/v1/payment_methods",
        &[
            ("type", "card"),
            ("card[number]", "4242424242424242"),
            ("card[exp_month]", "12"),
            ("card[exp_year]", "2034"),
            ("card[cvc]", "123"),
        ],
    )
    .await["id"]
        .as_str()
        .unwrap()
        .to_owned()
}

#[tokio::test]
async fn the_stripe_adapter_works_against_localstripe() {
    let Some(base) = localstripe() else { return };
    let stripe = Stripe::from_config(&StripeConfig {
        base_url: base.clone(),
        secret_key: Some(Secret::new(KEY)),
        webhook_secret: None,
        timeout_secs: 10,
    })
    .unwrap();
    let hold = |key: &str, method: &str| HoldRequest {
        amount_cents: 90_000,
        currency: "usd".to_owned(),
        customer: None,
        payment_method: Some(method.to_owned()),
        metadata: BTreeMap::from([("purpose".to_owned(), "contact_request".to_owned())]),
        idempotency_key: key.to_owned(),
    };
    let method = card(&base).await;

    // Held, then captured, then partly refunded.
    let held = stripe
        .hold(&hold(&Uuid::new_v4().to_string(), &method))
        .await
        .unwrap();
    assert_eq!(held.status, "requires_capture");
    assert_eq!(held.amount, 90_000);
    let captured = stripe.capture(&held.id).await.unwrap();
    assert_eq!(captured.status, "succeeded");
    let refund = stripe.refund(&held.id, Some(10_000)).await.unwrap();
    assert_eq!(
        (refund.status.as_str(), refund.amount),
        ("succeeded", 10_000)
    );

    // Held, then released.
    let held = stripe
        .hold(&hold(&Uuid::new_v4().to_string(), &method))
        .await
        .unwrap();
    assert_eq!(stripe.release(&held.id).await.unwrap().status, "canceled");
}

#[tokio::test]
async fn a_localstripe_subscription_reaches_the_app_through_signed_webhooks() {
    let Some(base) = localstripe() else { return };
    let secret = format!("whsec_{}", Uuid::new_v4().simple());
    let config_secret = secret.clone();
    let app = spawn_app_with(Backend::Sqlite, {
        let base = base.clone();
        move |config| {
            config.payments.provider = PaymentProviderKind::Stripe;
            config.payments.stripe.base_url = base;
            config.payments.stripe.secret_key = Some(Secret::new(KEY));
            config.payments.stripe.webhook_secret = Some(Secret::new(config_secret));
        }
    })
    .await;
    // localstripe posts every event to every registered endpoint, each
    // signed with that endpoint's secret.
    let hook = format!("hook_{}", Uuid::new_v4().simple());
    stripe_post(
        &base,
        &format!("/_config/webhooks/{hook}"),
        &[
            ("url", &app.url("/api/v1/billing/webhook")),
            ("secret", &secret),
        ],
    )
    .await;
    let user = sign_up(&app, "localstripe@example.com").await;

    let method = card(&base).await;
    let customer = stripe_post(
        &base,
        "/v1/customers",
        &[
            ("email", "localstripe@example.com"),
            ("payment_method", &method),
            ("invoice_settings[default_payment_method]", &method),
        ],
    )
    .await;
    let product = stripe_post(
        &base,
        "/v1/products",
        &[("name", "Premium Editing"), ("type", "service")],
    )
    .await;
    let plan = stripe_post(
        &base,
        "/v1/plans",
        &[
            ("product", product["id"].as_str().unwrap()),
            ("amount", "999"),
            ("currency", "usd"),
            ("interval", "month"),
        ],
    )
    .await;
    let user_id = user.id.to_string();
    let subscription = stripe_post(
        &base,
        "/v1/subscriptions",
        &[
            ("customer", customer["id"].as_str().unwrap()),
            ("items[0][plan]", plan["id"].as_str().unwrap()),
            ("metadata[user_id]", &user_id),
        ],
    )
    .await;
    assert_eq!(subscription["status"], "active");

    eventually(
        "the signed subscription webhook to make the user Premium",
        || async { subscription_of(&app, &user).await["subscribed"] == true },
    )
    .await;
    // My Account's cancel goes to localstripe through the adapter.
    let cancelled = post(
        &app,
        "/api/v1/billing/subscription/cancel",
        &user,
        json!({}),
    )
    .await
    .ok();
    assert_eq!(cancelled["cancel_at_period_end"], true);
    assert_eq!(cancelled["subscribed"], true);
    let resumed = post(
        &app,
        "/api/v1/billing/subscription/resume",
        &user,
        json!({}),
    )
    .await
    .ok();
    assert_eq!(resumed["cancel_at_period_end"], false);

    // Deleted at Stripe: Premium ends.
    let deleted = reqwest::Client::new()
        .delete(format!(
            "{base}/v1/subscriptions/{}",
            subscription["id"].as_str().unwrap()
        ))
        .basic_auth(KEY, Some(""))
        .send()
        .await
        .unwrap();
    assert!(deleted.status().is_success());
    eventually("the deletion webhook to end Premium", || async {
        subscription_of(&app, &user).await["subscribed"] == false
    })
    .await;
    reqwest::Client::new()
        .delete(format!("{base}/_config/webhooks/{hook}"))
        .send()
        .await
        .ok();
}
