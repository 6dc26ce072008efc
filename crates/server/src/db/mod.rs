//! The database: SQLite by default, PostgreSQL in production, one query layer
//! (sea-orm) and one set of migrations for both.

pub mod constraints;
pub mod entities;
pub mod migration;

use std::time::Duration;

use sea_orm::{
    ConnectOptions, ConnectionTrait, Database, DatabaseBackend, DatabaseConnection, DbErr,
};
use sea_orm_migration::MigratorTrait;

use migration::Migrator;

/// Connects to the database the URL names (`sqlite://…` or `postgres://…`).
pub async fn connect(url: &str) -> Result<DatabaseConnection, DbErr> {
    let mut options = ConnectOptions::new(url.to_owned());
    options
        .max_connections(16)
        .connect_timeout(Duration::from_secs(10))
        .acquire_timeout(Duration::from_secs(10))
        .sqlx_logging(false);
    let db = Database::connect(options).await?;
    if db.get_database_backend() == DatabaseBackend::Sqlite {
        // WAL lets readers proceed while a writer commits; the pool keeps
        // several connections open, so this matters for concurrent requests.
        db.execute_unprepared("PRAGMA journal_mode = WAL").await?;
    }
    Ok(db)
}

/// Applies every migration that has not run yet; a no-op when up to date.
pub async fn migrate(db: &DatabaseConnection) -> Result<(), DbErr> {
    Migrator::up(db, None).await
}

/// How many migrations are known and how many are applied.
pub async fn migration_status(db: &DatabaseConnection) -> Result<(usize, usize), DbErr> {
    let known = Migrator::migrations().len();
    let applied = Migrator::get_applied_migrations(db).await?.len();
    Ok((known, applied))
}

/// Whether the database answers; used by `/readyz`.
pub async fn ping(db: &DatabaseConnection) -> Result<(), DbErr> {
    db.ping().await
}
