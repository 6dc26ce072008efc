//! Configuration in layers: built-in defaults, then an optional TOML file,
//! then `PRETTYSCORE_*` environment variables (nested keys joined with `__`,
//! e.g. `PRETTYSCORE_STORAGE__S3__BUCKET`) and `DATABASE_URL`, then command-line
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
}

impl Default for Config {
    fn default() -> Self {
        Self {
            bind: SocketAddr::from(([127, 0, 0, 1], 8080)),
            data_dir: PathBuf::from("./data"),
            database_url: None,
            public_url: None,
            contact_email: "privacy@prettyscore.app".to_owned(),
            web_dir: None,
            log_format: LogFormat::Text,
            storage: StorageConfig::default(),
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
}

fn default_region() -> String {
    "us-east-1".to_owned()
}

const TOP_LEVEL_KEYS: &[&str] = &[
    "bind",
    "data_dir",
    "database_url",
    "public_url",
    "contact_email",
    "web_dir",
    "log_format",
    "storage",
];

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

    pub fn media_dir(&self) -> PathBuf {
        self.data_dir.join("media")
    }
}

#[derive(Debug, thiserror::Error)]
#[error("invalid configuration: {0}")]
pub struct ConfigError(#[from] Box<figment::Error>);

#[cfg(test)]
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
    fn secrets_are_redacted_in_debug_output() {
        let config = Config {
            database_url: Some(Secret::new("postgres://user:hunter2@db/app")),
            ..Config::default()
        };
        let printed = format!("{config:?}");
        assert!(!printed.contains("hunter2"), "{printed}");
    }
}
