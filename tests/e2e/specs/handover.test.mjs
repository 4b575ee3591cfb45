// Why the AI handed over on the real window: the agent opens cases with a
// `reason` over the real local API (and one without, as an agent written before reasons), the
// person sees the reason on the rows and the case, filters the inbox by it with the keyboard,
// answers, and opens the report (`r`) to read the right figures — cases per reason, answered,
// median time to the first reply, reopened — in English and Brazilian Portuguese, light and dark.
import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { Key } from "webdriverio";
import { click, launchApp, screenshot, textOf, waitForText } from "../support/harness.mjs";
import { agentApi, eventually, setEndpoint, startFakeEndpoint } from "../support/agent.mjs";

const LANGUAGES = [
  { lang: "en", env: { LANG: "en_US.UTF-8", LANGUAGE: "en_US" } },
  { lang: "pt-BR", env: { LANG: "pt_BR.UTF-8", LANGUAGE: "pt_BR" } },
];

const TEXT = {
  en: {
    title: "Cases",
    policy: "Policy restriction",
    reportTitle: "Why the AI handed over",
    noReply: "no answer yet",
    reopenedHelp: "Reopened: the same conversation already had a case that was resolved",
  },
  "pt-BR": {
    title: "Casos",
    policy: "Restrição de política",
    reportTitle: "Por que a IA repassou",
    noReply: "ainda sem resposta",
    reopenedHelp: "Reaberto: a mesma conversa já tinha um caso resolvido",
  },
};

function handover(conversationId, reason, title) {
  const body = {
    conversation_id: conversationId,
    title,
    summary: "The lead needs a person for this.",
    lead: { name: "Clara Mendes", channel: "whatsapp" },
  };
  return reason ? { ...body, reason } : body;
}

const exists = (browser, selector) => browser.execute((sel) => document.querySelector(sel) !== null, selector);

async function waitFor(browser, selector, what) {
  await browser.waitUntil(() => exists(browser, selector), { timeout: 20_000, interval: 100, timeoutMsg: what });
}

async function waitGone(browser, selector, what) {
  await browser.waitUntil(async () => !(await exists(browser, selector)), { timeout: 20_000, interval: 100, timeoutMsg: what });
}

/** The cells of the report's row for `reason` (`all` for the overall row). */
function reportRow(browser, reason) {
  return browser.execute(
    (r) =>
      Array.from(document.querySelectorAll(`[data-testid="report-table"] tr[data-reason="${r}"] td`)).map((td) =>
        td.textContent.replace(/\s+/g, " ").trim(),
      ),
    reason,
  );
}

/** Esc until the inbox shows again (the first may only leave a field). */
async function escapeToInbox(browser) {
  for (let i = 0; i < 3 && (await exists(browser, '[data-testid="case-detail"], [data-testid="case-report"]')); i++) {
    await browser.keys(Key.Escape);
  }
  await waitGone(browser, '[data-testid="case-detail"], [data-testid="case-report"]', "Esc goes back to the inbox");
}

const only = process.env.CASES_E2E_LANG;
for (const { lang, env } of LANGUAGES.filter((l) => !only || l.lang === only)) {
  describe(`why the AI handed over (${lang})`, { timeout: 600_000 }, () => {
    let app;
    let endpoint;
    let agent;
    const words = TEXT[lang];
    const shot = (name) => screenshot(app.browser, `handover-${name}-${lang}`);
    const opened = {};

    before(async () => {
      endpoint = await startFakeEndpoint();
      app = await launchApp({ env: { GTK_THEME: "Adwaita", ...env } });
      agent = await agentApi(app.browser, app.dataDir);
      setEndpoint(app.dataDir, endpoint.url, { maxAttempts: 1 });
      await click(app.browser, 'nav button[data-nav="cases"]');
      await waitForText(app.browser, "h1", (t) => t === words.title, "the cases screen opens");
    });
    after(async () => {
      await app?.stop();
      endpoint?.stop();
    });

    it("takes each case's reason from the agent, refuses one not in the list, and shows it on the rows and the case", async () => {
      const { browser } = app;
      for (const [key, reason] of [
        ["policyA", "policy_restriction"],
        ["tool", "tool_failure"],
        ["policyB", "policy_restriction"],
        ["back", "customer_request"],
      ]) {
        opened[key] = (await agent.openCase(handover(`hr-${key}-${lang}`, reason, `Handover ${key}`))).case;
        assert.equal(opened[key].reason, reason);
      }
      opened.old = (await agent.openCase(handover(`hr-old-${lang}`, null, "Handover old agent"))).case;
      assert.equal(opened.old.reason, "not_stated", "an agent that sends no reason still opens its case");
      await assert.rejects(agent.openCase(handover(`hr-typo-${lang}`, "policy", "Typo")), /422: .*"code":"invalid_reason"/);
      await assert.rejects(
        agent.openCase(handover(`hr-claim-${lang}`, "guardrail_autofallback", "Claim")),
        /422: .*"code":"invalid_reason"/,
      );

      const row = (c) => `.row[data-case-id="${c.id}"]`;
      await waitFor(browser, row(opened.old), "every case reaches the inbox");
      assert.equal(await textOf(browser, `${row(opened.policyA)} [data-reason="policy_restriction"]`), words.policy);
      assert.equal(await exists(browser, `${row(opened.old)} [data-reason]`), false, "no tag when no reason was stated");
      assert.equal(await browser.execute(() => document.querySelectorAll(".row").length), 5, "the refused ones opened nothing");
      await shot("01-inbox-with-reasons");

      await click(browser, row(opened.policyA));
      await waitFor(browser, '[data-testid="case-reason"][data-reason="policy_restriction"]', "the case names its reason");
      assert.ok((await textOf(browser, '[data-testid="case-reason"]')).endsWith(words.policy));
      await shot("02-case-with-reason");
      await escapeToInbox(browser);
    });

    it("filters the inbox by reason with the keyboard, then answers the case by keyboard", async () => {
      const { browser } = app;
      await browser.keys("/");
      assert.equal(await browser.execute(() => document.activeElement?.id), "case-search", "/ focuses the search");
      await browser.keys(Key.Tab);
      assert.equal(await browser.execute(() => document.activeElement?.dataset.filter), "status", "Tab reaches the status filter");
      await browser.keys(Key.Tab);
      assert.equal(await browser.execute(() => document.activeElement?.dataset.filter), "reason", "Tab reaches the reason filter");
      // Any reason → customer_request → missing_knowledge → unsupported_request → policy_restriction.
      for (let i = 0; i < 4; i++) await browser.keys(Key.ArrowDown);
      await browser.waitUntil(
        () => browser.execute(() => document.querySelector('select[data-filter="reason"]').value === "policy_restriction"),
        { timeout: 5_000, timeoutMsg: "the arrow keys pick Policy restriction" },
      );
      await browser.waitUntil(
        () =>
          browser.execute(() => {
            const rows = Array.from(document.querySelectorAll(".row"));
            return rows.length === 2 && rows.every((r) => r.querySelector('[data-reason="policy_restriction"]'));
          }),
        { timeout: 20_000, timeoutMsg: "the filter keeps the two policy cases only" },
      );
      await shot("03-filtered-by-reason");
      await browser.keys(Key.Escape);
      assert.notEqual(await browser.execute(() => document.activeElement?.dataset.filter), "reason", "Esc leaves the filter");

      await browser.keys(Key.Enter);
      await waitFor(browser, '[data-testid="case-reason"][data-reason="policy_restriction"]', "Enter opens a policy case");
      const answered = await browser.execute(() => document.querySelector('[data-testid="case-detail"]').dataset.caseId);
      await browser.keys("2");
      await (await browser.$("#reply-text")).addValue("Which order is it?");
      await browser.keys([Key.Ctrl, Key.Enter]);
      await eventually(() => endpoint.forCase(answered).length === 1, "Ctrl+Enter sends the answer");
      await escapeToInbox(browser);

      // The person resolves the customer_request case; the agent then opens a new case in the same
      // conversation: the customer came back, so that case counts as reopened.
      await browser.keys("/");
      await browser.keys(Key.Tab);
      await browser.keys(Key.Tab);
      for (let i = 0; i < 4; i++) await browser.keys(Key.ArrowUp);
      await browser.keys(Key.Escape);
      await waitFor(browser, `.row[data-case-id="${opened.back.id}"]`, "Any reason shows every case again");
      await click(browser, `.row[data-case-id="${opened.back.id}"]`);
      await waitFor(browser, '[data-testid="case-reason"][data-reason="customer_request"]', "the customer request opens");
      await browser.keys("1");
      await (await browser.$("#reply-text")).addValue("Done: the exchange was approved.");
      await browser.keys([Key.Ctrl, Key.Enter]);
      await eventually(() => endpoint.forCase(opened.back.id).length === 1, "the resolution is sent");
      await waitFor(browser, '[data-testid="case-detail"][data-status="resolved"]', "the case is resolved");
      await escapeToInbox(browser);
      opened.again = (await agent.openCase(handover(`hr-back-${lang}`, "customer_request", "Handover came back"))).case;
      assert.notEqual(opened.again.id, opened.back.id, "a new case, not the resolved one");
      await waitFor(browser, `.row[data-case-id="${opened.again.id}"]`, "the new case reaches the inbox");
    });

    it("opens the report with r and shows the figures of the cases just handled", async () => {
      const { browser } = app;
      await browser.execute(() => document.activeElement?.blur());
      await browser.keys("r");
      await waitForText(browser, '[data-testid="report-title"]', (t) => t === words.reportTitle, "r opens the report");
      await waitForText(browser, '[data-testid="case-report"]', (t) => t.includes(words.reopenedHelp.slice(0, 12)), "the table arrives");
      // Six cases this week: two policy (one answered), the tool failure, two customer requests
      // (the first resolved, the second reopened), and the old agent's.
      // Each answer came within a minute or so of its case, however loaded the machine is.
      const quick = (cells) => cells.map((c, i) => (i === 2 && /^(< 1 min|[1-5] min)$/.test(c) ? "quick" : c));
      assert.deepEqual(quick(await reportRow(browser, "policy_restriction")), ["2", "1", "quick", "0"]);
      assert.deepEqual(await reportRow(browser, "tool_failure"), ["1", "0", words.noReply, "0"]);
      assert.deepEqual(quick(await reportRow(browser, "customer_request")), ["2", "1", "quick", "1"]);
      assert.deepEqual(await reportRow(browser, "not_stated"), ["1", "0", words.noReply, "0"]);
      assert.deepEqual(quick(await reportRow(browser, "all")), ["6", "2", "quick", "1"]);
      const lastWeek = await browser.execute(() => {
        const bars = document.querySelectorAll('[data-testid="reason-chart"] g[data-week]');
        return bars[bars.length - 1].dataset.total;
      });
      assert.equal(lastWeek, "6", "this week's bar holds the six cases");
      assert.ok((await textOf(browser, '[data-testid="report-help"]')).includes(words.reopenedHelp), "the help defines reopened");
      await shot("04-report");

      await browser.keys(Key.Escape);
      await waitGone(browser, '[data-testid="case-report"]', "Esc closes the report");
      assert.equal(await browser.execute(() => document.activeElement?.id), "open-report", "the focus returns to the Report button");
      await browser.keys(Key.Enter);
      await waitFor(browser, '[data-testid="case-report"]', "Enter on the focused Report button opens it again");
      await escapeToInbox(browser);
    });

    it("draws the report in the dark theme", async () => {
      const { browser } = app;
      await click(browser, 'nav button[data-nav="settings"]');
      await click(browser, 'input[name="theme"][value="dark"] + span');
      await browser.waitUntil(
        async () => (await browser.execute(() => getComputedStyle(document.body).backgroundColor)) === "rgb(21, 25, 29)",
        { timeout: 5000, timeoutMsg: "the body turns dark" },
      );
      await click(browser, 'nav button[data-nav="cases"]');
      await waitForText(browser, "h1", (t) => t === words.title, "back on the cases screen");
      await shot("05-inbox-dark");
      await browser.execute(() => document.activeElement?.blur());
      await browser.keys("r");
      await waitFor(browser, '[data-testid="report-table"] tr[data-reason="all"]', "the report opens in the dark");
      await shot("06-report-dark");
      await escapeToInbox(browser);
    });
  });
}
