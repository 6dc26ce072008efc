//! `create-checkout` at the server's price, the sandbox's test checkout
//! (whose buttons go through the same fulfilment as Stripe's webhooks), and
//! My Account's subscription, payments, cancel and resume.

use super::*;
use prettyscore_server::providers::payments::sandbox::Sandbox;

on_both_databases!(
    anonymous_callers_get_401_on_every_billing_endpoint,
    create_checkout_ignores_the_clients_price,
    another_users_id_gets_403,
    the_same_idempotency_key_returns_the_same_checkout,
    paying_in_the_sandbox_grants_premium_through_the_events,
    a_declined_card_grants_nothing_and_the_checkout_stays_open,
    cancelling_the_sandbox_checkout_grants_nothing,
    cancel_at_period_end_keeps_premium_to_the_end_then_it_ends,
    a_sandbox_subscription_renews_monthly,
    billing_data_is_in_the_export_and_payments_outlive_the_account
);

const ENDPOINTS: &[(&str, &str)] = &[
    ("POST", "/functions/v1/create-checkout"),
    ("POST", "/functions/v1/check-subscription"),
    ("POST", "/functions/v1/check-feature-access"),
    ("POST", "/functions/v1/record-feature-usage"),
    ("GET", "/api/v1/billing/subscription"),
    ("GET", "/api/v1/billing/payments"),
    ("POST", "/api/v1/billing/subscription/cancel"),
    ("POST", "/api/v1/billing/subscription/resume"),
    ("GET", "/api/v1/billing/sandbox/cs_sandbox_x"),
    ("POST", "/api/v1/billing/sandbox/cs_sandbox_x/pay"),
    ("POST", "/api/v1/billing/sandbox/cs_sandbox_x/decline"),
    ("POST", "/api/v1/billing/sandbox/cs_sandbox_x/cancel"),
];

async fn anonymous_callers_get_401_on_every_billing_endpoint(backend: Backend) {
    let app = sandbox_app(backend).await;
    let user = sign_up(&app, "someone@example.com").await;
    for (verb, path) in ENDPOINTS {
        let method = Method::from_bytes(verb.as_bytes()).unwrap();
        let body = json!({"userId": user.id, "type": "subscription", "featureName": "ai_editor"});
        let reply = call(&app, method.clone(), path, None, Some(body.clone())).await;
        reply.assert_error(StatusCode::UNAUTHORIZED, "not_signed_in");
        let forged = call(&app, method, path, Some("not-a-token"), Some(body)).await;
        forged.assert_error(StatusCode::UNAUTHORIZED, "not_signed_in");
    }
    assert_eq!(count(&app, "checkout_sessions").await, 0);
}

async fn create_checkout_ignores_the_clients_price(backend: Backend) {
    let app = sandbox_app(backend).await;
    let buyer = sign_up(&app, "bargain@example.com").await;
    let opened = post(
        &app,
        "/functions/v1/create-checkout",
        &buyer,
        json!({"userId": buyer.id, "type": "subscription", "priceId": "price_one_cent",
               "amount": 1, "unit_amount": 1, "metadata": {"fee_amount": 1, "plan_name": "free"}}),
    )
    .await
    .ok();
    assert_eq!(opened["amountCents"], 999);
    let url = opened["url"].as_str().unwrap();
    let session = opened["sessionId"].as_str().unwrap();
    assert_eq!(url, format!("/checkout/sandbox/{session}"));
    let page = get(&app, &format!("/api/v1/billing/sandbox/{session}"), &buyer)
        .await
        .ok();
    assert_eq!(page["amountCents"], 999);
    assert_eq!(page["renewalCents"], Value::Null, "no discount: one price");
    assert_eq!(page["currency"], "usd");
    assert_eq!(page["mode"], "subscription");
    assert_eq!(page["description"], "Premium Editing (monthly)");
    assert_eq!(page["status"], "open");
    assert_eq!(page["successUrl"], "/premium?success=true");
    assert!(page["notice"].as_str().unwrap().contains("test payment"));

    let detailed = checkout(&app, &buyer, "personality_detailed").await;
    assert_eq!(detailed["amountCents"], 499);
    // An unknown type is refused, not priced.
    let reply = post(
        &app,
        "/functions/v1/create-checkout",
        &buyer,
        json!({"userId": buyer.id, "type": "free_stuff"}),
    )
    .await;
    assert_eq!(
        reply.status,
        StatusCode::UNPROCESSABLE_ENTITY,
        "{}",
        reply.body
    );
}

async fn another_users_id_gets_403(backend: Backend) {
    let app = sandbox_app(backend).await;
    let mallory = sign_up(&app, "mallory@example.com").await;
    let alice = sign_up(&app, "alice@example.com").await;
    let reply = post(
        &app,
        "/functions/v1/create-checkout",
        &mallory,
        json!({"userId": alice.id, "type": "subscription"}),
    )
    .await;
    reply.assert_error(StatusCode::FORBIDDEN, "forbidden");
    assert_eq!(count(&app, "checkout_sessions").await, 0);

    // Nor can anyone (an admin included) see or pay another's sandbox checkout.
    let opened = checkout(&app, &alice, "subscription").await;
    let session = opened["sessionId"].as_str().unwrap();
    prettyscore_server::admin::roles::grant_admin(&app.db, "mallory@example.com")
        .await
        .unwrap();
    for (verb, path) in [
        ("GET", format!("/api/v1/billing/sandbox/{session}")),
        ("POST", format!("/api/v1/billing/sandbox/{session}/pay")),
        ("POST", format!("/api/v1/billing/sandbox/{session}/cancel")),
    ] {
        let method = Method::from_bytes(verb.as_bytes()).unwrap();
        let reply = call(&app, method, &path, Some(&mallory.token), None).await;
        reply.assert_error(StatusCode::NOT_FOUND, "not_found");
    }
    assert_eq!(subscription_of(&app, &alice).await["subscribed"], false);
    assert_eq!(subscription_of(&app, &mallory).await["subscribed"], false);
}

async fn the_same_idempotency_key_returns_the_same_checkout(backend: Backend) {
    let app = sandbox_app(backend).await;
    let buyer = sign_up(&app, "retry@example.com").await;
    let send = |key: &'static str, kind: &'static str| {
        let app = &app;
        let buyer = &buyer;
        async move {
            app.client
                .post(app.url("/functions/v1/create-checkout"))
                .bearer_auth(&buyer.token)
                .header("Idempotency-Key", key)
                .json(&json!({"userId": buyer.id, "type": kind}))
                .send()
                .await
                .unwrap()
        }
    };
    let first: Value = send("key-1", "subscription").await.json().await.unwrap();
    let second: Value = send("key-1", "subscription").await.json().await.unwrap();
    assert_eq!(first, second);
    // The key may come in the body too.
    let third = post(
        &app,
        "/functions/v1/create-checkout",
        &buyer,
        json!({"userId": buyer.id, "type": "subscription", "idempotencyKey": "key-1"}),
    )
    .await
    .ok();
    assert_eq!(first, third);
    assert_eq!(count(&app, "checkout_sessions").await, 1);
    assert_eq!(count(&app, "sandbox_objects").await, 1);

    let other = send("key-1", "personality_detailed").await;
    assert_eq!(other.status(), StatusCode::UNPROCESSABLE_ENTITY);
    let body: Value = other.json().await.unwrap();
    assert_eq!(body["code"], "idempotency_key_reused");
    // Another key while that checkout is open: the same checkout (one open
    // checkout per thing bought, so two tabs cannot pay twice).
    let fresh: Value = send("key-2", "subscription").await.json().await.unwrap();
    assert_eq!(fresh["sessionId"], first["sessionId"]);
    assert_eq!(count(&app, "checkout_sessions").await, 1);
}

async fn paying_in_the_sandbox_grants_premium_through_the_events(backend: Backend) {
    let app = sandbox_app(backend).await;
    let buyer = sign_up(&app, "premium@example.com").await;
    let opened = checkout(&app, &buyer, "subscription").await;
    let session = opened["sessionId"].as_str().unwrap();
    assert_eq!(subscription_of(&app, &buyer).await["subscribed"], false);

    let paid = post(
        &app,
        &format!("/api/v1/billing/sandbox/{session}/pay"),
        &buyer,
        json!({}),
    )
    .await
    .ok();
    assert_eq!(paid["redirectUrl"], "/premium?success=true");
    let status = subscription_of(&app, &buyer).await;
    assert_eq!(status["subscribed"], true, "{status}");
    assert_eq!(status["plan"], "premium_editing");
    assert_eq!(status["cancel_at_period_end"], false);
    let expires =
        chrono::DateTime::parse_from_rfc3339(status["expires_at"].as_str().unwrap()).unwrap();
    let days = (expires.timestamp() - now()) / 86400;
    assert!((27..=31).contains(&days), "{days}");
    let payments = payments_of(&app, &buyer).await;
    assert_eq!(payments.len(), 1, "{payments:?}");
    assert_eq!(payments[0]["amount_cents"], 999);
    assert_eq!(payments[0]["status"], "succeeded");
    // Granted by the sandbox's events, recorded as processed like Stripe's.
    assert!(count(&app, "processed_webhook_events").await >= 3);
    assert_eq!(
        count(&app, "sandbox_events WHERE delivered_at IS NULL").await,
        0
    );
    // The same premium the edits and features see.
    let access = post(
        &app,
        "/functions/v1/check-feature-access",
        &buyer,
        json!({"featureName": "ai_editor"}),
    )
    .await
    .ok();
    assert_eq!(
        access,
        json!({"hasAccess": true, "reason": "granted", "trialRemaining": 1})
    );

    let twice = post(
        &app,
        &format!("/api/v1/billing/sandbox/{session}/pay"),
        &buyer,
        json!({}),
    )
    .await;
    twice.assert_error(StatusCode::CONFLICT, "checkout_closed");
    assert_eq!(count(&app, "subscriptions").await, 1);
    let again = post(
        &app,
        "/functions/v1/create-checkout",
        &buyer,
        json!({"userId": buyer.id, "type": "subscription"}),
    )
    .await;
    again.assert_error(StatusCode::CONFLICT, "already_subscribed");

    // Two clicks on Pay at once make one payment.
    let other = sign_up(&app, "double@example.com").await;
    let opened = checkout(&app, &other, "personality_detailed").await;
    let path = format!(
        "/api/v1/billing/sandbox/{}/pay",
        opened["sessionId"].as_str().unwrap()
    );
    let (a, b) = tokio::join!(
        post(&app, &path, &other, json!({})),
        post(&app, &path, &other, json!({}))
    );
    let mut statuses = [a.status, b.status];
    statuses.sort();
    assert_eq!(
        statuses,
        [StatusCode::OK, StatusCode::CONFLICT],
        "{a:?} {b:?}"
    );
    let payments = payments_of(&app, &other).await;
    assert_eq!(payments.len(), 1, "{payments:?}");
    assert_eq!(payments[0]["amount_cents"], 499);
}

async fn a_declined_card_grants_nothing_and_the_checkout_stays_open(backend: Backend) {
    let app = sandbox_app(backend).await;
    let buyer = sign_up(&app, "declined@example.com").await;
    let opened = checkout(&app, &buyer, "subscription").await;
    let session = opened["sessionId"].as_str().unwrap();
    let declined = post(
        &app,
        &format!("/api/v1/billing/sandbox/{session}/decline"),
        &buyer,
        json!({}),
    )
    .await;
    declined.assert_error(StatusCode::PAYMENT_REQUIRED, "card_declined");
    assert!(
        declined.body["message"]
            .as_str()
            .unwrap()
            .contains("declined")
    );
    assert_eq!(subscription_of(&app, &buyer).await["subscribed"], false);
    let payments = payments_of(&app, &buyer).await;
    assert_eq!(payments.len(), 1);
    assert_eq!(payments[0]["status"], "failed");
    assert_eq!(count(&app, "subscriptions").await, 0);
    let page = get(&app, &format!("/api/v1/billing/sandbox/{session}"), &buyer)
        .await
        .ok();
    assert_eq!(page["status"], "open");
    // A second try with a good card works.
    post(
        &app,
        &format!("/api/v1/billing/sandbox/{session}/pay"),
        &buyer,
        json!({}),
    )
    .await
    .ok();
    assert_eq!(subscription_of(&app, &buyer).await["subscribed"], true);
}

async fn cancelling_the_sandbox_checkout_grants_nothing(backend: Backend) {
    let app = sandbox_app(backend).await;
    let buyer = sign_up(&app, "changed-mind@example.com").await;
    let opened = checkout(&app, &buyer, "subscription").await;
    let session = opened["sessionId"].as_str().unwrap();
    let cancelled = post(
        &app,
        &format!("/api/v1/billing/sandbox/{session}/cancel"),
        &buyer,
        json!({}),
    )
    .await
    .ok();
    assert_eq!(cancelled["redirectUrl"], "/premium?canceled=true");
    let page = get(&app, &format!("/api/v1/billing/sandbox/{session}"), &buyer)
        .await
        .ok();
    assert_eq!(page["status"], "expired");
    let late = post(
        &app,
        &format!("/api/v1/billing/sandbox/{session}/pay"),
        &buyer,
        json!({}),
    )
    .await;
    late.assert_error(StatusCode::CONFLICT, "checkout_closed");
    assert_eq!(subscription_of(&app, &buyer).await["subscribed"], false);
    assert!(payments_of(&app, &buyer).await.is_empty());
}

async fn cancel_at_period_end_keeps_premium_to_the_end_then_it_ends(backend: Backend) {
    let app = spawn_app_with(backend, |config| {
        config.payments.sandbox_renewal_interval_secs = 1;
    })
    .await;
    let buyer = sign_up(&app, "leaving@example.com").await;
    let nobody = post(
        &app,
        "/api/v1/billing/subscription/cancel",
        &buyer,
        json!({}),
    )
    .await;
    nobody.assert_error(StatusCode::NOT_FOUND, "no_subscription");
    let subscription = buy_premium(&app, &buyer).await;
    let before = get(&app, "/api/v1/billing/subscription", &buyer).await.ok();

    let cancelled = post(
        &app,
        "/api/v1/billing/subscription/cancel",
        &buyer,
        json!({}),
    )
    .await
    .ok();
    assert_eq!(cancelled["cancel_at_period_end"], true);
    assert_eq!(cancelled["subscribed"], true);
    assert_eq!(cancelled["expires_at"], before["expires_at"]);
    assert_eq!(subscription_of(&app, &buyer).await, cancelled);
    let resumed = post(
        &app,
        "/api/v1/billing/subscription/resume",
        &buyer,
        json!({}),
    )
    .await
    .ok();
    assert_eq!(resumed["cancel_at_period_end"], false);
    post(
        &app,
        "/api/v1/billing/subscription/cancel",
        &buyer,
        json!({}),
    )
    .await
    .ok();
    // Another user cannot touch it.
    let other = sign_up(&app, "other@example.com").await;
    let reply = post(
        &app,
        "/api/v1/billing/subscription/resume",
        &other,
        json!({}),
    )
    .await;
    reply.assert_error(StatusCode::NOT_FOUND, "no_subscription");
    assert_eq!(
        subscription_of(&app, &buyer).await["cancel_at_period_end"],
        true
    );

    // The month ends: the sandbox's clock ends the subscription.
    Sandbox::new(app.db.clone())
        .set_period_end(
            &subscription,
            chrono::Utc::now() - chrono::Duration::seconds(1),
        )
        .await
        .unwrap();
    crate::harness::eventually("the cancelled subscription to end", || async {
        subscription_of(&app, &buyer).await["status"] == "canceled"
    })
    .await;
    assert_eq!(subscription_of(&app, &buyer).await["subscribed"], false);
    assert_eq!(
        payments_of(&app, &buyer).await.len(),
        1,
        "no renewal was charged"
    );
}

async fn a_sandbox_subscription_renews_monthly(backend: Backend) {
    let app = spawn_app_with(backend, |config| {
        config.payments.sandbox_renewal_interval_secs = 1;
    })
    .await;
    let buyer = sign_up(&app, "stays@example.com").await;
    let subscription = buy_premium(&app, &buyer).await;
    let end = chrono::Utc::now() - chrono::Duration::seconds(1);
    Sandbox::new(app.db.clone())
        .set_period_end(&subscription, end)
        .await
        .unwrap();
    crate::harness::eventually("the renewal's payment", || async {
        payments_of(&app, &buyer).await.len() == 2
    })
    .await;
    let status = subscription_of(&app, &buyer).await;
    assert_eq!(status["subscribed"], true, "{status}");
    let expires =
        chrono::DateTime::parse_from_rfc3339(status["expires_at"].as_str().unwrap()).unwrap();
    let days = (expires.timestamp() - end.timestamp()) / 86400;
    assert!((28..=31).contains(&days), "{days}");
}

async fn billing_data_is_in_the_export_and_payments_outlive_the_account(backend: Backend) {
    let app = sandbox_app(backend).await;
    let buyer = sign_up(&app, "exported@example.com").await;
    buy_premium(&app, &buyer).await;
    post(
        &app,
        "/functions/v1/record-feature-usage",
        &sign_up(&app, "x@example.com").await,
        json!({"featureName": "ai_editor"}),
    )
    .await
    .ok();
    let export = get(&app, "/api/v1/account/export", &buyer).await.ok();
    assert_eq!(
        export["sections"]["billing"]["subscriptions"][0]["plan"], "premium_editing",
        "{export}"
    );
    assert_eq!(
        export["sections"]["billing"]["payments"][0]["amount_cents"],
        999
    );
    assert!(export["sections"]["feature_trials"].is_array());

    let deleted = call(
        &app,
        Method::DELETE,
        "/api/v1/account",
        Some(&buyer.token),
        None,
    )
    .await;
    assert!(deleted.status.is_success(), "{deleted:?}");
    assert_eq!(count(&app, "subscriptions").await, 0);
    assert_eq!(count(&app, "payments").await, 1);
    assert_eq!(count(&app, "payments WHERE user_id IS NULL").await, 1);
}

#[test]
fn every_billing_and_feature_endpoint_is_in_the_openapi_document() {
    let doc = serde_json::to_value(prettyscore_server::app::openapi()).unwrap();
    let paths = &doc["paths"];
    for (verb, path) in ENDPOINTS {
        let path = path.replace("cs_sandbox_x", "{id}");
        let operation = &paths[&path][verb.to_lowercase()];
        assert!(operation.is_object(), "{verb} {path} is not documented");
        assert_eq!(
            operation["security"],
            json!([{"bearer": []}]),
            "{verb} {path}"
        );
        assert!(
            operation["responses"]["401"].is_object(),
            "{verb} {path}: 401"
        );
    }
    assert!(paths["/api/v1/billing/webhook"]["post"].is_object());
    let codes = doc["components"]["schemas"]["ErrorCode"].to_string();
    for code in [
        "invalid_signature",
        "card_declined",
        "feature_locked",
        "trial_used",
        "unknown_feature",
    ] {
        assert!(codes.contains(code), "{code} is not listed");
    }
}

on_both_databases!(the_sandbox_holds_captures_releases_and_refunds_through_events);

async fn the_sandbox_holds_captures_releases_and_refunds_through_events(backend: Backend) {
    use prettyscore_server::billing::sandbox::deliver_events;
    use prettyscore_server::providers::payments::{HoldRequest, PaymentProvider};
    let app = sandbox_app(backend).await;
    let fan = sign_up(&app, "fan@example.com").await;
    let sandbox = Sandbox::new(app.db.clone());
    let hold = |key: &str| HoldRequest {
        amount_cents: 95_000,
        currency: "usd".to_owned(),
        customer: None,
        payment_method: None,
        metadata: std::collections::BTreeMap::from([
            ("user_id".to_owned(), fan.id.to_string()),
            ("purpose".to_owned(), "contact_request".to_owned()),
        ]),
        idempotency_key: key.to_owned(),
    };
    let held = sandbox.hold(&hold("h1")).await.unwrap();
    assert_eq!(held.status, "requires_capture");
    assert_eq!(
        deliver_events(&app.db, &app.state.hooks, &sandbox)
            .await
            .unwrap(),
        1
    );
    assert_eq!(payments_of(&app, &fan).await[0]["status"], "held");
    // Nothing is refunded before it is captured.
    assert!(sandbox.refund(&held.id, None).await.is_err());
    let captured = sandbox.capture(&held.id).await.unwrap();
    assert_eq!(captured.status, "succeeded");
    assert!(sandbox.capture(&held.id).await.is_err(), "captured once");
    let refund = sandbox.refund(&held.id, Some(20_000)).await.unwrap();
    assert_eq!(refund.amount, 20_000);
    assert!(
        sandbox.refund(&held.id, Some(80_000)).await.is_err(),
        "no more than was paid"
    );
    deliver_events(&app.db, &app.state.hooks, &sandbox)
        .await
        .unwrap();
    let payments = payments_of(&app, &fan).await;
    assert_eq!(payments.len(), 1);
    assert_eq!(payments[0]["status"], "partially_refunded");
    assert_eq!(payments[0]["refunded_cents"], 20_000);

    let released = sandbox.hold(&hold("h2")).await.unwrap();
    assert_eq!(
        sandbox.release(&released.id).await.unwrap().status,
        "canceled"
    );
    assert!(sandbox.capture(&released.id).await.is_err());
    deliver_events(&app.db, &app.state.hooks, &sandbox)
        .await
        .unwrap();
    let payments = payments_of(&app, &fan).await;
    assert_eq!(payments.len(), 2);
    assert!(
        payments.iter().any(|p| p["status"] == "canceled"),
        "{payments:?}"
    );
    // Delivering again changes nothing.
    assert_eq!(
        deliver_events(&app.db, &app.state.hooks, &sandbox)
            .await
            .unwrap(),
        0
    );
}

on_both_databases!(a_contact_fee_paid_in_the_sandbox_is_held_not_captured);

async fn a_contact_fee_paid_in_the_sandbox_is_held_not_captured(backend: Backend) {
    use super::webhook::{contact_state, insert_contact_request};
    let app = sandbox_app(backend).await;
    let fan = sign_up(&app, "fan@example.com").await;
    let star = sign_up(&app, "star@example.com").await;
    let request = insert_contact_request(&app, &fan, &star, 1).await;
    let opened = post(
        &app,
        "/functions/v1/create-checkout",
        &fan,
        json!({"userId": fan.id, "type": "contact_request", "metadata": {"contact_request_id": request, "fee_amount": 5}}),
    )
    .await.ok();
    assert_eq!(opened["amountCents"], 100_000);
    let session = opened["sessionId"].as_str().unwrap();
    let page = get(&app, &format!("/api/v1/billing/sandbox/{session}"), &fan)
        .await
        .ok();
    assert_eq!(page["mode"], "hold");
    assert_eq!(page["description"], "Contact request fee");
    assert_eq!(
        contact_state(&app, request).await,
        (false, "pending_payment".to_owned())
    );

    let paid = post(
        &app,
        &format!("/api/v1/billing/sandbox/{session}/pay"),
        &fan,
        json!({}),
    )
    .await
    .ok();
    // The session's id goes into the return address, as Stripe fills it in.
    assert_eq!(
        paid["redirectUrl"],
        format!("/leaderboard?contact=success&checkout={session}")
    );
    assert_eq!(
        contact_state(&app, request).await,
        (true, "paid".to_owned())
    );
    let payments = payments_of(&app, &fan).await;
    assert_eq!(payments.len(), 1, "{payments:?}");
    assert_eq!(payments[0]["status"], "held");
    assert_eq!(payments[0]["amount_cents"], 100_000);
    // Paying for a contact request is not Premium.
    assert_eq!(subscription_of(&app, &fan).await["subscribed"], false);
}
