//! The database: SQLite by default, PostgreSQL in production, one query layer
//! (sea-orm) and one set of migrations for both.

pub mod audit;
pub mod backup;
pub mod constraints;
pub mod entities;
pub mod migration;
pub mod notify;
pub mod stored;

use std::time::Duration;

use sea_orm::{
    ConnectOptions, ConnectionTrait, Database, DatabaseBackend, DatabaseConnection, DbErr,
    Statement, TransactionTrait,
};
use sea_orm_migration::MigratorTrait;

use migration::Migrator;

const SQLITE_CONNECTIONS: u32 = 4;

/// How long a query waits for a pooled connection by default: on
/// PostgreSQL short, so that an outage answers 503 at once instead of
/// holding every request (and its client) for 10 s; on SQLite, where the
/// file is always there, a wait only means the four connections are busy.
pub fn default_acquire_timeout(url: &str) -> Duration {
    if url.starts_with("sqlite") {
        Duration::from_secs(10)
    } else {
        Duration::from_secs(2)
    }
}

/// Connects to the database the URL names (`sqlite://…` or `postgres://…`).
pub async fn connect(url: &str) -> Result<DatabaseConnection, DbErr> {
    connect_with(url, default_acquire_timeout(url)).await
}

/// [`connect`], waiting at most `acquire_timeout` for a connection (also a
/// new one, when the pool must open it) before a query fails.
pub async fn connect_with(
    url: &str,
    acquire_timeout: Duration,
) -> Result<DatabaseConnection, DbErr> {
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
        .connect_timeout(acquire_timeout)
        .acquire_timeout(acquire_timeout)
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

/// The key of the PostgreSQL advisory lock migrations run under (any
/// constant shared by every instance; this one spells "pretty" in ASCII).
const MIGRATION_LOCK: i64 = 0x0070_7265_7474_7900;

/// Applies every migration that has not run yet; a no-op when up to date.
///
/// Several instances may start at once on one database (a rolling deploy,
/// or two started together on a fresh one, where concurrent `CREATE TABLE`s
/// failed with a duplicate `pg_type` key). On PostgreSQL they take turns
/// under an advisory lock: the first applies the migrations, the others
/// wait, then find nothing left to do. SQLite serves one instance; two
/// processes starting on one file still take turns, because a migration
/// that lost the race is tried again once the winner is done.
///
/// A database with a migration this build does not know was migrated by a
/// newer version: this one refuses it ([`SchemaTooNew`]) instead of serving
/// a schema it does not understand.
pub async fn migrate(db: &DatabaseConnection) -> Result<(), DbErr> {
    if db.get_database_backend() != DatabaseBackend::Postgres {
        let mut tries = 0;
        loop {
            check_schema_not_newer(db).await?;
            match Migrator::up(db, None).await {
                Ok(()) => return Ok(()),
                Err(err) if tries < 20 => {
                    tracing::debug!(error = %err, "a migration failed; trying again");
                    tries += 1;
                    tokio::time::sleep(Duration::from_millis(100)).await;
                }
                Err(err) => return Err(err),
            }
        }
    }
    // A transaction-level lock, held on the transaction's own connection
    // until it ends (also when this process dies), while the migrations run
    // on the pool's other connections.
    let lock = db.begin().await?;
    lock.execute_raw(Statement::from_sql_and_values(
        DatabaseBackend::Postgres,
        "SELECT pg_advisory_xact_lock($1)",
        [MIGRATION_LOCK.into()],
    ))
    .await?;
    let result = async {
        check_schema_not_newer(db).await?;
        Migrator::up(db, None).await
    }
    .await;
    lock.rollback().await?;
    result
}

/// The schema was migrated by a newer version of the server.
#[derive(Debug, thiserror::Error)]
#[error(
    "the database schema is newer than this server: it has migration {unknown}, which this version does not know. Run the newer version of prettyscore (or restore a backup made for this one); this version does not start on it"
)]
pub struct SchemaTooNew {
    /// The first applied migration this build does not know.
    pub unknown: String,
}

/// Refuses a database with an applied migration this build does not know.
async fn check_schema_not_newer(db: &DatabaseConnection) -> Result<(), DbErr> {
    let manager = sea_orm_migration::SchemaManager::new(db);
    if !manager.has_table("seaql_migrations").await? {
        return Ok(());
    }
    let known: std::collections::HashSet<String> = Migrator::migrations()
        .iter()
        .map(|migration| migration.name().to_owned())
        .collect();
    let applied = db
        .query_all_raw(Statement::from_string(
            db.get_database_backend(),
            "SELECT version FROM seaql_migrations ORDER BY version",
        ))
        .await?;
    for row in applied {
        let version: String = row.try_get("", "version")?;
        if !known.contains(&version) {
            return Err(DbErr::Custom(SchemaTooNew { unknown: version }.to_string()));
        }
    }
    Ok(())
}

/// How many migrations are known and how many are applied.
pub async fn migration_status(db: &DatabaseConnection) -> Result<(usize, usize), DbErr> {
    let known = Migrator::migrations().len();
    let applied = Migrator::get_applied_migrations(db).await?.len();
    Ok((known, applied))
}

/// Whether `err` says the database cannot be reached (down, restarting,
/// the network gone, no connection free within the acquire timeout), as
/// opposed to a query it refused: the request may succeed if tried again
/// shortly, so it is answered 503 `database_unavailable`, not 500.
pub fn is_unavailable(err: &DbErr) -> bool {
    use sea_orm::RuntimeErr;
    use sea_orm::sqlx::Error as Sqlx;
    match err {
        DbErr::ConnectionAcquire(_) | DbErr::Conn(_) => true,
        DbErr::Exec(RuntimeErr::SqlxError(err)) | DbErr::Query(RuntimeErr::SqlxError(err)) => {
            match err.as_ref() {
                Sqlx::Io(_)
                | Sqlx::Tls(_)
                | Sqlx::PoolTimedOut
                | Sqlx::PoolClosed
                | Sqlx::WorkerCrashed => true,
                // PostgreSQL's connection exceptions (class 08), a server
                // shutting down or starting (57P01-57P03), and no
                // connection slot left (53300).
                Sqlx::Database(err) => err.code().is_some_and(|code| {
                    code.starts_with("08")
                        || matches!(&*code, "57P01" | "57P02" | "57P03" | "53300")
                }),
                _ => false,
            }
        }
        _ => false,
    }
}

/// Whether the database answers; used by `/readyz`.
pub async fn ping(db: &DatabaseConnection) -> Result<(), DbErr> {
    db.ping().await
}
