//! Releasing holds nobody answered: a paid request still pending 7 days
//! after its hold is denied and its hold released, and a denied request
//! whose release failed earlier is released again. Safe on any number of
//! instances: a request is claimed by one conditional UPDATE (pending →
//! denied), and a hold already released is no longer `held` once the
//! provider's event says so (a denied request still held an hour later is
//! released again).

use std::time::Duration;

use chrono::{DateTime, Utc};
use sea_orm::{DbErr, EntityTrait};

use super::{Status, claim, entity, release_hold, tell_requester};
use crate::billing::holds;
use crate::http::AppState;

/// A denied request still held this long after the denial is released again.
const RETRY_AFTER: chrono::Duration = chrono::Duration::hours(1);

/// How often each instance looks for expired holds.
const EVERY: Duration = Duration::from_secs(600);

/// Releases every hold that `now` finds expired (or left after a failed
/// release); how many requests it released.
pub async fn release_expired(state: &AppState, now: DateTime<Utc>) -> Result<usize, DbErr> {
    let mut released = 0;
    for hold in holds::held(&state.db, None).await? {
        let id = hold.reference;
        let Some(request) = entity::Entity::find_by_id(id).one(&state.db).await? else {
            continue;
        };
        let expired = now >= super::rules::hold_expires_at(hold.placed_at);
        let release = match Status::parse(&request.status) {
            Some(Status::Pending) if expired => {
                let claimed = claim(&state.db, id, false, Status::Denied).await?;
                if claimed {
                    tell_requester(state, &request, "not answered within 7 days").await;
                }
                claimed
            }
            // Released before, but the provider's event has not said so an
            // hour later: the release failed or was lost; try again.
            Some(Status::Denied) => request.updated_at <= now - RETRY_AFTER,
            _ => false,
        };
        if release {
            release_hold(state, id).await?;
            released += 1;
        }
    }
    Ok(released)
}

/// Runs [`super::mail::remind_expiring`], [`holds::release_strays`] and
/// [`release_expired`] every 10 minutes for as long as the server runs.
pub fn spawn_hold_expiry(state: AppState) {
    tokio::spawn(async move {
        let mut ticks = tokio::time::interval(EVERY);
        ticks.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        loop {
            ticks.tick().await;
            match super::mail::remind_expiring(&state, Utc::now()).await {
                Ok(0) => {}
                Ok(count) => tracing::info!(count, "reminded contestants of expiring requests"),
                Err(err) => tracing::warn!(error = %err, "the contact reminder failed"),
            }
            // A hold that is not its request's payment (a crash between two
            // steps) is given back.
            match holds::release_strays(&state).await {
                Ok(0) => {}
                Ok(count) => tracing::warn!(count, "released stray contact holds"),
                Err(err) => tracing::warn!(error = %err, "the stray hold sweep failed"),
            }
            match release_expired(&state, Utc::now()).await {
                Ok(0) => {}
                Ok(count) => tracing::info!(count, "released unanswered contact holds"),
                Err(err) => tracing::warn!(error = %err, "the contact hold expiry failed"),
            }
        }
    });
}
