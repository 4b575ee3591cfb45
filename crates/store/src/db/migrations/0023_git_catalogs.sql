-- Git catalogs: a remote catalog may now be a git repository (`git+URL[#branch]`), read through
-- the system git. SQLite cannot change a CHECK constraint in place, so `remote_catalogs` is
-- rebuilt by SQLite's own procedure (foreign keys are off while migrations run, so the rows of
-- `remote_skills` and `remote_forks` that point at it keep pointing at the same ids; the
-- migration's foreign_key_check proves it before it commits).
CREATE TABLE remote_catalogs_rebuilt (
    id         INTEGER PRIMARY KEY AUTOINCREMENT,
    url        TEXT NOT NULL UNIQUE,
    kind       TEXT NOT NULL CHECK (kind IN ('index', 'mcp', 'git')),
    added_at   TEXT NOT NULL,
    pulled_at  TEXT,
    last_error TEXT,
    token_ref  TEXT
);
INSERT INTO remote_catalogs_rebuilt (id, url, kind, added_at, pulled_at, last_error, token_ref)
    SELECT id, url, kind, added_at, pulled_at, last_error, token_ref FROM remote_catalogs;
DROP TABLE remote_catalogs;
ALTER TABLE remote_catalogs_rebuilt RENAME TO remote_catalogs;
