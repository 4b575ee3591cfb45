-- Whether the person was already told that the case's promise is overdue, so each overdue
-- promise raises one notification; reset when a new promise is recorded or a person replies.
ALTER TABLE cases ADD COLUMN promise_overdue_told INTEGER NOT NULL DEFAULT 0;
CREATE INDEX cases_promise_due ON cases (promise_due_at) WHERE promise_due_at IS NOT NULL;
