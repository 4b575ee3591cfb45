-- What people teach the promise guardrail (SPEC B5): their marks on the agent's messages, the
-- whole message of each vetoed turn (the veto log they mark from), and the model a retrain with
-- the marks adopted.

ALTER TABLE guard_vetoes ADD COLUMN last_message TEXT;

-- One row per marked message: "not a promise" (promise = 0) or "this promised a follow-up" (1).
CREATE TABLE guard_marks (
    id              INTEGER PRIMARY KEY,
    text            TEXT NOT NULL,
    promise         INTEGER NOT NULL CHECK (promise IN (0, 1)),
    -- Where the person saw it: the veto log or a case's conversation.
    source          TEXT NOT NULL CHECK (source IN ('veto', 'conversation')),
    conversation_id TEXT,
    marked_by       TEXT NOT NULL,
    marked_at       TEXT NOT NULL
);

-- The model a retrain adopted (at most one row; none: the shipped model), base64 of its bytes,
-- with the report that adopted it as JSON.
CREATE TABLE guard_model (
    id         INTEGER PRIMARY KEY CHECK (id = 1),
    model      TEXT NOT NULL,
    report     TEXT NOT NULL,
    adopted_by TEXT NOT NULL,
    adopted_at TEXT NOT NULL
);
