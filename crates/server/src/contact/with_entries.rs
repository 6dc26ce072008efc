//! What the Contact button of a leaderboard entry does for the caller: start
//! a new request, say the paid one is waiting, or open the chat. One entry
//! (the Contact dialog) or a page of them at once (the leaderboard's
//! buttons, which read "Open chat" for a chat already open: issue 44). The
//! leaderboard's pages are shared by every reader, so what concerns the
//! caller comes from here, not from them.

use std::collections::HashMap;

use axum::extract::State;
use chrono::{DateTime, Utc};
use sea_orm::{ColumnTrait, ConnectionTrait, DbErr, EntityTrait, QueryFilter, QueryOrder};
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};
use uuid::Uuid;

use super::{Status, entity, held_at, rules};
use crate::http::AppState;
use crate::http::error::{ApiError, CommunityErrors, ErrorBody, ErrorCode, SignedInErrors};
use crate::http::extract::{CommunityMember, Json, Path, Query};
use crate::photos::entity as photos;

/// The most entries one call asks about: a leaderboard page's largest size.
pub const MAX_ENTRIES: usize = 100;

/// What the Contact button of a leaderboard entry does for the caller.
#[derive(Debug, Clone, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct EntryContact {
    /// `none` (a new request can be sent, or an unpaid one paid), `waiting`
    /// (a paid request waits for the contestant's answer) or `chatting`
    /// (approved: the conversation is open).
    pub state: String,
    /// The open request, for `waiting` and `chatting` (the conversation's id).
    #[schema(required = true)]
    pub request_id: Option<Uuid>,
    /// For `waiting`: when the hold is released if unanswered.
    #[schema(required = true)]
    pub expires_at: Option<DateTime<Utc>>,
}

impl EntryContact {
    fn none() -> Self {
        Self {
            state: "none".to_owned(),
            request_id: None,
            expires_at: None,
        }
    }
}

/// [`EntryContact`] for one entry of a page.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct EntryContactOf {
    /// The leaderboard entry (a photo).
    pub photo_id: Uuid,
    /// `none`, `waiting` or `chatting`, as for one entry.
    pub state: String,
    #[schema(required = true)]
    pub request_id: Option<Uuid>,
    #[schema(required = true)]
    pub expires_at: Option<DateTime<Utc>>,
}

/// For each of `entries`, what Contact does for `requester`. Requests are
/// between two people, not a person and a photo: every entry of a
/// contestant the requester is chatting with (or waiting on) says so.
async fn contacts_of(
    db: &impl ConnectionTrait,
    requester: Uuid,
    entries: &[photos::Model],
) -> Result<HashMap<Uuid, EntryContact>, DbErr> {
    let owners: Vec<Uuid> = entries.iter().map(|photo| photo.user_id).collect();
    let mut by_owner: HashMap<Uuid, EntryContact> = HashMap::new();
    if owners.is_empty() {
        return Ok(HashMap::new());
    }
    let open = entity::Entity::find()
        .filter(entity::Column::RequesterId.eq(requester))
        .filter(entity::Column::ContestantId.is_in(owners))
        .filter(entity::Column::Status.is_in([Status::Approved, Status::Pending]))
        .order_by_desc(entity::Column::CreatedAt)
        .all(db)
        .await?;
    // An open chat (approved, not closed) first, as `create` refuses a new
    // request on it; the newest if ever there were two.
    for row in open
        .iter()
        .filter(|row| row.status == Status::Approved && row.closed_at.is_none())
    {
        by_owner
            .entry(row.contestant_id)
            .or_insert_with(|| EntryContact {
                state: "chatting".to_owned(),
                request_id: Some(row.id),
                expires_at: None,
            });
    }
    for row in open
        .iter()
        .filter(|row| row.status == Status::Pending && row.payment_status == "paid")
    {
        if by_owner.contains_key(&row.contestant_id) {
            continue;
        }
        let expires_at = held_at(db, row.id).await?.map(rules::hold_expires_at);
        by_owner.insert(
            row.contestant_id,
            EntryContact {
                state: "waiting".to_owned(),
                request_id: Some(row.id),
                expires_at,
            },
        );
    }
    Ok(entries
        .iter()
        .map(|photo| {
            let contact = by_owner
                .get(&photo.user_id)
                .cloned()
                .unwrap_or_else(EntryContact::none);
            (photo.id, contact)
        })
        .collect())
}

/// The caller's open request to the contestant of a leaderboard entry:
/// whether Contact starts a new request, says the request is waiting, or
/// opens the existing chat.
#[utoipa::path(get, path = "/contact-requests/with/{photo_id}", tag = "contact",
    params(("photo_id" = Uuid, Path, description = "The leaderboard entry (a photo)")),
    responses(
        CommunityErrors,
        (status = 200, description = "What Contact does for the caller", body = EntryContact),
        SignedInErrors,
        (status = 404, description = "`not_found`: no such entry", body = ErrorBody),
    ),
    security(("bearer" = [])))]
pub async fn request_with_entry(
    State(state): State<AppState>,
    CommunityMember(user): CommunityMember,
    Path(photo_id): Path<Uuid>,
) -> Result<Json<EntryContact>, ApiError> {
    let photo = photos::Entity::find_by_id(photo_id)
        .one(&state.db)
        .await?
        .ok_or_else(|| ApiError::not_found("This entry is not on the leaderboard"))?;
    let mut contacts = contacts_of(&state.db, user.user_id, std::slice::from_ref(&photo)).await?;
    Ok(Json(
        contacts
            .remove(&photo.id)
            .unwrap_or_else(EntryContact::none),
    ))
}

#[derive(Debug, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
#[serde(rename_all = "camelCase")]
pub struct EntriesQuery {
    /// The entries' photo ids, separated by commas (at most 100).
    pub photo_ids: String,
}

/// `photo_ids` as ids: at least one, at most [`MAX_ENTRIES`], each a UUID.
fn parse_ids(photo_ids: &str) -> Result<Vec<Uuid>, ApiError> {
    let invalid =
        |message: &str| ApiError::bad_request(ErrorCode::InvalidQuery, message.to_owned());
    let ids = photo_ids
        .split(',')
        .map(str::trim)
        .filter(|id| !id.is_empty())
        .map(|id| {
            Uuid::parse_str(id)
                .map_err(|_| invalid("photoIds must be entry ids separated by commas"))
        })
        .collect::<Result<Vec<_>, _>>()?;
    if ids.is_empty() {
        return Err(invalid("photoIds must name at least one entry"));
    }
    if ids.len() > MAX_ENTRIES {
        return Err(invalid("photoIds may name at most 100 entries"));
    }
    Ok(ids)
}

/// What Contact does for the caller on each of a page's entries, in the
/// order asked; an id that is no entry is left out.
#[utoipa::path(get, path = "/contact-requests/with", tag = "contact",
    params(EntriesQuery),
    responses(
        CommunityErrors,
        (status = 200, description = "What Contact does on each entry", body = Vec<EntryContactOf>),
        (status = 400, description = "`invalid_query`: no ids, more than 100, or one that is no id", body = ErrorBody),
        SignedInErrors,
    ),
    security(("bearer" = [])))]
pub async fn requests_with_entries(
    State(state): State<AppState>,
    CommunityMember(user): CommunityMember,
    Query(query): Query<EntriesQuery>,
) -> Result<Json<Vec<EntryContactOf>>, ApiError> {
    let ids = parse_ids(&query.photo_ids)?;
    let entries = photos::Entity::find()
        .filter(photos::Column::Id.is_in(ids.clone()))
        .all(&state.db)
        .await?;
    let mut contacts = contacts_of(&state.db, user.user_id, &entries).await?;
    Ok(Json(
        ids.into_iter()
            .filter_map(|id| {
                contacts.remove(&id).map(|contact| EntryContactOf {
                    photo_id: id,
                    state: contact.state,
                    request_id: contact.request_id,
                    expires_at: contact.expires_at,
                })
            })
            .collect(),
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_are_read_from_a_comma_separated_list() {
        let a = Uuid::new_v4();
        let b = Uuid::new_v4();
        assert_eq!(parse_ids(&format!("{a}, {b},")).unwrap(), vec![a, b]);
        assert!(parse_ids("").is_err());
        assert!(parse_ids("not-an-id").is_err());
        let many = vec![a.to_string(); MAX_ENTRIES + 1].join(",");
        assert!(parse_ids(&many).is_err());
        let most = vec![a.to_string(); MAX_ENTRIES].join(",");
        assert_eq!(parse_ids(&most).unwrap().len(), MAX_ENTRIES);
    }
}
