// Several agents, one inbox, on the real window: a person gives one agent its
// own endpoint in Settings → AI agents with the keyboard only; a reply on that agent's case goes
// to its endpoint, signed with its secret, and never to the default one; the case shows its
// agent; switching the agent's guardrail off makes before-send pass and say so, and switching its
// cases off refuses its next case. In English and Brazilian Portuguese.
import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { Key } from "webdriverio";
import { click, launchApp, screenshot, textOf, waitForText } from "../support/harness.mjs";
import { agentApi, eventually, setEndpoint, startFakeEndpoint } from "../support/agent.mjs";

const LANGUAGES = [
  { lang: "en", env: { LANG: "en_US.UTF-8", LANGUAGE: "en_US" } },
  { lang: "pt-BR", env: { LANG: "pt_BR.UTF-8", LANGUAGE: "pt_BR" } },
];

const TEXT = {
  en: { settings: "Settings", cases: "Cases", saved: "Saved.", own: "Replies go to", guardrailOff: "Guardrail off", casesOff: "Cases off" },
  "pt-BR": {
    settings: "Configurações",
    cases: "Casos",
    saved: "Salvo.",
    own: "Respostas vão para",
    guardrailOff: "Proteção desligada",
    casesOff: "Casos desligados",
  },
};

const BILLING_SECRET = "whsec_c2tpbGxjYXNlLWJpbGxpbmctYm90LXNlY3JldA==";
const PROMISE = "Our billing team will get back to you tomorrow about the refund.";

const exists = (browser, selector) => browser.execute((sel) => document.querySelector(sel) !== null, selector);
const focusedId = (browser) => browser.execute(() => document.activeElement?.id);

async function waitFor(browser, selector, what, timeout = 20_000) {
  await browser.waitUntil(() => exists(browser, selector), { timeout, interval: 100, timeoutMsg: what });
}

/** Types `text` one key at a time (a key array would be sent as one chord). */
async function type(browser, text) {
  for (const key of text) await browser.keys(key);
}

/** POST /v1/cases answering whatever status comes back, for the refusal. */
async function openCaseRaw(browser, dataDir, body) {
  const shown = await textOf(browser, '[data-field="api"]');
  const base = shown.match(/http:\/\/127\.0\.0\.1:\d+/)[0];
  const token = readFileSync(join(dataDir, "api-token"), "utf8").trim();
  const answer = await fetch(`${base}/v1/cases`, {
    method: "POST",
    headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  return { status: answer.status, json: await answer.json() };
}

const refundCase = (conversation, agentId) => ({
  conversation_id: conversation,
  agent_id: agentId,
  title: "Refund for a double charge",
  summary: "The lead was charged twice for order 5521 and wants one charge refunded.",
  lead: { name: "Maria Souza", channel: "whatsapp" },
  reason: "policy_restriction",
});

async function openAgentsSection(browser, lang) {
  await click(browser, 'nav button[data-nav="settings"]');
  await waitForText(browser, "h1", (t) => t === TEXT[lang].settings, "settings open");
  await waitFor(browser, '[data-section="ai-agents"]', "the AI agents section is there");
  await browser.execute(() => document.querySelector('[data-section="ai-agents"]').scrollIntoView({ block: "start" }));
}

const only = process.env.CASES_E2E_LANG;
for (const { lang, env } of LANGUAGES.filter((l) => !only || l.lang === only)) {
  describe(`several agents (${lang})`, { timeout: 300_000 }, () => {
    let app;
    let fallback;
    let billing;
    let agent;
    const shot = (name) => screenshot(app.browser, `agents-${name}-${lang}`);

    before(async () => {
      fallback = await startFakeEndpoint();
      billing = await startFakeEndpoint(BILLING_SECRET);
      app = await launchApp({ env: { GTK_THEME: "Adwaita", ...env } });
      agent = await agentApi(app.browser, app.dataDir);
      setEndpoint(app.dataDir, fallback.url, { maxAttempts: 3 });
    });
    after(async () => {
      await app?.stop();
      fallback?.stop();
      billing?.stop();
    });

    it("gives an agent its own endpoint with the keyboard only", async () => {
      const { browser } = app;
      await openAgentsSection(browser, lang);
      await shot("01-none");
      await browser.execute(() => document.getElementById("agent-id").focus());
      await type(browser, "billing-bot");
      await browser.keys(Key.Tab);
      assert.equal(await focusedId(browser), "agent-url", "Tab goes from the id to its endpoint");
      await type(browser, "http://user:pw@127.0.0.1:9/x");
      await browser.keys(Key.Enter);
      await waitFor(browser, '[data-section="ai-agents"] [data-error="url"]', "a URL with credentials is refused next to it");
      await shot("02-refused");
      await browser.execute(() => document.getElementById("agent-url").focus());
      await browser.keys([Key.Ctrl, "a"]);
      await type(browser, billing.url);
      await browser.keys(Key.Tab);
      assert.equal(await focusedId(browser), "agent-secret");
      await type(browser, BILLING_SECRET);
      await browser.keys(Key.Enter);
      await waitForText(browser, '[data-section="ai-agents"] [role="status"]', (t) => t === TEXT[lang].saved, "saved");
      const row = await textOf(browser, '[data-agent="billing-bot"]');
      assert.ok(row.includes(`${TEXT[lang].own} ${billing.url}`), row);
      await shot("03-saved");
    });

    it("sends a reply on that agent's case to its endpoint, signed with its secret, and shows the agent", async () => {
      const { browser } = app;
      const { case: opened } = await agent.openCase(refundCase(`wa-billing-${lang}`, "billing-bot"));
      await click(browser, 'nav button[data-nav="cases"]');
      await waitForText(browser, "h1", (t) => t === TEXT[lang].cases, "cases open");
      await click(browser, `.row[data-case-id="${opened.id}"]`);
      await waitForText(browser, '[data-testid="case-agent"]', (t) => t === "billing-bot", "the case shows its agent");
      await click(browser, '[data-action="resolved"]');
      await (await browser.$("#reply-text")).setValue("Refunded the second charge.");
      await click(browser, '[data-testid="send"]');
      const delivered = await eventually(() => billing.forCase(opened.id)[0], "the reply reached the billing endpoint");
      assert.equal(delivered.body.action, "resolved");
      assert.equal(fallback.received.filter((r) => r.body.case?.id === opened.id).length, 0, "nothing went to the default endpoint");
      await waitFor(browser, '[data-delivery-state="delivered"]', "its delivery shows delivered");
      await shot("04-case-of-billing-bot");
    });

    it("passes every message of an agent whose guardrail is off, saying so, and vetoes the others", async () => {
      const { browser } = app;
      await openAgentsSection(browser, lang);
      await click(browser, '[data-agent="billing-bot"] [data-action="edit-agent"]');
      await browser.waitUntil(async () => (await focusedId(browser)) === "agent-url", { timeout: 5_000, timeoutMsg: "Edit puts the focus in the form" });
      await browser.execute(() => document.getElementById("agent-guardrail").focus());
      await browser.keys(Key.Space);
      await browser.keys(Key.Enter);
      await waitFor(browser, '[data-agent="billing-bot"] [data-badge="guardrail-off"]', "the agent shows its guardrail off");
      assert.equal(await textOf(browser, '[data-agent="billing-bot"] [data-badge="guardrail-off"]'), TEXT[lang].guardrailOff);
      await shot("05-guardrail-off");
      const off = await agent.beforeSend({ conversation_id: `wa-g-${lang}`, turn_id: "t1", message: PROMISE, agent_id: "billing-bot" });
      assert.equal(off.verdict, "pass");
      assert.equal(off.guardrail, "disabled");
      const on = await agent.beforeSend({ conversation_id: `wa-g2-${lang}`, turn_id: "t1", message: PROMISE, agent_id: "sales-bot" });
      assert.equal(on.verdict, "veto");
      assert.equal(on.guardrail, "enabled");
    });

    it("refuses a case from an agent whose cases are switched off", async () => {
      const { browser } = app;
      await click(browser, '[data-agent="billing-bot"] [data-action="edit-agent"]');
      await browser.execute(() => document.getElementById("agent-cases").focus());
      await browser.keys(Key.Space);
      await browser.keys(Key.Enter);
      await waitFor(browser, '[data-agent="billing-bot"] [data-badge="cases-off"]', "the agent shows its cases off");
      assert.equal(await textOf(browser, '[data-agent="billing-bot"] [data-badge="cases-off"]'), TEXT[lang].casesOff);
      const refused = await openCaseRaw(browser, app.dataDir, refundCase(`wa-off-${lang}`, "billing-bot"));
      assert.equal(refused.status, 403);
      assert.equal(refused.json.error.code, "agent_cases_disabled");
      assert.equal(refused.json.error.details.agent_id, "billing-bot");
      await shot("06-cases-off");
    });
  });
}
