//! One charge per thing bought (issue 23): Premium once per member and the
//! detailed analysis once per saved result, whatever the order of clicks and
//! provider events; a thing paid twice anyway is refunded in full at once
//! through the provider (the sandbox, and Stripe's double).

use std::collections::BTreeSet;

use super::*;
use wiremock::matchers::body_string_contains;

on_both_databases!(
    eight_parallel_premium_checkouts_and_payments_charge_and_activate_once,
    a_second_premium_paid_anyway_is_ended_and_refunded_at_once,
    a_late_stripe_event_for_a_second_subscription_is_refunded_through_stripe,
    the_detailed_analysis_is_bought_for_one_result_of_the_callers,
    eight_parallel_purchases_of_one_detailed_analysis_charge_once,
    a_detailed_analysis_paid_twice_is_refunded_once
);

const CHECKOUT: &str = "/functions/v1/create-checkout";

fn pay_path(session: &str) -> String {
    format!("/api/v1/billing/sandbox/{session}/pay")
}

/// `n` create-checkouts at once, each with its own idempotency key (n
/// tabs); the session ids of those that opened one.
async fn parallel_checkouts(
    app: &TestApp,
    caller: &Caller,
    round: &str,
    body: Value,
    n: usize,
) -> Vec<String> {
    let replies = futures::future::join_all((0..n).map(|i| {
        let mut body = body.clone();
        body["idempotencyKey"] = json!(format!("{round}-tab-{i}"));
        async move { post(app, CHECKOUT, caller, body).await }
    }))
    .await;
    let mut sessions = Vec::new();
    for reply in replies {
        match reply.status {
            StatusCode::OK => sessions.push(reply.body["sessionId"].as_str().unwrap().to_owned()),
            // Opened by another tab this very moment (try again later), or
            // bought already.
            _ => {
                assert_eq!(reply.status, StatusCode::CONFLICT, "{}", reply.body);
                let code = reply.body["code"].as_str().unwrap();
                assert!(
                    [
                        "checkout_in_progress",
                        "already_subscribed",
                        "already_purchased"
                    ]
                    .contains(&code),
                    "{}",
                    reply.body
                );
            }
        }
    }
    sessions
}

/// `n` clicks on Pay at once; how many were taken.
async fn parallel_pays(app: &TestApp, caller: &Caller, session: &str, n: usize) -> usize {
    let path = pay_path(session);
    let replies =
        futures::future::join_all((0..n).map(|_| post(app, &path, caller, json!({})))).await;
    let mut paid = 0;
    for reply in replies {
        if reply.status == StatusCode::OK {
            paid += 1;
        } else {
            reply.assert_error(StatusCode::CONFLICT, "checkout_closed");
        }
    }
    paid
}

async fn active_subscriptions(app: &TestApp, caller: &Caller) -> u64 {
    use prettyscore_server::billing::entity as subscriptions;
    use sea_orm::{ColumnTrait, EntityTrait, PaginatorTrait, QueryFilter};
    subscriptions::Entity::find()
        .filter(subscriptions::Column::UserId.eq(caller.id))
        .filter(subscriptions::Column::Status.eq("active"))
        .count(&app.db)
        .await
        .unwrap()
}

/// The checkout row of `session` is no longer offered, as when another tab
/// asked for another price: the provider's page stays payable.
async fn no_longer_offered(app: &TestApp, session: &str) {
    sql(
        app,
        "UPDATE checkout_sessions SET status = 'expired' WHERE provider_session_id = $1",
        vec![session.into()],
    )
    .await;
}

async fn eight_parallel_premium_checkouts_and_payments_charge_and_activate_once(backend: Backend) {
    let app = sandbox_app(backend).await;
    let buyer = sign_up(&app, "two-tabs@example.com").await;
    let body = json!({"userId": buyer.id, "type": "subscription"});
    let sessions: BTreeSet<String> = parallel_checkouts(&app, &buyer, "round-1", body.clone(), 8)
        .await
        .into_iter()
        .collect();
    // Eight tabs, one checkout.
    assert_eq!(sessions.len(), 1, "{sessions:?}");
    assert_eq!(count(&app, "checkout_sessions").await, 1);
    let session = sessions.into_iter().next().unwrap();
    assert_eq!(parallel_pays(&app, &buyer, &session, 8).await, 1);

    assert_eq!(subscription_of(&app, &buyer).await["subscribed"], true);
    assert_eq!(active_subscriptions(&app, &buyer).await, 1);
    let payments = payments_of(&app, &buyer).await;
    assert_eq!(payments.len(), 1, "{payments:?}");
    assert_eq!(payments[0]["amount_cents"], 999);
    assert_eq!(payments[0]["status"], "succeeded");

    // A member is told so, in a tab opened now, and in eight at once.
    let again = post(&app, CHECKOUT, &buyer, body.clone()).await;
    again.assert_error(StatusCode::CONFLICT, "already_subscribed");
    assert_eq!(again.body["message"], "You are already a Premium member.");
    assert!(
        parallel_checkouts(&app, &buyer, "round-2", body, 8)
            .await
            .is_empty()
    );
    assert_eq!(count(&app, "billing_refunds").await, 0);
}

async fn a_second_premium_paid_anyway_is_ended_and_refunded_at_once(backend: Backend) {
    let app = sandbox_app(backend).await;
    let buyer = sign_up(&app, "late-tab@example.com").await;
    // The first tab's checkout, then a second one (the first no longer
    // offered), both still payable at the provider.
    let first = checkout(&app, &buyer, "subscription").await;
    let first = first["sessionId"].as_str().unwrap().to_owned();
    no_longer_offered(&app, &first).await;
    let second = checkout(&app, &buyer, "subscription").await;
    let second = second["sessionId"].as_str().unwrap().to_owned();
    assert_ne!(first, second);

    post(&app, &pay_path(&second), &buyer, json!({})).await.ok();
    assert_eq!(subscription_of(&app, &buyer).await["subscribed"], true);
    // Paid in the first tab anyway: charged, then ended and refunded at once.
    post(&app, &pay_path(&first), &buyer, json!({})).await.ok();

    assert_eq!(active_subscriptions(&app, &buyer).await, 1);
    assert_eq!(subscription_of(&app, &buyer).await["subscribed"], true);
    let payments = payments_of(&app, &buyer).await;
    assert_eq!(payments.len(), 2, "{payments:?}");
    let mut statuses: Vec<(String, i64)> = payments
        .iter()
        .map(|p| {
            (
                p["status"].as_str().unwrap().to_owned(),
                p["refunded_cents"].as_i64().unwrap(),
            )
        })
        .collect();
    statuses.sort();
    assert_eq!(
        statuses,
        [("refunded".to_owned(), 999), ("succeeded".to_owned(), 0)],
        "{payments:?}"
    );
    assert_eq!(
        count(&app, "billing_refunds WHERE done_at IS NOT NULL").await,
        1
    );
    // The ended one is canceled at the sandbox too: it never renews.
    assert_eq!(
        count(
            &app,
            "subscriptions WHERE status = 'canceled' AND last_event_at IS NOT NULL"
        )
        .await,
        1
    );
    // Settling again (another instance, the worker) changes nothing.
    prettyscore_server::billing::refunds::settle(&app.state)
        .await
        .unwrap();
    crate::harness::deliver_sandbox_events(&app).await;
    assert_eq!(payments_of(&app, &buyer).await.len(), 2);
    assert_eq!(active_subscriptions(&app, &buyer).await, 1);
}

async fn a_late_stripe_event_for_a_second_subscription_is_refunded_through_stripe(
    backend: Backend,
) {
    let stripe = stripe_double().await;
    // Stripe's answers to DELETE /v1/subscriptions/{id} and POST /v1/refunds.
    Mock::given(method("DELETE"))
        .and(path("/v1/subscriptions/sub_late"))
        .respond_with(ResponseTemplate::new(200).set_body_json(json!({
            "id": "sub_late", "object": "subscription", "status": "canceled",
            "cancel_at_period_end": false, "items": {"data": [{"current_period_end": now() + 86400}]},
        })))
        .expect(1)
        .mount(&stripe)
        .await;
    Mock::given(method("POST"))
        .and(path("/v1/refunds"))
        .and(body_string_contains("payment_intent=pi_late"))
        .respond_with(ResponseTemplate::new(200).set_body_json(json!({
            "id": "re_late", "object": "refund", "status": "succeeded", "amount": 999,
            "payment_intent": "pi_late",
        })))
        .expect(1)
        .mount(&stripe)
        .await;
    let app = stripe_app(backend, &stripe.uri()).await;
    let buyer = sign_up(&app, "late-event@example.com").await;
    let period_end = now() + 30 * 86400;
    let subscription = |id: &str, event_id: &str, kind: &str| {
        event(
            event_id,
            kind,
            now(),
            json!({"id": id, "object": "subscription", "status": "active", "customer": "cus_1",
                   "cancel_at_period_end": false,
                   "items": {"data": [{"current_period_end": period_end}]},
                   "metadata": {"user_id": buyer.id}}),
        )
    };
    let invoice = |id: &str, sub: &str, intent: &str| {
        event(
            &format!("evt_{id}"),
            "invoice.paid",
            now(),
            json!({"id": id, "object": "invoice", "subscription": sub, "amount_paid": 999,
                   "currency": "usd", "payment_intent": intent,
                   "lines": {"data": [{"period": {"end": period_end}}]},
                   "subscription_details": {"metadata": {"user_id": buyer.id}}}),
        )
    };
    deliver(
        &app,
        &subscription("sub_first", "evt_s1", "customer.subscription.created"),
    )
    .await;
    deliver(&app, &invoice("in_first", "sub_first", "pi_first")).await;
    assert_eq!(subscription_of(&app, &buyer).await["subscribed"], true);

    // A second subscription's events arrive late (a checkout paid in
    // another tab before the first was fulfilled).
    deliver(
        &app,
        &subscription("sub_late", "evt_s2", "customer.subscription.created"),
    )
    .await;
    deliver(&app, &invoice("in_late", "sub_late", "pi_late")).await;
    assert_eq!(active_subscriptions(&app, &buyer).await, 1);

    eventually(
        "the second subscription to be refunded at Stripe",
        || async { count(&app, "billing_refunds WHERE done_at IS NOT NULL").await == 1 },
    )
    .await;
    let requests = stripe.received_requests().await.unwrap();
    let refund = requests
        .iter()
        .find(|r| r.url.path() == "/v1/refunds")
        .expect("a refund request");
    assert_eq!(
        refund.headers.get("idempotency-key").unwrap(),
        "refund-pi_late-full"
    );
    assert!(
        !requests
            .iter()
            .any(|r| r.url.path() == "/v1/subscriptions/sub_first"),
        "the first subscription is left alone"
    );
    // Stripe's events for the refund and the end: My Account shows them.
    deliver(
        &app,
        &event(
            "evt_refunded",
            "charge.refunded",
            now(),
            json!({"id": "ch_late", "payment_intent": "pi_late", "amount": 999,
                   "amount_refunded": 999, "refunded": true}),
        ),
    )
    .await;
    let mut deleted = subscription("sub_late", "evt_deleted", "customer.subscription.deleted");
    deleted["data"]["object"]["status"] = json!("canceled");
    deliver(&app, &deleted).await;
    // A late "active" update of the second one does not bring it back.
    deliver(
        &app,
        &subscription("sub_late", "evt_s2_again", "customer.subscription.updated"),
    )
    .await;
    assert_eq!(active_subscriptions(&app, &buyer).await, 1);
    let payments = payments_of(&app, &buyer).await;
    let refunded: Vec<&Value> = payments
        .iter()
        .filter(|p| p["status"] == "refunded")
        .collect();
    assert_eq!(refunded.len(), 1, "{payments:?}");
    assert_eq!(refunded[0]["refunded_cents"], 999);
    prettyscore_server::billing::refunds::settle(&app.state)
        .await
        .unwrap();
    // `expect(1)` on both mocks: checked when the double is dropped.
}

async fn the_detailed_analysis_is_bought_for_one_result_of_the_callers(backend: Backend) {
    let app = sandbox_app(backend).await;
    let owner = sign_up(&app, "owner@example.com").await;
    let other = sign_up(&app, "other@example.com").await;
    let admin = sign_up_named_caller(&app, "admin@example.com", "Boss").await;
    prettyscore_server::admin::roles::grant_admin(&app.db, "admin@example.com")
        .await
        .unwrap();
    let result = personality_result(&app, &owner, 1).await;
    let body = |caller: &Caller, result: Option<Uuid>| {
        json!({"userId": caller.id, "type": "personality_detailed",
               "metadata": {"personality_result_id": result}})
    };
    // Anonymous: 401.
    let anonymous = call(
        &app,
        Method::POST,
        CHECKOUT,
        None,
        Some(body(&owner, Some(result))),
    )
    .await;
    anonymous.assert_error(StatusCode::UNAUTHORIZED, "not_signed_in");
    // No result named: 422 in the user's words.
    let missing = post(&app, CHECKOUT, &owner, body(&owner, None)).await;
    missing.assert_error(StatusCode::UNPROCESSABLE_ENTITY, "validation_failed");
    assert!(
        missing.body["message"]
            .as_str()
            .unwrap()
            .contains("personality_result_id")
    );
    // Another user's result, an admin's included: 404, nothing opened.
    for caller in [&other, &admin] {
        let theirs = post(&app, CHECKOUT, caller, body(caller, Some(result))).await;
        theirs.assert_error(StatusCode::NOT_FOUND, "not_found");
    }
    assert_eq!(count(&app, "checkout_sessions").await, 0);

    // The owner buys it: that result becomes the detailed analysis.
    let opened = post(&app, CHECKOUT, &owner, body(&owner, Some(result)))
        .await
        .ok();
    assert_eq!(opened["amountCents"], 499);
    let session = opened["sessionId"].as_str().unwrap();
    post(&app, &pay_path(session), &owner, json!({})).await.ok();
    let results = get(&app, "/api/v1/personality/results", &owner).await.ok();
    let results = results.as_array().unwrap();
    assert_eq!(results.len(), 1, "{results:?}");
    assert_eq!(results[0]["id"], json!(result));
    assert_eq!(results[0]["paid"], true);
    assert_eq!(results[0]["quizType"], "detailed");
    let text = results[0]["analysis"].as_str().unwrap();
    assert!(text.contains("Your strengths"), "{text}");
    // The same answers again (a reload, a retake) answer that result.
    let again = post(
        &app,
        "/functions/v1/personality-analysis",
        &owner,
        json!({"answers": results[0]["answers"], "quizType": "detailed"}),
    )
    .await
    .ok();
    assert_eq!(again["id"], json!(result));

    // Bought: a second checkout is 409, for the owner and in eight tabs.
    let twice = post(&app, CHECKOUT, &owner, body(&owner, Some(result))).await;
    twice.assert_error(StatusCode::CONFLICT, "already_purchased");
    assert!(
        parallel_checkouts(&app, &owner, "round-3", body(&owner, Some(result)), 8)
            .await
            .is_empty()
    );
    // Others still cannot, and see nothing of it.
    let theirs = post(&app, CHECKOUT, &other, body(&other, Some(result))).await;
    theirs.assert_error(StatusCode::NOT_FOUND, "not_found");
    assert_eq!(
        get(&app, "/api/v1/personality/results", &other).await.ok(),
        json!([])
    );
    assert_eq!(payments_of(&app, &owner).await.len(), 1);
}

async fn eight_parallel_purchases_of_one_detailed_analysis_charge_once(backend: Backend) {
    let app = sandbox_app(backend).await;
    let owner = sign_up(&app, "eight@example.com").await;
    let result = personality_result(&app, &owner, 2).await;
    let body = json!({"userId": owner.id, "type": "personality_detailed",
                      "metadata": {"personality_result_id": result}});
    let sessions: BTreeSet<String> = parallel_checkouts(&app, &owner, "round-4", body, 8)
        .await
        .into_iter()
        .collect();
    assert_eq!(sessions.len(), 1, "{sessions:?}");
    let session = sessions.into_iter().next().unwrap();
    assert_eq!(parallel_pays(&app, &owner, &session, 8).await, 1);
    let payments = payments_of(&app, &owner).await;
    assert_eq!(payments.len(), 1, "{payments:?}");
    assert_eq!(payments[0]["amount_cents"], 499);
    assert_eq!(payments[0]["status"], "succeeded");
    // Another result of the same user is another purchase.
    let next = personality_result(&app, &owner, 0).await;
    let opened = post(
        &app,
        CHECKOUT,
        &owner,
        json!({"userId": owner.id, "type": "personality_detailed",
               "metadata": {"personality_result_id": next}}),
    )
    .await
    .ok();
    assert_ne!(opened["sessionId"].as_str().unwrap(), session);
}

async fn a_detailed_analysis_paid_twice_is_refunded_once(backend: Backend) {
    let app = sandbox_app(backend).await;
    let owner = sign_up(&app, "paid-twice@example.com").await;
    let result = personality_result(&app, &owner, 0).await;
    let body = json!({"userId": owner.id, "type": "personality_detailed",
                      "metadata": {"personality_result_id": result}});
    let first = post(&app, CHECKOUT, &owner, body.clone()).await.ok();
    let first = first["sessionId"].as_str().unwrap().to_owned();
    no_longer_offered(&app, &first).await;
    let second = post(&app, CHECKOUT, &owner, body).await.ok();
    let second = second["sessionId"].as_str().unwrap().to_owned();
    assert_ne!(first, second);
    let (pay_first, pay_second) = (pay_path(&first), pay_path(&second));
    let (a, b) = tokio::join!(
        post(&app, &pay_first, &owner, json!({})),
        post(&app, &pay_second, &owner, json!({}))
    );
    a.ok();
    b.ok();
    // Settles whatever a racing delivery left (the worker would).
    crate::harness::deliver_sandbox_events(&app).await;
    let payments = payments_of(&app, &owner).await;
    assert_eq!(payments.len(), 2, "{payments:?}");
    let kept = payments
        .iter()
        .filter(|p| p["status"] == "succeeded")
        .count();
    let refunded = payments
        .iter()
        .filter(|p| p["status"] == "refunded")
        .count();
    assert_eq!((kept, refunded), (1, 1), "{payments:?}");
    let results = get(&app, "/api/v1/personality/results", &owner).await.ok();
    assert_eq!(results[0]["paid"], true);
    assert_eq!(results.as_array().unwrap().len(), 1);
}
