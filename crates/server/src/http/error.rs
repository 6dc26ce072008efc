//! The one error type at the HTTP edge. Every failure a user can cause has a
//! stable machine `code` (one [`ErrorCode`]) and a message in the user's
//! words; the cause of a 5xx goes to the log, never to the client.

use std::borrow::Cow;

use axum::Json;
use axum::extract::multipart::MultipartRejection;
use axum::extract::rejection::{JsonRejection, PathRejection, QueryRejection};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use sea_orm::DbErr;
use serde::Serialize;
use utoipa::ToSchema;

use crate::db::constraints::{ViolationKind, violated_constraint};
use crate::storage::StorageError;

/// Declares [`ErrorCode`]: each variant with the exact string clients see.
macro_rules! error_codes {
    ($($(#[doc = $doc:tt])* $variant:ident = $code:tt,)*) => {
        /// Every machine code an error under `/api/` or `/functions/` carries,
        /// serialised as its snake_case string. The OpenAPI document lists them
        /// all, so the web app's generated types know each one.
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, ToSchema)]
        pub enum ErrorCode {
            $($(#[doc = $doc])* #[serde(rename = $code)] $variant,)*
        }

        impl ErrorCode {
            /// Every code, in declaration order.
            pub const ALL: &'static [ErrorCode] = &[$(ErrorCode::$variant,)*];

            /// The string clients see, e.g. `not_found`.
            pub const fn as_str(self) -> &'static str {
                match self {
                    $(ErrorCode::$variant => $code,)*
                }
            }
        }
    };
}

error_codes! {
    // The request itself.
    /// No such resource (or not one the caller may see).
    NotFound = "not_found",
    /// A page of the web app was sent something other than GET or HEAD.
    MethodNotAllowed = "method_not_allowed",
    /// The body is not JSON (`Content-Type`).
    UnsupportedMediaType = "unsupported_media_type",
    /// The body is not valid JSON.
    InvalidJson = "invalid_json",
    /// The body could not be read.
    InvalidRequest = "invalid_request",
    /// The request body is larger than this endpoint accepts.
    BodyTooLarge = "body_too_large",
    /// A query parameter is invalid.
    InvalidQuery = "invalid_query",
    /// A field is missing, too long or out of range; a database rule refused
    /// the data.
    ValidationFailed = "validation_failed",
    /// The data clashes with data that exists (a unique database rule).
    Conflict = "conflict",
    /// Too many requests from this client; try again later.
    RateLimited = "rate_limited",
    // Who is calling.
    /// No valid access token of a live session.
    NotSignedIn = "not_signed_in",
    /// Signed in with the password only, but the account has a second
    /// factor: verify it (aal2) first.
    InsufficientAal = "insufficient_aal",
    /// The action needs a fresh sign-in or the reauthentication code.
    ReauthenticationNeeded = "reauthentication_needed",
    /// A security notice's "this wasn't me" link that is unknown, used or
    /// more than 7 days old.
    SecurityLinkInvalid = "security_link_invalid",
    /// Signed in, but not an administrator.
    AdminOnly = "admin_only",
    // Who may enter the community (issue 41).
    /// No adult date of birth on file: answer `POST /account/date-of-birth`.
    AgeRequired = "age_required",
    /// Neither the email nor the phone is confirmed yet.
    ConfirmationRequired = "confirmation_required",
    /// The current terms are not accepted yet: `POST /account/terms`.
    TermsRequired = "terms_required",
    /// The date of birth given is of someone under 18.
    Underage = "underage",
    /// A date of birth is on file already; only an admin corrects it.
    DateOfBirthOnFile = "date_of_birth_on_file",
    /// The terms accepted are not the version in force.
    TermsVersionMismatch = "terms_version_mismatch",
    /// The other person of a contact request may not receive one (no adult
    /// date, terms or confirmed address on file).
    RecipientUnavailable = "recipient_unavailable",
    // Uploads and images.
    /// Not a multipart upload, or a damaged one.
    InvalidUpload = "invalid_upload",
    /// The upload has no image.
    MissingImage = "missing_image",
    /// The image is over 10 MB.
    TooLarge = "too_large",
    /// The file is not an image.
    NotAnImage = "not_an_image",
    /// The image is cut off (a dropped upload) or damaged.
    ImageIncomplete = "image_incomplete",
    /// The image is too large (in pixels) or too small to analyse.
    BadDimensions = "bad_dimensions",
    /// No face in the photo.
    NoFace = "no_face",
    /// The face is too small or cut off.
    FaceTooSmall = "face_too_small",
    /// No hand in a hands photo (or one too small or cut off).
    NoHand = "no_hand",
    /// A feet photo in which the analysis finds no feet (no bare skin, fur, a face or a
    /// hand).
    NotFeet = "not_feet",
    // Edits.
    /// An edit without an instruction.
    MissingPrompt = "missing_prompt",
    /// An image URL that is not the image itself or one of ours.
    InvalidImageUrl = "invalid_image_url",
    /// The built-in engine cannot do this prompt (the message says what it can).
    UnsupportedPrompt = "unsupported_prompt",
    /// No free AI edits left.
    FreeEditsUsed = "free_edits_used",
    /// The generative provider's account needs credits.
    ProviderCredits = "provider_credits",
    /// The generative provider failed.
    EditFailed = "edit_failed",
    // Payments and premium.
    /// Signed in, but acting for another user (e.g. `create-checkout` with
    /// someone else's `userId`).
    Forbidden = "forbidden",
    /// A webhook whose `Stripe-Signature` is missing, wrong or too old.
    InvalidSignature = "invalid_signature",
    /// The idempotency key was used before for a different purchase.
    IdempotencyKeyReused = "idempotency_key_reused",
    /// A checkout with this idempotency key is still being opened; retry.
    CheckoutInProgress = "checkout_in_progress",
    /// The checkout is no longer open (paid, or cancelled).
    CheckoutClosed = "checkout_closed",
    /// The (test) card was declined; nothing was charged or granted.
    CardDeclined = "card_declined",
    /// The user already has an active Premium subscription.
    AlreadySubscribed = "already_subscribed",
    /// The thing was bought before (the detailed analysis of a result).
    AlreadyPurchased = "already_purchased",
    /// A paid result (the detailed personality analysis) that was not paid for.
    PaymentRequired = "payment_required",
    /// The contact request was paid for already.
    AlreadyPaid = "already_paid",
    /// The payment was refunded (or released) already, or a refund of it is
    /// under way.
    AlreadyRefunded = "already_refunded",
    /// The user has no subscription to cancel or resume.
    NoSubscription = "no_subscription",
    /// The payment provider failed or refused; nothing was charged.
    PaymentProviderFailed = "payment_provider_failed",
    /// Not one of the gated features.
    UnknownFeature = "unknown_feature",
    /// The one free trial of this feature was used before.
    TrialUsed = "trial_used",
    /// A gated feature without premium or an active trial.
    FeatureLocked = "feature_locked",
    // Community.
    /// The user has sent an opportunity application before (one per user).
    AlreadyApplied = "already_applied",
    /// The user has asked for verification before (one request per user).
    AlreadyRequested = "already_requested",
    /// The user has the verification badge already.
    AlreadyVerified = "already_verified",
    /// The user has a partner account already (one per user).
    PartnerExists = "partner_exists",
    /// The caller has no partner account, or no partner has that id.
    PartnerNotFound = "partner_not_found",
    /// A short code that is not 3-10 letters or digits.
    InvalidShortCode = "invalid_short_code",
    /// Another partner has this short code.
    ShortCodeTaken = "short_code_taken",
    /// Another partner has this promo code.
    PromoCodeTaken = "promo_code_taken",
    /// A promo code checkout does not know (or may not use).
    InvalidPromoCode = "invalid_promo_code",
    /// A partner status change the programme does not allow (e.g. approving
    /// an approved partner).
    InvalidTransition = "invalid_transition",
    /// The partner has no payable commissions to pay out.
    NothingPayable = "nothing_payable",
    /// A payout account is for someone with something to be paid: earnings
    /// from a contact request, or an approved partner account.
    NoEarnings = "no_earnings",
    /// The caller's payout account is connected already.
    AlreadyConnected = "already_connected",
    /// The payee has no connected payout account to send money to.
    NoPayoutAccount = "no_payout_account",
    /// The caller tried to contact their own leaderboard entry.
    CannotContactSelf = "cannot_contact_self",
    /// The requester has no display name yet (set it on /account or in the
    /// Contact dialog, `PUT /auth/v1/user` with `data.display_name`).
    DisplayNameRequired = "display_name_required",
    /// The requester has an open (unanswered) request with this contestant.
    RequestOpen = "request_open",
    /// The contestant blocked the requester.
    Blocked = "blocked",
    /// The contact request was approved or denied before.
    AlreadyDecided = "already_decided",
    /// The contact request's payment hold is not confirmed yet.
    NotPaid = "not_paid",
    /// Messages need an approved contact request.
    NotApproved = "not_approved",
    /// The conversation was closed by a block; no more messages.
    ConversationClosed = "conversation_closed",
    // Reports and safety (issue 41).
    /// A chat message with words that may hurt or offend: the sender is asked
    /// "Are you sure?" and sends it again with `confirm: true`.
    ConfirmRequired = "confirm_required",
    /// An appeal is decided by another admin than the one who decided first.
    SecondAdminRequired = "second_admin_required",
    /// The decision was appealed already (an appeal is heard once).
    AlreadyAppealed = "already_appealed",
    // The server.
    /// The instance is at its cap of request bodies in flight; try again
    /// after `Retry-After` seconds.
    ServerBusy = "server_busy",
    /// The database does not answer (`/readyz`).
    DatabaseUnavailable = "database_unavailable",
    /// The instance is shutting down (`/readyz` while it drains); the
    /// others take its traffic.
    ShuttingDown = "shutting_down",
    /// The request body stopped arriving for `http.body_read_timeout_secs`.
    BodyTimeout = "body_timeout",
    /// Object storage (the photos' images) failed or did not answer in
    /// time; try again after `Retry-After` seconds.
    StorageUnavailable = "storage_unavailable",
    /// An unexpected failure on our side; the cause is in the log.
    InternalError = "internal_error",
}

impl std::fmt::Display for ErrorCode {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

impl From<&prettyscore_analysis::AnalysisError> for ErrorCode {
    fn from(err: &prettyscore_analysis::AnalysisError) -> Self {
        use prettyscore_analysis::AnalysisError as E;
        match err {
            E::TooLarge(_) => Self::TooLarge,
            E::NotAnImage => Self::NotAnImage,
            E::CorruptImage(_) => Self::ImageIncomplete,
            E::BadDimensions(..) => Self::BadDimensions,
            E::NoFace => Self::NoFace,
            E::FaceTooSmall => Self::FaceTooSmall,
            E::NoHand => Self::NoHand,
            E::NotFeet => Self::NotFeet,
        }
    }
}

impl From<&prettyscore_imaging::EditError> for ErrorCode {
    fn from(err: &prettyscore_imaging::EditError) -> Self {
        use prettyscore_imaging::EditError as E;
        match err {
            E::NotAnImage => Self::NotAnImage,
            E::TooLarge => Self::TooLarge,
            E::BadDimensions => Self::BadDimensions,
            E::Corrupt => Self::ImageIncomplete,
            E::NoFace => Self::NoFace,
        }
    }
}

/// The OpenAPI rows every signed-in endpoint shares: 401 `not_signed_in`.
#[derive(utoipa::IntoResponses)]
pub enum SignedInErrors {
    /// `not_signed_in`
    #[response(status = 401, description = "`not_signed_in`")]
    NotSignedIn(ErrorBody),
}

/// The OpenAPI rows every admin endpoint shares: 401 `not_signed_in`, 403
/// `admin_only`.
#[derive(utoipa::IntoResponses)]
pub enum AdminErrors {
    /// `not_signed_in`
    #[response(status = 401, description = "`not_signed_in`")]
    NotSignedIn(ErrorBody),
    /// `admin_only`
    #[response(status = 403, description = "`admin_only`")]
    AdminOnly(ErrorBody),
}

/// The OpenAPI rows every community endpoint shares (the
/// [`crate::http::extract::CommunityMember`] gate): 401 `not_signed_in`, 403
/// `age_required`, `terms_required`, `confirmation_required`.
#[derive(utoipa::IntoResponses)]
pub enum CommunityErrors {
    /// `not_signed_in`
    #[response(status = 401, description = "`not_signed_in`")]
    NotSignedIn(ErrorBody),
    /// `age_required`, `terms_required`, `confirmation_required`
    #[response(
        status = 403,
        description = "`age_required` (no adult date of birth on file), `terms_required` (the current terms not accepted), `confirmation_required` (no confirmed email or phone)"
    )]
    NotYetMember(ErrorBody),
}

/// The JSON body of every error answered under `/api/` and `/functions/`.
#[derive(Debug, Serialize, ToSchema)]
pub struct ErrorBody {
    /// Stable, machine-readable error code, e.g. `not_found`.
    pub code: ErrorCode,
    /// Human-readable message, safe to show to the user.
    pub message: String,
}

#[derive(Debug)]
pub struct ApiError {
    status: StatusCode,
    code: ErrorCode,
    message: Cow<'static, str>,
    /// Seconds until a refused (429) request may be tried again.
    retry_after: Option<u64>,
    cause: Option<anyhow::Error>,
}

impl ApiError {
    pub fn new(status: StatusCode, code: ErrorCode, message: impl Into<Cow<'static, str>>) -> Self {
        Self {
            status,
            code,
            message: message.into(),
            retry_after: None,
            cause: None,
        }
    }

    /// The `Retry-After` of a 429 (60 s when not given) or a 503.
    pub fn with_retry_after(mut self, secs: u64) -> Self {
        self.retry_after = Some(secs.max(1));
        self
    }

    pub fn bad_request(code: ErrorCode, message: impl Into<Cow<'static, str>>) -> Self {
        Self::new(StatusCode::BAD_REQUEST, code, message)
    }

    pub fn not_found(message: impl Into<Cow<'static, str>>) -> Self {
        Self::new(StatusCode::NOT_FOUND, ErrorCode::NotFound, message)
    }

    /// 422 `validation_failed`: a field breaks one of its rules.
    pub fn invalid(message: impl Into<Cow<'static, str>>) -> Self {
        Self::new(
            StatusCode::UNPROCESSABLE_ENTITY,
            ErrorCode::ValidationFailed,
            message,
        )
    }

    pub fn conflict(code: ErrorCode, message: impl Into<Cow<'static, str>>) -> Self {
        Self::new(StatusCode::CONFLICT, code, message)
    }

    pub fn unavailable(code: ErrorCode, message: impl Into<Cow<'static, str>>) -> Self {
        Self::new(StatusCode::SERVICE_UNAVAILABLE, code, message)
    }

    /// 408 `body_timeout`: the client stopped sending its request body.
    pub fn body_stalled() -> Self {
        Self::new(
            StatusCode::REQUEST_TIMEOUT,
            ErrorCode::BodyTimeout,
            "The upload stopped arriving, so it was cancelled. Please check your connection and try again.",
        )
    }

    /// 503 `server_busy` with `Retry-After`: the room for request bodies in
    /// flight is full ([`crate::http::budget`]).
    pub fn server_busy() -> Self {
        Self::unavailable(ErrorCode::ServerBusy, super::busy::BUSY)
            .with_retry_after(u64::from(super::busy::RETRY_AFTER_SECS))
    }

    /// 503 `database_unavailable` with `Retry-After`: the database cannot
    /// be reached ([`crate::db::is_unavailable`]); trying again shortly may
    /// work, and the server recovers on its own when the database is back.
    pub fn database_unavailable(cause: impl Into<anyhow::Error>) -> Self {
        Self::unavailable(ErrorCode::DatabaseUnavailable, DATABASE_UNAVAILABLE)
            .with_retry_after(DATABASE_RETRY_AFTER_SECS)
            .with_cause(cause)
    }

    /// An unexpected failure: the client gets an opaque 500, the log gets the
    /// cause. A cause that is the database being out of reach is a 503
    /// instead, wherever it was wrapped.
    pub fn internal(cause: impl Into<anyhow::Error>) -> Self {
        let cause = cause.into();
        if cause.chain().any(|err| {
            err.downcast_ref::<DbErr>()
                .is_some_and(crate::db::is_unavailable)
        }) {
            return Self::database_unavailable(cause);
        }
        if cause.chain().any(|err| {
            err.downcast_ref::<StorageError>()
                .is_some_and(StorageError::is_unavailable)
        }) {
            return Self::unavailable(ErrorCode::StorageUnavailable, STORAGE_UNAVAILABLE)
                .with_retry_after(STORAGE_RETRY_AFTER_SECS)
                .with_cause(cause);
        }
        Self {
            cause: Some(cause),
            ..Self::new(
                StatusCode::INTERNAL_SERVER_ERROR,
                ErrorCode::InternalError,
                "Something went wrong on our side. Please try again.",
            )
        }
    }

    pub fn with_cause(mut self, cause: impl Into<anyhow::Error>) -> Self {
        self.cause = Some(cause.into());
        self
    }

    pub fn status(&self) -> StatusCode {
        self.status
    }

    pub fn code(&self) -> ErrorCode {
        self.code
    }

    pub fn message(&self) -> &str {
        &self.message
    }
}

impl std::fmt::Display for ApiError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{} ({}): {}", self.status, self.code, self.message)
    }
}

/// What a 503 that names no wait of its own tells the client: every 503
/// carries `Retry-After` (issue 43: `/readyz` and media reads did not).
pub const DEFAULT_RETRY_AFTER_SECS: u64 = 5;

/// Adds `Retry-After` to a 503 that has none (the web app's "not built yet"
/// page, the auth API's shapes, anything a layer answers): the outermost
/// layer, so no 503 leaves without one.
pub async fn retry_after_on_every_503(
    request: axum::extract::Request,
    next: axum::middleware::Next,
) -> Response {
    let mut response = next.run(request).await;
    if response.status() == StatusCode::SERVICE_UNAVAILABLE {
        response
            .headers_mut()
            .entry(axum::http::header::RETRY_AFTER)
            .or_insert(axum::http::HeaderValue::from(DEFAULT_RETRY_AFTER_SECS));
    }
    response
}

/// The cause of an expected refusal, as its chain on one line. Not its
/// backtrace: resolving one (with `RUST_BACKTRACE` set) loads the binary's
/// debug info and keeps it for the life of the process, so a flood of 503s
/// left the debug build 100 MB larger for good (issue 43).
fn refusal_cause(cause: &anyhow::Error) -> String {
    format!("{cause:#}")
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        if self.status == StatusCode::SERVICE_UNAVAILABLE {
            // Expected states with their own answer (an outage, a full
            // instance, a drain): a load balancer's health check would
            // otherwise log an error every second while they last.
            match (&self.cause, self.code) {
                (_, ErrorCode::ShuttingDown) => {
                    tracing::debug!(code = self.code.as_str(), "request refused")
                }
                (Some(cause), _) => {
                    let error = refusal_cause(cause);
                    tracing::warn!(code = self.code.as_str(), error, "request refused")
                }
                (None, _) => tracing::warn!(code = self.code.as_str(), "request refused"),
            }
        } else if self.status.is_server_error() {
            match &self.cause {
                Some(cause) => {
                    tracing::error!(code = self.code.as_str(), error = ?cause, "request failed")
                }
                None => tracing::error!(code = self.code.as_str(), "request failed"),
            }
        } else if let Some(cause) = &self.cause {
            tracing::debug!(code = self.code.as_str(), error = %cause, "request refused");
        }
        let body = ErrorBody {
            code: self.code,
            message: self.message.into_owned(),
        };
        let mut response = (self.status, Json(body)).into_response();
        if self.status == StatusCode::TOO_MANY_REQUESTS
            || self.status == StatusCode::SERVICE_UNAVAILABLE
        {
            let default = if self.status == StatusCode::TOO_MANY_REQUESTS {
                60
            } else {
                DEFAULT_RETRY_AFTER_SECS
            };
            response.headers_mut().insert(
                axum::http::header::RETRY_AFTER,
                axum::http::HeaderValue::from(self.retry_after.unwrap_or(default)),
            );
        } else if let Some(secs) = self.retry_after {
            response.headers_mut().insert(
                axum::http::header::RETRY_AFTER,
                axum::http::HeaderValue::from(secs),
            );
        }
        response
    }
}

/// A domain's reading of one of its named database constraints: when a
/// statement violates `constraint`, the user gets `status` (409 or 422),
/// `code` and `message` instead of a 500. A domain keeps its table of these
/// beside its queries and applies it with [`DbResultExt::on_constraints`].
#[derive(Debug, Clone, Copy)]
pub struct ConstraintError {
    /// The name given in the migrations, e.g. `opportunity_claims_user_id_key`.
    pub constraint: &'static str,
    pub status: StatusCode,
    pub code: ErrorCode,
    pub message: &'static str,
}

impl ConstraintError {
    /// A clash with data that exists (a unique key): 409.
    pub const fn conflict(
        constraint: &'static str,
        code: ErrorCode,
        message: &'static str,
    ) -> Self {
        Self {
            constraint,
            status: StatusCode::CONFLICT,
            code,
            message,
        }
    }

    /// Data a rule refuses (a check, a reference to nothing): 422.
    pub const fn invalid(constraint: &'static str, code: ErrorCode, message: &'static str) -> Self {
        Self {
            constraint,
            status: StatusCode::UNPROCESSABLE_ENTITY,
            code,
            message,
        }
    }
}

pub const BODY_TOO_LARGE: &str = "The request body is too large.";

/// What a request answered while the database is out of reach says.
pub const DATABASE_UNAVAILABLE: &str =
    "The service is briefly unavailable. Please try again in a few seconds.";
/// `Retry-After` of a `database_unavailable` answer: about what a restart
/// or fail-over of PostgreSQL takes.
pub const DATABASE_RETRY_AFTER_SECS: u64 = 5;

/// What a request answered while object storage fails says.
pub const STORAGE_UNAVAILABLE: &str =
    "Photos can't be stored or read right now. Please try again in a moment.";
pub const STORAGE_RETRY_AFTER_SECS: u64 = 10;

/// What a violated constraint that no table names answers.
pub const UNIQUE_FALLBACK: &str = "This already exists.";
pub const RULE_FALLBACK: &str = "This could not be saved: some of the data is not valid.";

impl ApiError {
    /// A database failure, read with a domain's table of constraints: a
    /// violation the table names gets its answer, any other violation a
    /// generic 409 (unique) or 422 (check, reference, missing value), and
    /// everything else an opaque 500.
    pub fn from_db(err: DbErr, table: &[ConstraintError]) -> Self {
        if crate::db::is_unavailable(&err) {
            return Self::database_unavailable(err);
        }
        let Some(violation) = violated_constraint(&err) else {
            return Self::internal(err);
        };
        if let Some(known) = table.iter().find(|known| violation.is(known.constraint)) {
            return Self::new(known.status, known.code, known.message).with_cause(err);
        }
        // A constraint no domain explains: still the user's data, not an
        // outage, but worth a line in the log so someone writes the message.
        tracing::warn!(constraint = ?violation.constraint, kind = ?violation.kind, "a database constraint without a message was violated");
        let refused = match violation.kind {
            ViolationKind::Unique => Self::conflict(ErrorCode::Conflict, UNIQUE_FALLBACK),
            ViolationKind::Check | ViolationKind::ForeignKey | ViolationKind::NotNull => Self::new(
                StatusCode::UNPROCESSABLE_ENTITY,
                ErrorCode::ValidationFailed,
                RULE_FALLBACK,
            ),
        };
        refused.with_cause(err)
    }
}

/// Reads a database result with a domain's constraint table, in the manner of
/// realworld-axum-sqlx's `on_constraint`:
/// `row.insert(&db).await.on_constraints(CONSTRAINT_ERRORS)?`.
pub trait DbResultExt<T> {
    fn on_constraints(self, table: &[ConstraintError]) -> Result<T, ApiError>;
}

impl<T> DbResultExt<T> for Result<T, DbErr> {
    fn on_constraints(self, table: &[ConstraintError]) -> Result<T, ApiError> {
        self.map_err(|err| ApiError::from_db(err, table))
    }
}

/// `?` on a database result: violations get the generic 409/422, anything
/// else a 500.
impl From<DbErr> for ApiError {
    fn from(err: DbErr) -> Self {
        Self::from_db(err, &[])
    }
}

impl From<crate::blocking::BlockingError> for ApiError {
    fn from(err: crate::blocking::BlockingError) -> Self {
        Self::internal(err)
    }
}

impl From<JsonRejection> for ApiError {
    fn from(rejection: JsonRejection) -> Self {
        let (status, code, message) = match &rejection {
            JsonRejection::MissingJsonContentType(_) => (
                StatusCode::UNSUPPORTED_MEDIA_TYPE,
                ErrorCode::UnsupportedMediaType,
                "Send the request body as JSON (Content-Type: application/json).".to_owned(),
            ),
            JsonRejection::JsonSyntaxError(_) => (
                StatusCode::BAD_REQUEST,
                ErrorCode::InvalidJson,
                "The request body is not valid JSON.".to_owned(),
            ),
            JsonRejection::JsonDataError(err) => (
                StatusCode::UNPROCESSABLE_ENTITY,
                ErrorCode::ValidationFailed,
                format!(
                    "The request body has a missing or invalid field: {}",
                    err.body_text()
                ),
            ),
            _ if rejection.status() == StatusCode::PAYLOAD_TOO_LARGE => (
                StatusCode::PAYLOAD_TOO_LARGE,
                ErrorCode::BodyTooLarge,
                BODY_TOO_LARGE.to_owned(),
            ),
            _ if crate::http::idle_body::is_stalled(&rejection) => {
                return Self::body_stalled().with_cause(rejection);
            }
            _ if crate::http::busy::is_room_full(&rejection) => {
                return Self::server_busy().with_cause(rejection);
            }
            _ => (
                StatusCode::BAD_REQUEST,
                ErrorCode::InvalidRequest,
                "The request body could not be read.".to_owned(),
            ),
        };
        Self::new(status, code, message).with_cause(rejection)
    }
}

impl From<MultipartRejection> for ApiError {
    fn from(rejection: MultipartRejection) -> Self {
        Self::new(
            StatusCode::UNSUPPORTED_MEDIA_TYPE,
            ErrorCode::InvalidUpload,
            "Send the photo as a file upload (multipart/form-data).",
        )
        .with_cause(rejection)
    }
}

impl From<PathRejection> for ApiError {
    fn from(rejection: PathRejection) -> Self {
        Self::not_found("We couldn't find what you were looking for.").with_cause(rejection)
    }
}

/// A refused value: 422 `validation_failed` with the rule's message; a
/// link or query the app did not make, 400 `invalid_query`.
impl From<crate::values::Invalid> for ApiError {
    fn from(err: crate::values::Invalid) -> Self {
        match err.kind() {
            crate::values::Kind::Field => ApiError::invalid(err.message().to_owned()),
            crate::values::Kind::Query => {
                ApiError::bad_request(ErrorCode::InvalidQuery, err.message().to_owned())
            }
        }
    }
}

/// A refused character: 422 `validation_failed` with the field and the reason.
impl From<crate::values::text::TextError> for ApiError {
    fn from(err: crate::values::text::TextError) -> Self {
        ApiError::invalid(err.message())
    }
}

impl From<QueryRejection> for ApiError {
    fn from(rejection: QueryRejection) -> Self {
        Self::bad_request(
            ErrorCode::InvalidQuery,
            "The request has an invalid query parameter.",
        )
        .with_cause(rejection)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use axum::body::to_bytes;

    async fn body_of(err: ApiError) -> (StatusCode, serde_json::Value) {
        let response = err.into_response();
        let status = response.status();
        let bytes = to_bytes(response.into_body(), 1 << 16).await.unwrap();
        (status, serde_json::from_slice(&bytes).unwrap())
    }

    /// A 503 refusal logs its cause's chain on one line, never the
    /// multi-line form that carries a resolved backtrace when
    /// `RUST_BACKTRACE` is set.
    #[test]
    fn a_refusal_logs_its_cause_without_a_backtrace() {
        let cause = anyhow::Error::new(std::io::Error::other("the room is full"))
            .context("failed to read stream");
        let logged = refusal_cause(&cause);
        assert_eq!(logged, "failed to read stream: the room is full");
        assert!(!logged.contains("backtrace"), "{logged}");
    }

    #[tokio::test]
    async fn errors_carry_a_stable_code_and_the_users_message() {
        let (status, body) = body_of(ApiError::not_found("Contact request not found")).await;
        assert_eq!(status, StatusCode::NOT_FOUND);
        assert_eq!(
            body,
            serde_json::json!({"code": "not_found", "message": "Contact request not found"})
        );
    }

    #[test]
    fn every_code_is_serialised_as_its_string_and_no_two_share_one() {
        let mut seen = std::collections::HashSet::new();
        for code in ErrorCode::ALL {
            assert_eq!(serde_json::to_value(code).unwrap(), code.as_str());
            assert!(seen.insert(code.as_str()), "{code} twice");
            assert!(
                code.as_str()
                    .bytes()
                    .all(|b| b.is_ascii_lowercase() || b == b'_'),
                "{code} is not snake_case"
            );
        }
    }

    #[test]
    fn analysis_and_edit_errors_keep_the_codes_their_crates_name() {
        use prettyscore_analysis::AnalysisError;
        use prettyscore_imaging::EditError;
        for err in [
            AnalysisError::TooLarge(1),
            AnalysisError::NotAnImage,
            AnalysisError::CorruptImage("truncated".into()),
            AnalysisError::BadDimensions(1, 1),
            AnalysisError::NoFace,
            AnalysisError::FaceTooSmall,
            AnalysisError::NoHand,
            AnalysisError::NotFeet,
        ] {
            assert_eq!(ErrorCode::from(&err).as_str(), err.code());
        }
        for err in [
            EditError::NotAnImage,
            EditError::TooLarge,
            EditError::BadDimensions,
            EditError::Corrupt,
            EditError::NoFace,
        ] {
            assert_eq!(ErrorCode::from(&err).as_str(), err.code());
        }
    }

    #[tokio::test]
    async fn every_429_says_when_to_retry() {
        let limited = ApiError::new(
            StatusCode::TOO_MANY_REQUESTS,
            ErrorCode::RateLimited,
            "slow down",
        );
        assert_eq!(limited.into_response().headers()["retry-after"], "60");
        let limited = ApiError::new(
            StatusCode::TOO_MANY_REQUESTS,
            ErrorCode::RateLimited,
            "slow down",
        )
        .with_retry_after(17);
        assert_eq!(limited.into_response().headers()["retry-after"], "17");
        let other = ApiError::not_found("gone").into_response();
        assert!(!other.headers().contains_key("retry-after"));
    }

    #[tokio::test]
    async fn internal_errors_hide_their_cause() {
        let err = ApiError::internal(anyhow::anyhow!("password=hunter2 connection refused"));
        let (status, body) = body_of(err).await;
        assert_eq!(status, StatusCode::INTERNAL_SERVER_ERROR);
        assert_eq!(body["code"], "internal_error");
        assert!(!body.to_string().contains("hunter2"), "{body}");
    }
}
