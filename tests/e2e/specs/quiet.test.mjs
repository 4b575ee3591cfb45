// When the customer goes quiet, on the real window: the person turns on the
// reminder and the auto-close in Settings with the keyboard only, a case waits on the customer,
// the test moves its wait into the past in the app's own SQLite file, and the app's job sends the
// signed `case.reminder` to the fake agent endpoint and puts it on the timeline, then closes the
// case as unresponsive and tells the agent with `case.closed`. In English and Brazilian Portuguese.
import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { join } from "node:path";
import { Key } from "webdriverio";
import { click, launchApp, screenshot, textOf, waitForText } from "../support/harness.mjs";
import { agentApi, eventually, setEndpoint, startFakeEndpoint } from "../support/agent.mjs";

const LANGUAGES = [
  { lang: "en", env: { LANG: "en_US.UTF-8", LANGUAGE: "en_US" } },
  { lang: "pt-BR", env: { LANG: "pt_BR.UTF-8", LANGUAGE: "pt_BR" } },
];

const TEXT = {
  en: {
    settings: "Settings",
    cases: "Cases",
    saved: "Saved.",
    remindAt: "Reminder to the customer at",
    closeAt: "Closes at",
    reminded: "Reminder sent",
    reminderEvent: "Customer quiet: the agent was asked to remind them",
    closedEvent: "Closed automatically: the customer did not answer",
  },
  "pt-BR": {
    settings: "Configurações",
    cases: "Casos",
    saved: "Salvo.",
    remindAt: "Lembrete ao cliente em",
    closeAt: "Encerra em",
    reminded: "Lembrete enviado",
    reminderEvent: "Cliente em silêncio: o agente foi avisado para lembrá-lo",
    closedEvent: "Encerrado automaticamente: o cliente não respondeu",
  },
};

const REMINDER_INSTRUCTION =
  "The customer has not answered what they were asked (in `asked`). Send them one short, friendly reminder about exactly that, in your own words. Promise nothing (no times, no outcomes) and send no further reminders; when they answer, call provide-update on this case with their answer.";

/** Runs one statement on the app's database from a second connection (WAL, busy timeout). */
function sql(dataDir, statement, ...args) {
  const script =
    "import sqlite3, sys\n" +
    "c = sqlite3.connect(sys.argv[1], timeout=10)\n" +
    "c.execute(sys.argv[2], sys.argv[3:])\n" +
    "c.commit()\n";
  execFileSync("python3", ["-c", script, join(dataDir, "skillcase.sqlite3"), statement, ...args]);
}

const exists = (browser, selector) => browser.execute((sel) => document.querySelector(sel) !== null, selector);

async function waitFor(browser, selector, what, timeout = 20_000) {
  await browser.waitUntil(() => exists(browser, selector), { timeout, interval: 100, timeoutMsg: what });
}

const focusedId = (browser) => browser.execute(() => document.activeElement?.id);

const only = process.env.CASES_E2E_LANG;
for (const { lang, env } of LANGUAGES.filter((l) => !only || l.lang === only)) {
  describe(`quiet customers (${lang})`, { timeout: 300_000 }, () => {
    let app;
    let endpoint;
    let agent;
    const shot = (name) => screenshot(app.browser, `quiet-${name}-${lang}`);

    before(async () => {
      endpoint = await startFakeEndpoint();
      app = await launchApp({ env: { GTK_THEME: "Adwaita", SKILLCASE_QUIET_POLL_SECS: "1", ...env } });
      agent = await agentApi(app.browser, app.dataDir);
      setEndpoint(app.dataDir, endpoint.url, { maxAttempts: 3 });
    });
    after(async () => {
      await app?.stop();
      endpoint?.stop();
    });

    it("turns on the reminder after 1 h and the close 2 h later with the keyboard only", async () => {
      const { browser } = app;
      await click(browser, 'nav button[data-nav="settings"]');
      await waitForText(browser, "h1", (t) => t === TEXT[lang].settings, "settings open");
      await waitFor(browser, '[data-section="quiet"]', "the quiet customers section is there");
      await browser.execute(() => document.querySelector('[data-section="quiet"]').scrollIntoView({ block: "start" }));
      await shot("01-settings-off");
      assert.equal(await browser.execute(() => document.getElementById("quiet-remind-after").disabled), true, "off by default");

      await browser.execute(() => document.getElementById("quiet-remind").focus());
      await browser.keys(Key.Space);
      await browser.keys(Key.Tab);
      assert.equal(await focusedId(browser), "quiet-remind-after", "Tab reaches the delay once it is on");
      await browser.keys([Key.Ctrl, "a"]);
      await browser.keys("1".split(""));
      await browser.keys(Key.Tab);
      assert.equal(await focusedId(browser), "quiet-remind-after-unit", "then its unit");
      await browser.keys(Key.Tab);
      assert.equal(await focusedId(browser), "quiet-close");
      await browser.keys(Key.Space);
      await browser.keys(Key.Tab);
      assert.equal(await focusedId(browser), "quiet-close-after");
      await browser.keys([Key.Ctrl, "a"]);
      await browser.keys("0".split(""));
      await browser.keys(Key.Enter);
      await waitFor(browser, '[data-error="close_after_minutes"]', "a zero delay is refused next to its field");
      await shot("02-settings-refused");
      await browser.keys([Key.Ctrl, "a"]);
      await browser.keys("2".split(""));
      await browser.keys(Key.Enter);
      await waitForText(browser, '[data-section="quiet"] [role="status"]', (t) => t === TEXT[lang].saved, "saved");
      await shot("03-settings-saved");
    });

    it("reminds the agent once the customer is quiet past the first delay, then closes the case", async () => {
      const { browser } = app;
      const { case: opened } = await agent.openCase({
        conversation_id: `wa-quiet-${lang}`,
        title: "Refund for a double charge",
        summary: "The lead was charged twice for order 5521 and wants one charge refunded.",
        lead: { name: "Maria Souza", channel: "whatsapp" },
      });
      await click(browser, 'nav button[data-nav="cases"]');
      await waitForText(browser, "h1", (t) => t === TEXT[lang].cases, "cases open");
      await click(browser, `.row[data-case-id="${opened.id}"]`);
      await click(browser, '[data-action="need_lead_info"]');
      await (await browser.$("#reply-text")).setValue("Which card was charged twice?");
      await click(browser, '[data-testid="send"]');
      await waitFor(browser, '[data-testid="case-detail"][data-status="awaiting_lead"]', "the case waits on the customer");
      await waitForText(browser, '[data-quiet="remind"]', (t) => t.startsWith(TEXT[lang].remindAt), "the case says when the reminder goes");
      await waitForText(browser, '[data-quiet="close"]', (t) => t.startsWith(TEXT[lang].closeAt), "and when it closes");
      await shot("04-case-waiting-plan");
      await eventually(() => endpoint.forCase(opened.id).length === 1, "the question reached the agent");

      sql(app.dataDir, "UPDATE cases SET waiting_since = strftime('%Y-%m-%dT%H:%M:%fZ', 'now', '-61 minutes') WHERE id = ?", opened.id);
      const reminder = await eventually(
        () => endpoint.forCase(opened.id).find((r) => r.body.type === "case.reminder"),
        "the job sends the reminder",
      );
      assert.ok(reminder.signed, "the reminder is signed");
      assert.equal(reminder.id, reminder.body.id, "webhook-id is the delivery id");
      assert.equal(reminder.body.asked, "Which card was charged twice?");
      assert.equal(reminder.body.case.status, "awaiting_lead");
      assert.equal(reminder.body.instruction, REMINDER_INSTRUCTION);
      await waitForText(browser, '[data-kind="reminder_sent"]', (t) => t.includes(TEXT[lang].reminderEvent), "the reminder is on the timeline");
      await waitForText(browser, '[data-quiet="reminded"]', (t) => t.startsWith(TEXT[lang].reminded), "the plan says it went");
      await waitFor(browser, `[data-delivery-state="delivered"]`, "its delivery shows delivered");
      await browser.execute(() => document.querySelector('[data-kind="reminder_sent"]').scrollIntoView({ block: "center" }));
      await shot("05-reminder-on-timeline");
      await new Promise((resolve) => setTimeout(resolve, 2500));
      assert.equal(endpoint.forCase(opened.id).filter((r) => r.body.type === "case.reminder").length, 1, "one reminder per wait");

      sql(app.dataDir, "UPDATE cases SET reminded_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now', '-121 minutes') WHERE id = ?", opened.id);
      const closed = await eventually(
        () => endpoint.forCase(opened.id).find((r) => r.body.type === "case.closed"),
        "the job closes the case and tells the agent",
      );
      assert.ok(closed.signed);
      assert.equal(closed.body.reason, "lead_unresponsive");
      assert.equal(closed.body.case.status, "cancelled");
      await waitFor(browser, '[data-testid="case-detail"][data-status="cancelled"]', "the window shows it closed");
      const label = await textOf(browser, '[data-kind="lead_unresponsive"]');
      assert.ok(label.includes(TEXT[lang].closedEvent), label);
      assert.equal(await exists(browser, '[data-testid="quiet-plan"]'), false, "a closed case has no plan");
      await browser.execute(() => document.querySelector('[data-kind="lead_unresponsive"]').scrollIntoView({ block: "center" }));
      await shot("06-closed-unresponsive");
      const seen = await agent.getCase(opened.id);
      const at = seen.events.findIndex((e) => e.kind === "lead_unresponsive");
      assert.deepEqual(
        seen.events.slice(at, at + 2).map((e) => [e.kind, e.actor, e.payload.auto_closed ?? null]),
        [["lead_unresponsive", "system", true], ["cancelled", "system", null]],
        "the closing is a system lead_unresponsive then a cancel",
      );
    });
  });
}
