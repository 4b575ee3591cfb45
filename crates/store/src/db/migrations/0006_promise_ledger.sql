-- The promise ledger (SPEC D1): a promise the agent made to the customer that passed the
-- guardrail becomes a `promise_made` event on its case, and the case remembers the promise still
-- waiting for a person (made since the last human reply) so the inbox can show it and raise the
-- overdue ones.
--
-- Event kinds move from a CHECK constraint to a table of their own, so a later kind is one INSERT
-- instead of rebuilding the append-only timeline. The rebuild below keeps every row and its seq
-- (deliveries point at them); migrations run with foreign keys off and end with a foreign key
-- check (`db::migrate`), as SQLite's procedure for rebuilding a table requires.

CREATE TABLE event_kinds (kind TEXT PRIMARY KEY NOT NULL) WITHOUT ROWID;
INSERT INTO event_kinds (kind) VALUES
    ('opened'), ('human_replied'), ('lead_asked'), ('lead_provided'), ('lead_unresponsive'),
    ('resolved'), ('escalated'), ('cancelled'), ('agent_notified'), ('delivery_failed'),
    ('promise_made');

DROP TRIGGER case_events_no_update;
DROP TRIGGER case_events_no_delete;

CREATE TABLE case_events_rebuilt (
    seq        INTEGER PRIMARY KEY AUTOINCREMENT,
    case_id    TEXT NOT NULL REFERENCES cases (id),
    kind       TEXT NOT NULL REFERENCES event_kinds (kind),
    actor      TEXT NOT NULL CHECK (actor IN ('agent', 'human', 'system', 'lead')),
    actor_name TEXT,
    at         TEXT NOT NULL,
    payload    TEXT NOT NULL DEFAULT '{}'
);
INSERT INTO case_events_rebuilt (seq, case_id, kind, actor, actor_name, at, payload)
    SELECT seq, case_id, kind, actor, actor_name, at, payload FROM case_events ORDER BY seq;
DROP TABLE case_events;
ALTER TABLE case_events_rebuilt RENAME TO case_events;
CREATE INDEX case_events_by_case ON case_events (case_id, seq);

CREATE TRIGGER case_events_no_update BEFORE UPDATE ON case_events
BEGIN
    SELECT RAISE(ABORT, 'case_events is append-only');
END;
CREATE TRIGGER case_events_no_delete BEFORE DELETE ON case_events
BEGIN
    SELECT RAISE(ABORT, 'case_events is append-only');
END;

-- The promise still waiting for a person: its words and, when the text said when, its due time
-- (RFC 3339 UTC). Cleared when a person replies.
ALTER TABLE cases ADD COLUMN promise_quote TEXT;
ALTER TABLE cases ADD COLUMN promise_due_at TEXT;
