-- "Ana is replying": while a person writes a reply the case holds a short lease in
-- their name, renewed as they type; another person's Send is refused while it runs unless the case
-- is assigned to them. One row per case at most; a sent reply or a take-over removes it, an
-- abandoned one runs out (`until`, fixed-width RFC 3339 UTC like every other time).
CREATE TABLE reply_leases (
    case_id TEXT PRIMARY KEY NOT NULL REFERENCES cases (id),
    person  TEXT NOT NULL,
    until   TEXT NOT NULL
) WITHOUT ROWID;
