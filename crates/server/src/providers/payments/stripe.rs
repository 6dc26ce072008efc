//! Stripe, through a thin client: form-encoded `POST`s to the few endpoints
//! used, with the secret key as bearer and an `Idempotency-Key` where a retry
//! must not pay twice. No Stripe crate: it would cost minutes of cold build
//! for six calls. Also the webhook signature check ([`verify_signature`])
//! and its mirror for tests ([`signature_header`]).

use std::time::Duration;

use data_encoding::HEXLOWER;
use hmac::{Hmac, Mac};
use serde::Deserialize;
use serde::de::DeserializeOwned;
use serde_json::Value;
use sha2::Sha256;

use super::{
    CheckoutMode, CheckoutRequest, CheckoutSession, ConnectedAccount, HoldRequest, PaymentError,
    PaymentIntent, PaymentProvider, Refund, Reversal, SubscriptionState, Transfer, TransferRequest,
};
use crate::config::{Secret, StripeConfig};

/// Stripe's default: a signature older than five minutes is refused.
pub const SIGNATURE_TOLERANCE_SECS: i64 = 300;

/// Why a webhook's `Stripe-Signature` was refused.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum SignatureError {
    #[error("the Stripe-Signature header is missing or malformed")]
    Malformed,
    #[error("the signature's timestamp is outside the tolerance")]
    Expired,
    #[error("no v1 signature matches")]
    Mismatch,
}

fn mac(secret: &str, timestamp: i64, body: &[u8]) -> Hmac<Sha256> {
    let mut mac = Hmac::<Sha256>::new_from_slice(secret.as_bytes()).expect("HMAC takes any key");
    mac.update(timestamp.to_string().as_bytes());
    mac.update(b".");
    mac.update(body);
    mac
}

/// Checks `Stripe-Signature: t=…,v1=…[,v1=…]`: an HMAC-SHA256 with the
/// endpoint's secret over `t + "." + body`, compared in constant time, with
/// `t` within [`SIGNATURE_TOLERANCE_SECS`] of `now` (unix seconds).
pub fn verify_signature(
    secret: &str,
    header: &str,
    body: &[u8],
    now: i64,
) -> Result<(), SignatureError> {
    let mut timestamp = None;
    let mut signatures = Vec::new();
    for part in header.split(',') {
        let (key, value) = part
            .trim()
            .split_once('=')
            .ok_or(SignatureError::Malformed)?;
        match key {
            "t" => {
                timestamp = Some(
                    value
                        .parse::<i64>()
                        .map_err(|_| SignatureError::Malformed)?,
                )
            }
            "v1" => signatures.push(value),
            _ => {}
        }
    }
    let timestamp = timestamp.ok_or(SignatureError::Malformed)?;
    if signatures.is_empty() {
        return Err(SignatureError::Malformed);
    }
    if (now - timestamp).abs() > SIGNATURE_TOLERANCE_SECS {
        return Err(SignatureError::Expired);
    }
    let matches = signatures.iter().any(|signature| {
        HEXLOWER
            .decode(signature.as_bytes())
            .is_ok_and(|bytes| mac(secret, timestamp, body).verify_slice(&bytes).is_ok())
    });
    if matches {
        Ok(())
    } else {
        Err(SignatureError::Mismatch)
    }
}

/// The `Stripe-Signature` header Stripe would send for `body` at `timestamp`.
pub fn signature_header(secret: &str, timestamp: i64, body: &[u8]) -> String {
    let signature = HEXLOWER.encode(&mac(secret, timestamp, body).finalize().into_bytes());
    format!("t={timestamp},v1={signature}")
}

/// The Stripe API client.
#[derive(Clone)]
pub struct Stripe {
    client: reqwest::Client,
    base_url: String,
    secret_key: Secret,
}

impl std::fmt::Debug for Stripe {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Stripe")
            .field("base_url", &self.base_url)
            .finish_non_exhaustive()
    }
}

#[derive(Deserialize)]
struct ErrorResponse {
    error: ErrorDetail,
}

#[derive(Deserialize)]
struct ErrorDetail {
    #[serde(rename = "type", default)]
    kind: String,
    #[serde(default)]
    message: String,
}

type Form = Vec<(String, String)>;

fn field(form: &mut Form, key: impl Into<String>, value: impl ToString) {
    form.push((key.into(), value.to_string()));
}

impl Stripe {
    pub fn from_config(config: &StripeConfig) -> anyhow::Result<Self> {
        let secret_key = config
            .secret_key
            .clone()
            .filter(|key| !key.expose().trim().is_empty())
            .ok_or_else(|| {
                anyhow::anyhow!("payments.stripe.secret_key is required with the Stripe provider")
            })?;
        let client = reqwest::Client::builder()
            .timeout(Duration::from_secs(config.timeout_secs))
            .redirect(reqwest::redirect::Policy::none())
            .build()?;
        Ok(Self {
            client,
            base_url: config.base_url.trim_end_matches('/').to_owned(),
            secret_key,
        })
    }

    async fn post<T: DeserializeOwned>(
        &self,
        path: &str,
        form: &Form,
        idempotency_key: Option<&str>,
    ) -> Result<T, PaymentError> {
        self.send(reqwest::Method::POST, path, form, idempotency_key)
            .await
    }

    async fn send<T: DeserializeOwned>(
        &self,
        method: reqwest::Method,
        path: &str,
        form: &Form,
        idempotency_key: Option<&str>,
    ) -> Result<T, PaymentError> {
        let body = url::form_urlencoded::Serializer::new(String::new())
            .extend_pairs(form.iter())
            .finish();
        let mut request = self
            .client
            .request(method, format!("{}{path}", self.base_url))
            .bearer_auth(self.secret_key.expose())
            .header("Content-Type", "application/x-www-form-urlencoded")
            .body(body);
        if let Some(key) = idempotency_key {
            request = request.header("Idempotency-Key", key);
        }
        let response = request
            .send()
            .await
            .map_err(|err| PaymentError::Unavailable(err.to_string()))?;
        let status = response.status();
        let bytes = response
            .bytes()
            .await
            .map_err(|err| PaymentError::Unavailable(err.to_string()))?;
        if status.is_success() {
            return serde_json::from_slice(&bytes).map_err(|err| {
                PaymentError::Unavailable(format!("unexpected answer from {path}: {err}"))
            });
        }
        let detail = serde_json::from_slice::<ErrorResponse>(&bytes)
            .map(|body| body.error)
            .unwrap_or(ErrorDetail {
                kind: String::new(),
                message: String::from_utf8_lossy(&bytes).chars().take(200).collect(),
            });
        Err(if status.is_server_error() || status.as_u16() == 429 {
            PaymentError::Unavailable(format!("{path}: {status} {}", detail.message))
        } else if detail.kind == "card_error" || status.as_u16() == 402 {
            PaymentError::Declined(detail.message)
        } else {
            PaymentError::Refused(format!("{path}: {status} {}", detail.message))
        })
    }
}

impl Stripe {
    /// The coupon a partner's promo code applies: `percent` off the first
    /// payment (`duration` once), created on first use under a fixed id so
    /// every instance and every retry uses the same one.
    async fn promo_coupon(&self, percent: u8) -> Result<String, PaymentError> {
        let id = format!("partner-promo-{percent}");
        let mut form = Form::new();
        field(&mut form, "id", &id);
        field(&mut form, "percent_off", percent);
        field(&mut form, "duration", "once");
        field(
            &mut form,
            "name",
            format!("Partner promo code: {percent}% off"),
        );
        #[derive(Deserialize)]
        struct Coupon {}
        match self.post::<Coupon>("/v1/coupons", &form, None).await {
            Ok(_) => Ok(id),
            // Created before (by us, with the same terms).
            Err(PaymentError::Refused(message)) if message.contains("already exists") => Ok(id),
            Err(err) => Err(err),
        }
    }
}

/// "Visa ending in 4242" from a charge's `payment_method_details.card`.
fn card_label(card: &serde_json::Value) -> Option<String> {
    let last4 = card["last4"]
        .as_str()
        .filter(|digits| digits.len() == 4 && digits.bytes().all(|b| b.is_ascii_digit()))?;
    let brand = match card["brand"].as_str().unwrap_or_default() {
        "visa" => "Visa",
        "mastercard" => "Mastercard",
        "amex" => "American Express",
        "discover" => "Discover",
        "diners" => "Diners Club",
        "jcb" => "JCB",
        "unionpay" => "UnionPay",
        "cartes_bancaires" => "Cartes Bancaires",
        "eftpos_au" => "eftpos",
        "interac" => "Interac",
        _ => "Card",
    };
    Some(format!("{brand} ending in {last4}"))
}

fn metadata(form: &mut Form, prefix: &str, metadata: &std::collections::BTreeMap<String, String>) {
    for (key, value) in metadata {
        field(form, format!("{prefix}[{key}]"), value);
    }
}

#[async_trait::async_trait]
impl PaymentProvider for Stripe {
    fn name(&self) -> &'static str {
        "stripe"
    }

    async fn create_checkout(
        &self,
        request: &CheckoutRequest,
    ) -> Result<CheckoutSession, PaymentError> {
        let mut form = Form::new();
        let mode = match request.mode {
            CheckoutMode::Subscription => "subscription",
            CheckoutMode::Payment | CheckoutMode::Hold => "payment",
        };
        field(&mut form, "mode", mode);
        field(&mut form, "success_url", &request.success_url);
        field(&mut form, "cancel_url", &request.cancel_url);
        field(
            &mut form,
            "client_reference_id",
            &request.client_reference_id,
        );
        if let Some(email) = &request.customer_email {
            field(&mut form, "customer_email", email);
        }
        field(&mut form, "line_items[0][quantity]", 1);
        field(
            &mut form,
            "line_items[0][price_data][currency]",
            &request.currency,
        );
        field(
            &mut form,
            "line_items[0][price_data][unit_amount]",
            request.amount_cents,
        );
        field(
            &mut form,
            "line_items[0][price_data][product_data][name]",
            &request.product_name,
        );
        metadata(&mut form, "metadata", &request.metadata);
        if let Some(percent) = request.discount_percent.filter(|percent| *percent > 0) {
            let coupon = self.promo_coupon(percent).await?;
            field(&mut form, "discounts[0][coupon]", coupon);
        }
        match request.mode {
            CheckoutMode::Subscription => {
                field(
                    &mut form,
                    "line_items[0][price_data][recurring][interval]",
                    "month",
                );
                metadata(&mut form, "subscription_data[metadata]", &request.metadata);
            }
            CheckoutMode::Payment => {
                metadata(
                    &mut form,
                    "payment_intent_data[metadata]",
                    &request.metadata,
                );
            }
            CheckoutMode::Hold => {
                field(&mut form, "payment_intent_data[capture_method]", "manual");
                metadata(
                    &mut form,
                    "payment_intent_data[metadata]",
                    &request.metadata,
                );
            }
        }
        #[derive(Deserialize)]
        struct Session {
            id: String,
            url: Option<String>,
        }
        let session: Session = self
            .post(
                "/v1/checkout/sessions",
                &form,
                Some(&request.idempotency_key),
            )
            .await?;
        let url = session.url.ok_or_else(|| {
            PaymentError::Unavailable("the checkout session has no url".to_owned())
        })?;
        Ok(CheckoutSession {
            id: session.id,
            url,
        })
    }

    async fn hold(&self, request: &HoldRequest) -> Result<PaymentIntent, PaymentError> {
        let mut form = Form::new();
        field(&mut form, "amount", request.amount_cents);
        field(&mut form, "currency", &request.currency);
        field(&mut form, "capture_method", "manual");
        if let Some(customer) = &request.customer {
            field(&mut form, "customer", customer);
        }
        if let Some(method) = &request.payment_method {
            field(&mut form, "payment_method", method);
            field(&mut form, "confirm", "true");
        }
        metadata(&mut form, "metadata", &request.metadata);
        self.post("/v1/payment_intents", &form, Some(&request.idempotency_key))
            .await
    }

    async fn capture(&self, payment_intent: &str) -> Result<PaymentIntent, PaymentError> {
        let path = format!("/v1/payment_intents/{payment_intent}/capture");
        let key = format!("capture-{payment_intent}");
        self.post(&path, &Form::new(), Some(&key)).await
    }

    async fn release(&self, payment_intent: &str) -> Result<PaymentIntent, PaymentError> {
        let path = format!("/v1/payment_intents/{payment_intent}/cancel");
        let key = format!("cancel-{payment_intent}");
        self.post(&path, &Form::new(), Some(&key)).await
    }

    async fn card(
        &self,
        payment_intent: Option<&str>,
        invoice: Option<&str>,
    ) -> Result<Option<String>, PaymentError> {
        // The charge's card, expanded in one call: on the PaymentIntent
        // (`latest_charge`; `charges` in API versions before 2022-11-15), or
        // on the invoice's PaymentIntent.
        let (path, intent_at): (String, &[&str]) = match (payment_intent, invoice) {
            (Some(intent), _) => (
                format!("/v1/payment_intents/{intent}?expand[]=latest_charge"),
                &[],
            ),
            (None, Some(invoice)) => (
                format!("/v1/invoices/{invoice}?expand[]=payment_intent.latest_charge"),
                &["payment_intent"],
            ),
            (None, None) => return Ok(None),
        };
        let object: serde_json::Value = self
            .send(reqwest::Method::GET, &path, &Form::new(), None)
            .await?;
        let intent = intent_at.iter().fold(&object, |value, key| &value[*key]);
        let charge = match &intent["latest_charge"] {
            serde_json::Value::Object(_) => &intent["latest_charge"],
            _ => &intent["charges"]["data"][0],
        };
        Ok(card_label(&charge["payment_method_details"]["card"]))
    }

    async fn refund(
        &self,
        payment_intent: &str,
        amount_cents: Option<i64>,
    ) -> Result<Refund, PaymentError> {
        let mut form = Form::new();
        field(&mut form, "payment_intent", payment_intent);
        if let Some(amount) = amount_cents {
            field(&mut form, "amount", amount);
        }
        // One refund per intent and amount: a retry of the same refund is
        // the same request.
        let key = format!(
            "refund-{payment_intent}-{}",
            amount_cents.map_or("full".to_owned(), |amount| amount.to_string())
        );
        self.post("/v1/refunds", &form, Some(&key)).await
    }

    async fn cancel_now(&self, subscription: &str) -> Result<SubscriptionState, PaymentError> {
        // `DELETE /v1/subscriptions/{id}` cancels at once; a second call on
        // a canceled subscription is refused by Stripe, and billing takes
        // that as done.
        let object: Value = self
            .send(
                reqwest::Method::DELETE,
                &format!("/v1/subscriptions/{subscription}"),
                &Form::new(),
                None,
            )
            .await?;
        SubscriptionState::from_object(&object)
            .ok_or_else(|| PaymentError::Unavailable("unexpected subscription object".to_owned()))
    }

    async fn set_cancel_at_period_end(
        &self,
        subscription: &str,
        cancel: bool,
    ) -> Result<SubscriptionState, PaymentError> {
        let mut form = Form::new();
        field(&mut form, "cancel_at_period_end", cancel);
        let object: Value = self
            .post(&format!("/v1/subscriptions/{subscription}"), &form, None)
            .await?;
        SubscriptionState::from_object(&object)
            .ok_or_else(|| PaymentError::Unavailable("unexpected subscription object".to_owned()))
    }

    async fn create_connected_account(
        &self,
        email: Option<&str>,
        user_id: &str,
        idempotency_key: &str,
    ) -> Result<ConnectedAccount, PaymentError> {
        // An Express account that only receives transfers: Stripe hosts its
        // onboarding and its dashboard.
        let mut form = Form::new();
        field(&mut form, "type", "express");
        if let Some(email) = email {
            field(&mut form, "email", email);
        }
        field(&mut form, "capabilities[transfers][requested]", "true");
        field(&mut form, "metadata[user_id]", user_id);
        let object: Value = self
            .post("/v1/accounts", &form, Some(idempotency_key))
            .await?;
        ConnectedAccount::from_object(&object)
            .ok_or_else(|| PaymentError::Unavailable("unexpected account object".to_owned()))
    }

    async fn onboarding_link(
        &self,
        account: &str,
        refresh_url: &str,
        return_url: &str,
    ) -> Result<String, PaymentError> {
        let mut form = Form::new();
        field(&mut form, "account", account);
        field(&mut form, "refresh_url", refresh_url);
        field(&mut form, "return_url", return_url);
        field(&mut form, "type", "account_onboarding");
        #[derive(Deserialize)]
        struct AccountLink {
            url: String,
        }
        // A link is single-use and short-lived: each click makes a new one.
        let link: AccountLink = self.post("/v1/account_links", &form, None).await?;
        Ok(link.url)
    }

    async fn transfer(&self, request: &TransferRequest) -> Result<Transfer, PaymentError> {
        let mut form = Form::new();
        field(&mut form, "amount", request.amount_cents);
        field(&mut form, "currency", &request.currency);
        field(&mut form, "destination", &request.destination);
        field(&mut form, "transfer_group", &request.transfer_group);
        metadata(&mut form, "metadata", &request.metadata);
        self.post("/v1/transfers", &form, Some(&request.idempotency_key))
            .await
    }

    async fn reverse_transfer(&self, transfer: &str) -> Result<Reversal, PaymentError> {
        // Without an amount Stripe reverses what is left of the transfer.
        let key = format!("reverse-{transfer}");
        self.post(
            &format!("/v1/transfers/{transfer}/reversals"),
            &Form::new(),
            Some(&key),
        )
        .await
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    const SECRET: &str = "whsec_test";

    #[test]
    fn a_card_is_named_by_its_brand_and_last_four_digits() {
        let card = |brand: &str, last4: &str| json!({"brand": brand, "last4": last4});
        assert_eq!(
            card_label(&card("visa", "4242")).as_deref(),
            Some("Visa ending in 4242")
        );
        assert_eq!(
            card_label(&card("amex", "0005")).as_deref(),
            Some("American Express ending in 0005")
        );
        assert_eq!(
            card_label(&card("link", "1234")).as_deref(),
            Some("Card ending in 1234")
        );
        assert_eq!(card_label(&card("visa", "42")), None);
        assert_eq!(card_label(&json!(null)), None);
    }

    #[test]
    fn a_signature_made_as_stripe_makes_it_is_accepted() {
        let body = br#"{"id":"evt_1"}"#;
        let header = signature_header(SECRET, 1_700_000_000, body);
        assert_eq!(
            verify_signature(SECRET, &header, body, 1_700_000_100),
            Ok(())
        );
        // Any one of several v1 signatures may match (secret rotation).
        let rotated = format!("{header},v1={}", "ab".repeat(32));
        let rotated = rotated.replacen("v1=", &format!("v1={},v1=", "cd".repeat(32)), 1);
        assert_eq!(
            verify_signature(SECRET, &rotated, body, 1_700_000_000),
            Ok(())
        );
    }

    #[test]
    fn a_changed_body_a_wrong_secret_or_an_old_timestamp_is_refused() {
        let body = br#"{"id":"evt_1"}"#;
        let header = signature_header(SECRET, 1_700_000_000, body);
        assert_eq!(
            verify_signature(SECRET, &header, br#"{"id":"evt_2"}"#, 1_700_000_000),
            Err(SignatureError::Mismatch)
        );
        assert_eq!(
            verify_signature("whsec_other", &header, body, 1_700_000_000),
            Err(SignatureError::Mismatch)
        );
        assert_eq!(
            verify_signature(SECRET, &header, body, 1_700_000_301),
            Err(SignatureError::Expired)
        );
        assert_eq!(
            verify_signature(SECRET, &header, body, 1_700_000_300),
            Ok(())
        );
        for malformed in ["", "t=abc,v1=00", "v1=00", "t=1700000000", "garbage"] {
            assert_eq!(
                verify_signature(SECRET, malformed, body, 1_700_000_000),
                Err(SignatureError::Malformed),
                "{malformed}"
            );
        }
    }
}
