//! The Stripe adapter against a local double of Stripe's HTTP API
//! (wiremock): every call it makes, in Stripe's wire format, and its
//! answers and errors read back.

use std::collections::BTreeMap;

use prettyscore_server::providers::payments::{
    CheckoutMode, CheckoutRequest, HoldRequest, PaymentError, PaymentProvider,
};
use wiremock::matchers::{body_string_contains, header};

use super::*;

fn intent(id: &str, status: &str) -> Value {
    json!({"id": id, "object": "payment_intent", "status": status, "amount": 90000,
           "amount_capturable": if status == "requires_capture" { 90000 } else { 0 },
           "amount_received": if status == "succeeded" { 90000 } else { 0 }})
}

#[tokio::test]
async fn checkout_sessions_are_created_as_stripe_expects() {
    let server = MockServer::start().await;
    Mock::given(method("POST"))
        .and(path("/v1/checkout/sessions"))
        .and(header("authorization", "Bearer sk_test_double"))
        .and(header("idempotency-key", "checkout-1"))
        .respond_with(ResponseTemplate::new(200).set_body_json(
            json!({"id": "cs_test_1", "url": "https://checkout.stripe.test/cs_test_1"}),
        ))
        .expect(2)
        .mount(&server)
        .await;
    let stripe = stripe_client(&server);
    let metadata = BTreeMap::from([
        ("checkout_id".to_owned(), "c1".to_owned()),
        ("user_id".to_owned(), "u1".to_owned()),
    ]);
    let mut request = CheckoutRequest {
        mode: CheckoutMode::Subscription,
        amount_cents: 999,
        currency: "usd".to_owned(),
        product_name: "Premium Editing (monthly)".to_owned(),
        customer_email: Some("buyer@example.com".to_owned()),
        client_reference_id: "u1".to_owned(),
        metadata,
        success_url: "https://app.test/premium?success=true".to_owned(),
        cancel_url: "https://app.test/premium?canceled=true".to_owned(),
        idempotency_key: "checkout-1".to_owned(),
        discount_percent: None,
    };
    let session = stripe.create_checkout(&request).await.unwrap();
    assert_eq!(session.id, "cs_test_1");
    assert_eq!(session.url, "https://checkout.stripe.test/cs_test_1");
    request.mode = CheckoutMode::Hold;
    stripe.create_checkout(&request).await.unwrap();

    let sent = server.received_requests().await.unwrap();
    let subscription = stripe_form(&sent[0]);
    assert_eq!(
        sent[0].headers["content-type"],
        "application/x-www-form-urlencoded"
    );
    for (key, value) in [
        ("mode", "subscription"),
        ("line_items[0][price_data][unit_amount]", "999"),
        ("line_items[0][price_data][currency]", "usd"),
        ("line_items[0][price_data][recurring][interval]", "month"),
        ("line_items[0][quantity]", "1"),
        ("client_reference_id", "u1"),
        ("customer_email", "buyer@example.com"),
        ("metadata[checkout_id]", "c1"),
        ("subscription_data[metadata][user_id]", "u1"),
        ("success_url", "https://app.test/premium?success=true"),
    ] {
        assert_eq!(
            subscription.get(key).map(String::as_str),
            Some(value),
            "{key}"
        );
    }
    let hold = stripe_form(&sent[1]);
    assert_eq!(hold["mode"], "payment");
    assert_eq!(hold["payment_intent_data[capture_method]"], "manual");
    assert_eq!(hold["payment_intent_data[metadata][user_id]"], "u1");
    assert!(!hold.contains_key("line_items[0][price_data][recurring][interval]"));
}

#[tokio::test]
async fn holds_captures_releases_refunds_and_cancellations_call_stripe() {
    let server = MockServer::start().await;
    Mock::given(method("POST"))
        .and(path("/v1/payment_intents"))
        .and(body_string_contains("capture_method=manual"))
        .respond_with(ResponseTemplate::new(200).set_body_json(intent("pi_1", "requires_capture")))
        .mount(&server)
        .await;
    Mock::given(method("POST"))
        .and(path("/v1/payment_intents/pi_1/capture"))
        .respond_with(ResponseTemplate::new(200).set_body_json(intent("pi_1", "succeeded")))
        .mount(&server)
        .await;
    Mock::given(method("POST"))
        .and(path("/v1/payment_intents/pi_2/cancel"))
        .respond_with(ResponseTemplate::new(200).set_body_json(intent("pi_2", "canceled")))
        .mount(&server)
        .await;
    Mock::given(method("POST"))
        .and(path("/v1/refunds"))
        .and(body_string_contains("payment_intent=pi_1"))
        .respond_with(ResponseTemplate::new(200).set_body_json(
            json!({"id": "re_1", "object": "refund", "status": "succeeded", "amount": 5000}),
        ))
        .mount(&server)
        .await;
    Mock::given(method("POST"))
        .and(path("/v1/subscriptions/sub_1"))
        .and(body_string_contains("cancel_at_period_end=true"))
        .respond_with(ResponseTemplate::new(200).set_body_json(json!({
            "id": "sub_1", "object": "subscription", "status": "active", "cancel_at_period_end": true,
            "items": {"data": [{"current_period_end": 1_900_000_000}]},
        })))
        .mount(&server)
        .await;
    let stripe = stripe_client(&server);
    let held = stripe
        .hold(&HoldRequest {
            amount_cents: 90_000,
            currency: "usd".to_owned(),
            customer: Some("cus_1".to_owned()),
            payment_method: Some("pm_card_visa".to_owned()),
            metadata: BTreeMap::from([("contact_request_id".to_owned(), "r1".to_owned())]),
            idempotency_key: "hold-r1".to_owned(),
        })
        .await
        .unwrap();
    assert_eq!(held.status, "requires_capture");
    assert_eq!(held.amount_capturable, 90_000);
    assert_eq!(stripe.capture("pi_1").await.unwrap().status, "succeeded");
    assert_eq!(stripe.release("pi_2").await.unwrap().status, "canceled");
    let refund = stripe.refund("pi_1", Some(5000)).await.unwrap();
    assert_eq!((refund.status.as_str(), refund.amount), ("succeeded", 5000));
    let state = stripe
        .set_cancel_at_period_end("sub_1", true)
        .await
        .unwrap();
    assert!(state.cancel_at_period_end);
    assert_eq!(state.current_period_end, Some(1_900_000_000));

    let sent = server.received_requests().await.unwrap();
    let hold = stripe_form(&sent[0]);
    assert_eq!(hold["amount"], "90000");
    assert_eq!(hold["confirm"], "true");
    assert_eq!(hold["payment_method"], "pm_card_visa");
    assert_eq!(hold["metadata[contact_request_id]"], "r1");
    assert_eq!(sent[0].headers["idempotency-key"], "hold-r1");
    assert!(
        sent[1].headers.contains_key("idempotency-key"),
        "captures are idempotent"
    );
    assert_eq!(stripe_form(&sent[3])["amount"], "5000");
}

#[tokio::test]
async fn a_promo_discount_is_a_once_coupon_created_on_first_use() {
    let server = MockServer::start().await;
    // The first call creates the coupon; later ones find it exists.
    Mock::given(method("POST"))
        .and(path("/v1/coupons"))
        .respond_with(ResponseTemplate::new(200).set_body_json(json!({"id": "partner-promo-10"})))
        .up_to_n_times(1)
        .mount(&server)
        .await;
    Mock::given(method("POST"))
        .and(path("/v1/coupons"))
        .respond_with(ResponseTemplate::new(400).set_body_json(json!({"error": {
            "type": "invalid_request_error", "code": "resource_already_exists",
            "message": "Coupon already exists."}})))
        .mount(&server)
        .await;
    Mock::given(method("POST"))
        .and(path("/v1/checkout/sessions"))
        .respond_with(ResponseTemplate::new(200).set_body_json(
            json!({"id": "cs_test_promo", "url": "https://checkout.stripe.test/cs_test_promo"}),
        ))
        .mount(&server)
        .await;
    let stripe = stripe_client(&server);
    let request = CheckoutRequest {
        mode: CheckoutMode::Subscription,
        amount_cents: 999,
        currency: "usd".to_owned(),
        product_name: "Premium Editing (monthly)".to_owned(),
        customer_email: None,
        client_reference_id: "u1".to_owned(),
        metadata: BTreeMap::new(),
        success_url: "https://app.test/premium?success=true".to_owned(),
        cancel_url: "https://app.test/premium?canceled=true".to_owned(),
        idempotency_key: "promo-1".to_owned(),
        discount_percent: Some(10),
    };
    assert_eq!(request.first_payment_cents(), 899);
    stripe.create_checkout(&request).await.unwrap();
    stripe.create_checkout(&request).await.unwrap();
    let sent = server.received_requests().await.unwrap();
    let paths: Vec<&str> = sent.iter().map(|r| r.url.path()).collect();
    assert_eq!(
        paths,
        [
            "/v1/coupons",
            "/v1/checkout/sessions",
            "/v1/coupons",
            "/v1/checkout/sessions"
        ]
    );
    let coupon = stripe_form(&sent[0]);
    assert_eq!(coupon["id"], "partner-promo-10");
    assert_eq!(coupon["percent_off"], "10");
    assert_eq!(coupon["duration"], "once");
    for session in [&sent[1], &sent[3]] {
        let session = stripe_form(session);
        assert_eq!(session["discounts[0][coupon]"], "partner-promo-10");
        // The list price stays; Stripe applies the coupon to the first invoice.
        assert_eq!(session["line_items[0][price_data][unit_amount]"], "999");
    }
}

#[tokio::test]
async fn stripes_errors_are_told_apart() {
    let server = MockServer::start().await;
    Mock::given(method("POST"))
        .and(path("/v1/payment_intents/pi_declined/capture"))
        .respond_with(ResponseTemplate::new(402).set_body_json(
            json!({"error": {"type": "card_error", "code": "card_declined", "message": "Your card was declined."}}),
        ))
        .mount(&server)
        .await;
    Mock::given(method("POST"))
        .and(path("/v1/payment_intents/pi_gone/capture"))
        .respond_with(ResponseTemplate::new(400).set_body_json(
            json!({"error": {"type": "invalid_request_error", "message": "This PaymentIntent could not be captured."}}),
        ))
        .mount(&server)
        .await;
    Mock::given(method("POST"))
        .and(path("/v1/payment_intents/pi_down/capture"))
        .respond_with(ResponseTemplate::new(503).set_body_string("upstream"))
        .mount(&server)
        .await;
    let stripe = stripe_client(&server);
    assert!(
        matches!(stripe.capture("pi_declined").await, Err(PaymentError::Declined(m)) if m.contains("declined"))
    );
    assert!(matches!(
        stripe.capture("pi_gone").await,
        Err(PaymentError::Refused(_))
    ));
    assert!(matches!(
        stripe.capture("pi_down").await,
        Err(PaymentError::Unavailable(_))
    ));
}

on_both_databases!(
    a_stripe_checkout_is_created_once_and_a_provider_failure_opens_nothing,
    my_account_cancels_a_stripe_subscription_at_period_end
);

async fn a_stripe_checkout_is_created_once_and_a_provider_failure_opens_nothing(backend: Backend) {
    let stripe = stripe_double().await;
    let app = stripe_app(backend, &stripe.uri()).await;
    let buyer = sign_up(&app, "buyer@example.com").await;
    let body = json!({"userId": buyer.id, "type": "subscription", "idempotencyKey": "k1"});
    let first = post(&app, "/functions/v1/create-checkout", &buyer, body.clone())
        .await
        .ok();
    let second = post(&app, "/functions/v1/create-checkout", &buyer, body)
        .await
        .ok();
    assert_eq!(first, second);
    assert!(
        first["url"]
            .as_str()
            .unwrap()
            .starts_with("https://checkout.stripe.test/")
    );
    let sent = stripe.received_requests().await.unwrap();
    assert_eq!(sent.len(), 1, "the retry did not reach Stripe");
    let sent = stripe_form(&sent[0]);
    assert_eq!(sent["line_items[0][price_data][unit_amount]"], "999");
    assert!(sent["success_url"].ends_with("/premium?success=true"));
    assert!(
        sent["success_url"].starts_with("http"),
        "absolute for Stripe"
    );
    // Nothing is granted by opening a checkout.
    assert_eq!(subscription_of(&app, &buyer).await["subscribed"], false);

    let down = MockServer::start().await;
    Mock::given(method("POST"))
        .respond_with(ResponseTemplate::new(500))
        .mount(&down)
        .await;
    let app = stripe_app(backend, &down.uri()).await;
    let buyer = sign_up(&app, "unlucky@example.com").await;
    let reply = post(
        &app,
        "/functions/v1/create-checkout",
        &buyer,
        json!({"userId": buyer.id, "type": "subscription", "idempotencyKey": "k1"}),
    )
    .await;
    reply.assert_error(StatusCode::BAD_GATEWAY, "payment_provider_failed");
    assert_eq!(
        reply.body["message"],
        "Failed to start checkout. Please try again."
    );
    assert_eq!(count(&app, "checkout_sessions").await, 0);
}

async fn my_account_cancels_a_stripe_subscription_at_period_end(backend: Backend) {
    let stripe = MockServer::start().await;
    let end = now() + 20 * 86400;
    for cancel in [true, false] {
        Mock::given(method("POST"))
            .and(path("/v1/subscriptions/sub_acct"))
            .and(body_string_contains(format!(
                "cancel_at_period_end={cancel}"
            )))
            .respond_with(ResponseTemplate::new(200).set_body_json(json!({
                "id": "sub_acct", "status": "active", "cancel_at_period_end": cancel,
                "current_period_end": end,
            })))
            .expect(1)
            .mount(&stripe)
            .await;
    }
    let app = stripe_app(backend, &stripe.uri()).await;
    let user = sign_up(&app, "member@example.com").await;
    deliver(
        &app,
        &event(
            "evt_created",
            "customer.subscription.created",
            now() - 10,
            json!({"id": "sub_acct", "status": "active", "cancel_at_period_end": false,
                   "current_period_end": end, "metadata": {"user_id": user.id}}),
        ),
    )
    .await;
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
    // Stripe's own event for the change, arriving after: the same state.
    deliver(
        &app,
        &event(
            "evt_updated",
            "customer.subscription.updated",
            now(),
            json!({"id": "sub_acct", "status": "active", "cancel_at_period_end": true,
                   "current_period_end": end, "metadata": {"user_id": user.id}}),
        ),
    )
    .await;
    assert_eq!(subscription_of(&app, &user).await, cancelled);
    let resumed = post(
        &app,
        "/api/v1/billing/subscription/resume",
        &user,
        json!({}),
    )
    .await
    .ok();
    assert_eq!(resumed["cancel_at_period_end"], false);
}
