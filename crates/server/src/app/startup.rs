//! Builds the application from a `Config`: the same path for `prettyscore
//! serve` and for the integration tests, which bind port 0. It makes every
//! shared handle of the `AppState` and starts the background jobs.

use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

use anyhow::Context;
use tokio::net::TcpListener;

use crate::blocking::BlockingPool;
use crate::config::{Config, PaymentProviderKind};
use crate::db;
use crate::http::recent_reads::RecentReads;
use crate::http::{self, AppState, spa::WebApp};
use crate::mail::Mailer;
use crate::storage::Storage;
use crate::tokens::KeyRing;

pub struct Application {
    listener: TcpListener,
    router: axum::Router,
    state: AppState,
}

/// The development outbox serves every mail, recovery links included, to
/// anyone who asks: it may only be on when nobody else can reach the server.
fn check_dev_outbox(config: &Config) -> anyhow::Result<()> {
    if !config.auth.dev_outbox {
        return Ok(());
    }
    if !config.bind.ip().is_loopback() {
        anyhow::bail!(
            "auth.dev_outbox serves every mail (recovery links included) to anyone: it is refused on {}; bind to a loopback address (127.0.0.1 or ::1) or turn it off",
            config.bind
        );
    }
    tracing::warn!(
        bind = %config.bind,
        "auth.dev_outbox is on: GET /api/v1/dev/outbox serves every mail, recovery links included; for local development only"
    );
    Ok(())
}

/// A public server (an `https://` public URL) on the sandbox gives Premium
/// and every paid analysis away, and its fake payments would earn partner
/// commissions; the development outbox would show anyone's recovery links.
/// Refused unless `payments.allow_test_payments` says it is meant (a public
/// test deployment).
fn check_test_payments(config: &Config) -> anyhow::Result<()> {
    if !config.is_public() || config.payments.allow_test_payments {
        return Ok(());
    }
    let url = config.public_url.as_deref().unwrap_or_default();
    if config.payments.provider == PaymentProviderKind::Sandbox {
        anyhow::bail!(
            "the public URL {url} is https, but payments.provider is the sandbox, which lets anyone buy anything for free: configure Stripe (payments.provider = \"stripe\") or, for a public test deployment, set payments.allow_test_payments = true"
        );
    }
    if config.auth.dev_outbox {
        anyhow::bail!(
            "the public URL {url} is https, but auth.dev_outbox is on, which shows every mail (recovery links included) to anyone: turn it off or, for a public test deployment, set payments.allow_test_payments = true"
        );
    }
    Ok(())
}

impl Application {
    /// Prepares the data dir, connects and migrates the database, sets up
    /// storage and binds the listener. Nothing is served until `run`.
    pub async fn build(config: Config) -> anyhow::Result<Self> {
        check_dev_outbox(&config)?;
        check_test_payments(&config)?;
        crate::storage::create_private_dir(&config.data_dir).with_context(|| {
            format!(
                "could not create the data directory {}",
                config.data_dir.display()
            )
        })?;
        let url = config.database_url();
        let acquire_timeout = config
            .database_acquire_timeout()
            .unwrap_or_else(|| db::default_acquire_timeout(&url));
        let db = db::connect_with(&url, acquire_timeout)
            .await
            .context("could not connect to the database")?;
        db::migrate(&db)
            .await
            .context("could not apply the database migrations")?;
        let storage = Storage::from_config(&config).context("could not set up object storage")?;
        let listener = TcpListener::bind(config.bind)
            .await
            .with_context(|| format!("could not listen on {}", config.bind))?;
        let web = match &config.web_dir {
            Some(dir) => WebApp::Dir(dir.clone()),
            None => WebApp::Embedded,
        };
        if let Some(warning) = web.startup_warning().await {
            tracing::warn!("{warning}");
        }
        let base_url = config
            .public_url
            .clone()
            .unwrap_or_else(|| format!("http://{}", listener.local_addr().unwrap_or(config.bind)));
        let keys = Arc::new(
            KeyRing::load(&db, &config.auth)
                .await
                .context("could not load the token signing keys")?,
        );
        keys.spawn_refresh(db.clone());
        let mailer = Mailer::from_config(db.clone(), config.auth.smtp.as_ref())
            .context("could not set up mail delivery")?;
        mailer.spawn_worker();
        // Load and check the face models now, not on the first upload.
        tokio::task::spawn_blocking(prettyscore_analysis::warm_up).await?;
        let blocking = BlockingPool::new(config.analysis.max_concurrent);
        spawn_idle_trim(blocking.clone());
        let image_edits = crate::providers::image_edit::from_config(&config.edits.provider)
            .context("could not set up the image-edit provider")?;
        let payments =
            crate::providers::payments::Payments::from_config(&config.payments, db.clone())
                .context("could not set up the payment provider")?;
        let sms = crate::providers::sms::from_config(&config.auth.sms, &db)
            .context("could not set up the SMS provider")?;
        let identity_providers =
            crate::providers::identity::IdentityProviders::from_config(&config.auth.providers)
                .context("could not set up the sign-in providers")?;
        let db_backend = sea_orm::ConnectionTrait::get_database_backend(&db);
        let notifier = crate::db::notify::Notifier::new(&db);
        let hooks = super::hooks::registry(&config, &mailer, &base_url, &notifier);
        let state = AppState {
            config: Arc::new(config),
            db,
            storage,
            keys,
            sessions: Arc::default(),
            user_lists: Arc::new(match db_backend {
                sea_orm::DbBackend::Sqlite => RecentReads::standard(),
                _ => RecentReads::off(),
            }),
            public_answers: Arc::new(RecentReads::standard()),
            mailer,
            sms,
            identity_providers,
            image_edits,
            payments,
            blocking,
            user_data: super::account::registry(),
            hooks,
            notifier,
            web: Arc::new(web),
            metrics: http::metrics::recorder(),
            draining: http::server::Draining::default(),
            base_url,
        };
        if let Err(err) = crate::auth::webauthn::configured(&state) {
            tracing::warn!("passkeys and security-key factors are off: {err:#}");
        }
        let router = super::router::router(state.clone());
        Ok(Self {
            listener,
            router,
            state,
        })
    }

    pub fn local_addr(&self) -> SocketAddr {
        self.listener
            .local_addr()
            .expect("a bound listener has an address")
    }

    /// The address to open in a browser.
    pub fn url(&self) -> String {
        format!("http://{}", self.local_addr())
    }

    pub fn state(&self) -> &AppState {
        &self.state
    }

    /// Serves until the process is asked to stop (Ctrl-C or SIGTERM), then
    /// drains: `/readyz` answers 503 while requests are still served for
    /// `http.drain_secs`; then the listener closes, open event streams end
    /// with a reconnect hint, and the requests in flight have
    /// `http.shutdown_grace_secs` to finish. A second signal skips the
    /// drain.
    pub async fn run_until_stopped(self) -> std::io::Result<()> {
        crate::edits::temp::spawn_sweeper(self.state.clone());
        crate::billing::spawn_sandbox_clock(self.state.clone());
        crate::contact::expiry::spawn_hold_expiry(self.state.clone());
        crate::billing::refunds::spawn_refund_worker(self.state.clone());
        crate::billing::payouts::spawn_transfer_worker(self.state.clone());
        spawn_orphan_sweep(self.state.clone());
        self.state.notifier.spawn_listener(self.state.db.clone());
        let limits = http::server::ConnectionLimits::from_config(&self.state.config);
        let drain = Duration::from_secs(self.state.config.http.drain_secs);
        let draining = self.state.draining.clone();
        let notifier = self.state.notifier.clone();
        let stopped = async move {
            let mut signals = StopSignals::new();
            signals.next().await;
            draining.start();
            tracing::info!(
                drain_secs = drain.as_secs(),
                "stopping: /readyz answers 503 while the load balancer moves traffic away"
            );
            tokio::select! {
                () = tokio::time::sleep(drain) => {}
                () = signals.next() => tracing::info!("asked again: not waiting for the drain"),
            }
            notifier.close_streams();
            tracing::info!("no longer accepting connections; finishing the requests in flight");
        };
        let draining = self.state.draining.clone();
        http::server::serve(self.listener, self.router, limits, draining, stopped).await?;
        tracing::info!("stopped");
        Ok(())
    }
}

/// How often images without their row are looked for, and how old they must
/// be: a save in progress writes its row within seconds of its images.
const ORPHAN_SWEEP_EVERY: Duration = Duration::from_secs(3600);
const ORPHAN_GRACE_SECS: i64 = 3600;

/// Deletes stored images that no row points at (a crash between an image's
/// write and its row's), and evidence of removed content past its period,
/// once an hour on one instance: the first of them to
/// claim the hour in the shared rate-limit table.
fn spawn_orphan_sweep(state: AppState) {
    tokio::spawn(async move {
        let mut ticks = tokio::time::interval(ORPHAN_SWEEP_EVERY);
        ticks.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        loop {
            ticks.tick().await;
            let window = ORPHAN_SWEEP_EVERY.as_secs() as i64;
            match crate::rate_limit::first_in_window(&state.db, "job:orphan-sweep", window).await {
                Ok(true) => {}
                Ok(false) => continue,
                Err(err) => {
                    tracing::warn!(error = %err, "could not claim the orphan sweep");
                    continue;
                }
            }
            let before = chrono::Utc::now() - chrono::Duration::seconds(ORPHAN_GRACE_SECS);
            let photos = crate::photos::orphans::sweep_orphans(&state.db, &state.storage, before);
            let edits = crate::edits::temp::sweep_orphans(&state.db, &state.storage, before);
            match tokio::try_join!(photos, edits) {
                Ok((0, 0)) => {}
                Ok((photos, edits)) => {
                    tracing::info!(photos, edits, "removed stored images without their row")
                }
                Err(err) => tracing::warn!(error = %err, "the orphan sweep failed"),
            }
            // Evidence of removed content past its period (issue 41).
            match crate::reports::sweep_evidence(&state).await {
                Ok(0) => {}
                Ok(n) => tracing::info!(decisions = n, "deleted evidence kept past its period"),
                Err(err) => tracing::warn!(error = %err, "the evidence sweep failed"),
            }
        }
    });
}

/// After a burst of analyses, hands their working buffers back once the pool
/// has been quiet for a while: kept warm they cost tens of MB for good
/// (issue 10's flood left 118 MB resident; the goal is under 100).
fn spawn_idle_trim(blocking: BlockingPool) {
    const QUIET: Duration = Duration::from_secs(10);
    tokio::spawn(async move {
        let mut trimmed_at = None;
        let mut tick = tokio::time::interval(QUIET);
        loop {
            tick.tick().await;
            let Some(finished) = blocking.idle_since(QUIET) else {
                continue;
            };
            if trimmed_at != Some(finished) {
                trimmed_at = Some(finished);
                let freed =
                    tokio::task::spawn_blocking(prettyscore_analysis::release_spare_buffers)
                        .await
                        .unwrap_or(0);
                tracing::debug!(freed, "released the idle analysis buffers");
            }
        }
    });
}

/// Ctrl-C and SIGTERM, as many times as they come.
struct StopSignals {
    #[cfg(unix)]
    terminate: Option<tokio::signal::unix::Signal>,
}

impl StopSignals {
    fn new() -> Self {
        Self {
            #[cfg(unix)]
            terminate: tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate())
                .ok(),
        }
    }

    async fn next(&mut self) {
        let ctrl_c = async {
            if tokio::signal::ctrl_c().await.is_err() {
                std::future::pending::<()>().await;
            }
        };
        #[cfg(unix)]
        let terminate = async {
            match self.terminate.as_mut() {
                Some(signal) => {
                    signal.recv().await;
                }
                None => std::future::pending::<()>().await,
            }
        };
        #[cfg(not(unix))]
        let terminate = std::future::pending::<()>();
        tokio::select! {
            () = ctrl_c => {},
            () = terminate => {},
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn public(provider: PaymentProviderKind, dev_outbox: bool, allow: bool) -> Config {
        let mut config = Config {
            public_url: Some("https://prettyscore.example".to_owned()),
            ..Config::default()
        };
        config.payments.provider = provider;
        config.payments.allow_test_payments = allow;
        config.auth.dev_outbox = dev_outbox;
        config
    }

    #[test]
    fn a_public_server_refuses_the_sandbox_and_the_dev_outbox_unless_allowed() {
        use PaymentProviderKind::{Sandbox, Stripe};
        let refused = check_test_payments(&public(Sandbox, false, false)).unwrap_err();
        assert!(
            refused.to_string().contains("payments.allow_test_payments"),
            "{refused}"
        );
        assert!(refused.to_string().contains("sandbox"), "{refused}");
        let refused = check_test_payments(&public(Stripe, true, false)).unwrap_err();
        assert!(refused.to_string().contains("dev_outbox"), "{refused}");
        check_test_payments(&public(Stripe, false, false)).expect("Stripe on https starts");
        check_test_payments(&public(Sandbox, true, true))
            .expect("an allowed public test server starts");
        // Development: no public URL, or a plain-http one.
        check_test_payments(&Config::default()).expect("the embedded defaults start");
        let mut local = public(Sandbox, true, false);
        local.public_url = Some("http://localhost:8080".to_owned());
        check_test_payments(&local).expect("http is development");
        let mut shouting = public(Sandbox, false, false);
        shouting.public_url = Some("HTTPS://PRETTYSCORE.EXAMPLE".to_owned());
        assert!(
            check_test_payments(&shouting).is_err(),
            "the scheme in any case"
        );
    }
}
