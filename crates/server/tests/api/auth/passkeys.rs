//! Passkeys (`/passkeys/*`, GoTrue's shapes): registration, sign-in without
//! an address, management, the admin API, and every bad answer an
//! authenticator or a client can give; driven by the software authenticator
//! in `authenticator.rs`. The test site is `http://app.test` (`test_config`),
//! so the relying party is `app.test`.

use super::authenticator::Authenticator;
use super::*;
use futures::future::join_all;

const RP_ID: &str = "app.test";
const ORIGIN: &str = "http://app.test";

/// Registers a passkey for `token`'s user through both calls; the verify's answer.
async fn register(app: &TestApp, token: &str, authenticator: &mut Authenticator) -> Reply {
    let options = app
        .post_as(token, "/passkeys/registration/options", json!({}))
        .await;
    let options = options.assert_ok().clone();
    let credential = authenticator.create(&options["options"]);
    app.post_as(
        token,
        "/passkeys/registration/verify",
        json!({"challenge_id": options["challenge_id"], "credential": credential}),
    )
    .await
}

/// The sign-in options (no session), answered by `authenticator`.
async fn sign_in_body(app: &TestApp, authenticator: &mut Authenticator) -> Value {
    let options = app
        .post("/passkeys/authentication/options", json!({}))
        .await;
    let options = options.assert_ok().clone();
    let credential = authenticator.get(&options["options"]);
    json!({"challenge_id": options["challenge_id"], "credential": credential})
}

async fn sign_in_with(app: &TestApp, authenticator: &mut Authenticator) -> Reply {
    let body = sign_in_body(app, authenticator).await;
    app.post("/passkeys/authentication/verify", body).await
}

on_both_databases!(
    a_passkey_is_registered_and_signs_its_user_in,
    bad_assertions_are_refused_and_start_no_session,
    registration_is_for_the_signed_in_owner_within_the_limits,
    passkeys_are_renamed_and_removed_by_their_owner_and_the_admin,
    eight_tabs_registering_at_once_keep_the_limit,
    one_challenge_signs_in_once_however_often_it_is_sent,
    eight_challenges_answered_with_one_count_sign_in_once,
    sign_in_options_are_capped_per_address_and_expired_ones_swept,
    a_sign_in_started_on_one_instance_finishes_on_another,
    turned_off_the_endpoints_answer_passkey_disabled
);

async fn a_passkey_is_registered_and_signs_its_user_in(backend: Backend) {
    let app = spawn_app(backend).await;
    let tokens = app.sign_up_named("ada@example.com", "Ada").await;
    let token = access(&tokens);
    let mut authenticator = Authenticator::new(RP_ID, ORIGIN);

    let options = app
        .post_as(token, "/passkeys/registration/options", json!({}))
        .await;
    let options = options.assert_ok().clone();
    let public_key = &options["options"];
    assert_eq!(public_key["rp"]["id"], RP_ID);
    assert_eq!(public_key["rp"]["name"], "PrettyScore");
    assert_eq!(public_key["user"]["name"], "ada@example.com");
    assert_eq!(public_key["user"]["displayName"], "Ada");
    assert_eq!(
        public_key["authenticatorSelection"]["residentKey"],
        "required"
    );
    assert_eq!(
        public_key["authenticatorSelection"]["requireResidentKey"],
        true
    );
    assert_eq!(public_key["attestation"], "none");
    assert!(public_key["challenge"].as_str().unwrap().len() >= 43);
    let expires_at = options["expires_at"].as_i64().unwrap();
    let in_five_minutes = chrono::Utc::now().timestamp() + 300;
    assert!((in_five_minutes - 5..=in_five_minutes).contains(&expires_at));

    let credential = authenticator.create(public_key);
    let created = app
        .post_as(
            token,
            "/passkeys/registration/verify",
            json!({"challenge_id": options["challenge_id"], "credential": credential}),
        )
        .await;
    let created = created.assert_ok().clone();
    assert_eq!(created["friendly_name"], "Passkey");
    let passkey_id = created["id"].as_str().unwrap().to_owned();

    let list = app.get_as(token, "/passkeys").await;
    let list = list.assert_ok();
    assert_eq!(list.as_array().unwrap().len(), 1);
    assert_eq!(list[0]["id"], passkey_id.as_str());
    assert!(list[0].get("last_used_at").is_none(), "{list}");

    // A second registration excludes the first credential.
    let again = app
        .post_as(token, "/passkeys/registration/options", json!({}))
        .await;
    assert_eq!(
        again.assert_ok()["options"]["excludeCredentials"][0]["id"],
        credential["id"]
    );

    // Sign-in names no one: the options list no credentials.
    let options = app
        .post("/passkeys/authentication/options", json!({}))
        .await;
    let options = options.assert_ok().clone();
    assert_eq!(options["options"]["rpId"], RP_ID);
    assert!(
        options["options"]["allowCredentials"]
            .as_array()
            .is_none_or(Vec::is_empty),
        "{options}"
    );
    let assertion = authenticator.get(&options["options"]);
    let session = app
        .post(
            "/passkeys/authentication/verify",
            json!({"challenge_id": options["challenge_id"], "credential": assertion}),
        )
        .await;
    let session = session.assert_ok().clone();
    assert_eq!(session["user"]["email"], "ada@example.com");
    assert_eq!(session["token_type"], "bearer");
    let claims = claims(access(&session));
    assert_eq!(claims["amr"][0]["method"], "passkey");
    assert_eq!(claims["aal"], "aal1");
    assert!(refresh_of(&session).len() > 8);

    let list = app.get_as(token, "/passkeys").await;
    assert!(list.assert_ok()[0]["last_used_at"].is_string());

    // The counter moves forward: a second sign-in works, a cloned
    // authenticator replaying an old count does not.
    sign_in_with(&app, &mut authenticator).await.assert_ok();
    authenticator.credentials[0].counter = 1;
    sign_in_with(&app, &mut authenticator)
        .await
        .assert_error(400, "webauthn_verification_failed");
}

async fn bad_assertions_are_refused_and_start_no_session(backend: Backend) {
    let app = spawn_app(backend).await;
    let tokens = app.sign_up("ada@example.com").await;
    let mut authenticator = Authenticator::new(RP_ID, ORIGIN);
    register(&app, access(&tokens), &mut authenticator)
        .await
        .assert_ok();
    let sessions_before = count(&app, "sessions").await;

    // A used challenge is gone.
    let body = sign_in_body(&app, &mut authenticator).await;
    app.post("/passkeys/authentication/verify", body.clone())
        .await
        .assert_ok();
    app.post("/passkeys/authentication/verify", body)
        .await
        .assert_error(400, "webauthn_challenge_not_found");
    let sessions_before = sessions_before + 1;

    // Another origin, another relying party, a broken signature.
    let failures = [
        ("http://evil.test", RP_ID, false),
        (ORIGIN, "evil.test", false),
        (ORIGIN, RP_ID, true),
    ];
    for (origin, rp_id, tamper) in failures {
        authenticator.origin = origin.to_owned();
        authenticator.rp_id = rp_id.to_owned();
        authenticator.tamper = tamper;
        sign_in_with(&app, &mut authenticator)
            .await
            .assert_error(400, "webauthn_verification_failed");
    }
    authenticator = Authenticator {
        credentials: authenticator.credentials,
        ..Authenticator::new(RP_ID, ORIGIN)
    };

    // A credential this site never saw.
    let mut stranger = Authenticator::new(RP_ID, ORIGIN);
    let options = app
        .post_as(access(&tokens), "/passkeys/registration/options", json!({}))
        .await;
    stranger.create(&options.assert_ok()["options"]);
    sign_in_with(&app, &mut stranger)
        .await
        .assert_error(400, "webauthn_verification_failed");

    // An expired challenge.
    let body = sign_in_body(&app, &mut authenticator).await;
    sql(
        &app,
        "UPDATE webauthn_challenges SET created_at = $1",
        vec![(chrono::Utc::now() - chrono::Duration::minutes(6)).into()],
    )
    .await;
    app.post("/passkeys/authentication/verify", body)
        .await
        .assert_error(400, "webauthn_challenge_expired");

    // Malformed requests.
    let body = sign_in_body(&app, &mut authenticator).await;
    let malformed = [
        (
            json!({"credential": body["credential"]}),
            "validation_failed",
        ),
        (
            json!({"challenge_id": body["challenge_id"]}),
            "validation_failed",
        ),
        (
            json!({"challenge_id": "not-a-uuid", "credential": body["credential"]}),
            "validation_failed",
        ),
        (
            json!({"challenge_id": uuid::Uuid::new_v4(), "credential": body["credential"]}),
            "webauthn_challenge_not_found",
        ),
        (
            json!({"challenge_id": body["challenge_id"], "credential": {"id": "x"}}),
            "webauthn_verification_failed",
        ),
    ];
    for (body, code) in malformed {
        app.post("/passkeys/authentication/verify", body)
            .await
            .assert_error(400, code);
    }
    let not_json = app
        .client
        .post(app.url("/auth/v1/passkeys/authentication/verify"))
        .header("content-type", "application/json")
        .body("{nope")
        .send()
        .await
        .unwrap();
    assert_eq!(not_json.status(), 400);

    // A registration's challenge does not sign anyone in.
    let registration = app
        .post_as(access(&tokens), "/passkeys/registration/options", json!({}))
        .await;
    let registration = registration.assert_ok().clone();
    let assertion = authenticator.assert_with(0, &registration["options"]);
    app.post(
        "/passkeys/authentication/verify",
        json!({"challenge_id": registration["challenge_id"], "credential": assertion}),
    )
    .await
    .assert_error(400, "webauthn_challenge_not_found");

    assert_eq!(count(&app, "sessions").await, sessions_before);
    // The genuine authenticator still works.
    sign_in_with(&app, &mut authenticator).await.assert_ok();

    // Until the user is banned: 403, as GoTrue's passkey sign-in.
    let admin = app.service_token().await;
    let id = claims(access(&tokens))["sub"].as_str().unwrap().to_owned();
    app.put_as(
        &admin,
        &format!("/admin/users/{id}"),
        json!({"ban_duration": "24h"}),
    )
    .await
    .assert_ok();
    sign_in_with(&app, &mut authenticator)
        .await
        .assert_error(403, "user_banned");
}

async fn registration_is_for_the_signed_in_owner_within_the_limits(backend: Backend) {
    let app = spawn_app_with(backend, |config| {
        config.auth.passkeys.max_per_user = 2;
        config.auth.anonymous_sign_ins = true;
    })
    .await;
    let ada = app.sign_up("ada@example.com").await;
    let bob = app.sign_up("bob@example.com").await;
    let mut authenticator = Authenticator::new(RP_ID, ORIGIN);

    // No session, an anonymous one.
    app.post("/passkeys/registration/options", json!({}))
        .await
        .assert_error(401, "no_authorization");
    let anonymous = app.post("/signup", json!({})).await;
    app.post_as(
        access(anonymous.assert_ok()),
        "/passkeys/registration/options",
        json!({}),
    )
    .await
    .assert_error(403, "no_authorization");

    // Ada's challenge is not Bob's.
    let options = app
        .post_as(access(&ada), "/passkeys/registration/options", json!({}))
        .await;
    let options = options.assert_ok().clone();
    let credential = authenticator.create(&options["options"]);
    app.post_as(
        access(&bob),
        "/passkeys/registration/verify",
        json!({"challenge_id": options["challenge_id"], "credential": credential}),
    )
    .await
    .assert_error(400, "webauthn_challenge_not_found");
    app.post_as(
        access(&ada),
        "/passkeys/registration/verify",
        json!({"challenge_id": options["challenge_id"], "credential": credential}),
    )
    .await
    .assert_ok();

    // One authenticator key, once: for Ada again, or for Bob.
    for tokens in [&ada, &bob] {
        let options = app
            .post_as(access(tokens), "/passkeys/registration/options", json!({}))
            .await;
        let options = options.assert_ok().clone();
        let again = authenticator.attest(0, &options["options"]);
        app.post_as(
            access(tokens),
            "/passkeys/registration/verify",
            json!({"challenge_id": options["challenge_id"], "credential": again}),
        )
        .await
        .assert_error(422, "webauthn_credential_exists");
    }

    // The limit (2 here).
    register(&app, access(&ada), &mut authenticator)
        .await
        .assert_ok();
    app.post_as(access(&ada), "/passkeys/registration/options", json!({}))
        .await
        .assert_error(422, "too_many_passkeys");
    assert_eq!(
        count_where(&app, "webauthn_credentials", "friendly_name = 'Passkey 2'").await,
        1
    );

    // With a second factor on, an aal1 session cannot add or remove one.
    let factor = app
        .post_as(access(&bob), "/factors", json!({"factor_type": "totp"}))
        .await;
    let factor = factor.assert_ok().clone();
    sql(
        &app,
        "UPDATE mfa_factors SET status = 'verified' WHERE id = $1",
        vec![
            uuid::Uuid::parse_str(factor["id"].as_str().unwrap())
                .unwrap()
                .into(),
        ],
    )
    .await;
    app.post_as(access(&bob), "/passkeys/registration/options", json!({}))
        .await
        .assert_error(403, "insufficient_aal");
}

async fn passkeys_are_renamed_and_removed_by_their_owner_and_the_admin(backend: Backend) {
    let app = spawn_app(backend).await;
    let ada = app.sign_up("ada@example.com").await;
    let bob = app.sign_up("bob@example.com").await;
    let mut authenticator = Authenticator::new(RP_ID, ORIGIN);
    let created = register(&app, access(&ada), &mut authenticator).await;
    let id = created.assert_ok()["id"].as_str().unwrap().to_owned();
    let path = format!("/passkeys/{id}");
    // Ada is told (issue 45).
    let added = app
        .mails_of_kind("ada@example.com", "security_passkey_added")
        .await;
    assert_eq!(added.len(), 1);
    assert!(added[0].1.contains("(Passkey)"), "{}", added[0].1);

    // Rename.
    let renamed = app
        .call(
            Method::PATCH,
            &path,
            Some(access(&ada)),
            Some(json!({"friendly_name": "  Ada's phone "})),
        )
        .await;
    assert_eq!(renamed.assert_ok()["friendly_name"], "Ada's phone");
    for name in [json!(""), json!("x".repeat(121)), Value::Null] {
        app.call(
            Method::PATCH,
            &path,
            Some(access(&ada)),
            Some(json!({"friendly_name": name})),
        )
        .await
        .assert_error(400, "validation_failed");
    }

    // Who may call: nobody signed in, another user, a bad id.
    app.call(Method::GET, "/passkeys", None, None)
        .await
        .assert_error(401, "no_authorization");
    let bobs = app.get_as(access(&bob), "/passkeys").await;
    assert_eq!(bobs.assert_ok(), &json!([]));
    app.call(
        Method::PATCH,
        &path,
        Some(access(&bob)),
        Some(json!({"friendly_name": "mine"})),
    )
    .await
    .assert_error(404, "validation_failed");
    app.delete_as(access(&bob), &path)
        .await
        .assert_error(404, "validation_failed");
    app.delete_as(access(&ada), "/passkeys/not-a-uuid")
        .await
        .assert_error(404, "validation_failed");

    // The admin API: the service role only.
    let admin = app.service_token().await;
    let ada_id = claims(access(&ada))["sub"].as_str().unwrap().to_owned();
    let admin_path = format!("/admin/users/{ada_id}/passkeys");
    app.get_as(access(&ada), &admin_path)
        .await
        .assert_error(403, "not_admin");
    let listed = app.get_as(&admin, &admin_path).await;
    assert_eq!(listed.assert_ok()[0]["friendly_name"], "Ada's phone");
    app.get_as(
        &admin,
        &format!("/admin/users/{}/passkeys", uuid::Uuid::new_v4()),
    )
    .await
    .assert_error(404, "user_not_found");

    // A second passkey: the owner removes one, the admin the other.
    let second = register(&app, access(&ada), &mut authenticator).await;
    let second = second.assert_ok()["id"].as_str().unwrap().to_owned();
    let removed = app.delete_as(access(&ada), &path).await;
    assert_eq!(removed.status, 204);
    app.delete_as(access(&ada), &path)
        .await
        .assert_error(404, "validation_failed");
    let removed = app
        .delete_as(&admin, &format!("{admin_path}/{second}"))
        .await;
    assert_eq!(removed.status, 204);
    assert_eq!(count(&app, "webauthn_credentials").await, 0);
    // Two of each within a minute: one mail of each kind.
    for kind in ["security_passkey_added", "security_passkey_removed"] {
        assert_eq!(
            app.mails_of_kind("ada@example.com", kind).await.len(),
            1,
            "{kind}"
        );
    }

    // A removed passkey signs no one in.
    sign_in_with(&app, &mut authenticator)
        .await
        .assert_error(400, "webauthn_verification_failed");
}

async fn eight_tabs_registering_at_once_keep_the_limit(backend: Backend) {
    let app = spawn_app_with(backend, |config| config.auth.passkeys.max_per_user = 3).await;
    let tokens = app.sign_up("ada@example.com").await;
    let token = access(&tokens);
    let mut authenticator = Authenticator::new(RP_ID, ORIGIN);
    let mut bodies = Vec::new();
    for _ in 0..8 {
        let options = app
            .post_as(token, "/passkeys/registration/options", json!({}))
            .await;
        let options = options.assert_ok().clone();
        let credential = authenticator.create(&options["options"]);
        bodies.push(json!({"challenge_id": options["challenge_id"], "credential": credential}));
    }
    let replies = join_all(
        bodies
            .into_iter()
            .map(|body| app.post_as(token, "/passkeys/registration/verify", body)),
    )
    .await;
    let created = replies.iter().filter(|r| r.status == 200).count();
    let refused = replies
        .iter()
        .filter(|r| r.status == 422 && r.body["error_code"] == "too_many_passkeys")
        .count();
    assert_eq!((created, refused), (3, 5), "{replies:?}");
    assert_eq!(count(&app, "webauthn_credentials").await, 3);
}

async fn one_challenge_signs_in_once_however_often_it_is_sent(backend: Backend) {
    let app = spawn_app(backend).await;
    let tokens = app.sign_up("ada@example.com").await;
    let mut authenticator = Authenticator::new(RP_ID, ORIGIN);
    register(&app, access(&tokens), &mut authenticator)
        .await
        .assert_ok();
    let sessions_before = count(&app, "sessions").await;
    let body = sign_in_body(&app, &mut authenticator).await;
    let replies =
        join_all((0..8).map(|_| app.post("/passkeys/authentication/verify", body.clone()))).await;
    let signed_in = replies.iter().filter(|r| r.status == 200).count();
    assert_eq!(signed_in, 1, "{replies:?}");
    assert!(
        replies
            .iter()
            .filter(|r| r.status != 200)
            .all(|r| r.body["error_code"] == "webauthn_challenge_not_found"),
        "{replies:?}"
    );
    assert_eq!(count(&app, "sessions").await, sessions_before + 1);
}

/// Issue 43: eight sign-ins at once on different challenges, all carrying
/// the same signature count (a cloned key), let 1-5 of them in.
async fn eight_challenges_answered_with_one_count_sign_in_once(backend: Backend) {
    let app = spawn_app(backend).await;
    let tokens = app.sign_up("ada@example.com").await;
    let mut authenticator = Authenticator::new(RP_ID, ORIGIN);
    register(&app, access(&tokens), &mut authenticator)
        .await
        .assert_ok();
    let sessions_before = count(&app, "sessions").await;
    let mut bodies = Vec::new();
    for _ in 0..8 {
        // Each answer carries the count 1.
        authenticator.credentials[0].counter = 0;
        bodies.push(sign_in_body(&app, &mut authenticator).await);
    }
    let replies = join_all(
        bodies
            .into_iter()
            .map(|body| app.post("/passkeys/authentication/verify", body)),
    )
    .await;
    let signed_in = replies.iter().filter(|r| r.status == 200).count();
    assert_eq!(signed_in, 1, "{replies:?}");
    assert!(
        replies
            .iter()
            .filter(|r| r.status != 200)
            .all(|r| r.body["error_code"] == "webauthn_verification_failed"),
        "{replies:?}"
    );
    assert_eq!(count(&app, "sessions").await, sessions_before + 1);
    // The next assertion, its count moved on, signs in.
    sign_in_with(&app, &mut authenticator).await.assert_ok();
}

/// Issue 43: every sign-in options call stored a challenge row, kept a day.
async fn sign_in_options_are_capped_per_address_and_expired_ones_swept(backend: Backend) {
    use prettyscore_server::db::entities::webauthn_challenges;
    use sea_orm::{ActiveModelTrait, Set};
    let app = spawn_app(backend).await;
    webauthn_challenges::ActiveModel {
        id: Set(uuid::Uuid::new_v4()),
        user_id: Set(None),
        kind: Set("authentication".into()),
        state: Set("{}".into()),
        created_at: Set(chrono::Utc::now() - chrono::Duration::minutes(10)),
    }
    .insert(&app.db)
    .await
    .unwrap();
    for _ in 0..10 {
        app.post("/passkeys/authentication/options", json!({}))
            .await
            .assert_ok();
    }
    assert_eq!(
        count(&app, "webauthn_challenges").await,
        10,
        "the expired challenge is swept"
    );
    let refused = app
        .post("/passkeys/authentication/options", json!({}))
        .await;
    refused.assert_error(429, "over_request_rate_limit");
    assert_eq!(count(&app, "webauthn_challenges").await, 10);
}

async fn a_sign_in_started_on_one_instance_finishes_on_another(backend: Backend) {
    let app = spawn_app(backend).await;
    let other = app.second_instance().await;
    let tokens = app.sign_up("ada@example.com").await;
    let mut authenticator = Authenticator::new(RP_ID, ORIGIN);
    // Registered through both instances, then signed in through both.
    let options = app
        .post_as(access(&tokens), "/passkeys/registration/options", json!({}))
        .await;
    let options = options.assert_ok().clone();
    let credential = authenticator.create(&options["options"]);
    other
        .post_as(
            access(&tokens),
            "/passkeys/registration/verify",
            json!({"challenge_id": options["challenge_id"], "credential": credential}),
        )
        .await
        .assert_ok();
    let body = sign_in_body(&other, &mut authenticator).await;
    let session = app.post("/passkeys/authentication/verify", body).await;
    assert_eq!(session.assert_ok()["user"]["email"], "ada@example.com");
}

async fn turned_off_the_endpoints_answer_passkey_disabled(backend: Backend) {
    let app = spawn_app(backend).await;
    let settings = app.get("/auth/v1/settings").await;
    let settings: Value = settings.json().await.unwrap();
    assert_eq!(settings["passkeys_enabled"], true);

    let app = spawn_app_with(backend, |config| config.auth.passkeys.enabled = false).await;
    let settings: Value = app.get("/auth/v1/settings").await.json().await.unwrap();
    assert_eq!(settings["passkeys_enabled"], false);
    let tokens = app.sign_up("ada@example.com").await;
    app.post("/passkeys/authentication/options", json!({}))
        .await
        .assert_error(404, "passkey_disabled");
    app.post_as(access(&tokens), "/passkeys/registration/options", json!({}))
        .await
        .assert_error(404, "passkey_disabled");
    app.get_as(access(&tokens), "/passkeys")
        .await
        .assert_error(404, "passkey_disabled");
}
