//! The built-in sandbox provider: the embedded default, so a fresh machine
//! can "buy" everything with no account anywhere and no money moving.
//!
//! It behaves as a small Stripe: checkout sessions, PaymentIntents and
//! subscriptions are Stripe-shaped JSON objects in `sandbox_objects`, and each
//! change emits the event Stripe would send into `sandbox_events`, in the same
//! transaction. The billing domain delivers that log through the same
//! fulfilment code as Stripe's webhooks (no shortcut): the sandbox never
//! grants anything itself.
//!
//! The test page's buttons are [`Sandbox::pay`], [`Sandbox::decline`] and
//! [`Sandbox::cancel`]; [`Sandbox::renew_due`] plays the passing of months
//! (a renewal invoice, or the end of a subscription cancelled at period end).
//! Changes to one object are guarded by its `updated_at`, so two clicks on
//! Pay make one payment.

use chrono::{DateTime, Months, Utc};
use sea_orm::entity::prelude::*;
use sea_orm::sea_query::Expr;
use sea_orm::{
    ActiveValue::Set, DatabaseConnection, DatabaseTransaction, QueryOrder, TransactionTrait,
};
use serde_json::{Value, json};

use super::{
    CheckoutMode, CheckoutRequest, CheckoutSession, ConnectedAccount, HoldRequest, PaymentError,
    PaymentIntent, PaymentProvider, Refund, Reversal, SubscriptionState, Transfer, TransferRequest,
};

pub mod objects {
    use sea_orm::entity::prelude::*;

    #[derive(Clone, Debug, PartialEq, DeriveEntityModel)]
    #[sea_orm(table_name = "sandbox_objects")]
    pub struct Model {
        #[sea_orm(primary_key, auto_increment = false)]
        pub id: Uuid,
        pub object_id: String,
        pub kind: String,
        pub data: Json,
        pub created_at: DateTimeUtc,
        pub updated_at: DateTimeUtc,
    }

    #[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
    pub enum Relation {}

    impl ActiveModelBehavior for ActiveModel {}
}

pub mod events {
    use sea_orm::entity::prelude::*;

    #[derive(Clone, Debug, PartialEq, DeriveEntityModel)]
    #[sea_orm(table_name = "sandbox_events")]
    pub struct Model {
        #[sea_orm(primary_key, auto_increment = false)]
        pub id: Uuid,
        pub event_id: String,
        pub event_type: String,
        pub payload: Json,
        pub created_at: DateTimeUtc,
        pub delivered_at: Option<DateTimeUtc>,
    }

    #[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
    pub enum Relation {}

    impl ActiveModelBehavior for ActiveModel {}
}

const SESSION: &str = "checkout.session";
const PAYMENT_INTENT: &str = "payment_intent";
const SUBSCRIPTION: &str = "subscription";
const ACCOUNT: &str = "account";
const TRANSFER: &str = "transfer";

/// The sandbox's onboarding page for a payout account.
pub fn onboarding_url(account_id: &str) -> String {
    format!("/payouts/sandbox/onboard/{account_id}")
}

/// An object id that is the same for the same idempotency key, so that a
/// retried call finds what the first one made (as Stripe's keys do).
fn keyed_id(prefix: &str, key: &str) -> String {
    use sha2::Digest;
    let digest = sha2::Sha256::digest(key.as_bytes());
    let hex: String = digest[..12].iter().map(|b| format!("{b:02x}")).collect();
    format!("{prefix}_sandbox_{hex}")
}

/// The sandbox's checkout page for a session.
pub fn checkout_url(session_id: &str) -> String {
    format!("/checkout/sandbox/{session_id}")
}

fn new_id(prefix: &str) -> String {
    format!("{prefix}_sandbox_{}", Uuid::now_v7().simple())
}

fn conflict() -> PaymentError {
    PaymentError::Refused("the sandbox object changed meanwhile; try again".to_owned())
}

/// What the sandbox's Pay button did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PayOutcome {
    Paid,
    /// The session was no longer open (paid or cancelled before).
    NotOpen(String),
}

#[derive(Clone, Debug)]
pub struct Sandbox {
    db: DatabaseConnection,
}

impl Sandbox {
    pub fn new(db: DatabaseConnection) -> Self {
        Self { db }
    }

    /// A checkout session, as the test page shows it.
    pub async fn session(&self, id: &str) -> Result<Option<Value>, PaymentError> {
        Ok(find(&self.db, SESSION, id).await?.map(|object| object.data))
    }

    /// Events not yet run through fulfilment, oldest first.
    pub async fn pending_events(&self) -> Result<Vec<events::Model>, PaymentError> {
        Ok(events::Entity::find()
            .filter(events::Column::DeliveredAt.is_null())
            .order_by_asc(events::Column::CreatedAt)
            .order_by_asc(events::Column::Id)
            .all(&self.db)
            .await?)
    }

    pub async fn mark_delivered(&self, event_id: &str) -> Result<(), PaymentError> {
        events::Entity::update_many()
            .col_expr(events::Column::DeliveredAt, Expr::value(Utc::now()))
            .filter(events::Column::EventId.eq(event_id))
            .exec(&self.db)
            .await?;
        Ok(())
    }

    /// The Pay button: the test card is charged (or authorised, for a hold).
    pub async fn pay(&self, session_id: &str) -> Result<PayOutcome, PaymentError> {
        let txn = self.db.begin().await?;
        lock(&txn, session_id).await?;
        let object = find(&txn, SESSION, session_id)
            .await?
            .ok_or_else(|| PaymentError::Refused("no such checkout session".to_owned()))?;
        let mut session = object.data.clone();
        let status = session["status"].as_str().unwrap_or_default().to_owned();
        if status != "open" {
            return Ok(PayOutcome::NotOpen(status));
        }
        let now = Utc::now();
        let amount = session["amount_total"].as_i64().unwrap_or_default();
        let currency = session["currency"].clone();
        let metadata = session["metadata"].clone();
        let mut follow_up = Vec::new();
        session["status"] = json!("complete");
        match session["mode"].as_str() {
            Some("subscription") => {
                let subscription_id = new_id("sub");
                let invoice_id = new_id("in");
                let period_end = add_month(now);
                let subscription = json!({
                    "id": subscription_id,
                    "object": "subscription",
                    "status": "active",
                    "customer": session["customer"],
                    "cancel_at_period_end": false,
                    "current_period_start": now.timestamp(),
                    "current_period_end": period_end.timestamp(),
                    "metadata": metadata,
                    // Renewals are charged the full price; a promo
                    // discount is for the first payment only.
                    "plan_amount": session["amount_subtotal"].as_i64().unwrap_or(amount),
                    "currency": currency,
                });
                insert(&txn, SUBSCRIPTION, &subscription_id, &subscription).await?;
                session["payment_status"] = json!("paid");
                session["subscription"] = json!(subscription_id);
                session["invoice"] = json!(invoice_id);
                follow_up.push(("customer.subscription.created", subscription));
                let invoice = invoice(
                    &invoice_id,
                    &subscription_id,
                    amount,
                    &currency,
                    &metadata,
                    now,
                    period_end,
                );
                insert_invoice_intent(&txn, &invoice).await?;
                follow_up.push(("invoice.paid", invoice));
            }
            _ => {
                let hold = session["capture_method"] == "manual";
                let intent_id = new_id("pi");
                let intent = json!({
                    "id": intent_id,
                    "object": "payment_intent",
                    "status": if hold { "requires_capture" } else { "succeeded" },
                    "amount": amount,
                    "amount_capturable": if hold { amount } else { 0 },
                    "amount_received": if hold { 0 } else { amount },
                    "currency": currency,
                    "capture_method": if hold { "manual" } else { "automatic" },
                    "metadata": metadata,
                });
                insert(&txn, PAYMENT_INTENT, &intent_id, &intent).await?;
                session["payment_intent"] = json!(intent_id);
                // As Stripe: a hold is not paid yet.
                session["payment_status"] = json!(if hold { "unpaid" } else { "paid" });
                let kind = if hold {
                    "payment_intent.amount_capturable_updated"
                } else {
                    "payment_intent.succeeded"
                };
                follow_up.push((kind, intent));
            }
        }
        update(&txn, &object, &session).await?;
        emit(&txn, "checkout.session.completed", &session, now).await?;
        for (kind, object) in follow_up {
            emit(&txn, kind, &object, now).await?;
        }
        txn.commit().await?;
        Ok(PayOutcome::Paid)
    }

    /// The Decline card button: the attempt fails and nothing is charged;
    /// the session stays open, as at Stripe, so the buyer may try again.
    pub async fn decline(&self, session_id: &str) -> Result<PayOutcome, PaymentError> {
        let txn = self.db.begin().await?;
        lock(&txn, session_id).await?;
        let object = find(&txn, SESSION, session_id)
            .await?
            .ok_or_else(|| PaymentError::Refused("no such checkout session".to_owned()))?;
        let status = object.data["status"]
            .as_str()
            .unwrap_or_default()
            .to_owned();
        if status != "open" {
            return Ok(PayOutcome::NotOpen(status));
        }
        let session = &object.data;
        let intent = json!({
            "id": new_id("pi"),
            "object": "payment_intent",
            "status": "requires_payment_method",
            "amount": session["amount_total"],
            "amount_capturable": 0,
            "amount_received": 0,
            "currency": session["currency"],
            "metadata": session["metadata"],
            "last_payment_error": {
                "type": "card_error",
                "code": "card_declined",
                "message": "Your card was declined.",
            },
        });
        emit(&txn, "payment_intent.payment_failed", &intent, Utc::now()).await?;
        // Touch the session, so a Pay racing this click sees a change.
        update(&txn, &object, session).await?;
        txn.commit().await?;
        Ok(PayOutcome::Paid)
    }

    /// The Cancel button: the session expires, as an abandoned Stripe one.
    pub async fn cancel(&self, session_id: &str) -> Result<PayOutcome, PaymentError> {
        let txn = self.db.begin().await?;
        lock(&txn, session_id).await?;
        let object = find(&txn, SESSION, session_id)
            .await?
            .ok_or_else(|| PaymentError::Refused("no such checkout session".to_owned()))?;
        let mut session = object.data.clone();
        let status = session["status"].as_str().unwrap_or_default().to_owned();
        if status != "open" {
            return Ok(PayOutcome::NotOpen(status));
        }
        session["status"] = json!("expired");
        update(&txn, &object, &session).await?;
        emit(&txn, "checkout.session.expired", &session, Utc::now()).await?;
        txn.commit().await?;
        Ok(PayOutcome::Paid)
    }

    /// Plays the passing of time up to `now`: every active subscription
    /// whose period has ended either renews for a month (a paid invoice) or,
    /// when cancelled at period end, ends. Returns how many changed.
    pub async fn renew_due(&self, now: DateTime<Utc>) -> Result<usize, PaymentError> {
        let due: Vec<objects::Model> = objects::Entity::find()
            .filter(objects::Column::Kind.eq(SUBSCRIPTION))
            .all(&self.db)
            .await?
            .into_iter()
            .filter(|object| {
                object.data["status"] == "active"
                    && object.data["current_period_end"]
                        .as_i64()
                        .is_some_and(|end| end <= now.timestamp())
            })
            .collect();
        let mut changed = 0;
        for object in due {
            let txn = self.db.begin().await?;
            let mut subscription = object.data.clone();
            if subscription["cancel_at_period_end"] == true {
                subscription["status"] = json!("canceled");
                subscription["canceled_at"] = json!(now.timestamp());
                if update(&txn, &object, &subscription).await.is_err() {
                    continue;
                }
                emit(&txn, "customer.subscription.deleted", &subscription, now).await?;
            } else {
                let start = DateTime::from_timestamp(
                    subscription["current_period_end"]
                        .as_i64()
                        .unwrap_or_default(),
                    0,
                )
                .unwrap_or(now);
                let end = add_month(start);
                subscription["current_period_start"] = json!(start.timestamp());
                subscription["current_period_end"] = json!(end.timestamp());
                if update(&txn, &object, &subscription).await.is_err() {
                    continue;
                }
                let invoice = invoice(
                    &new_id("in"),
                    subscription["id"].as_str().unwrap_or_default(),
                    subscription["plan_amount"].as_i64().unwrap_or_default(),
                    &subscription["currency"],
                    &subscription["metadata"],
                    start,
                    end,
                );
                insert_invoice_intent(&txn, &invoice).await?;
                emit(&txn, "invoice.paid", &invoice, now).await?;
                emit(&txn, "customer.subscription.updated", &subscription, now).await?;
            }
            txn.commit().await?;
            changed += 1;
        }
        Ok(changed)
    }

    /// Moves a sandbox subscription's period end (tests and demos: "a month
    /// later").
    pub async fn set_period_end(
        &self,
        subscription_id: &str,
        end: DateTime<Utc>,
    ) -> Result<(), PaymentError> {
        let object = find(&self.db, SUBSCRIPTION, subscription_id)
            .await?
            .ok_or_else(|| PaymentError::Refused("no such subscription".to_owned()))?;
        let mut data = object.data.clone();
        data["current_period_end"] = json!(end.timestamp());
        let txn = self.db.begin().await?;
        update(&txn, &object, &data).await?;
        txn.commit().await?;
        Ok(())
    }

    /// A payout account, as its test onboarding page shows it.
    pub async fn account(&self, id: &str) -> Result<Option<Value>, PaymentError> {
        Ok(find(&self.db, ACCOUNT, id).await?.map(|object| object.data))
    }

    /// The onboarding page's Finish button: the account may now receive
    /// transfers, and `account.updated` says so, as Stripe's would.
    pub async fn complete_onboarding(&self, id: &str) -> Result<Value, PaymentError> {
        let txn = self.db.begin().await?;
        lock(&txn, id).await?;
        let object = find(&txn, ACCOUNT, id)
            .await?
            .ok_or_else(|| PaymentError::Refused(format!("no such account: {id}")))?;
        let mut data = object.data.clone();
        if data["payouts_enabled"] == json!(true) {
            return Ok(data);
        }
        data["details_submitted"] = json!(true);
        data["payouts_enabled"] = json!(true);
        data["capabilities"] = json!({ "transfers": "active" });
        update(&txn, &object, &data).await?;
        emit(&txn, "account.updated", &data, Utc::now()).await?;
        txn.commit().await?;
        Ok(data)
    }

    async fn intent(
        &self,
        txn: &DatabaseTransaction,
        id: &str,
    ) -> Result<(objects::Model, PaymentIntent), PaymentError> {
        let object = find(txn, PAYMENT_INTENT, id)
            .await?
            .ok_or_else(|| PaymentError::Refused(format!("no such payment intent: {id}")))?;
        let intent = serde_json::from_value(object.data.clone())
            .map_err(|err| PaymentError::Unavailable(err.to_string()))?;
        Ok((object, intent))
    }

    async fn change_intent(
        &self,
        id: &str,
        from: &str,
        change: impl FnOnce(&mut Value),
        event: &str,
    ) -> Result<PaymentIntent, PaymentError> {
        let txn = self.db.begin().await?;
        lock(&txn, id).await?;
        let (object, intent) = self.intent(&txn, id).await?;
        if intent.status != from {
            return Err(PaymentError::Refused(format!(
                "the payment intent is {}, not {from}",
                intent.status
            )));
        }
        let mut data = object.data.clone();
        change(&mut data);
        update(&txn, &object, &data).await?;
        emit(&txn, event, &data, Utc::now()).await?;
        txn.commit().await?;
        serde_json::from_value(data).map_err(|err| PaymentError::Unavailable(err.to_string()))
    }
}

fn add_month(at: DateTime<Utc>) -> DateTime<Utc> {
    at.checked_add_months(Months::new(1)).unwrap_or(at)
}

fn invoice(
    id: &str,
    subscription_id: &str,
    amount: i64,
    currency: &Value,
    metadata: &Value,
    start: DateTime<Utc>,
    end: DateTime<Utc>,
) -> Value {
    json!({
        "id": id,
        "object": "invoice",
        "status": "paid",
        "subscription": subscription_id,
        "amount_paid": amount,
        "currency": currency,
        "payment_intent": new_id("pi"),
        "subscription_details": { "metadata": metadata },
        "lines": { "data": [{ "period": { "start": start.timestamp(), "end": end.timestamp() } }] },
    })
}

async fn find(
    db: &impl ConnectionTrait,
    kind: &str,
    id: &str,
) -> Result<Option<objects::Model>, sea_orm::DbErr> {
    objects::Entity::find()
        .filter(objects::Column::ObjectId.eq(id))
        .filter(objects::Column::Kind.eq(kind))
        .one(db)
        .await
}

/// Takes the object's row lock (PostgreSQL) or the write lock (SQLite)
/// before reading it, so a second click waits for the first and then sees
/// its result: a portable `SELECT … FOR UPDATE`.
async fn lock(db: &impl ConnectionTrait, id: &str) -> Result<(), sea_orm::DbErr> {
    objects::Entity::update_many()
        .col_expr(
            objects::Column::UpdatedAt,
            Expr::col(objects::Column::UpdatedAt),
        )
        .filter(objects::Column::ObjectId.eq(id))
        .exec(db)
        .await?;
    Ok(())
}

/// The PaymentIntent an invoice was paid with, stored as Stripe keeps it,
/// so that the invoice can be refunded like any payment.
async fn insert_invoice_intent(
    db: &impl ConnectionTrait,
    invoice: &Value,
) -> Result<(), sea_orm::DbErr> {
    let Some(id) = invoice["payment_intent"].as_str() else {
        return Ok(());
    };
    let amount = invoice["amount_paid"].as_i64().unwrap_or_default();
    let intent = json!({
        "id": id,
        "object": "payment_intent",
        "status": "succeeded",
        "amount": amount,
        "amount_capturable": 0,
        "amount_received": amount,
        "currency": invoice["currency"],
        "capture_method": "automatic",
        "invoice": invoice["id"],
        "metadata": invoice["subscription_details"]["metadata"],
    });
    insert(db, PAYMENT_INTENT, id, &intent).await
}

async fn insert(
    db: &impl ConnectionTrait,
    kind: &str,
    id: &str,
    data: &Value,
) -> Result<(), sea_orm::DbErr> {
    let now = Utc::now();
    objects::ActiveModel {
        id: Set(Uuid::now_v7()),
        object_id: Set(id.to_owned()),
        kind: Set(kind.to_owned()),
        data: Set(data.clone()),
        created_at: Set(now),
        updated_at: Set(now),
    }
    .insert(db)
    .await?;
    Ok(())
}

/// Writes `data` if the object has not changed since it was read.
async fn update(
    db: &impl ConnectionTrait,
    object: &objects::Model,
    data: &Value,
) -> Result<(), PaymentError> {
    let now = Utc::now().max(object.updated_at + chrono::Duration::microseconds(1));
    let result = objects::Entity::update_many()
        .col_expr(objects::Column::Data, Expr::value(data.clone()))
        .col_expr(objects::Column::UpdatedAt, Expr::value(now))
        .filter(objects::Column::Id.eq(object.id))
        .filter(objects::Column::UpdatedAt.eq(object.updated_at))
        .exec(db)
        .await?;
    if result.rows_affected == 1 {
        Ok(())
    } else {
        Err(conflict())
    }
}

async fn emit(
    db: &impl ConnectionTrait,
    kind: &str,
    object: &Value,
    now: DateTime<Utc>,
) -> Result<(), sea_orm::DbErr> {
    let id = format!("evt_sandbox_{}", Uuid::now_v7().simple());
    let payload = json!({
        "id": id,
        "object": "event",
        "type": kind,
        "created": now.timestamp(),
        "livemode": false,
        "data": { "object": object },
    });
    events::ActiveModel {
        id: Set(Uuid::now_v7()),
        event_id: Set(id),
        event_type: Set(kind.to_owned()),
        payload: Set(payload),
        created_at: Set(Utc::now()),
        delivered_at: Set(None),
    }
    .insert(db)
    .await?;
    Ok(())
}

#[async_trait::async_trait]
impl PaymentProvider for Sandbox {
    fn name(&self) -> &'static str {
        "sandbox"
    }

    async fn create_checkout(
        &self,
        request: &CheckoutRequest,
    ) -> Result<CheckoutSession, PaymentError> {
        let id = new_id("cs");
        let url = checkout_url(&id);
        let session = json!({
            "id": id,
            "object": "checkout.session",
            "mode": if request.mode == CheckoutMode::Subscription { "subscription" } else { "payment" },
            "capture_method": if request.mode == CheckoutMode::Hold { "manual" } else { "automatic" },
            "status": "open",
            "payment_status": "unpaid",
            "amount_subtotal": request.amount_cents,
            "amount_total": request.first_payment_cents(),
            "currency": request.currency,
            "description": request.product_name,
            "client_reference_id": request.client_reference_id,
            "customer": format!("cus_sandbox_{}", request.client_reference_id.replace('-', "")),
            "metadata": request.metadata,
            // As Stripe: the session's id goes into the return address.
            "success_url": request.success_url.replace("{CHECKOUT_SESSION_ID}", &id),
            "cancel_url": request.cancel_url,
            "url": url,
        });
        insert(&self.db, SESSION, &id, &session).await?;
        Ok(CheckoutSession { id, url })
    }

    async fn hold(&self, request: &HoldRequest) -> Result<PaymentIntent, PaymentError> {
        let txn = self.db.begin().await?;
        let id = new_id("pi");
        let intent = json!({
            "id": id,
            "object": "payment_intent",
            "status": "requires_capture",
            "amount": request.amount_cents,
            "amount_capturable": request.amount_cents,
            "amount_received": 0,
            "currency": request.currency,
            "capture_method": "manual",
            "metadata": request.metadata,
        });
        insert(&txn, PAYMENT_INTENT, &id, &intent).await?;
        emit(
            &txn,
            "payment_intent.amount_capturable_updated",
            &intent,
            Utc::now(),
        )
        .await?;
        txn.commit().await?;
        serde_json::from_value(intent).map_err(|err| PaymentError::Unavailable(err.to_string()))
    }

    async fn capture(&self, payment_intent: &str) -> Result<PaymentIntent, PaymentError> {
        self.change_intent(
            payment_intent,
            "requires_capture",
            |intent| {
                intent["status"] = json!("succeeded");
                intent["amount_received"] = intent["amount_capturable"].clone();
                intent["amount_capturable"] = json!(0);
            },
            "payment_intent.succeeded",
        )
        .await
    }

    async fn release(&self, payment_intent: &str) -> Result<PaymentIntent, PaymentError> {
        self.change_intent(
            payment_intent,
            "requires_capture",
            |intent| {
                intent["status"] = json!("canceled");
                intent["amount_capturable"] = json!(0);
            },
            "payment_intent.canceled",
        )
        .await
    }

    async fn refund(
        &self,
        payment_intent: &str,
        amount_cents: Option<i64>,
    ) -> Result<Refund, PaymentError> {
        let txn = self.db.begin().await?;
        lock(&txn, payment_intent).await?;
        let (object, intent) = self.intent(&txn, payment_intent).await?;
        if intent.status != "succeeded" {
            return Err(PaymentError::Refused(format!(
                "the payment intent is {}, not succeeded",
                intent.status
            )));
        }
        let mut data = object.data.clone();
        let refunded = data["amount_refunded"].as_i64().unwrap_or(0);
        let amount = amount_cents.unwrap_or(intent.amount_received - refunded);
        if amount <= 0 || refunded + amount > intent.amount_received {
            return Err(PaymentError::Refused(
                "the refund is more than what is left of the payment".to_owned(),
            ));
        }
        data["amount_refunded"] = json!(refunded + amount);
        update(&txn, &object, &data).await?;
        let charge = json!({
            "id": format!("ch_{}", payment_intent.trim_start_matches("pi_")),
            "object": "charge",
            "payment_intent": payment_intent,
            "amount": intent.amount_received,
            "amount_refunded": refunded + amount,
            "refunded": refunded + amount >= intent.amount_received,
            "currency": data["currency"],
            "metadata": data["metadata"],
        });
        emit(&txn, "charge.refunded", &charge, Utc::now()).await?;
        txn.commit().await?;
        Ok(Refund {
            id: new_id("re"),
            status: "succeeded".to_owned(),
            amount,
        })
    }

    async fn cancel_now(&self, subscription: &str) -> Result<SubscriptionState, PaymentError> {
        let txn = self.db.begin().await?;
        lock(&txn, subscription).await?;
        let object = find(&txn, SUBSCRIPTION, subscription)
            .await?
            .ok_or_else(|| {
                PaymentError::Refused(format!("no such subscription: {subscription}"))
            })?;
        let mut data = object.data.clone();
        if data["status"] == "canceled" {
            return Err(PaymentError::Refused(
                "the subscription is canceled already".to_owned(),
            ));
        }
        let now = Utc::now();
        data["status"] = json!("canceled");
        data["canceled_at"] = json!(now.timestamp());
        data["ended_at"] = json!(now.timestamp());
        update(&txn, &object, &data).await?;
        emit(&txn, "customer.subscription.deleted", &data, now).await?;
        txn.commit().await?;
        SubscriptionState::from_object(&data)
            .ok_or_else(|| PaymentError::Unavailable("unexpected subscription object".to_owned()))
    }

    async fn set_cancel_at_period_end(
        &self,
        subscription: &str,
        cancel: bool,
    ) -> Result<SubscriptionState, PaymentError> {
        let txn = self.db.begin().await?;
        lock(&txn, subscription).await?;
        let object = find(&txn, SUBSCRIPTION, subscription)
            .await?
            .ok_or_else(|| {
                PaymentError::Refused(format!("no such subscription: {subscription}"))
            })?;
        let mut data = object.data.clone();
        if data["status"] != "active" {
            return Err(PaymentError::Refused(
                "the subscription is no longer active".to_owned(),
            ));
        }
        data["cancel_at_period_end"] = json!(cancel);
        update(&txn, &object, &data).await?;
        emit(&txn, "customer.subscription.updated", &data, Utc::now()).await?;
        txn.commit().await?;
        SubscriptionState::from_object(&data)
            .ok_or_else(|| PaymentError::Unavailable("unexpected subscription object".to_owned()))
    }

    async fn create_connected_account(
        &self,
        email: Option<&str>,
        user_id: &str,
        idempotency_key: &str,
    ) -> Result<ConnectedAccount, PaymentError> {
        let id = keyed_id("acct", idempotency_key);
        let account = match find(&self.db, ACCOUNT, &id).await? {
            Some(found) => found.data,
            None => {
                let account = json!({
                    "id": id,
                    "object": "account",
                    "type": "express",
                    "email": email,
                    "details_submitted": false,
                    "payouts_enabled": false,
                    "charges_enabled": false,
                    "capabilities": { "transfers": "inactive" },
                    "metadata": { "user_id": user_id },
                });
                if insert(&self.db, ACCOUNT, &id, &account).await.is_err() {
                    // Made meanwhile by the same call retried.
                    find(&self.db, ACCOUNT, &id)
                        .await?
                        .ok_or_else(conflict)?
                        .data
                } else {
                    account
                }
            }
        };
        ConnectedAccount::from_object(&account)
            .ok_or_else(|| PaymentError::Unavailable("unexpected account object".to_owned()))
    }

    async fn onboarding_link(
        &self,
        account: &str,
        _refresh_url: &str,
        _return_url: &str,
    ) -> Result<String, PaymentError> {
        if find(&self.db, ACCOUNT, account).await?.is_none() {
            return Err(PaymentError::Refused(format!("no such account: {account}")));
        }
        Ok(onboarding_url(account))
    }

    async fn transfer(&self, request: &TransferRequest) -> Result<Transfer, PaymentError> {
        let id = keyed_id("tr", &request.idempotency_key);
        if let Some(found) = find(&self.db, TRANSFER, &id).await? {
            return serde_json::from_value(found.data)
                .map_err(|err| PaymentError::Unavailable(err.to_string()));
        }
        let ready = find(&self.db, ACCOUNT, &request.destination)
            .await?
            .and_then(|account| ConnectedAccount::from_object(&account.data))
            .is_some_and(|account| account.ready());
        if !ready {
            return Err(PaymentError::Refused(format!(
                "the account {} cannot receive transfers yet",
                request.destination
            )));
        }
        let transfer = json!({
            "id": id,
            "object": "transfer",
            "amount": request.amount_cents,
            "amount_reversed": 0,
            "currency": request.currency,
            "destination": request.destination,
            "transfer_group": request.transfer_group,
            "reversed": false,
            "metadata": request.metadata,
        });
        if insert(&self.db, TRANSFER, &id, &transfer).await.is_err() {
            let found = find(&self.db, TRANSFER, &id).await?.ok_or_else(conflict)?;
            return serde_json::from_value(found.data)
                .map_err(|err| PaymentError::Unavailable(err.to_string()));
        }
        serde_json::from_value(transfer).map_err(|err| PaymentError::Unavailable(err.to_string()))
    }

    async fn reverse_transfer(&self, transfer: &str) -> Result<Reversal, PaymentError> {
        let txn = self.db.begin().await?;
        lock(&txn, transfer).await?;
        let object = find(&txn, TRANSFER, transfer)
            .await?
            .ok_or_else(|| PaymentError::Refused(format!("no such transfer: {transfer}")))?;
        let mut data = object.data.clone();
        // The same reversal again, as Stripe answers a retried key.
        if let Some(reversal) = data.get("reversal").filter(|r| !r.is_null()) {
            return serde_json::from_value(reversal.clone())
                .map_err(|err| PaymentError::Unavailable(err.to_string()));
        }
        let amount = data["amount"].as_i64().unwrap_or(0);
        let reversal = json!({ "id": new_id("trr"), "object": "transfer_reversal", "amount": amount, "transfer": transfer });
        data["amount_reversed"] = json!(amount);
        data["reversed"] = json!(true);
        data["reversal"] = reversal.clone();
        update(&txn, &object, &data).await?;
        txn.commit().await?;
        serde_json::from_value(reversal).map_err(|err| PaymentError::Unavailable(err.to_string()))
    }
}
