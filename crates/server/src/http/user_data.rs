//! A user's data across domains. Each domain that keeps data of a user
//! registers a [`UserData`] (in `app::account`); the account export
//! (`GET /api/v1/account/export`), the account deletion (`DELETE
//! /api/v1/account`) and the auth admin API's user deletion loop over the
//! [`UserDataRegistry`]. A new domain joins export and deletion by
//! registering, without touching the auth domain.

use std::sync::Arc;

use serde_json::{Map, Value};
use uuid::Uuid;

use super::AppState;

/// One domain's share of a user's data.
#[async_trait::async_trait]
pub trait UserData: Send + Sync {
    /// The key of this domain's section in the export, e.g. `photos`.
    fn name(&self) -> &'static str;

    /// The user's data for their download; `None` adds no section.
    async fn export(&self, _state: &AppState, _user_id: Uuid) -> anyhow::Result<Option<Value>> {
        Ok(None)
    }

    /// Deletes what the database cannot delete by itself when the user's row
    /// goes (every table keyed by the user cascades): stored objects such as
    /// images. Runs before the user's row is deleted.
    async fn delete(&self, _state: &AppState, _user_id: Uuid) -> anyhow::Result<()> {
        Ok(())
    }
}

/// Every registered domain, in registration order.
#[derive(Clone, Default)]
pub struct UserDataRegistry(Arc<[Arc<dyn UserData>]>);

impl UserDataRegistry {
    pub fn new(domains: Vec<Arc<dyn UserData>>) -> Self {
        Self(domains.into())
    }

    /// Every domain's section of the user's export, keyed by its name.
    pub async fn export(
        &self,
        state: &AppState,
        user_id: Uuid,
    ) -> anyhow::Result<Map<String, Value>> {
        let mut sections = Map::new();
        for domain in self.0.iter() {
            if let Some(section) = domain.export(state, user_id).await? {
                sections.insert(domain.name().to_owned(), section);
            }
        }
        Ok(sections)
    }

    /// Every domain's delete step, in registration order.
    pub async fn delete(&self, state: &AppState, user_id: Uuid) -> anyhow::Result<()> {
        for domain in self.0.iter() {
            domain.delete(state, user_id).await?;
        }
        Ok(())
    }
}
