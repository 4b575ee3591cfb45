-- How many cases each person closed (keyed by assignee, '' for the cases nobody had taken),
-- kept by the step that closes a case, as in the embedded database's migration 19: the *Closed*
-- tab of *Mine* and *Unassigned* reads its total here instead of counting every closed case.
CREATE TABLE closed_totals (
    assignee TEXT PRIMARY KEY,
    n        BIGINT NOT NULL
);
INSERT INTO closed_totals (assignee, n)
    SELECT coalesce(assignee, ''), count(*) FROM cases WHERE closed_at IS NOT NULL GROUP BY 1;
