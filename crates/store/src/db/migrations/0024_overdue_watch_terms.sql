-- The overdue watch's partial indexes, with their conditions spelt as the watch's queries spell
-- them, and one for the promises.
--
-- SQLite reads a partial index only when the query's WHERE holds each of the index's terms as
-- written. The queries are shared with the team database and say `NOT first_reply_overdue_told`;
-- 0015 wrote `first_reply_overdue_told = 0`, so each look walked the open cases instead. The
-- promises' look sorted every case waiting on a person (cases_promise_due holds any promise):
-- together 0.4-0.6 s of CPU at 100,000 cases whenever a case changed, and at every start.
DROP INDEX cases_first_reply_due;
DROP INDEX cases_resolution_due;
CREATE INDEX cases_first_reply_due ON cases (first_reply_due_at)
    WHERE first_reply_at IS NULL AND NOT first_reply_overdue_told AND first_reply_due_at IS NOT NULL
      AND closed_at IS NULL AND sla_paused_at IS NULL;
CREATE INDEX cases_resolution_due ON cases (resolution_due_at)
    WHERE closed_at IS NULL AND NOT resolution_overdue_told AND resolution_due_at IS NOT NULL
      AND sla_paused_at IS NULL;
CREATE INDEX cases_promise_watch ON cases (promise_due_at)
    WHERE promise_due_at IS NOT NULL AND status IN ('awaiting_human', 'awaiting_lead')
      AND NOT promise_overdue_told;
