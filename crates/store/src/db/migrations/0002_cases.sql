-- Cases (SPEC B1/B2), their append-only timeline, the outbox of deliveries to the agent endpoint
-- (SPEC B3) and the endpoint's settings. Timestamps are fixed-width RFC 3339 UTC text, so text
-- order is time order.

-- The next short case number. One row; incremented inside the BEGIN IMMEDIATE transaction that
-- inserts the case, so numbers have no gaps and no duplicates however many writers race.
CREATE TABLE case_counter (
    id   INTEGER PRIMARY KEY CHECK (id = 1),
    next INTEGER NOT NULL
);
INSERT INTO case_counter (id, next) VALUES (1, 1001);

CREATE TABLE cases (
    id              TEXT PRIMARY KEY NOT NULL,
    number          INTEGER NOT NULL UNIQUE,
    conversation_id TEXT NOT NULL,
    lead_id         TEXT,
    lead_name       TEXT,
    lead_channel    TEXT,
    lead_contact    TEXT,
    agent_id        TEXT,
    status          TEXT NOT NULL CHECK (status IN
                        ('awaiting_human', 'awaiting_lead', 'resolved', 'escalated', 'cancelled')),
    title           TEXT NOT NULL,
    summary         TEXT NOT NULL,
    blocker         TEXT,
    context         TEXT NOT NULL DEFAULT '[]',
    source          TEXT NOT NULL CHECK (source IN ('agent', 'guardrail_autofallback')),
    waiting_since   TEXT,
    opened_at       TEXT NOT NULL,
    updated_at      TEXT NOT NULL,
    closed_at       TEXT
);

-- A conversation has at most one open case.
CREATE UNIQUE INDEX cases_one_open_per_conversation ON cases (conversation_id)
    WHERE status IN ('awaiting_human', 'awaiting_lead');
-- The inbox tabs: open ones longest-waiting first, the closed one most recently closed first;
-- both orders come straight from an index, so a page costs the same with 10 or 100 000 cases.
CREATE INDEX cases_by_status_waiting ON cases (status, waiting_since, number);
CREATE INDEX cases_by_closed ON cases (closed_at, number) WHERE closed_at IS NOT NULL;

CREATE TABLE case_events (
    seq        INTEGER PRIMARY KEY AUTOINCREMENT,
    case_id    TEXT NOT NULL REFERENCES cases (id),
    kind       TEXT NOT NULL CHECK (kind IN
                   ('opened', 'human_replied', 'lead_asked', 'lead_provided', 'lead_unresponsive',
                    'resolved', 'escalated', 'cancelled', 'agent_notified', 'delivery_failed')),
    actor      TEXT NOT NULL CHECK (actor IN ('agent', 'human', 'system', 'lead')),
    actor_name TEXT,
    at         TEXT NOT NULL,
    payload    TEXT NOT NULL DEFAULT '{}'
);
CREATE INDEX case_events_by_case ON case_events (case_id, seq);

-- The timeline is history: no statement may rewrite or remove it.
CREATE TRIGGER case_events_no_update BEFORE UPDATE ON case_events
BEGIN
    SELECT RAISE(ABORT, 'case_events is append-only');
END;
CREATE TRIGGER case_events_no_delete BEFORE DELETE ON case_events
BEGIN
    SELECT RAISE(ABORT, 'case_events is append-only');
END;

-- The transactional outbox. `id` is the webhook-id. `body` is the exact JSON sent on every
-- attempt. A worker that takes a delivery sets `claimed_until`; if it dies, the claim simply
-- expires and the delivery, still pending, is sent again under the same id.
CREATE TABLE deliveries (
    id              TEXT PRIMARY KEY NOT NULL,
    case_id         TEXT NOT NULL REFERENCES cases (id),
    event_seq       INTEGER NOT NULL REFERENCES case_events (seq),
    action          TEXT NOT NULL CHECK (action IN ('resolved', 'need_lead_info', 'escalate')),
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
CREATE INDEX deliveries_due ON deliveries (state, next_attempt_at);
CREATE INDEX deliveries_by_case ON deliveries (case_id, created_at);

-- Where replies go. One row at most; absent until a person configures it.
CREATE TABLE agent_endpoint (
    id           INTEGER PRIMARY KEY CHECK (id = 1),
    url          TEXT NOT NULL,
    secret       TEXT NOT NULL,
    timeout_secs INTEGER NOT NULL,
    max_attempts INTEGER NOT NULL,
    enabled      INTEGER NOT NULL,
    updated_at   TEXT NOT NULL
);
