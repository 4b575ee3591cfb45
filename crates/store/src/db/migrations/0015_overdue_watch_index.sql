-- The overdue watch's indexes hold only targets still running and not yet announced.
--
-- 0013's first-reply index kept cases closed without a first reply (cancelled, closed by the
-- agent) and both kept paused cases: every poll walked them and read their rows only to skip
-- them, 111 ms every 30 s at 100,000 cases once they piled up. A case that pauses or closes now
-- leaves the index, and comes back when its clock runs again.
DROP INDEX cases_first_reply_due;
DROP INDEX cases_resolution_due;
CREATE INDEX cases_first_reply_due ON cases (first_reply_due_at)
    WHERE first_reply_at IS NULL AND first_reply_overdue_told = 0 AND first_reply_due_at IS NOT NULL
      AND closed_at IS NULL AND sla_paused_at IS NULL;
CREATE INDEX cases_resolution_due ON cases (resolution_due_at)
    WHERE closed_at IS NULL AND resolution_overdue_told = 0 AND resolution_due_at IS NOT NULL
      AND sla_paused_at IS NULL;
