//! AI photo edits: `POST /functions/v1/edit-photo`, the free-edit quota,
//! temporary results and their sweep, edits attached to saved photos (and
//! Undo), and the generative provider against a local double.
//!
//! Tests that only need *a* successful AI edit use the generative provider's
//! double (a prompt the built-in engine cannot do), so they exercise the
//! quota and storage whatever the built-in engine supports; the tests named
//! `builtin_…` need the built-in engine's operations.

mod function;
mod photos;
mod provider;
mod quota;
mod sweep;

use std::io::Cursor;

use data_encoding::BASE64;
use prettyscore_server::config::Secret;
use reqwest::StatusCode;
use reqwest::header::COOKIE;
use sea_orm::{ConnectionTrait, Statement};
use serde_json::{Value, json};
use wiremock::matchers::{method, path};
use wiremock::{Mock, MockServer, ResponseTemplate};

use crate::harness::*;

/// A prompt that the built-in engine cannot carry out, so it goes to the
/// generative provider when one is configured.
pub const GENERATIVE_PROMPT: &str = "put me in a tuxedo on the moon";
pub const API_KEY: &str = "sk-test-provider-key";
pub const MODEL: &str = "image-edit-test";

/// The app with the generative provider pointed at `provider`.
pub async fn spawn_with_provider(backend: Backend, provider: &MockServer) -> TestApp {
    spawn_with_provider_and(backend, provider, |_| {}).await
}

/// [`spawn_with_provider`], with `customise`'s changes to the configuration.
pub async fn spawn_with_provider_and(
    backend: Backend,
    provider: &MockServer,
    customise: impl FnOnce(&mut prettyscore_server::config::Config),
) -> TestApp {
    let base_url = format!("{}/v1", provider.uri());
    spawn_app_with(backend, move |config| {
        config.edits.provider.base_url = Some(base_url);
        config.edits.provider.api_key = Some(Secret::new(API_KEY));
        config.edits.provider.model = Some(MODEL.to_owned());
        config.edits.provider.timeout_secs = 5;
        customise(config);
    })
    .await
}

/// A provider double that answers every edit with a red 24x16 PNG.
pub async fn provider_double() -> MockServer {
    let server = MockServer::start().await;
    Mock::given(method("POST"))
        .and(path("/v1/images/edits"))
        .respond_with(ResponseTemplate::new(200).set_body_json(provider_answer()))
        .mount(&server)
        .await;
    server
}

pub fn provider_answer() -> Value {
    let red = image::RgbImage::from_pixel(24, 16, image::Rgb([220, 20, 20]));
    json!({"created": 1, "data": [{"b64_json": BASE64.encode(&png(&red))}]})
}

pub fn png(image: &image::RgbImage) -> Vec<u8> {
    let mut bytes = Vec::new();
    image
        .write_to(&mut Cursor::new(&mut bytes), image::ImageFormat::Png)
        .unwrap();
    bytes
}

/// A small photo-like PNG: a soft gradient with some texture.
pub fn sample_png() -> Vec<u8> {
    let image = image::RgbImage::from_fn(64, 48, |x, y| {
        let noise = ((x * 7 + y * 13) % 11) as u8;
        image::Rgb([
            90 + (x as u8) + noise,
            70 + (y as u8) * 2,
            120 - (x as u8) / 2 + noise,
        ])
    });
    png(&image)
}

pub fn data_url(bytes: &[u8]) -> String {
    format!("data:image/png;base64,{}", BASE64.encode(bytes))
}

pub fn sample_data_url() -> String {
    data_url(&sample_png())
}

/// One browser: its device cookie (once the server issued one) and,
/// optionally, a signed-in user's access token.
#[derive(Debug, Clone, Default)]
pub struct Browser {
    pub device: Option<String>,
    pub token: Option<String>,
}

impl Browser {
    pub fn signed_in(token: &str) -> Self {
        Self {
            device: None,
            token: Some(token.to_owned()),
        }
    }

    fn prepare(&self, request: reqwest::RequestBuilder) -> reqwest::RequestBuilder {
        let mut request = request;
        if let Some(device) = &self.device {
            request = request.header(COOKIE, format!("ps_device={device}"));
        }
        if let Some(token) = &self.token {
            request = request.bearer_auth(token);
        }
        request
    }

    /// Sends without remembering a new cookie (for parallel requests).
    pub async fn send(&self, app: &TestApp, request: reqwest::RequestBuilder) -> Reply {
        app.send(self.prepare(request)).await
    }

    fn remember(&mut self, reply: &Reply) {
        if let Some(cookie) = reply.set_cookie() {
            let value = cookie
                .strip_prefix("ps_device=")
                .and_then(|rest| rest.split(';').next())
                .expect("a ps_device cookie");
            self.device = Some(value.to_owned());
        }
    }

    pub async fn edit(&mut self, app: &TestApp, body: Value) -> Reply {
        let reply = self.edit_once(app, body).await;
        self.remember(&reply);
        reply
    }

    pub async fn edit_once(&self, app: &TestApp, body: Value) -> Reply {
        let request = app
            .client
            .post(app.url("/functions/v1/edit-photo"))
            .json(&body);
        self.send(app, request).await
    }

    pub async fn quota(&mut self, app: &TestApp) -> Value {
        let request = app.client.get(app.url("/api/v1/edits/quota"));
        let reply = self.send(app, request).await;
        self.remember(&reply);
        reply.ok().clone()
    }

    /// A generative edit of the sample photo (succeeds with the double).
    pub async fn generative_edit(&mut self, app: &TestApp) -> Reply {
        self.edit(
            app,
            json!({"imageUrl": sample_data_url(), "prompt": GENERATIVE_PROMPT}),
        )
        .await
    }
}

/// Signs up (without a display name); (access token, user id).
pub async fn sign_up(app: &TestApp, email: &str) -> (String, String) {
    let user = sign_up_unnamed(app, email).await;
    (user.token, user.id.to_string())
}

/// Hours until the temporary object `key` expires.
pub async fn expiry_hours(app: &TestApp, key: &str) -> f64 {
    use prettyscore_server::edits::temp::media_object;
    use sea_orm::{ColumnTrait, EntityTrait, QueryFilter};
    let row = media_object::Entity::find()
        .filter(media_object::Column::StorageKey.eq(key))
        .one(&app.db)
        .await
        .unwrap()
        .unwrap_or_else(|| panic!("no media_objects row for {key}"));
    let left = row.expires_at.expect("an expiry") - chrono::Utc::now();
    left.num_seconds() as f64 / 3600.0
}
