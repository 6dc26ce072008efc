//! Referral links: `/r/{code}` calls `track-referral`, which counts one
//! click per visitor and day (a few visitors per address at most, so a
//! script cannot inflate them) for an approved partner's code and gives the
//! browser the `affiliate_code` cookie for 60 days. First touch wins: a live
//! cookie is never replaced by a later link. At sign-up, [`attribute`] sets
//! `profiles.referred_by_partner` once from that cookie, refusing a partner's
//! own account and their own address.

use axum::extract::State;
use axum::http::HeaderMap;
use axum::response::{IntoResponse, Response};
use chrono::{NaiveDate, Utc};
use sea_orm::sea_query::{Expr, ExprTrait, OnConflict};
use sea_orm::{
    ColumnTrait, ConnectionTrait, DatabaseConnection, DbErr, EntityTrait, QueryFilter, Set,
    TransactionTrait,
};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;
use uuid::Uuid;

use super::entity::account::Status as PartnerStatus;
use super::entity::{account, click};
use super::ledger;
use super::rules::{self, REFERRAL_COOKIE_DAYS, TOO_MANY_CLICKS};
use crate::db::entities::profiles;
use crate::http::AppState;
use crate::http::cookies::{self, REFERRAL};
use crate::http::error::{ApiError, ErrorBody};
use crate::http::extract::{ClientInfo, Json};
use crate::http::hooks::SignUp;
use crate::http::rate_limit;

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
    account::Entity::find()
        .filter(account::Column::Code.eq(code))
        .filter(account::Column::Status.eq(PartnerStatus::Approved))
        .one(db)
        .await
}

/// Counts a click on a partner's referral link, at most once per visitor
/// (address network and browser) per day and for at most
/// `partners.visitors_per_address_per_day` visitors of one address, and sets
/// the referral cookie unless the browser carries a live one. One address may
/// send `partners.clicks_per_client_per_minute` clicks a minute.
#[utoipa::path(post, path = "/track-referral", tag = "partners",
    request_body = TrackReferralRequest,
    responses(
        (status = 200, description = "`success` false for an unknown, pending or suspended code (no cookie)", body = TrackReferralResponse),
        (status = 422, description = "`validation_failed`", body = ErrorBody),
        (status = 429, description = "`rate_limited`: too many clicks from this address; `Retry-After` says when to try again", body = ErrorBody),
    ))]
pub async fn track_referral(
    State(state): State<AppState>,
    client: ClientInfo,
    headers: HeaderMap,
    Json(body): Json<TrackReferralRequest>,
) -> Result<Response, ApiError> {
    let limits = &state.config.partners;
    let address = client.rate_key();
    rate_limit::enforce(
        &state.db,
        &format!("referral:{address}"),
        60,
        limits.clicks_per_client_per_minute,
        TOO_MANY_CLICKS,
    )
    .await?;
    let Some(partner) = approved_by_code(&state.db, &body.code).await? else {
        return Ok(Json(TrackReferralResponse { success: false }).into_response());
    };
    let today = Utc::now().date_naive();
    let visitor = state.keys.sign_media(
        &format!(
            "partner-click:{}:{}:{}:{}",
            partner.id,
            today,
            address,
            client.user_agent.as_deref().unwrap_or_default()
        ),
        0,
    );
    if is_new_visitor(&state, &partner, today, &visitor, &address).await? {
        count_click(&state.db, &partner, today, visitor).await?;
    }

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

/// Whether `visitor` has not clicked this partner's link today, and its
/// address has visitors left today (counted in the shared rate-limit table;
/// its day windows are UTC days, as `day` is).
async fn is_new_visitor(
    state: &AppState,
    partner: &account::Model,
    today: NaiveDate,
    visitor: &str,
    address: &str,
) -> Result<bool, DbErr> {
    let seen = click::Entity::find()
        .filter(click::Column::PartnerId.eq(partner.id))
        .filter(click::Column::Visitor.eq(visitor))
        .filter(click::Column::Day.eq(today))
        .one(&state.db)
        .await?
        .is_some();
    if seen {
        return Ok(false);
    }
    let key = format!("referral-visitors:{}:{address}", partner.id);
    let visitors = crate::rate_limit::count_hit(&state.db, &key, 24 * 3600).await?;
    Ok(visitors <= i64::from(state.config.partners.visitors_per_address_per_day))
}

/// Records the visitor's click and adds it to the partner's counter (a
/// counter, not a recount: the rows are only kept to recognise today's
/// visitors again, and older days are dropped now and then).
async fn count_click(
    db: &DatabaseConnection,
    partner: &account::Model,
    today: NaiveDate,
    visitor: String,
) -> Result<(), DbErr> {
    let txn = db.begin().await?;
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
        account::Entity::update_many()
            .col_expr(
                account::Column::TotalClicks,
                Expr::col(account::Column::TotalClicks).add(1),
            )
            .col_expr(account::Column::UpdatedAt, Expr::value(Utc::now()))
            .filter(account::Column::Id.eq(partner.id))
            .exec(&txn)
            .await?;
    }
    txn.commit().await?;
    if rand::random::<u8>() == 0 {
        click::Entity::delete_many()
            .filter(click::Column::Day.lt(today - chrono::Days::new(1)))
            .exec(db)
            .await?;
    }
    Ok(())
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
    if ledger::is_partner_themself(db, &partner, sign_up.user_id).await? {
        return Ok(());
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
