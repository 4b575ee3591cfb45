-- The overdue watch's promise look, on an index of the promises still owed.
--
-- `cases_promise_due` holds every case that ever had a promise, closed and announced ones too.
-- The watch asks for the earliest promise not yet announced on an open case, so PostgreSQL walked
-- that index from the oldest promise, reading each case to drop it: 19,001 cases read to find the
-- one owed among 20,000, at every start and after every case change. The embedded database has
-- had the same index since its migration 0024.
CREATE INDEX cases_promise_watch ON cases (promise_due_at)
    WHERE promise_due_at IS NOT NULL AND status IN ('awaiting_human', 'awaiting_lead')
      AND NOT promise_overdue_told;
