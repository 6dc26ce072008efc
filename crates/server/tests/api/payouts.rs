//! Payouts (issue 23): the contestant's 75 % of a contact fee goes to their
//! payout account after the refund window, once, however many instances
//! run the job at once; a refund or dispute cancels it before and reverses
//! it after; the payout account is connected through the provider's
//! onboarding (the sandbox's test page here, Stripe Connect against a
//! wiremock double with Stripe's shapes); and who may call what.

use chrono::{Duration, Utc};
use prettyscore_server::billing::fulfil;
use prettyscore_server::billing::payouts::transfers;
use prettyscore_server::providers::payments::Event;
use reqwest::{Method, StatusCode};
use serde_json::{Value, json};

use crate::contact::{contestant, created, path, pay, payment_of};
use crate::harness::{
    Backend, Caller, TestApp, admin, call, count, deliver, deliver_sandbox_events, event, get,
    idempotency_key, now, on_both_databases, post, sandbox_app, sign_up, sql, stripe_app,
    stripe_double, stripe_form,
};

const EARNINGS: &str = "/api/v1/payouts/earnings";
const ACCOUNT: &str = "/api/v1/payouts/account";

on_both_databases!(
    a_contestant_is_paid_75_percent_once_after_the_window_and_a_late_refund_reverses_it,
    a_refund_or_dispute_before_payout_cancels_and_a_released_hold_earns_nothing,
    who_may_see_earnings_and_connect_an_account,
    through_stripe_connect_the_share_is_sent_once_retried_with_its_key_and_reversed,
);

pub(crate) async fn earnings(app: &TestApp, caller: &Caller) -> Value {
    get(app, EARNINGS, caller).await.ok()
}

/// Connects `caller`'s sandbox payout account through its test page.
pub(crate) async fn connect(app: &TestApp, caller: &Caller) -> String {
    let link = post(app, ACCOUNT, caller, json!({})).await.ok();
    let url = link["url"].as_str().unwrap();
    let account = url
        .strip_prefix("/payouts/sandbox/onboard/")
        .unwrap_or_else(|| panic!("the sandbox's onboarding page: {url}"))
        .to_owned();
    let page = get(app, &sandbox_path(&account), caller).await.ok();
    assert_eq!(page["status"], "onboarding");
    assert!(page["notice"].as_str().unwrap().contains("no bank details"));
    let done = post(
        app,
        &format!("{}/complete", sandbox_path(&account)),
        caller,
        json!({}),
    )
    .await
    .ok();
    assert_eq!(done["status"], "enabled");
    account
}

fn sandbox_path(account: &str) -> String {
    format!("/api/v1/payouts/sandbox/accounts/{account}")
}

/// Moves every captured line's charge `days` into the past.
pub(crate) async fn age_captures(app: &TestApp, days: i64) {
    sql(
        app,
        "UPDATE earning_lines SET captured_at = $1 WHERE captured_at IS NOT NULL",
        vec![(Utc::now() - Duration::days(days)).into()],
    )
    .await;
}

/// Runs the transfer job as `instances` instances at once; the sums.
pub(crate) async fn run_job(app: &TestApp, instances: usize) -> transfers::Run {
    let runs = futures::future::join_all(
        (0..instances).map(|_| async { transfers::run(&app.state).await.unwrap() }),
    )
    .await;
    runs.into_iter()
        .fold(transfers::Run::default(), |sum, run| transfers::Run {
            transferred: sum.transferred + run.transferred,
            reversed: sum.reversed + run.reversed,
            canceled: sum.canceled + run.canceled,
            failed: sum.failed + run.failed,
        })
}

/// The totals are the sums of the lines by state.
#[track_caller]
fn assert_totals_are_the_lines(earnings: &Value) {
    let mut sums = [0i64; 3];
    for line in earnings["lines"].as_array().unwrap() {
        let cents = line["amountCents"].as_i64().unwrap();
        match line["state"].as_str().unwrap() {
            "held" | "captured" => sums[0] += cents,
            "payable" => sums[1] += cents,
            "transferred" => sums[2] += cents,
            _ => {}
        }
    }
    assert_eq!(
        earnings["totals"],
        json!({"pendingCents": sums[0], "availableCents": sums[1], "paidCents": sums[2]}),
        "{earnings}"
    );
}

/// Refunds the request's payment in full through the sandbox, delivering
/// its `charge.refunded`.
async fn refund(app: &TestApp, request: &Value) {
    let intent = payment_of(app, request)
        .await
        .provider_payment_intent_id
        .unwrap();
    app.state
        .payments
        .provider
        .refund(&intent, None)
        .await
        .unwrap();
    deliver_sandbox_events(app).await;
}

async fn a_contestant_is_paid_75_percent_once_after_the_window_and_a_late_refund_reverses_it(
    backend: Backend,
) {
    let app = sandbox_app(backend).await;
    let (star, photo) = contestant(&app, "star@example.com", 9.5).await;
    let fan = sign_up(&app, "fan@example.com").await;
    let request = created(&app, &fan, photo).await;
    let fee = request["feeCents"].as_i64().unwrap();
    let share = fee - fee / 4;
    pay(&app, &fan, &request).await;

    // Held: pending, and the contestant may now connect an account.
    let held = earnings(&app, &star).await;
    assert_eq!(held["lines"].as_array().unwrap().len(), 1);
    assert_eq!(held["lines"][0]["state"], "held");
    assert_eq!(held["lines"][0]["amountCents"], share);
    assert_eq!(held["lines"][0]["feeCents"], fee);
    assert_eq!(held["lines"][0]["description"], "Contact request from fan");
    assert_eq!(held["canConnect"], true);
    assert_eq!(held["account"], Value::Null);
    assert_eq!(held["payoutWindowDays"], 7);
    assert_totals_are_the_lines(&held);

    post(&app, &path(&request, "approve"), &star, json!({}))
        .await
        .ok();
    let captured = earnings(&app, &star).await;
    let line = &captured["lines"][0];
    assert_eq!(line["state"], "captured");
    let payable_at: chrono::DateTime<Utc> = line["payableAt"].as_str().unwrap().parse().unwrap();
    let expected = Utc::now() + Duration::days(7);
    assert!(
        (payable_at - expected).num_minutes().abs() < 5,
        "{payable_at}"
    );
    assert_eq!(captured["totals"]["pendingCents"], share);
    assert_totals_are_the_lines(&captured);

    // Within the window nothing is sent, connected or not.
    assert_eq!(run_job(&app, 1).await, transfers::Run::default());
    connect(&app, &star).await;
    let connected = earnings(&app, &star).await;
    assert_eq!(connected["account"]["status"], "enabled");
    assert!(connected["account"]["connectedAt"].is_string());
    assert_eq!(run_job(&app, 1).await, transfers::Run::default());

    // The window has passed: eight instances at once send it once.
    age_captures(&app, 8).await;
    assert_eq!(earnings(&app, &star).await["lines"][0]["state"], "payable");
    assert_eq!(
        earnings(&app, &star).await["totals"]["availableCents"],
        share
    );
    let run = run_job(&app, 8).await;
    assert_eq!(run.transferred, 1, "{run:?}");
    assert_eq!(run.failed, 0, "{run:?}");
    assert_eq!(
        count(&app, "sandbox_objects WHERE kind = 'transfer'").await,
        1
    );
    let paid = earnings(&app, &star).await;
    assert_eq!(paid["lines"][0]["state"], "transferred");
    assert!(paid["lines"][0]["transferredAt"].is_string());
    assert_eq!(
        paid["totals"],
        json!({"pendingCents": 0, "availableCents": 0, "paidCents": share})
    );
    assert_eq!(
        run_job(&app, 2).await,
        transfers::Run::default(),
        "nothing twice"
    );

    // Refunded after the transfer: the transfer is taken back, once.
    refund(&app, &request).await;
    let run = run_job(&app, 8).await;
    assert_eq!(run.reversed, 1, "{run:?}");
    let reversed = earnings(&app, &star).await;
    assert_eq!(reversed["lines"][0]["state"], "reversed");
    assert!(reversed["lines"][0]["reversedAt"].is_string());
    assert_eq!(
        reversed["totals"],
        json!({"pendingCents": 0, "availableCents": 0, "paidCents": 0})
    );
    assert_eq!(
        count(
            &app,
            "sandbox_objects WHERE kind = 'transfer' AND CAST(data AS TEXT) LIKE '%trr_sandbox%'"
        )
        .await,
        1,
        "the sandbox's transfer is reversed"
    );
    assert_eq!(run_job(&app, 1).await, transfers::Run::default());
    // The fan's dashboard is untouched; the requester never sees a line.
    assert_eq!(earnings(&app, &fan).await["lines"], json!([]));
    // The star's export holds the account and the line as it ended.
    let export = get(&app, "/api/v1/account/export", &star).await.ok();
    let billing = &export["sections"]["billing"];
    assert_eq!(billing["payout_accounts"][0]["status"], "enabled");
    assert_eq!(billing["earnings"][0]["status"], "reversed");
    assert_eq!(billing["earnings"][0]["amount_cents"], share);
}

/// Delivers a `charge.dispute.created` for the request's payment, as
/// Stripe sends it.
async fn dispute(app: &TestApp, request: &Value) {
    let intent = payment_of(app, request)
        .await
        .provider_payment_intent_id
        .unwrap();
    let event: Event = serde_json::from_value(json!({
        "id": format!("evt_dispute_{intent}"),
        "type": "charge.dispute.created",
        "created": Utc::now().timestamp(),
        "data": {"object": {"id": format!("dp_{intent}"), "object": "dispute",
                            "payment_intent": intent, "charge": format!("ch_{intent}"),
                            "amount": request["feeCents"], "status": "needs_response",
                            "reason": "fraudulent"}}
    }))
    .unwrap();
    for _ in 0..2 {
        fulfil(&app.db, &app.state.hooks, "sandbox", &event)
            .await
            .unwrap();
    }
}

async fn state_of_line(app: &TestApp, caller: &Caller) -> String {
    earnings(app, caller).await["lines"][0]["state"]
        .as_str()
        .unwrap()
        .to_owned()
}

async fn a_refund_or_dispute_before_payout_cancels_and_a_released_hold_earns_nothing(
    backend: Backend,
) {
    let app = sandbox_app(backend).await;
    let fan = sign_up(&app, "fan@example.com").await;
    let mut stars = Vec::new();
    for (email, score) in [
        ("refunded@example.com", 9.5),
        ("denied@example.com", 9.0),
        ("disputed@example.com", 8.5),
        ("inflight@example.com", 8.0),
    ] {
        let (star, photo) = contestant(&app, email, score).await;
        let request = created(&app, &fan, photo).await;
        pay(&app, &fan, &request).await;
        connect(&app, &star).await;
        stars.push((star, request));
    }
    let [refunded, denied, disputed, inflight] = &stars[..] else {
        unreachable!()
    };
    for (star, request) in [refunded, disputed, inflight] {
        post(&app, &path(request, "approve"), star, json!({}))
            .await
            .ok();
    }
    post(&app, &path(&denied.1, "deny"), &denied.0, json!({}))
        .await
        .ok();
    assert_eq!(state_of_line(&app, &denied.0).await, "released");

    // Refunded, and disputed, inside the window: never sent.
    refund(&app, &refunded.1).await;
    assert_eq!(state_of_line(&app, &refunded.0).await, "canceled");
    dispute(&app, &disputed.1).await;
    assert_eq!(state_of_line(&app, &disputed.0).await, "canceled");

    // A transfer was tried for this one (the provider did not answer), so
    // a refund now may come after money left: the job sends it with the
    // same key, then takes it back.
    sql(
        &app,
        "UPDATE earning_lines SET attempts = 1 WHERE payee_id = $1",
        vec![inflight.0.id.into()],
    )
    .await;
    refund(&app, &inflight.1).await;
    assert_eq!(state_of_line(&app, &inflight.0).await, "captured");

    age_captures(&app, 30).await;
    let run = run_job(&app, 4).await;
    assert_eq!(
        run,
        transfers::Run {
            transferred: 0,
            reversed: 1,
            canceled: 0,
            failed: 0
        }
    );
    assert_eq!(state_of_line(&app, &inflight.0).await, "reversed");
    for (star, _) in &stars {
        let seen = earnings(&app, star).await;
        assert_eq!(
            seen["totals"],
            json!({"pendingCents": 0, "availableCents": 0, "paidCents": 0}),
            "{seen}"
        );
        assert_totals_are_the_lines(&seen);
    }
    assert_eq!(
        count(&app, "sandbox_objects WHERE kind = 'transfer'").await,
        1
    );
    assert_eq!(run_job(&app, 2).await, transfers::Run::default());
    // The dashboard's contact earnings agree: nothing kept.
    for (star, _) in &stars {
        let dashboard = get(&app, "/api/v1/dashboard", star).await.ok();
        assert_eq!(dashboard["contactEarningsCents"], 0, "{}", star.email);
    }
}

async fn who_may_see_earnings_and_connect_an_account(backend: Backend) {
    let app = sandbox_app(backend).await;
    let admin = admin(&app).await;
    let stranger = sign_up(&app, "stranger@example.com").await;
    let (star, photo) = contestant(&app, "star@example.com", 9.5).await;
    let fan = sign_up(&app, "fan@example.com").await;
    let request = created(&app, &fan, photo).await;

    // Anonymous: nothing.
    for (method, target) in [
        (Method::GET, EARNINGS.to_owned()),
        (Method::POST, ACCOUNT.to_owned()),
        (Method::GET, sandbox_path("acct_sandbox_x")),
        (
            Method::POST,
            format!("{}/complete", sandbox_path("acct_sandbox_x")),
        ),
    ] {
        let reply = call(&app, method, &target, None, Some(json!({}))).await;
        reply.assert_error(StatusCode::UNAUTHORIZED, "not_signed_in");
    }
    // Nothing to be paid: no account to open (an unpaid request earns nothing).
    for caller in [&stranger, &admin, &star] {
        let seen = earnings(&app, caller).await;
        assert_eq!(seen["lines"], json!([]));
        assert_eq!(seen["canConnect"], false);
        assert_eq!(seen["account"], Value::Null);
        post(&app, ACCOUNT, caller, json!({}))
            .await
            .assert_error(StatusCode::FORBIDDEN, "no_earnings");
    }
    pay(&app, &fan, &request).await;
    assert_eq!(earnings(&app, &star).await["canConnect"], true);
    assert_eq!(
        earnings(&app, &fan).await["lines"],
        json!([]),
        "the payer earns nothing"
    );

    // Eight presses at once open one account, and all go to its page.
    let presses =
        futures::future::join_all((0..8).map(|_| post(&app, ACCOUNT, &star, json!({})))).await;
    let urls: std::collections::BTreeSet<String> = presses
        .into_iter()
        .map(|reply| reply.ok()["url"].as_str().unwrap().to_owned())
        .collect();
    assert_eq!(urls.len(), 1, "{urls:?}");
    assert_eq!(count(&app, "payout_accounts").await, 1);
    assert_eq!(
        count(&app, "sandbox_objects WHERE kind = 'account'").await,
        1
    );
    let account = urls
        .first()
        .unwrap()
        .trim_start_matches("/payouts/sandbox/onboard/")
        .to_owned();

    // Only the owner sees or finishes their test account.
    for caller in [&stranger, &admin, &fan] {
        get(&app, &sandbox_path(&account), caller)
            .await
            .assert_error(StatusCode::NOT_FOUND, "not_found");
        post(
            &app,
            &format!("{}/complete", sandbox_path(&account)),
            caller,
            json!({}),
        )
        .await
        .assert_error(StatusCode::NOT_FOUND, "not_found");
    }
    assert_eq!(
        earnings(&app, &star).await["account"]["status"],
        "onboarding"
    );
    let done = post(
        &app,
        &format!("{}/complete", sandbox_path(&account)),
        &star,
        json!({}),
    )
    .await
    .ok();
    assert_eq!(done["status"], "enabled");
    // Finishing twice changes nothing.
    post(
        &app,
        &format!("{}/complete", sandbox_path(&account)),
        &star,
        json!({}),
    )
    .await
    .ok();
    assert_eq!(earnings(&app, &star).await["account"]["status"], "enabled");
    post(&app, ACCOUNT, &star, json!({}))
        .await
        .assert_error(StatusCode::CONFLICT, "already_connected");
    // Nobody else sees the star's earnings through their own.
    assert_eq!(earnings(&app, &stranger).await["lines"], json!([]));
    assert_eq!(earnings(&app, &admin).await["lines"], json!([]));
}

async fn through_stripe_connect_the_share_is_sent_once_retried_with_its_key_and_reversed(
    backend: Backend,
) {
    use wiremock::matchers::{method, path as at};
    use wiremock::{Mock, ResponseTemplate};
    let stripe = stripe_double().await;
    // Stripe's shapes, from its API reference (Accounts, Account Links,
    // Transfers, Transfer Reversals).
    Mock::given(method("POST"))
        .and(at("/v1/accounts"))
        .respond_with(ResponseTemplate::new(200).set_body_json(json!({
            "id": "acct_1Star", "object": "account", "type": "express",
            "charges_enabled": false, "payouts_enabled": false, "details_submitted": false,
            "capabilities": {"transfers": "inactive"}, "email": "star@example.com"
        })))
        .expect(1)
        .mount(&stripe)
        .await;
    Mock::given(method("POST"))
        .and(at("/v1/account_links"))
        .respond_with(ResponseTemplate::new(200).set_body_json(json!({
            "object": "account_link", "created": now(), "expires_at": now() + 300,
            "url": "https://connect.stripe.com/setup/e/acct_1Star/AbCdEf"
        })))
        .expect(2)
        .mount(&stripe)
        .await;
    Mock::given(method("POST"))
        .and(at("/v1/payment_intents/pi_star/capture"))
        .respond_with(ResponseTemplate::new(200).set_body_json(
            json!({"id": "pi_star", "object": "payment_intent", "status": "succeeded", "amount": 100_000}),
        ))
        .expect(1)
        .mount(&stripe)
        .await;
    // The first transfer gets no good answer; the retry succeeds.
    Mock::given(method("POST"))
        .and(at("/v1/transfers"))
        .respond_with(ResponseTemplate::new(500).set_body_json(
            json!({"error": {"type": "api_error", "message": "An unknown error occurred"}}),
        ))
        .up_to_n_times(1)
        .with_priority(1)
        .mount(&stripe)
        .await;
    Mock::given(method("POST"))
        .and(at("/v1/transfers"))
        .respond_with(|request: &wiremock::Request| {
            let sent = stripe_form(request);
            ResponseTemplate::new(200).set_body_json(json!({
                "id": "tr_1Star", "object": "transfer",
                "amount": sent["amount"].parse::<i64>().unwrap(), "amount_reversed": 0,
                "currency": sent["currency"], "destination": sent["destination"],
                "reversed": false, "transfer_group": sent["transfer_group"]
            }))
        })
        .with_priority(2)
        .mount(&stripe)
        .await;
    Mock::given(method("POST"))
        .and(at("/v1/transfers/tr_1Star/reversals"))
        .respond_with(ResponseTemplate::new(200).set_body_json(json!({
            "id": "trr_1Star", "object": "transfer_reversal", "amount": 75_000,
            "transfer": "tr_1Star"
        })))
        .expect(1)
        .mount(&stripe)
        .await;
    let app = stripe_app(backend, &stripe.uri()).await;
    let (star, photo) = contestant(&app, "star@example.com", 9.5).await;
    let fan = sign_up(&app, "fan@example.com").await;
    let request = created(&app, &fan, photo).await;
    post(
        &app,
        "/functions/v1/create-checkout",
        &fan,
        json!({"userId": fan.id, "type": "contact_request", "metadata": {"contact_request_id": request["id"]}}),
    )
    .await.ok();
    crate::contact::hold_through_stripe(&app, &fan, &request, "pi_star").await;
    post(&app, &path(&request, "approve"), &star, json!({}))
        .await
        .ok();
    // Captured when Stripe says so.
    let captured = json!({"id": "pi_star", "object": "payment_intent", "status": "succeeded",
                          "amount": 100_000, "amount_received": 100_000, "currency": "usd",
                          "metadata": {"user_id": fan.id, "purpose": "contact_request",
                                       "contact_request_id": request["id"]}});
    deliver(
        &app,
        &event(
            "evt_pi_star_succeeded",
            "payment_intent.succeeded",
            now(),
            captured,
        ),
    )
    .await;

    // Connect: an Express account once, an onboarding link each press.
    for _ in 0..2 {
        let link = post(&app, ACCOUNT, &star, json!({})).await.ok();
        assert_eq!(
            link["url"],
            "https://connect.stripe.com/setup/e/acct_1Star/AbCdEf"
        );
    }
    let received = stripe.received_requests().await.unwrap();
    let opened: Vec<_> = received
        .iter()
        .filter(|r| r.url.path() == "/v1/accounts")
        .collect();
    let sent = stripe_form(opened[0]);
    assert_eq!(sent["type"], "express");
    assert_eq!(sent["capabilities[transfers][requested]"], "true");
    assert_eq!(sent["email"], "star@example.com");
    assert_eq!(sent["metadata[user_id]"], star.id.to_string());
    assert_eq!(
        idempotency_key(opened[0]).as_deref(),
        Some(format!("payout-account-{}", star.id).as_str())
    );
    let link = received
        .iter()
        .find(|r| r.url.path() == "/v1/account_links")
        .unwrap();
    let sent = stripe_form(link);
    assert_eq!(sent["account"], "acct_1Star");
    assert_eq!(sent["type"], "account_onboarding");
    assert!(
        sent["return_url"].ends_with("/earnings?onboarding=return"),
        "{sent:?}"
    );
    assert!(
        sent["refresh_url"].ends_with("/earnings?onboarding=refresh"),
        "{sent:?}"
    );
    assert!(
        sent["return_url"].starts_with("http"),
        "absolute for Stripe"
    );

    // Not ready until Stripe says so.
    assert_eq!(
        earnings(&app, &star).await["account"]["status"],
        "onboarding"
    );
    let ready = json!({"id": "acct_1Star", "object": "account", "type": "express",
                       "charges_enabled": true, "payouts_enabled": true, "details_submitted": true});
    deliver(
        &app,
        &event("evt_acct_ready", "account.updated", now(), ready),
    )
    .await;
    assert_eq!(earnings(&app, &star).await["account"]["status"], "enabled");

    age_captures(&app, 8).await;
    let first = run_job(&app, 1).await;
    assert_eq!((first.transferred, first.failed), (0, 1), "{first:?}");
    assert_eq!(
        state_of_line(&app, &star).await,
        "payable",
        "tried again later"
    );
    let second = run_job(&app, 1).await;
    assert_eq!(second.transferred, 1, "{second:?}");
    assert_eq!(run_job(&app, 1).await, transfers::Run::default());
    let transfers_sent: Vec<_> = stripe
        .received_requests()
        .await
        .unwrap()
        .into_iter()
        .filter(|r| r.url.path() == "/v1/transfers")
        .collect();
    assert_eq!(transfers_sent.len(), 2);
    let keys: Vec<_> = transfers_sent.iter().map(idempotency_key).collect();
    assert_eq!(keys[0], keys[1], "the retry is the same transfer");
    assert!(keys[0].as_deref().unwrap().starts_with("earning-"));
    let sent = stripe_form(&transfers_sent[1]);
    assert_eq!(sent["amount"], "75000");
    assert_eq!(sent["currency"], "usd");
    assert_eq!(sent["destination"], "acct_1Star");
    assert_eq!(earnings(&app, &star).await["totals"]["paidCents"], 75_000);

    // Refunded after payout: Stripe's charge.refunded, then one reversal.
    let refunded = json!({"id": "ch_star", "object": "charge", "payment_intent": "pi_star",
                          "amount": 100_000, "amount_refunded": 100_000, "refunded": true});
    deliver(
        &app,
        &event("evt_refund_star", "charge.refunded", now(), refunded),
    )
    .await;
    assert_eq!(run_job(&app, 4).await.reversed, 1);
    assert_eq!(state_of_line(&app, &star).await, "reversed");
    stripe.verify().await;
}
