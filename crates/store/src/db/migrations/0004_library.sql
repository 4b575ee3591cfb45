-- The skill library (SPEC A9): every distinct content of a skill is an immutable version; a
-- pointer per skill name says which one is live; activations (SPEC A7) record which version a
-- customer message fired. File contents live in the content-addressed blob store beside the
-- database, named by the sha256 values in each manifest. Timestamps are fixed-width RFC 3339 UTC.

-- Immutable: rows are inserted, never updated. (name, content_hash) is unique, so the same
-- content never makes two versions of one skill.
CREATE TABLE skill_versions (
    id           INTEGER PRIMARY KEY AUTOINCREMENT,
    name         TEXT NOT NULL,
    content_hash TEXT NOT NULL,
    -- [{path, size, sha256, kind}], sorted by path.
    manifest     TEXT NOT NULL,
    -- The parsed frontmatter fields and product config as JSON (null when SKILL.md did not parse).
    frontmatter  TEXT,
    config       TEXT,
    -- {errors, warnings} and the findings themselves.
    validation   TEXT NOT NULL,
    source       TEXT NOT NULL CHECK (source IN ('import', 'edit', 'watch', 'catalog')),
    forked_from  INTEGER REFERENCES skill_versions (id),
    created_at   TEXT NOT NULL,
    UNIQUE (name, content_hash)
);

-- One row per skill name present in the library. `origin` says where the live folder is:
-- `local` (the skills directory) or `catalog` (the shipped, read-only catalog folder).
-- `fingerprint` hashes each file's path, size and modification time, so a start-up scan can
-- tell an unchanged folder without reading its contents.
CREATE TABLE skills (
    name            TEXT PRIMARY KEY NOT NULL,
    origin          TEXT NOT NULL CHECK (origin IN ('local', 'catalog')),
    live_version_id INTEGER REFERENCES skill_versions (id),
    fingerprint     TEXT,
    updated_at      TEXT NOT NULL
);

-- A customer message fired a skill (hard keyword) or nearly did (probe keyword).
CREATE TABLE activations (
    id              INTEGER PRIMARY KEY AUTOINCREMENT,
    skill           TEXT NOT NULL,
    version_id      INTEGER REFERENCES skill_versions (id),
    trigger         TEXT NOT NULL CHECK (trigger IN ('hard', 'probe')),
    conversation_id TEXT NOT NULL,
    at              TEXT NOT NULL
);
CREATE INDEX activations_by_skill_time ON activations (skill, at);

-- The skills active in each conversation (a hard match or a level-2 read), which level-3 reads
-- are limited to (SPEC A6).
CREATE TABLE active_skills (
    conversation_id TEXT NOT NULL,
    skill           TEXT NOT NULL,
    since           TEXT NOT NULL,
    PRIMARY KEY (conversation_id, skill)
);
