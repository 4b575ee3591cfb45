-- How many cases each person closed (keyed by assignee, '' for the cases nobody had taken),
-- kept by the step that closes a case. Closed cases never reopen or change hands, so a closed
-- total only grows, and the *Closed* tab of *Mine* and *Unassigned* reads its total here instead
-- of counting every closed case.
CREATE TABLE closed_totals (
    assignee TEXT PRIMARY KEY,
    n        INTEGER NOT NULL
);
INSERT INTO closed_totals (assignee, n)
    SELECT coalesce(assignee, ''), count(*) FROM cases WHERE closed_at IS NOT NULL GROUP BY 1;

-- The closed cases of each person (and of nobody) in the *Closed* tab's order, so a person with
-- few closed cases does not walk everyone's.
CREATE INDEX cases_closed_by_assignee ON cases (assignee, closed_at, number) WHERE closed_at IS NOT NULL;
