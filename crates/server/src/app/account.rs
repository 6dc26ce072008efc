//! The registry of a user's data: every domain that keeps data of a user, in
//! the order their delete steps run (before the user's row goes). A domain
//! that stores user data adds one line here.

use std::sync::Arc;

use crate::http::user_data::UserDataRegistry;
use crate::{
    auth, billing, contact, edits, features, opportunities, partners, personality, photos, reports,
    verification,
};

pub fn registry() -> UserDataRegistry {
    UserDataRegistry::new(vec![
        Arc::new(auth::account::Account),
        Arc::new(photos::SavedPhotos),
        Arc::new(edits::temp::TemporaryEdits),
        Arc::new(billing::account::BillingData),
        Arc::new(features::FeatureTrials),
        Arc::new(opportunities::OpportunityApplications),
        Arc::new(personality::PersonalityResults),
        Arc::new(verification::VerificationRequests),
        Arc::new(partners::PartnerData),
        Arc::new(contact::ContactRequests),
        Arc::new(reports::export::ModerationRecords),
    ])
}
