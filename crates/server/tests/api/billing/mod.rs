//! Payments (issue 12): checkout at the server's price, the sandbox's test
//! checkout, Stripe's webhooks (signature, redelivery, order), the
//! subscription's life, refunds and holds, the feature gates and their one
//! trial, and the Stripe adapter against a wiremock double and localstripe.

mod checkout;
mod features;
mod localstripe;
mod once;
mod stripe;
mod webhook;

use prettyscore_server::config::{PaymentProviderKind, Secret};
use reqwest::{Method, StatusCode};
use serde_json::{Value, json};
use uuid::Uuid;
use wiremock::matchers::{method, path};
use wiremock::{Mock, MockServer, ResponseTemplate};

use crate::harness::*;
