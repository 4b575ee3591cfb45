-- Why the AI handed over (SPEC D5): the reason an agent gives when it opens a case, and
-- when a person first answered it, for the inbox's reason filter and the handover report.
--
-- Cases opened before reasons existed had none, so they are 'not_stated' — except the ones the
-- guardrail opened, whose reason is known from their source. Agents that still leave the reason
-- out open 'not_stated' cases too; nothing invents a reason the agent did not give.
ALTER TABLE cases ADD COLUMN reason TEXT NOT NULL DEFAULT 'not_stated' CHECK (reason IN
    ('customer_request', 'missing_knowledge', 'unsupported_request', 'policy_restriction',
     'tool_failure', 'pending_clarification', 'guardrail_autofallback', 'not_stated'));
UPDATE cases SET reason = 'guardrail_autofallback' WHERE source = 'guardrail_autofallback';

-- When a person first answered the case (resolved, need info or escalate; notes are not answers),
-- written by that answer's transaction. A column rather than a join on the timeline, so the
-- report's time to first reply is read from one index. Cases already answered get theirs from
-- the timeline.
ALTER TABLE cases ADD COLUMN first_reply_at TEXT;
UPDATE cases SET first_reply_at =
    (SELECT min(at) FROM case_events e WHERE e.case_id = cases.id AND e.kind = 'human_replied');

-- The report reads the cases of a range of days from this index alone (opening day, reason and
-- first reply, grouped by week and reason); the inbox's reason filter narrows by it.
CREATE INDEX cases_by_opened_reason ON cases (opened_at, reason, first_reply_at);
-- A conversation's resolved cases, for "was this case reopened?".
CREATE INDEX cases_by_conversation_resolved ON cases (conversation_id, closed_at) WHERE status = 'resolved';
