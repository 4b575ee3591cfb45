// The data the desktop benchmark runs on: a skills folder of 10,000 skills and a data directory
// whose database holds 100,000 cases, shaped like the cases engine's own benchmark (seven in ten
// waiting on the person, one in ten on the customer, the rest closed; one in three read; one in
// ten with an internal note; four in five assigned to one of seven people).
import { execFileSync } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";

/** Writes `count` skills, one folder with a SKILL.md each. */
export function writeSkills(dir, count) {
  for (let i = 0; i < count; i++) {
    const name = `skill-${String(i).padStart(5, "0")}`;
    mkdirSync(join(dir, name), { recursive: true });
    writeFileSync(
      join(dir, name, "SKILL.md"),
      `---\nname: ${name}\ndescription: Skill ${i} answers questions about topic ${i % 97} for customers of plan ${i % 13}.\n---\n\nBody ${i}.\n`,
    );
  }
}

/** SQL that inserts `count` cases and their events in one transaction; triggers keep the search index and tab counts. */
function casesSql(count) {
  return `
BEGIN;
WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i < ${count - 1}),
c AS (
  SELECT i,
    printf('2026-%02d-%02dT%02d:%02d:00.000Z', 1 + i % 11, 1 + i % 28, i % 24, i % 60) AS at,
    CASE WHEN i % 10 <= 6 THEN 'awaiting_human' WHEN i % 10 = 7 THEN 'awaiting_lead'
         WHEN i % 10 = 8 THEN 'resolved' ELSE 'escalated' END AS status
  FROM n)
INSERT INTO cases (id, number, conversation_id, lead_name, lead_channel, lead_contact, status, title, summary,
                   context, source, waiting_since, opened_at, updated_at, closed_at, read_at, assignee)
SELECT printf('case-%06d', i), 1001 + i, 'wa-' || i, 'Lead ' || i, 'whatsapp', '+55 11 9' || printf('%04d', i % 10000) || '-0000',
       status, 'Refund request ' || i, 'The lead was charged twice for order ' || (5000 + i) || ' and wants one charge refunded.',
       json_array(json_object('role', 'lead', 'text', 'I was charged twice for order ' || (5000 + i) || '.', 'at', at),
                  json_object('role', 'agent', 'text', 'Sorry about that! I am opening a case for the team.', 'at', at)),
       'agent', CASE WHEN status IN ('awaiting_human', 'awaiting_lead') THEN at END, at, at,
       CASE WHEN status IN ('resolved', 'escalated') THEN at END,
       CASE WHEN i % 3 = 0 THEN '2026-12-31T00:00:00.000Z' END,
       CASE WHEN (1001 + i) % 5 = 0 THEN NULL WHEN (1001 + i) % 7 = 1 THEN 'Ana' ELSE 'Person ' || ((1001 + i) % 7) END
FROM c;
INSERT INTO case_events (case_id, kind, actor, actor_name, at, payload)
SELECT id, 'opened', 'agent', NULL, opened_at, '{}' FROM cases ORDER BY number;
INSERT INTO case_events (case_id, kind, actor, actor_name, at, payload)
SELECT id, 'internal_note', 'human', 'Ana', opened_at, json_object('text', 'Gerente aprovou a exceção nº ' || (number - 1001))
FROM cases WHERE (number - 1001) % 10 = 0 ORDER BY number;
DELETE FROM closed_totals;
INSERT INTO closed_totals (assignee, n) SELECT coalesce(assignee, ''), count(*) FROM cases WHERE closed_at IS NOT NULL GROUP BY 1;
UPDATE case_counter SET next = 1001 + ${count};
COMMIT;
`;
}

/**
 * Creates the data directory's database with the CLI (every migration applied), then fills it
 * with `count` cases through the sqlite3 shell.
 */
export function writeCases(cli, dataDir, skillsDir, count) {
  execFileSync(cli, ["cases", "list"], { env: { ...process.env, SKILLCASE_DATA_DIR: dataDir, SKILLCASE_SKILLS_DIR: skillsDir }, stdio: "ignore" });
  execFileSync("sqlite3", [join(dataDir, "skillcase.sqlite3")], { input: casesSql(count), stdio: ["pipe", "ignore", "inherit"] });
}
