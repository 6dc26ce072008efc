//! `POST /api/v1/billing/webhook`: Stripe's events. The signature is checked
//! over the raw body before anything is read; the event then goes through
//! [`super::fulfil`], once.

use axum::body::Bytes;
use axum::extract::State;
use axum::http::{HeaderMap, StatusCode};
use chrono::Utc;
use serde::Serialize;
use utoipa::ToSchema;

use super::fulfil::{Outcome, fulfil_paid_with};
use crate::http::AppState;
use crate::http::error::{ApiError, ErrorBody, ErrorCode};
use crate::http::extract::Json;
use crate::providers::payments::Event;
use crate::providers::payments::events::{IntentChange, PaymentEvent};
use crate::providers::payments::stripe::verify_signature;

/// The webhook's answer.
#[derive(Debug, Serialize, ToSchema)]
pub struct WebhookReceipt {
    pub received: bool,
    /// The event was processed before; nothing changed.
    pub duplicate: bool,
}

/// Stripe's webhook endpoint. The `Stripe-Signature` header (`t=…,v1=…`)
/// must be an HMAC-SHA256 with the endpoint's signing secret over
/// `t + "." + body`, made within 300 s. A redelivered event changes nothing.
#[utoipa::path(post, path = "/billing/webhook", tag = "billing",
    request_body(content = Object, content_type = "application/json", description = "A Stripe event"),
    params(("Stripe-Signature" = String, Header, description = "t=<unix time>,v1=<hex HMAC-SHA256>")),
    responses(
        (status = 200, description = "The event was applied, or had been before", body = WebhookReceipt),
        (status = 400, description = "`invalid_signature`, or `invalid_json`", body = ErrorBody),
        (status = 404, description = "Stripe webhooks are not configured", body = ErrorBody),
    ))]
pub async fn webhook(
    State(state): State<AppState>,
    headers: HeaderMap,
    body: Bytes,
) -> Result<Json<WebhookReceipt>, ApiError> {
    let secret = state
        .payments
        .webhook_secret
        .as_ref()
        .ok_or_else(|| ApiError::not_found("Stripe webhooks are not configured here."))?;
    let header = headers
        .get("stripe-signature")
        .and_then(|value| value.to_str().ok())
        .unwrap_or_default();
    verify_signature(secret.expose(), header, &body, Utc::now().timestamp()).map_err(|err| {
        ApiError::bad_request(
            ErrorCode::InvalidSignature,
            "The webhook signature is missing, wrong or too old.",
        )
        .with_cause(err)
    })?;
    let event: Event = serde_json::from_slice(&body).map_err(|err| {
        ApiError::new(
            StatusCode::BAD_REQUEST,
            ErrorCode::InvalidJson,
            "The webhook body is not a Stripe event.",
        )
        .with_cause(err)
    })?;
    let card = card_of(&state, &event).await;
    let outcome =
        fulfil_paid_with(&state.db, &state.hooks, "stripe", &event, card.as_deref()).await?;
    // A thing paid twice is refunded at once, after the answer to Stripe
    // (a failure is tried again by the refund worker).
    let settling = state.clone();
    tokio::spawn(async move {
        if let Err(err) = super::refunds::settle_soon(&settling).await {
            tracing::error!(error = %err, "could not settle the refunds owed");
        }
    });
    Ok(Json(WebhookReceipt {
        received: true,
        duplicate: outcome == Outcome::Duplicate,
    }))
}

/// The card the payment of `event` was made with, asked of Stripe before
/// fulfilment's transaction, for the receipt: only for an event that
/// charges or holds a card. A failure costs the receipt its card line
/// ("the card you entered at checkout"), never the event.
async fn card_of(state: &AppState, event: &Event) -> Option<String> {
    let (intent, invoice) = match event.read() {
        PaymentEvent::CheckoutCompleted(session) => (session.payment_intent, session.invoice),
        PaymentEvent::InvoicePaid(invoice) => (invoice.payment_intent, invoice.id),
        PaymentEvent::Intent(IntentChange::Held | IntentChange::Succeeded, intent) => {
            (intent.id, None)
        }
        _ => return None,
    };
    let provider = &state.payments.provider;
    match provider.card(intent.as_deref(), invoice.as_deref()).await {
        Ok(card) => card,
        Err(err) => {
            tracing::warn!(error = %err, event = %event.id, "could not read the card of a payment");
            None
        }
    }
}
