//! Fixed-window rate limits counted in the `rate_limit_buckets` table, so every
//! server instance shares them. Counting is one atomic upsert on both
//! databases.

use chrono::{DateTime, TimeZone, Utc};
use sea_orm::sea_query::{Alias, Expr, ExprTrait, OnConflict, Order, Query};
use sea_orm::{ConnectionTrait, DatabaseConnection, DbErr};

/// Seconds until the current window of `window_secs` ends (for `Retry-After`).
pub fn window_remaining_secs(window_secs: i64) -> u64 {
    let now = Utc::now().timestamp();
    std::cmp::max(window_secs - now.rem_euclid(window_secs), 1) as u64
}

/// Counts one hit of `key` in the current window of `window_secs` seconds and
/// returns the window's count so far, this hit included.
pub async fn count_hit(db: &DatabaseConnection, key: &str, window_secs: i64) -> Result<i64, DbErr> {
    count_amount(db, key, window_secs, 1).await
}

/// [`count_hit`] for `amount` at once (bytes in KiB, say).
pub async fn count_amount(
    db: &DatabaseConnection,
    key: &str,
    window_secs: i64,
    amount: i32,
) -> Result<i64, DbErr> {
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
        .values_panic([key.into(), start.into(), amount.into()])
        .on_conflict(
            OnConflict::columns([Alias::new("key"), Alias::new("window_start")])
                .value(
                    count.clone(),
                    Expr::col((table.clone(), count.clone())).add(amount),
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

/// Whether this caller is the first, of every instance, to ask for `key` in
/// the current window of `window_secs` seconds: a periodic job that must run
/// once per window runs where this says true.
pub async fn first_in_window(
    db: &DatabaseConnection,
    key: &str,
    window_secs: i64,
) -> Result<bool, DbErr> {
    Ok(count_hit(db, key, window_secs).await? == 1)
}

/// The hits of `key` in the current window of `window_secs` seconds, without
/// counting one.
pub async fn current_count(
    db: &DatabaseConnection,
    key: &str,
    window_secs: i64,
) -> Result<i64, DbErr> {
    let now = Utc::now().timestamp();
    let start: DateTime<Utc> = Utc
        .timestamp_opt(now - now.rem_euclid(window_secs), 0)
        .single()
        .unwrap_or_else(Utc::now);
    let select = Query::select()
        .column(Alias::new("count"))
        .from(Alias::new("rate_limit_buckets"))
        .and_where(Expr::col(Alias::new("key")).eq(key))
        .and_where(Expr::col(Alias::new("window_start")).eq(start))
        .to_owned();
    match db.query_one(&select).await? {
        Some(row) => Ok(i64::from(row.try_get::<i32>("", "count")?)),
        None => Ok(0),
    }
}

/// A minimum gap between two events of `key` (say, two mails to one
/// address): records this one and returns `None` when the last one is at
/// least `gap_secs` old, else the seconds still to wait (and records nothing).
/// Each event is a row `(key, its instant)` in `rate_limit_buckets`, so every
/// instance sees it; rows older than a day are purged by [`count_hit`].
pub async fn claim_gap(
    db: &DatabaseConnection,
    key: &str,
    gap_secs: i64,
) -> Result<Option<u64>, DbErr> {
    let now = Utc::now();
    let table = Alias::new("rate_limit_buckets");
    let window_start = Alias::new("window_start");
    let latest = Query::select()
        .column(window_start.clone())
        .from(table.clone())
        .and_where(Expr::col(Alias::new("key")).eq(key))
        .and_where(Expr::col(window_start.clone()).gt(now - chrono::Duration::seconds(gap_secs)))
        .order_by(window_start.clone(), Order::Desc)
        .limit(1)
        .to_owned();
    if let Some(row) = db.query_one(&latest).await? {
        let last: DateTime<Utc> = row.try_get("", "window_start")?;
        let waited = (now - last).num_seconds();
        return Ok(Some(std::cmp::max(gap_secs - waited, 1) as u64));
    }
    let insert = Query::insert()
        .into_table(table)
        .columns([Alias::new("key"), window_start, Alias::new("count")])
        .values_panic([key.into(), now.into(), 1.into()])
        .on_conflict(
            OnConflict::columns([Alias::new("key"), Alias::new("window_start")])
                .do_nothing()
                .to_owned(),
        )
        .to_owned();
    db.execute(&insert).await?;
    Ok(None)
}
