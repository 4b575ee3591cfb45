-- When the customer goes quiet: after a delay waiting on the customer the agent gets a
-- `case.reminder` delivery, and after a second delay the case closes as `lead_unresponsive`, the
-- agent told with a `case.closed` delivery.
--
-- `reminded_at` is when the reminder of the case's current wait on the customer went out; it is
-- cleared whenever the case changes whom it waits on, so each wait gets at most one reminder.
ALTER TABLE cases ADD COLUMN reminded_at TEXT;

-- The periodic job's two questions, each answered from a small partial index however many
-- cases there are: who is due a reminder (longest waiting first), who is due to close.
CREATE INDEX cases_to_remind ON cases (waiting_since)
    WHERE status = 'awaiting_lead' AND reminded_at IS NULL;
CREATE INDEX cases_to_close ON cases (reminded_at)
    WHERE status = 'awaiting_lead' AND reminded_at IS NOT NULL;

INSERT INTO event_kinds (kind) VALUES ('reminder_sent');

-- Deliveries now carry more than a person's reply: the action CHECK grows by the reminder and
-- the closing notice. SQLite cannot alter a CHECK, so the table is rebuilt with every row (no
-- table references deliveries; its indexes are made again).
CREATE TABLE deliveries_rebuilt (
    id              TEXT PRIMARY KEY NOT NULL,
    case_id         TEXT NOT NULL REFERENCES cases (id),
    event_seq       INTEGER NOT NULL REFERENCES case_events (seq),
    action          TEXT NOT NULL CHECK (action IN
                        ('resolved', 'need_lead_info', 'escalate', 'reminder', 'lead_unresponsive')),
    body            TEXT NOT NULL,
    state           TEXT NOT NULL CHECK (state IN ('pending', 'delivered', 'failed', 'dead')),
    attempts        INTEGER NOT NULL DEFAULT 0,
    next_attempt_at TEXT,
    claimed_until   TEXT,
    last_error      TEXT,
    last_status     INTEGER,
    created_at      TEXT NOT NULL,
    updated_at      TEXT NOT NULL,
    delivered_at    TEXT
);
INSERT INTO deliveries_rebuilt
    SELECT id, case_id, event_seq, action, body, state, attempts, next_attempt_at, claimed_until,
           last_error, last_status, created_at, updated_at, delivered_at FROM deliveries;
DROP TABLE deliveries;
ALTER TABLE deliveries_rebuilt RENAME TO deliveries;
CREATE INDEX deliveries_due ON deliveries (state, next_attempt_at);
CREATE INDEX deliveries_by_case ON deliveries (case_id, created_at);
