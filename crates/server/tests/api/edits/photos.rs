//! Edits attached to saved photos, Undo (PATCH edited_image_url), and the
//! removal of a photo's edits with the photo or the account.

use super::function::saved_photo;
use super::*;

fn key_of(url: &str) -> String {
    url.trim_start_matches("/media/")
        .split('?')
        .next()
        .unwrap()
        .to_owned()
}

async fn patch(app: &TestApp, token: &str, photo_id: &str, body: Value) -> Reply {
    let request = app
        .client
        .patch(app.url(&format!("/api/v1/photos/{photo_id}")))
        .json(&body);
    Browser::signed_in(token).send(app, request).await
}

on_both_databases!(
    an_edit_with_a_photo_id_is_stored_with_the_photo_and_undo_writes_back,
    undo_refuses_images_that_are_not_the_photos_own,
    a_photo_id_must_be_the_signed_in_users_own,
    deleting_a_photo_or_the_account_removes_its_edits
);

async fn an_edit_with_a_photo_id_is_stored_with_the_photo_and_undo_writes_back(backend: Backend) {
    let provider = provider_double().await;
    let app = spawn_with_provider(backend, &provider).await;
    let (token, user_id) = sign_up(&app, "owner@example.com").await;
    let photo = saved_photo(&app, &token).await;
    let photo_id = photo["id"].as_str().unwrap();
    let original = photo["original_image_url"].as_str().unwrap();
    let mut browser = Browser::signed_in(&token);

    let body = json!({"imageUrl": original, "prompt": GENERATIVE_PROMPT, "photoId": photo_id});
    let first = browser.edit(&app, body.clone()).await.ok()["editedImageUrl"]
        .as_str()
        .unwrap()
        .to_owned();
    let second = browser.edit(&app, body).await.ok()["editedImageUrl"]
        .as_str()
        .unwrap()
        .to_owned();
    let prefix = format!("photos/{user_id}/{photo_id}/edits/");
    assert!(key_of(&first).starts_with(&prefix), "{first}");
    assert!(key_of(&second).starts_with(&prefix), "{second}");

    let shown: Value = Browser::signed_in(&token)
        .send(
            &app,
            app.client
                .get(app.url(&format!("/api/v1/photos/{photo_id}"))),
        )
        .await
        .ok()
        .clone();
    assert_eq!(
        key_of(shown["edited_image_url"].as_str().unwrap()),
        key_of(&second)
    );

    // Undo: back to the first edit (relative or absolute URL), then to the original.
    let reply = patch(&app, &token, photo_id, json!({"editedImageUrl": first})).await;
    assert_eq!(
        key_of(reply.ok()["edited_image_url"].as_str().unwrap()),
        key_of(&first)
    );
    let absolute = app.url(&second);
    let reply = patch(&app, &token, photo_id, json!({"editedImageUrl": absolute})).await;
    assert_eq!(
        key_of(reply.ok()["edited_image_url"].as_str().unwrap()),
        key_of(&second)
    );
    let reply = patch(&app, &token, photo_id, json!({"editedImageUrl": null})).await;
    assert_eq!(reply.ok()["edited_image_url"], Value::Null);

    // The field is required: an empty body is not a silent "clear".
    let reply = patch(&app, &token, photo_id, json!({})).await;
    assert!(reply.status.is_client_error(), "{reply:?}");
}

async fn undo_refuses_images_that_are_not_the_photos_own(backend: Backend) {
    let provider = provider_double().await;
    let app = spawn_with_provider(backend, &provider).await;
    let (token, user_id) = sign_up(&app, "careful@example.com").await;
    let (other_token, _) = sign_up(&app, "other@example.com").await;
    let photo = saved_photo(&app, &token).await;
    let photo_id = photo["id"].as_str().unwrap().to_owned();
    let second_photo = saved_photo(&app, &token).await;
    let theirs = saved_photo(&app, &other_token).await;

    // A temporary edit, an edit of another photo, another user's edit.
    let temporary = Browser::signed_in(&token).generative_edit(&app).await.ok()["editedImageUrl"]
        .as_str()
        .unwrap()
        .to_owned();
    let of_second = Browser::signed_in(&token)
            .edit(&app, json!({"imageUrl": sample_data_url(), "prompt": GENERATIVE_PROMPT, "photoId": second_photo["id"]}))
            .await.ok()["editedImageUrl"].as_str().unwrap().to_owned();
    let of_theirs = Browser::signed_in(&other_token)
            .edit(&app, json!({"imageUrl": sample_data_url(), "prompt": GENERATIVE_PROMPT, "photoId": theirs["id"]}))
            .await.ok()["editedImageUrl"].as_str().unwrap().to_owned();

    for url in [
        temporary,
        of_second,
        of_theirs,
        format!("/media/photos/{user_id}/{photo_id}/edits/never-made.jpg?token=x"),
        format!(
            "/media/photos/{user_id}/{photo_id}/../{}/original.jpg",
            second_photo["id"].as_str().unwrap()
        ),
        format!("https://example.com/media/photos/{user_id}/{photo_id}/original.png"),
        "data:image/png;base64,AAAA".to_owned(),
    ] {
        let reply = patch(&app, &token, &photo_id, json!({"editedImageUrl": url})).await;
        reply.assert_error(StatusCode::BAD_REQUEST, "invalid_image_url");
    }
    // Someone else's photo is not found at all.
    let reply = patch(
        &app,
        &other_token,
        &photo_id,
        json!({"editedImageUrl": null}),
    )
    .await;
    reply.assert_error(StatusCode::NOT_FOUND, "not_found");
}

async fn a_photo_id_must_be_the_signed_in_users_own(backend: Backend) {
    let provider = provider_double().await;
    let app = spawn_with_provider(backend, &provider).await;
    let (token, _) = sign_up(&app, "mine@example.com").await;
    let (other, _) = sign_up(&app, "not-mine@example.com").await;
    let photo = saved_photo(&app, &token).await;
    let body =
        json!({"imageUrl": sample_data_url(), "prompt": GENERATIVE_PROMPT, "photoId": photo["id"]});
    // Signed out: asked to sign in (a 404 would say the photo does not exist).
    let mut anonymous = Browser::default();
    anonymous
        .edit(&app, body.clone())
        .await
        .assert_error(StatusCode::UNAUTHORIZED, "not_signed_in");
    let mut stranger = Browser::signed_in(&other);
    stranger
        .edit(&app, body)
        .await
        .assert_error(StatusCode::NOT_FOUND, "not_found");
    assert_eq!(provider.received_requests().await.unwrap().len(), 0);
    assert_eq!(stranger.quota(&app).await["remaining"], 5);
}

async fn deleting_a_photo_or_the_account_removes_its_edits(backend: Backend) {
    let provider = provider_double().await;
    let app = spawn_with_provider(backend, &provider).await;
    let (token, _) = sign_up(&app, "leaving@example.com").await;
    let mut browser = Browser::signed_in(&token);
    let photo = saved_photo(&app, &token).await;
    let kept = saved_photo(&app, &token).await;
    let mut edits = Vec::new();
    for target in [&photo, &photo, &kept] {
        let reply = browser
                .edit(&app, json!({"imageUrl": sample_data_url(), "prompt": GENERATIVE_PROMPT, "photoId": target["id"]}))
                .await;
        edits.push(reply.ok()["editedImageUrl"].as_str().unwrap().to_owned());
    }
    let temporary = browser.generative_edit(&app).await.ok()["editedImageUrl"]
        .as_str()
        .unwrap()
        .to_owned();
    for url in edits.iter().chain([&temporary]) {
        assert_eq!(fetch(&app, url).await.0, StatusCode::OK);
    }

    let delete = app
        .client
        .delete(app.url(&format!("/api/v1/photos/{}", photo["id"].as_str().unwrap())))
        .bearer_auth(&token)
        .send()
        .await
        .unwrap();
    assert_eq!(delete.status(), StatusCode::NO_CONTENT);
    assert_eq!(
        fetch(&app, &edits[0]).await.0,
        StatusCode::NOT_FOUND,
        "the replaced edit went too"
    );
    assert_eq!(fetch(&app, &edits[1]).await.0, StatusCode::NOT_FOUND);
    assert_eq!(
        fetch(&app, &edits[2]).await.0,
        StatusCode::OK,
        "another photo's edit stays"
    );

    let gone = app
        .client
        .delete(app.url("/api/v1/account"))
        .bearer_auth(&token)
        .send()
        .await
        .unwrap();
    assert_eq!(gone.status(), StatusCode::NO_CONTENT);
    assert_eq!(fetch(&app, &edits[2]).await.0, StatusCode::NOT_FOUND);
    assert_eq!(
        fetch(&app, &temporary).await.0,
        StatusCode::NOT_FOUND,
        "temporary edits of the account go too"
    );
}
