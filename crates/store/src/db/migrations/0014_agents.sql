-- Several agents, one inbox (SPEC D5): per agent id, its own endpoint (URL and signing secret,
-- both or neither: without them its replies go to the default endpoint), whether it may open
-- cases and whether the guardrail checks its messages. An agent with no row has every switch on
-- and uses the default endpoint.
CREATE TABLE agents (
    agent_id          TEXT PRIMARY KEY NOT NULL,
    url               TEXT,
    secret            TEXT,
    cases_enabled     INTEGER NOT NULL DEFAULT 1 CHECK (cases_enabled IN (0, 1)),
    guardrail_enabled INTEGER NOT NULL DEFAULT 1 CHECK (guardrail_enabled IN (0, 1)),
    updated_at        TEXT NOT NULL,
    CHECK ((url IS NULL) = (secret IS NULL))
);

-- Settings lists every agent seen on a case: a walk of this index, not of the cases.
CREATE INDEX cases_by_agent ON cases (agent_id) WHERE agent_id IS NOT NULL;
