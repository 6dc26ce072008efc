//! `POST /api/v1/billing/webhook`: Stripe's events, signed, once, in any
//! order, and the subscription's life from them.

use super::*;

on_both_databases!(
    a_redelivered_event_grants_once,
    a_bad_signature_or_an_old_timestamp_is_refused_and_changes_nothing,
    subscription_updated_before_checkout_completed_ends_in_the_same_state,
    an_expired_cancelled_or_unpaid_subscription_loses_premium,
    renewals_extend_the_period_and_a_late_old_event_changes_nothing,
    a_refund_marks_the_payment_refunded,
    a_contact_fee_is_priced_by_rank_held_and_released_by_events,
    a_stripe_receipt_names_the_card_the_payment_was_made_with
);

/// A Stripe checkout for a subscription, and the `checkout.session.completed`
/// Stripe would send for it once paid.
async fn paid_subscription_checkout(
    app: &TestApp,
    caller: &Caller,
    subscription: &str,
    created: i64,
) -> Value {
    let opened = checkout(app, caller, "subscription").await;
    let session_id = opened["sessionId"].as_str().unwrap();
    let checkout_id = checkout_id(app, session_id).await;
    event(
        &format!("evt_completed_{subscription}"),
        "checkout.session.completed",
        created,
        json!({
            "id": session_id,
            "object": "checkout.session",
            "mode": "subscription",
            "status": "complete",
            "payment_status": "paid",
            "amount_total": 999,
            "currency": "usd",
            "client_reference_id": caller.id,
            "customer": "cus_1",
            "subscription": subscription,
            "invoice": format!("in_{subscription}"),
            "metadata": {"checkout_id": checkout_id, "user_id": caller.id, "purpose": "subscription"},
        }),
    )
}

// One argument per field of the Stripe object the tests vary.
#[allow(clippy::too_many_arguments)]
fn subscription_event(
    id: &str,
    kind: &str,
    created: i64,
    subscription: &str,
    user: &Caller,
    status: &str,
    period_end: i64,
    cancel_at_period_end: bool,
) -> Value {
    // The period end where Stripe's API puts it since 2025: on the items.
    event(
        id,
        kind,
        created,
        json!({
            "id": subscription,
            "object": "subscription",
            "status": status,
            "customer": "cus_1",
            "cancel_at_period_end": cancel_at_period_end,
            "items": {"data": [{"current_period_end": period_end}]},
            "metadata": {"user_id": user.id},
        }),
    )
}

async fn a_redelivered_event_grants_once(backend: Backend) {
    let stripe = stripe_double().await;
    let app = stripe_app(backend, &stripe.uri()).await;
    let buyer = sign_up(&app, "buyer@example.com").await;
    assert_eq!(subscription_of(&app, &buyer).await["subscribed"], false);

    let completed = paid_subscription_checkout(&app, &buyer, "sub_once", now()).await;
    let first = deliver(&app, &completed).await;
    assert_eq!(first, json!({"received": true, "duplicate": false}));
    for _ in 0..3 {
        let again = deliver(&app, &completed).await;
        assert_eq!(again, json!({"received": true, "duplicate": true}));
    }
    let status = subscription_of(&app, &buyer).await;
    assert_eq!(status["subscribed"], true, "{status}");
    assert_eq!(status["plan"], "premium_editing");
    assert_eq!(count(&app, "subscriptions").await, 1);
    let payments = payments_of(&app, &buyer).await;
    assert_eq!(payments.len(), 1, "{payments:?}");
    assert_eq!(payments[0]["amount_cents"], 999);
    assert_eq!(payments[0]["status"], "succeeded");

    // The invoice of the same first payment arrives too: still one payment.
    let paid = event(
        "evt_invoice_once",
        "invoice.paid",
        now(),
        json!({"id": "in_sub_once", "subscription": "sub_once", "amount_paid": 999, "currency": "usd",
               "payment_intent": "pi_once", "lines": {"data": [{"period": {"end": now() + 30 * 86400}}]}}),
    );
    deliver(&app, &paid).await;
    deliver(&app, &paid).await;
    assert_eq!(payments_of(&app, &buyer).await.len(), 1);
    assert_eq!(count(&app, "processed_webhook_events").await, 2);
}

async fn a_bad_signature_or_an_old_timestamp_is_refused_and_changes_nothing(backend: Backend) {
    let stripe = stripe_double().await;
    let app = stripe_app(backend, &stripe.uri()).await;
    let buyer = sign_up(&app, "buyer@example.com").await;
    let completed = paid_subscription_checkout(&app, &buyer, "sub_forged", now()).await;

    let wrong_secret = deliver_signed(&app, &completed, "whsec_someone_else", now()).await;
    wrong_secret.assert_error(StatusCode::BAD_REQUEST, "invalid_signature");
    let too_old = deliver_signed(&app, &completed, WEBHOOK_SECRET, now() - 301).await;
    too_old.assert_error(StatusCode::BAD_REQUEST, "invalid_signature");
    let unsigned = app
        .client
        .post(app.url("/api/v1/billing/webhook"))
        .json(&completed)
        .send()
        .await
        .unwrap();
    assert_eq!(unsigned.status(), StatusCode::BAD_REQUEST);
    // A valid signature over another body.
    let body = serde_json::to_vec(&completed).unwrap();
    let signature = prettyscore_server::providers::payments::stripe::signature_header(
        WEBHOOK_SECRET,
        now(),
        b"{}",
    );
    let swapped = app
        .client
        .post(app.url("/api/v1/billing/webhook"))
        .header("Stripe-Signature", signature)
        .body(body)
        .send()
        .await
        .unwrap();
    assert_eq!(swapped.status(), StatusCode::BAD_REQUEST);

    assert_eq!(count(&app, "processed_webhook_events").await, 0);
    assert_eq!(subscription_of(&app, &buyer).await["subscribed"], false);
    // Within the tolerance it is accepted.
    let Reply { status, .. } = deliver_signed(&app, &completed, WEBHOOK_SECRET, now() - 250).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(subscription_of(&app, &buyer).await["subscribed"], true);
}

async fn subscription_updated_before_checkout_completed_ends_in_the_same_state(backend: Backend) {
    let stripe = stripe_double().await;
    let app = stripe_app(backend, &stripe.uri()).await;
    let usual = sign_up(&app, "usual@example.com").await;
    let reversed = sign_up(&app, "reversed@example.com").await;
    let t = now() - 60;
    let period_end = t + 30 * 86400;

    // The usual order: completed, created, updated (cancel at period end).
    let completed = paid_subscription_checkout(&app, &usual, "sub_usual", t).await;
    deliver(&app, &completed).await;
    for (id, kind, at, cancel) in [
        ("evt_u1", "customer.subscription.created", t, false),
        ("evt_u2", "customer.subscription.updated", t + 5, true),
    ] {
        let e = subscription_event(
            id,
            kind,
            at,
            "sub_usual",
            &usual,
            "active",
            period_end,
            cancel,
        );
        deliver(&app, &e).await;
    }

    // Reversed: updated first, then the older created, then completed.
    let completed = paid_subscription_checkout(&app, &reversed, "sub_reversed", t).await;
    for (id, kind, at, cancel) in [
        ("evt_r2", "customer.subscription.updated", t + 5, true),
        ("evt_r1", "customer.subscription.created", t, false),
    ] {
        let e = subscription_event(
            id,
            kind,
            at,
            "sub_reversed",
            &reversed,
            "active",
            period_end,
            cancel,
        );
        deliver(&app, &e).await;
    }
    deliver(&app, &completed).await;

    let a = subscription_of(&app, &usual).await;
    let b = subscription_of(&app, &reversed).await;
    assert_eq!(a, b);
    assert_eq!(a["subscribed"], true);
    assert_eq!(a["cancel_at_period_end"], true);
    let expires = chrono::DateTime::parse_from_rfc3339(a["expires_at"].as_str().unwrap()).unwrap();
    assert_eq!(expires.timestamp(), period_end);
    assert_eq!(count(&app, "subscriptions").await, 2);
    assert_eq!(payments_of(&app, &usual).await.len(), 1);
    assert_eq!(payments_of(&app, &reversed).await.len(), 1);
}

async fn an_expired_cancelled_or_unpaid_subscription_loses_premium(backend: Backend) {
    let stripe = stripe_double().await;
    let app = stripe_app(backend, &stripe.uri()).await;
    let t = now() - 60;
    let mut users = Vec::new();
    for (n, sub) in ["sub_deleted", "sub_expired", "sub_unpaid"]
        .iter()
        .enumerate()
    {
        let user = sign_up(&app, &format!("user{n}@example.com")).await;
        let created = subscription_event(
            &format!("evt_c_{sub}"),
            "customer.subscription.created",
            t,
            sub,
            &user,
            "active",
            t + 30 * 86400,
            false,
        );
        deliver(&app, &created).await;
        assert_eq!(subscription_of(&app, &user).await["subscribed"], true);
        users.push(user);
    }

    // Cancelled: Stripe deletes the subscription.
    let deleted = subscription_event(
        "evt_d",
        "customer.subscription.deleted",
        t + 10,
        "sub_deleted",
        &users[0],
        "canceled",
        t + 30 * 86400,
        false,
    );
    deliver(&app, &deleted).await;
    let status = subscription_of(&app, &users[0]).await;
    assert_eq!(status["subscribed"], false, "{status}");
    assert_eq!(status["status"], "canceled");

    // Expired: the period ended without a renewal.
    let lapsed = subscription_event(
        "evt_e",
        "customer.subscription.updated",
        t + 10,
        "sub_expired",
        &users[1],
        "active",
        t - 1,
        false,
    );
    deliver(&app, &lapsed).await;
    assert_eq!(subscription_of(&app, &users[1]).await["subscribed"], false);

    // Unpaid renewal: past due.
    let failed = event(
        "evt_f",
        "invoice.payment_failed",
        t + 10,
        json!({"id": "in_failed", "subscription": "sub_unpaid", "amount_due": 999, "currency": "usd"}),
    );
    deliver(&app, &failed).await;
    let status = subscription_of(&app, &users[2]).await;
    assert_eq!(status["subscribed"], false);
    assert_eq!(status["status"], "past_due");
    assert_eq!(payments_of(&app, &users[2]).await[0]["status"], "failed");

    // Premium features follow: no access without a trial.
    let access = post(
        &app,
        "/functions/v1/check-feature-access",
        &users[0],
        json!({"featureName": "feet_scoring"}),
    )
    .await
    .ok();
    assert_eq!(access["hasAccess"], false);
}

async fn renewals_extend_the_period_and_a_late_old_event_changes_nothing(backend: Backend) {
    let stripe = stripe_double().await;
    let app = stripe_app(backend, &stripe.uri()).await;
    let user = sign_up(&app, "renews@example.com").await;
    let t = now() - 3600;
    let first_end = t + 30 * 86400;
    let second_end = first_end + 30 * 86400;
    deliver(
        &app,
        &subscription_event(
            "evt_1",
            "customer.subscription.created",
            t,
            "sub_r",
            &user,
            "active",
            first_end,
            false,
        ),
    )
    .await;
    let renewal = event(
        "evt_2",
        "invoice.paid",
        t + 100,
        json!({"id": "in_2", "subscription": "sub_r", "amount_paid": 999, "currency": "usd",
               "payment_intent": "pi_2", "lines": {"data": [{"period": {"end": second_end}}]}}),
    );
    deliver(&app, &renewal).await;
    let status = subscription_of(&app, &user).await;
    let expires =
        chrono::DateTime::parse_from_rfc3339(status["expires_at"].as_str().unwrap()).unwrap();
    assert_eq!(expires.timestamp(), second_end);
    // A renewal's subscription.updated, then an older cancellation delivered late.
    deliver(
        &app,
        &subscription_event(
            "evt_3",
            "customer.subscription.updated",
            t + 200,
            "sub_r",
            &user,
            "active",
            second_end,
            false,
        ),
    )
    .await;
    deliver(
        &app,
        &subscription_event(
            "evt_old",
            "customer.subscription.updated",
            t + 50,
            "sub_r",
            &user,
            "canceled",
            first_end,
            true,
        ),
    )
    .await;
    let status = subscription_of(&app, &user).await;
    assert_eq!(status["subscribed"], true, "{status}");
    assert_eq!(status["cancel_at_period_end"], false);
    assert_eq!(payments_of(&app, &user).await.len(), 1);
}

async fn a_refund_marks_the_payment_refunded(backend: Backend) {
    let stripe = stripe_double().await;
    let app = stripe_app(backend, &stripe.uri()).await;
    let buyer = sign_up(&app, "reader@example.com").await;
    let opened = checkout(&app, &buyer, "personality_detailed").await;
    assert_eq!(opened["amountCents"], 499);
    let session_id = opened["sessionId"].as_str().unwrap();
    let checkout_id = checkout_id(&app, session_id).await;
    let completed = event(
        "evt_pd",
        "checkout.session.completed",
        now(),
        json!({"id": session_id, "mode": "payment", "status": "complete", "payment_status": "paid",
               "amount_total": 499, "currency": "usd", "payment_intent": "pi_pd",
               "metadata": {"checkout_id": checkout_id, "user_id": buyer.id, "purpose": "personality_detailed"}}),
    );
    deliver(&app, &completed).await;
    let payments = payments_of(&app, &buyer).await;
    assert_eq!(payments.len(), 1);
    assert_eq!(payments[0]["status"], "succeeded");
    assert_eq!(payments[0]["purpose"], "personality_detailed");
    assert!(
        prettyscore_server::billing::has_paid_for(
            &app.db,
            buyer.id,
            prettyscore_server::billing::rules::Purchase::PersonalityDetailed
        )
        .await
        .unwrap()
    );

    let partial = event(
        "evt_partial",
        "charge.refunded",
        now(),
        json!({"id": "ch_pd", "payment_intent": "pi_pd", "amount": 499, "amount_refunded": 100, "refunded": false}),
    );
    deliver(&app, &partial).await;
    let payments = payments_of(&app, &buyer).await;
    assert_eq!(payments[0]["status"], "partially_refunded");
    assert_eq!(payments[0]["refunded_cents"], 100);

    let full = event(
        "evt_full",
        "charge.refunded",
        now(),
        json!({"id": "ch_pd", "payment_intent": "pi_pd", "amount": 499, "amount_refunded": 499, "refunded": true}),
    );
    deliver(&app, &full).await;
    deliver(&app, &full).await;
    let payments = payments_of(&app, &buyer).await;
    assert_eq!(payments.len(), 1);
    assert_eq!(payments[0]["status"], "refunded");
    assert_eq!(payments[0]["refunded_cents"], 499);
    assert!(
        !prettyscore_server::billing::has_paid_for(
            &app.db,
            buyer.id,
            prettyscore_server::billing::rules::Purchase::PersonalityDetailed
        )
        .await
        .unwrap()
    );
}

pub async fn insert_contact_request(
    app: &TestApp,
    requester: &Caller,
    contestant: &Caller,
    rank: i32,
) -> Uuid {
    let id = Uuid::new_v4();
    let fee = prettyscore_server::billing::rules::contact_fee_cents(rank as u32);
    let (platform, share) = prettyscore_server::billing::rules::contact_fee_split(fee);
    sql(
        app,
        "INSERT INTO contact_requests (id, requester_id, contestant_id, rank_at_request, fee_amount_cents, \
         platform_share_cents, contestant_share_cents, message_preview) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)",
        vec![
            id.into(),
            requester.id.into(),
            contestant.id.into(),
            rank.into(),
            fee.into(),
            platform.into(),
            share.into(),
            "Hello, I would love to work with you".into(),
        ],
    )
    .await;
    id
}

pub async fn contact_state(app: &TestApp, id: Uuid) -> (bool, String) {
    use sea_orm::{ConnectionTrait, Statement};
    let backend = app.db.get_database_backend();
    let sql = if backend == sea_orm::DbBackend::Postgres {
        "SELECT paid, payment_status FROM contact_requests WHERE id = $1"
    } else {
        "SELECT paid, payment_status FROM contact_requests WHERE id = ?"
    };
    let row = app
        .db
        .query_one_raw(Statement::from_sql_and_values(backend, sql, [id.into()]))
        .await
        .unwrap()
        .unwrap();
    (
        row.try_get("", "paid").unwrap(),
        row.try_get("", "payment_status").unwrap(),
    )
}

async fn a_contact_fee_is_priced_by_rank_held_and_released_by_events(backend: Backend) {
    let stripe = stripe_double().await;
    let app = stripe_app(backend, &stripe.uri()).await;
    let requester = sign_up(&app, "fan@example.com").await;
    let contestant = sign_up(&app, "star@example.com").await;
    let request = insert_contact_request(&app, &requester, &contestant, 3).await;

    // The client's fee is ignored: rank 3 costs $900.
    let opened = post(
        &app,
        "/functions/v1/create-checkout",
        &requester,
        json!({"userId": requester.id, "type": "contact_request", "priceId": "price_contact_1",
               "metadata": {"contact_request_id": request, "fee_amount": 1, "rank": 50}}),
    )
    .await
    .ok();
    assert_eq!(opened["amountCents"], 90_000);
    // Stripe was asked for a hold at that amount.
    let sent = &stripe.received_requests().await.unwrap()[0];
    let form = String::from_utf8_lossy(&sent.body).into_owned();
    assert!(
        form.contains("payment_intent_data%5Bcapture_method%5D=manual"),
        "{form}"
    );
    assert!(form.contains("unit_amount%5D=90000"), "{form}");

    // Another user cannot pay for someone else's request.
    let stranger = sign_up(&app, "stranger@example.com").await;
    let reply = post(
        &app,
        "/functions/v1/create-checkout",
        &stranger,
        json!({"userId": stranger.id, "type": "contact_request", "metadata": {"contact_request_id": request}}),
    )
    .await;
    reply.assert_error(StatusCode::NOT_FOUND, "not_found");

    let intent = |status: &str, extra: Value| {
        let mut object = json!({"id": "pi_hold", "object": "payment_intent", "status": status, "amount": 90_000,
            "currency": "usd", "metadata": {"user_id": requester.id, "purpose": "contact_request", "contact_request_id": request}});
        for (k, v) in extra.as_object().unwrap() {
            object[k] = v.clone();
        }
        object
    };
    deliver(
        &app,
        &event(
            "evt_h1",
            "payment_intent.amount_capturable_updated",
            now(),
            intent("requires_capture", json!({"amount_capturable": 90_000})),
        ),
    )
    .await;
    assert_eq!(
        contact_state(&app, request).await,
        (true, "paid".to_owned())
    );
    assert_eq!(payments_of(&app, &requester).await[0]["status"], "held");
    // A paid request cannot be checked out again.
    let again = post(
        &app,
        "/functions/v1/create-checkout",
        &requester,
        json!({"userId": requester.id, "type": "contact_request", "metadata": {"contact_request_id": request}}),
    )
    .await;
    again.assert_error(StatusCode::CONFLICT, "already_paid");

    // The contestant denies: the hold is released.
    deliver(
        &app,
        &event(
            "evt_h2",
            "payment_intent.canceled",
            now(),
            intent("canceled", json!({})),
        ),
    )
    .await;
    assert_eq!(
        contact_state(&app, request).await,
        (false, "refunded".to_owned())
    );
    let payments = payments_of(&app, &requester).await;
    assert_eq!(payments.len(), 1);
    assert_eq!(payments[0]["status"], "canceled");
    assert_eq!(payments[0]["amount_cents"], 90_000);
}

on_both_databases!(an_async_payment_grants_only_when_it_succeeds);

async fn an_async_payment_grants_only_when_it_succeeds(backend: Backend) {
    let stripe = stripe_double().await;
    let app = stripe_app(backend, &stripe.uri()).await;
    for (n, outcome) in ["succeeded", "failed"].iter().enumerate() {
        let buyer = sign_up(&app, &format!("bank{n}@example.com")).await;
        let mut completed =
            paid_subscription_checkout(&app, &buyer, &format!("sub_async_{n}"), now()).await;
        // A bank debit: the session completes before the money arrives.
        completed["data"]["object"]["payment_status"] = json!("unpaid");
        deliver(&app, &completed).await;
        assert_eq!(subscription_of(&app, &buyer).await["subscribed"], false);
        assert_eq!(payments_of(&app, &buyer).await[0]["status"], "pending");

        let mut later = completed.clone();
        later["id"] = json!(format!("evt_async_{n}"));
        later["type"] = json!(format!("checkout.session.async_payment_{outcome}"));
        let paid = if *outcome == "succeeded" {
            "paid"
        } else {
            "unpaid"
        };
        later["data"]["object"]["payment_status"] = json!(paid);
        deliver(&app, &later).await;
        let subscribed = subscription_of(&app, &buyer).await["subscribed"] == true;
        assert_eq!(subscribed, *outcome == "succeeded", "{outcome}");
        let payments = payments_of(&app, &buyer).await;
        assert_eq!(payments.len(), 1);
        let expected = if *outcome == "succeeded" {
            "succeeded"
        } else {
            "failed"
        };
        assert_eq!(payments[0]["status"], expected);
    }
}

/// The receipt of a Stripe payment names its card, read from Stripe when
/// the event arrives: the PaymentIntent's charge for a one-time purchase,
/// the invoice's for a subscription's first payment; without an answer
/// from Stripe the receipt still goes, saying "the card you entered".
async fn a_stripe_receipt_names_the_card_the_payment_was_made_with(backend: Backend) {
    use wiremock::matchers::query_param;
    let stripe = stripe_double().await;
    let card = |brand: &str, last4: &str| {
        json!({"id": "ch_1", "object": "charge",
               "payment_method_details": {"type": "card", "card": {"brand": brand, "last4": last4}}})
    };
    Mock::given(method("GET"))
        .and(path("/v1/payment_intents/pi_card"))
        .and(query_param("expand[]", "latest_charge"))
        .respond_with(ResponseTemplate::new(200).set_body_json(
            json!({"id": "pi_card", "object": "payment_intent", "latest_charge": card("visa", "4242")}),
        ))
        .mount(&stripe)
        .await;
    Mock::given(method("GET"))
        .and(path("/v1/invoices/in_sub_card"))
        .and(query_param("expand[]", "payment_intent.latest_charge"))
        .respond_with(ResponseTemplate::new(200).set_body_json(json!({
            "id": "in_sub_card", "object": "invoice",
            "payment_intent": {"id": "pi_sub", "latest_charge": card("mastercard", "5555")},
        })))
        .mount(&stripe)
        .await;
    let app = stripe_app(backend, &stripe.uri()).await;
    let receipt_to = |to: &'static str| {
        let app = &app;
        async move {
            let receipts: Vec<String> = crate::contact_once::mails(app, "payment_receipt")
                .await
                .into_iter()
                .filter(|(address, _, _)| address == to)
                .map(|(_, _, body)| body)
                .collect();
            assert_eq!(receipts.len(), 1, "{receipts:?}");
            receipts[0].clone()
        }
    };
    let one_time = |buyer: Caller, intent: &'static str| {
        let app = &app;
        async move {
            let opened = checkout(app, &buyer, "personality_detailed").await;
            let session_id = opened["sessionId"].as_str().unwrap().to_owned();
            let checkout_id = checkout_id(app, &session_id).await;
            let completed = event(
                &format!("evt_{intent}"),
                "checkout.session.completed",
                now(),
                json!({"id": session_id, "mode": "payment", "status": "complete", "payment_status": "paid",
                       "amount_total": 499, "currency": "usd", "payment_intent": intent,
                       "metadata": {"checkout_id": checkout_id, "user_id": buyer.id, "purpose": "personality_detailed"}}),
            );
            deliver(app, &completed).await;
            deliver(app, &completed).await;
        }
    };

    one_time(sign_up(&app, "reader@example.com").await, "pi_card").await;
    assert!(
        receipt_to("reader@example.com")
            .await
            .contains("Paid with: Visa ending in 4242 (your card statement shows PRETTYSCORE)")
    );

    let subscriber = sign_up(&app, "subscriber@example.com").await;
    let completed = paid_subscription_checkout(&app, &subscriber, "sub_card", now()).await;
    deliver(&app, &completed).await;
    assert!(
        receipt_to("subscriber@example.com")
            .await
            .contains("Paid with: Mastercard ending in 5555")
    );

    // Stripe does not answer for this one (the double has no such intent).
    one_time(sign_up(&app, "unnamed@example.com").await, "pi_unknown").await;
    assert!(
        receipt_to("unnamed@example.com")
            .await
            .contains("Paid with: The card you entered at checkout")
    );
    assert_eq!(payments_of(&app, &subscriber).await.len(), 1);
}
