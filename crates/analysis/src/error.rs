//! Typed errors with stable codes and the user-facing messages of the spec.

/// Why an image could not be analysed. Every variant is something a user can cause;
/// none of them is an internal failure.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum AnalysisError {
    /// The upload is larger than [`crate::MAX_UPLOAD_BYTES`].
    #[error("upload of {0} bytes exceeds the limit")]
    TooLarge(usize),
    /// The bytes are not in an image format we read (JPEG, PNG, WebP, GIF, BMP).
    #[error("not an image")]
    NotAnImage,
    /// The file looks like an image but is cut off (a dropped upload) or cannot be
    /// decoded (damaged).
    #[error("corrupt image: {0}")]
    CorruptImage(String),
    /// The declared dimensions are too large to decode safely (decompression bomb) or
    /// too small to analyse.
    #[error("unsupported dimensions {0}x{1}")]
    BadDimensions(u32, u32),
    /// No face was found.
    #[error("no face found")]
    NoFace,
    /// A face was found but it is too small or cut off by the image border.
    #[error("face too small or cut off")]
    FaceTooSmall,
    /// No whole hand was found (none at all, or too small, or cut off by the border).
    #[error("no hand found")]
    NoHand,
    /// A feet photo that fails the feet check: too little bare smooth skin, fur, a face
    /// (a person's or an animal's) or a hand.
    #[error("not a photo of feet")]
    NotFeet,
}

/// What the user reads when a feet photo shows no feet.
pub const NOT_FEET: &str = "We could not find feet in this photo. Please try another one.";

/// What the user reads about a cut-off or damaged photo.
pub const IMAGE_INCOMPLETE: &str =
    "This photo looks damaged or incomplete. Please choose it again.";

impl AnalysisError {
    /// A stable machine-readable code for the API's error shape.
    pub fn code(&self) -> &'static str {
        match self {
            AnalysisError::TooLarge(_) => "too_large",
            AnalysisError::NotAnImage => "not_an_image",
            AnalysisError::CorruptImage(_) => "image_incomplete",
            AnalysisError::BadDimensions(..) => "bad_dimensions",
            AnalysisError::NoFace => "no_face",
            AnalysisError::FaceTooSmall => "face_too_small",
            AnalysisError::NoHand => "no_hand",
            AnalysisError::NotFeet => "not_feet",
        }
    }

    /// The message shown to the user (the spec's wording where the spec has one).
    pub fn user_message(&self) -> &'static str {
        match self {
            AnalysisError::TooLarge(_) => "File too large! Please upload an image under 10MB.",
            AnalysisError::NotAnImage => "Please upload an image file",
            AnalysisError::CorruptImage(_) => IMAGE_INCOMPLETE,
            AnalysisError::BadDimensions(..) => {
                "This image's dimensions are not supported. Please upload a regular photo (up to 50 megapixels)."
            }
            AnalysisError::NoFace => {
                "We couldn't find a face in this photo. Please upload a front-facing, well-lit photo where your face is clearly visible."
            }
            AnalysisError::FaceTooSmall => {
                "Your face is too small or cut off in this photo. Please upload a closer, front-facing, well-lit photo with your whole face in the frame."
            }
            AnalysisError::NoHand => {
                "We couldn't find a whole hand in this photo. Please upload a close, well-lit photo of one hand with all five fingers in the frame."
            }
            AnalysisError::NotFeet => NOT_FEET,
        }
    }
}
