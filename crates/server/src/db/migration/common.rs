//! Column and constraint builders shared by the migrations, so that every table
//! follows the conventions written down in `mod.rs` the same way.
//!
//! Changing a helper changes how *future* runs of *every* migration build their
//! tables. Migrations that have shipped must keep producing the same schema, so
//! treat these functions as frozen: add a new helper rather than altering one.

use sea_orm_migration::prelude::*;
use sea_orm_migration::sea_orm::DbBackend;

/// The current instant, as the default of a timestamp column.
///
/// PostgreSQL: `CURRENT_TIMESTAMP` into a `timestamptz`.
///
/// SQLite has no timestamp type: sqlx writes a `DateTime<Utc>` as RFC 3339 text
/// (`2026-11-21T10:00:00.123456+00:00`), while SQLite's own `CURRENT_TIMESTAMP`
/// writes `2026-11-21 10:00:00`. Mixing the two would make text comparison
/// (`ORDER BY created_at`, `WHERE expires_at < ?`) wrong within a day, because
/// `' '` sorts before `'T'`. The default therefore writes the same RFC 3339 shape
/// in UTC with millisecond precision, which orders correctly against the values
/// the server binds.
pub fn now(backend: DbBackend) -> Expr {
    match backend {
        DbBackend::Sqlite => Expr::cust("strftime('%Y-%m-%dT%H:%M:%f+00:00', 'now')"),
        _ => Expr::current_timestamp(),
    }
}

/// `uuid NOT NULL PRIMARY KEY`. Ids come from the server (no database default:
/// SQLite has no UUID generator).
pub fn pk_uuid<T: IntoIden>(col: T) -> ColumnDef {
    ColumnDef::new(col).uuid().not_null().primary_key().take()
}

/// `uuid NOT NULL`, for a required reference to another row.
pub fn uuid<T: IntoIden>(col: T) -> ColumnDef {
    ColumnDef::new(col).uuid().not_null().take()
}

/// `uuid NULL`, for an optional reference.
pub fn uuid_null<T: IntoIden>(col: T) -> ColumnDef {
    ColumnDef::new(col).uuid().null().take()
}

/// `text NOT NULL`. Lengths are validated by the server's domain types, not by
/// `varchar(n)`, so a limit changes without a migration.
pub fn text<T: IntoIden>(col: T) -> ColumnDef {
    ColumnDef::new(col).text().not_null().take()
}

/// `text NULL`.
pub fn text_null<T: IntoIden>(col: T) -> ColumnDef {
    ColumnDef::new(col).text().null().take()
}

/// `text NOT NULL DEFAULT '<default>'`.
pub fn text_default<T: IntoIden>(col: T, default: &'static str) -> ColumnDef {
    ColumnDef::new(col)
        .text()
        .not_null()
        .default(default)
        .take()
}

/// An enumeration: `text NOT NULL` restricted by a named CHECK constraint to
/// `values`, optionally with a default.
pub fn text_enum<T: IntoIden + Clone>(
    col: T,
    check_name: &'static str,
    values: &[&'static str],
    default: Option<&'static str>,
) -> ColumnDef {
    let mut def = ColumnDef::new(col.clone());
    def.text()
        .not_null()
        .check((check_name, Expr::col(col).is_in(values.iter().copied())));
    if let Some(default) = default {
        def.default(default);
    }
    def
}

/// `boolean NOT NULL DEFAULT <default>`.
pub fn flag<T: IntoIden>(col: T, default: bool) -> ColumnDef {
    ColumnDef::new(col)
        .boolean()
        .not_null()
        .default(default)
        .take()
}

/// `integer NOT NULL`.
pub fn int<T: IntoIden>(col: T) -> ColumnDef {
    ColumnDef::new(col).integer().not_null().take()
}

/// `bigint NOT NULL`, for money in whole cents (`*_cents`). The sign is checked
/// at table level, where the constraint can be named.
pub fn cents<T: IntoIden>(col: T) -> ColumnDef {
    ColumnDef::new(col).big_integer().not_null().take()
}

/// `bigint NOT NULL DEFAULT 0`, for counters and running totals.
pub fn big_zero<T: IntoIden>(col: T) -> ColumnDef {
    ColumnDef::new(col)
        .big_integer()
        .not_null()
        .default(0)
        .take()
}

/// `double precision NOT NULL`.
pub fn double<T: IntoIden>(col: T) -> ColumnDef {
    ColumnDef::new(col).double().not_null().take()
}

/// JSON document: `jsonb NOT NULL` on PostgreSQL, text on SQLite.
pub fn json<T: IntoIden>(col: T) -> ColumnDef {
    ColumnDef::new(col).json_binary().not_null().take()
}

/// JSON document with a literal default such as `'{}'` or `'[]'`.
pub fn json_default<T: IntoIden>(col: T, default: &'static str) -> ColumnDef {
    ColumnDef::new(col)
        .json_binary()
        .not_null()
        .default(default)
        .take()
}

/// `timestamptz NOT NULL DEFAULT now` (see [`now`]).
pub fn timestamp_now<T: IntoIden>(col: T, backend: DbBackend) -> ColumnDef {
    ColumnDef::new(col)
        .timestamp_with_time_zone()
        .not_null()
        .default(now(backend))
        .take()
}

/// `timestamptz NULL`.
pub fn timestamp_null<T: IntoIden>(col: T) -> ColumnDef {
    ColumnDef::new(col).timestamp_with_time_zone().null().take()
}

/// `date NOT NULL`.
pub fn date<T: IntoIden>(col: T) -> ColumnDef {
    ColumnDef::new(col).date().not_null().take()
}

/// A named foreign key, declared inside `CREATE TABLE` (SQLite cannot add one
/// later). PostgreSQL keeps the name; SQLite parses but does not report it.
pub fn fk<FT, FC, TT, TC>(
    name: &'static str,
    from: (FT, FC),
    to: (TT, TC),
    on_delete: ForeignKeyAction,
) -> ForeignKeyCreateStatement
where
    FT: IntoTableRef,
    FC: IntoIden,
    TT: IntoTableRef,
    TC: IntoIden,
{
    ForeignKey::create()
        .name(name)
        .from(from.0, from.1)
        .to(to.0, to.1)
        .on_delete(on_delete)
        .take()
}

/// A named unique index. A standalone `CREATE UNIQUE INDEX` keeps its name on
/// both databases (an inline SQLite `UNIQUE` becomes `sqlite_autoindex_*`), and
/// `ON CONFLICT (columns)` can target it on both.
pub fn unique<T, C, I>(name: &'static str, table: T, cols: I) -> IndexCreateStatement
where
    T: IntoTableRef,
    C: IntoIndexColumn,
    I: IntoIterator<Item = C>,
{
    let mut index = Index::create();
    index.name(name).table(table).unique();
    for col in cols {
        index.col(col);
    }
    index
}

/// A named plain index.
pub fn index<T, C, I>(name: &'static str, table: T, cols: I) -> IndexCreateStatement
where
    T: IntoTableRef,
    C: IntoIndexColumn,
    I: IntoIterator<Item = C>,
{
    let mut index = Index::create();
    index.name(name).table(table);
    for col in cols {
        index.col(col);
    }
    index
}

/// Creates `tables` in order, then `indexes`.
pub async fn create_all(
    manager: &SchemaManager<'_>,
    tables: Vec<TableCreateStatement>,
    indexes: Vec<IndexCreateStatement>,
) -> Result<(), DbErr> {
    for table in tables {
        manager.create_table(table).await?;
    }
    for index in indexes {
        manager.create_index(index).await?;
    }
    Ok(())
}

/// Drops `tables` in the order given (dependents first); their indexes go with them.
pub async fn drop_all<T: IntoTableRef>(
    manager: &SchemaManager<'_>,
    tables: impl IntoIterator<Item = T>,
) -> Result<(), DbErr> {
    for table in tables {
        manager
            .drop_table(Table::drop().table(table).to_owned())
            .await?;
    }
    Ok(())
}

/// `ALTER TABLE table ADD COLUMN column`, for a migration that adds one column.
pub async fn add_column<T: IntoTableRef>(
    manager: &SchemaManager<'_>,
    table: T,
    column: ColumnDef,
) -> Result<(), DbErr> {
    manager
        .alter_table(Table::alter().table(table).add_column(column).to_owned())
        .await
}

/// `ALTER TABLE table DROP COLUMN column`: the `down` of [`add_column`].
pub async fn drop_column<T: IntoTableRef, C: IntoIden>(
    manager: &SchemaManager<'_>,
    table: T,
    column: C,
) -> Result<(), DbErr> {
    manager
        .alter_table(Table::alter().table(table).drop_column(column).to_owned())
        .await
}

/// Drops the index called `name` of `table`.
pub async fn drop_index<T: IntoTableRef>(
    manager: &SchemaManager<'_>,
    name: &str,
    table: T,
) -> Result<(), DbErr> {
    manager
        .drop_index(Index::drop().name(name).table(table).to_owned())
        .await
}
