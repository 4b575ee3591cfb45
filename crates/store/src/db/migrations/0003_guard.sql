-- The promise guardrail (SPEC B5): how many times a promise was vetoed in each turn of each
-- conversation, so the second veto of a turn can open a case instead. One row per turn.
CREATE TABLE guard_vetoes (
    conversation_id TEXT NOT NULL,
    turn_id         TEXT NOT NULL,
    vetoes          INTEGER NOT NULL CHECK (vetoes >= 1),
    first_at        TEXT NOT NULL,
    last_at         TEXT NOT NULL,
    last_rule       TEXT,
    last_evidence   TEXT,
    -- The case the guardrail opened for this turn, once it did.
    auto_case_id    TEXT REFERENCES cases (id),
    PRIMARY KEY (conversation_id, turn_id)
);
