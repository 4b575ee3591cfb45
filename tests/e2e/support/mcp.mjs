// A real MCP client for end-to-end tests: the official Python MCP SDK (support/mcp_agent.py)
// in the virtualenv the CLI's MCP tests use (target/mcp-clients/venv, made from
// crates/cli/tests/mcp-clients/requirements.txt when missing or out of date, so both suites
// share one install). An agent connects like a host would and stays connected until
// `disconnect()`.
import { execFileSync, spawn } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { ROOT, withTimeout } from "./harness.mjs";

const REQUIREMENTS = join(ROOT, "crates/cli/tests/mcp-clients/requirements.txt");
const VENV = join(ROOT, "target/mcp-clients/venv");
const AGENT = join(import.meta.dirname, "mcp_agent.py");

/** The virtualenv's Python with the MCP SDK, made on first use (needs PyPI once). */
export function mcpPython() {
  const python = join(VENV, "bin/python");
  const marker = join(VENV, "installed-requirements.txt");
  const requirements = readFileSync(REQUIREMENTS, "utf8");
  if (existsSync(python) && existsSync(marker) && readFileSync(marker, "utf8") === requirements) return python;
  rmSync(VENV, { recursive: true, force: true });
  mkdirSync(join(VENV, ".."), { recursive: true });
  execFileSync("python3", ["-m", "venv", VENV], { stdio: "inherit" });
  execFileSync(python, ["-m", "pip", "install", "--quiet", "--disable-pip-version-check", "-r", REQUIREMENTS], {
    stdio: "inherit",
  });
  writeFileSync(marker, requirements);
  return python;
}

/**
 * Connects one MCP client named `name` `version`: over stdio from `config` (the `mcpServers`
 * JSON Settings offers to copy, started exactly as written), or over HTTP to `http` with
 * `token`. Resolves once `initialize` is done and the tools are listed.
 */
export async function connectAgent({ name, version, config, http, token }) {
  const args = [AGENT, "--name", name, "--version", version];
  if (config) args.push("--stdio", config);
  else args.push("--http", http, "--token", token);
  const child = spawn(mcpPython(), args, { stdio: ["pipe", "pipe", "pipe"] });
  let output = "";
  let errors = "";
  child.stderr.on("data", (d) => (errors += d));
  const exited = new Promise((resolve) => child.once("exit", resolve));
  const line = (key) =>
    new Promise((resolve, reject) => {
      const seen = () => {
        const found = output.split("\n").find((l) => l.includes(`"${key}"`));
        if (found) return resolve(JSON.parse(found)), true;
        return false;
      };
      if (seen()) return;
      child.stdout.on("data", () => seen());
      exited.then((code) => reject(new Error(`the MCP client exited (${code}) before "${key}":\n${errors}`)));
    });
  child.stdout.on("data", (d) => (output += d));
  try {
    const connected = await withTimeout(line("connected"), 60_000, `MCP client ${name} to connect`);
    return {
      connected,
      /** Closes the client's side (its stdin), so it disconnects cleanly; resolves when it has exited. */
      async disconnect() {
        child.stdin.end();
        await withTimeout(exited, 15_000, `MCP client ${name} to disconnect`).catch((err) => {
          child.kill("SIGKILL");
          throw err;
        });
      },
      kill() {
        if (child.exitCode === null) child.kill("SIGKILL");
      },
    };
  } catch (err) {
    child.kill("SIGKILL");
    throw new Error(`${err.message}\n${errors}`);
  }
}
