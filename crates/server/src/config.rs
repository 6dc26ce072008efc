//! Configuration in layers: built-in defaults, then an optional TOML file,
//! then `PRETTYSCORE_*` environment variables (nested keys joined with `__`,
//! e.g. `PRETTYSCORE_STORAGE__BUCKET`) and `DATABASE_URL`, then command-line
//! flags. Nothing here is global: every `Config` value is built explicitly, so
//! tests boot the app with their own configuration.

use std::fmt;
use std::net::SocketAddr;
use std::path::{Path, PathBuf};

use figment::Figment;
use figment::providers::{Env, Format, Serialized, Toml};
use serde::{Deserialize, Serialize};

/// A value that must never reach a log line or an error message.
#[derive(Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(transparent)]
pub struct Secret(String);

impl Secret {
    pub fn new(value: impl Into<String>) -> Self {
        Self(value.into())
    }

    pub fn expose(&self) -> &str {
        &self.0
    }
}

impl fmt::Debug for Secret {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("Secret([redacted])")
    }
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Config {
    /// Address the HTTP server binds; port 0 picks a free port.
    pub bind: SocketAddr,
    /// Where the embedded defaults keep their files (SQLite database, media).
    pub data_dir: PathBuf,
    /// `postgres://…` or `sqlite://…`; without it, SQLite in `data_dir`.
    pub database_url: Option<Secret>,
    /// How long a query waits for a database connection before the request
    /// is answered 503 `database_unavailable`, in milliseconds. Without it:
    /// 2000 on PostgreSQL (an outage fails fast), 10000 on SQLite.
    pub database_acquire_timeout_ms: Option<u64>,
    /// The address users reach the app at, used in links we send out.
    /// Without it, the listening address is used.
    pub public_url: Option<String>,
    /// Shown on the privacy page as the contact address.
    pub contact_email: String,
    /// Serve the web app from this directory instead of the copy built into
    /// the binary (development, tests).
    pub web_dir: Option<PathBuf>,
    pub log_format: LogFormat,
    pub storage: StorageConfig,
    pub auth: AuthConfig,
    pub analysis: AnalysisConfig,
    pub edits: EditsConfig,
    pub payments: PaymentsConfig,
    pub share: ShareConfig,
    pub screening: ScreeningConfig,
    pub partners: PartnersConfig,
    pub moderation: ModerationConfig,
    pub community: CommunityConfig,
    pub http: HttpConfig,
}

impl Default for Config {
    fn default() -> Self {
        Self {
            bind: SocketAddr::from(([127, 0, 0, 1], 8080)),
            data_dir: PathBuf::from("./data"),
            database_url: None,
            database_acquire_timeout_ms: None,
            public_url: None,
            contact_email: "privacy@prettyscore.app".to_owned(),
            web_dir: None,
            log_format: LogFormat::Text,
            storage: StorageConfig::default(),
            auth: AuthConfig::default(),
            analysis: AnalysisConfig::default(),
            edits: EditsConfig::default(),
            payments: PaymentsConfig::default(),
            share: ShareConfig::default(),
            screening: ScreeningConfig::default(),
            partners: PartnersConfig::default(),
            moderation: ModerationConfig::default(),
            community: CommunityConfig::default(),
            http: HttpConfig::default(),
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum LogFormat {
    Text,
    Json,
}

#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(tag = "backend", rename_all = "lowercase", deny_unknown_fields)]
pub enum StorageConfig {
    /// Files under `<data_dir>/media`.
    #[default]
    Local,
    /// An S3-compatible bucket.
    S3(S3Config),
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct S3Config {
    pub bucket: String,
    /// Custom endpoint for S3-compatible services (MinIO, R2, …).
    pub endpoint: Option<String>,
    #[serde(default = "default_region")]
    pub region: String,
    pub access_key_id: Option<String>,
    pub secret_access_key: Option<Secret>,
    /// Plain-HTTP endpoints are refused unless this is set.
    #[serde(default)]
    pub allow_http: bool,
    /// Seconds to open a connection to the endpoint.
    #[serde(default = "default_s3_connect_timeout")]
    pub connect_timeout_secs: u64,
    /// Seconds one storage call may take in all, its retries included (each
    /// of its three tries gets a third, a 10 MB upload included); then the
    /// API answers 503 `storage_unavailable`. Kept well below the reverse
    /// proxy's server timeout (60 s in deploy/haproxy.cfg), so a client gets
    /// the app's JSON 503 with `Retry-After`, not the proxy's 504 page.
    #[serde(default = "default_s3_request_timeout")]
    pub request_timeout_secs: u64,
}

fn default_s3_connect_timeout() -> u64 {
    2
}

fn default_s3_request_timeout() -> u64 {
    15
}

fn default_region() -> String {
    "us-east-1".to_owned()
}

const TOP_LEVEL_KEYS: &[&str] = &[
    "bind",
    "data_dir",
    "database_url",
    "database_acquire_timeout_ms",
    "public_url",
    "contact_email",
    "web_dir",
    "log_format",
    "storage",
    "auth",
    "analysis",
    "edits",
    "payments",
    "share",
    "screening",
    "partners",
    "moderation",
    "community",
    "http",
];

/// The HTTP server's own defences: slow clients, connection floods, upload
/// floods, and who may read `/metrics`. A reverse proxy in front should
/// enforce its own, tighter limits (see the README's deployment notes).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct HttpConfig {
    /// A connection that has not sent a request's complete headers within
    /// this many seconds is closed (slowloris).
    pub header_read_timeout_secs: u64,
    /// A request body that sends nothing for this many seconds while the
    /// server reads it ends with 408 `body_timeout` and its connection is
    /// closed (a POST's headers with no body held a connection for good).
    pub body_read_timeout_secs: u64,
    /// Once `body_rate_grace_secs` have passed, a request body must average
    /// at least this many bytes a second (Kestrel's `MinRequestBodyDataRate`)
    /// or it ends with 408: one byte every few seconds no longer holds a
    /// connection.
    pub min_body_bytes_per_sec: u64,
    pub body_rate_grace_secs: u64,
    /// A whole request body must arrive within `body_deadline_base_secs`
    /// plus its declared size at `body_deadline_bytes_per_sec` (32 KiB/s: a
    /// 10 MB photo has over five minutes).
    pub body_deadline_base_secs: u64,
    pub body_deadline_bytes_per_sec: u64,
    /// Of `max_connections`, how many are never used to receive a request
    /// body, so that health checks and reads are served while uploads hold
    /// every other place (the slowest upload gives its place to a new one).
    pub connections_kept_for_requests_without_body: usize,
    /// Open connections this instance serves at once; further ones wait in
    /// the kernel's accept queue instead of using file descriptors.
    pub max_connections: usize,
    /// Open connections one client address may hold; more are refused with
    /// 429. Not applied when `auth.trust_x_forwarded_for` is on: every
    /// connection then comes from the proxy, which caps them per client.
    pub max_connections_per_address: usize,
    /// After SIGTERM (or Ctrl-C), how many seconds the instance keeps
    /// serving while `/readyz` answers 503 `shutting_down`, so that the load
    /// balancer's health check sends traffic elsewhere before it stops
    /// accepting. A second signal skips the rest.
    pub drain_secs: u64,
    /// Then how many seconds the requests in flight have to finish (open
    /// event streams are closed at once with a reconnect hint) before the
    /// process exits.
    pub shutdown_grace_secs: u64,
    /// Request bodies (uploads, JSON) this instance buffers at once, in
    /// bytes, counted by their declared size. A request that would pass it
    /// gets 503 `server_busy` with `Retry-After` before its body is read.
    pub max_body_bytes_in_flight: u64,
    /// Of that room, what one client address may hold (at least one
    /// largest upload); past it the address gets 429 `rate_limited`, so a
    /// few slow uploads from one place leave room for everyone else.
    pub max_body_bytes_in_flight_per_address: u64,
    /// A bearer token that may read `/metrics` (`Authorization: Bearer …`).
    /// Without it, `/metrics` answers only requests from a loopback address
    /// that came through no proxy (no `X-Forwarded-For` or `Forwarded`);
    /// with it, only requests carrying it. Everyone else gets 404.
    pub metrics_token: Option<Secret>,
}

impl Default for HttpConfig {
    fn default() -> Self {
        Self {
            header_read_timeout_secs: 10,
            body_read_timeout_secs: 20,
            min_body_bytes_per_sec: 240,
            body_rate_grace_secs: 5,
            body_deadline_base_secs: 30,
            body_deadline_bytes_per_sec: 32 * 1024,
            connections_kept_for_requests_without_body: 1024,
            max_connections: 4096,
            max_connections_per_address: 256,
            drain_secs: 5,
            shutdown_grace_secs: 10,
            max_body_bytes_in_flight: 128 * 1024 * 1024,
            max_body_bytes_in_flight_per_address: 32 * 1024 * 1024,
            metrics_token: None,
        }
    }
}

/// Photo analysis: how many run at once and how fast one client may send them.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct AnalysisConfig {
    /// Analyses running at the same time on this instance; more wait their
    /// turn. Defaults to the number of CPU cores.
    pub max_concurrent: Option<usize>,
    /// Analyses one client (IP address) may request per minute before
    /// getting 429.
    pub per_client_per_minute: u32,
}

impl Default for AnalysisConfig {
    fn default() -> Self {
        Self {
            max_concurrent: None,
            per_client_per_minute: 30,
        }
    }
}

/// Shared results' public pages (`/s/{slug}`) and their score cards.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct ShareConfig {
    /// Card images one client (IP address) may fetch per minute before
    /// getting 429 (a card is drawn once per image version and then kept).
    pub cards_per_client_per_minute: u32,
}

impl Default for ShareConfig {
    fn default() -> Self {
        Self {
            cards_per_client_per_minute: 60,
        }
    }
}

/// Who may enter the community (issue 41): the terms everyone accepts, and
/// the display names nobody may take.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct CommunityConfig {
    /// The version of the terms of service and community guidelines in
    /// force (the web app's /terms and /guidelines say which version they
    /// are). A signed-in user who accepted another version accepts again
    /// before any community feature. Change it with the pages' text.
    pub terms_version: String,
    /// When that version took effect, `YYYY-MM-DD`.
    pub terms_date: String,
    /// Words no display name may contain, compared with case, spacing and
    /// look-alike letters folded (`values::names`).
    pub reserved_name_words: Vec<String>,
}

/// The terms' version and date the app ships with.
pub const TERMS_VERSION: &str = "1.0";
pub const TERMS_DATE: &str = "2026-12-08";

impl Default for CommunityConfig {
    fn default() -> Self {
        Self {
            terms_version: TERMS_VERSION.to_owned(),
            terms_date: TERMS_DATE.to_owned(),
            reserved_name_words: crate::values::names::DEFAULT_RESERVED_WORDS
                .iter()
                .map(|word| (*word).to_owned())
                .collect(),
        }
    }
}

/// The nudity check that runs before an image becomes public (a share page,
/// a contest entry, a leaderboard listing).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct ScreeningConfig {
    /// An image is held for review when the classifier gives the unsafe
    /// classes together (Porn + Hentai + Sexy, 0 to 1) at least this share.
    /// The test photos of faces, hands, feet and pets score at most 0.08; the
    /// nude in testdata/screening/ 0.86.
    pub hold_at: f32,
}

impl Default for ScreeningConfig {
    fn default() -> Self {
        Self { hold_at: 0.5 }
    }
}

/// Reports, decisions and the chat's "Are you sure?" (issue 41).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct ModerationConfig {
    /// Words (or phrases) that make the server ask a chat message's sender
    /// "Are you sure?" before it is sent: insults and sexual words. Matched
    /// as whole words, in any case. Nothing is blocked: the sender confirms
    /// and the message goes.
    pub caution_words: Vec<String>,
    /// Days the evidence of a removal is kept (never public) when the
    /// report's reason requires it: someone under 18, an intimate image
    /// shared without consent, other illegal content.
    pub evidence_days: u32,
    /// Reports one signed-out visitor's email address (and one client
    /// address) may send an hour (429 beyond).
    pub anonymous_reports_per_hour: u32,
    /// Reports one signed-in user may send an hour.
    pub reports_per_user_per_hour: u32,
}

impl Default for ModerationConfig {
    fn default() -> Self {
        Self {
            caution_words: [
                "idiot", "stupid", "moron", "loser", "ugly", "fat", "bitch", "slut", "whore",
                "cunt", "fuck", "fucking", "asshole", "dick", "cock", "pussy", "tits", "boobs",
                "nude", "nudes", "naked", "horny", "sex", "sexy",
            ]
            .map(str::to_owned)
            .to_vec(),
            evidence_days: 90,
            anonymous_reports_per_hour: 5,
            reports_per_user_per_hour: 30,
        }
    }
}

/// The partner programme.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct PartnersConfig {
    /// Days a commission stays pending before it can be paid out: the
    /// refund window, so that a refunded sale is reversed, not clawed back.
    pub commission_hold_days: u32,
    /// Referral-link clicks one client address may send a minute (429 beyond).
    pub clicks_per_client_per_minute: u32,
    /// Distinct visitors (browsers) one address may add to a partner's clicks
    /// a day: several people behind one router count, a script changing its
    /// User-Agent does not.
    pub visitors_per_address_per_day: u32,
}

impl Default for PartnersConfig {
    fn default() -> Self {
        Self {
            commission_hold_days: 30,
            clicks_per_client_per_minute: 30,
            visitors_per_address_per_day: 10,
        }
    }
}

/// AI photo edits (`POST /functions/v1/edit-photo`): the free quota, the
/// per-client rate, temporary results and the optional generative provider.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct EditsConfig {
    /// Free AI edits per browser (and per signed-in user across browsers);
    /// premium members are unlimited. Slider-only adjustments are free.
    pub free_edits: u32,
    /// Edit requests one client (IP address) may send per minute before
    /// getting 429.
    pub per_client_per_minute: u32,
    /// Free AI edits the browsers of one client address may make a day
    /// while signed out (each browser also has its own `free_edits`): a
    /// new cookie does not bring new edits, and a few people behind one
    /// router still get theirs.
    pub anonymous_per_address_per_day: u32,
    /// How long an edit result that is not attached to a saved photo stays
    /// in storage.
    pub temp_ttl_secs: u64,
    /// How long a signed-out client's edit result stays (at most
    /// `temp_ttl_secs`): 55 minutes, so that with the sweep's 5-minute round
    /// none is kept past an hour.
    pub anonymous_temp_ttl_secs: u64,
    /// The bytes of edit results the signed-out clients of one address may
    /// store per `anonymous_temp_ttl_secs`; past it an edit is 429
    /// `rate_limited` and costs no free edit.
    pub anonymous_temp_bytes_per_address: u64,
    /// The bytes temporary results may take in storage together; past it a
    /// new one waits (503 `server_busy`) until the sweep frees room.
    pub temp_budget_bytes: u64,
    /// How often each instance looks for expired temporary results.
    pub sweep_interval_secs: u64,
    /// An OpenAI-compatible image-edit API for the prompts the built-in
    /// engine cannot carry out; off unless `base_url` is set.
    pub provider: ProviderConfig,
}

impl Default for EditsConfig {
    fn default() -> Self {
        Self {
            free_edits: 5,
            per_client_per_minute: 20,
            anonymous_per_address_per_day: 15,
            temp_ttl_secs: 24 * 3600,
            anonymous_temp_ttl_secs: 55 * 60,
            anonymous_temp_bytes_per_address: 64 * 1024 * 1024,
            temp_budget_bytes: 2 * 1024 * 1024 * 1024,
            sweep_interval_secs: 300,
            provider: ProviderConfig::default(),
        }
    }
}

/// The generative provider: `POST {base_url}/images/edits` (multipart, as
/// OpenAI's API), answered with `data[0].b64_json`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct ProviderConfig {
    /// e.g. `https://api.openai.com/v1`. Without it, no provider is used.
    pub base_url: Option<String>,
    /// Sent as `Authorization: Bearer <api_key>`.
    pub api_key: Option<Secret>,
    /// e.g. `gpt-image-1`; omitted from the request when unset (the
    /// provider's default model).
    pub model: Option<String>,
    /// A request that takes longer fails with `edit_failed`.
    pub timeout_secs: u64,
}

impl Default for ProviderConfig {
    fn default() -> Self {
        Self {
            base_url: None,
            api_key: None,
            model: None,
            timeout_secs: 120,
        }
    }
}

impl ProviderConfig {
    pub fn is_configured(&self) -> bool {
        self.base_url
            .as_deref()
            .is_some_and(|url| !url.trim().is_empty())
    }
}

/// Which payment provider takes the money.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum PaymentProviderKind {
    /// The built-in sandbox: a test checkout page, no money moves.
    #[default]
    Sandbox,
    /// Stripe (`payments.stripe`).
    Stripe,
}

/// Payments: the provider, and how to reach Stripe when it is the one.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct PaymentsConfig {
    /// `sandbox` (the default: anyone can "buy" with a test page) or `stripe`.
    pub provider: PaymentProviderKind,
    pub stripe: StripeConfig,
    /// How often each instance looks for sandbox subscriptions whose month is
    /// over (renewal, or the end of a cancelled one).
    pub sandbox_renewal_interval_secs: u64,
    /// Let a server whose `public_url` is `https://…` start with the sandbox
    /// provider or the development mail outbox (a public test or staging
    /// deployment). Off, such a server refuses to start: a public site on
    /// the sandbox gives everything away for free.
    pub allow_test_payments: bool,
    /// Days a captured contact fee waits before the contestant's share is
    /// sent to their payout account: the refund window.
    pub payout_window_days: u32,
    /// Days after approving a contact request within which the contestant
    /// must write in the conversation; a request they leave unanswered that
    /// long is refunded to the requester in full (and earns nothing).
    pub reply_window_days: u32,
    /// How often each instance looks for shares to send (and transfers to
    /// take back after a refund or dispute).
    pub payout_interval_secs: u64,
}

impl Default for PaymentsConfig {
    fn default() -> Self {
        Self {
            provider: PaymentProviderKind::Sandbox,
            stripe: StripeConfig::default(),
            sandbox_renewal_interval_secs: 60,
            allow_test_payments: false,
            payout_window_days: 7,
            reply_window_days: 7,
            payout_interval_secs: 60,
        }
    }
}

/// Stripe's API: the secret key, the webhook signing secret, and the base
/// URL (a local double in tests).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct StripeConfig {
    pub base_url: String,
    /// `sk_live_…` or `sk_test_…`.
    pub secret_key: Option<Secret>,
    /// `whsec_…`: checks the `Stripe-Signature` of `POST /api/v1/billing/webhook`.
    pub webhook_secret: Option<Secret>,
    pub timeout_secs: u64,
}

impl Default for StripeConfig {
    fn default() -> Self {
        Self {
            base_url: "https://api.stripe.com".to_owned(),
            secret_key: None,
            webhook_secret: None,
            timeout_secs: 30,
        }
    }
}

/// The GoTrue-compatible auth service (`/auth/v1`). Defaults follow GoTrue's,
/// except that the embedded default without SMTP confirms sign-ups at once
/// (`autoconfirm`); with SMTP, addresses are confirmed by mail. An
/// unconfirmed account can score and edit, not enter the community.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct AuthConfig {
    /// Where mail links send the user when no allowed `redirect_to` is given.
    /// Without it, `public_url` (or the listening address) is used.
    pub site_url: Option<String>,
    /// Further allowed `redirect_to` targets: exact URLs or prefixes ending in `*`.
    pub redirect_allow_list: Vec<String>,
    /// Signing keys as a JWK set of *private* keys (`{"keys":[…]}`, EC P-256
    /// for ES256, RSA for RS256 or `oct` for HS256), as GoTrue's
    /// `GOTRUE_JWT_KEYS`. The first
    /// key signs, every key verifies. Without it (and without `jwt_secret`) an
    /// ES256 key is generated on first start and kept in the database.
    pub jwt_keys: Option<Secret>,
    /// HS256 shared secret (GoTrue's `GOTRUE_JWT_SECRET`): signs when no
    /// `jwt_keys` are given, and always verifies.
    pub jwt_secret: Option<Secret>,
    /// Access-token lifetime in seconds.
    pub jwt_expiry_secs: u64,
    /// Confirm new email sign-ups without a mail (GoTrue `MAILER_AUTOCONFIRM`).
    /// It only applies to the embedded default with no mail transport (mail
    /// is kept in the outbox, where nobody could confirm): with SMTP, every
    /// address is confirmed by mail. Read it with [`AuthConfig::autoconfirm`].
    pub autoconfirm: bool,
    /// `POST /signup` without email or phone creates an anonymous user.
    pub anonymous_sign_ins: bool,
    /// Refuse every new sign-up.
    pub disable_signup: bool,
    /// A refresh token may be used again within this many seconds (concurrent tabs).
    pub refresh_token_reuse_interval_secs: u64,
    /// Minimum password length (never below 6).
    pub password_min_length: usize,
    /// PUT /user with a new password needs the reauthentication nonce.
    pub secure_password_change: bool,
    /// How long a mailed code or link lives, in seconds (GoTrue's
    /// `MAILER_OTP_EXP`, 1 hour).
    pub otp_expiry_secs: u64,
    /// Serve the mail outbox at `GET /api/v1/dev/outbox` (local development only).
    pub dev_outbox: bool,
    /// Take the client address for rate limits from `X-Forwarded-For` (behind a
    /// load balancer that sets it); otherwise the peer address is used.
    pub trust_x_forwarded_for: bool,
    pub password_hash: PasswordHashConfig,
    pub rate_limits: RateLimitConfig,
    /// Deliver mail by SMTP; without it, mail is only kept in the outbox and logged.
    pub smtp: Option<SmtpConfig>,
    /// Let users link and unlink identities themselves (GoTrue's
    /// `GOTRUE_SECURITY_MANUAL_LINKING_ENABLED`); off, `/user/identities/*`
    /// answers 404 `manual_linking_disabled`.
    pub manual_linking: bool,
    /// Text messages for phone sign-in; off (`none`) by default.
    pub sms: SmsConfig,
    /// Sign-in through outside identity providers (`GET /authorize`), keyed
    /// by the name the client passes as `provider` (`google`, `apple`,
    /// `github`, or any name for a generic OpenID Connect issuer). None is
    /// enabled by default.
    pub providers: std::collections::BTreeMap<String, IdentityProviderConfig>,
    /// The WebAuthn relying party that passkeys and security-key factors are
    /// bound to (GoTrue's `GOTRUE_WEBAUTHN_*`).
    pub webauthn: WebauthnConfig,
    /// Sign-in with a passkey (`/passkeys/*`, GoTrue's `GOTRUE_PASSKEY_*`).
    pub passkeys: PasskeysConfig,
}

/// The relying party of WebAuthn ceremonies (`auth::webauthn`). A browser
/// only offers a credential to pages of `rp_origins` whose host is `rp_id` or
/// under it, and only over HTTPS (plain HTTP is allowed for `localhost`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct WebauthnConfig {
    /// The domain credentials belong to, e.g. `prettyscore.app`. By default
    /// the host of `site_url` (or of the server's own address); for a
    /// loopback address, `localhost`, since browsers refuse an IP address.
    pub rp_id: Option<String>,
    /// The origins pages may call from, e.g. `https://prettyscore.app`. By
    /// default the origins of `site_url` and of the server's own address
    /// (and their `localhost` twins for a loopback address).
    pub rp_origins: Vec<String>,
    /// The name authenticators show beside the account.
    pub rp_display_name: String,
}

impl Default for WebauthnConfig {
    fn default() -> Self {
        Self {
            rp_id: None,
            rp_origins: Vec::new(),
            rp_display_name: "PrettyScore".to_owned(),
        }
    }
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct PasskeysConfig {
    /// Off, `/passkeys/*` answers 404 `passkey_disabled`.
    pub enabled: bool,
    /// Passkeys one user may register (GoTrue's default, 10).
    pub max_per_user: u64,
}

impl Default for PasskeysConfig {
    fn default() -> Self {
        Self {
            enabled: true,
            max_per_user: 10,
        }
    }
}

/// One outside identity provider (`providers::identity`).
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct IdentityProviderConfig {
    pub kind: IdentityProviderKind,
    /// The client id the provider issued (Apple: the Services ID).
    pub client_id: String,
    /// The client secret (not for Apple, whose secret is signed from `apple`).
    pub client_secret: Option<Secret>,
    /// The issuer: its `/.well-known/openid-configuration` is read. Google and
    /// Apple have theirs by default; required for `oidc`.
    pub issuer: Option<String>,
    /// The name on the "Continue with …" button (by default Google, Apple,
    /// GitHub, or the configured name).
    pub label: Option<String>,
    /// Scopes asked for besides what the client asks (by default `openid
    /// email profile`, GitHub `read:user user:email`, Apple `name email`).
    pub scopes: Option<String>,
    /// Further ID-token audiences accepted by `grant_type=id_token` (an app's
    /// native client ids).
    pub extra_audiences: Vec<String>,
    /// GitHub only: the addresses of its OAuth pages and of its REST API
    /// (a local double in tests).
    pub github: GithubEndpoints,
    /// Apple only: what signs the client secret.
    pub apple: AppleSigning,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum IdentityProviderKind {
    /// Any OpenID Connect issuer, found by discovery.
    #[default]
    Oidc,
    Google,
    Apple,
    /// GitHub's OAuth 2 (not OpenID Connect): the user comes from its API.
    Github,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct GithubEndpoints {
    pub web_url: String,
    pub api_url: String,
}

impl Default for GithubEndpoints {
    fn default() -> Self {
        Self {
            web_url: "https://github.com".to_owned(),
            api_url: "https://api.github.com".to_owned(),
        }
    }
}

/// Apple's client secret is a JWT signed with the team's key (ES256).
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct AppleSigning {
    pub team_id: String,
    pub key_id: String,
    /// The `.p8` key Apple issued: a PKCS#8 PEM of a P-256 key.
    pub private_key: Option<Secret>,
}

impl AuthConfig {
    /// Whether new sign-ups are confirmed without a mail: only without an
    /// SMTP transport, and then as `autoconfirm` says (on by default).
    pub fn autoconfirm(&self) -> bool {
        self.autoconfirm && self.smtp.is_none()
    }
}

impl Default for AuthConfig {
    fn default() -> Self {
        Self {
            site_url: None,
            redirect_allow_list: Vec::new(),
            jwt_keys: None,
            jwt_secret: None,
            jwt_expiry_secs: 3600,
            autoconfirm: true,
            anonymous_sign_ins: false,
            disable_signup: false,
            refresh_token_reuse_interval_secs: 10,
            password_min_length: 6,
            secure_password_change: false,
            otp_expiry_secs: 3600,
            dev_outbox: false,
            trust_x_forwarded_for: false,
            password_hash: PasswordHashConfig::default(),
            rate_limits: RateLimitConfig::default(),
            smtp: None,
            manual_linking: false,
            sms: SmsConfig::default(),
            providers: std::collections::BTreeMap::new(),
            webauthn: WebauthnConfig::default(),
            passkeys: PasskeysConfig::default(),
        }
    }
}

/// Which SMS provider sends phone sign-in codes (`providers::sms`).
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct SmsConfig {
    pub provider: SmsProviderKind,
    pub twilio: TwilioConfig,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum SmsProviderKind {
    /// No SMS: phone sign-in is off (GoTrue's `phone_provider_disabled`).
    #[default]
    None,
    /// Texts are kept in the mail outbox (development, tests).
    Embedded,
    /// Twilio's Messages API.
    Twilio,
}

/// Twilio's Messages API (GoTrue's `GOTRUE_SMS_TWILIO_*`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct TwilioConfig {
    /// The API's address; a local double in tests.
    pub base_url: String,
    pub account_sid: Option<String>,
    pub auth_token: Option<Secret>,
    /// The sending number, e.g. `+15005550006` …
    pub from: Option<String>,
    /// … or a Messaging Service SID, which wins when both are set.
    pub message_service_sid: Option<String>,
}

impl Default for TwilioConfig {
    fn default() -> Self {
        Self {
            base_url: "https://api.twilio.com".to_owned(),
            account_sid: None,
            auth_token: None,
            from: None,
            message_service_sid: None,
        }
    }
}

/// argon2id parameters. The defaults are OWASP's (19 MiB, 2 passes); tests
/// use cheap ones.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct PasswordHashConfig {
    pub memory_kib: u32,
    pub iterations: u32,
    pub parallelism: u32,
}

impl Default for PasswordHashConfig {
    fn default() -> Self {
        Self {
            memory_kib: 19 * 1024,
            iterations: 2,
            parallelism: 1,
        }
    }
}

/// Requests allowed per window, shared by every instance through the
/// database. The defaults are GoTrue's, except for the mail limits (GoTrue
/// counts 30 mails an hour for the deployment; here that is per client IP)
/// and `wrong_passwords_per_5min`, which GoTrue does not have.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct RateLimitConfig {
    /// `POST /token` (every grant), per IP per 5 minutes.
    pub token_per_5min: u32,
    /// `/verify`, per IP per 5 minutes.
    pub verify_per_5min: u32,
    /// signup, otp, recover, resend, PUT /user, reauthenticate: per IP per 5 minutes.
    pub mail_requests_per_5min: u32,
    /// Anonymous sign-ins per IP per hour.
    pub anonymous_per_hour: u32,
    /// MFA challenge and verify per IP per minute.
    pub mfa_per_minute: u32,
    /// Wrong passwords per IP per 5 minutes, over all accounts, before that
    /// IP's password sign-ins wait for the window's end. (Per account, an IP
    /// waits after 5 wrong passwords of its own, or after 1 once the account
    /// drew 5 from anywhere; an IP without wrong passwords never waits.)
    pub wrong_passwords_per_5min: u32,
    /// Auth mails (confirmation, recovery, magic link, email change,
    /// reauthentication) one client IP may have sent per hour.
    pub emails_per_address_per_hour: u32,
    /// Auth mails to one recipient that one client IP may have sent per hour.
    pub emails_per_recipient_per_hour: u32,
    /// Auth mails sent per hour by the whole deployment (invites included): a
    /// safety cap far above normal traffic. GoTrue's 30 for the deployment let
    /// one client stop everyone's mail.
    pub emails_per_hour: u32,
    /// Seconds between two mails of one kind to one address.
    pub email_resend_gap_secs: u64,
}

impl Default for RateLimitConfig {
    fn default() -> Self {
        Self {
            token_per_5min: 150,
            verify_per_5min: 30,
            mail_requests_per_5min: 30,
            anonymous_per_hour: 30,
            mfa_per_minute: 15,
            wrong_passwords_per_5min: 30,
            emails_per_address_per_hour: 30,
            emails_per_recipient_per_hour: 10,
            emails_per_hour: 10_000,
            email_resend_gap_secs: 60,
        }
    }
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SmtpConfig {
    pub host: String,
    #[serde(default = "default_smtp_port")]
    pub port: u16,
    pub username: Option<String>,
    pub password: Option<Secret>,
    /// `starttls` (default), `tls` (implicit, port 465) or `none` (local relays only).
    #[serde(default)]
    pub security: SmtpSecurity,
    /// The From header, e.g. `PrettyScore <no-reply@prettyscore.app>`.
    pub from: String,
}

fn default_smtp_port() -> u16 {
    587
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum SmtpSecurity {
    #[default]
    Starttls,
    Tls,
    None,
}

/// Values given on the command line; they win over every other layer.
#[derive(Debug, Default, Clone)]
pub struct Overrides {
    pub bind: Option<SocketAddr>,
    pub data_dir: Option<PathBuf>,
}

impl Config {
    /// Loads the layers from the process environment.
    pub fn load(file: Option<&Path>, overrides: &Overrides) -> Result<Self, ConfigError> {
        Self::from_figment(Self::figment(file), overrides)
    }

    fn figment(file: Option<&Path>) -> Figment {
        let mut figment = Figment::from(Serialized::defaults(Config::default()));
        if let Some(file) = file {
            figment = figment.merge(Toml::file_exact(file));
        }
        // Only the keys we know: other PRETTYSCORE_* variables (the config file
        // path, test settings) belong to other tools, while a typo in the file
        // is still reported.
        let known = |key: &figment::value::UncasedStr| {
            let top = key.as_str().split('.').next().unwrap_or_default();
            TOP_LEVEL_KEYS.iter().any(|k| k.eq_ignore_ascii_case(top))
        };
        figment
            .merge(Env::prefixed("PRETTYSCORE_").split("__").filter(known))
            .merge(Env::raw().only(&["DATABASE_URL"]))
    }

    fn from_figment(figment: Figment, overrides: &Overrides) -> Result<Self, ConfigError> {
        let mut config: Config = figment.extract().map_err(Box::new)?;
        if let Some(bind) = overrides.bind {
            config.bind = bind;
        }
        if let Some(dir) = &overrides.data_dir {
            config.data_dir = dir.clone();
        }
        Ok(config)
    }

    /// The database to use: the configured URL, or SQLite in the data dir.
    pub fn database_url(&self) -> String {
        match &self.database_url {
            Some(url) => url.expose().to_owned(),
            None => format!(
                "sqlite://{}?mode=rwc",
                self.data_dir.join("prettyscore.sqlite").display()
            ),
        }
    }

    /// Whether the server is public: its `public_url` is `https://…`.
    /// Anything else (no `public_url`, `http://localhost…`) is development.
    pub fn is_public(&self) -> bool {
        self.public_url.as_deref().is_some_and(|url| {
            url.trim()
                .get(..8)
                .is_some_and(|scheme| scheme.eq_ignore_ascii_case("https://"))
        })
    }

    /// How long a query waits for a database connection, when configured.
    pub fn database_acquire_timeout(&self) -> Option<std::time::Duration> {
        self.database_acquire_timeout_ms
            .map(|ms| std::time::Duration::from_millis(ms.max(1)))
    }

    pub fn media_dir(&self) -> PathBuf {
        self.data_dir.join("media")
    }
}

#[derive(Debug, thiserror::Error)]
#[error("invalid configuration: {0}")]
pub struct ConfigError(#[from] Box<figment::Error>);

#[cfg(test)]
// figment's `Jail` closures return its (large) error type.
#[allow(clippy::result_large_err)]
mod tests {
    use super::*;
    use figment::Jail;

    #[test]
    fn defaults_need_no_environment() {
        Jail::expect_with(|_| {
            let config = Config::load(None, &Overrides::default()).unwrap();
            assert_eq!(config.bind.to_string(), "127.0.0.1:8080");
            assert_eq!(config.data_dir, PathBuf::from("./data"));
            assert_eq!(config.storage, StorageConfig::Local);
            assert_eq!(
                config.database_url(),
                "sqlite://./data/prettyscore.sqlite?mode=rwc"
            );
            Ok(())
        });
    }

    #[test]
    fn every_section_can_be_set_from_the_environment() {
        let sections = serde_json::to_value(Config::default()).unwrap();
        let mut names: Vec<&str> = sections
            .as_object()
            .unwrap()
            .keys()
            .map(String::as_str)
            .collect();
        names.sort_unstable();
        let mut known = TOP_LEVEL_KEYS.to_vec();
        known.sort_unstable();
        assert_eq!(
            names, known,
            "TOP_LEVEL_KEYS must list every field of Config"
        );
        Jail::expect_with(|jail| {
            jail.set_env("PRETTYSCORE_PARTNERS__COMMISSION_HOLD_DAYS", "0");
            let config = Config::load(None, &Overrides::default()).unwrap();
            assert_eq!(config.partners.commission_hold_days, 0);
            Ok(())
        });
    }

    #[test]
    fn file_then_environment_then_flags_each_win_over_the_layer_before() {
        Jail::expect_with(|jail| {
            jail.create_file(
                "prettyscore.toml",
                r#"
                bind = "127.0.0.1:9000"
                data_dir = "/from/file"
                contact_email = "file@example.com"
                [storage]
                backend = "s3"
                bucket = "photos"
                endpoint = "http://127.0.0.1:9999"
                allow_http = true
                "#,
            )?;
            jail.set_env("PRETTYSCORE_DATA_DIR", "/from/env");
            jail.set_env("PRETTYSCORE_STORAGE__BUCKET", "env-bucket");
            jail.set_env("DATABASE_URL", "postgres://db.internal/prettyscore");

            let file = Path::new("prettyscore.toml");
            let config = Config::load(Some(file), &Overrides::default()).unwrap();
            assert_eq!(
                config.bind.to_string(),
                "127.0.0.1:9000",
                "file beats default"
            );
            assert_eq!(
                config.data_dir,
                PathBuf::from("/from/env"),
                "env beats file"
            );
            assert_eq!(config.contact_email, "file@example.com");
            assert_eq!(config.database_url(), "postgres://db.internal/prettyscore");
            let StorageConfig::S3(s3) = &config.storage else {
                panic!("expected S3 storage, got {:?}", config.storage);
            };
            assert_eq!(s3.bucket, "env-bucket");
            assert_eq!(s3.region, "us-east-1");

            let flags = Overrides {
                bind: Some("127.0.0.1:0".parse().unwrap()),
                data_dir: Some(PathBuf::from("/from/flag")),
            };
            let config = Config::load(Some(file), &flags).unwrap();
            assert_eq!(config.bind.port(), 0, "flag beats file");
            assert_eq!(
                config.data_dir,
                PathBuf::from("/from/flag"),
                "flag beats env"
            );
            Ok(())
        });
    }

    #[test]
    fn a_typo_in_the_file_is_an_error_not_a_silent_default() {
        Jail::expect_with(|jail| {
            jail.create_file("prettyscore.toml", "bnd = \"127.0.0.1:1\"")?;
            let err = Config::load(Some(Path::new("prettyscore.toml")), &Overrides::default())
                .unwrap_err();
            assert!(err.to_string().contains("bnd"), "{err}");
            Ok(())
        });
    }

    #[test]
    fn a_missing_config_file_is_an_error() {
        Jail::expect_with(|_| {
            assert!(Config::load(Some(Path::new("nope.toml")), &Overrides::default()).is_err());
            Ok(())
        });
    }

    #[test]
    fn auth_settings_have_gotrue_defaults_and_come_from_the_environment() {
        Jail::expect_with(|jail| {
            let config = Config::load(None, &Overrides::default()).unwrap();
            assert!(config.auth.autoconfirm());
            assert!(!config.auth.anonymous_sign_ins);
            assert!(!config.auth.dev_outbox);
            assert_eq!(config.auth.jwt_expiry_secs, 3600);
            assert_eq!(config.auth.rate_limits.token_per_5min, 150);

            jail.set_env("PRETTYSCORE_AUTH__SMTP__HOST", "smtp.example.com");
            jail.set_env("PRETTYSCORE_AUTH__SMTP__FROM", "no-reply@example.com");
            let config = Config::load(None, &Overrides::default()).unwrap();
            assert!(
                !config.auth.autoconfirm(),
                "with SMTP, confirmation is on by default"
            );
            jail.set_env("PRETTYSCORE_AUTH__AUTOCONFIRM", "true");
            let config = Config::load(None, &Overrides::default()).unwrap();
            assert!(
                !config.auth.autoconfirm(),
                "with SMTP, autoconfirm cannot skip the mail"
            );
            jail.set_env("PRETTYSCORE_AUTH__AUTOCONFIRM", "false");
            jail.set_env("PRETTYSCORE_AUTH__DEV_OUTBOX", "true");
            jail.set_env("PRETTYSCORE_AUTH__REFRESH_TOKEN_REUSE_INTERVAL_SECS", "0");
            jail.set_env("PRETTYSCORE_AUTH__RATE_LIMITS__TOKEN_PER_5MIN", "5");
            jail.set_env(
                "PRETTYSCORE_AUTH__JWT_SECRET",
                "super-secret-jwt-token-with-32-chars",
            );
            jail.set_env("PRETTYSCORE_AUTH__SMTP__HOST", "smtp.example.com");
            jail.set_env("PRETTYSCORE_AUTH__SMTP__FROM", "no-reply@example.com");
            let config = Config::load(None, &Overrides::default()).unwrap();
            assert!(!config.auth.autoconfirm());
            assert!(config.auth.dev_outbox);
            assert_eq!(config.auth.refresh_token_reuse_interval_secs, 0);
            assert_eq!(config.auth.rate_limits.token_per_5min, 5);
            let smtp = config.auth.smtp.as_ref().unwrap();
            assert_eq!((smtp.host.as_str(), smtp.port), ("smtp.example.com", 587));
            assert_eq!(smtp.security, SmtpSecurity::Starttls);
            assert!(!format!("{config:?}").contains("super-secret"));
            Ok(())
        });
    }

    #[test]
    fn edit_settings_default_to_five_free_edits_and_no_provider() {
        Jail::expect_with(|jail| {
            let config = Config::load(None, &Overrides::default()).unwrap();
            assert_eq!(config.edits.free_edits, 5);
            assert_eq!(config.edits.per_client_per_minute, 20);
            assert_eq!(config.edits.temp_ttl_secs, 86_400);
            assert!(!config.edits.provider.is_configured());

            jail.set_env("PRETTYSCORE_EDITS__FREE_EDITS", "3");
            jail.set_env(
                "PRETTYSCORE_EDITS__PROVIDER__BASE_URL",
                "https://api.example.com/v1",
            );
            jail.set_env("PRETTYSCORE_EDITS__PROVIDER__API_KEY", "sk-very-secret");
            jail.set_env("PRETTYSCORE_EDITS__PROVIDER__MODEL", "gpt-image-1");
            let config = Config::load(None, &Overrides::default()).unwrap();
            assert_eq!(config.edits.free_edits, 3);
            assert!(config.edits.provider.is_configured());
            assert_eq!(config.edits.provider.model.as_deref(), Some("gpt-image-1"));
            assert!(!format!("{config:?}").contains("sk-very-secret"));
            Ok(())
        });
    }

    #[test]
    fn secrets_are_redacted_in_debug_output() {
        let config = Config {
            database_url: Some(Secret::new("postgres://user:hunter2@db/app")),
            ..Config::default()
        };
        let printed = format!("{config:?}");
        assert!(!printed.contains("hunter2"), "{printed}");
    }
}
