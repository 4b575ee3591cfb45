// Assignment on the real window, in English and Portuguese: the agent opens three cases over the
// real local API; the person (named in Settings → You through the real app) takes one with `t`,
// gives two to a colleague with the bulk *Assign to…*, sees each in the Mine and Unassigned views
// (`v` cycles them), and unassigns one from the case view; the timeline says who did what.
import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { Key } from "webdriverio";
import { click, launchApp, screenshot, textOf, waitForText } from "../support/harness.mjs";
import { agentApi } from "../support/agent.mjs";

const LANGUAGES = [
  {
    lang: "en",
    env: { LANG: "en_US.UTF-8", LANGUAGE: "en_US" },
    title: "Cases",
    you: "Assigned to you",
    bruno: "Assigned to Bruno Lima",
    nobody: "Unassigned",
    assignedTwo: "2 cases assigned to Bruno Lima.",
    event: "Assigned to Ana Souza",
  },
  {
    lang: "pt-BR",
    env: { LANG: "pt_BR.UTF-8", LANGUAGE: "pt_BR" },
    title: "Casos",
    you: "Com você",
    bruno: "Com Bruno Lima",
    nobody: "Sem responsável",
    assignedTwo: "2 casos atribuídos a Bruno Lima.",
    event: "Atribuído a Ana Souza",
  },
];

const exists = (browser, selector) => browser.execute((sel) => document.querySelector(sel) !== null, selector);

async function waitFor(browser, selector, what) {
  await browser.waitUntil(() => exists(browser, selector), { timeout: 20_000, interval: 100, timeoutMsg: what });
}

/** The ids of the inbox rows, top to bottom. */
const rows = (browser) => browser.execute(() => Array.from(document.querySelectorAll(".row")).map((r) => r.dataset.caseId));

async function rowsAre(browser, ids, what) {
  const want = [...ids].sort().join(",");
  await browser.waitUntil(async () => (await rows(browser)).sort().join(",") === want, { timeout: 20_000, interval: 100, timeoutMsg: what });
}

async function view(browser, id) {
  return browser.execute(() => document.querySelector('[data-testid="inbox-views"] input:checked')?.dataset.view);
}

const only = process.env.CASES_E2E_LANG;
for (const l of LANGUAGES.filter((x) => !only || x.lang === only)) {
  describe(`assignment (${l.lang})`, { timeout: 600_000 }, () => {
    let app;
    let agent;
    const opened = {};
    const shot = (name) => screenshot(app.browser, `assign-${name}-${l.lang}`);

    before(async () => {
      app = await launchApp({ env: { GTK_THEME: "Adwaita", ...l.env } });
      agent = await agentApi(app.browser, app.dataDir);
      const ok = await app.browser.executeAsync(
        (done) => window.__TAURI_INTERNALS__.invoke("settings_set_you", { you: { name: "Ana Souza", email: "ana@example.com" } }).then(() => done(true), (e) => done(e)),
      );
      assert.equal(ok, true, JSON.stringify(ok));
      for (const key of ["first", "second", "third"]) {
        opened[key] = (await agent.openCase({ conversation_id: `as-${key}-${l.lang}`, title: `Refund ${key}`, summary: "Charged twice." })).case;
      }
      await click(app.browser, 'nav button[data-nav="cases"]');
      await waitForText(app.browser, "h1", (t) => t === l.title, "the cases screen opens");
    });
    after(async () => {
      await app?.stop();
    });

    it("takes a case with t from the case view and names the person on it and its timeline", async () => {
      const { browser } = app;
      await click(browser, `.row[data-case-id="${opened.first.id}"]`);
      await waitForText(browser, '[data-testid="case-assignee"]', (t) => t.startsWith(l.nobody), "the case starts unassigned");
      await browser.keys("t");
      await waitForText(browser, '[data-testid="case-assignee"]', (t) => t.startsWith(l.you), "t takes it");
      await waitForText(browser, '[data-testid="timeline"] [data-kind="assigned"]', (t) => t.includes(l.event) && t.includes("Ana Souza"), "the timeline says who");
      await shot("01-taken");
      await browser.keys(Key.Escape);
      await waitFor(browser, `.row[data-case-id="${opened.first.id}"] [data-testid="row-assignee"]`, "the row shows the assignee");
      assert.equal(await textOf(browser, `.row[data-case-id="${opened.first.id}"] [data-testid="row-assignee"]`), "Ana Souza");
    });

    it("gives two picked cases to a colleague with the bulk Assign to…", async () => {
      const { browser } = app;
      for (const key of ["second", "third"]) await click(browser, `.row[data-case-id="${opened[key].id}"] [data-testid="pick"]`);
      await click(browser, '[data-testid="bulk-assign"]');
      await click(browser, '[data-testid="bulk-assign-name"]');
      for (const key of "Bruno Lima") await browser.keys(key);
      await shot("02-bulk-assign");
      await browser.keys(Key.Enter);
      await waitForText(browser, '[data-testid="inbox-notice"]', (t) => t === l.assignedTwo, "the bulk assign reports");
    });

    it("shows each case in Mine or Unassigned, cycling views with v", async () => {
      const { browser } = app;
      await rowsAre(browser, [opened.first.id, opened.second.id, opened.third.id], "All shows every case");
      await browser.keys("v");
      assert.equal(await view(browser), "mine");
      await rowsAre(browser, [opened.first.id], "Mine shows the case Ana took");
      await shot("03-mine");
      await browser.keys("v");
      assert.equal(await view(browser), "unassigned");
      await browser.waitUntil(async () => (await rows(browser)).length === 0, { timeout: 20_000, timeoutMsg: "nobody's cases: none" });
      await browser.keys("v");
      assert.equal(await view(browser), "all");
    });

    it("unassigns a colleague's case from the case view", async () => {
      const { browser } = app;
      await click(browser, `.row[data-case-id="${opened.second.id}"]`);
      await waitForText(browser, '[data-testid="case-assignee"]', (t) => t.startsWith(l.bruno), "the case is Bruno's");
      await click(browser, '[data-testid="unassign-case"]');
      await waitForText(browser, '[data-testid="case-assignee"]', (t) => t.startsWith(l.nobody), "unassigned");
      const seen = await agent.getCase(opened.second.id);
      assert.equal(seen.case.assignee, null, "the API sees the same");
      await shot("04-unassigned");
      await browser.keys(Key.Escape);
      await click(browser, '[data-testid="inbox-views"] [data-view-label="unassigned"]');
      await rowsAre(browser, [opened.second.id], "Unassigned shows it");
    });
  });
}
