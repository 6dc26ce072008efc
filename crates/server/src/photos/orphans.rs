//! Images without their row. A photo's images are written before its row
//! (the row names them), so a crash between the two, or a storage call that
//! finishes after its request gave up, leaves a folder no row points at. The
//! orphan sweep (scheduled by the app, one instance an hour) deletes such a
//! folder once its newest image is older than a grace period: a save in
//! progress writes its row within seconds.

use std::collections::{HashMap, HashSet};

use chrono::{DateTime, Utc};
use sea_orm::{ColumnTrait, DatabaseConnection, EntityTrait, QueryFilter, QuerySelect};
use uuid::Uuid;

use super::{PHOTOS_FOLDER, entity};
use crate::storage::Storage;

/// Photo ids looked up per query.
const BATCH: usize = 500;

/// Deletes every photo folder whose photo has no row and whose newest image
/// was written before `written_before`; returns how many folders went.
pub async fn sweep_orphans(
    db: &DatabaseConnection,
    storage: &Storage,
    written_before: DateTime<Utc>,
) -> anyhow::Result<usize> {
    // Folder `photos/<user>/<photo>/` by photo id, with its newest write.
    let mut folders: HashMap<Uuid, (String, DateTime<Utc>)> = HashMap::new();
    for (key, written) in storage.list_with_times(PHOTOS_FOLDER).await? {
        let mut segments = key.split('/').skip(1);
        let (Some(user), Some(photo)) = (segments.next(), segments.next()) else {
            continue;
        };
        let Ok(photo_id) = Uuid::parse_str(photo) else {
            continue;
        };
        let folder = format!("{PHOTOS_FOLDER}/{user}/{photo}/");
        let newest = folders.entry(photo_id).or_insert((folder, written));
        newest.1 = newest.1.max(written);
    }
    let settled: Vec<Uuid> = folders
        .iter()
        .filter(|(_, (_, newest))| *newest < written_before)
        .map(|(id, _)| *id)
        .collect();
    let mut removed = 0;
    for ids in settled.chunks(BATCH) {
        let known: HashSet<Uuid> = entity::Entity::find()
            .select_only()
            .column(entity::Column::Id)
            .filter(entity::Column::Id.is_in(ids.iter().copied()))
            .into_tuple()
            .all(db)
            .await?
            .into_iter()
            .collect();
        for id in ids.iter().filter(|id| !known.contains(id)) {
            let folder = &folders[id].0;
            storage.delete_prefix(folder).await?;
            tracing::info!(%folder, "removed a photo folder without its row");
            removed += 1;
        }
    }
    Ok(removed)
}
