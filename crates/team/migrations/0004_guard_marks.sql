-- What people teach the promise guardrail (SPEC B5): the team's marks on the agent's messages,
-- the whole message of each vetoed turn (the veto log they mark from), and the model a retrain
-- with the marks adopted. The same tables as the embedded database's migration 0025.

ALTER TABLE guard_vetoes ADD COLUMN last_message TEXT;

CREATE TABLE guard_marks (
    id              BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    text            TEXT NOT NULL,
    promise         BOOLEAN NOT NULL,
    source          TEXT NOT NULL CHECK (source IN ('veto', 'conversation')),
    conversation_id TEXT,
    marked_by       TEXT NOT NULL,
    marked_at       TEXT NOT NULL
);

CREATE TABLE guard_model (
    id         INTEGER PRIMARY KEY CHECK (id = 1),
    model      TEXT NOT NULL,
    report     TEXT NOT NULL,
    adopted_by TEXT NOT NULL,
    adopted_at TEXT NOT NULL
);

-- The grants grow by the guardrail's tables: the inbox's stay as they were.
ALTER FUNCTION skillcase_grant() RENAME TO skillcase_grant_inbox;

CREATE FUNCTION skillcase_grant() RETURNS void LANGUAGE plpgsql AS $$
DECLARE
    member   TEXT := current_database() || '_member';
    delivery TEXT := current_database() || '_delivery';
    admin    TEXT := current_database() || '_admin';
BEGIN
    PERFORM skillcase_grant_inbox();
    IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = member) THEN
        RETURN;
    END IF;
    -- Everyone reads the marks and the model, and marks (or takes back a mark on) a message.
    EXECUTE format('GRANT SELECT, INSERT, DELETE ON guard_marks TO %I, %I, %I', member, delivery, admin);
    EXECUTE format('GRANT SELECT ON guard_model TO %I, %I, %I', member, delivery, admin);
    -- Only an admin changes the model the whole team's guardrail uses.
    EXECUTE format('GRANT INSERT, DELETE ON guard_model TO %I', admin);
END
$$;
SELECT skillcase_grant();
