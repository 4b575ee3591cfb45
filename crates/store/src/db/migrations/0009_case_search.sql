-- Search that keeps up: a full-text index over each case's words, so the inbox's
-- search answers from an index instead of scanning every case with LIKE.
--
-- One FTS5 row per case, its rowid the case's rowid. The tokenizer folds case and removes
-- diacritics (`remove_diacritics 2`: "joao" finds "João", "cafe" finds "Café"); the prefix indexes make the prefix queries typed while searching cheap. Triggers keep
-- the index in the same transaction as every write to a case or its timeline, whoever writes.
CREATE VIRTUAL TABLE cases_search USING fts5(
    title,
    summary,
    blocker,
    -- the lead's name, contact and id
    lead,
    conversation,
    -- the texts of the conversation the agent supplied
    context,
    -- a person's answers and the lead's answers the agent handed back
    replies,
    -- the people's internal notes
    notes,
    tokenize = 'unicode61 remove_diacritics 2',
    prefix = '2 3'
);

CREATE TRIGGER cases_search_insert AFTER INSERT ON cases
BEGIN
    INSERT INTO cases_search (rowid, title, summary, blocker, lead, conversation, context, replies, notes)
    VALUES (
        new.rowid, new.title, new.summary, coalesce(new.blocker, ''),
        trim(coalesce(new.lead_name, '') || ' ' || coalesce(new.lead_contact, '') || ' ' || coalesce(new.lead_id, '')),
        new.conversation_id,
        coalesce((SELECT group_concat(json_extract(value, '$.text'), ' ') FROM json_each(new.context)), ''),
        '', ''
    );
END;

CREATE TRIGGER cases_search_update
AFTER UPDATE OF title, summary, blocker, lead_name, lead_contact, lead_id, conversation_id, context ON cases
BEGIN
    UPDATE cases_search SET
        title = new.title,
        summary = new.summary,
        blocker = coalesce(new.blocker, ''),
        lead = trim(coalesce(new.lead_name, '') || ' ' || coalesce(new.lead_contact, '') || ' ' || coalesce(new.lead_id, '')),
        conversation = new.conversation_id,
        context = coalesce((SELECT group_concat(json_extract(value, '$.text'), ' ') FROM json_each(new.context)), '')
    WHERE rowid = new.rowid;
END;

CREATE TRIGGER cases_search_delete AFTER DELETE ON cases
BEGIN
    DELETE FROM cases_search WHERE rowid = old.rowid;
END;

CREATE TRIGGER cases_search_reply AFTER INSERT ON case_events
WHEN new.kind IN ('human_replied', 'lead_provided')
BEGIN
    UPDATE cases_search
    SET replies = replies || ' ' || coalesce(json_extract(new.payload, '$.text'), json_extract(new.payload, '$.info'), '')
    WHERE rowid = (SELECT rowid FROM cases WHERE id = new.case_id);
END;

CREATE TRIGGER cases_search_note AFTER INSERT ON case_events
WHEN new.kind = 'internal_note'
BEGIN
    UPDATE cases_search
    SET notes = notes || ' ' || coalesce(json_extract(new.payload, '$.text'), '')
    WHERE rowid = (SELECT rowid FROM cases WHERE id = new.case_id);
END;

-- Every case already there, with its answers and notes.
INSERT INTO cases_search (rowid, title, summary, blocker, lead, conversation, context, replies, notes)
SELECT
    c.rowid, c.title, c.summary, coalesce(c.blocker, ''),
    trim(coalesce(c.lead_name, '') || ' ' || coalesce(c.lead_contact, '') || ' ' || coalesce(c.lead_id, '')),
    c.conversation_id,
    coalesce((SELECT group_concat(json_extract(value, '$.text'), ' ') FROM json_each(c.context)), ''),
    coalesce((SELECT group_concat(coalesce(json_extract(e.payload, '$.text'), json_extract(e.payload, '$.info'), ''), ' ')
              FROM case_events e WHERE e.case_id = c.id AND e.kind IN ('human_replied', 'lead_provided')), ''),
    coalesce((SELECT group_concat(json_extract(e.payload, '$.text'), ' ')
              FROM case_events e WHERE e.case_id = c.id AND e.kind = 'internal_note'), '')
FROM cases c;

-- The tab counts every inbox page carries, kept by triggers in the same transaction as each
-- write to a case, so a page (a search typed letter by letter) reads four rows instead of
-- counting 100,000 cases. `unread`: waiting on the person and not opened since it came to them,
-- the condition of `reads::UNREAD_SQL` restricted to `awaiting_human`.
CREATE TABLE case_tab_counts (
    tab TEXT PRIMARY KEY CHECK (tab IN ('awaiting_human', 'awaiting_lead', 'closed', 'unread')),
    n INTEGER NOT NULL CHECK (n >= 0)
) WITHOUT ROWID;

INSERT INTO case_tab_counts (tab, n) VALUES
    ('awaiting_human', (SELECT count(*) FROM cases WHERE status = 'awaiting_human')),
    ('awaiting_lead', (SELECT count(*) FROM cases WHERE status = 'awaiting_lead')),
    ('closed', (SELECT count(*) FROM cases WHERE status NOT IN ('awaiting_human', 'awaiting_lead'))),
    ('unread', (SELECT count(*) FROM cases WHERE status = 'awaiting_human'
                AND (read_at IS NULL OR read_at < waiting_since)));

CREATE TRIGGER case_tab_counts_insert AFTER INSERT ON cases
BEGIN
    UPDATE case_tab_counts SET n = n + 1
    WHERE tab = CASE WHEN new.status IN ('awaiting_human', 'awaiting_lead') THEN new.status ELSE 'closed' END;
    UPDATE case_tab_counts SET n = n + 1
    WHERE tab = 'unread' AND new.status = 'awaiting_human'
      AND coalesce(new.read_at IS NULL OR new.read_at < new.waiting_since, 0);
END;

CREATE TRIGGER case_tab_counts_update AFTER UPDATE OF status, read_at, waiting_since ON cases
BEGIN
    UPDATE case_tab_counts SET n = n - 1
    WHERE tab = CASE WHEN old.status IN ('awaiting_human', 'awaiting_lead') THEN old.status ELSE 'closed' END;
    UPDATE case_tab_counts SET n = n + 1
    WHERE tab = CASE WHEN new.status IN ('awaiting_human', 'awaiting_lead') THEN new.status ELSE 'closed' END;
    UPDATE case_tab_counts SET n = n
        - (old.status = 'awaiting_human' AND coalesce(old.read_at IS NULL OR old.read_at < old.waiting_since, 0))
        + (new.status = 'awaiting_human' AND coalesce(new.read_at IS NULL OR new.read_at < new.waiting_since, 0))
    WHERE tab = 'unread';
END;

CREATE TRIGGER case_tab_counts_delete AFTER DELETE ON cases
BEGIN
    UPDATE case_tab_counts SET n = n - 1
    WHERE tab = CASE WHEN old.status IN ('awaiting_human', 'awaiting_lead') THEN old.status ELSE 'closed' END;
    UPDATE case_tab_counts SET n = n
        - (old.status = 'awaiting_human' AND coalesce(old.read_at IS NULL OR old.read_at < old.waiting_since, 0))
    WHERE tab = 'unread';
END;

-- A page of *Waiting on you* walks the waiting cases in order and skips those whose promise is
-- overdue (listed first, from `cases_promise_due`): with the promise in the index, that walk
-- (a deep page skips tens of thousands of entries) never reads the table.
-- It does all `cases_by_status_waiting` did, so that one goes.
CREATE INDEX cases_waiting_page ON cases (status, waiting_since, number, promise_due_at);
DROP INDEX cases_by_status_waiting;
