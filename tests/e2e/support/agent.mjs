// The agent's side of the case loop, for end-to-end tests: a fake agent endpoint (a real HTTP
// server on 127.0.0.1 that checks each Standard Webhooks signature, and can go down and come
// back on the same port), the local agent API client, and the `skillcase endpoint set` call that
// points the app at the fake endpoint.
import { createHmac, timingSafeEqual } from "node:crypto";
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { createServer } from "node:http";
import { join } from "node:path";
import { ROOT, waitForText } from "./harness.mjs";

export const SECRET = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw";
const CLI = process.env.SKILLCASE_CLI_BINARY ?? join(ROOT, "target/debug/skillcase");

/** True when `header` carries a `v1` signature of "id.timestamp.body" under `secret`. */
export function signatureMatches(secret, id, timestamp, body, header) {
  const key = Buffer.from(secret.replace(/^whsec_/, ""), "base64");
  const expected = createHmac("sha256", key).update(`${id}.${timestamp}.${body}`).digest();
  return (header ?? "").split(" ").some((sig) => {
    if (!sig.startsWith("v1,")) return false;
    const given = Buffer.from(sig.slice(3), "base64");
    return given.length === expected.length && timingSafeEqual(given, expected);
  });
}

/** A fake agent endpoint. `received` lists every request, signed or not. */
export async function startFakeEndpoint(secret = SECRET) {
  const received = [];
  const handler = (req, res) => {
    let body = "";
    req.on("data", (chunk) => (body += chunk));
    req.on("end", () => {
      const id = req.headers["webhook-id"];
      const timestamp = req.headers["webhook-timestamp"];
      const signed = signatureMatches(secret, id, timestamp, body, req.headers["webhook-signature"]);
      received.push({ id, timestamp, signed, body: JSON.parse(body) });
      res.writeHead(signed ? 200 : 401, { "content-type": "application/json" });
      res.end(signed ? '{"ok":true}' : '{"error":"bad signature"}');
    });
  };
  let server = createServer(handler);
  await new Promise((resolveListen) => server.listen(0, "127.0.0.1", resolveListen));
  const port = server.address().port;
  return {
    url: `http://127.0.0.1:${port}/skillcase`,
    received,
    /** The accepted deliveries of `caseId`, in arrival order. */
    forCase: (caseId) => received.filter((r) => r.signed && r.body.case?.id === caseId),
    async down() {
      server.closeAllConnections();
      await new Promise((resolveClose) => server.close(resolveClose));
    },
    async up() {
      server = createServer(handler);
      await new Promise((resolveListen) => server.listen(port, "127.0.0.1", resolveListen));
    },
    stop: () => server.close(),
  };
}

/** Waits until `check()` returns something truthy; returns it. */
export async function eventually(check, what, timeoutMs = 20_000) {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value) return value;
    if (Date.now() > until) throw new Error(`timed out: ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/**
 * `skillcase endpoint set` on the app's data directory (the worker reads it before each attempt);
 * with `database`, on that team database (`--database`), where every instance on it reads it.
 */
export function setEndpoint(dataDir, url, { maxAttempts = 1, secret = SECRET, database } = {}) {
  const team = database ? ["--database", database] : [];
  execFileSync(CLI, [...team, "endpoint", "set", "--url", url, "--secret", secret, "--max-attempts", String(maxAttempts)], {
    env: { ...process.env, SKILLCASE_DATA_DIR: dataDir },
  });
}

/** The agent's client for the local API the app runs (URL from the status line, token from the data dir). */
export async function agentApi(browser, dataDir) {
  const shown = await waitForText(browser, '[data-field="api"]', (t) => t.includes("http://127.0.0.1:"), "API URL");
  const base = shown.match(/http:\/\/127\.0\.0\.1:\d+/)[0];
  const token = readFileSync(join(dataDir, "api-token"), "utf8").trim();
  const request = async (method, path, body) => {
    const answer = await fetch(`${base}${path}`, {
      method,
      headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const json = await answer.json();
    if (!answer.ok) throw new Error(`${method} ${path} answered ${answer.status}: ${JSON.stringify(json)}`);
    return json;
  };
  return {
    openCase: (body) => request("POST", "/v1/cases", body),
    provideUpdate: (id, info) => request("POST", `/v1/cases/${id}/updates`, { info }),
    beforeSend: (body) => request("POST", "/v1/guard/before-send", body),
    getCase: (id) => request("GET", `/v1/cases/${id}`),
    matchMessage: (conversation_id, message) => request("POST", "/v1/skills/match", { conversation_id, message }),
  };
}
