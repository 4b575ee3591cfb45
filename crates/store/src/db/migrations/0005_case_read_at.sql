-- When a person last opened each case, for the inbox's unread marks. NULL means never
-- opened (marking a case unread again sets it back to NULL). A case that comes back to the person
-- (the agent handed back the lead's answer) after it was read counts as unread again, because it
-- now waits since after the read. A column rather than a table, and an index that covers the
-- unread count, so the badge is one index range scan instead of a join per waiting case.
ALTER TABLE cases ADD COLUMN read_at TEXT;
CREATE INDEX cases_unread ON cases (status, read_at, waiting_since);
