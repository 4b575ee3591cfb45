// The team inbox with each person's own login, on two real windows. The spec starts a throw-away
// PostgreSQL, gives the team database an owner that may create roles, and has that owner run
// `skillcase team init` and `team add-person` (the CLI binary) for Ana (a member) and Bruno (an
// admin). Window A logs in as Ana, window B as Bruno. Ana's Settings says who she is signed in
// as and shows the admins' settings read-only with the reason; Bruno's does not. The agent opens
// a case over B's local API; Ana opens it, and it stays unread for Bruno until he opens it too; Ana answers Resolved
// without ever typing her name, and both timelines name her from her login. Bruno's desktop (an
// admin's) delivers the reply: the fake agent endpoint gets one signed webhook. In English and
// Brazilian Portuguese.
import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { join } from "node:path";
import { click, launchApp, ROOT, screenshot, textOf, waitForText } from "../support/harness.mjs";
import { agentApi, eventually, setEndpoint, startFakeEndpoint } from "../support/agent.mjs";
import { startPostgres } from "../support/postgres.mjs";

const CLI = process.env.SKILLCASE_CLI_BINARY ?? join(ROOT, "target/debug/skillcase");

const LANGUAGES = [
  {
    lang: "en",
    env: { LANG: "en_US.UTF-8", LANGUAGE: "en_US" },
    settings: "Settings",
    cases: "Cases",
    signedIn: (login) => `Signed in as Ana Lima (${login}), member.`,
    locked: "Only the team's admins can change this. You are signed in as Ana Lima, a member.",
    title: "Charged twice for order 6610",
    summary: "The customer was charged twice and wants one charge back.",
    resolvedLabel: "Note for the customer",
    answer: "The second charge on order 6610 is refunded.",
    broken: "This case's history was changed outside Skillcase",
  },
  {
    lang: "pt-BR",
    env: { LANG: "pt_BR.UTF-8", LANGUAGE: "pt_BR" },
    settings: "Configurações",
    cases: "Casos",
    signedIn: (login) => `Conectado como Ana Lima (${login}), membro.`,
    locked: "Só os administradores da equipe podem mudar isto. Você entrou como Ana Lima, membro da equipe.",
    title: "Cobrado duas vezes no pedido 6610",
    summary: "O cliente foi cobrado duas vezes e quer uma cobrança de volta.",
    resolvedLabel: "Nota para o cliente",
    answer: "A segunda cobrança do pedido 6610 foi estornada.",
    broken: "O histórico deste caso foi alterado fora do Skillcase",
  },
];

const exists = (browser, selector) => browser.execute((sel) => document.querySelector(sel) !== null, selector);

async function waitFor(browser, selector, what, timeout = 20_000) {
  await browser.waitUntil(() => exists(browser, selector), { timeout, interval: 100, timeoutMsg: what });
}

async function typeKeys(browser, text) {
  for (const key of text) await browser.keys(key);
}

async function scrollTo(browser, selector) {
  await browser.execute((sel) => document.querySelector(sel).scrollIntoView({ block: "start" }), selector);
}

async function openScreen(browser, nav, title) {
  await click(browser, `nav button[data-nav="${nav}"]`);
  await waitForText(browser, "h1", (t) => t === title, `the ${nav} screen opens`);
}

/** `skillcase --database URL team ARGS` as the database's owner; its output. */
function team(url, ...args) {
  return execFileSync(CLI, ["--database", url, "team", ...args], { encoding: "utf8" });
}

/** The connection string `team add-person` printed for the person it added. */
function addPerson(owner, ...args) {
  return team(owner, "add-person", ...args).trim().split("\n").at(-1);
}

const only = process.env.CASES_E2E_LANG;
for (const l of LANGUAGES.filter((x) => !only || x.lang === only)) {
  describe(`team inbox with a login per person (${l.lang})`, { timeout: 600_000 }, () => {
    let pg;
    let endpoint;
    let a;
    let b;
    let agent;
    let opened;
    let anaLogin;
    const shot = (app, name) => screenshot(app.browser, `team-roles-${name}-${l.lang}`);
    const database = `roles_${l.lang.replace("-", "_").toLowerCase()}`;
    const row = () => `.row[data-case-id="${opened.id}"]`;

    before(async () => {
      pg = await startPostgres();
      const superuser = pg.createDatabase(database);
      pg.psql("postgres", `CREATE ROLE ${database}_owner LOGIN CREATEROLE; ALTER DATABASE ${database} OWNER TO ${database}_owner`);
      const owner = superuser.replace("postgres://skillcase@", `postgres://${database}_owner@`);
      team(owner, "init");
      anaLogin = `${database}_ana`;
      const ana = addPerson(owner, "Ana Lima", "--login", anaLogin);
      const bruno = addPerson(owner, "Bruno Costa", "--login", `${database}_bruno`, "--admin");
      endpoint = await startFakeEndpoint();
      a = await launchApp({ env: { GTK_THEME: "Adwaita", ...l.env, SKILLCASE_DATABASE_URL: ana } });
      b = await launchApp({ env: { GTK_THEME: "Adwaita", ...l.env, SKILLCASE_DATABASE_URL: bruno } });
      agent = await agentApi(b.browser, b.dataDir);
      setEndpoint(b.dataDir, endpoint.url, { maxAttempts: 1, database: bruno });
    });
    after(async () => {
      try {
        await Promise.allSettled([a?.stop(), b?.stop()]);
      } finally {
        endpoint?.stop();
        pg?.stop();
      }
    });

    it("tells Ana who she is signed in as and shows her the admins' settings read-only, with the reason", async () => {
      const { browser } = a;
      await openScreen(browser, "settings", l.settings);
      await waitFor(browser, '[data-testid="team-person"]', "Settings → Team inbox names the person");
      assert.equal(await textOf(browser, '[data-testid="team-person"]'), l.signedIn(anaLogin));
      assert.equal(await textOf(browser, '[data-testid="endpoint-locked"]'), l.locked);
      const disabled = await browser.execute(() =>
        [...document.querySelectorAll('[data-section="endpoint"] input, [data-section="endpoint"] button')].every((c) => c.matches(":disabled")),
      );
      assert.equal(disabled, true, "every field of the endpoint is disabled for a member");
      await scrollTo(browser, '[data-section="endpoint"]');
      await shot(a, "01-member-endpoint-locked");
      await scrollTo(browser, '[data-section="team"]');
      await shot(a, "02-member-signed-in");

      await openScreen(b.browser, "settings", l.settings);
      await waitFor(b.browser, '[data-testid="team-person"]', "Bruno's Settings names him");
      assert.equal(await exists(b.browser, '[data-testid="endpoint-locked"]'), false, "an admin may change the endpoint");
      for (const app of [a, b]) await openScreen(app.browser, "cases", l.cases);
    });

    it("keeps what Ana opened unread for Bruno", async () => {
      opened = (
        await agent.openCase({ conversation_id: `roles-${l.lang}`, title: l.title, summary: l.summary, lead: { name: "Maria Souza" } })
      ).case;
      for (const app of [a, b]) await waitFor(app.browser, row(), "the new case appears in both inboxes live");
      await click(a.browser, row());
      await waitFor(a.browser, `${row()}[data-unread="false"]`, "Ana's inbox shows it read");
      // Give Bruno's window the change Ana's read made, were it shared.
      await new Promise((r) => setTimeout(r, 2_000));
      assert.equal(await b.browser.execute((sel) => document.querySelector(sel).dataset.unread, row()), "true");
      await shot(b, "03-still-unread-for-bruno");
      await click(b.browser, row());
      await waitFor(b.browser, '[data-testid="case-detail"]', "Bruno opens the case too");
    });

    it("names Ana from her login on both timelines when she answers, and Bruno's desktop delivers it once", async () => {
      const { browser } = a;
      await click(browser, '[data-action="resolved"]');
      await waitForText(browser, '[data-testid="reply-label"]', (t) => t === l.resolvedLabel, "the Resolved label");
      await click(browser, "#reply-text");
      await typeKeys(browser, l.answer);
      await click(browser, '[data-testid="send"]');
      const [delivered] = await eventually(() => endpoint.forCase(opened.id).length > 0 && endpoint.forCase(opened.id), "the reply reaches the endpoint");
      assert.equal(delivered.body.text, l.answer);
      assert.equal(delivered.signed, true);
      for (const app of [a, b]) {
        await waitForText(app.browser, '[data-testid="timeline"] [data-kind="human_replied"]', (t) => t.includes("Ana Lima"), "the timeline names Ana");
      }
      await shot(b, "04-bruno-sees-ana-answered");
      await new Promise((r) => setTimeout(r, 3_000));
      assert.equal(endpoint.forCase(opened.id).length, 1);
    });

    it("warns on the case when its history is rewritten behind everyone's back, even by the owner", async () => {
      assert.equal(await exists(b.browser, '[data-testid="history-broken"]'), false, "an intact history warns of nothing");
      pg.psql(
        database,
        "ALTER TABLE case_events DISABLE TRIGGER case_events_no_update; " +
          `UPDATE case_events SET payload = replace(payload, '6610', '9999') WHERE case_id = '${opened.id}' AND kind = 'human_replied'; ` +
          "ALTER TABLE case_events ENABLE TRIGGER case_events_no_update;",
      );
      await click(b.browser, '[data-testid="back"]');
      await click(b.browser, 'button[data-tab="closed"]');
      await waitFor(b.browser, row(), "the resolved case is in Bruno's Closed tab");
      await click(b.browser, row());
      const warned = await waitForText(b.browser, '[data-testid="history-broken"]', (t) => t.includes(l.broken), "the case view warns");
      assert.ok(warned.includes("the event was changed after it was written"), warned);
      await shot(b, "05-history-broken");
    });
  });
}
