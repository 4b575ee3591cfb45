-- Catalog tokens leave the database. Each subscription's bearer token is kept in a file of its own
-- in `<data dir>/catalog-tokens/` (mode 0600, the folder 0700), the way the API token is kept;
-- `token_ref` is that file's name. This migration's hook (crates/store/src/db/hooks.rs) moves every
-- token stored so far into its file; the next migration drops the `token` column.
ALTER TABLE remote_catalogs ADD COLUMN token_ref TEXT;
