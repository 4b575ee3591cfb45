-- When a person last opened each case, for the inbox's unread marks (issue #7). A case with no
-- row here has never been opened; marking it unread again deletes its row. A case that comes
-- back to the person (the agent handed back the lead's answer) after it was read counts as
-- unread again, because it now waits since after the read.
CREATE TABLE case_reads (
    case_id TEXT PRIMARY KEY NOT NULL REFERENCES cases (id),
    read_at TEXT NOT NULL
);
