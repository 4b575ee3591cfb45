-- Response-time targets: first human reply and resolution, in business hours, the clock
-- paused while the case waits on the customer.
--
-- Each case keeps the targets it was opened under (minutes; NULL when off) and its due times, so
-- changing the settings never moves a promise already made to a customer. While the case waits
-- on the customer `sla_paused_at` holds when the pause began; on leaving that wait the due times
-- not yet met move later by the business time paused. `sla_due_at` is the next due time still
-- running (the first reply until it is met, then the resolution; NULL while paused or closed),
-- so "due soonest" is a walk of one index. First reply is met at `first_reply_at`, resolution at
-- `closed_at`.
ALTER TABLE cases ADD COLUMN first_reply_target INTEGER;
ALTER TABLE cases ADD COLUMN first_reply_due_at TEXT;
ALTER TABLE cases ADD COLUMN resolution_target INTEGER;
ALTER TABLE cases ADD COLUMN resolution_due_at TEXT;
ALTER TABLE cases ADD COLUMN sla_paused_at TEXT;
ALTER TABLE cases ADD COLUMN sla_due_at TEXT;
-- Whether the overdue first reply / resolution was announced, so each is announced once.
ALTER TABLE cases ADD COLUMN first_reply_overdue_told INTEGER NOT NULL DEFAULT 0;
ALTER TABLE cases ADD COLUMN resolution_overdue_told INTEGER NOT NULL DEFAULT 0;

-- "Due soonest" on a tab walks this index in order and stops after the page.
CREATE INDEX cases_sla_due ON cases (status, sla_due_at, number) WHERE sla_due_at IS NOT NULL;
-- The watch's two questions: which running target fell due and was not announced yet.
CREATE INDEX cases_first_reply_due ON cases (first_reply_due_at)
    WHERE first_reply_at IS NULL AND first_reply_overdue_told = 0 AND first_reply_due_at IS NOT NULL;
CREATE INDEX cases_resolution_due ON cases (resolution_due_at)
    WHERE closed_at IS NULL AND resolution_overdue_told = 0 AND resolution_due_at IS NOT NULL;

INSERT INTO event_kinds (kind) VALUES ('sla_overdue');
