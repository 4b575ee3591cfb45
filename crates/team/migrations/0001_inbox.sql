-- The team inbox on PostgreSQL: the same cases, timeline, outbox and agent settings as the
-- embedded SQLite database's migrations 2–16, in one step. Timestamps stay fixed-width RFC 3339
-- UTC text, as in SQLite, so text order is time order and every instance compares the strings
-- the domain's clock writes. Integers are BIGINT (Rust's i64); flags are BOOLEAN.

-- The next short case number. One row; incremented by the transaction that inserts the case, whose
-- row lock makes racing instances take turns, so numbers have no gaps and no duplicates.
CREATE TABLE case_counter (
    id   INTEGER PRIMARY KEY CHECK (id = 1),
    next BIGINT NOT NULL
);
INSERT INTO case_counter (id, next) VALUES (1, 1001);

-- Folds text for the inbox search: lower case, the Latin diacritics removed ("joao" finds "João").
CREATE FUNCTION skillcase_fold(t TEXT) RETURNS TEXT IMMUTABLE LANGUAGE sql AS $$
    SELECT translate(lower(t), 'áàâãäåéèêëíìîïóòôõöúùûüçñýÿ', 'aaaaaaeeeeiiiiooooouuuucnyy')
$$;

CREATE TABLE cases (
    id                       TEXT PRIMARY KEY,
    number                   BIGINT NOT NULL UNIQUE,
    conversation_id          TEXT NOT NULL,
    lead_id                  TEXT,
    lead_name                TEXT,
    lead_channel             TEXT,
    lead_contact             TEXT,
    agent_id                 TEXT,
    status                   TEXT NOT NULL CHECK (status IN
                                 ('awaiting_human', 'awaiting_lead', 'resolved', 'escalated', 'cancelled')),
    title                    TEXT NOT NULL,
    summary                  TEXT NOT NULL,
    blocker                  TEXT,
    context                  TEXT NOT NULL DEFAULT '[]',
    source                   TEXT NOT NULL CHECK (source IN ('agent', 'guardrail_autofallback')),
    reason                   TEXT NOT NULL DEFAULT 'not_stated' CHECK (reason IN
                                 ('customer_request', 'missing_knowledge', 'unsupported_request',
                                  'policy_restriction', 'tool_failure', 'pending_clarification',
                                  'guardrail_autofallback', 'not_stated')),
    waiting_since            TEXT,
    opened_at                TEXT NOT NULL,
    updated_at               TEXT NOT NULL,
    closed_at                TEXT,
    read_at                  TEXT,
    first_reply_at           TEXT,
    promise_quote            TEXT,
    promise_due_at           TEXT,
    promise_overdue_told     BOOLEAN NOT NULL DEFAULT false,
    reminded_at              TEXT,
    first_reply_target       BIGINT,
    first_reply_due_at       TEXT,
    resolution_target        BIGINT,
    resolution_due_at        TEXT,
    sla_paused_at            TEXT,
    sla_due_at               TEXT,
    first_reply_overdue_told BOOLEAN NOT NULL DEFAULT false,
    resolution_overdue_told  BOOLEAN NOT NULL DEFAULT false,
    assignee                 TEXT,
    -- The folded words of the case's own fields (kept by a trigger) and of its replies and notes
    -- (appended by the timeline's trigger), which the inbox search reads.
    search_fields            TEXT NOT NULL DEFAULT '',
    search_talk              TEXT NOT NULL DEFAULT ''
);

-- A conversation has at most one open case, whichever instance opens it.
CREATE UNIQUE INDEX cases_one_open_per_conversation ON cases (conversation_id)
    WHERE status IN ('awaiting_human', 'awaiting_lead');
CREATE INDEX cases_by_status_waiting ON cases (status, waiting_since, number);
CREATE INDEX cases_by_closed ON cases (closed_at, number) WHERE closed_at IS NOT NULL;
CREATE INDEX cases_promise_due ON cases (promise_due_at) WHERE promise_due_at IS NOT NULL;
CREATE INDEX cases_by_opened_reason ON cases (opened_at, reason, first_reply_at);
CREATE INDEX cases_by_conversation_resolved ON cases (conversation_id, closed_at) WHERE status = 'resolved';
CREATE INDEX cases_to_remind ON cases (waiting_since) WHERE status = 'awaiting_lead' AND reminded_at IS NULL;
CREATE INDEX cases_to_close ON cases (reminded_at) WHERE status = 'awaiting_lead' AND reminded_at IS NOT NULL;
CREATE INDEX cases_sla_due ON cases (status, sla_due_at, number) WHERE sla_due_at IS NOT NULL;
CREATE INDEX cases_first_reply_due ON cases (first_reply_due_at)
    WHERE first_reply_at IS NULL AND NOT first_reply_overdue_told AND first_reply_due_at IS NOT NULL
      AND closed_at IS NULL AND sla_paused_at IS NULL;
CREATE INDEX cases_resolution_due ON cases (resolution_due_at)
    WHERE closed_at IS NULL AND NOT resolution_overdue_told AND resolution_due_at IS NOT NULL
      AND sla_paused_at IS NULL;
CREATE INDEX cases_by_agent ON cases (agent_id) WHERE agent_id IS NOT NULL;
CREATE INDEX cases_by_assignee_waiting ON cases (assignee, status, waiting_since, number)
    WHERE closed_at IS NULL;
-- The inbox without a tab, open cases first (longest waiting first), then the closed ones.
CREATE INDEX cases_open_waiting ON cases (waiting_since, number)
    WHERE status IN ('awaiting_human', 'awaiting_lead');
-- The closed tab narrowed to an assignee (the Mine and Unassigned views) or to a reason, most
-- recently closed first, and their totals.
CREATE INDEX cases_by_assignee_closed ON cases (assignee, closed_at, number) WHERE closed_at IS NOT NULL;
CREATE INDEX cases_by_reason_closed ON cases (reason, closed_at, number) WHERE closed_at IS NOT NULL;
-- Counts read every entry they count, so each goes through an index keyed by one repeating
-- column, which PostgreSQL stores as a few deduplicated lists (a few bytes a case): the closed
-- tab's total in the Mine and Unassigned views (a tenth of `cases_by_assignee_closed`), the open
-- tabs' counts, and the cases waiting on the person that they have not opened since (the
-- predicate is `reads::UNREAD_WAITING` word for word, so the planner matches the count to it).
CREATE INDEX cases_closed_by_assignee ON cases (assignee) WHERE closed_at IS NOT NULL;
CREATE INDEX cases_open_status ON cases (status) WHERE status IN ('awaiting_human', 'awaiting_lead');
CREATE INDEX cases_unread ON cases (status)
    WHERE status = 'awaiting_human' AND (read_at IS NULL OR read_at < waiting_since);
-- The overdue promises that head *Waiting on you*: only the waiting cases' (a closed case may
-- keep a promise nobody will keep, and those pile up), in the tab's order.
CREATE INDEX cases_promise_waiting ON cases (promise_due_at, waiting_since, number)
    WHERE status = 'awaiting_human' AND promise_due_at IS NOT NULL;
-- The inbox search matches each typed word anywhere in the case's folded text: trigrams index
-- those substrings (`LIKE '%word%'`), so a search reads the matching cases, not every case.
CREATE EXTENSION IF NOT EXISTS pg_trgm;
CREATE INDEX cases_search_text ON cases USING gin ((search_fields || ' ' || search_talk) gin_trgm_ops);

CREATE FUNCTION cases_search_fields() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    NEW.search_fields := skillcase_fold(concat_ws(' ',
        NEW.title, NEW.summary, NEW.blocker, NEW.lead_name, NEW.lead_contact, NEW.lead_id,
        NEW.conversation_id,
        (SELECT string_agg(m ->> 'text', ' ') FROM jsonb_array_elements(NEW.context::jsonb) AS m)));
    RETURN NEW;
END
$$;
CREATE TRIGGER cases_search_fields BEFORE INSERT OR UPDATE OF
    title, summary, blocker, lead_name, lead_contact, lead_id, conversation_id, context ON cases
    FOR EACH ROW EXECUTE FUNCTION cases_search_fields();

CREATE TABLE event_kinds (kind TEXT PRIMARY KEY);
INSERT INTO event_kinds (kind) VALUES
    ('opened'), ('human_replied'), ('lead_asked'), ('lead_provided'), ('lead_unresponsive'),
    ('resolved'), ('escalated'), ('cancelled'), ('agent_notified'), ('delivery_failed'),
    ('promise_made'), ('internal_note'), ('reminder_sent'), ('sla_overdue'), ('assigned'),
    ('unassigned');

CREATE TABLE case_events (
    seq        BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    case_id    TEXT NOT NULL REFERENCES cases (id),
    kind       TEXT NOT NULL REFERENCES event_kinds (kind),
    actor      TEXT NOT NULL CHECK (actor IN ('agent', 'human', 'system', 'lead')),
    actor_name TEXT,
    at         TEXT NOT NULL,
    payload    TEXT NOT NULL DEFAULT '{}'
);
CREATE INDEX case_events_by_case ON case_events (case_id, seq);

-- The timeline is history: no statement may rewrite, remove or truncate it.
CREATE FUNCTION case_events_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    RAISE EXCEPTION 'case_events is append-only' USING ERRCODE = 'restrict_violation';
END
$$;
CREATE TRIGGER case_events_no_update BEFORE UPDATE OR DELETE ON case_events
    FOR EACH ROW EXECUTE FUNCTION case_events_append_only();
CREATE TRIGGER case_events_no_truncate BEFORE TRUNCATE ON case_events
    FOR EACH STATEMENT EXECUTE FUNCTION case_events_append_only();

CREATE FUNCTION case_events_search_talk() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF NEW.kind IN ('human_replied', 'lead_provided', 'internal_note') THEN
        UPDATE cases SET search_talk = search_talk || ' ' || skillcase_fold(coalesce(
            NEW.payload::jsonb ->> 'text', NEW.payload::jsonb ->> 'info', ''))
        WHERE id = NEW.case_id;
    END IF;
    RETURN NULL;
END
$$;
CREATE TRIGGER case_events_search_talk AFTER INSERT ON case_events
    FOR EACH ROW EXECUTE FUNCTION case_events_search_talk();

-- The transactional outbox. `id` is the webhook-id. An instance that takes a delivery locks its
-- row (FOR UPDATE SKIP LOCKED, so the others pass it by) and sets `claimed_until`; if the
-- instance dies the claim expires and another sends it again under the same id.
CREATE TABLE deliveries (
    id              TEXT PRIMARY KEY,
    case_id         TEXT NOT NULL REFERENCES cases (id),
    event_seq       BIGINT NOT NULL REFERENCES case_events (seq),
    action          TEXT NOT NULL CHECK (action IN
                        ('resolved', 'need_lead_info', 'escalate', 'reminder', 'lead_unresponsive')),
    body            TEXT NOT NULL,
    state           TEXT NOT NULL CHECK (state IN ('pending', 'delivered', 'failed', 'dead')),
    attempts        BIGINT NOT NULL DEFAULT 0,
    next_attempt_at TEXT,
    claimed_until   TEXT,
    last_error      TEXT,
    last_status     BIGINT,
    created_at      TEXT NOT NULL,
    updated_at      TEXT NOT NULL,
    delivered_at    TEXT
);
CREATE INDEX deliveries_due ON deliveries (state, next_attempt_at);
CREATE INDEX deliveries_by_case ON deliveries (case_id, created_at);

-- Where replies go, for the whole team. One row at most; absent until someone configures it.
CREATE TABLE agent_endpoint (
    id           INTEGER PRIMARY KEY CHECK (id = 1),
    url          TEXT NOT NULL,
    secret       TEXT NOT NULL,
    timeout_secs BIGINT NOT NULL,
    max_attempts BIGINT NOT NULL,
    enabled      BOOLEAN NOT NULL,
    updated_at   TEXT NOT NULL
);

CREATE TABLE agents (
    agent_id          TEXT PRIMARY KEY,
    url               TEXT,
    secret            TEXT,
    cases_enabled     BOOLEAN NOT NULL DEFAULT true,
    guardrail_enabled BOOLEAN NOT NULL DEFAULT true,
    updated_at        TEXT NOT NULL,
    CHECK ((url IS NULL) = (secret IS NULL))
);

CREATE TABLE guard_vetoes (
    conversation_id TEXT NOT NULL,
    turn_id         TEXT NOT NULL,
    vetoes          BIGINT NOT NULL CHECK (vetoes >= 1),
    first_at        TEXT NOT NULL,
    last_at         TEXT NOT NULL,
    last_rule       TEXT,
    last_evidence   TEXT,
    auto_case_id    TEXT REFERENCES cases (id),
    PRIMARY KEY (conversation_id, turn_id)
);

-- The team's case settings the transitions read (the response-time targets and the business
-- calendar, under the keys the embedded database uses), as JSON text.
CREATE TABLE settings (
    key   TEXT PRIMARY KEY,
    value TEXT NOT NULL
);

-- "Ana is replying": the short lease a person holds while writing a reply (see the embedded
-- database's migration 18). One row per case at most.
CREATE TABLE reply_leases (
    case_id TEXT PRIMARY KEY REFERENCES cases (id),
    person  TEXT NOT NULL,
    until   TEXT NOT NULL
);

-- Live updates: every change to a case or its deliveries is announced on the channel
-- `skillcase_cases` as `opened:<case id>:<writer>` or `changed:<case id>:<writer>` (the writer is
-- the connection's application_name, so an instance can skip what it announced itself), delivered
-- to every listening instance when the transaction commits (and not at all if it rolls back).
CREATE FUNCTION skillcase_announce() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_TABLE_NAME = 'cases' THEN
        PERFORM pg_notify('skillcase_cases',
            CASE WHEN TG_OP = 'INSERT' THEN 'opened:' ELSE 'changed:' END || NEW.id || ':'
            || current_setting('application_name'));
    ELSE
        PERFORM pg_notify('skillcase_cases', 'changed:' || NEW.case_id || ':' || current_setting('application_name'));
    END IF;
    RETURN NULL;
END
$$;
CREATE TRIGGER cases_announce AFTER INSERT OR UPDATE ON cases
    FOR EACH ROW EXECUTE FUNCTION skillcase_announce();
CREATE TRIGGER deliveries_announce AFTER INSERT OR UPDATE ON deliveries
    FOR EACH ROW EXECUTE FUNCTION skillcase_announce();
CREATE TRIGGER case_events_announce AFTER INSERT ON case_events
    FOR EACH ROW EXECUTE FUNCTION skillcase_announce();
CREATE TRIGGER reply_leases_announce AFTER INSERT OR UPDATE ON reply_leases
    FOR EACH ROW EXECUTE FUNCTION skillcase_announce();
