//! `prettyscore backup PATH`: a consistent copy of the SQLite database taken
//! while the server keeps serving it (`VACUUM INTO`: one read transaction,
//! so writers go on in WAL mode and the copy is the database as of one
//! moment, compacted, in a single file with no `-wal` beside it).
//! PostgreSQL has its own online tool, `pg_dump`; the command says how to
//! run it instead of copying anything.

use std::path::{Path, PathBuf};

use anyhow::{Context, bail};
use sea_orm::{ConnectionTrait, DatabaseBackend, Statement};

/// What a backup wrote.
#[derive(Debug)]
pub struct Backup {
    /// The database file that was copied.
    pub source: PathBuf,
    /// The size of the copy, in bytes.
    pub bytes: u64,
}

/// The answer on PostgreSQL: the exact commands for `pg_dump` and `pg_restore`.
pub fn postgres_instructions(target: &Path) -> String {
    let target = shell_quote(&target.display().to_string());
    format!(
        "prettyscore backup copies a SQLite database; this server's database is PostgreSQL. \
         Back it up with pg_dump (online: a consistent snapshot while the instances keep serving; \
         use a pg_dump of the server's major version or newer):\n  \
         pg_dump --format=custom --no-owner --file={target} \"$DATABASE_URL\"\n\
         and restore it into an empty database with:\n  \
         pg_restore --no-owner --exit-on-error --dbname=\"$DATABASE_URL\" {target}"
    )
}

/// Copies the SQLite database `url` names to `target`, a file that must not
/// exist yet; the copy is readable by the server's user only (0600), like
/// the database itself (it holds the password hashes and the signing keys).
pub async fn backup_sqlite(url: &str, target: &Path) -> anyhow::Result<Backup> {
    if url.starts_with("postgres:") || url.starts_with("postgresql:") {
        bail!("{}", postgres_instructions(target));
    }
    let Some(source) = super::sqlite_path(url) else {
        bail!("the database is in memory: there is no file to back up");
    };
    if !source.is_file() {
        bail!(
            "no SQLite database at {}: nothing to back up (give the server's --data-dir or DATABASE_URL)",
            source.display()
        );
    }
    let Some(target_text) = target.to_str() else {
        bail!("the backup path {} is not valid UTF-8", target.display());
    };
    // Made empty, private and exclusively before SQLite writes into it
    // (`VACUUM INTO` accepts an empty file): an existing file, such as an
    // earlier backup, is never overwritten, and the copy is never readable
    // by others, not even for a moment.
    create_private_new(target)?;
    let copied = async {
        let db = super::connect(url)
            .await
            .context("could not open the database")?;
        let vacuum = db
            .execute_raw(Statement::from_sql_and_values(
                DatabaseBackend::Sqlite,
                "VACUUM INTO ?",
                [target_text.into()],
            ))
            .await;
        db.close().await.ok();
        vacuum.context("the online copy (VACUUM INTO) failed")?;
        // SQLite does not sync the copy; a backup should be on disk when
        // the command says it is.
        let file = std::fs::File::open(target)?;
        file.sync_all()?;
        anyhow::Ok(file.metadata()?.len())
    }
    .await;
    match copied {
        Ok(bytes) => Ok(Backup { source, bytes }),
        Err(err) => {
            std::fs::remove_file(target).ok();
            Err(err)
        }
    }
}

fn create_private_new(target: &Path) -> anyhow::Result<()> {
    let mut options = std::fs::OpenOptions::new();
    options.write(true).create_new(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        options.mode(0o600);
    }
    match options.open(target) {
        Ok(_) => Ok(()),
        Err(err) if err.kind() == std::io::ErrorKind::AlreadyExists => bail!(
            "{} already exists: a backup never overwrites a file; give a new path",
            target.display()
        ),
        Err(err) => {
            Err(err).with_context(|| format!("could not create the backup {}", target.display()))
        }
    }
}

/// Single quotes for a shell, when the text needs them.
fn shell_quote(text: &str) -> String {
    if !text.is_empty()
        && text
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b"/._-+:,=@".contains(&b))
    {
        text.to_owned()
    } else {
        format!("'{}'", text.replace('\'', r"'\''"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_postgres_answer_names_pg_dump_and_quotes_the_path() {
        let plain = postgres_instructions(Path::new("/var/backups/ps.dump"));
        assert!(
            plain.contains(
                "pg_dump --format=custom --no-owner --file=/var/backups/ps.dump \"$DATABASE_URL\""
            ),
            "{plain}"
        );
        let odd = postgres_instructions(Path::new("my backup's.dump"));
        assert!(odd.contains(r"--file='my backup'\''s.dump'"), "{odd}");
    }
}
