-- Assignment: who works a case. `assignee` is the person's name as their Settings say
-- (NULL: unassigned). Taking, assigning and unassigning are events of their own kinds on the
-- timeline; the Mine and Unassigned views of the open tabs read the partial index below in the
-- tabs' own order, so they cost what the tabs cost.
ALTER TABLE cases ADD COLUMN assignee TEXT;
INSERT INTO event_kinds (kind) VALUES ('assigned'), ('unassigned');
CREATE INDEX cases_by_assignee_waiting ON cases (assignee, status, waiting_since, number)
    WHERE closed_at IS NULL;
