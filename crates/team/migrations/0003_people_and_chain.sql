-- Least privilege for a team: each person logs in as their own PostgreSQL role, the timeline
-- names people by that login, a case's events form a hash chain, and the status graph is the
-- database's own rule. The group roles and their privileges are `skillcase_grant()`'s, below;
-- `skillcase team init` creates the roles and calls it, and every later migration calls it again.

-- The people of the team: their login (a PostgreSQL role), the name the timeline shows, and
-- which of the team's group roles they hold.
CREATE TABLE people (
    login    TEXT PRIMARY KEY,
    name     TEXT NOT NULL UNIQUE,
    email    TEXT,
    role     TEXT NOT NULL CHECK (role IN ('admin', 'member', 'delivery')),
    added_at TEXT NOT NULL
);

-- Each event's digest covers the one before it on its case (`prev_digest`, '' for the first), so
-- an event changed or removed afterwards, by anyone, breaks the chain `skillcase team verify`
-- walks. `case_chain` holds each case's newest digest; taking its row lock orders the events of
-- one case whichever instances write them.
ALTER TABLE case_events ADD COLUMN prev_digest TEXT, ADD COLUMN digest TEXT;
CREATE TABLE case_chain (
    case_id TEXT PRIMARY KEY REFERENCES cases (id),
    head    TEXT NOT NULL,
    events  BIGINT NOT NULL
);

-- One field of the text an event's digest covers: its length in characters, a colon and the
-- field ('-' for NULL), so no two events' fields run together into the same text.
CREATE FUNCTION skillcase_field(t TEXT) RETURNS TEXT IMMUTABLE LANGUAGE sql AS $$
    SELECT CASE WHEN t IS NULL THEN '-' ELSE char_length(t) || ':' || t END
$$;

CREATE FUNCTION skillcase_event_digest(
    prev TEXT, case_id TEXT, seq BIGINT, kind TEXT, actor TEXT, actor_name TEXT, at TEXT, payload TEXT
) RETURNS TEXT IMMUTABLE LANGUAGE sql AS $$
    SELECT encode(sha256(convert_to(
        skillcase_field(prev) || skillcase_field(case_id) || skillcase_field(seq::text)
        || skillcase_field(kind) || skillcase_field(actor) || skillcase_field(actor_name)
        || skillcase_field(at) || skillcase_field(payload), 'UTF8')), 'hex')
$$;

-- Before an event goes in: a person's login names it (whatever name their desktop typed), a
-- member writes only what a person does, and the event joins its case's chain.
CREATE FUNCTION case_events_chain() RETURNS trigger LANGUAGE plpgsql
    SECURITY DEFINER SET search_path = public, pg_temp AS $$
DECLARE
    person people%ROWTYPE;
    prev TEXT;
BEGIN
    SELECT * INTO person FROM people WHERE login = session_user;
    IF FOUND THEN
        IF person.role = 'member' AND NEW.actor IN ('agent', 'lead') THEN
            RAISE EXCEPTION 'a member cannot write the % events', NEW.actor
                USING ERRCODE = 'insufficient_privilege';
        END IF;
        IF NEW.actor = 'human' THEN
            NEW.actor_name := person.name;
        END IF;
    END IF;
    INSERT INTO case_chain (case_id, head, events) VALUES (NEW.case_id, '', 0) ON CONFLICT DO NOTHING;
    SELECT head INTO prev FROM case_chain WHERE case_id = NEW.case_id FOR UPDATE;
    NEW.prev_digest := prev;
    NEW.digest := skillcase_event_digest(prev, NEW.case_id, NEW.seq, NEW.kind, NEW.actor,
        NEW.actor_name, NEW.at, NEW.payload);
    UPDATE case_chain SET head = NEW.digest, events = events + 1 WHERE case_id = NEW.case_id;
    -- The cases this transaction wrote an event on, for `cases_changed_on_the_record` below.
    PERFORM set_config('skillcase.events_on',
        coalesce(current_setting('skillcase.events_on', true), '') || '|' || NEW.case_id || '|', true);
    RETURN NEW;
END
$$;
CREATE TRIGGER case_events_chain BEFORE INSERT ON case_events
    FOR EACH ROW EXECUTE FUNCTION case_events_chain();

-- The events already there join their chains in order, with the timeline's guard lifted for
-- this transaction only: one set-based step per position in a timeline (every case's first
-- events, then every case's second, ...), so a million cases take as many statements as the
-- longest timeline has events.
ALTER TABLE case_events DISABLE TRIGGER case_events_no_update;
CREATE TEMP TABLE chain_order ON COMMIT DROP AS
    SELECT seq, case_id, row_number() OVER (PARTITION BY case_id ORDER BY seq) AS n FROM case_events;
CREATE INDEX ON chain_order (n, case_id);
CREATE INDEX ON chain_order (seq);
ANALYZE chain_order;
DO $$
DECLARE
    k BIGINT := 1;
    last_n BIGINT;
BEGIN
    SELECT coalesce(max(n), 0) INTO last_n FROM chain_order;
    WHILE k <= last_n LOOP
        UPDATE case_events e
            SET prev_digest = coalesce(p.digest, ''),
                digest = skillcase_event_digest(coalesce(p.digest, ''), e.case_id, e.seq, e.kind, e.actor,
                    e.actor_name, e.at, e.payload)
            FROM chain_order o
            LEFT JOIN chain_order before ON before.case_id = o.case_id AND before.n = o.n - 1
            LEFT JOIN case_events p ON p.seq = before.seq
            WHERE o.n = k AND e.seq = o.seq;
        k := k + 1;
    END LOOP;
END
$$;
INSERT INTO case_chain (case_id, head, events)
    SELECT DISTINCT ON (o.case_id) o.case_id, e.digest, o.n
    FROM chain_order o JOIN case_events e ON e.seq = o.seq
    ORDER BY o.case_id, o.n DESC;
ALTER TABLE case_events ENABLE TRIGGER case_events_no_update;

-- The status graph of SPEC B2, held by the database whoever writes: an open case moves to the
-- statuses a person's answer, the agent's update or a cancel lead to; a closed case stays closed.
CREATE FUNCTION cases_transition() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF NEW.status IS DISTINCT FROM OLD.status AND NOT (
        (OLD.status = 'awaiting_human'
            AND NEW.status IN ('resolved', 'awaiting_lead', 'escalated', 'cancelled'))
        OR (OLD.status = 'awaiting_lead' AND NEW.status IN ('awaiting_human', 'escalated', 'cancelled'))
    ) THEN
        RAISE EXCEPTION 'a case cannot move from % to %', OLD.status, NEW.status
            USING ERRCODE = 'check_violation';
    END IF;
    RETURN NEW;
END
$$;
CREATE TRIGGER cases_transition BEFORE UPDATE OF status ON cases
    FOR EACH ROW EXECUTE FUNCTION cases_transition();

-- A member's answer goes out only as a reply's delivery (whose body the worker checks against
-- the reply before it signs); reminders and closings are the jobs' alone.
CREATE FUNCTION deliveries_from_members() RETURNS trigger LANGUAGE plpgsql
    SECURITY DEFINER SET search_path = public, pg_temp AS $$
BEGIN
    IF NEW.action NOT IN ('resolved', 'need_lead_info', 'escalate')
        AND EXISTS (SELECT FROM people WHERE login = session_user AND role = 'member') THEN
        RAISE EXCEPTION 'a member cannot write a % delivery', NEW.action
            USING ERRCODE = 'insufficient_privilege';
    END IF;
    RETURN NEW;
END
$$;
CREATE TRIGGER deliveries_from_members BEFORE INSERT ON deliveries
    FOR EACH ROW EXECUTE FUNCTION deliveries_from_members();

-- Read marks per person: a person's login reads and writes its own (`case_reads`), so what Ana
-- opened stays unread for Bruno; the shared `cases.read_at` stays the mark of a login that is
-- nobody (the owner, a team set up before roles).
CREATE TABLE case_reads (
    login   TEXT NOT NULL,
    case_id TEXT NOT NULL REFERENCES cases (id),
    read_at TEXT NOT NULL,
    PRIMARY KEY (login, case_id)
);

-- A person's unread badge: the cases waiting on a person, less those this person read since
-- they started waiting — this index gives the first half's ids without touching the table.
CREATE INDEX cases_waiting_on_person ON cases (id, waiting_since) WHERE status = 'awaiting_human';

CREATE FUNCTION cases_read_mark() RETURNS trigger LANGUAGE plpgsql
    SECURITY DEFINER SET search_path = public, pg_temp AS $$
BEGIN
    IF EXISTS (SELECT FROM people WHERE login = session_user::text) THEN
        IF NEW.read_at IS NULL THEN
            DELETE FROM case_reads WHERE login = session_user::text AND case_id = NEW.id;
        ELSE
            INSERT INTO case_reads (login, case_id, read_at) VALUES (session_user::text, NEW.id, NEW.read_at)
                ON CONFLICT (login, case_id) DO UPDATE SET read_at = excluded.read_at;
        END IF;
        NEW.read_at := OLD.read_at;
    END IF;
    RETURN NEW;
END
$$;
CREATE TRIGGER cases_read_mark BEFORE UPDATE OF read_at ON cases
    FOR EACH ROW EXECUTE FUNCTION cases_read_mark();

-- When this login last read case `id`: its own mark if it is a person, else the shared one.
CREATE FUNCTION skillcase_read_at(id TEXT, shared TEXT) RETURNS TEXT STABLE LANGUAGE sql AS $$
    SELECT CASE WHEN EXISTS (SELECT FROM people WHERE login = session_user::text)
        THEN (SELECT r.read_at FROM case_reads r WHERE r.login = session_user::text AND r.case_id = id)
        ELSE shared END
$$;

-- A member never changes a case silently: when their transaction commits, every case it changed
-- (anything but their read mark) must have an event of that transaction on its timeline, which
-- names them and joins the chain. Checked at commit, since a step may move the case first and
-- write its event after.
CREATE FUNCTION cases_changed_on_the_record() RETURNS trigger LANGUAGE plpgsql
    SECURITY DEFINER SET search_path = public, pg_temp AS $$
BEGIN
    IF EXISTS (SELECT FROM people WHERE login = session_user::text AND role = 'member')
        AND position('|' || NEW.id || '|' IN coalesce(current_setting('skillcase.events_on', true), '')) = 0 THEN
        RAISE EXCEPTION 'a member''s change to case % must come with its event', NEW.id
            USING ERRCODE = 'insufficient_privilege';
    END IF;
    RETURN NULL;
END
$$;
CREATE CONSTRAINT TRIGGER cases_changed_on_the_record AFTER UPDATE OF status, waiting_since, closed_at,
    first_reply_at, promise_quote, promise_due_at, promise_overdue_told, first_reply_due_at,
    resolution_due_at, sla_paused_at, sla_due_at, first_reply_overdue_told, resolution_overdue_told,
    assignee, reminded_at ON cases
    DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION cases_changed_on_the_record();

-- The search words of replies and notes are kept by the database, not by whoever wrote them.
ALTER FUNCTION case_events_search_talk() SECURITY DEFINER SET search_path = public, pg_temp;

-- The team's group roles, named after the database (roles belong to the whole server):
-- `<db>_member`, `<db>_delivery`, `<db>_admin`. Nothing happens until `team init` made them.
CREATE FUNCTION skillcase_grant() RETURNS void LANGUAGE plpgsql AS $$
DECLARE
    member   TEXT := current_database() || '_member';
    delivery TEXT := current_database() || '_delivery';
    admin    TEXT := current_database() || '_admin';
    everyone TEXT;
BEGIN
    IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = member) THEN
        RETURN;
    END IF;
    everyone := format('%I, %I, %I', member, delivery, admin);
    EXECUTE 'REVOKE ALL ON ALL TABLES IN SCHEMA public FROM PUBLIC';
    EXECUTE format('GRANT USAGE ON SCHEMA public TO %s', everyone);
    EXECUTE format('GRANT SELECT ON skillcase_schema, case_counter, cases, case_events, event_kinds, '
        'deliveries, guard_vetoes, settings, reply_leases, closed_totals, people, case_chain, case_reads '
        'TO %s', everyone);
    EXECUTE format('GRANT SELECT (id, url, timeout_secs, max_attempts, enabled, updated_at) '
        'ON agent_endpoint TO %s', everyone);
    EXECUTE format('GRANT SELECT (agent_id, url, cases_enabled, guardrail_enabled, updated_at) '
        'ON agents TO %s', everyone);

    -- A member answers, notes, takes, assigns and cancels open cases, and reads them.
    EXECUTE format('GRANT UPDATE (status, waiting_since, closed_at, updated_at, read_at, first_reply_at, '
        'promise_quote, promise_due_at, promise_overdue_told, first_reply_due_at, resolution_due_at, '
        'sla_paused_at, sla_due_at, first_reply_overdue_told, resolution_overdue_told, assignee, reminded_at) '
        'ON cases TO %s', everyone);
    EXECUTE format('GRANT INSERT (case_id, kind, actor, actor_name, at, payload) ON case_events TO %s', everyone);
    EXECUTE format('GRANT INSERT ON deliveries TO %s', everyone);
    EXECUTE format('GRANT UPDATE (state, attempts, next_attempt_at, claimed_until, last_error, last_status, '
        'updated_at, delivered_at) ON deliveries TO %s', everyone);
    EXECUTE format('GRANT INSERT, UPDATE, DELETE ON reply_leases TO %s', everyone);
    EXECUTE format('GRANT INSERT, UPDATE ON closed_totals TO %s', everyone);

    -- The delivery role (the team's `skillcase serve`): the agent's side of a case, the jobs,
    -- and the outbox, signing with the secrets it alone reads with the admins.
    EXECUTE format('GRANT SELECT (secret) ON agent_endpoint, agents TO %I, %I', delivery, admin);
    EXECUTE format('GRANT INSERT, UPDATE ON cases TO %I, %I', delivery, admin);
    EXECUTE format('GRANT UPDATE ON case_counter TO %I, %I', delivery, admin);
    EXECUTE format('GRANT INSERT, UPDATE, DELETE ON guard_vetoes TO %I, %I', delivery, admin);

    -- Admins: where replies go, the agents, the team's case settings.
    EXECUTE format('GRANT INSERT, UPDATE, DELETE ON agent_endpoint, agents, settings TO %I', admin);
END
$$;
SELECT skillcase_grant();
