// The team database the desktop benchmark runs on: 1,000,000 cases on a throw-away PostgreSQL
// (tests/e2e/support/postgres.mjs), migrated by the CLI and filled by the team bench's own
// `crates/team/benches/fill.sql`, the way `crates/team/benches/team.rs` fills it: the secondary
// indexes dropped, the rows written in one statement per table, the indexes built again, then
// VACUUM ANALYZE as autovacuum would have long since on a team's server.
import { execFileSync } from "node:child_process";
import { join } from "node:path";
import { ROOT } from "../../tests/e2e/support/harness.mjs";
import { startPostgres } from "../../tests/e2e/support/postgres.mjs";

const DATABASE = "team_bench";
const FILL = join(ROOT, "crates/team/benches/fill.sql");

/** Starts the server and fills it; returns { url, stop }. `dataDir` is the CLI's data directory for the migration. */
export async function teamDatabase(cli, dataDir) {
  const pg = await startPostgres();
  try {
    const url = pg.createDatabase(DATABASE);
    execFileSync(cli, ["cases", "list"], {
      env: { ...process.env, SKILLCASE_DATA_DIR: dataDir, SKILLCASE_DATABASE_URL: url },
      stdio: "ignore",
    });
    const indexes = pg
      .psql(
        DATABASE,
        `SELECT i.indexrelid::regclass::text || E'\\t' || pg_get_indexdef(i.indexrelid) FROM pg_index i
         WHERE i.indrelid IN ('cases'::regclass, 'case_events'::regclass, 'deliveries'::regclass)
         AND NOT EXISTS (SELECT 1 FROM pg_constraint c WHERE c.conindid = i.indexrelid)`,
      )
      .split("\n")
      .filter(Boolean)
      .map((line) => line.split("\t"));
    for (const [name] of indexes) pg.psql(DATABASE, `DROP INDEX ${name}`);
    pg.psqlFile(DATABASE, FILL);
    for (const [, definition] of indexes) pg.psql(DATABASE, `SET maintenance_work_mem = '1GB'; ${definition}`);
    pg.psql(DATABASE, "VACUUM ANALYZE");
    pg.psql(DATABASE, "CHECKPOINT");
    const filled = Number(pg.psql(DATABASE, "SELECT count(*) FROM cases"));
    if (filled !== 1_000_000) throw new Error(`fill.sql wrote ${filled} cases, not 1,000,000`);
    return { url, stop: pg.stop };
  } catch (err) {
    pg.stop();
    throw err;
  }
}
