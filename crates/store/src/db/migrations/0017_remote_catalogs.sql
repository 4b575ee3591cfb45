-- Remote catalogs (SPEC D6): catalogs subscribed to by URL — a static JSON index
-- or an MCP server serving the Skills extension — what the last pull found in each, and which
-- local skills were forked from one of their skills on install.

-- One row per subscription. `token` is the bearer token sent with every request, when the catalog
-- needs one (an MCP server behind a gate); it is never shown back. `last_error` is the code and
-- message of the last pull that failed (cleared by the next that succeeds).
CREATE TABLE remote_catalogs (
    id         INTEGER PRIMARY KEY AUTOINCREMENT,
    url        TEXT NOT NULL UNIQUE,
    kind       TEXT NOT NULL CHECK (kind IN ('index', 'mcp')),
    token      TEXT,
    added_at   TEXT NOT NULL,
    pulled_at  TEXT,
    last_error TEXT
);

-- What the last pull of a catalog found, one row per upstream skill. `manifest` is
-- [{path, size, sha256, kind}] sorted by path, every file's bytes in the blob store;
-- `digest` is the content hash of that manifest (the formula of `skill_versions.content_hash`,
-- so an unmodified local copy has the same hash). A skill a later pull no longer finds, or finds
-- revoked, keeps its row with `removed_at` set (and `revoked` when upstream said so).
CREATE TABLE remote_skills (
    catalog_id  INTEGER NOT NULL REFERENCES remote_catalogs (id) ON DELETE CASCADE,
    name        TEXT NOT NULL,
    version     TEXT,
    description TEXT NOT NULL,
    manifest    TEXT NOT NULL,
    digest      TEXT NOT NULL,
    pulled_at   TEXT NOT NULL,
    removed_at  TEXT,
    revoked     INTEGER NOT NULL DEFAULT 0 CHECK (revoked IN (0, 1)),
    PRIMARY KEY (catalog_id, name)
) WITHOUT ROWID;

-- A local skill installed from a remote catalog (fork on install): what it was forked from.
-- `catalog_url` is kept as text so the record still says where the copy came from after the
-- subscription is removed (`catalog_id` then becomes NULL). `version_id` is the local version
-- the install wrote.
CREATE TABLE remote_forks (
    name             TEXT PRIMARY KEY NOT NULL,
    catalog_id       INTEGER REFERENCES remote_catalogs (id) ON DELETE SET NULL,
    catalog_url      TEXT NOT NULL,
    upstream_name    TEXT NOT NULL,
    upstream_version TEXT,
    upstream_digest  TEXT NOT NULL,
    version_id       INTEGER REFERENCES skill_versions (id),
    installed_at     TEXT NOT NULL
);
CREATE INDEX remote_forks_by_catalog ON remote_forks (catalog_id, upstream_name);
