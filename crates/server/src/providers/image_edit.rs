//! Image edits: [`ImageEditProvider`] edits an image as a prompt says. Two
//! implementations:
//!
//! - [`OpenAiImageEdits`], the real one, calls an OpenAI-compatible
//!   image-edit API (`POST {base_url}/images/edits`, multipart: `model`,
//!   `image`, `prompt`, `n`, and `response_format=b64_json` for models that
//!   take it) and reads `data[0].b64_json`. It is used only when
//!   `edits.provider.base_url` is configured.
//! - [`BuiltinImageEdits`], the embedded one, is the built-in engine
//!   (`prettyscore-imaging`) run in the bounded blocking pool. The edits
//!   domain uses it for every prompt the engine understands (and for slider
//!   adjustments, through [`BuiltinImageEdits::apply`]), and hands the other
//!   prompts to the configured provider, if any.
//!
//! The client follows no redirects and has a timeout; the only address it
//! ever calls is the configured one.

use std::sync::Arc;
use std::time::Duration;

use bytes::Bytes;
use data_encoding::BASE64;
use serde::Deserialize;

use prettyscore_imaging::{EditError, Operation, Unsupported};

use crate::blocking::{BlockingError, BlockingPool};
use crate::config::{ProviderConfig, Secret};

/// Largest provider answer read (a 4K PNG in base64 is well under this).
const MAX_RESPONSE_BYTES: usize = 64 * 1024 * 1024;

#[derive(Debug, thiserror::Error)]
pub enum ProviderError {
    #[error("the provider refused: too many requests")]
    RateLimited,
    #[error("the provider account is out of credits")]
    NoCredits,
    #[error("the provider failed: {0}")]
    Failed(String),
    /// The built-in engine cannot do what the prompt asks.
    #[error(transparent)]
    Unsupported(Unsupported),
    /// The built-in engine refused the image (not an image, too large, no face…).
    #[error(transparent)]
    Engine(EditError),
    /// The blocking pool is shut down, or the work panicked.
    #[error(transparent)]
    Blocking(BlockingError),
}

/// An outside service that edits images from a prompt.
#[async_trait::async_trait]
pub trait ImageEditProvider: Send + Sync + std::fmt::Debug {
    /// Edits `image` as `prompt` says; returns the image it made (PNG or
    /// JPEG bytes, as the service sends them).
    async fn edit(&self, image: Bytes, prompt: &str) -> Result<Vec<u8>, ProviderError>;
}

/// The embedded implementation: the built-in engine, in the bounded pool
/// shared with the analyses, never on the async runtime.
#[derive(Debug, Clone)]
pub struct BuiltinImageEdits {
    pool: BlockingPool,
}

impl BuiltinImageEdits {
    pub fn new(pool: BlockingPool) -> Self {
        Self { pool }
    }

    /// Carries out the engine's operations (a prompt's, and the sliders');
    /// answers a JPEG without metadata.
    pub async fn apply(&self, image: Bytes, ops: Vec<Operation>) -> Result<Vec<u8>, ProviderError> {
        let edited = self
            .pool
            .run(move || prettyscore_imaging::apply(&image, &ops))
            .await
            .map_err(ProviderError::Blocking)?
            .map_err(ProviderError::Engine)?;
        Ok(edited.jpeg)
    }
}

#[async_trait::async_trait]
impl ImageEditProvider for BuiltinImageEdits {
    async fn edit(&self, image: Bytes, prompt: &str) -> Result<Vec<u8>, ProviderError> {
        let ops = prettyscore_imaging::interpret(prompt).map_err(ProviderError::Unsupported)?;
        self.apply(image, ops).await
    }
}

/// The provider the configuration names, if any.
pub fn from_config(config: &ProviderConfig) -> anyhow::Result<Option<Arc<dyn ImageEditProvider>>> {
    Ok(OpenAiImageEdits::from_config(config)?
        .map(|provider| Arc::new(provider) as Arc<dyn ImageEditProvider>))
}

/// An OpenAI-compatible image-edit API.
#[derive(Clone)]
pub struct OpenAiImageEdits {
    client: reqwest::Client,
    endpoint: String,
    api_key: Option<Secret>,
    model: Option<String>,
}

impl std::fmt::Debug for OpenAiImageEdits {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("OpenAiImageEdits")
            .field("endpoint", &self.endpoint)
            .field("model", &self.model)
            .finish_non_exhaustive()
    }
}

#[derive(Deserialize)]
struct EditsResponse {
    data: Vec<ImageData>,
}

#[derive(Deserialize)]
struct ImageData {
    b64_json: Option<String>,
}

#[derive(Deserialize)]
struct ErrorResponse {
    error: Option<ErrorDetail>,
}

#[derive(Deserialize)]
struct ErrorDetail {
    code: Option<String>,
    #[serde(rename = "type")]
    kind: Option<String>,
}

impl OpenAiImageEdits {
    /// The API the configuration names, if any.
    pub fn from_config(config: &ProviderConfig) -> anyhow::Result<Option<Self>> {
        if !config.is_configured() {
            return Ok(None);
        }
        let base_url = config.base_url.as_deref().unwrap_or_default().trim();
        let client = reqwest::Client::builder()
            .timeout(Duration::from_secs(config.timeout_secs.max(1)))
            .redirect(reqwest::redirect::Policy::none())
            .build()?;
        Ok(Some(Self {
            client,
            endpoint: format!("{}/images/edits", base_url.trim_end_matches('/')),
            api_key: config.api_key.clone(),
            model: config
                .model
                .clone()
                .filter(|model| !model.trim().is_empty()),
        }))
    }
}

#[async_trait::async_trait]
impl ImageEditProvider for OpenAiImageEdits {
    async fn edit(&self, image: Bytes, prompt: &str) -> Result<Vec<u8>, ProviderError> {
        let (file_name, mime) = image_kind(&image);
        let image_part = reqwest::multipart::Part::bytes(image.to_vec())
            .file_name(file_name)
            .mime_str(mime)
            .map_err(|err| ProviderError::Failed(err.to_string()))?;
        let mut form = reqwest::multipart::Form::new()
            .part("image", image_part)
            .text("prompt", prompt.to_owned())
            .text("n", "1");
        if let Some(model) = &self.model {
            form = form.text("model", model.clone());
        }
        // GPT image models always answer in base64 and refuse the parameter.
        if !self
            .model
            .as_deref()
            .is_some_and(|model| model.starts_with("gpt-image"))
        {
            form = form.text("response_format", "b64_json");
        }
        let mut request = self.client.post(&self.endpoint).multipart(form);
        if let Some(key) = &self.api_key {
            request = request.bearer_auth(key.expose());
        }
        let response = request
            .send()
            .await
            .map_err(|err| ProviderError::Failed(without_url(err)))?;
        let status = response.status();
        if response
            .content_length()
            .is_some_and(|length| length > MAX_RESPONSE_BYTES as u64)
        {
            return Err(ProviderError::Failed("the answer is too large".into()));
        }
        let body = response
            .bytes()
            .await
            .map_err(|err| ProviderError::Failed(without_url(err)))?;
        if !status.is_success() {
            let detail: Option<ErrorDetail> = serde_json::from_slice::<ErrorResponse>(&body)
                .ok()
                .and_then(|error| error.error);
            // OpenAI answers an exhausted balance with 429 `insufficient_quota`.
            let out_of_credits = detail.as_ref().is_some_and(|detail| {
                [detail.code.as_deref(), detail.kind.as_deref()]
                    .contains(&Some("insufficient_quota"))
            });
            return Err(match status.as_u16() {
                402 => ProviderError::NoCredits,
                429 if out_of_credits => ProviderError::NoCredits,
                429 => ProviderError::RateLimited,
                code => ProviderError::Failed(format!("status {code}")),
            });
        }
        if body.len() > MAX_RESPONSE_BYTES {
            return Err(ProviderError::Failed("the answer is too large".into()));
        }
        let answer: EditsResponse = serde_json::from_slice(&body)
            .map_err(|err| ProviderError::Failed(format!("unreadable answer: {err}")))?;
        let encoded = answer
            .data
            .into_iter()
            .next()
            .and_then(|image| image.b64_json)
            .ok_or_else(|| ProviderError::Failed("no b64_json image in the answer".into()))?;
        BASE64
            .decode(encoded.trim().as_bytes())
            .map_err(|_| ProviderError::Failed("the image is not valid base64".into()))
    }
}

/// A file name and type the provider accepts for these bytes.
fn image_kind(bytes: &[u8]) -> (&'static str, &'static str) {
    if bytes.starts_with(b"\x89PNG") {
        ("image.png", "image/png")
    } else if bytes.starts_with(b"RIFF") && bytes.get(8..12) == Some(b"WEBP") {
        ("image.webp", "image/webp")
    } else {
        ("image.jpg", "image/jpeg")
    }
}

/// The error without the request URL (it may carry a key in a query).
fn without_url(err: reqwest::Error) -> String {
    let kind = if err.is_timeout() {
        "timed out"
    } else if err.is_connect() {
        "could not connect"
    } else {
        "request failed"
    };
    format!("{kind}: {}", err.without_url())
}

#[cfg(test)]
mod tests {
    use super::*;

    const PORTRAIT: &[u8] = include_bytes!("../../../../testdata/face/astronaut.png");

    #[tokio::test]
    async fn the_built_in_engine_edits_behind_the_provider_trait() {
        let provider: Arc<dyn ImageEditProvider> =
            Arc::new(BuiltinImageEdits::new(BlockingPool::new(Some(1))));
        let jpeg = provider
            .edit(Bytes::from_static(PORTRAIT), "enhance")
            .await
            .unwrap();
        assert!(jpeg.starts_with(&[0xff, 0xd8]), "a JPEG");
        assert!(matches!(
            provider
                .edit(
                    Bytes::from_static(PORTRAIT),
                    "put me on the moon in a spacesuit"
                )
                .await,
            Err(ProviderError::Unsupported(_))
        ));
        assert!(matches!(
            provider
                .edit(Bytes::from_static(b"not an image"), "enhance")
                .await,
            Err(ProviderError::Engine(EditError::NotAnImage))
        ));
    }
}
