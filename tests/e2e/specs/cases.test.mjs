// The whole human ↔ agent loop on the real window: a test client plays the agent over
// the real local API, a fake agent endpoint (a real HTTP server checking signatures) receives
// each answer, and the person works the inbox with the mouse and with the keyboard only. Every
// step is captured in English and in Brazilian Portuguese.
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
  en: { needInfoLabel: "What to ask the customer", resolvedLabel: "Note for the customer", title: "Cases" },
  "pt-BR": { needInfoLabel: "O que perguntar ao cliente", resolvedLabel: "Nota para o cliente", title: "Casos" },
};

// The internal note each language writes, the accent-less prefix of one of its words that finds
// the case again, and what the window says about notes.
const NOTE = {
  en: {
    text: "Ângela from billing approved the refund exception by phone.",
    typed: "angel",
    empty: "Write the note first: an empty note is not saved.",
    notSent: "Internal note — not sent",
  },
  "pt-BR": {
    text: "A Ângela do financeiro aprovou a exceção por telefone.",
    typed: "excec",
    empty: "Escreva a nota primeiro: uma nota vazia não é salva.",
    notSent: "Nota interna — não enviada",
  },
};

const INSTRUCTIONS = {
  resolved:
    "Relay the person's conclusion in `text` to the lead naturally, in your own words, and close the topic.",
  need_lead_info:
    "Ask the lead for exactly the information described in `text`, then call provide-update on this case with the lead's answer.",
  escalate: "Stop replying in this conversation: a person is taking it over from here.",
};

function refundCase(conversationId, name = "Maria Souza") {
  return {
    conversation_id: conversationId,
    title: "Refund above the agent's limit",
    summary: "The lead asks for a refund of R$ 900 for order 5521, charged twice.",
    blocker: "Refunds over R$ 500 need a person.",
    lead: { name, channel: "whatsapp", contact: "+55 11 91234-5678" },
    context: [
      { role: "lead", text: "Fui cobrada duas vezes no pedido 5521!", at: "2026-11-30T10:00:00.000Z" },
      { role: "agent", text: "Sinto muito! Vou abrir um caso para a equipe.", at: "2026-11-30T10:00:20.000Z" },
    ],
  };
}

async function type(browser, selector, text) {
  const el = await browser.$(selector);
  await el.waitForEnabled({ timeout: 20_000 });
  await el.setValue(text);
}

const exists = (browser, selector) => browser.execute((sel) => document.querySelector(sel) !== null, selector);

async function waitFor(browser, selector, what) {
  await browser.waitUntil(() => exists(browser, selector), { timeout: 20_000, interval: 100, timeoutMsg: what });
}

async function waitGone(browser, selector, what) {
  await browser.waitUntil(async () => !(await exists(browser, selector)), { timeout: 20_000, interval: 100, timeoutMsg: what });
}

async function openTab(browser, tab) {
  await click(browser, `[role="tab"][data-tab="${tab}"]`);
}

async function back(browser) {
  await click(browser, '[data-testid="back"]');
  await waitGone(browser, '[data-testid="case-detail"]', "back to the inbox");
}

/** Back to the inbox from wherever the last test left the window. */
async function toInbox(browser) {
  if (await exists(browser, '[data-testid="case-detail"]')) await back(browser);
}

async function waitForStatus(browser, status) {
  await waitFor(browser, `[data-testid="case-detail"][data-status="${status}"]`, `the case should become ${status}`);
}

// What the window says after a bulk action and after the last Send & next.
const FASTER = {
  en: { cancelled: (n) => `${n} ${n === 1 ? "case" : "cases"} cancelled.`, none: "Sent. Nothing else is waiting on you.", unread: "2 cases marked unread." },
  "pt-BR": { cancelled: (n) => `${n} ${n === 1 ? "caso cancelado" : "casos cancelados"}.`, none: "Enviado. Nada mais espera por você.", unread: "2 casos marcados como não lidos." },
};

// What the agent tries to tell the customer in each language: the words, when they say, and how
// the window counts down to it.
const PROMISE = {
  en: { message: "Our billing team will call you back tomorrow morning.", due: "tomorrow morning", dueIn: /due in \d+ (min|h|d)/ },
  "pt-BR": { message: "A Letícia da contabilidade te liga amanhã cedo.", due: "amanhã cedo", dueIn: /vence em \d+ (min|h|d)/ },
};

// CASES_E2E_LANG=en (or pt-BR) runs one language only, for a quicker loop while working.
const only = process.env.CASES_E2E_LANG;
for (const { lang, env } of LANGUAGES.filter((l) => !only || l.lang === only)) {
  describe(`cases: the human ↔ agent loop (${lang})`, { timeout: 600_000 }, () => {
    let app;
    let endpoint;
    let agent;
    const shot = (name) => screenshot(app.browser, `cases-${name}-${lang}`);

    before(async () => {
      endpoint = await startFakeEndpoint();
      app = await launchApp({ env: { GTK_THEME: "Adwaita", ...env } });
      agent = await agentApi(app.browser, app.dataDir);
      setEndpoint(app.dataDir, endpoint.url, { maxAttempts: 1 });
      await click(app.browser, 'nav button[data-nav="cases"]');
      await waitForText(app.browser, "h1", (t) => t === TEXT[lang].title, "the cases screen opens");
    });
    after(async () => {
      await app?.stop();
      endpoint?.stop();
    });

    it("runs the whole loop: open → need info → customer answers → resolved → closed", async () => {
      const { browser } = app;
      await shot("01-empty-inbox");
      const { case: opened } = await agent.openCase(refundCase(`wa-loop-${lang}`));
      const row = `.row[data-case-id="${opened.id}"]`;
      await waitFor(browser, row, "the new case appears in Waiting on you without a reload");
      await waitForText(browser, '[data-testid="toast"]', (t) => t.includes(`#${opened.number}`), "the new-case toast");
      await waitForText(browser, '[data-testid="cases-badge"]', (t) => t === "1", "the unread badge counts it");
      assert.equal(await textOf(browser, '[data-count="waiting_on_you"]'), "1");
      assert.equal(await browser.execute((sel) => document.querySelector(sel).dataset.unread, row), "true");
      await shot("02-new-case-notified");

      await click(browser, row);
      await waitForText(browser, '[data-testid="case-title"]', (t) => t === opened.title, "the detail opens");
      await waitForText(browser, '[data-testid="transcript"]', (t) => t.includes("Fui cobrada duas vezes"), "transcript");
      await shot("03-case-detail");

      await click(browser, '[data-action="need_lead_info"]');
      await waitForText(browser, '[data-testid="reply-label"]', (t) => t === TEXT[lang].needInfoLabel, "label follows the action");
      await type(browser, "#reply-text", "Ask for the last 4 digits of the card charged twice.");
      await shot("04-need-info-typed");
      await click(browser, '[data-testid="send"]');

      const [asked] = await eventually(() => endpoint.forCase(opened.id).length === 1 && endpoint.forCase(opened.id), "need_lead_info delivered");
      assert.equal(asked.body.type, "case.replied");
      assert.equal(asked.body.action, "need_lead_info");
      assert.equal(asked.body.text, "Ask for the last 4 digits of the card charged twice.");
      assert.equal(asked.body.instruction, INSTRUCTIONS.need_lead_info);
      assert.equal(asked.body.case.status, "awaiting_lead");
      assert.equal(asked.id, asked.body.id, "webhook-id is the delivery id");
      await waitForStatus(browser, "awaiting_lead");
      await waitFor(browser, '[data-delivery-state="delivered"]', "the delivery shows delivered");
      await shot("05-need-info-delivered");

      await back(browser);
      await openTab(browser, "waiting_on_customer");
      await waitFor(browser, row, "the case waits on the customer");
      await waitForText(browser, '[data-count="waiting_on_customer"]', (t) => t === "1", "tab count");
      await shot("06-waiting-on-customer");

      await agent.provideUpdate(opened.id, "The card ends in 4242.");
      await waitGone(browser, row, "the case leaves Waiting on customer live");
      await openTab(browser, "waiting_on_you");
      await waitFor(browser, `${row}[data-unread="true"]`, "the case is back with the person, unread again");
      await shot("07-back-with-the-person");

      await click(browser, row);
      await waitForText(browser, '[data-testid="timeline"]', (t) => t.includes("4242"), "the lead's answer is in the timeline");
      await click(browser, '[data-action="resolved"]');
      await waitForText(browser, '[data-testid="reply-label"]', (t) => t === TEXT[lang].resolvedLabel, "resolved label");
      await type(browser, "#reply-text", "Refund of R$ 450 approved for the duplicate charge on card 4242.");
      await click(browser, '[data-testid="send"]');
      const resolved = await eventually(() => endpoint.forCase(opened.id)[1], "resolved delivered");
      assert.equal(resolved.body.action, "resolved");
      assert.equal(resolved.body.case.status, "resolved");
      assert.equal(resolved.body.instruction, INSTRUCTIONS.resolved);
      await waitForStatus(browser, "resolved");
      await browser.waitUntil(
        () => browser.execute(() => document.querySelectorAll('[data-delivery-state="delivered"]').length === 2),
        { timeout: 20_000, timeoutMsg: "both deliveries show delivered" },
      );
      const kinds = await browser.execute(() => [...document.querySelectorAll("[data-kind]")].map((e) => e.dataset.kind));
      assert.deepEqual(kinds, [
        "opened",
        "human_replied",
        "agent_notified",
        "lead_provided",
        "human_replied",
        "resolved",
        "agent_notified",
      ]);
      const stretches = await browser.execute(() => [...document.querySelectorAll("[data-stretch]")].map((e) => e.dataset.stretch));
      assert.deepEqual(stretches, ["start", "end", "start", "end"]);
      await shot("08-resolved");
      await browser.execute(() => document.querySelector('[data-testid="toast"] .dismiss')?.click());
      await browser.execute(() => document.querySelector('[data-testid="timeline"]').scrollIntoView({ block: "end" }));
      await shot("09-full-timeline");

      await back(browser);
      await openTab(browser, "closed");
      await waitFor(browser, row, "the case is in Closed");
      await shot("09-closed-tab");
      assert.ok(endpoint.received.every((r) => r.signed), "every request was correctly signed");
    });

    it("escalates only after the person confirms", async () => {
      const { browser } = app;
      const { case: opened } = await agent.openCase(refundCase(`wa-escalate-${lang}`, "João Lima"));
      await openTab(browser, "waiting_on_you");
      await click(browser, `.row[data-case-id="${opened.id}"]`);
      await click(browser, '[data-action="escalate"]');
      await type(browser, "#reply-text", "The lead threatens legal action; a supervisor must take over.");
      await click(browser, '[data-testid="send"]');
      await waitFor(browser, '[data-testid="confirm-escalate"]', "escalating asks to confirm");
      assert.equal(endpoint.forCase(opened.id).length, 0, "nothing is sent before the confirmation");
      await shot("10-escalate-confirm");
      for (let i = 1; i <= 5; i++) {
        await browser.keys(Key.Tab);
        const inside = await browser.execute(() => document.activeElement?.closest('[data-testid="confirm-escalate"]') != null);
        assert.ok(inside, `Tab ${i} keeps the focus inside the confirmation`);
      }
      await click(browser, '[data-testid="confirm-yes"]');
      const [sent] = await eventually(() => endpoint.forCase(opened.id).length && endpoint.forCase(opened.id), "escalation delivered");
      assert.equal(sent.body.action, "escalate");
      assert.equal(sent.body.instruction, INSTRUCTIONS.escalate);
      await waitForStatus(browser, "escalated");
      await waitFor(browser, '[data-delivery-state="delivered"]', "the escalation shows delivered");
      await shot("11-escalated");
      await back(browser);
    });

    it("shows a failed delivery with its error and the banner, and Retry sends it once the endpoint is back", async () => {
      const { browser } = app;
      const { case: opened } = await agent.openCase(refundCase(`wa-down-${lang}`, "Carla Dias"));
      await endpoint.down();
      await click(browser, `.row[data-case-id="${opened.id}"]`);
      await click(browser, '[data-action="resolved"]');
      await type(browser, "#reply-text", "Refund approved.");
      await click(browser, '[data-testid="send"]');
      await waitFor(browser, '[data-delivery-state="dead"]', "the delivery gives up while the endpoint is down");
      await waitForText(browser, '[data-testid="delivery-error"]', (t) => t.includes("cannot connect"), "the error is shown");
      await waitFor(browser, '[data-testid="endpoint-banner"][data-health="unreachable"]', "the banner says the endpoint is unreachable");
      await shot("12-delivery-failed");

      await back(browser);
      await openTab(browser, "closed");
      await waitFor(browser, `.row[data-case-id="${opened.id}"] [data-delivery-problem]`, "the row marks the delivery problem");
      await shot("13-delivery-problem-in-inbox");

      await endpoint.up();
      await click(browser, `.row[data-case-id="${opened.id}"]`);
      await click(browser, '[data-testid="retry"]');
      await waitFor(browser, '[data-delivery-state="delivered"]', "Retry delivers once the endpoint is back");
      const sent = endpoint.forCase(opened.id);
      assert.equal(sent.length, 1);
      assert.equal(sent[0].body.action, "resolved");
      await waitGone(browser, '[data-testid="endpoint-banner"][data-health="unreachable"]', "the banner goes away");
      await shot("14-retried-delivered");
      await back(browser);
    });

    it("shows the case the guardrail opens after two vetoes, with its source and the promise it owes", async () => {
      const { browser } = app;
      const words = PROMISE[lang];
      const promise = { conversation_id: `wa-guard-${lang}`, turn_id: "t1", message: words.message };
      const first = await agent.beforeSend(promise);
      assert.equal(first.verdict, "veto");
      const second = await agent.beforeSend(promise);
      assert.equal(second.verdict, "pass");
      const id = second.auto_opened_case.id;
      await openTab(browser, "waiting_on_you");
      await waitFor(browser, `.row[data-case-id="${id}"] [data-source="guardrail"]`, "the row is tagged guardrail");
      await waitForText(browser, '[data-testid="toast"]', (t) => t.includes(`#${second.auto_opened_case.number}`), "toast");
      const owed = await textOf(browser, `.row[data-case-id="${id}"] [data-testid="row-promise"]`);
      assert.ok(owed.includes(words.message) && words.dueIn.test(owed), `the row shows the promise it owes: ${owed}`);
      await shot("15-guardrail-case-in-inbox");
      await click(browser, `.row[data-case-id="${id}"]`);
      await waitFor(browser, '.source[data-source="guardrail_autofallback"]', "the detail names the guardrail as source");
      await waitFor(browser, '[data-testid="case-reason"][data-reason="guardrail_autofallback"]', "its reason is the guardrail's");
      assert.equal(await textOf(browser, '[data-testid="promise-quote"]'), words.message);
      const marked = await browser.execute(() =>
        Array.from(document.querySelectorAll('[data-testid="promise-quote"] mark')).map((m) => m.dataset.role),
      );
      assert.ok(marked.includes("action"), `the words that promise are marked (${marked})`);
      const when = await textOf(browser, '[data-testid="promise-when"]');
      assert.ok(when.startsWith(words.due) && words.dueIn.test(when), `the ledger says when: ${when}`);
      await shot("16-guardrail-case-detail");
      await back(browser);
      await waitFor(browser, `.row[data-case-id="${id}"][data-unread="false"]`, "opening the case marks it read");
      await click(browser, `.row[data-case-id="${id}"]`);
      await click(browser, '[data-testid="mark-unread"]');
      await back(browser);
      await waitFor(browser, `.row[data-case-id="${id}"][data-unread="true"]`, "Mark unread marks it unread again");
    });

    it("runs the loop with the keyboard only", async () => {
      const { browser } = app;
      const conversation = `wa-keys-${lang}`;
      const { case: opened } = await agent.openCase(refundCase(conversation, "Rafael Costa"));
      await openTab(browser, "waiting_on_you");
      await browser.execute(() => document.querySelector('[role="tab"][data-tab="waiting_on_you"]').focus());
      await browser.keys("?");
      await waitFor(browser, '[data-testid="shortcuts"]', "? on a tab shows the shortcuts");
      await browser.keys(Key.Escape);
      await waitGone(browser, '[data-testid="shortcuts"]', "Esc closes the shortcuts");
      const focused = await browser.execute(() => document.activeElement?.getAttribute("data-tab"));
      assert.equal(focused, "waiting_on_you", "closing the shortcuts gives the focus back to the tab");

      await browser.execute(() => document.activeElement?.blur());
      await browser.keys("?");
      await waitFor(browser, '[data-testid="shortcuts"]', "? shows the shortcuts");
      await shot("17-shortcuts");
      await browser.keys(Key.Escape);
      await waitGone(browser, '[data-testid="shortcuts"]', "Esc closes the shortcuts");

      await browser.keys("/");
      assert.equal(await browser.execute(() => document.activeElement?.id), "case-search", "/ focuses the search");
      await browser.keys(conversation.split(""));
      await browser.keys("j");
      assert.equal(await browser.execute(() => document.activeElement?.value), `${conversation}j`, "j types while in the field");
      await browser.keys(Key.Backspace);
      await browser.keys(Key.Escape);
      await browser.waitUntil(
        () => browser.execute(() => document.querySelectorAll(".row").length === 1),
        { timeout: 20_000, timeoutMsg: "the search narrows the list to the one case" },
      );
      await browser.keys(Key.Enter);
      await waitForText(browser, '[data-testid="case-title"]', (t) => t === opened.title, "Enter opens the case");
      await browser.keys("2");
      await waitForText(browser, '[data-testid="reply-label"]', (t) => t === TEXT[lang].needInfoLabel, "2 picks Need info");
      assert.equal(await browser.execute(() => document.activeElement?.id), "reply-text", "the text area takes focus");
      await (await browser.$("#reply-text")).addValue("Which card was charged twice?");
      assert.equal(await browser.execute(() => document.activeElement?.value), "Which card was charged twice?", "digits and letters type text");
      await shot("18-keyboard-need-info");
      await browser.keys([Key.Ctrl, Key.Enter]);
      await eventually(() => endpoint.forCase(opened.id).length === 1, "Ctrl+Enter sends");
      await waitForStatus(browser, "awaiting_lead");
      for (let i = 0; i < 3 && (await exists(browser, '[data-testid="case-detail"]')); i++) await browser.keys(Key.Escape);
      await waitGone(browser, '[data-testid="case-detail"]', "Esc goes back to the inbox");

      await agent.provideUpdate(opened.id, "The Visa ending 4242.");
      await waitFor(browser, `.row[data-case-id="${opened.id}"]`, "the answer brings the case back");
      await browser.keys(Key.Enter);
      await waitForText(browser, '[data-testid="timeline"]', (t) => t.includes("4242"), "Enter opens it again");
      await browser.keys("1");
      await (await browser.$("#reply-text")).addValue("Refund approved for the Visa ending 4242.");
      await browser.keys([Key.Ctrl, Key.Enter]);
      await eventually(() => endpoint.forCase(opened.id).length === 2, "Ctrl+Enter sends the resolution");
      assert.equal(endpoint.forCase(opened.id)[1].body.action, "resolved");
      await waitForStatus(browser, "resolved");
      await shot("19-keyboard-resolved");
    });

    it("adds an internal note by keyboard, never sends it, and finds the case by typing a word of it", async () => {
      const { browser } = app;
      const words = NOTE[lang];
      const { case: opened } = await agent.openCase(refundCase(`wa-note-${lang}`, "Beatriz Lima"));
      await toInbox(browser);
      await openTab(browser, "waiting_on_you");
      await browser.execute(() => document.activeElement?.blur());
      await browser.keys("/");
      assert.equal(await browser.execute(() => document.activeElement?.id), "case-search", "/ focuses the search");
      await browser.keys([Key.Ctrl, "a"]);
      await browser.keys(Key.Backspace);
      await browser.keys(`wa-note-${lang}`.split(""));
      await browser.keys(Key.Escape);
      await browser.waitUntil(
        () => browser.execute((id) => document.querySelectorAll(".row").length === 1 && !!document.querySelector(`.row[data-case-id="${id}"]`), opened.id),
        { timeout: 20_000, timeoutMsg: "the search finds the case by its conversation" },
      );
      await browser.keys(Key.Enter);
      await waitForText(browser, '[data-testid="case-title"]', (t) => t === opened.title, "Enter opens the case");

      await browser.keys([Key.Ctrl, Key.Shift, "n"]);
      await waitFor(browser, '[data-testid="tab-note"][aria-selected="true"]', "Ctrl+Shift+N opens the note tab");
      assert.equal(await browser.execute(() => document.activeElement?.id), "note-text", "the note takes the focus");
      await browser.keys([Key.Ctrl, Key.Enter]);
      await waitForText(browser, '[data-testid="note-error"]', (t) => t === words.empty, "an empty note is refused");
      await shot("20-note-empty-refused");
      await (await browser.$("#note-text")).addValue(words.text);
      await browser.keys([Key.Ctrl, Key.Enter]);
      await waitForText(browser, '[data-testid="timeline"] [data-kind="internal_note"]', (t) => t.includes(words.text), "the note is on the timeline");
      assert.ok((await textOf(browser, '[data-kind="internal_note"] [data-testid="note-mark"]')).endsWith(words.notSent), "the note says it is not sent");
      assert.equal(await browser.execute(() => document.querySelector('[data-testid="case-detail"]').dataset.status), "awaiting_human", "a note changes no status");
      await shot("21-note-on-timeline");
      await new Promise((resolve) => setTimeout(resolve, 1500));
      assert.equal(endpoint.forCase(opened.id).length, 0, "nothing reaches the agent endpoint");
      assert.ok(!endpoint.received.some((r) => JSON.stringify(r.body).includes(words.text)), "the note is in no delivery");
      const seen = await agent.getCase(opened.id);
      assert.ok(!JSON.stringify(seen).includes(words.text), "the agent's API does not show the note");

      for (let i = 0; i < 3 && (await exists(browser, '[data-testid="case-detail"]')); i++) await browser.keys(Key.Escape);
      await waitGone(browser, '[data-testid="case-detail"]', "Esc goes back to the inbox");
      await browser.keys("/");
      await browser.keys([Key.Ctrl, "a"]);
      await browser.keys(Key.Backspace);
      await browser.keys(words.typed.split(""));
      await browser.waitUntil(
        () => browser.execute((id) => document.querySelectorAll(".row").length === 1 && !!document.querySelector(`.row[data-case-id="${id}"]`), opened.id),
        { timeout: 20_000, timeoutMsg: `typing "${words.typed}" finds the case by its note` },
      );
      await shot("22-found-by-note");
    });
    it("cancels several cases at once with one reason, then answers case after case with Send & next", async () => {
      const { browser } = app;
      const words = FASTER[lang];
      await toInbox(browser);
      await openTab(browser, "waiting_on_you");
      await browser.execute(() => document.activeElement?.blur());
      await browser.keys("/");
      await browser.keys([Key.Ctrl, "a"]);
      await browser.keys(Key.Backspace);
      await browser.keys(Key.Escape);
      await browser.execute(() => document.activeElement?.blur());
      await browser.waitUntil(() => browser.execute(() => !document.querySelector("#case-search").value), { timeout: 20_000 });
      const { case: stale } = await agent.openCase(refundCase(`wa-stale-${lang}`, "Otávio Reis"));
      await waitFor(browser, `.row[data-case-id="${stale.id}"]`, "the stale case is listed");
      const leftovers = await browser.execute(() => [...document.querySelectorAll(".row")].map((r) => r.dataset.caseId));
      for (let i = 0; i < leftovers.length; i++) {
        await browser.keys("x");
        if (i < leftovers.length - 1) await browser.keys("j");
      }
      await waitForText(browser, '[data-testid="bulk-count"]', (t) => t.startsWith(String(leftovers.length)), "x picks each row");
      await shot("23-bulk-picked");
      await click(browser, '[data-testid="bulk-cancel"]');
      await waitFor(browser, '[data-testid="bulk-cancel-dialog"]', "cancel asks for a reason");
      assert.equal(await browser.execute(() => document.activeElement?.dataset.testid), "bulk-cancel-reason", "the reason takes the focus");
      await browser.keys([Key.Ctrl, Key.Enter]);
      await waitFor(browser, '[data-testid="bulk-cancel-error"]', "an empty reason is refused");
      await browser.keys("Duplicates".split(""));
      await shot("24-bulk-cancel-reason");
      await browser.keys([Key.Ctrl, Key.Enter]);
      await waitForText(browser, '[data-testid="inbox-notice"]', (t) => t === words.cancelled(leftovers.length), "the inbox says how many were cancelled");
      await waitFor(browser, '[data-testid="cases-empty"]', "nothing waits on the person any more");
      const cancelled = await agent.getCase(stale.id);
      assert.equal(cancelled.case.status, "cancelled");
      assert.equal(endpoint.forCase(stale.id).length, 0, "a cancel is not sent to the agent");

      const { case: first } = await agent.openCase(refundCase(`wa-next-1-${lang}`, "Paula Nunes"));
      const { case: second } = await agent.openCase(refundCase(`wa-next-2-${lang}`, "Caio Prado"));
      await waitFor(browser, `.row[data-case-id="${second.id}"]`, "both new cases are listed");
      await browser.execute(() => document.activeElement?.blur());
      await browser.keys(Key.Enter);
      await waitFor(browser, `[data-testid="case-detail"][data-case-id="${first.id}"]`, "Enter opens the case waiting longest");
      await browser.keys("1");
      await (await browser.$("#reply-text")).addValue("Refund approved today.");
      await browser.keys([Key.Ctrl, Key.Shift, Key.Enter]);
      await eventually(() => endpoint.forCase(first.id).length === 1, "Ctrl+Shift+Enter sends");
      await waitFor(browser, `[data-testid="case-detail"][data-case-id="${second.id}"]`, "then the next case waiting opens");
      await shot("25-send-and-next");
      await browser.keys("1");
      await (await browser.$("#reply-text")).addValue("Refund approved today.");
      await click(browser, '[data-testid="send-next"]');
      await eventually(() => endpoint.forCase(second.id).length === 1, "Send & next sends");
      await waitGone(browser, '[data-testid="case-detail"]', "with nothing left, the inbox comes back");
      await waitForText(browser, '[data-testid="inbox-notice"]', (t) => t === words.none, "and says nothing else waits");
      await shot("26-nothing-left");

      await openTab(browser, "closed");
      await waitFor(browser, `.row[data-case-id="${second.id}"]`, "the answered cases are closed");
      for (const id of [first.id, second.id]) await click(browser, `.row[data-case-id="${id}"] [data-testid="pick"]`);
      assert.equal(await browser.execute(() => document.querySelector('[data-testid="bulk-cancel"]').disabled), true, "closed cases cannot be cancelled");
      await click(browser, '[data-testid="bulk-unread"]');
      await waitForText(browser, '[data-testid="inbox-notice"]', (t) => t === words.unread, "both are marked unread");
      await browser.waitUntil(
        () => browser.execute((ids) => ids.every((id) => document.querySelector(`.row[data-case-id="${id}"]`)?.dataset.unread === "true"), [first.id, second.id]),
        { timeout: 20_000, timeoutMsg: "the rows show them unread" },
      );
      await shot("27-bulk-unread");
    });
  });
}
