//! The partner programme: who may call what; short codes; clicks and the
//! first-touch cookie; attribution at sign-up (self-referral refused);
//! commissions per tier with the parent's line; the refund window,
//! reversals and clawbacks; Mark as Paid; promo codes. Every figure is read
//! back from the API and checked against the ledger's lines.

use prettyscore_server::billing::entity::payment;
use prettyscore_server::billing::sandbox::deliver_events;
use prettyscore_server::db::entities::profiles;
use prettyscore_server::providers::payments::PaymentProvider;
use prettyscore_server::providers::payments::sandbox::Sandbox;
use reqwest::{Method, StatusCode};
use sea_orm::{ColumnTrait, EntityTrait, QueryFilter};
use serde_json::{Value, json};
use uuid::Uuid;

use crate::harness::{
    Backend, Caller, PASSWORD, Reply, State, TestApp, access, admin, call, claims, deliver, event,
    get, in_one_window, insert_photo, now, on_both_databases, pay_in_sandbox, post, sandbox_app,
    sign_up, spawn_app_with, sql, stripe_app_with, stripe_double, subscription_id_of,
};

const APPLY: &str = "/api/v1/partners";
const PORTAL: &str = "/api/v1/partners/me";
const LEADERBOARD: &str = "/api/v1/partners/leaderboard";
const TRACK: &str = "/functions/v1/track-referral";
const ADMIN_PARTNERS: &str = "/api/v1/admin/partners";
const PAYOUTS: &str = "/api/v1/admin/payouts";

/// The app with commissions payable at once (no refund window).
pub(crate) async fn app_without_hold(backend: Backend) -> TestApp {
    spawn_app_with(backend, |config| config.partners.commission_hold_days = 0).await
}

/// `caller` applies with `code`; the account as answered.
async fn apply(app: &TestApp, caller: &Caller, code: &str) -> Value {
    let Reply { status, body, .. } = post(
        app,
        APPLY,
        caller,
        json!({"displayName": format!("Partner {code}"), "shortCode": code}),
    )
    .await;
    assert_eq!(status, StatusCode::CREATED, "{body}");
    body
}

async fn set_status(app: &TestApp, admin: &Caller, partner: &Value, status: &str) -> Value {
    let path = format!(
        "{ADMIN_PARTNERS}/{}/status",
        partner["id"].as_str().unwrap()
    );
    post(app, &path, admin, json!({"status": status}))
        .await
        .ok()
}

async fn set_tier(app: &TestApp, admin: &Caller, partner: &Value, tier: &str) -> Value {
    let path = format!("{ADMIN_PARTNERS}/{}/tier", partner["id"].as_str().unwrap());
    post(app, &path, admin, json!({"tier": tier})).await.ok()
}

/// A user who applies and is approved at `tier`.
pub(crate) async fn partner(
    app: &TestApp,
    admin: &Caller,
    email: &str,
    code: &str,
    tier: &str,
) -> (Caller, Value) {
    let caller = sign_up(app, email).await;
    let account = apply(app, &caller, code).await;
    set_status(app, admin, &account, "approved").await;
    let account = set_tier(app, admin, &account, tier).await;
    (caller, account)
}

/// Signs up through the API with the browser's referral cookie (and a
/// display name, as anyone who sends a contact request needs one).
pub(crate) async fn sign_up_referred(app: &TestApp, email: &str, code: &str) -> Caller {
    let name = email.split('@').next().unwrap_or(email);
    let response = app
        .client
        .post(app.url("/auth/v1/signup"))
        .header("Cookie", format!("affiliate_code={code}"))
        .json(&json!({"email": email, "password": PASSWORD, "data": {
            "display_name": name,
            "date_of_birth": crate::harness::seed::ADULT_BIRTH_DATE,
            "terms_version": app.config.community.terms_version,
        }}))
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), StatusCode::OK);
    let tokens: Value = response.json().await.unwrap();
    let token = access(&tokens).to_owned();
    let id = claims(&token)["sub"].as_str().unwrap().parse().unwrap();
    Caller {
        token,
        id,
        email: email.to_owned(),
    }
}

async fn referrer_of(app: &TestApp, user: &Caller) -> Option<Uuid> {
    profiles::Entity::find_by_id(user.id)
        .one(&app.db)
        .await
        .unwrap()
        .unwrap()
        .referred_by_partner
}

/// Buys `kind` in the sandbox (optionally with a promo code); the checkout answer.
pub(crate) async fn buy(app: &TestApp, buyer: &Caller, kind: &str, promo: Option<&str>) -> Value {
    let opened = post(
        app,
        "/functions/v1/create-checkout",
        buyer,
        json!({"userId": buyer.id, "type": kind, "promoCode": promo,
               "metadata": crate::harness::purchase_metadata(app, buyer, kind).await}),
    )
    .await
    .ok();
    let session = opened["sessionId"].as_str().unwrap();
    pay_in_sandbox(app, buyer, session).await;
    opened
}

/// Refunds `cents` of the buyer's newest payment in the sandbox and delivers
/// the events (twice: a redelivery changes nothing).
async fn refund(app: &TestApp, buyer: &Caller, cents: Option<i64>) {
    let paid = payment::Entity::find()
        .filter(payment::Column::UserId.eq(buyer.id))
        .all(&app.db)
        .await
        .unwrap();
    let intent = paid
        .last()
        .and_then(|payment| payment.provider_payment_intent_id.clone())
        .expect("a paid intent");
    let sandbox = Sandbox::new(app.db.clone());
    sandbox.refund(&intent, cents).await.unwrap();
    let hooks = app.state.hooks.clone();
    deliver_events(&app.db, &hooks, &sandbox).await.unwrap();
    assert_eq!(deliver_events(&app.db, &hooks, &sandbox).await.unwrap(), 0);
}

pub(crate) async fn portal(app: &TestApp, caller: &Caller) -> Value {
    get(app, PORTAL, caller).await.ok()
}

/// The stored totals equal the sums of the lines, for every partner.
async fn assert_totals_match_lines(app: &TestApp) {
    use prettyscore_server::partners::entity::{account, line};
    for partner in account::Entity::find().all(&app.db).await.unwrap() {
        let lines = line::Entity::find()
            .filter(line::Column::PartnerId.eq(partner.id))
            .all(&app.db)
            .await
            .unwrap();
        let kept = lines.iter().filter(|line| line.status != "reversed");
        let earned: i64 = kept.clone().map(|line| line.commission_cents).sum();
        let conversions = kept.filter(|line| line.kind == "sale").count() as i64;
        assert_eq!(partner.total_earned_cents, earned, "{}", partner.code);
        assert_eq!(partner.total_conversions, conversions, "{}", partner.code);
    }
}

on_both_databases!(
    who_may_call_what,
    short_codes_promo_codes_and_one_account_per_user,
    clicks_count_once_a_day_and_the_first_link_keeps_the_cookie,
    one_address_cannot_inflate_a_partners_clicks,
    sign_ups_are_attributed_once_and_never_to_the_partner_themself,
    each_tier_earns_its_rate_and_the_parent_earns_a_tenth,
    a_refund_reverses_before_payout_and_claws_back_after,
    mark_as_paid_pays_exactly_that_partners_payable_lines_once,
    pay_through_stripe_sends_one_transfer_to_a_connected_partner,
    pay_through_stripe_sends_an_unconfirmed_transfer_again_and_a_refused_one_pays_nothing,
    a_promo_code_discounts_the_first_payment_and_credits_the_partner,
    commissions_wait_out_the_refund_window,
    renewals_earn_for_twelve_months_and_a_promo_only_its_sale,
    an_approved_contact_fee_earns_on_the_platforms_quarter,
    sandbox_payments_earn_no_commission_on_a_public_server
);

async fn who_may_call_what(backend: Backend) {
    let app = sandbox_app(backend).await;
    let admin = admin(&app).await;
    let user = sign_up(&app, "user@example.com").await;
    let (partner_user, account) =
        partner(&app, &admin, "partner@example.com", "AUTHZ", "starter").await;
    let id = account["id"].as_str().unwrap();
    let status = format!("{ADMIN_PARTNERS}/{id}/status");
    let tier = format!("{ADMIN_PARTNERS}/{id}/tier");
    let pay = format!("{PAYOUTS}/{id}");

    // Anonymous: the public leaderboard and click tracking only.
    for (method, path) in [(Method::POST, APPLY), (Method::GET, PORTAL)] {
        call(&app, method, path, None, Some(json!({"displayName": "x"})))
            .await
            .assert_error(StatusCode::UNAUTHORIZED, "not_signed_in");
    }
    assert_eq!(
        call(&app, Method::GET, LEADERBOARD, None, None)
            .await
            .status,
        StatusCode::OK
    );
    assert_eq!(
        call(
            &app,
            Method::POST,
            TRACK,
            None,
            Some(json!({"code": "AUTHZ"}))
        )
        .await
        .body["success"],
        true
    );
    let admin_calls = [
        (Method::GET, ADMIN_PARTNERS.to_owned(), None),
        (
            Method::POST,
            status.clone(),
            Some(json!({"status": "suspended"})),
        ),
        (Method::POST, tier.clone(), Some(json!({"tier": "elite"}))),
        (Method::GET, PAYOUTS.to_owned(), None),
        (Method::POST, pay.clone(), None),
    ];
    for (method, path, body) in &admin_calls {
        call(&app, method.clone(), path, None, body.clone())
            .await
            .assert_error(StatusCode::UNAUTHORIZED, "not_signed_in");
        // A user, and the partner themself, are not admins.
        for caller in [&user, &partner_user] {
            call(
                &app,
                method.clone(),
                path,
                Some(&caller.token),
                body.clone(),
            )
            .await
            .assert_error(StatusCode::FORBIDDEN, "admin_only");
        }
    }
    // A user without an account has no portal; the partner sees only theirs.
    get(&app, PORTAL, &user)
        .await
        .assert_error(StatusCode::NOT_FOUND, "partner_not_found");
    assert_eq!(
        portal(&app, &partner_user).await["account"]["id"],
        account["id"]
    );
    // The admin may do all of it; nothing is payable yet.
    let listed = get(&app, ADMIN_PARTNERS, &admin).await.ok();
    assert_eq!(listed[0]["email"], "partner@example.com");
    assert_eq!(listed[0]["code"], "AUTHZ");
    assert_eq!(
        set_tier(&app, &admin, &account, "elite").await["commissionRate"],
        0.3
    );
    assert_eq!(
        set_status(&app, &admin, &account, "suspended").await["status"],
        "suspended"
    );
    post(&app, &status, &admin, json!({"status": "suspended"}))
        .await
        .assert_error(StatusCode::CONFLICT, "invalid_transition");
    assert_eq!(
        set_status(&app, &admin, &account, "approved").await["status"],
        "approved"
    );
    assert_eq!(get(&app, PAYOUTS, &admin).await.ok(), json!([]));
    post(&app, &pay, &admin, json!({}))
        .await
        .assert_error(StatusCode::CONFLICT, "nothing_payable");
    // Unknown ids and values.
    let unknown = format!("{ADMIN_PARTNERS}/{}/tier", Uuid::now_v7());
    post(&app, &unknown, &admin, json!({"tier": "pro"}))
        .await
        .assert_error(StatusCode::NOT_FOUND, "partner_not_found");
    post(&app, &tier, &admin, json!({"tier": "gold"}))
        .await
        .assert_error(StatusCode::UNPROCESSABLE_ENTITY, "validation_failed");
    get(&app, &format!("{ADMIN_PARTNERS}?status=deleted"), &admin)
        .await
        .assert_error(StatusCode::UNPROCESSABLE_ENTITY, "validation_failed");
    let pending = get(&app, &format!("{ADMIN_PARTNERS}?status=pending"), &admin)
        .await
        .ok();
    assert_eq!(pending, json!([]));
    // Each admin decision is in the audit log with before and after.
    let audit = get(&app, "/api/v1/admin/audit", &admin).await.ok();
    let text = audit.to_string();
    for action in ["partner_status_changed", "partner_tier_changed"] {
        assert!(text.contains(action), "{action} in {text}");
    }
}

async fn short_codes_promo_codes_and_one_account_per_user(backend: Backend) {
    let app = sandbox_app(backend).await;
    let form = |code: Value, promo: Value| json!({"displayName": "Ada", "shortCode": code, "promoCode": promo});
    let mut users = 0..;
    let mut fresh =
        async || sign_up(&app, &format!("user{}@example.com", users.next().unwrap())).await;
    // Boundaries: 2 is too short, 3 and 10 fit, 11 are cut to 10, and
    // whatever is not a letter or digit is dropped before counting.
    for (typed, expected) in [
        ("abc", Some("ABC")),
        ("a-b.c-d", Some("ABCD")),
        ("ABCDEFGHIJ", Some("ABCDEFGHIJ")),
        ("KLMNOPQRSTU", Some("KLMNOPQRST")),
        ("ab", None),
        ("a!-?b", None),
    ] {
        let caller = fresh().await;
        let reply = post(&app, APPLY, &caller, form(json!(typed), Value::Null)).await;
        match expected {
            Some(code) => {
                assert_eq!(reply.status, StatusCode::CREATED, "{typed}: {}", reply.body);
                assert_eq!(reply.body["code"], code);
                assert_eq!(reply.body["status"], "pending");
                assert_eq!(reply.body["tier"], "starter");
                assert_eq!(reply.body["commissionRate"], 0.15);
            }
            None => {
                reply.assert_error(StatusCode::UNPROCESSABLE_ENTITY, "invalid_short_code");
                assert_eq!(
                    reply.body["message"],
                    "Short code must be 3-10 alphanumeric characters"
                );
            }
        }
    }
    // Taken, in any case.
    let caller = fresh().await;
    let taken = post(&app, APPLY, &caller, form(json!("Abc"), Value::Null)).await;
    taken.assert_error(StatusCode::CONFLICT, "short_code_taken");
    assert_eq!(
        taken.body["message"],
        "This short code is already taken. Please choose another."
    );
    // Blank: a random five-character code.
    let created =
        ok_created(post(&app, APPLY, &caller, form(json!("  "), json!(" save10 "))).await);
    let code = created["code"].as_str().unwrap();
    assert_eq!(code.len(), 5);
    assert!(
        code.chars()
            .all(|c| c.is_ascii_uppercase() || c.is_ascii_digit())
    );
    assert_eq!(created["promoCode"], "SAVE10");
    // One account per user.
    let again = post(&app, APPLY, &caller, form(json!("OTHER"), Value::Null)).await;
    again.assert_error(StatusCode::CONFLICT, "partner_exists");
    assert_eq!(again.body["message"], "You already have a partner account");
    // A promo code names one partner; a blank one is none.
    let other = fresh().await;
    post(&app, APPLY, &other, form(Value::Null, json!("Save10")))
        .await
        .assert_error(StatusCode::CONFLICT, "promo_code_taken");
    let blank = ok_created(post(&app, APPLY, &other, form(Value::Null, json!(""))).await);
    assert_eq!(blank["promoCode"], Value::Null);
    // A name is required.
    let nameless = fresh().await;
    post(&app, APPLY, &nameless, json!({"displayName": "   "}))
        .await
        .assert_error(StatusCode::UNPROCESSABLE_ENTITY, "validation_failed");
}

#[track_caller]
fn ok_created(reply: Reply) -> Value {
    assert_eq!(reply.status, StatusCode::CREATED, "{}", reply.body);
    reply.body
}

/// `track-referral` from a browser with `cookie` (if any); the body and the
/// `Set-Cookie` header.
async fn track(
    app: &TestApp,
    code: &str,
    agent: &str,
    cookie: Option<&str>,
) -> (Value, Option<String>) {
    let mut request = app
        .client
        .post(app.url(TRACK))
        .header("User-Agent", agent)
        .json(&json!({"code": code}));
    if let Some(cookie) = cookie {
        request = request.header("Cookie", cookie);
    }
    let response = request.send().await.unwrap();
    assert_eq!(response.status(), StatusCode::OK);
    let set_cookie = response
        .headers()
        .get("set-cookie")
        .map(|value| value.to_str().unwrap().to_owned());
    (response.json().await.unwrap(), set_cookie)
}

async fn clicks_count_once_a_day_and_the_first_link_keeps_the_cookie(backend: Backend) {
    let app = sandbox_app(backend).await;
    let admin = admin(&app).await;
    let (owner, first) = partner(&app, &admin, "first@example.com", "FIRST", "starter").await;
    partner(&app, &admin, "second@example.com", "SECOND", "starter").await;
    let waiting = sign_up(&app, "waiting@example.com").await;
    apply(&app, &waiting, "WAITING").await;

    let (body, cookie) = track(&app, "first", "browser-a", None).await;
    assert_eq!(body, json!({"success": true}));
    let cookie = cookie.expect("the referral cookie");
    assert!(cookie.starts_with("affiliate_code=FIRST;"), "{cookie}");
    assert!(cookie.contains("Max-Age=5184000"), "60 days: {cookie}");
    assert!(
        cookie.contains("Path=/") && cookie.contains("HttpOnly"),
        "{cookie}"
    );
    // The same visitor again today: no second click.
    track(&app, "FIRST", "browser-a", Some("affiliate_code=FIRST")).await;
    // Another browser is another visitor.
    track(&app, "FIRST", "browser-b", None).await;
    assert_eq!(portal(&app, &owner).await["account"]["totalClicks"], 2);
    // A later link of another partner counts its click but keeps the first cookie.
    let (body, cookie) = track(&app, "SECOND", "browser-a", Some("affiliate_code=FIRST")).await;
    assert_eq!(body["success"], true);
    assert_eq!(cookie, None, "first touch wins");
    // Unknown, pending and suspended codes: no success, no cookie, no click.
    set_status(&app, &admin, &first, "suspended").await;
    for code in ["NOPE", "WAITING", "FIRST", "x"] {
        let (body, cookie) = track(&app, code, "browser-c", None).await;
        assert_eq!(body["success"], false, "{code}");
        assert_eq!(cookie, None, "{code}");
    }
    assert_eq!(portal(&app, &owner).await["account"]["totalClicks"], 2);
}

/// Issue 25, item 13: a script changing its User-Agent counted a new click
/// each time, without limit (40,000 rows from one address in 5.5 minutes).
async fn one_address_cannot_inflate_a_partners_clicks(backend: Backend) {
    in_one_window(60, move || {
        one_address_cannot_inflate_a_partners_clicks_once(backend)
    })
    .await;
}

async fn one_address_cannot_inflate_a_partners_clicks_once(backend: Backend) {
    let app = spawn_app_with(backend, |config| {
        config.partners.visitors_per_address_per_day = 3;
        config.partners.clicks_per_client_per_minute = 12;
    })
    .await;
    let admin = admin(&app).await;
    let (owner, _) = partner(&app, &admin, "inflated@example.com", "INFL", "starter").await;
    // Three browsers behind one router are three visitors; the fourth and
    // later agents of that address add nothing, but still get the cookie.
    for agent in 0..12 {
        let (body, cookie) = track(&app, "INFL", &format!("agent-{agent}"), None).await;
        assert_eq!(body["success"], true, "agent {agent}");
        assert!(cookie.is_some(), "agent {agent}");
    }
    assert_eq!(portal(&app, &owner).await["account"]["totalClicks"], 3);
    // The 13th click of the minute is refused, and says when to come back.
    let response = app
        .client
        .post(app.url(TRACK))
        .header("User-Agent", "agent-13")
        .json(&json!({"code": "INFL"}))
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), StatusCode::TOO_MANY_REQUESTS);
    let wait: u64 = response.headers()["retry-after"]
        .to_str()
        .unwrap()
        .parse()
        .unwrap();
    assert!((1..=60).contains(&wait), "{wait}");
    let body: Value = response.json().await.unwrap();
    assert_eq!(body["code"], "rate_limited", "{body}");
    assert_eq!(portal(&app, &owner).await["account"]["totalClicks"], 3);
}

async fn sign_ups_are_attributed_once_and_never_to_the_partner_themself(backend: Backend) {
    let app = sandbox_app(backend).await;
    let admin = admin(&app).await;
    let (_, account) = partner(&app, &admin, "ada.l@gmail.com", "ADA", "starter").await;
    let id: Uuid = account["id"].as_str().unwrap().parse().unwrap();

    let fan = sign_up_referred(&app, "fan@example.com", "ADA").await;
    assert_eq!(referrer_of(&app, &fan).await, Some(id));
    // The partner's own address, written another way, is refused.
    let herself = sign_up_referred(&app, "A.D.A.L+alt@gmail.com", "ADA").await;
    assert_eq!(referrer_of(&app, &herself).await, None);
    // An unknown code or none: nobody.
    let stranger = sign_up_referred(&app, "stranger@example.com", "NOPE").await;
    assert_eq!(referrer_of(&app, &stranger).await, None);
    let plain = sign_up(&app, "plain@example.com").await;
    assert_eq!(referrer_of(&app, &plain).await, None);
    // Signing in later with another partner's cookie changes nothing.
    partner(&app, &admin, "other@example.com", "OTHER", "starter").await;
    let response = app
        .client
        .post(app.url("/auth/v1/token?grant_type=password"))
        .header("Cookie", "affiliate_code=OTHER")
        .json(&json!({"email": "fan@example.com", "password": PASSWORD}))
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), StatusCode::OK);
    assert_eq!(referrer_of(&app, &fan).await, Some(id));
}

async fn each_tier_earns_its_rate_and_the_parent_earns_a_tenth(backend: Backend) {
    let app = app_without_hold(backend).await;
    let admin = admin(&app).await;
    let (parent_user, _) = partner(&app, &admin, "parent@example.com", "PARENT", "starter").await;
    // The child partner signed up through the parent's link.
    let child_user = sign_up_referred(&app, "child@example.com", "PARENT").await;
    let child = apply(&app, &child_user, "CHILD").await;
    set_status(&app, &admin, &child, "approved").await;
    set_tier(&app, &admin, &child, "pro").await;
    let (elite_user, _) = partner(&app, &admin, "elite@example.com", "ELITE", "elite").await;

    // $4.99 each: starter 15 % = 74.85 → 75, pro 20 % = 99.8 → 100, elite
    // 30 % = 149.7 → 150; the parent 10 % of the child's 100 = 10.
    for (code, email) in [
        ("PARENT", "b1@example.com"),
        ("CHILD", "b2@example.com"),
        ("ELITE", "b3@example.com"),
    ] {
        let buyer = sign_up_referred(&app, email, code).await;
        buy(&app, &buyer, "personality_detailed", None).await;
    }
    let lines = |portal: &Value| -> Vec<(String, i64, i64)> {
        portal["recent"]
            .as_array()
            .unwrap()
            .iter()
            .map(|line| {
                (
                    line["kind"].as_str().unwrap().to_owned(),
                    line["amountCents"].as_i64().unwrap(),
                    line["commissionCents"].as_i64().unwrap(),
                )
            })
            .collect()
    };
    let child_portal = portal(&app, &child_user).await;
    assert_eq!(lines(&child_portal), [("sale".to_owned(), 499, 100)]);
    assert_eq!(child_portal["recent"][0]["status"], "payable");
    assert_eq!(child_portal["account"]["totalConversions"], 1);
    let mut parent_lines = lines(&portal(&app, &parent_user).await);
    parent_lines.sort();
    assert_eq!(
        parent_lines,
        [("parent".to_owned(), 100, 10), ("sale".to_owned(), 499, 75)]
    );
    assert_eq!(
        lines(&portal(&app, &elite_user).await),
        [("sale".to_owned(), 499, 150)]
    );
    let parent = portal(&app, &parent_user).await;
    assert_eq!(parent["account"]["totalEarnedCents"], 85);
    assert_eq!(
        parent["account"]["totalConversions"], 1,
        "the parent line is not a sale"
    );
    assert_eq!(
        parent["totals"],
        json!({"pendingCents": 0, "payableCents": 85, "paidCents": 0})
    );
    // The leaderboard ranks approved partners by total earned.
    let board = call(&app, Method::GET, LEADERBOARD, None, None).await.ok();
    let names: Vec<&str> = board
        .as_array()
        .unwrap()
        .iter()
        .map(|row| row["displayName"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["Partner ELITE", "Partner CHILD", "Partner PARENT"]);
    assert_eq!(board[0]["rank"], 1);
    assert_eq!(board[0]["tier"], "elite");
    assert_eq!(board[0]["totalEarnedCents"], 150);
    assert_totals_match_lines(&app).await;
}

async fn a_refund_reverses_before_payout_and_claws_back_after(backend: Backend) {
    let app = app_without_hold(backend).await;
    let admin = admin(&app).await;
    let (partner_user, account) = partner(&app, &admin, "p@example.com", "REFUND", "pro").await;
    let pay = format!("{PAYOUTS}/{}", account["id"].as_str().unwrap());

    // Refunded before any payout: the commission becomes zero, reversed.
    let early = sign_up_referred(&app, "early@example.com", "REFUND").await;
    buy(&app, &early, "personality_detailed", None).await;
    refund(&app, &early, None).await;
    let seen = portal(&app, &partner_user).await;
    assert_eq!(seen["recent"][0]["status"], "reversed");
    assert_eq!(seen["recent"][0]["commissionCents"], 0);
    assert_eq!(seen["account"]["totalEarnedCents"], 0);
    assert_eq!(seen["account"]["totalConversions"], 0);
    assert_totals_match_lines(&app).await;

    // Paid out, then refunded: a negative line the next payout deducts.
    let late = sign_up_referred(&app, "late@example.com", "REFUND").await;
    buy(&app, &late, "personality_detailed", None).await;
    let payout = post(&app, &pay, &admin, json!({})).await;
    assert_eq!(payout.status, StatusCode::CREATED, "{}", payout.body);
    assert_eq!(payout.body["totalAmountCents"], 100);
    refund(&app, &late, Some(250)).await; // about half: keeps 100 × 249 / 499 = 49
    let seen = portal(&app, &partner_user).await;
    let clawback = seen["recent"]
        .as_array()
        .unwrap()
        .iter()
        .find(|line| line["kind"] == "clawback")
        .expect("a clawback line")
        .clone();
    assert_eq!(clawback["commissionCents"], -51);
    assert_eq!(clawback["status"], "payable");
    assert_eq!(
        seen["totals"],
        json!({"pendingCents": 0, "payableCents": -51, "paidCents": 100})
    );
    assert_eq!(seen["account"]["totalEarnedCents"], 49);
    // The rest of the refund claws back the rest, once.
    refund(&app, &late, None).await;
    let seen = portal(&app, &partner_user).await;
    let clawed: i64 = seen["recent"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|line| line["kind"] == "clawback")
        .map(|line| line["commissionCents"].as_i64().unwrap())
        .sum();
    assert_eq!(clawed, -100);
    assert_eq!(seen["account"]["totalEarnedCents"], 0);
    // Nothing to pay while the clawback outweighs new commission.
    post(&app, &pay, &admin, json!({}))
        .await
        .assert_error(StatusCode::CONFLICT, "nothing_payable");
    let next = sign_up_referred(&app, "next@example.com", "REFUND").await;
    buy(&app, &next, "subscription", None).await; // $9.99 × 20 % = 200
    let payout = post(&app, &pay, &admin, json!({})).await;
    assert_eq!(
        payout.body["totalAmountCents"], 100,
        "200 less the 100 clawed back"
    );
    assert_totals_match_lines(&app).await;
}

async fn mark_as_paid_pays_exactly_that_partners_payable_lines_once(backend: Backend) {
    let app = app_without_hold(backend).await;
    let admin = admin(&app).await;
    let (one_user, one) = partner(&app, &admin, "one@example.com", "ONE", "starter").await;
    let (two_user, _) = partner(&app, &admin, "two@example.com", "TWO", "starter").await;
    for (code, email) in [
        ("ONE", "a@example.com"),
        ("ONE", "b@example.com"),
        ("TWO", "c@example.com"),
    ] {
        let buyer = sign_up_referred(&app, email, code).await;
        buy(&app, &buyer, "subscription", None).await; // 999 × 15 % = 150
    }
    let listed = get(&app, PAYOUTS, &admin).await.ok();
    assert_eq!(listed.as_array().unwrap().len(), 2);
    let first = listed
        .as_array()
        .unwrap()
        .iter()
        .find(|row| row["code"] == "ONE")
        .unwrap();
    assert_eq!(first["payableCount"], 2);
    assert_eq!(first["payableCents"], 300);

    let pay = format!("{PAYOUTS}/{}", one["id"].as_str().unwrap());
    let Reply {
        status,
        body: payout,
        ..
    } = post(&app, &pay, &admin, json!({})).await;
    assert_eq!(status, StatusCode::CREATED, "{payout}");
    assert_eq!(payout["totalAmountCents"], 300);
    assert_eq!(payout["status"], "sent");
    let today = chrono::Utc::now().date_naive();
    assert_eq!(payout["periodEnd"], today.to_string());
    assert_eq!(payout["periodStart"], today.format("%Y-%m-01").to_string());
    // Twice pays once.
    post(&app, &pay, &admin, json!({}))
        .await
        .assert_error(StatusCode::CONFLICT, "nothing_payable");
    assert_eq!(
        portal(&app, &one_user).await["totals"],
        json!({"pendingCents": 0, "payableCents": 0, "paidCents": 300})
    );
    // The other partner's line is untouched.
    assert_eq!(
        portal(&app, &two_user).await["totals"],
        json!({"pendingCents": 0, "payableCents": 150, "paidCents": 0})
    );
    let listed = get(&app, PAYOUTS, &admin).await.ok();
    assert_eq!(listed.as_array().unwrap().len(), 1);
    assert_eq!(listed[0]["code"], "TWO");
    let audit = get(&app, "/api/v1/admin/audit", &admin)
        .await
        .ok()
        .to_string();
    assert!(audit.contains("partner_payout_sent"), "{audit}");
    assert_totals_match_lines(&app).await;
    // The partner is told once that they were paid, and by hand (issue 42).
    let paid = crate::contact_once::mails(&app, "payout_paid").await;
    assert_eq!(paid.len(), 1, "{paid:?}");
    assert_eq!(paid[0].0, "one@example.com");
    assert_eq!(paid[0].1, "You've been paid $3.00 on PrettyScore");
    assert!(paid[0].2.contains("sent to you by hand"), "{}", paid[0].2);
}

async fn a_promo_code_discounts_the_first_payment_and_credits_the_partner(backend: Backend) {
    let app = app_without_hold(backend).await;
    let admin = admin(&app).await;
    let owner = sign_up(&app, "promo@example.com").await;
    let account = ok_created(
        post(
            &app,
            APPLY,
            &owner,
            json!({"displayName": "Promo", "shortCode": "PROMO", "promoCode": "save10"}),
        )
        .await,
    );
    let buyer = sign_up(&app, "buyer@example.com").await;
    // Not valid until the partner is approved, and never for the partner.
    let refused = post(
        &app,
        "/functions/v1/create-checkout",
        &buyer,
        json!({"userId": buyer.id, "type": "subscription", "promoCode": "SAVE10"}),
    )
    .await;
    refused.assert_error(StatusCode::UNPROCESSABLE_ENTITY, "invalid_promo_code");
    assert_eq!(refused.body["message"], "This promo code is not valid");
    set_status(&app, &admin, &account, "approved").await;
    let own = post(
        &app,
        "/functions/v1/create-checkout",
        &owner,
        json!({"userId": owner.id, "type": "subscription", "promoCode": "SAVE10"}),
    )
    .await;
    own.assert_error(StatusCode::UNPROCESSABLE_ENTITY, "invalid_promo_code");
    assert_eq!(own.body["message"], "You cannot use your own promo code.");
    // Nor from another address of theirs (issue 25, item 18: a `+alias`
    // account earned its partner a commission on their own purchase).
    let alias = sign_up(&app, "Promo+deals@example.com").await;
    let own = post(
        &app,
        "/functions/v1/create-checkout",
        &alias,
        json!({"userId": alias.id, "type": "subscription", "promoCode": "SAVE10"}),
    )
    .await;
    own.assert_error(StatusCode::UNPROCESSABLE_ENTITY, "invalid_promo_code");
    assert_eq!(own.body["message"], "You cannot use your own promo code.");
    // 10 % off $9.99 is $8.99; the sale is the partner's (15 % of 899 = 135).
    let opened = buy(&app, &buyer, "subscription", Some(" save10 ")).await;
    assert_eq!(opened["amountCents"], 899);
    // The checkout says so: $8.99 for the first month, then $9.99.
    let page = crate::harness::get(
        &app,
        &format!(
            "/api/v1/billing/sandbox/{}",
            opened["sessionId"].as_str().unwrap()
        ),
        &buyer,
    )
    .await
    .ok();
    assert_eq!(page["amountCents"], 899);
    assert_eq!(page["renewalCents"], 999);
    let payments = payment::Entity::find()
        .filter(payment::Column::UserId.eq(buyer.id))
        .all(&app.db)
        .await
        .unwrap();
    assert_eq!(payments.len(), 1);
    assert_eq!(payments[0].amount_cents, 899);
    let seen = portal(&app, &owner).await;
    assert_eq!(seen["recent"][0]["amountCents"], 899);
    assert_eq!(seen["recent"][0]["commissionCents"], 135);
    // The buyer's account is not referred by the promo: only the sale is.
    assert_eq!(referrer_of(&app, &buyer).await, None);
    assert_totals_match_lines(&app).await;
}

async fn commissions_wait_out_the_refund_window(backend: Backend) {
    let app = sandbox_app(backend).await;
    let admin = admin(&app).await;
    let (owner, _) = partner(&app, &admin, "hold@example.com", "HOLD", "starter").await;
    let buyer = sign_up_referred(&app, "buyer@example.com", "HOLD").await;
    buy(&app, &buyer, "subscription", None).await;
    let seen = portal(&app, &owner).await;
    assert_eq!(seen["recent"][0]["status"], "pending");
    assert_eq!(
        seen["totals"],
        json!({"pendingCents": 150, "payableCents": 0, "paidCents": 0})
    );
    let payable_at: chrono::DateTime<chrono::Utc> = seen["recent"][0]["payableAt"]
        .as_str()
        .unwrap()
        .parse()
        .unwrap();
    let days = (payable_at - chrono::Utc::now()).num_hours() as f64 / 24.0;
    assert!((29.9..=30.0).contains(&days), "{days} days");
    // The admin sees the money waiting, and when it becomes payable; there
    // is nothing to mark as paid yet.
    let listed = get(&app, PAYOUTS, &admin).await.ok();
    assert_eq!(listed.as_array().unwrap().len(), 1, "{listed}");
    assert_eq!(listed[0]["code"], "HOLD");
    assert_eq!(listed[0]["payableCount"], 0);
    assert_eq!(listed[0]["payableCents"], 0);
    assert_eq!(listed[0]["pendingCount"], 1);
    assert_eq!(listed[0]["pendingCents"], 150);
    let next: chrono::DateTime<chrono::Utc> = listed[0]["nextPayableAt"]
        .as_str()
        .unwrap()
        .parse()
        .unwrap();
    assert_eq!(next, payable_at);
    let pay = format!("{PAYOUTS}/{}", listed[0]["partnerId"].as_str().unwrap());
    post(&app, &pay, &admin, json!({}))
        .await
        .assert_error(StatusCode::CONFLICT, "nothing_payable");
}

/// Ends the subscription's month now and waits for the sandbox clock to
/// charge the renewal: the buyer then has `payments` payments.
async fn renew(app: &TestApp, buyer: &Caller, payments: usize) {
    let subscription = subscription_id_of(app, buyer).await;
    Sandbox::new(app.db.clone())
        .set_period_end(
            &subscription,
            chrono::Utc::now() - chrono::Duration::seconds(1),
        )
        .await
        .unwrap();
    crate::harness::eventually("the renewal's payment", || async {
        payment::Entity::find()
            .filter(payment::Column::UserId.eq(buyer.id))
            .all(&app.db)
            .await
            .unwrap()
            .len()
            == payments
    })
    .await;
}

async fn renewals_earn_for_twelve_months_and_a_promo_only_its_sale(backend: Backend) {
    let app = spawn_app_with(backend, |config| {
        config.partners.commission_hold_days = 0;
        config.payments.sandbox_renewal_interval_secs = 1;
    })
    .await;
    let admin = admin(&app).await;
    let (referrer, _) = partner(&app, &admin, "ref@example.com", "REF", "starter").await;
    let (promoter, promo) = partner(&app, &admin, "promo@example.com", "PROMO", "starter").await;
    sql(
        &app,
        "UPDATE partner_accounts SET promo_code = 'SAVE10' WHERE id = $1",
        vec![
            promo["id"]
                .as_str()
                .unwrap()
                .parse::<Uuid>()
                .unwrap()
                .into(),
        ],
    )
    .await;

    // A referred subscriber: the first month and a renewal both earn 150.
    let fan = sign_up_referred(&app, "fan@example.com", "REF").await;
    buy(&app, &fan, "subscription", None).await;
    renew(&app, &fan, 2).await;
    let seen = portal(&app, &referrer).await;
    assert_eq!(seen["account"]["totalConversions"], 2);
    assert_eq!(seen["account"]["totalEarnedCents"], 300);
    // Referred more than 12 months ago: a renewal earns nothing more.
    let thirteen_months_ago = chrono::Utc::now() - chrono::Duration::days(400);
    sql(
        &app,
        "UPDATE profiles SET created_at = $1 WHERE id = $2",
        vec![thirteen_months_ago.into(), fan.id.into()],
    )
    .await;
    renew(&app, &fan, 3).await;
    assert_eq!(
        portal(&app, &referrer).await["account"]["totalConversions"],
        2
    );

    // A promo buyer: the discounted first payment is the promoter's; the
    // renewal is charged in full and, the buyer not being referred, is nobody's.
    let buyer = sign_up(&app, "buyer@example.com").await;
    buy(&app, &buyer, "subscription", Some("SAVE10")).await;
    renew(&app, &buyer, 2).await;
    let mut charged: Vec<i64> = payment::Entity::find()
        .filter(payment::Column::UserId.eq(buyer.id))
        .all(&app.db)
        .await
        .unwrap()
        .iter()
        .map(|payment| payment.amount_cents)
        .collect();
    charged.sort_unstable();
    assert_eq!(charged, [899, 999]);
    let seen = portal(&app, &promoter).await;
    assert_eq!(seen["account"]["totalConversions"], 1);
    assert_eq!(seen["account"]["totalEarnedCents"], 135);
    assert_totals_match_lines(&app).await;
}

async fn an_approved_contact_fee_earns_on_the_platforms_quarter(backend: Backend) {
    let app = app_without_hold(backend).await;
    let admin = admin(&app).await;
    let (partner_user, _) = partner(&app, &admin, "p@example.com", "FEES", "starter").await;
    let star = sign_up(&app, "star@example.com").await;
    let photo = insert_photo(&app, star.id, 9.0, chrono::Utc::now(), State::Listed).await;
    let fan = sign_up_referred(&app, "fan@example.com", "FEES").await;
    let request = ok_created(
        post(
            &app,
            "/api/v1/contact-requests",
            &fan,
            json!({"photoId": photo, "message": "Hello there, nice photo!"}),
        )
        .await,
    );
    let opened = post(
        &app,
        "/functions/v1/create-checkout",
        &fan,
        json!({"userId": fan.id, "type": "contact_request", "metadata": {"contact_request_id": request["id"]}}),
    )
    .await.ok();
    let session = opened["sessionId"].as_str().unwrap();
    post(
        &app,
        &format!("/api/v1/billing/sandbox/{session}/pay"),
        &fan,
        json!({}),
    )
    .await
    .ok();
    // Held, not captured: nothing earned yet.
    assert_eq!(portal(&app, &partner_user).await["recent"], json!([]));
    let approve = format!(
        "/api/v1/contact-requests/{}/approve",
        request["id"].as_str().unwrap()
    );
    post(&app, &approve, &star, json!({})).await.ok();
    // $1,000 captured: the platform's 25 % is $250, and 15 % of it $37.50.
    let seen = portal(&app, &partner_user).await;
    assert_eq!(seen["recent"][0]["amountCents"], 25_000);
    assert_eq!(seen["recent"][0]["commissionCents"], 3_750);
    assert_totals_match_lines(&app).await;
}

/// Issue 25: a public (https) server allowed to take test payments never
/// turns a sandbox payment into a commission; in development (the other
/// tests) the same purchase earns.
async fn sandbox_payments_earn_no_commission_on_a_public_server(backend: Backend) {
    use prettyscore_server::partners::entity::line;
    let app = spawn_app_with(backend, |config| {
        config.partners.commission_hold_days = 0;
        config.public_url = Some("https://prettyscore.example".to_owned());
        config.payments.allow_test_payments = true;
    })
    .await;
    let admin = admin(&app).await;
    let (partner_user, _) = partner(&app, &admin, "p@example.com", "PUBLIC", "elite").await;
    let buyer = sign_up_referred(&app, "buyer@example.com", "PUBLIC").await;
    assert!(
        referrer_of(&app, &buyer).await.is_some(),
        "the buyer was referred"
    );
    buy(&app, &buyer, "personality_detailed", None).await;
    buy(&app, &buyer, "subscription", None).await;
    let paid = payment::Entity::find()
        .filter(payment::Column::UserId.eq(buyer.id))
        .all(&app.db)
        .await
        .unwrap();
    assert_eq!(paid.len(), 2, "both sandbox payments went through");
    assert!(paid.iter().all(|payment| payment.provider == "sandbox"));
    assert_eq!(line::Entity::find().all(&app.db).await.unwrap(), []);
    let portal = portal(&app, &partner_user).await;
    assert_eq!(portal["recent"], json!([]));
    assert_eq!(portal["account"]["totalConversions"], 0);
    assert_eq!(portal["account"]["totalEarnedCents"], 0);
    assert_totals_match_lines(&app).await;
}

async fn pay_through_stripe_sends_one_transfer_to_a_connected_partner(backend: Backend) {
    let app = app_without_hold(backend).await;
    let admin = admin(&app).await;
    let (one_user, one) = partner(&app, &admin, "one@example.com", "ONE", "starter").await;
    for email in ["a@example.com", "b@example.com"] {
        let buyer = sign_up_referred(&app, email, "ONE").await;
        buy(&app, &buyer, "subscription", None).await; // 999 × 15 % = 150
    }
    let transfer = format!("{PAYOUTS}/{}/transfer", one["id"].as_str().unwrap());
    let listed = get(&app, PAYOUTS, &admin).await.ok();
    assert_eq!(listed[0]["payoutAccount"], Value::Null);

    // Who may: admins only; and only to a connected account.
    let anonymous = crate::harness::call(
        &app,
        reqwest::Method::POST,
        &transfer,
        None,
        Some(json!({})),
    )
    .await;
    anonymous.assert_error(StatusCode::UNAUTHORIZED, "not_signed_in");
    post(&app, &transfer, &one_user, json!({}))
        .await
        .assert_error(StatusCode::FORBIDDEN, "admin_only");
    post(&app, &transfer, &admin, json!({}))
        .await
        .assert_error(StatusCode::CONFLICT, "no_payout_account");
    // An approved partner may connect before any contact earnings.
    let link = post(&app, "/api/v1/payouts/account", &one_user, json!({}))
        .await
        .ok();
    let account = link["url"]
        .as_str()
        .unwrap()
        .trim_start_matches("/payouts/sandbox/onboard/")
        .to_owned();
    assert_eq!(
        get(&app, PAYOUTS, &admin).await.ok()[0]["payoutAccount"],
        "onboarding"
    );
    post(&app, &transfer, &admin, json!({}))
        .await
        .assert_error(StatusCode::CONFLICT, "no_payout_account");
    post(
        &app,
        &format!("/api/v1/payouts/sandbox/accounts/{account}/complete"),
        &one_user,
        json!({}),
    )
    .await
    .ok();
    assert_eq!(
        get(&app, PAYOUTS, &admin).await.ok()[0]["payoutAccount"],
        "enabled"
    );

    // Eight presses at once: one payout, one transfer.
    let presses =
        futures::future::join_all((0..8).map(|_| post(&app, &transfer, &admin, json!({})))).await;
    let sent: Vec<&Value> = presses
        .iter()
        .filter(|reply| reply.status == StatusCode::CREATED)
        .map(|reply| &reply.body)
        .collect();
    assert_eq!(sent.len(), 1, "{presses:?}");
    for Reply { status, body, .. } in &presses {
        if *status != StatusCode::CREATED {
            assert_eq!(*status, StatusCode::CONFLICT, "{body}");
            assert!(
                body["code"] == "nothing_payable" || body["code"] == "conflict",
                "{body}"
            );
        }
    }
    assert_eq!(sent[0]["totalAmountCents"], 300);
    assert_eq!(sent[0]["method"], "stripe");
    assert!(
        sent[0]["transferId"]
            .as_str()
            .unwrap()
            .starts_with("tr_sandbox_")
    );
    assert_eq!(
        crate::harness::count(&app, "sandbox_objects WHERE kind = 'transfer'").await,
        1
    );
    assert_eq!(crate::harness::count(&app, "partner_payouts").await, 1);
    assert_eq!(
        portal(&app, &one_user).await["totals"],
        json!({"pendingCents": 0, "payableCents": 0, "paidCents": 300})
    );
    assert_eq!(get(&app, PAYOUTS, &admin).await.ok(), json!([]));
    let audit = get(&app, "/api/v1/admin/audit", &admin)
        .await
        .ok()
        .to_string();
    assert!(
        audit.contains("\"method\":\"stripe\"") || audit.contains("stripe"),
        "{audit}"
    );
    assert_totals_match_lines(&app).await;
}

/// A referred buyer's $4.99 purchase, as Stripe reports it.
async fn stripe_purchase(app: &TestApp, buyer: &Caller, intent: &str) {
    let object = json!({"id": intent, "object": "payment_intent", "status": "succeeded",
                        "amount": 499, "amount_received": 499, "currency": "usd",
                        "metadata": {"user_id": buyer.id, "purpose": "personality_detailed"}});
    deliver(
        app,
        &event(
            &format!("evt_{intent}"),
            "payment_intent.succeeded",
            now(),
            object,
        ),
    )
    .await;
}

async fn pay_through_stripe_sends_an_unconfirmed_transfer_again_and_a_refused_one_pays_nothing(
    backend: Backend,
) {
    use std::sync::atomic::{AtomicUsize, Ordering};
    use wiremock::matchers::{method, path as at};
    use wiremock::{Mock, ResponseTemplate};
    let stripe = stripe_double().await;
    Mock::given(method("POST"))
        .and(at("/v1/accounts"))
        .respond_with(ResponseTemplate::new(200).set_body_json(json!({
            "id": "acct_1Partner", "object": "account", "type": "express",
            "payouts_enabled": false, "details_submitted": false
        })))
        .mount(&stripe)
        .await;
    Mock::given(method("POST"))
        .and(at("/v1/account_links"))
        .respond_with(ResponseTemplate::new(200).set_body_json(json!({
            "object": "account_link", "url": "https://connect.stripe.com/setup/e/acct_1Partner/x"
        })))
        .mount(&stripe)
        .await;
    // No answer, then the same transfer accepted, then a refusal.
    let calls = AtomicUsize::new(0);
    Mock::given(method("POST"))
        .and(at("/v1/transfers"))
        .respond_with(
            move |_: &wiremock::Request| match calls.fetch_add(1, Ordering::SeqCst) {
                0 => ResponseTemplate::new(500).set_body_json(
                    json!({"error": {"type": "api_error", "message": "An unknown error occurred"}}),
                ),
                1 => ResponseTemplate::new(200).set_body_json(json!({
                    "id": "tr_1Partner", "object": "transfer", "amount": 75, "amount_reversed": 0,
                    "currency": "usd", "destination": "acct_1Partner", "reversed": false
                })),
                _ => ResponseTemplate::new(400).set_body_json(json!({"error": {
                "type": "invalid_request_error", "code": "balance_insufficient",
                "message": "You have insufficient available funds in your Stripe account."}})),
            },
        )
        .expect(3)
        .mount(&stripe)
        .await;
    let app = stripe_app_with(backend, &stripe.uri(), |config| {
        config.partners.commission_hold_days = 0;
    })
    .await;
    let admin = admin(&app).await;
    let (one_user, one) = partner(&app, &admin, "one@example.com", "ONE", "starter").await;
    let buyer = sign_up_referred(&app, "a@example.com", "ONE").await;
    stripe_purchase(&app, &buyer, "pi_first").await;
    post(&app, "/api/v1/payouts/account", &one_user, json!({}))
        .await
        .ok();
    let ready = json!({"id": "acct_1Partner", "object": "account", "payouts_enabled": true, "details_submitted": true});
    deliver(
        &app,
        &event("evt_partner_ready", "account.updated", now(), ready),
    )
    .await;
    let owed = get(&app, PAYOUTS, &admin).await.ok()[0]["payableCents"]
        .as_i64()
        .unwrap();
    assert!(owed > 0);

    let transfer = format!("{PAYOUTS}/{}/transfer", one["id"].as_str().unwrap());
    let unanswered = post(&app, &transfer, &admin, json!({})).await;
    unanswered.assert_error(StatusCode::BAD_GATEWAY, "payment_provider_failed");
    assert!(
        unanswered.body["message"]
            .as_str()
            .unwrap()
            .contains("press Pay through Stripe again")
    );
    let listed = get(&app, PAYOUTS, &admin).await.ok();
    assert_eq!(listed[0]["unconfirmedTransferCents"], owed);
    assert_eq!(listed[0]["payableCents"], 0);
    // Mark as Paid cannot pay it a second time meanwhile.
    post(
        &app,
        &format!("{PAYOUTS}/{}", one["id"].as_str().unwrap()),
        &admin,
        json!({}),
    )
    .await
    .assert_error(StatusCode::CONFLICT, "nothing_payable");
    let Reply {
        status,
        body: payout,
        ..
    } = post(&app, &transfer, &admin, json!({})).await;
    assert_eq!(status, StatusCode::CREATED, "{payout}");
    assert_eq!(payout["transferId"], "tr_1Partner");
    assert_eq!(payout["totalAmountCents"], owed);
    let sent: Vec<_> = stripe
        .received_requests()
        .await
        .unwrap()
        .into_iter()
        .filter(|r| r.url.path() == "/v1/transfers")
        .collect();
    let keys: Vec<_> = sent
        .iter()
        .map(|r| {
            r.headers
                .get("Idempotency-Key")
                .unwrap()
                .to_str()
                .unwrap()
                .to_owned()
        })
        .collect();
    assert_eq!(keys[0], keys[1], "sent again with the same key");
    assert_eq!(
        keys[0],
        format!("payout-{}", payout["id"].as_str().unwrap())
    );
    let form: std::collections::BTreeMap<String, String> =
        url::form_urlencoded::parse(&sent[1].body)
            .into_owned()
            .collect();
    assert_eq!(form["destination"], "acct_1Partner");
    assert_eq!(form["amount"], owed.to_string());
    assert_eq!(get(&app, PAYOUTS, &admin).await.ok(), json!([]));

    // Refused: nothing marked paid, the money payable again, no payout row.
    let second = sign_up_referred(&app, "b@example.com", "ONE").await;
    stripe_purchase(&app, &second, "pi_second").await;
    post(&app, &transfer, &admin, json!({}))
        .await
        .assert_error(StatusCode::BAD_GATEWAY, "payment_provider_failed");
    let listed = get(&app, PAYOUTS, &admin).await.ok();
    assert_eq!(listed[0]["payableCents"], owed);
    assert_eq!(listed[0]["unconfirmedTransferCents"], 0);
    assert_eq!(crate::harness::count(&app, "partner_payouts").await, 1);
    assert_totals_match_lines(&app).await;
    stripe.verify().await;
}
