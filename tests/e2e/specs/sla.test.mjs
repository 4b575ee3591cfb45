// Response-time targets, on the real window: the person sets a first-reply
// target of 2 hours and a resolution target of 8 hours in Settings with the keyboard only (a zero
// target is refused next to its field), a case shows its countdown on its row and in the case
// view, "o" sorts the inbox by due soonest, and once the test moves a due time into the past in
// the app's own SQLite file the app's watch marks it overdue (badge on the row, a timeline
// event); answering it late shows the breach. The agent's API carries `sla`. In English and
// Brazilian Portuguese.
import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { join } from "node:path";
import { Key } from "webdriverio";
import { click, launchApp, screenshot, textOf, waitForText } from "../support/harness.mjs";
import { agentApi } from "../support/agent.mjs";

const LANGUAGES = [
  { lang: "en", env: { LANG: "en_US.UTF-8", LANGUAGE: "en_US" } },
  { lang: "pt-BR", env: { LANG: "pt_BR.UTF-8", LANGUAGE: "pt_BR" } },
];

const TEXT = {
  en: {
    settings: "Settings",
    cases: "Cases",
    saved: "Saved.",
    due: /^First reply due in 1h 5\dm$/,
    soonDue: /^First reply due in (29|30)m$/,
    overdue: /^First reply overdue by 3[5-9]m$/,
    late: /^First reply late by 3[5-9]m$/,
    paused: "Resolution paused while waiting on the customer",
    missed: "First-reply target missed",
  },
  "pt-BR": {
    settings: "Configurações",
    cases: "Casos",
    saved: "Salvo.",
    due: /^Primeira resposta vence em 1 h 5\d min$/,
    soonDue: /^Primeira resposta vence em (29|30) min$/,
    overdue: /^Primeira resposta atrasada há 3[5-9] min$/,
    late: /^Primeira resposta cumprida com 3[5-9] min de atraso$/,
    paused: "Resolução pausada enquanto espera o cliente",
    missed: "Meta de primeira resposta perdida",
  },
};

/**
 * The fixed-offset zone in which it is now between 04:00 and 04:59: the calendar below is closed
 * for one minute at midnight, so a 2 h or 8 h target set late in the day would cross it.
 */
function zoneWhereItIsEarlyMorning(now = new Date()) {
  const offset = ((4 - now.getUTCHours() + 36) % 24) - 12;
  return offset === 0 ? "UTC" : `Etc/GMT${offset > 0 ? "-" : "+"}${Math.abs(offset)}`;
}

/** Every day, 00:00–23:59, in a zone where the day has just begun, so the countdown does not depend on when the suite runs. */
const EVERY_DAY = JSON.stringify({
  time_zone: zoneWhereItIsEarlyMorning(),
  working_days: ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"],
  opens: "00:00",
  closes: "23:59",
  holidays: [],
});

/** Runs one statement on the app's database from a second connection (WAL, busy timeout). */
function sql(dataDir, statement, ...args) {
  const script =
    "import sqlite3, sys\n" +
    "c = sqlite3.connect(sys.argv[1], timeout=10)\n" +
    "c.execute(sys.argv[2], sys.argv[3:])\n" +
    "c.commit()\n";
  execFileSync("python3", ["-c", script, join(dataDir, "skillcase.sqlite3"), statement, ...args]);
}

/** Moves the case's first-reply due time `minutes` from now (negative: into the past). */
function firstReplyDueIn(dataDir, id, minutes) {
  const due = `strftime('%Y-%m-%dT%H:%M:%fZ', 'now', '${minutes >= 0 ? "+" : ""}${minutes} minutes')`;
  sql(dataDir, `UPDATE cases SET first_reply_due_at = ${due}, sla_due_at = ${due} WHERE id = ?`, id);
}

const exists = (browser, selector) => browser.execute((sel) => document.querySelector(sel) !== null, selector);

async function waitFor(browser, selector, what, timeout = 20_000) {
  await browser.waitUntil(() => exists(browser, selector), { timeout, interval: 100, timeoutMsg: what });
}

const focusedId = (browser) => browser.execute(() => document.activeElement?.id);

async function type(browser, text) {
  for (const k of text) await browser.keys(k);
}

const rowNumbers = (browser) =>
  browser.execute(() => [...document.querySelectorAll(".row[data-case-number]")].map((r) => Number(r.dataset.caseNumber)));

const only = process.env.CASES_E2E_LANG;
for (const { lang, env } of LANGUAGES.filter((l) => !only || l.lang === only)) {
  describe(`response-time targets (${lang})`, { timeout: 300_000 }, () => {
    let app;
    let agent;
    let first;
    let second;
    const shot = (name) => screenshot(app.browser, `sla-${name}-${lang}`);

    before(async () => {
      app = await launchApp({ env: { GTK_THEME: "Adwaita", SKILLCASE_OVERDUE_POLL_SECS: "1", ...env } });
      agent = await agentApi(app.browser, app.dataDir);
      sql(app.dataDir, "INSERT OR REPLACE INTO settings (key, value) VALUES ('business_calendar', ?)", EVERY_DAY);
    });
    after(async () => {
      await app?.stop();
    });

    it("sets a 2 h first-reply and an 8 h resolution target with the keyboard only", async () => {
      const { browser } = app;
      await click(browser, 'nav button[data-nav="settings"]');
      await waitForText(browser, "h1", (t) => t === TEXT[lang].settings, "settings open");
      await waitFor(browser, '[data-section="response-times"]', "the response times section is there");
      await browser.execute(() =>
        document.querySelector('[data-section="response-times"]').scrollIntoView({ block: "start" }),
      );
      assert.equal(await browser.execute(() => document.getElementById("sla-first-reply-after").disabled), true, "off by default");
      await shot("01-settings-off");

      await browser.execute(() => document.getElementById("sla-first-reply").focus());
      await browser.keys(Key.Space);
      await browser.keys(Key.Tab);
      assert.equal(await focusedId(browser), "sla-first-reply-after", "Tab reaches the target once it is on");
      await browser.keys([Key.Ctrl, "a"]);
      await type(browser, "0");
      await browser.keys(Key.Enter);
      await waitFor(browser, '[data-error="first_reply_minutes"]', "a zero target is refused next to its field");
      await shot("02-settings-refused");
      await browser.keys([Key.Ctrl, "a"]);
      await type(browser, "2");
      await browser.keys(Key.Tab);
      assert.equal(await focusedId(browser), "sla-first-reply-after-unit", "then its unit (hours)");
      await browser.keys(Key.Tab);
      assert.equal(await focusedId(browser), "sla-resolution");
      await browser.keys(Key.Space);
      await browser.keys(Key.Tab);
      assert.equal(await focusedId(browser), "sla-resolution-after");
      await browser.keys(Key.Enter);
      await waitForText(browser, '[data-section="response-times"] [role="status"]', (t) => t === TEXT[lang].saved, "saved");
      await shot("03-settings-saved");
      const saved = await browser.execute(() => [
        document.getElementById("sla-first-reply-after").value,
        document.getElementById("sla-resolution-after").value,
      ]);
      assert.deepEqual(saved, ["2", "8"]);
    });

    it("shows each case's countdown and sorts by due soonest with o", async () => {
      const { browser } = app;
      ({ case: first } = await agent.openCase({
        conversation_id: `wa-sla-1-${lang}`,
        title: "Refund for a double charge",
        summary: "The lead was charged twice for order 5521 and wants one charge refunded.",
        lead: { name: "Maria Souza", channel: "whatsapp" },
      }));
      ({ case: second } = await agent.openCase({
        conversation_id: `wa-sla-2-${lang}`,
        title: "Change the delivery address",
        summary: "The lead moved and wants order 7730 delivered to the new address.",
        lead: { name: "João Lima", channel: "whatsapp" },
      }));
      assert.equal(first.sla.first_reply.target_minutes, 120, "the API carries the case's targets");
      assert.equal(first.sla.first_reply.state, "running");
      assert.equal(first.sla.resolution.target_minutes, 480);
      firstReplyDueIn(app.dataDir, second.id, 30);

      await click(browser, 'nav button[data-nav="cases"]');
      await waitForText(browser, "h1", (t) => t === TEXT[lang].cases, "cases open");
      const row = (c) => `.row[data-case-id="${c.id}"] [data-sla-target="first_reply"]`;
      await waitForText(browser, row(first), (t) => TEXT[lang].due.test(t), "the first case counts down from 2 h");
      await waitForText(browser, row(second), (t) => TEXT[lang].soonDue.test(t), "the second is due in 30 min");
      assert.deepEqual(await rowNumbers(browser), [first.number, second.number], "longest waiting first");
      await shot("04-inbox-countdown");

      await browser.execute(() => document.activeElement?.blur());
      await browser.keys("o");
      await browser.waitUntil(async () => (await rowNumbers(browser))[0] === second.number, {
        timeout: 20_000,
        timeoutMsg: "o sorts the soonest due first",
      });
      assert.equal(await browser.execute(() => document.getElementById("case-sort").value), "due_soonest");
      await shot("05-inbox-due-soonest");
    });

    it("marks a target overdue once its due time passes, on the row, the case and the timeline", async () => {
      const { browser } = app;
      firstReplyDueIn(app.dataDir, first.id, -35);
      const row = `.row[data-case-id="${first.id}"] [data-sla-target="first_reply"]`;
      await waitForText(browser, row, (t) => TEXT[lang].overdue.test(t), "the row says overdue by 35 min");
      await waitFor(browser, `${row}[data-sla-kind="overdue"]`, "as a breach badge");
      assert.equal((await rowNumbers(browser))[0], first.number, "the overdue case leads the due-soonest order");
      await shot("06-inbox-overdue");

      await browser.keys("Enter");
      await waitFor(browser, `[data-testid="case-detail"]`, "Enter opens the overdue case");
      await waitForText(browser, '[data-testid="case-sla"] [data-sla-target="first_reply"]', (t) => TEXT[lang].overdue.test(t), "the case view says overdue");
      await waitForText(browser, '[data-kind="sla_overdue"]', (t) => t.includes(TEXT[lang].missed), "the watch put it on the timeline");
      await shot("07-case-overdue");
      const seen = await agent.getCase(first.id);
      assert.equal(seen.events.filter((e) => e.kind === "sla_overdue").length, 1, "announced once");
      assert.equal(seen.case.sla.first_reply.state, "overdue");
    });

    it("shows the breach once the late first reply is sent, and pauses while waiting on the customer", async () => {
      const { browser } = app;
      await click(browser, '[data-action="need_lead_info"]');
      await (await browser.$("#reply-text")).setValue("Which card was charged twice?");
      await click(browser, '[data-testid="send"]');
      await waitFor(browser, '[data-testid="case-detail"][data-status="awaiting_lead"]', "the case waits on the customer");
      await waitForText(browser, '[data-testid="case-sla"] [data-sla-target="first_reply"]', (t) => TEXT[lang].late.test(t), "late by 35 min");
      const paused = await textOf(browser, '[data-testid="case-sla"] [data-sla-target="resolution"]');
      assert.equal(paused, TEXT[lang].paused);
      await shot("08-case-late-paused");
    });
  });
}
