//! The two engines behind one interface: a [`Plan`] says what to do (the
//! built-in engine's operations, or a prompt for the generative provider),
//! [`Editor::run`] does it and answers with a JPEG and what was applied.
//!
//! Built-in edits run in the bounded blocking pool shared with the analyses,
//! never on the async runtime; the provider's answer is decoded, bounded to
//! 4K and re-encoded in the same pool, so every stored result is a plain JPEG
//! without metadata.

use std::io::Cursor;
use std::sync::Arc;

use axum::http::StatusCode;
use bytes::Bytes;
use image::codecs::jpeg::JpegEncoder;
use image::{ImageReader, Limits};
use prettyscore_imaging::{Adjustments, EditError, MAX_LONG_SIDE, Operation, Unsupported};
use serde::Serialize;
use utoipa::ToSchema;

use crate::blocking::BlockingPool;
use crate::http::AppState;
use crate::http::error::{ApiError, ErrorCode};
use crate::providers::image_edit::{BuiltinImageEdits, ImageEditProvider, ProviderError};

pub const RATE_LIMITED: &str = "Rate limit exceeded. Please try again later.";
pub const NO_CREDITS: &str = "Please add credits to continue editing.";
pub const EDIT_FAILED: &str = "Failed to edit photo. Please try again.";

/// Which engine made an edit.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, ToSchema)]
#[serde(rename_all = "lowercase")]
pub enum EngineKind {
    /// The offline engine (`prettyscore-imaging`).
    Builtin,
    /// The configured OpenAI-compatible image-edit API.
    Generative,
}

/// What an edit will do.
#[derive(Debug, Clone, PartialEq)]
pub enum Plan {
    /// Operations of the built-in engine, in order.
    Builtin(Vec<Operation>),
    /// A prompt for the generative provider, then built-in operations (the
    /// sliders) on its result.
    Generative {
        prompt: String,
        then: Vec<Operation>,
    },
}

impl Plan {
    /// Works out the plan for a (trimmed) prompt and optional slider values.
    /// A prompt the built-in engine cannot do goes to the provider when there
    /// is one; otherwise the engine's answer says what it can do.
    pub fn for_request(
        prompt: &str,
        adjustments: Option<Adjustments>,
        provider_available: bool,
    ) -> Result<Self, Unsupported> {
        let sliders: Vec<Operation> = adjustments.map(Operation::Adjust).into_iter().collect();
        if prompt.is_empty() {
            return Ok(Self::Builtin(sliders));
        }
        match prettyscore_imaging::interpret(prompt) {
            Ok(mut ops) => {
                ops.extend(sliders);
                Ok(Self::Builtin(ops))
            }
            Err(_) if provider_available => Ok(Self::Generative {
                prompt: prompt.to_owned(),
                then: sliders,
            }),
            Err(unsupported) => Err(unsupported),
        }
    }

    /// Whether the plan is an AI edit that counts against the free quota.
    /// Slider adjustments alone are free.
    pub fn is_ai_edit(&self) -> bool {
        match self {
            Self::Builtin(ops) => ops.iter().any(|op| !matches!(op, Operation::Adjust(_))),
            Self::Generative { .. } => true,
        }
    }
}

/// A finished edit.
#[derive(Debug)]
pub struct Outcome {
    /// JPEG bytes, no metadata, at most [`MAX_LONG_SIDE`] on the long side.
    pub jpeg: Vec<u8>,
    /// The names of the operations applied, e.g. `["enhance", "retouch"]`.
    pub operations: Vec<String>,
    pub engine: EngineKind,
}

/// Carries out plans: the embedded provider (the built-in engine, in the
/// bounded pool), the generative provider when one is configured.
#[derive(Debug, Clone)]
pub struct Editor {
    pool: BlockingPool,
    builtin: BuiltinImageEdits,
    provider: Option<Arc<dyn ImageEditProvider>>,
}

impl Editor {
    /// The app's engine: its blocking pool and generative provider.
    pub fn of(state: &AppState) -> Self {
        Self {
            pool: state.blocking.clone(),
            builtin: BuiltinImageEdits::new(state.blocking.clone()),
            provider: state.image_edits.clone(),
        }
    }

    pub async fn run(&self, plan: Plan, image: Bytes) -> Result<Outcome, ApiError> {
        match plan {
            Plan::Builtin(ops) => {
                let operations = names(&ops);
                let edited = self.builtin(image, ops).await?;
                Ok(Outcome {
                    jpeg: edited,
                    operations,
                    engine: EngineKind::Builtin,
                })
            }
            Plan::Generative { prompt, then } => {
                let provider = self
                    .provider
                    .as_ref()
                    .ok_or_else(|| ApiError::internal(anyhow::anyhow!("no provider configured")))?;
                let made = provider
                    .edit(image, &prompt)
                    .await
                    .map_err(provider_error)?;
                let mut operations = vec!["generative".to_owned()];
                operations.extend(names(&then));
                let jpeg = if then.is_empty() {
                    self.pool
                        .run(move || to_bounded_jpeg(&made))
                        .await?
                        .map_err(|err| {
                            ApiError::new(
                                StatusCode::BAD_GATEWAY,
                                ErrorCode::EditFailed,
                                EDIT_FAILED,
                            )
                            .with_cause(anyhow::anyhow!("the provider's image: {err}"))
                        })?
                } else {
                    self.builtin(Bytes::from(made), then).await?
                };
                Ok(Outcome {
                    jpeg,
                    operations,
                    engine: EngineKind::Generative,
                })
            }
        }
    }

    async fn builtin(&self, image: Bytes, ops: Vec<Operation>) -> Result<Vec<u8>, ApiError> {
        self.builtin.apply(image, ops).await.map_err(provider_error)
    }
}

/// `enhance`, `upscale`, `retouch`, `background`, `style`, `adjust`: the
/// operation's tag in the engine's own serialisation.
fn names(ops: &[Operation]) -> Vec<String> {
    ops.iter()
        .filter_map(|op| {
            serde_json::to_value(op)
                .ok()
                .and_then(|value| value.get("op").and_then(|v| v.as_str()).map(str::to_owned))
        })
        .collect()
}

/// The engine's failures, with its own codes and messages.
pub fn edit_error(err: EditError) -> ApiError {
    let status = match err {
        EditError::TooLarge => StatusCode::PAYLOAD_TOO_LARGE,
        // As for the analyses: a cut-off photo, a readable photo without a face.
        EditError::Corrupt | EditError::NoFace => StatusCode::UNPROCESSABLE_ENTITY,
        _ => StatusCode::BAD_REQUEST,
    };
    ApiError::new(status, ErrorCode::from(&err), err.user_message()).with_cause(err)
}

/// The provider's failures in the words of the spec's error catalogue.
pub fn provider_error(err: ProviderError) -> ApiError {
    match err {
        ProviderError::RateLimited => ApiError::new(
            StatusCode::TOO_MANY_REQUESTS,
            ErrorCode::RateLimited,
            RATE_LIMITED,
        ),
        ProviderError::NoCredits => ApiError::new(
            StatusCode::PAYMENT_REQUIRED,
            ErrorCode::ProviderCredits,
            NO_CREDITS,
        ),
        ProviderError::Failed(_) => {
            ApiError::new(StatusCode::BAD_GATEWAY, ErrorCode::EditFailed, EDIT_FAILED)
                .with_cause(err)
        }
        ProviderError::Unsupported(unsupported) => super::unsupported(unsupported),
        ProviderError::Engine(err) => edit_error(err),
        ProviderError::Blocking(err) => ApiError::from(err),
    }
}

/// Decodes an image, shrinks it to at most 4K on the long side and encodes it
/// as a JPEG without metadata.
pub fn to_bounded_jpeg(bytes: &[u8]) -> Result<Vec<u8>, image::ImageError> {
    let mut reader = ImageReader::new(Cursor::new(bytes)).with_guessed_format()?;
    let mut limits = Limits::default();
    limits.max_alloc = Some(512 * 1024 * 1024);
    reader.limits(limits);
    let mut image = reader.decode()?;
    if image.width().max(image.height()) > MAX_LONG_SIDE {
        image = image.resize(
            MAX_LONG_SIDE,
            MAX_LONG_SIDE,
            image::imageops::FilterType::Lanczos3,
        );
    }
    let rgb = image.to_rgb8();
    let mut out = Vec::with_capacity(rgb.len() / 8);
    JpegEncoder::new_with_quality(&mut out, 92).encode_image(&rgb)?;
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn slider_only_requests_are_free_and_prompts_are_ai_edits() {
        let sliders = Adjustments {
            brightness: 120.0,
            ..Adjustments::default()
        };
        let plan = Plan::for_request("", Some(sliders), false).unwrap();
        assert_eq!(plan, Plan::Builtin(vec![Operation::Adjust(sliders)]));
        assert!(!plan.is_ai_edit());
        assert!(Plan::Builtin(vec![Operation::Enhance]).is_ai_edit());
        let generative = Plan::Generative {
            prompt: "give me red hair".into(),
            then: vec![],
        };
        assert!(generative.is_ai_edit());
    }

    #[test]
    fn prompts_the_engine_cannot_do_go_to_the_provider_only_when_there_is_one() {
        let prompt = "put me on the moon in a golden spacesuit";
        assert!(Plan::for_request(prompt, None, false).is_err());
        assert_eq!(
            Plan::for_request(prompt, None, true).unwrap(),
            Plan::Generative {
                prompt: prompt.into(),
                then: vec![]
            }
        );
    }

    #[test]
    fn operation_names_are_the_engines_tags() {
        let ops = [
            Operation::Enhance,
            Operation::Retouch,
            Operation::Adjust(Adjustments::default()),
        ];
        assert_eq!(names(&ops), ["enhance", "retouch", "adjust"]);
    }

    #[test]
    fn provider_images_are_bounded_to_4k_jpegs() {
        let big = image::RgbImage::from_pixel(MAX_LONG_SIDE + 200, 100, image::Rgb([200, 10, 10]));
        let mut png = Vec::new();
        big.write_to(&mut Cursor::new(&mut png), image::ImageFormat::Png)
            .unwrap();
        let jpeg = to_bounded_jpeg(&png).unwrap();
        assert_eq!(&jpeg[..3], &[0xFF, 0xD8, 0xFF]);
        let decoded = image::load_from_memory(&jpeg).unwrap();
        assert_eq!(decoded.width(), MAX_LONG_SIDE);
        assert!(to_bounded_jpeg(b"not an image").is_err());
    }
}
