// The team inbox on two real windows: two Skillcase processes, each with its own data
// directory, share one throw-away PostgreSQL (SKILLCASE_DATABASE_URL) that the spec starts and
// removes. Each person types their name in Settings → You, and Settings → Team inbox says which
// database is in use (Ana also tests connection strings there, saves another database for the
// next start and forgets it). The agent opens a case over window B's local API and it appears in
// both inboxes without a reload (A hears of it through LISTEN/NOTIFY); Ana takes it in window A
// with `t` and window B shows it is Ana's; Ana answers Resolved and the fake agent endpoint (a
// real HTTP server) receives exactly one signed webhook although both instances run a delivery
// worker on the same outbox. In English and Brazilian Portuguese.
import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { Key } from "webdriverio";
import { click, launchApp, screenshot, textOf, waitForText } from "../support/harness.mjs";
import { agentApi, eventually, setEndpoint, startFakeEndpoint } from "../support/agent.mjs";
import { startPostgres } from "../support/postgres.mjs";

const LANGUAGES = [
  {
    lang: "en",
    env: { LANG: "en_US.UTF-8", LANGUAGE: "en_US" },
    settings: "Settings",
    cases: "Cases",
    saved: "Saved.",
    inUse: "Cases live on the team database",
    source: "Chosen by SKILLCASE_DATABASE_URL while it is set.",
    testOk: /^PostgreSQL \d+\.\d+( \(.*\))? answered\. Cases there: 0\.$/,
    unreachable: "The test failed: the team database did not answer or refused the login.",
    savedRestart: "Saved. Restart Skillcase to open the team inbox. Restart now",
    forgotRestart: "Saved. Restart Skillcase to go back to this desktop's own inbox. Restart now",
    savedFor: "Saved for the next start:",
    title: "Refund above the agent's limit",
    summary: "The lead was charged twice for order 5521.",
    nobody: "Unassigned",
    you: "Assigned to you",
    ana: "Assigned to Ana Souza",
    resolvedLabel: "Note for the customer",
    answer: "Refund approved for the second charge on order 5521.",
  },
  {
    lang: "pt-BR",
    env: { LANG: "pt_BR.UTF-8", LANGUAGE: "pt_BR" },
    settings: "Configurações",
    cases: "Casos",
    saved: "Salvo.",
    inUse: "Os casos ficam no banco da equipe",
    source: "Escolhido por SKILLCASE_DATABASE_URL enquanto ela estiver definida.",
    testOk: /^O PostgreSQL \d+\.\d+( \(.*\))? respondeu\. Casos lá: 0\.$/,
    unreachable: "O teste falhou: o banco da equipe não respondeu ou recusou o acesso.",
    savedRestart: "Salvo. Reinicie o Skillcase para abrir a caixa da equipe. Reiniciar agora",
    forgotRestart: "Salvo. Reinicie o Skillcase para voltar à caixa deste computador. Reiniciar agora",
    savedFor: "Salvo para a próxima abertura:",
    title: "Estorno acima do limite do agente",
    summary: "A cliente foi cobrada duas vezes no pedido 5521.",
    nobody: "Sem responsável",
    you: "Com você",
    ana: "Com Ana Souza",
    resolvedLabel: "Nota para o cliente",
    answer: "Estorno aprovado para a segunda cobrança do pedido 5521.",
  },
];

const PEOPLE = {
  a: { name: "Ana Souza", email: "ana@example.com" },
  b: { name: "Bruno Lima", email: "bruno@example.com" },
};

const exists = (browser, selector) => browser.execute((sel) => document.querySelector(sel) !== null, selector);

async function waitFor(browser, selector, what, timeout = 20_000) {
  await browser.waitUntil(() => exists(browser, selector), { timeout, interval: 100, timeoutMsg: what });
}

/** Types `text` one key at a time, as a person does. */
async function typeKeys(browser, text) {
  for (const key of text) await browser.keys(key);
}

async function scrollTo(browser, selector) {
  await browser.execute((sel) => document.querySelector(sel).scrollIntoView({ block: "start" }), selector);
}

async function openSettings(browser, l) {
  await click(browser, 'nav button[data-nav="settings"]');
  await waitForText(browser, "h1", (t) => t === l.settings, "the Settings screen opens");
}

async function openCases(browser, l) {
  await click(browser, 'nav button[data-nav="cases"]');
  await waitForText(browser, "h1", (t) => t === l.cases, "the cases screen opens");
}

/** Settings → You: the person's name and e-mail, typed and saved with Enter. */
async function sayWhoYouAre(browser, l, person) {
  await waitFor(browser, "#you-name", "Settings → You is there");
  await scrollTo(browser, '[data-section="you"]');
  await click(browser, "#you-name");
  await typeKeys(browser, person.name);
  await browser.keys(Key.Tab);
  await typeKeys(browser, person.email);
  await browser.keys(Key.Enter);
  await waitForText(browser, '[data-section="you"] [role="status"]', (t) => t === l.saved, "Settings → You saves");
}

const only = process.env.CASES_E2E_LANG;
for (const l of LANGUAGES.filter((x) => !only || x.lang === only)) {
  describe(`team inbox on two windows (${l.lang})`, { timeout: 600_000 }, () => {
    let pg;
    let url;
    let endpoint;
    let a;
    let b;
    let agent;
    let opened;
    const shot = (app, name) => screenshot(app.browser, `team-${name}-${l.lang}`);
    const database = `team_${l.lang.replace("-", "_").toLowerCase()}`;
    const row = () => `.row[data-case-id="${opened.id}"]`;

    before(async () => {
      pg = await startPostgres();
      url = pg.createDatabase(database);
      endpoint = await startFakeEndpoint();
      const env = { GTK_THEME: "Adwaita", ...l.env, SKILLCASE_DATABASE_URL: url };
      a = await launchApp({ env });
      b = await launchApp({ env });
      agent = await agentApi(b.browser, b.dataDir);
      setEndpoint(a.dataDir, endpoint.url, { maxAttempts: 1, database: url });
    });
    after(async () => {
      // The cluster goes even when a window does not stop cleanly.
      try {
        await Promise.allSettled([a?.stop(), b?.stop()]);
      } finally {
        endpoint?.stop();
        pg?.stop();
      }
    });

    it("has each person say who they are, and Settings → Team inbox names the shared database", async () => {
      for (const [app, person] of [[a, PEOPLE.a], [b, PEOPLE.b]]) {
        await openSettings(app.browser, l);
        await sayWhoYouAre(app.browser, l, person);
        await waitFor(app.browser, '[data-testid="team-in-use"]', "Settings → Team inbox loads");
        assert.equal(await textOf(app.browser, '[data-testid="team-in-use"] p'), `${l.inUse} ${url}`);
        assert.equal(await textOf(app.browser, '[data-testid="team-url-in-use"]'), url);
        assert.equal(await textOf(app.browser, '[data-testid="team-source"]'), l.source);
        assert.equal(await textOf(app.browser, '[data-testid="team-problem"]'), null, "the team database opened");
      }
      await scrollTo(a.browser, '[data-section="team"]');
      await shot(a, "01-settings-team-inbox");
    });

    it("tests connection strings typed in Settings → Team inbox, saves another database for the next start and forgets it", async () => {
      const { browser } = a;
      const unreachable = `postgres://skillcase@127.0.0.1:${pg.port}/no_such_database`;
      const other = pg.createDatabase(`${database}_next`);
      await click(browser, "#team-url");
      await typeKeys(browser, unreachable);
      await click(browser, '[data-testid="team-test"]');
      await waitForText(browser, '[data-testid="team-error"] p', (t) => t === l.unreachable, "a missing database is refused, in the window's language");
      assert.equal(await browser.execute(() => document.querySelector('[data-testid="team-error"]').dataset.code), "team_db_unreachable");
      const detail = await textOf(browser, '[data-testid="team-error-detail"]');
      assert.ok(detail.includes('"no_such_database" does not exist'), `the server's own words stay below: ${detail}`);
      await scrollTo(browser, '[data-section="team"]');
      await shot(a, "02-settings-team-test-failed");
      await click(browser, "#team-url");
      await browser.keys([Key.Ctrl, "a"]);
      await browser.keys(Key.Backspace);
      await typeKeys(browser, other);
      await click(browser, '[data-testid="team-test"]');
      await waitForText(browser, '[data-testid="team-test-result"]', (t) => l.testOk.test(t), "Test reaches the other database");
      assert.equal(await textOf(browser, '[data-testid="team-error"]'), null);
      await click(browser, '[data-testid="team-save"]');
      await waitForText(browser, '[data-testid="team-restart-note"]', (t) => t === l.savedRestart, "saved for the next start");
      assert.equal(await browser.execute(() => document.getElementById("team-url").value), "", "the field empties");
      assert.equal(await textOf(browser, '[data-testid="team-saved"]'), `${l.savedFor} ${other}`);
      assert.equal(await textOf(browser, '[data-testid="team-url-in-use"]'), url, "this run stays on the shared database");
      await scrollTo(browser, '[data-section="team"]');
      await shot(a, "03-settings-team-saved");
      await click(browser, '[data-testid="team-forget"]');
      await waitForText(browser, '[data-testid="team-restart-note"]', (t) => t === l.forgotRestart, "forgotten for the next start");
      assert.equal(await exists(browser, '[data-testid="team-saved"]'), false);
      assert.equal(await exists(browser, '[data-testid="team-forget"]'), false);
      for (const app of [a, b]) await openCases(app.browser, l);
    });

    it("shows a case the agent opens in both windows' inboxes without a reload", async () => {
      opened = (
        await agent.openCase({
          conversation_id: `team-${l.lang}`,
          title: l.title,
          summary: l.summary,
          lead: { name: "Maria Souza", channel: "whatsapp", contact: "+55 11 91234-5678" },
        })
      ).case;
      for (const app of [b, a]) {
        await waitFor(app.browser, row(), `the new case appears in ${app === a ? "A" : "B"}'s inbox live`);
        assert.equal(await exists(app.browser, `${row()} [data-testid="row-assignee"]`), false, "nobody has it yet");
      }
      await shot(a, "04-opened-in-a");
    });

    it("A takes it with t and B shows it is Ana's, in the inbox and on the case", async () => {
      await click(a.browser, row());
      await waitForText(a.browser, '[data-testid="case-assignee"]', (t) => t.startsWith(l.nobody), "A sees it unassigned");
      await a.browser.keys("t");
      await waitForText(a.browser, '[data-testid="case-assignee"]', (t) => t.startsWith(l.you), "t takes it in A");
      await waitFor(b.browser, `${row()} [data-testid="row-assignee"]`, "B's inbox shows the assignee live", 30_000);
      assert.equal(await textOf(b.browser, `${row()} [data-testid="row-assignee"]`), PEOPLE.a.name);
      await shot(b, "05-inbox-assignee");
      await click(b.browser, row());
      await waitForText(b.browser, '[data-testid="case-assignee"]', (t) => t.startsWith(l.ana), "B's case view names Ana");
      await waitForText(b.browser, '[data-testid="timeline"] [data-kind="assigned"]', (t) => t.includes(PEOPLE.a.name), "B's timeline says who");
      await shot(b, "06-case-assignee");
    });

    it("A answers Resolved: the agent endpoint gets exactly one signed webhook and B sees it resolved", async () => {
      const { browser } = a;
      await click(browser, '[data-action="resolved"]');
      await waitForText(browser, '[data-testid="reply-label"]', (t) => t === l.resolvedLabel, "the Resolved label");
      await click(browser, "#reply-text");
      await typeKeys(browser, l.answer);
      await click(browser, '[data-testid="send"]');
      const [delivered] = await eventually(() => endpoint.forCase(opened.id).length > 0 && endpoint.forCase(opened.id), "the reply reaches the endpoint");
      assert.equal(delivered.body.action, "resolved");
      assert.equal(delivered.body.text, l.answer);
      assert.equal(delivered.body.case.status, "resolved");
      await waitFor(browser, '[data-testid="case-detail"][data-status="resolved"]', "A shows it resolved");
      await waitFor(b.browser, '[data-testid="case-detail"][data-status="resolved"]', "B shows it resolved live");
      await b.browser.waitUntil(
        () => b.browser.execute(() => document.querySelectorAll('[data-delivery-state="delivered"]').length === 1),
        { timeout: 20_000, timeoutMsg: "B shows the delivery delivered" },
      );
      // Both workers poll the same outbox: give the second one time to send it again if it would.
      await new Promise((r) => setTimeout(r, 5_000));
      assert.equal(endpoint.received.length, 1, JSON.stringify(endpoint.received.map((r) => r.body.type ?? r.body.action)));
      assert.equal(endpoint.received[0].signed, true);
      await shot(b, "07-resolved-in-b");
    });
  });
}
