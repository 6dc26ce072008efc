//! `POST /functions/v1/create-checkout`: the caller buys for themselves, at
//! the server's price, once per idempotency key.

use std::collections::BTreeMap;

use axum::extract::State;
use axum::http::{HeaderMap, StatusCode};
use chrono::Utc;
use sea_orm::{ActiveModelTrait, ActiveValue::Set, ColumnTrait, EntityTrait, QueryFilter};
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};
use utoipa::ToSchema;
use uuid::Uuid;

use super::entity::checkout;
use super::rules::{CURRENCY, Purchase};
use super::{deliver_sandbox_events, has_premium_editing, provider_error};
use crate::http::AppState;
use crate::http::error::{ApiError, ErrorBody, ErrorCode, SignedInErrors};
use crate::http::extract::{AuthUser, Json};
use crate::http::hooks::{Priced, Promo};
use crate::providers::payments::{CheckoutRequest, discounted_cents};

/// Stripe's limit for an `Idempotency-Key`.
const MAX_IDEMPOTENCY_KEY: usize = 255;
pub const CHECKOUT_FAILED: &str = "Failed to start checkout. Please try again.";

/// The spec's `metadata`. Only `contact_request_id` and
/// `personality_result_id` are read; the fee, rank and plan name a client
/// sends are ignored (the server prices), but stay in the API so the spec's
/// client can send them.
#[derive(Debug, Default, Deserialize, ToSchema)]
#[allow(dead_code)]
pub struct CheckoutMetadata {
    /// The caller's saved personality result the detailed analysis is for
    /// (required with `type` `personality_detailed`).
    #[serde(default)]
    pub personality_result_id: Option<Uuid>,
    /// The contact request the fee is for (`type` `contact_request`).
    #[serde(default)]
    pub contact_request_id: Option<Uuid>,
    /// Ignored: the server computes the fee from the contestant's rank.
    #[serde(default)]
    #[schema(value_type = Option<Object>)]
    pub fee_amount: Option<Value>,
    /// Ignored: the rank stored with the contact request counts.
    #[serde(default)]
    #[schema(value_type = Option<Object>)]
    pub rank: Option<Value>,
    /// Ignored.
    #[serde(default)]
    pub plan_name: Option<String>,
}

/// The body of `create-checkout` (the spec's fields; `priceId` is accepted
/// and ignored).
#[derive(Debug, Deserialize, ToSchema)]
#[allow(dead_code)]
#[serde(rename_all = "camelCase")]
pub struct CreateCheckoutRequest {
    /// Ignored: the server sets the price from `type`.
    #[serde(default)]
    pub price_id: Option<String>,
    /// Must be the caller's own id (403 `forbidden` otherwise).
    pub user_id: Uuid,
    /// Prefills the provider's checkout; defaults to the account's address.
    #[serde(default)]
    pub email: Option<String>,
    /// `subscription` (Premium Editing, $9.99 a month),
    /// `personality_detailed` ($4.99) or `contact_request` (the fee for the
    /// contestant's rank, held until they answer).
    #[serde(rename = "type")]
    pub kind: Purchase,
    #[serde(default)]
    pub metadata: CheckoutMetadata,
    /// The same key returns the same checkout (or send the
    /// `Idempotency-Key` header). At most 255 characters.
    #[serde(default)]
    pub idempotency_key: Option<String>,
    /// A partner's promo code: 10 % off the first payment of Premium or the
    /// detailed analysis, and the sale is credited to that partner. An
    /// unknown code is refused (422 `invalid_promo_code`).
    #[serde(default)]
    pub promo_code: Option<String>,
}

/// Where to send the buyer.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct CreateCheckoutResponse {
    /// The provider's checkout page: Stripe's, or the sandbox's
    /// `/checkout/sandbox/{sessionId}` (relative).
    pub url: String,
    pub session_id: String,
    /// What will be charged, in cents (decided by the server).
    pub amount_cents: i64,
    pub currency: String,
}

/// Opens a checkout for the caller. The price comes from `type` (and, for a
/// contact fee, the contestant's rank stored with the request); amounts and
/// price ids the client sends are ignored. Nothing is granted here: the
/// provider's events do that.
#[utoipa::path(post, path = "/create-checkout", tag = "billing",
    request_body = CreateCheckoutRequest,
    params(("Idempotency-Key" = Option<String>, Header, description = "Returns the same checkout for a retried request")),
    responses(
        (status = 200, description = "The checkout to redirect to", body = CreateCheckoutResponse),
        SignedInErrors,
        (status = 403, description = "`forbidden`: `userId` is not the caller", body = ErrorBody),
        (status = 404, description = "The contact request or personality result is not the caller's", body = ErrorBody),
        (status = 409, description = "`already_subscribed`, `already_purchased`, `already_paid`, `checkout_in_progress`", body = ErrorBody),
        (status = 422, description = "`validation_failed`, `idempotency_key_reused`, `invalid_promo_code` (also a partner's own code)", body = ErrorBody),
        (status = 502, description = "`payment_provider_failed`", body = ErrorBody),
    ),
    security(("bearer" = [])))]
pub async fn create_checkout(
    State(state): State<AppState>,
    user: AuthUser,
    headers: HeaderMap,
    Json(request): Json<CreateCheckoutRequest>,
) -> Result<Json<CreateCheckoutResponse>, ApiError> {
    if request.user_id != user.user_id {
        return Err(ApiError::new(
            StatusCode::FORBIDDEN,
            ErrorCode::Forbidden,
            "You can only start a checkout for your own account.",
        ));
    }
    let key = headers
        .get("idempotency-key")
        .and_then(|value| value.to_str().ok())
        .map(str::to_owned)
        .or(request.idempotency_key.clone())
        .map(|key| key.trim().to_owned())
        .filter(|key| !key.is_empty())
        .unwrap_or_else(|| Uuid::new_v4().to_string());
    if key.chars().count() > MAX_IDEMPOTENCY_KEY {
        return Err(ApiError::invalid(
            "The idempotency key must be at most 255 characters.",
        ));
    }
    let contact_request_id = request.metadata.contact_request_id;
    if let Some(found) = find_by_key(&state, user.user_id, &key).await? {
        return replay(found, request.kind, contact_request_id);
    }

    // What is bought, beyond its purpose: one open checkout per user and thing.
    let purchase_ref: Option<String>;
    let (amount_cents, price_id) = match request.kind {
        Purchase::Subscription => {
            if has_premium_editing(&state.db, user.user_id).await? {
                return Err(already_subscribed());
            }
            purchase_ref = Some(PREMIUM_REF.to_owned());
            fixed_price(request.kind)
        }
        Purchase::PersonalityDetailed => {
            let id = request.metadata.personality_result_id.ok_or_else(|| {
                ApiError::invalid(
                    "metadata.personality_result_id is required: the detailed analysis is bought for one saved result.",
                )
            })?;
            let owns = state
                .hooks
                .owns_purchase(&state.db, request.kind.as_str(), id, user.user_id)
                .await?;
            if owns != Some(true) {
                return Err(ApiError::not_found("Personality result not found"));
            }
            if super::purchased(&state.db, request.kind, &id.to_string()).await? {
                return Err(already_purchased());
            }
            purchase_ref = Some(id.to_string());
            fixed_price(request.kind)
        }
        Purchase::ContactRequest => {
            let id = contact_request_id.ok_or_else(|| {
                ApiError::invalid("metadata.contact_request_id is required for a contact request.")
            })?;
            match state
                .hooks
                .price(&state.db, request.kind.as_str(), id, user.user_id)
                .await?
            {
                Some(Priced::Price {
                    amount_cents,
                    price_id,
                }) => {
                    // One open checkout per request, as for Premium.
                    purchase_ref = Some(id.to_string());
                    (amount_cents, price_id)
                }
                Some(Priced::AlreadyPaid) => {
                    return Err(ApiError::conflict(
                        ErrorCode::AlreadyPaid,
                        "This contact request has been paid for already.",
                    ));
                }
                Some(Priced::NotFound) | None => {
                    return Err(ApiError::not_found("Contact request not found"));
                }
            }
        }
    };

    let promo = promo(&state, &request, user.user_id).await?;
    let provider = state.payments.provider.clone();
    let now = Utc::now();
    let checkout_id = Uuid::now_v7();
    let mut metadata = BTreeMap::from([
        ("checkout_id".to_owned(), checkout_id.to_string()),
        ("user_id".to_owned(), user.user_id.to_string()),
        ("purpose".to_owned(), request.kind.as_str().to_owned()),
    ]);
    if let Some(id) = contact_request_id.filter(|_| request.kind == Purchase::ContactRequest) {
        metadata.insert("contact_request_id".to_owned(), id.to_string());
    }
    if let Some(promo) = &promo {
        metadata.insert("promo_code".to_owned(), promo.code.clone());
        metadata.insert("promo_partner_id".to_owned(), promo.partner_id.to_string());
    }
    if let Some(reference) = &purchase_ref {
        metadata.insert("purchase_ref".to_owned(), reference.clone());
    }
    let discount_percent = promo.as_ref().map(|promo| promo.percent_off);
    let charged_cents = discounted_cents(amount_cents, discount_percent);
    // One open checkout per thing: a second tab gets the first tab's
    // checkout, unless it asks for another price (a promo code entered
    // since, a contact fee whose rank moved); then the first is no longer
    // offered (if it is paid anyway, fulfilment refunds or releases the
    // second payment).
    if let Some(reference) = &purchase_ref
        && let Some(open) =
            open_checkout(state.db.clone(), user.user_id, request.kind, reference).await?
    {
        if open.amount_cents == charged_cents
            && open.metadata.get("promo_code")
                == metadata.get("promo_code").map(|c| json!(c)).as_ref()
        {
            return replay(open, request.kind, contact_request_id);
        }
        checkout::Entity::update_many()
            .col_expr(
                checkout::Column::Status,
                sea_orm::sea_query::Expr::value(checkout::Status::Expired.as_str()),
            )
            .col_expr(
                checkout::Column::UpdatedAt,
                sea_orm::sea_query::Expr::value(now),
            )
            .filter(checkout::Column::Id.eq(open.id))
            .filter(checkout::Column::Status.eq(checkout::Status::Open.as_str()))
            .exec(&state.db)
            .await?;
    }
    let inserted = checkout::ActiveModel {
        id: Set(checkout_id),
        user_id: Set(Some(user.user_id)),
        idempotency_key: Set(key.clone()),
        provider: Set(provider.name().to_owned()),
        provider_session_id: Set(None),
        purpose: Set(request.kind.as_str().to_owned()),
        price_id: Set(price_id),
        amount_cents: Set(charged_cents),
        currency: Set(CURRENCY.to_owned()),
        status: Set(checkout::Status::Open.as_str().to_owned()),
        url: Set(None),
        metadata: Set(json!(metadata)),
        completed_at: Set(None),
        created_at: Set(now),
        updated_at: Set(now),
        purchase_ref: Set(purchase_ref.clone()),
    }
    .insert(&state.db)
    .await;
    if let Err(err) = inserted {
        // The same key at the same moment: the other request opens it.
        if let Some(found) = find_by_key(&state, user.user_id, &key).await? {
            return replay(found, request.kind, contact_request_id);
        }
        // Another tab opened a checkout for the same thing at the same
        // moment: that one is this one.
        if let Some(reference) = &purchase_ref
            && let Some(open) =
                open_checkout(state.db.clone(), user.user_id, request.kind, reference).await?
        {
            return replay(open, request.kind, contact_request_id);
        }
        return Err(ApiError::from(err));
    }

    let (success, cancel) = request.kind.returns();
    // Stripe needs absolute return addresses; the sandbox page is ours.
    let base = if provider.name() == "stripe" {
        state.base_url.trim_end_matches('/').to_owned()
    } else {
        String::new()
    };
    let checkout_request = CheckoutRequest {
        mode: request.kind.mode(),
        amount_cents,
        currency: CURRENCY.to_owned(),
        product_name: request.kind.description().to_owned(),
        customer_email: request.email.clone().or(user.email.clone()),
        client_reference_id: user.user_id.to_string(),
        metadata,
        success_url: format!("{base}{success}"),
        cancel_url: format!("{base}{cancel}"),
        idempotency_key: checkout_id.to_string(),
        discount_percent,
    };
    let session = match provider.create_checkout(&checkout_request).await {
        Ok(session) => session,
        Err(err) => {
            // Nothing was opened: the same key may try again.
            checkout::Entity::delete_by_id(checkout_id)
                .exec(&state.db)
                .await?;
            return Err(provider_error(err, CHECKOUT_FAILED));
        }
    };
    checkout::Entity::update_many()
        .col_expr(
            checkout::Column::ProviderSessionId,
            sea_orm::sea_query::Expr::value(session.id.clone()),
        )
        .col_expr(
            checkout::Column::Url,
            sea_orm::sea_query::Expr::value(session.url.clone()),
        )
        .filter(checkout::Column::Id.eq(checkout_id))
        .exec(&state.db)
        .await?;
    // Nothing to deliver yet for a new session, but an earlier delivery may
    // have been interrupted.
    deliver_sandbox_events(&state).await;
    Ok(Json(CreateCheckoutResponse {
        url: session.url,
        session_id: session.id,
        amount_cents: charged_cents,
        currency: CURRENCY.to_owned(),
    }))
}

/// `purchase_ref` of the Premium subscription: one per user.
pub const PREMIUM_REF: &str = "premium";

/// A purchase with one price for everyone: its cents and price id.
fn fixed_price(kind: Purchase) -> (i64, String) {
    let (cents, price_id) = kind
        .fixed_price()
        .expect("subscriptions and detailed analyses have a fixed price");
    (cents, price_id.to_owned())
}

fn already_subscribed() -> ApiError {
    ApiError::conflict(
        ErrorCode::AlreadySubscribed,
        "You are already a Premium member.",
    )
}

fn already_purchased() -> ApiError {
    ApiError::conflict(
        ErrorCode::AlreadyPurchased,
        "You have already bought the detailed analysis of this result.",
    )
}

/// The caller's open checkout for one thing, if any.
async fn open_checkout(
    db: sea_orm::DatabaseConnection,
    user_id: Uuid,
    kind: Purchase,
    reference: &str,
) -> Result<Option<checkout::Model>, ApiError> {
    Ok(checkout::Entity::find()
        .filter(checkout::Column::UserId.eq(user_id))
        .filter(checkout::Column::Purpose.eq(kind.as_str()))
        .filter(checkout::Column::PurchaseRef.eq(reference))
        .filter(checkout::Column::Status.eq(checkout::Status::Open.as_str()))
        .one(&db)
        .await?)
}

/// The promo code the buyer entered, checked: `None` when none was entered.
async fn promo(
    state: &AppState,
    request: &CreateCheckoutRequest,
    buyer: Uuid,
) -> Result<Option<Promo>, ApiError> {
    let Some(code) = request
        .promo_code
        .as_deref()
        .map(str::trim)
        .filter(|code| !code.is_empty())
    else {
        return Ok(None);
    };
    let invalid = |message: &'static str| {
        ApiError::new(
            StatusCode::UNPROCESSABLE_ENTITY,
            ErrorCode::InvalidPromoCode,
            message,
        )
    };
    if request.kind == Purchase::ContactRequest {
        return Err(invalid("Promo codes can't be used for contact requests"));
    }
    let promo = state
        .hooks
        .promo_code(&state.db, code, buyer)
        .await?
        .ok_or_else(|| invalid("This promo code is not valid"))?;
    if promo.buyer_is_owner {
        return Err(invalid("You cannot use your own promo code."));
    }
    Ok(Some(promo))
}

async fn find_by_key(
    state: &AppState,
    user_id: Uuid,
    key: &str,
) -> Result<Option<checkout::Model>, ApiError> {
    Ok(checkout::Entity::find()
        .filter(checkout::Column::UserId.eq(user_id))
        .filter(checkout::Column::IdempotencyKey.eq(key))
        .one(&state.db)
        .await?)
}

/// The checkout a key opened before, if the request is the same purchase.
fn replay(
    found: checkout::Model,
    kind: Purchase,
    contact_request_id: Option<Uuid>,
) -> Result<Json<CreateCheckoutResponse>, ApiError> {
    let same_contact = kind != Purchase::ContactRequest
        || found
            .metadata
            .get("contact_request_id")
            .and_then(Value::as_str)
            == contact_request_id.map(|id| id.to_string()).as_deref();
    if found.purpose != kind.as_str() || !same_contact {
        return Err(ApiError::new(
            StatusCode::UNPROCESSABLE_ENTITY,
            ErrorCode::IdempotencyKeyReused,
            "This idempotency key was used for a different purchase.",
        ));
    }
    match (found.url, found.provider_session_id) {
        (Some(url), Some(session_id)) => Ok(Json(CreateCheckoutResponse {
            url,
            session_id,
            amount_cents: found.amount_cents,
            currency: found.currency,
        })),
        _ => Err(ApiError::conflict(
            ErrorCode::CheckoutInProgress,
            "This checkout is still being opened. Please try again in a moment.",
        )),
    }
}
