//! Outgoing mail. Every message is first written to the `mail_outbox` table
//! (so it is never lost and every instance sees it); then the transport
//! delivers it: by SMTP in production (a worker on any instance claims due
//! rows), or, as the embedded default, only logged with its link and marked
//! sent, so a newcomer can follow a reset or magic link from the log or from
//! the development outbox view (`auth.dev_outbox`, served by `http::outbox`).

use std::sync::Arc;
use std::time::Duration;

use anyhow::Context;
use chrono::Utc;
use lettre::message::{Mailbox, MultiPart, header::ContentType};
use lettre::transport::smtp::authentication::Credentials;
use lettre::{AsyncSmtpTransport, AsyncTransport, Message, Tokio1Executor};
use sea_orm::ExprTrait;
use sea_orm::sea_query::Expr;
use sea_orm::{
    ActiveModelTrait, ColumnTrait, DatabaseConnection, DbErr, EntityTrait, QueryFilter, QueryOrder,
    QuerySelect, Set,
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
}

const MAX_ATTEMPTS: i32 = 8;

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
        let now = Utc::now();
        let logged = matches!(self.transport, Transport::Log);
        outbox::ActiveModel {
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
        }
        .insert(db)
        .await?;
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
        Ok(id)
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
        let now = Utc::now();
        let due = outbox::Entity::find()
            .filter(
                outbox::Column::Status
                    .eq("pending")
                    .or(outbox::Column::Status
                        .eq("sending")
                        .and(outbox::Column::LockedUntil.lt(now))),
            )
            .filter(outbox::Column::NextAttemptAt.lte(now))
            .order_by_asc(outbox::Column::NextAttemptAt)
            .limit(20)
            .all(&self.db)
            .await?;
        let mut sent = 0;
        for row in due {
            // Claim: only one instance wins the compare-and-set.
            let claimed = outbox::Entity::update_many()
                .col_expr(outbox::Column::Status, Expr::value("sending"))
                .col_expr(
                    outbox::Column::LockedUntil,
                    Expr::value(now + chrono::Duration::seconds(60)),
                )
                .filter(outbox::Column::Id.eq(row.id))
                .filter(outbox::Column::Status.eq(row.status.clone()))
                .filter(outbox::Column::UpdatedAt.eq(row.updated_at))
                .exec(&self.db)
                .await?;
            if claimed.rows_affected != 1 {
                continue;
            }
            let result = match build_message(from, &row) {
                Ok(message) => transport
                    .send(message)
                    .await
                    .map(|_| ())
                    .map_err(anyhow::Error::from),
                Err(err) => Err(err),
            };
            let attempts = row.attempts + 1;
            let mut update = outbox::ActiveModel {
                id: Set(row.id),
                attempts: Set(attempts),
                locked_until: Set(None),
                updated_at: Set(Utc::now()),
                ..Default::default()
            };
            match result {
                Ok(()) => {
                    update.status = Set("sent".into());
                    update.sent_at = Set(Some(Utc::now()));
                    sent += 1;
                }
                Err(err) => {
                    tracing::warn!(error = %err, mail = %row.id, "mail delivery failed");
                    let backoff = chrono::Duration::seconds(30 * 2_i64.pow(attempts as u32));
                    update.status = Set(if attempts >= MAX_ATTEMPTS {
                        "failed"
                    } else {
                        "pending"
                    }
                    .into());
                    update.last_error = Set(Some(err.to_string()));
                    update.next_attempt_at = Set(Utc::now() + backoff);
                }
            }
            update.update(&self.db).await?;
        }
        Ok(sent)
    }
}

fn build_message(from: &Mailbox, row: &outbox::Model) -> anyhow::Result<Message> {
    let builder = Message::builder()
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
