//! The sandbox provider's side of billing: the test checkout page's API
//! (the web app renders `/checkout/sandbox/{id}` from it), the delivery of
//! the sandbox's events through [`super::fulfil`] (the same code as Stripe's
//! webhooks), and its clock, which renews sandbox subscriptions monthly.

use std::time::Duration;

use axum::extract::{Path, State};
use axum::http::StatusCode;
use chrono::Utc;
use sea_orm::{ColumnTrait, DatabaseConnection, EntityTrait, QueryFilter};
use serde::Serialize;
use serde_json::Value;
use utoipa::ToSchema;

use super::entity::checkout;
use super::fulfil::fulfil;
use super::provider_error;
use crate::http::AppHooks;
use crate::http::AppState;
use crate::http::error::{ApiError, ErrorBody, ErrorCode, SignedInErrors};
use crate::http::extract::{AuthUser, Json};
use crate::providers::payments::Event;
use crate::providers::payments::sandbox::{PayOutcome, Sandbox};

/// What the sandbox checkout page says, always.
pub const TEST_NOTICE: &str = "This is a test payment: no real card is charged and no money moves.";
pub const DECLINED: &str =
    "Your card was declined. This was a test payment: nothing was charged and nothing was granted.";

/// A sandbox checkout, for its page.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct SandboxCheckout {
    pub id: String,
    /// What is being bought, e.g. `Premium Editing (monthly)`.
    pub description: String,
    /// What this payment charges (the first month of a subscription).
    pub amount_cents: i64,
    /// What each later month of a subscription charges, when the first is
    /// discounted (a promo code is for the first payment only).
    #[schema(required = true)]
    pub renewal_cents: Option<i64>,
    pub currency: String,
    /// `subscription` (monthly), `payment` (once) or `hold` (authorised now,
    /// captured later).
    pub mode: String,
    /// `open`, `complete` or `expired`.
    pub status: String,
    /// Where Pay leads (relative).
    pub success_url: String,
    /// Where Cancel leads (relative).
    pub cancel_url: String,
    /// Says plainly that this is a test payment.
    pub notice: String,
}

/// What a button did.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct SandboxResult {
    /// `open`, `complete` or `expired`, after the click.
    pub status: String,
    /// Where to send the buyer next (relative).
    pub redirect_url: String,
}

/// Runs the sandbox's undelivered events through fulfilment, oldest first.
/// Failures are logged and left for the next run (the clock retries).
pub async fn deliver_sandbox_events(state: &AppState) {
    let Some(sandbox) = state.payments.sandbox.as_ref() else {
        return;
    };
    if let Err(err) = deliver_events(&state.db, &state.hooks, sandbox).await {
        tracing::error!(error = %err, "could not deliver the sandbox's payment events");
        return;
    }
    // A thing paid twice is refunded at once; the refund's own events
    // (subscription ended, charge refunded) are delivered with it.
    match super::refunds::settle_soon(state).await {
        Ok(_) => {
            if let Err(err) = deliver_events(&state.db, &state.hooks, sandbox).await {
                tracing::error!(error = %err, "could not deliver the sandbox's payment events");
            }
        }
        Err(err) => tracing::error!(error = %err, "could not settle the refunds owed"),
    }
}

/// Delivers `sandbox`'s pending events through fulfilment; how many.
pub async fn deliver_events(
    db: &DatabaseConnection,
    hooks: &AppHooks,
    sandbox: &Sandbox,
) -> anyhow::Result<usize> {
    let pending = sandbox.pending_events().await?;
    for event in &pending {
        let parsed: Event = serde_json::from_value(event.payload.clone())?;
        fulfil(db, hooks, "sandbox", &parsed).await?;
        sandbox.mark_delivered(&event.event_id).await?;
    }
    Ok(pending.len())
}

/// Starts the sandbox's clock on this instance: every
/// `payments.sandbox_renewal_interval_secs`, subscriptions whose month is
/// over renew (or end, when cancelled at period end), and any undelivered
/// events are delivered. Nothing runs with the Stripe provider.
pub fn spawn_sandbox_clock(state: AppState) {
    if state.payments.sandbox.is_none() {
        return;
    }
    let every = Duration::from_secs(state.config.payments.sandbox_renewal_interval_secs.max(1));
    tokio::spawn(async move {
        let mut ticks = tokio::time::interval(every);
        loop {
            ticks.tick().await;
            run_sandbox_clock(&state).await;
        }
    });
}

/// One tick of the sandbox's clock (also what tests call).
pub async fn run_sandbox_clock(state: &AppState) {
    let Some(sandbox) = state.payments.sandbox.as_ref() else {
        return;
    };
    if let Err(err) = sandbox.renew_due(Utc::now()).await {
        tracing::error!(error = %err, "the sandbox could not renew subscriptions");
    }
    deliver_sandbox_events(state).await;
}

fn not_found() -> ApiError {
    ApiError::not_found("We couldn't find this checkout.")
}

/// The sandbox and the caller's own checkout `id`; anything else is 404.
async fn own_session<'s>(
    state: &'s AppState,
    user: &AuthUser,
    id: &str,
) -> Result<(&'s Sandbox, Value), ApiError> {
    let sandbox = state.payments.sandbox.as_deref().ok_or_else(not_found)?;
    checkout::Entity::find()
        .filter(checkout::Column::Provider.eq("sandbox"))
        .filter(checkout::Column::ProviderSessionId.eq(id))
        .filter(checkout::Column::UserId.eq(user.user_id))
        .one(&state.db)
        .await?
        .ok_or_else(not_found)?;
    let session = sandbox
        .session(id)
        .await
        .map_err(|err| provider_error(err, "The test checkout failed."))?
        .ok_or_else(not_found)?;
    Ok((sandbox, session))
}

fn field(session: &Value, name: &str) -> String {
    session[name].as_str().unwrap_or_default().to_owned()
}

fn closed(status: &str) -> ApiError {
    ApiError::conflict(
        ErrorCode::CheckoutClosed,
        if status == "complete" {
            "This checkout has been paid already."
        } else {
            "This checkout was cancelled. Please start again."
        },
    )
}

/// A sandbox checkout: what is bought, the amount and its state. The
/// caller's own checkouts only.
#[utoipa::path(get, path = "/billing/sandbox/{id}", tag = "billing",
    params(("id" = String, Path, description = "The sandbox checkout session id (cs_sandbox_…)")),
    responses(
        (status = 200, description = "The checkout", body = SandboxCheckout),
        SignedInErrors,
        (status = 404, description = "No such checkout of the caller's, or the sandbox is off", body = ErrorBody),
    ),
    security(("bearer" = [])))]
pub async fn sandbox_checkout(
    State(state): State<AppState>,
    user: AuthUser,
    Path(id): Path<String>,
) -> Result<Json<SandboxCheckout>, ApiError> {
    let (_, session) = own_session(&state, &user, &id).await?;
    let mode = match (session["mode"].as_str(), session["capture_method"].as_str()) {
        (Some("subscription"), _) => "subscription",
        (_, Some("manual")) => "hold",
        _ => "payment",
    };
    let amount_cents = session["amount_total"].as_i64().unwrap_or_default();
    let renewal_cents = session["amount_subtotal"]
        .as_i64()
        .filter(|full| mode == "subscription" && *full != amount_cents);
    Ok(Json(SandboxCheckout {
        id,
        description: field(&session, "description"),
        amount_cents,
        renewal_cents,
        currency: field(&session, "currency"),
        mode: mode.to_owned(),
        status: field(&session, "status"),
        success_url: field(&session, "success_url"),
        cancel_url: field(&session, "cancel_url"),
        notice: TEST_NOTICE.to_owned(),
    }))
}

/// Pay with the test card. The sandbox emits the events Stripe would
/// (`checkout.session.completed`, then the subscription's, invoice's or
/// PaymentIntent's), and fulfilment grants from them.
#[utoipa::path(post, path = "/billing/sandbox/{id}/pay", tag = "billing",
    params(("id" = String, Path, description = "The sandbox checkout session id")),
    responses(
        (status = 200, description = "Paid; go to `redirectUrl`", body = SandboxResult),
        SignedInErrors,
        (status = 404, description = "No such checkout of the caller's", body = ErrorBody),
        (status = 409, description = "`checkout_closed`: paid or cancelled before", body = ErrorBody),
    ),
    security(("bearer" = [])))]
pub async fn sandbox_pay(
    State(state): State<AppState>,
    user: AuthUser,
    Path(id): Path<String>,
) -> Result<Json<SandboxResult>, ApiError> {
    let (sandbox, session) = own_session(&state, &user, &id).await?;
    let outcome = sandbox
        .pay(&id)
        .await
        .map_err(|err| provider_error(err, "The test payment failed. Please try again."))?;
    deliver_sandbox_events(&state).await;
    match outcome {
        PayOutcome::Paid => Ok(Json(SandboxResult {
            status: "complete".to_owned(),
            redirect_url: field(&session, "success_url"),
        })),
        PayOutcome::NotOpen(status) => Err(closed(&status)),
    }
}

/// Pay with a test card that is declined: the attempt is recorded as a
/// failed payment, nothing is granted, and the checkout stays open.
#[utoipa::path(post, path = "/billing/sandbox/{id}/decline", tag = "billing",
    params(("id" = String, Path, description = "The sandbox checkout session id")),
    responses(
        (status = 402, description = "`card_declined`: nothing charged or granted; the checkout stays open", body = ErrorBody),
        SignedInErrors,
        (status = 404, description = "No such checkout of the caller's", body = ErrorBody),
        (status = 409, description = "`checkout_closed`", body = ErrorBody),
    ),
    security(("bearer" = [])))]
pub async fn sandbox_decline(
    State(state): State<AppState>,
    user: AuthUser,
    Path(id): Path<String>,
) -> Result<Json<SandboxResult>, ApiError> {
    let (sandbox, _) = own_session(&state, &user, &id).await?;
    let outcome = sandbox
        .decline(&id)
        .await
        .map_err(|err| provider_error(err, "The test payment failed. Please try again."))?;
    deliver_sandbox_events(&state).await;
    match outcome {
        PayOutcome::Paid => Err(ApiError::new(
            StatusCode::PAYMENT_REQUIRED,
            ErrorCode::CardDeclined,
            DECLINED,
        )),
        PayOutcome::NotOpen(status) => Err(closed(&status)),
    }
}

/// Cancel: the checkout expires (`checkout.session.expired`) and the buyer
/// goes back.
#[utoipa::path(post, path = "/billing/sandbox/{id}/cancel", tag = "billing",
    params(("id" = String, Path, description = "The sandbox checkout session id")),
    responses(
        (status = 200, description = "Cancelled; go to `redirectUrl`", body = SandboxResult),
        SignedInErrors,
        (status = 404, description = "No such checkout of the caller's", body = ErrorBody),
        (status = 409, description = "`checkout_closed`", body = ErrorBody),
    ),
    security(("bearer" = [])))]
pub async fn sandbox_cancel(
    State(state): State<AppState>,
    user: AuthUser,
    Path(id): Path<String>,
) -> Result<Json<SandboxResult>, ApiError> {
    let (sandbox, session) = own_session(&state, &user, &id).await?;
    let outcome = sandbox
        .cancel(&id)
        .await
        .map_err(|err| provider_error(err, "The test checkout failed. Please try again."))?;
    deliver_sandbox_events(&state).await;
    match outcome {
        PayOutcome::Paid => Ok(Json(SandboxResult {
            status: "expired".to_owned(),
            redirect_url: field(&session, "cancel_url"),
        })),
        PayOutcome::NotOpen(status) => Err(closed(&status)),
    }
}
