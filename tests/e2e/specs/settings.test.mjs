// The Settings screen on the real window: language and theme apply at once, a bad endpoint URL
// is refused next to its field, Test reaches a real HTTP server, rotating the token changes
// what the local API accepts, and the API moves to a new port (or refuses a taken one) without
// a restart. Agents (MCP) shows the stdio command and the HTTP URL, and real MCP clients (the
// Python MCP SDK, over stdio with the copied configuration and over HTTP with the token) appear
// in its list while they are connected and leave when they disconnect, in both languages.
import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { createServer } from "node:http";
import { createServer as createTcpServer } from "node:net";
import { join } from "node:path";
import { ROOT, launchApp, screenshot, textOf, waitForText } from "../support/harness.mjs";
import { connectAgent, mcpPython } from "../support/mcp.mjs";

const SECRET = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw";

/** Listens on a free loopback port; resolves with the server and its port. */
function listenOnFreePort(server) {
  return new Promise((resolve) => server.listen(0, "127.0.0.1", () => resolve(server.address().port)));
}

/** A port that was free a moment ago. */
async function freePort() {
  const probe = createTcpServer();
  const port = await listenOnFreePort(probe);
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

async function skillsIndex(url, token) {
  const answer = await fetch(`${url}/v1/skills/index?format=skillcase`, { headers: { Authorization: `Bearer ${token}` } });
  return answer.text();
}

/** A caller of the app's local API (the URL shown in the status line, the data directory's token). */
async function localApi(browser, dataDir) {
  const url = (await textOf(browser, '[data-testid="api-url"]')).trim();
  const token = readFileSync(join(dataDir, "api-token"), "utf8").trim();
  return async (method, path, body) => {
    const headers = { Authorization: `Bearer ${token}`, "Content-Type": "application/json" };
    const answer = await fetch(`${url}${path}`, { method, headers, body: body && JSON.stringify(body) });
    return answer.json();
  };
}

/** Polls `probe` every 100 ms until it returns a value (the library scans a new folder in the background). */
async function waitUntil(probe, what, ms = 5_000) {
  const until = Date.now() + ms;
  for (;;) {
    const value = await probe();
    if (value !== null) return value;
    if (Date.now() > until) throw new Error(`timed out after ${ms} ms waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

async function status(url, token) {
  const answer = await fetch(`${url}/v1/openapi.json`, { headers: { Authorization: `Bearer ${token}` } });
  return answer.status;
}

/** Clears a text input and types `value` (Svelte's bind:value sees the input events). */
async function typeInto(browser, selector, value) {
  const input = await browser.$(selector);
  await input.clearValue();
  await input.setValue(value);
}

async function click(browser, selector) {
  await (await browser.$(selector)).click();
}

async function scrollTo(browser, selector) {
  await browser.execute((sel) => document.querySelector(sel).scrollIntoView({ block: "start" }), selector);
}

describe("the settings screen", { timeout: 240_000 }, () => {
  let app;
  let hook;
  const received = [];

  before(async () => {
    hook = createServer((req, res) => {
      let body = "";
      req.on("data", (d) => (body += d));
      req.on("end", () => {
        received.push({ headers: req.headers, body });
        res.writeHead(204).end();
      });
    });
    await listenOnFreePort(hook);
    app = await launchApp({ env: { GTK_THEME: "Adwaita", LANG: "en_US.UTF-8" } });
    await click(app.browser, 'nav button[data-nav="settings"]');
    await waitForText(app.browser, "h1", (t) => t === "Settings", "the Settings screen opens");
    await waitForText(app.browser, '[data-section="api"]', (t) => t.includes("http://127.0.0.1:"), "settings load");
  });

  after(async () => {
    await app?.stop();
    hook?.close();
  });

  it("switches the whole window to Portuguese at once and back to English", async () => {
    const { browser } = app;
    await screenshot(browser, "settings-light-en");
    await click(browser, 'input[name="language"][value="pt-BR"] + span');
    await scrollTo(browser, "h1");
    await waitForText(browser, 'nav button[data-nav="settings"]', (t) => t === "Configurações", "the nav speaks Portuguese");
    assert.equal(await textOf(browser, "h1"), "Configurações");
    assert.equal(await textOf(browser, 'nav button[data-nav="cases"]'), "Casos");
    await screenshot(browser, "settings-light-pt-BR");
    await click(browser, 'input[name="language"][value="en"] + span');
    await waitForText(browser, 'nav button[data-nav="settings"]', (t) => t === "Settings", "the nav speaks English again");
  });

  it("pins the dark theme and returns to light", async () => {
    const { browser } = app;
    const background = () => browser.execute(() => getComputedStyle(document.body).backgroundColor);
    assert.equal(await background(), "rgb(247, 248, 250)", "light to begin with (GTK Adwaita)");
    await click(browser, 'input[name="theme"][value="dark"] + span');
    await browser.waitUntil(async () => (await background()) === "rgb(21, 25, 29)", {
      timeout: 5000,
      timeoutMsg: "the body turns dark",
    });
    await screenshot(browser, "settings-dark-en");
    await click(browser, 'input[name="language"][value="pt-BR"] + span');
    await waitForText(browser, "h1", (t) => t === "Configurações", "Portuguese in dark");
    await scrollTo(browser, "h1");
    await screenshot(browser, "settings-dark-pt-BR");
    await scrollTo(browser, '[data-section="appearance"]');
    await screenshot(browser, "settings-dark-pt-BR-appearance");
    await scrollTo(browser, '[data-section="endpoint"]');
    await screenshot(browser, "settings-dark-pt-BR-endpoint");
    await scrollTo(browser, '[data-section="policy"]');
    await screenshot(browser, "settings-dark-pt-BR-policy");
    await scrollTo(browser, '[data-section="calendar"]');
    await screenshot(browser, "settings-dark-pt-BR-calendar");
    await scrollTo(browser, '[data-section="mcp"]');
    await screenshot(browser, "settings-dark-pt-BR-mcp");
    await click(browser, 'input[name="language"][value="en"] + span');
    await click(browser, 'input[name="theme"][value="light"] + span');
    await browser.waitUntil(async () => (await background()) === "rgb(247, 248, 250)", {
      timeout: 5000,
      timeoutMsg: "the body turns light again",
    });
    assert.equal(await browser.execute(() => document.documentElement.dataset.theme), "light");
  });

  it("refuses a relative skills directory next to the folder field", async () => {
    const { browser } = app;
    await typeInto(browser, "#skills-dir-path", "skills");
    await click(browser, '[data-section="skills-dir"] button[type="submit"]');
    const message = await waitForText(browser, '[data-error="skills_dir"]', (t) => t.length > 0, "folder error");
    assert.equal(message, "Choose an existing folder Skillcase can read, as a full path.");
    await scrollTo(browser, '[data-section="skills-dir"]');
    await screenshot(browser, "settings-skills-dir-invalid");
  });

  it("serves a newly chosen skills directory at once", async () => {
    const { browser, dataDir } = app;
    const url = (await textOf(browser, '[data-testid="api-url"]')).trim();
    const token = readFileSync(join(dataDir, "api-token"), "utf8").trim();
    assert.ok((await skillsIndex(url, token)).includes("status-do-pedido"), "the examples are served first");
    const chosen = mkdtempSync(join(tmpdir(), "skillcase-e2e-skills-"));
    try {
      // A skill only the new folder has; the factory catalog stays served beside it (SPEC A9).
      mkdirSync(join(chosen, "pasta-escolhida"));
      writeFileSync(
        join(chosen, "pasta-escolhida", "SKILL.md"),
        "---\nname: pasta-escolhida\ndescription: Proves the chosen folder is the one served.\n---\nBody.\n",
      );
      assert.ok(!(await skillsIndex(url, token)).includes("pasta-escolhida"));
      await typeInto(browser, "#skills-dir-path", chosen);
      await click(browser, '[data-section="skills-dir"] button[type="submit"]');
      await waitForText(browser, '[data-field="skills-dir"]', (t) => t.includes(chosen), "the status line shows the folder");
      assert.equal(await textOf(browser, '[data-error="skills_dir"]'), null);
      const served = await waitUntil(async () => {
        const index = await skillsIndex(url, token);
        return index.includes("pasta-escolhida") ? index : null;
      }, "the new folder's skill in the index");
      assert.ok(served.includes("status-do-pedido"), "catalog skills are still served");
    } finally {
      rmSync(chosen, { recursive: true, force: true });
    }
  });

  it("refuses an endpoint URL without a scheme, next to the URL field", async () => {
    const { browser } = app;
    await typeInto(browser, "#endpoint-url", `127.0.0.1:${hook.address().port}/hook`);
    await typeInto(browser, "#endpoint-secret", SECRET);
    await click(browser, '[data-section="endpoint"] button[type="submit"]');
    const message = await waitForText(browser, '[data-field="url"] [data-error="url"]', (t) => t.length > 0, "URL error");
    assert.equal(message, "Enter a full address starting with http:// or https://.");
    assert.equal(await textOf(browser, '[data-error="secret"]'), null, "no error on the secret");
    await scrollTo(browser, '[data-section="endpoint"]');
    await screenshot(browser, "settings-endpoint-invalid-url");
  });

  it("saves a real endpoint and Test reaches it with a signed ping", async () => {
    const { browser } = app;
    const url = `http://127.0.0.1:${hook.address().port}/hook`;
    await typeInto(browser, "#endpoint-url", url);
    await typeInto(browser, "#endpoint-secret", SECRET);
    await click(browser, '[data-section="endpoint"] button[type="submit"]');
    await waitForText(browser, '[data-section="endpoint"] .actions', (t) => t.includes("Saved."), "endpoint saved");
    assert.equal(await textOf(browser, '[data-error="url"]'), null);
    await click(browser, '[data-action="test-endpoint"]');
    const result = await waitForText(browser, '[data-testid="endpoint-test-result"]', (t) => t.length > 0, "test result");
    assert.match(result, /^The endpoint answered 204 in \d+ ms\.$/);
    const ping = received.at(-1);
    assert.equal(JSON.parse(ping.body).type, "ping");
    assert.match(ping.headers["webhook-signature"], /^v1,/);
    await scrollTo(browser, '[data-section="endpoint"]');
    await screenshot(browser, "settings-endpoint-test-ok");
  });

  it("refuses an unknown time zone, then counts a promise's due time in the saved business hours", async () => {
    const { browser, dataDir } = app;
    await scrollTo(browser, '[data-section="calendar"]');
    await typeInto(browser, "#calendar-zone", "Mars/Olympus");
    await click(browser, '[data-testid="calendar-save"]');
    const message = await waitForText(browser, '[data-error="time_zone"]', (t) => t.length > 0, "time zone error");
    assert.equal(message, "Skillcase does not know this time zone. Use an IANA name like America/Sao_Paulo.");
    await screenshot(browser, "settings-calendar-invalid-zone");

    await typeInto(browser, "#calendar-zone", "America/Sao_Paulo");
    for (const day of ["saturday", "sunday"]) await click(browser, `input[name="working_days"][value="${day}"]`);
    await click(browser, '[data-testid="calendar-save"]');
    await waitForText(browser, '[data-section="calendar"] .actions', (t) => t.includes("Saved."), "calendar saved");
    assert.equal(await textOf(browser, '[data-error="time_zone"]'), null);
    await screenshot(browser, "settings-calendar-saved");

    // Every day works now, so "amanhã cedo" is tomorrow (in São Paulo) at noon there: 15:00 UTC.
    const call = await localApi(browser, dataDir);
    const opened = await call("POST", "/v1/cases", { conversation_id: "wa-calendar", title: "Estorno", summary: "Cobrança em dobro" });
    const verdict = await call("POST", "/v1/guard/before-send", {
      conversation_id: "wa-calendar",
      turn_id: "t1",
      message: "A Letícia da contabilidade te liga amanhã cedo.",
    });
    assert.equal(verdict.verdict, "pass");
    const { promises } = await call("GET", `/v1/cases/${opened.case.id}`);
    const saoPauloToday = new Date(Date.now() - 3 * 3600_000).toISOString().slice(0, 10);
    const tomorrow = new Date(Date.parse(`${saoPauloToday}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);
    assert.equal(promises.length, 1);
    assert.equal(promises[0].due_text, "amanhã cedo");
    assert.equal(Date.parse(promises[0].due_at), Date.parse(`${tomorrow}T15:00:00Z`));
  });

  it("starts the calendar with the zone's national holidays, named in both languages, and skips them in a promise's due time", async () => {
    const { browser, dataDir } = app;
    await scrollTo(browser, '[data-section="calendar"]');
    await typeInto(browser, "#calendar-zone", "America/Sao_Paulo");
    for (const day of ["saturday", "sunday"]) {
      const box = await browser.$(`input[name="working_days"][value="${day}"]`);
      if (await box.isSelected()) await box.click();
    }
    const list = '[data-testid="national-holidays"]';
    await waitForText(browser, list, (t) => t.includes("Christmas Day"), "Brazil's holidays listed by name");
    const country = await browser.$('[data-testid="calendar-country"]');
    assert.match(await country.getText(), /The time zone's country \(Brazil\)/);
    // New Year's Day is worked this year: untick it, save, and it stays unticked.
    const newYear = await browser.$(`${list} input[data-date$="-01-01"]`);
    await newYear.click();
    await click(browser, '[data-testid="calendar-save"]');
    await waitForText(browser, '[data-section="calendar"] .actions', (t) => t.includes("Saved."), "calendar saved");
    assert.equal(await newYear.isSelected(), false);
    await screenshot(browser, "settings-calendar-national-holidays");

    await click(browser, 'input[name="language"][value="pt-BR"] + span');
    await scrollTo(browser, '[data-section="calendar"]');
    await waitForText(browser, list, (t) => t.includes("Natal"), "the holidays named in Portuguese");
    assert.match(await country.getText(), /O país do fuso horário \(Brasil\)/);
    await screenshot(browser, "settings-calendar-national-holidays-pt-BR");
    await click(browser, 'input[name="language"][value="en"] + span');

    // "antes do Natal" falls due at the close (18:00 in São Paulo, 21:00 UTC) of the last
    // business day before Christmas: Monday to Friday, Christmas itself a day off.
    const call = await localApi(browser, dataDir);
    const opened = await call("POST", "/v1/cases", { conversation_id: "wa-natal", title: "Apólice", summary: "Vidros" });
    const verdict = await call("POST", "/v1/guard/before-send", {
      conversation_id: "wa-natal",
      turn_id: "t1",
      message: "O Ricardo, do nosso time de apólices, vai te enviar a nova apólice antes do Natal.",
    });
    assert.equal(verdict.verdict, "pass");
    const { promises } = await call("GET", `/v1/cases/${opened.case.id}`);
    const saoPauloNow = new Date(Date.now() - 3 * 3600_000);
    const lastBusinessDayBefore = (year) => {
      let day = new Date(Date.UTC(year, 11, 24));
      while ([0, 6].includes(day.getUTCDay())) day = new Date(day.getTime() - 86_400_000);
      return day;
    };
    let due = lastBusinessDayBefore(saoPauloNow.getUTCFullYear());
    if (due.getTime() + 18 * 3600_000 <= saoPauloNow.getTime()) due = lastBusinessDayBefore(saoPauloNow.getUTCFullYear() + 1);
    assert.equal(promises.length, 1);
    assert.equal(promises[0].due_text, "antes do Natal");
    assert.equal(Date.parse(promises[0].due_at), due.getTime() + 21 * 3600_000);
  });

  it("rotates the token: the old one gets 401 and the new one 200", async () => {
    const { browser, dataDir } = app;
    const url = (await textOf(browser, '[data-testid="api-url"]')).trim();
    const before = readFileSync(join(dataDir, "api-token"), "utf8").trim();
    assert.equal(await status(url, before), 200);
    await scrollTo(browser, '[data-section="api"]');
    await click(browser, '[data-action="rotate-token"]');
    await screenshot(browser, "settings-api-rotate-confirm");
    await click(browser, '[data-action="rotate-confirm"]');
    await waitForText(browser, '[data-section="api"]', (t) => t.includes("A new token is in force."), "rotation confirmed");
    const after = readFileSync(join(dataDir, "api-token"), "utf8").trim();
    assert.notEqual(after, before);
    assert.equal(await status(url, before), 401);
    assert.equal(await status(url, after), 200);
    assert.ok(!(await textOf(browser, '[data-testid="api-curl"]')).includes(after), "the curl line masks the token");
    await click(browser, '[data-section="api"] button[aria-pressed]');
    await waitForText(browser, '[data-testid="api-curl"]', (t) => t.includes(after), "the curl line shows the new token");
    assert.equal(await textOf(browser, '[data-testid="api-token"]'), after);
    await screenshot(browser, "settings-api-token-shown");
  });

  it("refuses a port in use next to the port field and keeps the API where it was", async () => {
    const { browser, dataDir } = app;
    const url = (await textOf(browser, '[data-testid="api-url"]')).trim();
    const blocker = createTcpServer();
    const taken = await listenOnFreePort(blocker);
    try {
      await typeInto(browser, "#api-port", String(taken));
      await click(browser, '[data-section="api"] button[type="submit"]');
      const message = await waitForText(browser, '[data-error="api_port"]', (t) => t.length > 0, "port error");
      assert.equal(message, `Port ${taken} is already in use. Choose another one.`);
      await screenshot(browser, "settings-api-port-in-use");
    } finally {
      blocker.close();
    }
    const token = readFileSync(join(dataDir, "api-token"), "utf8").trim();
    assert.equal(await status(url, token), 200, "the API still answers on its old port");
    assert.equal((await textOf(browser, '[data-field="api"]')).includes(url), true);
  });

  it("moves the API to a free port: the status line shows it and the API answers there", async () => {
    const { browser, dataDir } = app;
    const oldUrl = (await textOf(browser, '[data-testid="api-url"]')).trim();
    const port = await freePort();
    const newUrl = `http://127.0.0.1:${port}`;
    await typeInto(browser, "#api-port", String(port));
    await click(browser, '[data-section="api"] button[type="submit"]');
    await waitForText(browser, '[data-field="api"]', (t) => t.includes(newUrl), "the status line shows the new URL");
    assert.equal(await textOf(browser, '[data-testid="api-url"]'), newUrl);
    assert.equal(await textOf(browser, '[data-error="api_port"]'), null);
    const token = readFileSync(join(dataDir, "api-token"), "utf8").trim();
    assert.equal(await status(newUrl, token), 200);
    await assert.rejects(fetch(`${oldUrl}/v1/openapi.json`), "nothing listens on the old port any more");
    await screenshot(browser, "settings-api-moved");
  });
});

describe("settings at start-up", { timeout: 240_000 }, () => {
  const dataDir = mkdtempSync(join(tmpdir(), "skillcase-e2e-keep-"));
  const env = { GTK_THEME: "Adwaita", LANG: "en_US.UTF-8", SKILLCASE_DATA_DIR: dataDir };
  after(() => rmSync(dataDir, { recursive: true, force: true }));

  it("applies the saved language and theme when the app starts again", async () => {
    const first = await launchApp({ env });
    try {
      await click(first.browser, 'nav button[data-nav="settings"]');
      await waitForText(first.browser, '[data-section="appearance"]', (t) => t.length > 0, "settings load");
      await click(first.browser, 'input[name="language"][value="pt-BR"] + span');
      await click(first.browser, 'input[name="theme"][value="dark"] + span');
      await waitForText(first.browser, "h1", (t) => t === "Configurações", "Portuguese applied");
    } finally {
      await first.stop();
    }
    const second = await launchApp({ env });
    try {
      const { browser } = second;
      await waitForText(browser, 'nav button[data-nav="settings"]', (t) => t === "Configurações", "Portuguese at start-up");
      assert.equal(await browser.execute(() => document.documentElement.dataset.theme), "dark");
      assert.equal(await browser.execute(() => document.documentElement.lang), "pt-BR");
      await screenshot(browser, "settings-restart-dark-pt-BR");
    } finally {
      await second.stop();
    }
  });
});

const LANGUAGES = [
  { lang: "en", env: { LANG: "en_US.UTF-8", LANGUAGE: "en_US" } },
  { lang: "pt-BR", env: { LANG: "pt_BR.UTF-8", LANGUAGE: "pt_BR" } },
];

const MCP_TEXT = {
  en: { title: "Settings", none: "No agent connected.", copied: "Copied.", since: "connected", one: "Connected now (1)", two: "Connected now (2)" },
  "pt-BR": {
    title: "Configurações",
    none: "Nenhum agente conectado.",
    copied: "Copiado.",
    since: "conectado",
    one: "Conectados agora (1)",
    two: "Conectados agora (2)",
  },
};

/** The whitespace-normalised text of each connected client's row. */
async function clientRows(browser) {
  return browser.execute(() =>
    [...document.querySelectorAll('[data-testid="mcp-clients"] li')].map((li) => li.textContent.replace(/\s+/g, " ").trim()),
  );
}

// CASES_E2E_LANG=en (or pt-BR) runs one language only, for a quicker loop while working.
const only = process.env.CASES_E2E_LANG;
for (const { lang, env } of LANGUAGES.filter((l) => !only || l.lang === only)) {
  describe(`settings: agents connected over MCP (${lang})`, { timeout: 300_000 }, () => {
    const text = MCP_TEXT[lang];
    const section = '[data-section="mcp"]';
    const clients = '[data-testid="mcp-clients"]';
    const agents = [];
    let app;

    before(async () => {
      mcpPython(); // the virtualenv first, so no wait below counts its install
      app = await launchApp({ env: { GTK_THEME: "Adwaita", ...env } });
      await click(app.browser, 'nav button[data-nav="settings"]');
      await waitForText(app.browser, "h1", (t) => t === text.title, "the Settings screen opens");
      await waitForText(app.browser, '[data-testid="mcp-command"]', (t) => t.length > 0, "the MCP setup loads");
    });

    after(async () => {
      for (const agent of agents) agent.kill();
      await app?.stop();
    });

    it("shows the stdio command with this data directory, the HTTP URL, and that no agent is connected", async () => {
      const { browser, dataDir } = app;
      const command = await textOf(browser, '[data-testid="mcp-command"]');
      assert.equal(command, `SKILLCASE_DATA_DIR=${dataDir} ${join(ROOT, "target/debug/skillcase")} mcp`);
      const apiUrl = await textOf(browser, '[data-testid="api-url"]');
      assert.equal(await textOf(browser, '[data-testid="mcp-url"]'), `${apiUrl}/mcp`);
      const config = JSON.parse(await textOf(browser, '[data-testid="mcp-config"]'));
      assert.deepEqual(config, {
        mcpServers: {
          skillcase: { command: join(ROOT, "target/debug/skillcase"), args: ["mcp"], env: { SKILLCASE_DATA_DIR: dataDir } },
        },
      });
      assert.equal(await textOf(browser, '[data-testid="mcp-no-clients"] .none'), text.none);
      await scrollTo(browser, section);
      await click(browser, '[data-action="copy-mcp-command"]');
      await waitForText(browser, `${section} [role="status"]`, (t) => t === text.copied, "the copy is confirmed");
      await screenshot(browser, `settings-mcp-empty-${lang}`);
      // The ready configuration is folded away until asked for, and copies as shown.
      assert.equal(await browser.execute(() => document.querySelector('[data-section="mcp"] details').open), false);
      await click(browser, `${section} summary`);
      await click(browser, '[data-action="copy-mcp-config"]');
      await scrollTo(browser, section);
      await screenshot(browser, `settings-mcp-config-${lang}`);
      await click(browser, `${section} summary`);
    });

    it("lists an agent started over stdio from the copied configuration while it is connected, live", async () => {
      const { browser } = app;
      const config = await textOf(browser, '[data-testid="mcp-config"]');
      const agent = await connectAgent({ name: "e2e-stdio-agent", version: "4.5.6", config });
      agents.push(agent);
      assert.equal(agent.connected.tools, 8);
      const listed = await waitForText(browser, clients, (t) => t.includes("e2e-stdio-agent"), "the stdio agent appears");
      assert.ok(!listed.includes(text.none));
      assert.deepEqual(await clientRows(browser), [`e2e-stdio-agent 4.5.6 stdio ${text.since} ${lang === "en" ? "now" : "agora"}`]);
      assert.equal(await textOf(browser, "#mcp-clients-title"), text.one);
      await scrollTo(browser, section);
      await screenshot(browser, `settings-mcp-stdio-connected-${lang}`);
      await agent.disconnect();
      await waitForText(browser, clients, (t) => t.includes(text.none), "the stdio agent leaves the list");
    });

    it("lists an agent over Streamable HTTP with the API token beside one over stdio, and each leaves on its own", async () => {
      const { browser, dataDir } = app;
      const token = readFileSync(join(dataDir, "api-token"), "utf8").trim();
      const url = await textOf(browser, '[data-testid="mcp-url"]');
      const config = await textOf(browser, '[data-testid="mcp-config"]');
      const stdio = await connectAgent({ name: "e2e-stdio-agent", version: "4.5.6", config });
      agents.push(stdio);
      const http = await connectAgent({ name: "e2e-http-agent", version: "7.8.9", http: url, token });
      agents.push(http);
      await waitForText(browser, "#mcp-clients-title", (t) => t === text.two, "both agents are listed");
      const rows = await clientRows(browser);
      assert.ok(rows.some((row) => row.startsWith("e2e-http-agent 7.8.9 HTTP ")), JSON.stringify(rows));
      assert.ok(rows.some((row) => row.startsWith("e2e-stdio-agent 4.5.6 stdio ")), JSON.stringify(rows));
      await scrollTo(browser, section);
      await screenshot(browser, `settings-mcp-two-connected-${lang}`);
      await http.disconnect();
      await waitForText(browser, clients, (t) => !t.includes("e2e-http-agent") && t.includes("e2e-stdio-agent"), "the HTTP agent leaves");
      await stdio.disconnect();
      await waitForText(browser, clients, (t) => t.includes(text.none), "the stdio agent leaves too");
    });
  });
}
