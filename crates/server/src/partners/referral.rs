//! Referral links: `/r/{code}` calls `track-referral`, which counts one
//! click per visitor and day for an approved partner's code and gives the
//! browser the `affiliate_code` cookie for 60 days. First touch wins: a live
//! cookie is never replaced by a later link. At sign-up, [`attribute`] sets
//! `profiles.referred_by_partner` once from that cookie, refusing a partner's
//! own account and their own address.

use axum::extract::State;
use axum::http::HeaderMap;
use axum::response::{IntoResponse, Response};
use chrono::Utc;
use sea_orm::sea_query::{Expr, OnConflict};
use sea_orm::{
    ColumnTrait, ConnectionTrait, DbErr, EntityTrait, QueryFilter, Set, TransactionTrait,
};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;
use uuid::Uuid;

use super::entity::{account, click};
use super::ledger::{self, APPROVED};
use super::rules::{self, REFERRAL_COOKIE_DAYS};
use crate::db::entities::{profiles, users};
use crate::http::AppState;
use crate::http::cookies::{self, REFERRAL};
use crate::http::error::{ApiError, ErrorBody};
use crate::http::extract::{ClientInfo, Json};
use crate::http::hooks::SignUp;

#[derive(Debug, Deserialize, ToSchema)]
pub struct TrackReferralRequest {
    /// The partner's short code from the link.
    pub code: String,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct TrackReferralResponse {
    /// Whether the code is an approved partner's (only then is the cookie set).
    pub success: bool,
}

/// The approved partner whose short code `raw` is.
async fn approved_by_code(
    db: &impl ConnectionTrait,
    raw: &str,
) -> Result<Option<account::Model>, DbErr> {
    let code = rules::normalise_code(raw);
    if code.len() < 3 {
        return Ok(None);
    }
    Ok(account::Entity::find()
        .filter(account::Column::Code.eq(code))
        .filter(account::Column::Status.eq(APPROVED))
        .one(db)
        .await?)
}

/// Counts a click on a partner's referral link, at most once per visitor
/// (address network and browser) per day, and sets the referral cookie
/// unless the browser carries a live one.
#[utoipa::path(post, path = "/track-referral", tag = "partners",
    request_body = TrackReferralRequest,
    responses(
        (status = 200, description = "`success` false for an unknown, pending or suspended code (no cookie)", body = TrackReferralResponse),
        (status = 422, description = "`validation_failed`", body = ErrorBody),
    ))]
pub async fn track_referral(
    State(state): State<AppState>,
    client: ClientInfo,
    headers: HeaderMap,
    Json(body): Json<TrackReferralRequest>,
) -> Result<Response, ApiError> {
    let Some(partner) = approved_by_code(&state.db, &body.code).await? else {
        return Ok(Json(TrackReferralResponse { success: false }).into_response());
    };
    let today = Utc::now().date_naive();
    let visitor = state.keys.sign_media(
        &format!(
            "partner-click:{}:{}:{}:{}",
            partner.id,
            today,
            client.rate_key(),
            client.user_agent.as_deref().unwrap_or_default()
        ),
        0,
    );
    let txn = state.db.begin().await?;
    let counted = click::Entity::insert(click::ActiveModel {
        id: Set(Uuid::now_v7()),
        partner_id: Set(partner.id),
        visitor: Set(visitor),
        day: Set(today),
        created_at: Set(Utc::now()),
    })
    .on_conflict(
        OnConflict::columns([
            click::Column::PartnerId,
            click::Column::Visitor,
            click::Column::Day,
        ])
        .do_nothing()
        .to_owned(),
    )
    .exec_without_returning(&txn)
    .await?;
    if counted > 0 {
        ledger::refresh_totals(&txn, partner.id).await?;
    }
    txn.commit().await?;

    let mut response = Json(TrackReferralResponse { success: true }).into_response();
    if cookies::read(&headers, REFERRAL).is_none() {
        cookies::set(
            &state,
            response.headers_mut(),
            REFERRAL,
            &partner.code,
            REFERRAL_COOKIE_DAYS * 24 * 3600,
        );
    }
    Ok(response)
}

/// Credits a new account to the partner whose code the browser carried:
/// once (only while `referred_by_partner` is empty), an approved partner
/// only, and never the partner themself (their account, or an address that
/// is theirs written another way).
pub async fn attribute(db: &impl ConnectionTrait, sign_up: &SignUp<'_>) -> Result<(), DbErr> {
    let Some(code) = sign_up.referral_code else {
        return Ok(());
    };
    let Some(partner) = approved_by_code(db, code).await? else {
        return Ok(());
    };
    if partner.user_id == sign_up.user_id {
        return Ok(());
    }
    if let Some(email) = sign_up.email {
        let owner = users::Entity::find_by_id(partner.user_id).one(db).await?;
        if owner
            .and_then(|owner| owner.email)
            .is_some_and(|own| rules::comparable_email(&own) == rules::comparable_email(email))
        {
            return Ok(());
        }
    }
    profiles::Entity::update_many()
        .col_expr(profiles::Column::ReferredByPartner, Expr::value(partner.id))
        .col_expr(profiles::Column::UpdatedAt, Expr::value(Utc::now()))
        .filter(profiles::Column::Id.eq(sign_up.user_id))
        .filter(profiles::Column::ReferredByPartner.is_null())
        .exec(db)
        .await?;
    Ok(())
}
