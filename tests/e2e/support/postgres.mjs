// A throw-away PostgreSQL for end-to-end tests, the twin of crates/testkit/src/postgres.rs:
// Debian's server binaries (/usr/lib/postgresql/N/bin) run a cluster in a temporary directory on
// 127.0.0.1 with trust auth for the role `skillcase`, as the `postgres` user when the tests run as
// root (the server refuses root). `stop()` stops the server and removes the directory; call it in
// an `after` hook. Should the test process end without it, an exit handler does the same.
import { execFileSync } from "node:child_process";
import { chmodSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";

/** The role every test connects as (trusted: no password on loopback). */
export const ROLE = "skillcase";

/** The newest installed server's binaries, or null. */
function serverBin() {
  const root = "/usr/lib/postgresql";
  if (!existsSync(root)) return null;
  const versions = readdirSync(root)
    .filter((name) => /^\d+$/.test(name) && existsSync(join(root, name, "bin/postgres")))
    .map(Number)
    .sort((a, b) => a - b);
  return versions.length ? join(root, String(versions.at(-1)), "bin") : null;
}

function freePort() {
  return new Promise((resolvePort, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address();
      server.close(() => resolvePort(port));
    });
  });
}

/** Runs `command`, throwing with its output when it fails. */
function run(command, args, what) {
  try {
    return execFileSync(command, args, { encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] });
  } catch (err) {
    throw new Error(`${what} failed: ${err.stdout ?? ""}${err.stderr ?? err.message}`);
  }
}

/**
 * Starts a new cluster. Returns { port, url(database), createDatabase(name), psql(database, sql),
 * psqlFile(database, path), stop }.
 */
export async function startPostgres() {
  const bin = serverBin();
  if (!bin) throw new Error("PostgreSQL's server is not installed: apt-get install postgresql (scripts/test does)");
  const runAs = process.getuid?.() === 0 ? "postgres" : null;
  // As the server's user: runuser when root, else directly.
  const pg = (name, args, what) =>
    runAs ? run("runuser", ["-u", runAs, "--", join(bin, name), ...args], what) : run(join(bin, name), args, what);

  const dir = mkdtempSync(join(tmpdir(), "skillcase-e2e-pg-"));
  const data = join(dir, "data");
  const log = join(dir, "server.log");
  let running = false;
  const stop = () => {
    if (running) {
      try {
        pg("pg_ctl", ["-D", data, "-m", "immediate", "-w", "-t", "30", "stop"], "pg_ctl stop");
      } catch (err) {
        console.error(err.message);
      }
      running = false;
    }
    rmSync(dir, { recursive: true, force: true });
    process.off("exit", stop);
  };
  process.on("exit", stop);
  try {
    if (runAs) run("chown", [runAs, dir], "chown");
    chmodSync(dir, 0o700);
    pg("initdb", ["-D", data, "-U", ROLE, "-A", "trust", "-E", "UTF8", "--no-locale", "--no-sync"], "initdb");
    const port = await freePort();
    const options = [
      `-p ${port}`,
      "-c listen_addresses=127.0.0.1",
      `-k ${dir}`,
      "-c fsync=off -c synchronous_commit=off -c full_page_writes=off",
    ].join(" ");
    try {
      pg("pg_ctl", ["-D", data, "-l", log, "-w", "-t", "60", "-o", options, "start"], "pg_ctl start");
    } catch (err) {
      const serverLog = existsSync(log) ? readFileSync(log, "utf8") : "";
      throw new Error(`${err.message}\nserver log:\n${serverLog}`);
    }
    running = true;
    const url = (database) => `postgres://${ROLE}@127.0.0.1:${port}/${database}`;
    const psql = (database, sql) =>
      run(
        join(bin, "psql"),
        ["-X", "-q", "-A", "-t", "-v", "ON_ERROR_STOP=1", "-h", "127.0.0.1", "-U", ROLE, "-p", String(port), "-d", database, "-c", sql],
        `psql ${sql}`,
      ).trim();
    /** Runs the SQL file `path` in `database`, stopping at its first error. */
    const psqlFile = (database, path) =>
      run(
        join(bin, "psql"),
        ["-X", "-q", "-v", "ON_ERROR_STOP=1", "-h", "127.0.0.1", "-U", ROLE, "-p", String(port), "-d", database, "-f", path],
        `psql -f ${path}`,
      );
    return {
      port,
      url,
      psql,
      psqlFile,
      /** A new empty database `name`, as a postgres:// URL. */
      createDatabase(name) {
        run(join(bin, "createdb"), ["-h", "127.0.0.1", "-p", String(port), "-U", ROLE, name], `createdb ${name}`);
        return url(name);
      },
      stop,
    };
  } catch (err) {
    stop();
    throw err;
  }
}
