//! Fixed-window rate limits counted in the `rate_limit_buckets` table, so every
//! server instance shares them. Counting is one atomic upsert on both
//! databases.

use chrono::{DateTime, TimeZone, Utc};
use sea_orm::sea_query::{Alias, Expr, ExprTrait, OnConflict, Query};
use sea_orm::{ConnectionTrait, DatabaseConnection, DbErr};

/// Counts one hit of `key` in the current window of `window_secs` seconds and
/// returns the window's count so far, this hit included.
pub async fn count_hit(db: &DatabaseConnection, key: &str, window_secs: i64) -> Result<i64, DbErr> {
    let now = Utc::now().timestamp();
    let start: DateTime<Utc> = Utc
        .timestamp_opt(now - now.rem_euclid(window_secs), 0)
        .single()
        .unwrap_or_else(Utc::now);
    let table = Alias::new("rate_limit_buckets");
    let count = Alias::new("count");
    let upsert = Query::insert()
        .into_table(table.clone())
        .columns([Alias::new("key"), Alias::new("window_start"), count.clone()])
        .values_panic([key.into(), start.into(), 1.into()])
        .on_conflict(
            OnConflict::columns([Alias::new("key"), Alias::new("window_start")])
                .value(
                    count.clone(),
                    Expr::col((table.clone(), count.clone())).add(1),
                )
                .to_owned(),
        )
        .returning_col(count)
        .to_owned();
    let row = db
        .query_one(&upsert)
        .await?
        .ok_or_else(|| DbErr::RecordNotFound("the rate-limit upsert returned no row".into()))?;
    let value: i32 = row.try_get("", "count")?;
    // Now and then, drop windows that ended long ago.
    if rand::random::<u8>() == 0 {
        let purge = Query::delete()
            .from_table(table)
            .and_where(
                Expr::col(Alias::new("window_start")).lt(Utc::now() - chrono::Duration::days(1)),
            )
            .to_owned();
        let _ = db.execute(&purge).await;
    }
    Ok(i64::from(value))
}
