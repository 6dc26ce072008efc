//! Outgoing mail. Every message is first written to the `mail_outbox` table
//! (so it is never lost and every instance sees it); then the transport
//! delivers it: by SMTP in production (a worker on any instance claims due
//! rows), or, as the embedded default, only logged with its link and marked
//! sent, so a newcomer can follow a reset or magic link from the log or from
//! the development outbox view (`auth.dev_outbox`, served by `http::outbox`).
//!
//! Delivery by SMTP:
//! - A worker claims a row before it sends it: one conditional UPDATE sets
//!   `status = 'sending'` and a lease (`locked_until`, [`LEASE`]) and counts
//!   the attempt, so one instance wins; the send is cut off at
//!   [`SEND_TIMEOUT`], and the worker renews the short lease every
//!   [`LEASE_RENEWAL`] while the send is in flight. A row still `sending`
//!   after its lease belongs to a worker that stopped (a crash mid-send) and
//!   is claimed again within [`LEASE`] (it waited 120 s before issue 43). Only a stop between the server's "250 queued" and the row's update
//!   sends it twice, and then both copies carry the same `Message-ID`
//!   (`<row id@sender's domain>`), so mail clients and providers can tell
//!   (and many drop) the second.
//! - A failed attempt waits 30 s x 2^attempts, at most [`MAX_BACKOFF`]
//!   (an hour), and the message is given up (`failed`) only once it is
//!   [`RETRY_FOR`] old (3 days).
//! - When an attempt cannot reach the server at all, the round stops and the
//!   worker probes the server (a connection and `NOOP`, no mail) each round
//!   while messages wait; the first probe or send that gets through makes
//!   every waiting message due at once, instead of at its next slot.

use std::sync::Arc;
use std::sync::atomic::{AtomicU8, Ordering};
use std::time::Duration;

use anyhow::Context;
use chrono::DateTime;
use chrono::Utc;
use lettre::message::{Mailbox, MultiPart, header::ContentType};
use lettre::transport::smtp::authentication::Credentials;
use lettre::{AsyncSmtpTransport, AsyncTransport, Message, Tokio1Executor};
use sea_orm::ExprTrait;
use sea_orm::sea_query::{Expr, OnConflict};
use sea_orm::{
    ColumnTrait, DatabaseConnection, DbErr, EntityTrait, QueryFilter, QueryOrder, QuerySelect, Set,
};
use tokio::sync::Notify;
use uuid::Uuid;

use crate::config::{SmtpConfig, SmtpSecurity};

pub mod outbox {
    use sea_orm::entity::prelude::*;

    #[derive(Clone, Debug, PartialEq, DeriveEntityModel)]
    #[sea_orm(table_name = "mail_outbox")]
    pub struct Model {
        #[sea_orm(primary_key, auto_increment = false)]
        pub id: Uuid,
        pub to_address: String,
        pub subject: String,
        pub body_text: String,
        pub body_html: Option<String>,
        pub kind: String,
        pub status: String,
        pub attempts: i32,
        pub last_error: Option<String>,
        pub next_attempt_at: DateTimeUtc,
        pub locked_until: Option<DateTimeUtc>,
        pub sent_at: Option<DateTimeUtc>,
        pub created_at: DateTimeUtc,
        pub updated_at: DateTimeUtc,
        /// A mail that goes out once per thing (a receipt per payment)
        /// carries its key: queueing the key again does nothing
        /// (`mail_outbox_dedup_key_key`, `m20261208_8251_money_mail`).
        pub dedup_key: Option<String>,
    }

    #[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
    pub enum Relation {}

    impl ActiveModelBehavior for ActiveModel {}
}

/// One message to send.
#[derive(Debug, Clone)]
pub struct Mail {
    pub to: String,
    pub subject: String,
    pub body_text: String,
    pub body_html: Option<String>,
    /// The template: confirmation, recovery, magiclink, invite, email_change, reauthentication.
    pub kind: &'static str,
    /// The link the mail carries, for the log line.
    pub link: Option<String>,
}

#[derive(Clone)]
enum Transport {
    Log,
    Smtp {
        transport: AsyncSmtpTransport<Tokio1Executor>,
        from: Mailbox,
    },
}

#[derive(Clone)]
pub struct Mailer {
    db: DatabaseConnection,
    transport: Transport,
    wake: Arc<Notify>,
    /// What this instance last saw of the SMTP server: [`SMTP_UNKNOWN`],
    /// [`SMTP_UP`] or [`SMTP_DOWN`]. Only a hint for when to retry; the
    /// messages and their schedule are in the database.
    smtp: Arc<AtomicU8>,
}

/// How long a claimed message stays with its worker before another may
/// claim it, unless the worker renews it.
pub const LEASE: Duration = Duration::from_secs(15);
/// How often a worker renews the lease of the message it is sending.
pub const LEASE_RENEWAL: Duration = Duration::from_secs(5);
/// The longest one send may take (lettre's own timeout is per command).
pub const SEND_TIMEOUT: Duration = Duration::from_secs(60);
/// The longest wait between two attempts at one message.
pub const MAX_BACKOFF: Duration = Duration::from_secs(3600);
/// How long a message is retried before it is marked `failed`.
pub const RETRY_FOR: Duration = Duration::from_secs(3 * 24 * 3600);

const SMTP_UNKNOWN: u8 = 0;
const SMTP_UP: u8 = 1;
const SMTP_DOWN: u8 = 2;

/// The wait after the `attempts`-th failed attempt: 30 s doubled per
/// attempt, at most [`MAX_BACKOFF`].
pub fn backoff(attempts: i32) -> Duration {
    let doublings = attempts.clamp(0, 20) as u32;
    Duration::from_secs(30 * 2_u64.pow(doublings)).min(MAX_BACKOFF)
}

/// A message a worker may take at `now`: pending and due, or left `sending`
/// by a worker whose lease has run out. The round lists them and the claim
/// takes one only if it still is.
fn due(now: DateTime<Utc>) -> Expr {
    outbox::Column::Status
        .eq("pending")
        .and(outbox::Column::NextAttemptAt.lte(now))
        .or(outbox::Column::Status
            .eq("sending")
            .and(outbox::Column::LockedUntil.lt(now)))
}

/// `at` to whole microseconds, as both databases store it, so that a value
/// written can be compared for equality later.
fn to_micros(at: DateTime<Utc>) -> DateTime<Utc> {
    DateTime::from_timestamp_micros(at.timestamp_micros()).unwrap_or(at)
}

/// A send that failed before any SMTP server answered: refused, unreachable,
/// timed out, TLS. (A server that answered with an error is up.)
fn is_unreachable(err: &lettre::transport::smtp::Error) -> bool {
    !(err.is_response() || err.is_transient() || err.is_permanent() || err.is_client())
}

enum Failure {
    /// The server could not be reached: it is down for every message.
    Unreachable(anyhow::Error),
    /// The server refused this message (an SMTP error answer).
    Message(anyhow::Error),
    /// The message cannot be built (say, an address that does not parse):
    /// no retry will change that.
    Invalid(anyhow::Error),
}

impl Mailer {
    pub fn from_config(db: DatabaseConnection, smtp: Option<&SmtpConfig>) -> anyhow::Result<Self> {
        let transport = match smtp {
            None => Transport::Log,
            Some(smtp) => {
                let mut builder = match smtp.security {
                    SmtpSecurity::Starttls => {
                        AsyncSmtpTransport::<Tokio1Executor>::starttls_relay(&smtp.host)?
                    }
                    SmtpSecurity::Tls => AsyncSmtpTransport::<Tokio1Executor>::relay(&smtp.host)?,
                    SmtpSecurity::None => {
                        AsyncSmtpTransport::<Tokio1Executor>::builder_dangerous(&smtp.host)
                    }
                }
                .port(smtp.port)
                .timeout(Some(Duration::from_secs(10)));
                if let (Some(user), Some(password)) = (&smtp.username, &smtp.password) {
                    builder = builder
                        .credentials(Credentials::new(user.clone(), password.expose().to_owned()));
                }
                Transport::Smtp {
                    transport: builder.build(),
                    from: smtp
                        .from
                        .parse()
                        .context("auth.smtp.from is not a mail address")?,
                }
            }
        };
        Ok(Self {
            db,
            transport,
            wake: Arc::new(Notify::new()),
            smtp: Arc::new(AtomicU8::new(SMTP_UNKNOWN)),
        })
    }

    /// Queues `mail`; returns the outbox row id.
    pub async fn send(&self, mail: Mail) -> Result<Uuid, DbErr> {
        self.send_in(&self.db, mail).await
    }

    /// Queues `mail` in `db`'s transaction: it is sent only if that commits.
    pub async fn send_in(
        &self,
        db: &impl sea_orm::ConnectionTrait,
        mail: Mail,
    ) -> Result<Uuid, DbErr> {
        let id = Uuid::now_v7();
        self.queue(db, id, mail, None).await?;
        Ok(id)
    }

    /// Queues `mail` once per `key` (say, `receipt:<payment id>`): a second
    /// call with the same key, from a replayed provider event or another
    /// instance at the same moment, queues nothing. In `db`'s transaction,
    /// like [`Self::send_in`]; whether this call queued it.
    pub async fn send_once_in(
        &self,
        db: &impl sea_orm::ConnectionTrait,
        key: &str,
        mail: Mail,
    ) -> Result<bool, DbErr> {
        self.queue(db, Uuid::now_v7(), mail, Some(key)).await
    }

    /// [`Self::send_once_in`] outside a transaction.
    pub async fn send_once(&self, key: &str, mail: Mail) -> Result<bool, DbErr> {
        self.send_once_in(&self.db, key, mail).await
    }

    /// Writes the outbox row (once per `key`, when there is one); whether
    /// it was written.
    async fn queue(
        &self,
        db: &impl sea_orm::ConnectionTrait,
        id: Uuid,
        mail: Mail,
        key: Option<&str>,
    ) -> Result<bool, DbErr> {
        let now = Utc::now();
        let logged = matches!(self.transport, Transport::Log);
        let row = outbox::ActiveModel {
            id: Set(id),
            to_address: Set(mail.to.clone()),
            subject: Set(mail.subject.clone()),
            body_text: Set(mail.body_text),
            body_html: Set(mail.body_html),
            kind: Set(mail.kind.to_owned()),
            status: Set(if logged { "sent" } else { "pending" }.to_owned()),
            attempts: Set(0),
            last_error: Set(None),
            next_attempt_at: Set(now),
            locked_until: Set(None),
            sent_at: Set(logged.then_some(now)),
            created_at: Set(now),
            updated_at: Set(now),
            dedup_key: Set(key.map(str::to_owned)),
        };
        let written = outbox::Entity::insert(row)
            .on_conflict(
                OnConflict::column(outbox::Column::DedupKey)
                    .do_nothing()
                    .to_owned(),
            )
            .exec_without_returning(db)
            .await?;
        if written == 0 {
            return Ok(false);
        }
        if logged {
            tracing::info!(
                to = %mail.to,
                subject = %mail.subject,
                link = mail.link.as_deref().unwrap_or(""),
                "mail kept in the outbox (no SMTP configured)"
            );
        } else {
            self.wake.notify_one();
        }
        Ok(true)
    }

    /// Starts the SMTP delivery worker (nothing to do for the log transport).
    pub fn spawn_worker(&self) {
        if let Transport::Smtp { .. } = self.transport {
            let mailer = self.clone();
            tokio::spawn(async move {
                loop {
                    if let Err(err) = mailer.deliver_due().await {
                        tracing::warn!(error = ?err, "mail delivery round failed");
                    }
                    let _ =
                        tokio::time::timeout(Duration::from_secs(5), mailer.wake.notified()).await;
                }
            });
        }
    }

    /// Claims and delivers every due message; returns how many were sent.
    pub async fn deliver_due(&self) -> anyhow::Result<usize> {
        let Transport::Smtp { transport, from } = &self.transport else {
            return Ok(0);
        };
        if self.smtp.load(Ordering::Relaxed) != SMTP_UP && self.has_waiting().await? {
            let reachable = matches!(
                tokio::time::timeout(SEND_TIMEOUT, transport.test_connection()).await,
                Ok(Ok(true))
            );
            if reachable {
                self.smtp_reachable().await?;
            } else {
                self.smtp.store(SMTP_DOWN, Ordering::Relaxed);
            }
        }
        let now = Utc::now();
        let rows = outbox::Entity::find()
            .filter(due(now))
            .order_by_asc(outbox::Column::NextAttemptAt)
            .limit(20)
            .all(&self.db)
            .await?;
        let mut sent = 0;
        for row in rows {
            let Some(lease) = self.claim(&row).await? else {
                continue;
            };
            if row.status == "sending" {
                tracing::warn!(
                    mail = %row.id,
                    "a worker stopped while sending this mail; sending it again with the same Message-ID"
                );
            }
            let mut lease = lease;
            let result = match build_message(from, &row) {
                Ok(message) => match self
                    .renewing_lease(row.id, &mut lease, async {
                        tokio::time::timeout(SEND_TIMEOUT, transport.send(message)).await
                    })
                    .await?
                {
                    Ok(Ok(_)) => Ok(()),
                    Ok(Err(err)) if is_unreachable(&err) => Err(Failure::Unreachable(err.into())),
                    Ok(Err(err)) => Err(Failure::Message(err.into())),
                    Err(_) => Err(Failure::Unreachable(anyhow::anyhow!(
                        "no answer within {} s",
                        SEND_TIMEOUT.as_secs()
                    ))),
                },
                Err(err) => Err(Failure::Invalid(err)),
            };
            let now = Utc::now();
            let mut update = outbox::Entity::update_many()
                .col_expr(
                    outbox::Column::LockedUntil,
                    Expr::value(None::<DateTime<Utc>>),
                )
                .col_expr(outbox::Column::UpdatedAt, Expr::value(now))
                .filter(outbox::Column::Id.eq(row.id))
                .filter(outbox::Column::Status.eq("sending"))
                .filter(outbox::Column::LockedUntil.eq(lease));
            let unreachable = matches!(result, Err(Failure::Unreachable(_)));
            // An answer, even a refusal, shows the server is there.
            let answered = matches!(result, Ok(()) | Err(Failure::Message(_)));
            match result {
                Ok(()) => {
                    update = update
                        .col_expr(outbox::Column::Status, Expr::value("sent"))
                        .col_expr(outbox::Column::SentAt, Expr::value(now));
                    sent += 1;
                }
                Err(failure) => {
                    let (err, invalid) = match failure {
                        Failure::Unreachable(err) | Failure::Message(err) => (err, false),
                        Failure::Invalid(err) => (err, true),
                    };
                    let attempts = row.attempts + 1;
                    let give_up = invalid
                        || now - row.created_at
                            >= chrono::Duration::from_std(RETRY_FOR).unwrap_or_default();
                    if give_up {
                        tracing::error!(error = %err, mail = %row.id, attempts, "mail given up");
                    } else {
                        tracing::warn!(error = %err, mail = %row.id, attempts, "mail delivery failed");
                    }
                    let next =
                        now + chrono::Duration::from_std(backoff(attempts)).unwrap_or_default();
                    update = update
                        .col_expr(
                            outbox::Column::Status,
                            Expr::value(if give_up { "failed" } else { "pending" }),
                        )
                        .col_expr(outbox::Column::LastError, Expr::value(err.to_string()))
                        .col_expr(outbox::Column::NextAttemptAt, Expr::value(next));
                }
            }
            update.exec(&self.db).await?;
            if unreachable {
                // The rest would fail alike; the probe says when to go on.
                self.smtp.store(SMTP_DOWN, Ordering::Relaxed);
                break;
            }
            if answered && self.smtp.swap(SMTP_UP, Ordering::Relaxed) != SMTP_UP {
                self.smtp_reachable().await?;
            }
        }
        Ok(sent)
    }

    /// Claims `row` for one attempt: one conditional UPDATE that only one
    /// worker wins, even when several saw the row due. Returns the lease.
    async fn claim(&self, row: &outbox::Model) -> Result<Option<DateTime<Utc>>, DbErr> {
        let now = Utc::now();
        let lease = to_micros(now + chrono::Duration::from_std(LEASE).unwrap_or_default());
        let claimed = outbox::Entity::update_many()
            .col_expr(outbox::Column::Status, Expr::value("sending"))
            .col_expr(outbox::Column::LockedUntil, Expr::value(lease))
            .col_expr(
                outbox::Column::Attempts,
                Expr::col(outbox::Column::Attempts).add(1),
            )
            .col_expr(outbox::Column::UpdatedAt, Expr::value(now))
            .filter(outbox::Column::Id.eq(row.id))
            .filter(due(now))
            .exec(&self.db)
            .await?;
        Ok((claimed.rows_affected == 1).then_some(lease))
    }

    /// Runs `send`, renewing the lease of message `id` every
    /// [`LEASE_RENEWAL`] meanwhile; `lease` follows the renewals.
    async fn renewing_lease<T>(
        &self,
        id: Uuid,
        lease: &mut DateTime<Utc>,
        send: impl std::future::Future<Output = T>,
    ) -> Result<T, DbErr> {
        let mut send = std::pin::pin!(send);
        let mut renewal =
            tokio::time::interval_at(tokio::time::Instant::now() + LEASE_RENEWAL, LEASE_RENEWAL);
        loop {
            tokio::select! {
                outcome = &mut send => return Ok(outcome),
                _ = renewal.tick() => {
                    let now = Utc::now();
                    let renewed =
                        to_micros(now + chrono::Duration::from_std(LEASE).unwrap_or_default());
                    let updated = outbox::Entity::update_many()
                        .col_expr(outbox::Column::LockedUntil, Expr::value(renewed))
                        .filter(outbox::Column::Id.eq(id))
                        .filter(outbox::Column::Status.eq("sending"))
                        .filter(outbox::Column::LockedUntil.eq(*lease))
                        .exec(&self.db)
                        .await?;
                    if updated.rows_affected == 1 {
                        *lease = renewed;
                    }
                }
            }
        }
    }

    /// Whether a message waits for its next attempt after a failed one.
    async fn has_waiting(&self) -> Result<bool, DbErr> {
        Ok(outbox::Entity::find()
            .filter(outbox::Column::Status.eq("pending"))
            .filter(outbox::Column::Attempts.gt(0))
            .filter(outbox::Column::NextAttemptAt.gt(Utc::now()))
            .limit(1)
            .one(&self.db)
            .await?
            .is_some())
    }

    /// The SMTP server answered after this instance saw it down (or since it
    /// started): every message waiting for a retry is due now.
    async fn smtp_reachable(&self) -> Result<(), DbErr> {
        self.smtp.store(SMTP_UP, Ordering::Relaxed);
        let now = Utc::now();
        let woken = outbox::Entity::update_many()
            .col_expr(outbox::Column::NextAttemptAt, Expr::value(now))
            .col_expr(outbox::Column::UpdatedAt, Expr::value(now))
            .filter(outbox::Column::Status.eq("pending"))
            .filter(outbox::Column::Attempts.gt(0))
            .filter(outbox::Column::NextAttemptAt.gt(now))
            .exec(&self.db)
            .await?;
        if woken.rows_affected > 0 {
            tracing::info!(
                mails = woken.rows_affected,
                "the SMTP server answers again; retrying the waiting mail now"
            );
            self.wake.notify_one();
        }
        Ok(())
    }
}

/// The message of `row`. Its `Message-ID` comes from the row id, so every
/// attempt at one queued mail carries the same one.
fn build_message(from: &Mailbox, row: &outbox::Model) -> anyhow::Result<Message> {
    let builder = Message::builder()
        .message_id(Some(format!("<{}@{}>", row.id, from.email.domain())))
        .from(from.clone())
        .to(row.to_address.parse()?)
        .subject(row.subject.clone());
    Ok(match &row.body_html {
        Some(html) => builder.multipart(MultiPart::alternative_plain_html(
            row.body_text.clone(),
            html.clone(),
        ))?,
        None => builder
            .header(ContentType::TEXT_PLAIN)
            .body(row.body_text.clone())?,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_backoff_doubles_up_to_an_hour() {
        assert_eq!(backoff(1), Duration::from_secs(60));
        assert_eq!(backoff(2), Duration::from_secs(120));
        assert_eq!(backoff(6), Duration::from_secs(1920));
        assert_eq!(backoff(7), MAX_BACKOFF);
        assert_eq!(backoff(i32::MAX), MAX_BACKOFF);
        // Three days at most an hour apart: dozens of tries, not eight.
        assert!(RETRY_FOR.as_secs() / MAX_BACKOFF.as_secs() >= 72);
    }
}
