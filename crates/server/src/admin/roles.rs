//! Granting and revoking the admin role. Used by `prettyscore admin grant|revoke`;
//! the `AdminUser` extractor (`http::extract`) checks the same rows.

use sea_orm::sea_query::{Alias, Expr, ExprTrait, Func, OnConflict, Query};
use sea_orm::{ConnectionTrait, DbErr};
use uuid::Uuid;

use crate::http::extract::ADMIN_ROLE;

#[derive(Debug, thiserror::Error)]
pub enum RoleError {
    #[error("no user has the email address {0}; they must sign up first")]
    UnknownUser(String),
    #[error(transparent)]
    Database(#[from] DbErr),
}

/// What a grant or revoke changed, so the command can say so.
#[derive(Debug, PartialEq, Eq)]
pub enum RoleChange {
    Changed,
    AlreadySo,
}

pub async fn grant_admin(db: &impl ConnectionTrait, email: &str) -> Result<RoleChange, RoleError> {
    let user_id = user_id_by_email(db, email).await?;
    let insert = Query::insert()
        .into_table(Alias::new("user_roles"))
        .columns([Alias::new("id"), Alias::new("user_id"), Alias::new("role")])
        .values_panic([Uuid::new_v4().into(), user_id.into(), ADMIN_ROLE.into()])
        .on_conflict(
            OnConflict::columns([Alias::new("user_id"), Alias::new("role")])
                .do_nothing()
                .to_owned(),
        )
        .to_owned();
    let result = db.execute(&insert).await?;
    Ok(change(result.rows_affected()))
}

pub async fn revoke_admin(db: &impl ConnectionTrait, email: &str) -> Result<RoleChange, RoleError> {
    let user_id = user_id_by_email(db, email).await?;
    let delete = Query::delete()
        .from_table(Alias::new("user_roles"))
        .and_where(Expr::col(Alias::new("user_id")).eq(user_id))
        .and_where(Expr::col(Alias::new("role")).eq(ADMIN_ROLE))
        .to_owned();
    let result = db.execute(&delete).await?;
    Ok(change(result.rows_affected()))
}

async fn user_id_by_email(db: &impl ConnectionTrait, email: &str) -> Result<Uuid, RoleError> {
    let email = email.trim().to_lowercase();
    let select = Query::select()
        .column(Alias::new("id"))
        .from(Alias::new("users"))
        .and_where(Expr::expr(Func::lower(Expr::col(Alias::new("email")))).eq(email.as_str()))
        .to_owned();
    match db.query_one(&select).await? {
        Some(row) => Ok(row.try_get::<Uuid>("", "id")?),
        None => Err(RoleError::UnknownUser(email)),
    }
}

fn change(rows_affected: u64) -> RoleChange {
    if rows_affected > 0 {
        RoleChange::Changed
    } else {
        RoleChange::AlreadySo
    }
}
