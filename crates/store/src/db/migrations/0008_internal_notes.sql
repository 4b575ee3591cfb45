-- Internal notes: a person's private note on a case is an event of its own kind on the
-- timeline. It is never sent to the agent: no delivery relays it and the agent's view of a case
-- leaves it out. Event kinds live in a table since migration 6, so a new kind is one row.
INSERT INTO event_kinds (kind) VALUES ('internal_note');
