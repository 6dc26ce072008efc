//! The command line: `serve` (the default), `migrate`, `backup`,
//! `admin grant|revoke`, `openapi`, `demo` and `contest freeze`.

use std::net::SocketAddr;
use std::path::PathBuf;

use anyhow::Context;
use clap::{Parser, Subcommand};

use super::Application;
use crate::admin::roles::{self, RoleChange};
use crate::config::{Config, LogFormat, Overrides};
use crate::db;

#[derive(Debug, Parser)]
#[command(
    name = "prettyscore",
    version,
    about = "PrettyScore: photo scores for fun"
)]
pub struct Cli {
    /// A TOML configuration file (optional).
    #[arg(long, global = true, env = "PRETTYSCORE_CONFIG")]
    pub config: Option<PathBuf>,
    /// Address to listen on, e.g. 127.0.0.1:8080; port 0 picks a free port.
    /// [env: PRETTYSCORE_BIND]
    #[arg(long, global = true)]
    pub bind: Option<SocketAddr>,
    /// Directory for the embedded database and media. [env: PRETTYSCORE_DATA_DIR]
    #[arg(long, global = true)]
    pub data_dir: Option<PathBuf>,
    #[command(subcommand)]
    pub command: Option<Command>,
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// Serve the app (the default).
    Serve,
    /// Apply pending database migrations and exit.
    Migrate,
    /// Copy the SQLite database to PATH while the server keeps serving (an
    /// online backup; PATH must not exist and is made private). On
    /// PostgreSQL it prints the pg_dump command to use instead.
    Backup {
        /// The file to write, e.g. /var/backups/prettyscore-2026-11-28.sqlite.
        path: PathBuf,
    },
    /// Manage administrators.
    Admin {
        #[command(subcommand)]
        action: AdminAction,
    },
    /// Print the OpenAPI document.
    Openapi,
    /// Auth service tools: service-role tokens and signing-key rotation.
    Auth {
        #[command(subcommand)]
        action: crate::auth::cli::AuthAction,
    },
    /// Fill a fresh database with sample users and approved leaderboard
    /// entries (refused when the database already has photos).
    Demo,
    /// The monthly ranking contest.
    Contest {
        #[command(subcommand)]
        action: ContestAction,
    },
}

#[derive(Debug, Subcommand)]
pub enum ContestAction {
    /// Fix a finished month's top 10 as its winners (once; running it again
    /// prints the same winners).
    Freeze {
        /// The month, e.g. 2026-11.
        #[arg(long)]
        month: String,
    },
}

#[derive(Debug, Subcommand)]
pub enum AdminAction {
    /// Give a signed-up user the admin role.
    Grant { email: String },
    /// Take the admin role away from a user.
    Revoke { email: String },
}

pub async fn run(cli: Cli) -> anyhow::Result<()> {
    let overrides = Overrides {
        bind: cli.bind,
        data_dir: cli.data_dir.clone(),
    };
    let command = cli.command.unwrap_or(Command::Serve);
    if let Command::Openapi = command {
        println!("{}", super::openapi().to_pretty_json()?);
        return Ok(());
    }
    let config = Config::load(cli.config.as_deref(), &overrides)?;
    init_logging(config.log_format);
    match command {
        Command::Serve => serve(config).await,
        Command::Migrate => migrate(config).await,
        Command::Backup { path } => backup(config, path).await,
        Command::Admin { action } => admin(config, action).await,
        Command::Auth { action } => {
            let connection = connect(&config).await?;
            db::migrate(&connection).await?;
            crate::auth::cli::run(&config, &connection, action).await
        }
        Command::Demo => demo(config).await,
        Command::Contest { action } => contest(config, action).await,
        Command::Openapi => unreachable!("handled before loading the configuration"),
    }
}

async fn serve(config: Config) -> anyhow::Result<()> {
    let app = Application::build(config).await?;
    let url = app.url();
    tracing::info!(%url, storage = app.state().storage.backend(), "listening");
    // A plain line on stdout that scripts and the end-to-end tests wait for.
    println!("PrettyScore listening on {url}");
    app.run_until_stopped()
        .await
        .context("the server stopped with an error")
}

async fn migrate(config: Config) -> anyhow::Result<()> {
    let connection = connect(&config).await?;
    let (_, before) = db::migration_status(&connection).await?;
    db::migrate(&connection).await?;
    let (known, after) = db::migration_status(&connection).await?;
    println!(
        "Applied {} migration(s); {after} of {known} applied, the database is up to date.",
        after - before
    );
    Ok(())
}

async fn backup(config: Config, path: PathBuf) -> anyhow::Result<()> {
    let started = std::time::Instant::now();
    let done = db::backup::backup_sqlite(&config.database_url(), &path).await?;
    println!(
        "Backed up {} to {} ({} bytes) in {:.1} s.",
        done.source.display(),
        path.display(),
        done.bytes,
        started.elapsed().as_secs_f64()
    );
    Ok(())
}

async fn admin(config: Config, action: AdminAction) -> anyhow::Result<()> {
    let connection = connect(&config).await?;
    db::migrate(&connection).await?;
    match action {
        AdminAction::Grant { email } => match roles::grant_admin(&connection, &email).await? {
            RoleChange::Changed => println!("{email} is now an admin."),
            RoleChange::AlreadySo => println!("{email} was already an admin."),
        },
        AdminAction::Revoke { email } => match roles::revoke_admin(&connection, &email).await? {
            RoleChange::Changed => println!("{email} is no longer an admin."),
            RoleChange::AlreadySo => println!("{email} was not an admin."),
        },
    }
    Ok(())
}

async fn demo(config: Config) -> anyhow::Result<()> {
    let connection = connect(&config).await?;
    db::migrate(&connection).await?;
    let storage =
        crate::storage::Storage::from_config(&config).context("could not set up object storage")?;
    let seeded = crate::leaderboard::demo::seed(&connection, &storage).await?;
    println!(
        "Added {} demo users and {} approved leaderboard entries.",
        seeded.users, seeded.entries
    );
    Ok(())
}

async fn contest(config: Config, action: ContestAction) -> anyhow::Result<()> {
    use crate::leaderboard::contest::{Freeze, freeze};
    let connection = connect(&config).await?;
    db::migrate(&connection).await?;
    match action {
        ContestAction::Freeze { month } => {
            let (winners, note) = match freeze(&connection, &month, chrono::Utc::now()).await? {
                Freeze::Frozen(winners) => (winners, "frozen now"),
                Freeze::AlreadyFrozen(winners) => (winners, "already frozen; unchanged"),
            };
            println!("Winners of {month} ({note}):");
            if winners.is_empty() {
                println!("  (no listed entries that month)");
            }
            for winner in winners {
                println!(
                    "  {:>2}. {} ({:.1})",
                    winner.place, winner.display_name, winner.score
                );
            }
        }
    }
    Ok(())
}

async fn connect(config: &Config) -> anyhow::Result<sea_orm::DatabaseConnection> {
    crate::storage::create_private_dir(&config.data_dir)?;
    db::connect(&config.database_url())
        .await
        .context("could not connect to the database")
}

fn init_logging(format: LogFormat) {
    use tracing_subscriber::EnvFilter;
    let filter = EnvFilter::try_from_default_env()
        .unwrap_or_else(|_| EnvFilter::new("info,sqlx=warn,sea_orm=warn,sea_orm_migration=warn"));
    let builder = tracing_subscriber::fmt()
        .with_env_filter(filter)
        // No colour codes: they would be escaped like any control character.
        .with_ansi(false)
        .with_writer(|| EscapingWriter(std::io::stderr()));
    match format {
        LogFormat::Json => builder.json().flatten_event(true).init(),
        LogFormat::Text => builder.init(),
    }
}

/// Writes log lines with every control character a client could have put in
/// a logged value (a path, an address, a header, a name) escaped as `\xNN`:
/// no BEL or escape sequence reaches a terminal, no newline forges a log
/// line. The formatter hands over one whole event per write, ending in the
/// one newline that is kept.
pub(crate) struct EscapingWriter<W>(pub W);

impl<W: std::io::Write> std::io::Write for EscapingWriter<W> {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        let (body, end) = match buf.strip_suffix(b"\n") {
            Some(body) => (body, &b"\n"[..]),
            None => (buf, &b""[..]),
        };
        let mut line = Vec::with_capacity(buf.len() + 8);
        for &byte in body {
            if (byte < 0x20 && byte != b'\t') || byte == 0x7f {
                line.extend_from_slice(format!("\\x{byte:02x}").as_bytes());
            } else {
                line.push(byte);
            }
        }
        line.extend_from_slice(end);
        self.0.write_all(&line)?;
        Ok(buf.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        self.0.flush()
    }
}

#[cfg(test)]
mod tests {
    use super::EscapingWriter;
    use std::sync::{Arc, Mutex};

    #[derive(Clone, Default)]
    struct Captured(Arc<Mutex<Vec<u8>>>);

    impl std::io::Write for Captured {
        fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
            self.0.lock().unwrap().extend_from_slice(buf);
            Ok(buf.len())
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }

    #[test]
    fn client_strings_reach_the_log_with_control_characters_escaped() {
        let captured = Captured::default();
        let sink = captured.clone();
        let subscriber = tracing_subscriber::fmt()
            .with_ansi(false)
            .with_writer(move || EscapingWriter(sink.clone()))
            .finish();
        tracing::subscriber::with_default(subscriber, || {
            let sent = "bell\u{7} esc\u{1b}[31m nul\u{0} cr\r forged\nINFO fake line";
            tracing::info!(email = %sent, "mail kept in the outbox");
        });
        let text = String::from_utf8(captured.0.lock().unwrap().clone()).unwrap();
        assert_eq!(text.matches('\n').count(), 1, "one line: {text:?}");
        assert!(text.ends_with('\n'), "{text:?}");
        assert!(
            !text[..text.len() - 1]
                .bytes()
                .any(|b| (b < 0x20 && b != b'\t') || b == 0x7f),
            "{text:?}"
        );
        assert!(text.contains("bell\\x07"), "{text:?}");
        assert!(text.contains("forged\\x0aINFO fake line"), "{text:?}");
    }
}
