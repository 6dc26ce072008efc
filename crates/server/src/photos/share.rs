//! Sharing a saved result: on the owner's request a photo gets an unguessable
//! public page, `/s/<slug>`, whose Open Graph tags point at a 1200x630 score
//! card, so a shared link shows the card in chats and feeds. Photos that were
//! never shared have no public page. The image is screened first (`screening`),
//! and a new edit before its page or card is next shown; while a photo is held
//! for review, its page and card answer 404 like an unshared one.

use std::io::Cursor;
use std::sync::OnceLock;

use ab_glyph::{Font, FontRef, PxScale, ScaleFont};
use axum::body::Body;
use axum::extract::State;
use axum::http::{HeaderMap, HeaderValue, StatusCode, header};
use axum::response::{Html, IntoResponse, Response};
use bytes::Bytes;
use chrono::{DateTime, Utc};
use image::{Rgb, RgbImage, imageops};
use sea_orm::sea_query::Expr;
use sea_orm::{ActiveModelTrait, ColumnTrait, EntityTrait, QueryFilter, Set};
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};
use utoipa::ToSchema;
use uuid::Uuid;

use super::{entity, own_photo, screening};
use crate::http::AppState;
use crate::http::error::{ApiError, ErrorBody};
use crate::http::extract::{AuthUser, ClientInfo, Json, Path};
use crate::http::rate_limit;
use crate::media;

/// The public pages, outside the API: `/s/{slug}` and its card.
pub fn routes() -> axum::Router<AppState> {
    axum::Router::new()
        .route("/s/{slug}", axum::routing::get(share_page))
        .route("/s/{slug}/card.png", axum::routing::get(share_card))
}

pub const CARD_WIDTH: u32 = 1200;
pub const CARD_HEIGHT: u32 = 630;

static FONT_BYTES: &[u8] = include_bytes!("../../assets/fonts/DejaVuSans-Bold.ttf");

fn font() -> &'static FontRef<'static> {
    static FONT: OnceLock<FontRef<'static>> = OnceLock::new();
    FONT.get_or_init(|| FontRef::try_from_slice(FONT_BYTES).expect("the bundled font parses"))
}

#[derive(Debug, Serialize, ToSchema)]
pub struct ShareLink {
    /// The public page of this result (it answers 404 while the photo is held
    /// for review).
    pub share_url: String,
    /// Its 1200x630 preview image.
    pub card_url: String,
    /// When the link stops working; null: when the owner revokes it.
    pub expires_at: Option<DateTime<Utc>>,
    /// The nudity check flagged the photo: nothing of it is public until an
    /// admin has looked at it.
    pub held_for_review: bool,
    /// What to tell the owner about the link.
    pub message: String,
}

fn share_link(state: &AppState, slug: &str, photo: &entity::Model) -> ShareLink {
    let base = state.base_url.trim_end_matches('/');
    ShareLink {
        share_url: format!("{base}/s/{slug}"),
        card_url: format!("{base}/s/{slug}/card.png"),
        expires_at: photo.share_expires_at,
        held_for_review: photo.screening_held,
        message: if photo.screening_held {
            screening::HELD_MESSAGE.to_owned()
        } else {
            "Your result is ready to share!".to_owned()
        },
    }
}

/// Whether a photo's share link works at `now`: it has one, and it has not
/// expired.
pub fn is_live(photo: &entity::Model, now: DateTime<Utc>) -> bool {
    photo.share_slug.is_some() && photo.share_expires_at.is_none_or(|at| at > now)
}

/// The photo's working share link, if any (for its owner's view).
pub fn live_link(state: &AppState, photo: &entity::Model) -> Option<ShareLink> {
    if !is_live(photo, Utc::now()) {
        return None;
    }
    photo
        .share_slug
        .as_deref()
        .map(|slug| share_link(state, slug, photo))
}

/// How long a new share link works.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Deserialize, ToSchema)]
pub enum ShareExpiry {
    /// Until the owner revokes it (or deletes the photo).
    #[default]
    #[serde(rename = "never")]
    Never,
    #[serde(rename = "24h")]
    Day,
    #[serde(rename = "7d")]
    Week,
}

impl ShareExpiry {
    /// When a link made at `now` stops working, to whole microseconds as
    /// both databases keep it (so the answer equals what is read later).
    pub fn expires_at(self, now: DateTime<Utc>) -> Option<DateTime<Utc>> {
        let at = match self {
            Self::Never => return None,
            Self::Day => now + chrono::Duration::hours(24),
            Self::Week => now + chrono::Duration::days(7),
        };
        Some(DateTime::from_timestamp_micros(at.timestamp_micros()).unwrap_or(at))
    }
}

/// The optional body of `POST /photos/{id}/share`.
#[derive(Debug, Default, Deserialize, ToSchema)]
pub struct ShareRequest {
    /// `never` (the default), `24h` or `7d`: how long a new link works. A
    /// link that works already is returned as it is.
    #[serde(default)]
    pub expires_in: ShareExpiry,
}

/// Makes one of the user's photos shareable. While its link works, later
/// calls return the same link; after a revoke or once it expired, a new
/// one (the old address never works again). The image is screened first; a
/// flagged one is held for review (`held_for_review`), and its link stays
/// dark until an admin releases it.
#[utoipa::path(post, path = "/photos/{id}/share", tag = "photos",
    params(("id" = Uuid, Path, description = "The photo's id")),
    request_body(content = Option<ShareRequest>, content_type = "application/json"),
    responses(
        (status = 200, description = "The public link", body = ShareLink),
        (status = 401, description = "Not signed in", body = ErrorBody),
        (status = 404, description = "No such photo of this user", body = ErrorBody),
        (status = 422, description = "`validation_failed`: an unknown `expires_in`", body = ErrorBody),
    ),
    security(("bearer" = [])))]
pub async fn share_photo(
    State(state): State<AppState>,
    user: AuthUser,
    Path(id): Path<Uuid>,
    body: Bytes,
) -> Result<Json<ShareLink>, ApiError> {
    let request: ShareRequest = if body.iter().all(u8::is_ascii_whitespace) {
        ShareRequest::default()
    } else {
        serde_json::from_slice(&body).map_err(|err| {
            ApiError::invalid("The link can last: never, 24h or 7d.").with_cause(err)
        })?
    };
    let row = own_photo(&state, &user, id).await?;
    let image = screening::shared_image(&row).to_owned();
    let row = screening::screen(&state, row, &image).await?;
    let now = Utc::now();
    if is_live(&row, now)
        && let Some(slug) = &row.share_slug
    {
        return Ok(Json(share_link(&state, slug, &row)));
    }
    // 128 random bits: the link is the permission.
    let slug = Uuid::new_v4().simple().to_string();
    let expires_at = request.expires_in.expires_at(now);
    let mut active: entity::ActiveModel = row.into();
    active.share_slug = Set(Some(slug.clone()));
    active.share_expires_at = Set(expires_at);
    active.updated_at = Set(now);
    let row = active.update(&state.db).await?;
    Ok(Json(share_link(&state, &slug, &row)))
}

/// Revokes the photo's share link: its page and card answer 404 from now
/// on, on every instance (they read the database on every request) and
/// through any cache (which must ask again before each reuse). Revoking a
/// photo that has no link is no error.
#[utoipa::path(delete, path = "/photos/{id}/share", tag = "photos",
    params(("id" = Uuid, Path, description = "The photo's id")),
    responses(
        (status = 204, description = "The link is gone"),
        (status = 401, description = "Not signed in", body = ErrorBody),
        (status = 404, description = "No such photo of this user", body = ErrorBody),
    ),
    security(("bearer" = [])))]
pub async fn revoke_share(
    State(state): State<AppState>,
    user: AuthUser,
    Path(id): Path<Uuid>,
) -> Result<StatusCode, ApiError> {
    let row = own_photo(&state, &user, id).await?;
    revoke(&state, &row).await?;
    Ok(StatusCode::NO_CONTENT)
}

/// Ends `photo`'s share link and removes its cards. Also what moderation
/// uses when it takes a photo down.
pub async fn revoke(state: &AppState, photo: &entity::Model) -> Result<(), ApiError> {
    entity::Entity::update_many()
        .col_expr(entity::Column::ShareSlug, Expr::value(None::<String>))
        .col_expr(
            entity::Column::ShareExpiresAt,
            Expr::value(None::<DateTime<Utc>>),
        )
        .col_expr(entity::Column::UpdatedAt, Expr::value(Utc::now()))
        .filter(entity::Column::Id.eq(photo.id))
        .exec(&state.db)
        .await?;
    let folder = cards_folder(photo);
    if let Err(err) = state.storage.delete_prefix(&folder).await {
        tracing::warn!(%folder, error = %err, "could not remove a revoked photo's share cards");
    }
    Ok(())
}

/// The photo behind a working share link, if its image may be shown:
/// screened, and not held for review. An image that changed since the share
/// (a new edit) is screened here, once: the first request for its page or
/// card waits for it.
async fn shared_photo(state: &AppState, slug: &str) -> Result<entity::Model, ApiError> {
    let not_found = || ApiError::not_found("This shared result does not exist.");
    let photo = entity::Entity::find()
        .filter(entity::Column::ShareSlug.eq(slug))
        .one(&state.db)
        .await?
        .filter(|photo| is_live(photo, Utc::now()) && !photo.screening_held)
        .ok_or_else(not_found)?;
    let image = screening::shared_image(&photo).to_owned();
    let photo = screening::screen(state, photo, &image).await?;
    if screening::may_show(&photo, &image) {
        Ok(photo)
    } else {
        Err(not_found())
    }
}

/// What the page and the card say to caches: any cache (a browser's, a
/// CDN's, a chat app's preview fetcher) may keep them, but must ask again
/// before each reuse, so a revoked or expired link answers 404 at once; the
/// `ETag` makes asking again cheap (304, no body).
pub const SHARED_CACHE_CONTROL: &str = "public, no-cache";
/// A link that does not work is not kept anywhere.
pub const GONE_CACHE_CONTROL: &str = "no-store";

/// The answer to a request for `body`: 304 when the request names its
/// `ETag`, else 200 with it.
fn validated(request: &HeaderMap, body: Bytes, content_type: &'static str) -> Response {
    let etag = format!(
        "\"{}\"",
        data_encoding::HEXLOWER.encode(&Sha256::digest(&body)[..16])
    );
    let fresh = request
        .get_all(header::IF_NONE_MATCH)
        .iter()
        .filter_map(|value| value.to_str().ok())
        .flat_map(|value| value.split(','))
        .map(|tag| tag.trim().trim_start_matches("W/"))
        .any(|tag| tag == etag || tag == "*");
    let mut response = if fresh {
        let mut response = Response::new(Body::empty());
        *response.status_mut() = StatusCode::NOT_MODIFIED;
        response
    } else {
        let mut response = Response::new(Body::from(body));
        response
            .headers_mut()
            .insert(header::CONTENT_TYPE, HeaderValue::from_static(content_type));
        response
    };
    let headers = response.headers_mut();
    headers.insert(
        header::CACHE_CONTROL,
        HeaderValue::from_static(SHARED_CACHE_CONTROL),
    );
    if let Ok(value) = HeaderValue::from_str(&etag) {
        headers.insert(header::ETAG, value);
    }
    response
}

/// A 404 that no cache keeps.
fn gone(mut response: Response) -> Response {
    response.headers_mut().insert(
        header::CACHE_CONTROL,
        HeaderValue::from_static(GONE_CACHE_CONTROL),
    );
    response
}

fn escape(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
        .replace('\'', "&#39;")
}

/// `GET /s/{slug}`: a small page with the card and Open Graph tags.
pub async fn share_page(
    State(state): State<AppState>,
    Path(slug): Path<String>,
    request: HeaderMap,
) -> Response {
    let photo = match shared_photo(&state, &slug).await {
        Ok(photo) => photo,
        Err(err) if err.status() == StatusCode::NOT_FOUND => {
            return gone((StatusCode::NOT_FOUND, Html(NOT_SHARED_PAGE)).into_response());
        }
        Err(err) => return gone(err.into_response()),
    };
    let link = share_link(&state, &slug, &photo);
    let base = escape(state.base_url.trim_end_matches('/'));
    let title = escape(&format!(
        "I scored {:.1}/10 on PrettyScore: {}!",
        photo.score, photo.rating_label
    ));
    let description = "Symmetry, skin quality and facial harmony, measured by AI. Just for fun: get your own score, free.";
    let page = format!(
        r#"<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{title}</title>
<meta name="description" content="{description}">
<meta property="og:type" content="website">
<meta property="og:site_name" content="PrettyScore">
<meta property="og:title" content="{title}">
<meta property="og:description" content="{description}">
<meta property="og:url" content="{url}">
<meta property="og:image" content="{card}">
<meta property="og:image:width" content="{CARD_WIDTH}">
<meta property="og:image:height" content="{CARD_HEIGHT}">
<meta property="og:image:alt" content="{title}">
<meta name="twitter:card" content="summary_large_image">
<meta name="twitter:title" content="{title}">
<meta name="twitter:image" content="{card}">
<style>
body{{margin:0;font-family:system-ui,sans-serif;background:#fdf2f8;color:#1f1235;display:flex;min-height:100vh;align-items:center;justify-content:center}}
main{{max-width:640px;padding:24px;text-align:center}}
img{{width:100%;height:auto;border-radius:16px;box-shadow:0 10px 30px rgba(120,20,90,.2)}}
a{{display:inline-block;margin-top:24px;padding:14px 28px;border-radius:999px;background:linear-gradient(90deg,#db2777,#9333ea);color:#fff;font-weight:700;text-decoration:none}}
p{{color:#5b4a6b}}
a.report{{background:none;color:#5b4a6b;padding:8px;margin-top:8px;font-weight:600;text-decoration:underline}}
</style>
</head>
<body>
<main>
<h1>{title}</h1>
<img src="{card}" alt="{title}" width="{CARD_WIDTH}" height="{CARD_HEIGHT}">
<p>{description}</p>
<a href="{base}/">Get your own score</a>
<p><a class="report" href="{base}/report?kind=share&amp;id={slug_param}">Report this page</a></p>
</main>
</body>
</html>"#,
        url = escape(&link.share_url),
        card = escape(&link.card_url),
        slug_param =
            escape(&url::form_urlencoded::byte_serialize(slug.as_bytes()).collect::<String>()),
    );
    validated(&request, Bytes::from(page), "text/html; charset=utf-8")
}

const NOT_SHARED_PAGE: &str = r#"<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>Not found - PrettyScore</title></head><body style="font-family:system-ui,sans-serif;text-align:center;padding:48px"><h1>This shared result does not exist</h1><p><a href="/">Get your own score</a></p></body></html>"#;

/// `GET /s/{slug}/card.png`: the 1200x630 preview image. Each version of a
/// card (the photo's image, score and breakdown) is drawn once and kept in
/// storage beside the photo; later requests are served from there. Requests
/// are rate-limited per client address, as drawing costs CPU the analyses need.
pub async fn share_card(
    State(state): State<AppState>,
    client: ClientInfo,
    Path(slug): Path<String>,
    request: HeaderMap,
) -> Response {
    match card(&state, &client, &slug, &request).await {
        Ok(response) => response,
        Err(err) => gone(err.into_response()),
    }
}

async fn card(
    state: &AppState,
    client: &ClientInfo,
    slug: &str,
    request: &HeaderMap,
) -> Result<Response, ApiError> {
    let key = format!("share-card:{}", client.rate_key());
    let limit = state.config.share.cards_per_client_per_minute;
    rate_limit::enforce(
        &state.db,
        &key,
        60,
        limit,
        "Too many requests. Please wait a minute and try again.",
    )
    .await?;
    let photo = shared_photo(state, slug).await?;
    let card = CardText::of(&photo);
    let key = card_key(&photo, &card);
    let png = match state.storage.get(&key).await.map_err(ApiError::internal)? {
        Some(png) => png,
        None => {
            let png = Bytes::from(draw_card(state, &photo, card).await?);
            // Earlier versions of this photo's card are no longer wanted.
            let folder = cards_folder(&photo);
            if let Err(err) = state.storage.delete_prefix(&folder).await {
                tracing::warn!(%folder, error = %err, "could not remove old share cards");
            }
            state
                .storage
                .put(&key, png.clone())
                .await
                .map_err(ApiError::internal)?;
            png
        }
    };
    Ok(validated(request, png, "image/png"))
}

/// Where a photo's cards are kept: in its own folder, so they go with it.
fn cards_folder(photo: &entity::Model) -> String {
    format!("{}cards/", super::storage_prefix(photo.user_id, photo.id))
}

/// The storage key of this version of a photo's card: a digest of everything
/// the card shows, so a new edit, score or label makes a new card.
fn card_key(photo: &entity::Model, card: &CardText) -> String {
    let image_path = screening::shared_image(photo);
    let mut digest = Sha256::new();
    digest.update(image_path.as_bytes());
    digest.update([0]);
    digest.update(format!("{:.1}", card.score).as_bytes());
    digest.update([0]);
    digest.update(card.label.as_bytes());
    for (label, value) in &card.breakdown {
        digest.update([0]);
        digest.update(format!("{label}={value:.2}").as_bytes());
    }
    let version = data_encoding::HEXLOWER.encode(&digest.finalize()[..12]);
    format!("{}{version}.png", cards_folder(photo))
}

/// Draws a photo's card in the blocking pool.
async fn draw_card(
    state: &AppState,
    photo: &entity::Model,
    card: CardText,
) -> Result<Vec<u8>, ApiError> {
    let image_path = screening::shared_image(photo);
    let bytes = match media::key_of(image_path) {
        Some(key) => state.storage.get(key).await.map_err(ApiError::internal)?,
        None => None,
    }
    .ok_or_else(|| ApiError::not_found("This shared result's photo is gone."))?;
    state
        .blocking
        .run(move || render_card(&bytes, &card))
        .await?
        .map_err(ApiError::internal)
}

/// What the card says.
pub struct CardText {
    pub score: f64,
    pub label: String,
    /// (label, value out of 10)
    pub breakdown: Vec<(&'static str, f64)>,
}

impl CardText {
    fn of(photo: &entity::Model) -> Self {
        let item = |key: &str| photo.breakdown.get(key).and_then(serde_json::Value::as_f64);
        let breakdown = [
            ("Symmetry", "symmetry"),
            ("Skin quality", "skinQuality"),
            ("Facial harmony", "facialHarmony"),
            ("Overall balance", "overallBalance"),
        ]
        .into_iter()
        .filter_map(|(label, key)| item(key).map(|value| (label, value)))
        .collect();
        Self {
            score: photo.score,
            label: photo.rating_label.clone(),
            breakdown,
        }
    }
}

const PINK: Rgb<u8> = Rgb([219, 39, 119]);
const PURPLE: Rgb<u8> = Rgb([147, 51, 234]);
const WHITE: Rgb<u8> = Rgb([255, 255, 255]);

/// Draws the card: the photo as a square on the left, the score, its label
/// and the breakdown bars on a pink-to-purple gradient on the right.
pub fn render_card(photo_jpeg: &[u8], text: &CardText) -> anyhow::Result<Vec<u8>> {
    let mut card = RgbImage::from_fn(CARD_WIDTH, CARD_HEIGHT, |x, y| {
        let t = (x as f32 / CARD_WIDTH as f32 * 0.7 + y as f32 / CARD_HEIGHT as f32 * 0.3).min(1.0);
        mix(PINK, PURPLE, t)
    });

    let photo = image::load_from_memory(photo_jpeg)?.to_rgb8();
    let side = photo.width().min(photo.height());
    let square = imageops::crop_imm(
        &photo,
        (photo.width() - side) / 2,
        (photo.height() - side) / 2,
        side,
        side,
    )
    .to_image();
    let square = imageops::resize(
        &square,
        CARD_HEIGHT,
        CARD_HEIGHT,
        imageops::FilterType::Triangle,
    );
    imageops::replace(&mut card, &square, 0, 0);

    let left = i64::from(CARD_HEIGHT) + 56;
    draw_text(&mut card, "PrettyScore", left, 44, 34.0, WHITE);
    let score = format!("{:.1}", text.score);
    let width = draw_text(&mut card, &score, left, 92, 150.0, WHITE);
    draw_text(&mut card, "/10", left + width + 8, 190, 46.0, WHITE);
    draw_text(&mut card, &text.label, left, 262, 40.0, WHITE);

    let bar_width = CARD_WIDTH as i64 - left - 56;
    for (row, (label, value)) in text.breakdown.iter().enumerate() {
        let top = 338 + row as i64 * 64;
        draw_text(&mut card, label, left, top, 24.0, WHITE);
        let value_text = format!("{value:.1}/10");
        let value_width = text_width(&value_text, 24.0);
        draw_text(
            &mut card,
            &value_text,
            left + bar_width - value_width,
            top,
            24.0,
            WHITE,
        );
        fill(
            &mut card,
            left,
            top + 34,
            bar_width,
            10,
            mix(PURPLE, WHITE, 0.35),
        );
        let filled = (bar_width as f64 * (value / 10.0).clamp(0.0, 1.0)).round() as i64;
        fill(&mut card, left, top + 34, filled, 10, WHITE);
    }

    let mut png = Vec::new();
    card.write_to(&mut Cursor::new(&mut png), image::ImageFormat::Png)?;
    Ok(png)
}

fn mix(a: Rgb<u8>, b: Rgb<u8>, t: f32) -> Rgb<u8> {
    let channel = |i: usize| (f32::from(a[i]) * (1.0 - t) + f32::from(b[i]) * t).round() as u8;
    Rgb([channel(0), channel(1), channel(2)])
}

fn fill(image: &mut RgbImage, x: i64, y: i64, width: i64, height: i64, colour: Rgb<u8>) {
    for py in y.max(0)..(y + height).min(i64::from(image.height())) {
        for px in x.max(0)..(x + width).min(i64::from(image.width())) {
            image.put_pixel(px as u32, py as u32, colour);
        }
    }
}

fn text_width(text: &str, size: f32) -> i64 {
    let font = font().as_scaled(PxScale::from(size));
    let mut width = 0.0;
    let mut previous = None;
    for ch in text.chars() {
        let id = font.glyph_id(ch);
        if let Some(prev) = previous {
            width += font.kern(prev, id);
        }
        width += font.h_advance(id);
        previous = Some(id);
    }
    width.ceil() as i64
}

/// Draws `text` with its top-left corner at (x, y); returns its width.
fn draw_text(image: &mut RgbImage, text: &str, x: i64, y: i64, size: f32, colour: Rgb<u8>) -> i64 {
    let scaled = font().as_scaled(PxScale::from(size));
    let mut caret = x as f32;
    let baseline = y as f32 + scaled.ascent();
    let mut previous = None;
    for ch in text.chars() {
        let id = scaled.glyph_id(ch);
        if let Some(prev) = previous {
            caret += scaled.kern(prev, id);
        }
        let glyph =
            id.with_scale_and_position(PxScale::from(size), ab_glyph::point(caret, baseline));
        caret += scaled.h_advance(id);
        previous = Some(id);
        let Some(outline) = font().outline_glyph(glyph) else {
            continue;
        };
        let bounds = outline.px_bounds();
        outline.draw(|gx, gy, coverage| {
            let px = bounds.min.x as i64 + i64::from(gx);
            let py = bounds.min.y as i64 + i64::from(gy);
            if px < 0 || py < 0 || px >= i64::from(image.width()) || py >= i64::from(image.height())
            {
                return;
            }
            let pixel = image.get_pixel_mut(px as u32, py as u32);
            *pixel = mix(*pixel, colour, coverage.clamp(0.0, 1.0));
        });
    }
    (caret - x as f32).ceil() as i64
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample_jpeg(width: u32, height: u32) -> Vec<u8> {
        let image = RgbImage::from_fn(width, height, |x, _| Rgb([(x % 256) as u8, 40, 40]));
        let mut bytes = Vec::new();
        image
            .write_to(&mut Cursor::new(&mut bytes), image::ImageFormat::Jpeg)
            .unwrap();
        bytes
    }

    fn card_text() -> CardText {
        CardText {
            score: 8.7,
            label: "Absolutely Stunning".into(),
            breakdown: vec![("Symmetry", 9.9), ("Skin quality", 7.5)],
        }
    }

    #[test]
    fn the_card_is_1200_by_630_with_the_photo_on_the_left_and_text_on_the_right() {
        let png = render_card(&sample_jpeg(800, 1000), &card_text()).unwrap();
        let card = image::load_from_memory(&png).unwrap().to_rgb8();
        assert_eq!(card.dimensions(), (CARD_WIDTH, CARD_HEIGHT));
        // The photo's dark red is on the left.
        let photo_pixel = card.get_pixel(10, 300);
        assert!(
            photo_pixel[1] < 80 && photo_pixel[2] < 80,
            "{photo_pixel:?}"
        );
        // The score's white glyphs are drawn on the gradient at the right.
        let white = (700..1100)
            .flat_map(|x| (92..250).map(move |y| (x, y)))
            .filter(|&(x, y)| card.get_pixel(x, y).0.iter().all(|&c| c > 240))
            .count();
        assert!(white > 2000, "score text pixels: {white}");
    }

    #[test]
    fn wider_scores_take_more_room() {
        assert!(text_width("10.0", 100.0) > text_width("8.7", 100.0));
        assert_eq!(text_width("", 100.0), 0);
    }

    #[test]
    fn page_text_is_escaped() {
        assert_eq!(
            escape(r#"<a href="x">&'"#),
            "&lt;a href=&quot;x&quot;&gt;&amp;&#39;"
        );
    }
}
