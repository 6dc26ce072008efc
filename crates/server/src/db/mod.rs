//! The database: SQLite by default, PostgreSQL in production, one query layer
//! (sea-orm) and one set of migrations for both.

pub mod constraints;
pub mod entities;
pub mod migration;
pub mod notify;

use std::time::Duration;

use sea_orm::{
    ConnectOptions, ConnectionTrait, Database, DatabaseBackend, DatabaseConnection, DbErr,
};
use sea_orm_migration::MigratorTrait;

use migration::Migrator;

const SQLITE_CONNECTIONS: u32 = 4;

/// Connects to the database the URL names (`sqlite://…` or `postgres://…`).
pub async fn connect(url: &str) -> Result<DatabaseConnection, DbErr> {
    let mut options = ConnectOptions::new(url.to_owned());
    options
        // SQLite runs each connection on a thread of its own and writes one
        // at a time: past a few connections, a 2-core machine only switches
        // between them (16 -> 4 took a signed-in list from 2.4k to 3.4k
        // requests/s, scripts/load-signed-in.sh) and each keeps a page cache.
        .max_connections(if url.starts_with("sqlite") {
            SQLITE_CONNECTIONS
        } else {
            16
        })
        .connect_timeout(Duration::from_secs(10))
        .acquire_timeout(Duration::from_secs(10))
        // A ping on every acquire is a round trip per query (on SQLite a hop
        // to the connection's worker thread, on PostgreSQL a network one);
        // only a connection idle long enough to have been dropped is tested.
        .test_before_acquire_if_idle_for(Duration::from_secs(30))
        .sqlx_logging(false);
    let sqlite_file = sqlite_path(url);
    if let Some(path) = &sqlite_file {
        make_private_file(path, true).map_err(|err| DbErr::Custom(err.to_string()))?;
    }
    let db = Database::connect(options).await?;
    if db.get_database_backend() == DatabaseBackend::Sqlite {
        // WAL lets readers proceed while a writer commits; the pool keeps
        // several connections open, so this matters for concurrent requests.
        db.execute_unprepared("PRAGMA journal_mode = WAL").await?;
    }
    if let Some(path) = &sqlite_file {
        // SQLite gives the WAL and shared-memory files the database's mode;
        // ones left by an older version are made private here.
        for suffix in ["-wal", "-shm", "-journal"] {
            let mut side = path.clone().into_os_string();
            side.push(suffix);
            make_private_file(std::path::Path::new(&side), false)
                .map_err(|err| DbErr::Custom(err.to_string()))?;
        }
    }
    Ok(db)
}

/// The file of an on-disk SQLite URL (`sqlite://path?mode=rwc`, `sqlite:path`);
/// `None` for PostgreSQL and in-memory databases.
pub fn sqlite_path(url: &str) -> Option<std::path::PathBuf> {
    let rest = url.strip_prefix("sqlite:")?;
    let rest = rest.strip_prefix("//").unwrap_or(rest);
    let (path, query) = rest.split_once('?').unwrap_or((rest, ""));
    if path.is_empty() || path == ":memory:" || query.split('&').any(|kv| kv == "mode=memory") {
        return None;
    }
    Some(std::path::PathBuf::from(path))
}

/// Makes a file readable and writable by the server's user only (0600 on
/// Unix): the database holds the signing keys and the password hashes.
/// `create`: create it (empty, which SQLite takes as a new database) when it
/// does not exist; otherwise a missing file is left missing.
fn make_private_file(path: &std::path::Path, create: bool) -> std::io::Result<()> {
    #[cfg(unix)]
    {
        use std::os::unix::fs::{OpenOptionsExt, PermissionsExt};
        if create && !path.exists() {
            std::fs::OpenOptions::new()
                .write(true)
                .create(true)
                .truncate(false)
                .mode(0o600)
                .open(path)?;
        }
        match std::fs::set_permissions(path, std::fs::Permissions::from_mode(0o600)) {
            Err(err) if err.kind() == std::io::ErrorKind::NotFound && !create => Ok(()),
            other => other,
        }
    }
    #[cfg(not(unix))]
    {
        let _ = (path, create);
        Ok(())
    }
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
