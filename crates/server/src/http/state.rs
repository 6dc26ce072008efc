//! The application state every handler can reach: shared handles, nothing
//! that belongs to one domain.

use std::sync::Arc;

use metrics_exporter_prometheus::PrometheusHandle;
use sea_orm::DatabaseConnection;

use crate::blocking::BlockingPool;
use crate::config::Config;
use crate::db::notify::Notifier;
use crate::http::extract::SessionCache;
use crate::http::recent_reads::RecentReads;
use crate::http::spa::WebApp;
use crate::mail::Mailer;
use crate::providers::image_edit::ImageEditProvider;
use crate::providers::payments::Payments;
use crate::providers::sms::SmsProvider;
use crate::storage::Storage;
use crate::tokens::KeyRing;

use super::hooks::HookRegistry;
use super::user_data::UserDataRegistry;

/// The listeners every domain's hooks are registered in, handed this state.
pub type AppHooks = HookRegistry<AppState>;

/// What every handler can reach. Cheap to clone.
#[derive(Clone)]
pub struct AppState {
    pub config: Arc<Config>,
    pub db: DatabaseConnection,
    pub storage: Storage,
    /// Signs and verifies the server's tokens: access tokens, media URLs,
    /// device cookies.
    pub keys: Arc<KeyRing>,
    /// Session states read recently (see [`SessionCache`]).
    pub sessions: Arc<SessionCache>,
    /// A signed-in user's list answers read recently, keyed by the user and
    /// the list (see [`RecentReads`]). Kept only on the embedded database,
    /// whose one instance sees every write; off on PostgreSQL, where another
    /// instance's write must show on the next read.
    pub user_lists: Arc<RecentReads<(uuid::Uuid, &'static str), bytes::Bytes>>,
    /// Public answers every anonymous reader shares (the leaderboard's
    /// pages), keyed by route and query, kept for [`RecentReads`]'s second
    /// on either database: two instances differ for at most that long, and
    /// this instance's own writes empty it at once.
    pub public_answers: Arc<RecentReads<String, super::shared_answer::SharedAnswer>>,
    /// Outgoing mail (the outbox, delivered by SMTP when configured).
    pub mailer: Mailer,
    /// Text messages for phone sign-in, when `auth.sms.provider` names one
    /// (Twilio, or the embedded outbox); `None` keeps phone sign-in off.
    pub sms: Option<Arc<dyn SmsProvider>>,
    /// Sign-in through Google, Apple, GitHub or another OpenID Connect
    /// issuer (`auth.providers`); empty by default.
    pub identity_providers: crate::providers::identity::IdentityProviders,
    /// Generative image edits, when a provider is configured.
    pub image_edits: Option<Arc<dyn ImageEditProvider>>,
    /// The payment provider (the sandbox, or Stripe).
    pub payments: Payments,
    /// Bounded room for blocking work: image decoding, analyses, edits.
    pub blocking: BlockingPool,
    /// Every domain's share of a user's data (export and deletion).
    pub user_data: UserDataRegistry,
    /// Realtime wake-ups across instances (messages).
    pub notifier: Notifier,
    /// Listeners to sign-ups and payments (the partner programme).
    pub hooks: AppHooks,
    pub web: Arc<WebApp>,
    pub metrics: PrometheusHandle,
    /// Set when the instance has been told to stop: `/readyz` answers 503.
    pub draining: super::server::Draining,
    /// The address users reach the app at (`public_url`, or the listening
    /// address), for absolute links such as share pages.
    pub base_url: String,
}
