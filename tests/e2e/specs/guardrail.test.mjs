// Teaching the guardrail on the real window, by keyboard where a person would: the agent's
// before-send is vetoed for a message that promises nothing; Settings → Guardrail lists it and the
// person marks it "Not a promise"; in a case's conversation they mark a message the agent sent
// "Promised a follow-up". Retrain shows both models side by side: first refused (more mistakes on
// the English blind split), then, with two more marks, adopted, and the agent's before-send then
// lets the marked message through. Export writes the marks as labelled lines (through the command
// the button calls once the native dialog answers, which WebDriver cannot drive). "Use the
// shipped model" goes back. The retrains are
// deterministic, so the verdicts are too. In English and Brazilian Portuguese.
import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Key } from "webdriverio";
import { click, invoke, launchApp, screenshot, textOf, waitForText } from "../support/harness.mjs";
import { agentApi } from "../support/agent.mjs";

const LANGUAGES = [
  { lang: "en", env: { LANG: "en_US.UTF-8", LANGUAGE: "en_US" } },
  { lang: "pt-BR", env: { LANG: "pt_BR.UTF-8", LANGUAGE: "pt_BR" } },
];

const TEXT = {
  en: {
    settings: "Settings",
    cases: "Cases",
    markedClear: "Marked: not a promise",
    markedPromise: "Marked: promised a follow-up",
    refused: "Not adopted: the guardrail keeps the model in use.",
    why: "On the English blind test set it makes 15 mistakes, against 13 now.",
    adopted: "Adopted: the guardrail now judges with the retrained model.",
    shipped: "The guardrail judges with the model Skillcase ships.",
  },
  "pt-BR": {
    settings: "Configurações",
    cases: "Casos",
    markedClear: "Marcada: não é promessa",
    markedPromise: "Marcada: prometeu retorno",
    refused: "Não adotado: a proteção mantém o modelo em uso.",
    why: "No conjunto de teste cego em inglês ele erra 15 mensagens, contra 13 hoje.",
    adopted: "Adotado: a proteção agora julga com o novo modelo.",
    shipped: "A proteção julga com o modelo que vem com o Skillcase.",
  },
};

/** Two messages the shipped model calls promises although they promise no one's follow-up. */
const CARD_REFUND = "Your refund will appear on your statement within 3 business days.";
const BILL_REFUND = "O estorno constará em fatura em até 3 dias úteis.";
/** Two the shipped model misses: requests whose purpose is a person's later action. */
const DM_US = "Send us a DM with your number so our team can call you.";
const SEND_CPF = "Envie seu CPF por mensagem privada que nossa equipe verifica.";

const exists = (browser, selector) => browser.execute((sel) => document.querySelector(sel) !== null, selector);

async function waitFor(browser, selector, what, timeout = 20_000) {
  await browser.waitUntil(() => exists(browser, selector), { timeout, interval: 100, timeoutMsg: what });
}

/** Focuses the element matching `selector` and presses Enter on it, as a keyboard user would. */
async function press(browser, selector) {
  await waitFor(browser, selector, `${selector} is there`);
  await browser.execute((sel) => document.querySelector(sel).focus(), selector);
  await browser.keys(Key.Enter);
}

async function openGuardrail(browser, lang) {
  await click(browser, 'nav button[data-nav="settings"]');
  await waitForText(browser, "h1", (t) => t === TEXT[lang].settings, "settings open");
  await waitFor(browser, '[data-section="guardrail"]', "the guardrail section is there");
  await browser.execute(() => document.querySelector('[data-section="guardrail"]').scrollIntoView({ block: "start" }));
}

/** The veto log's row of `message`, as a CSS selector (its index among the rows). */
async function vetoRow(browser, message) {
  await browser.waitUntil(
    () => browser.execute((m) => [...document.querySelectorAll('[data-testid="guard-veto"]')].some((li) => li.textContent.includes(m)), message),
    { timeout: 20_000, interval: 100, timeoutMsg: `the veto log shows "${message}"` },
  );
  const index = await browser.execute((m) => [...document.querySelectorAll('[data-testid="guard-veto"]')].findIndex((li) => li.textContent.includes(m)), message);
  return `[data-testid="guard-veto"]:nth-child(${index + 1})`;
}

async function markVetoClear(browser, lang, message) {
  const row = await vetoRow(browser, message);
  await press(browser, `${row} [data-testid="guard-mark-clear"]`);
  await waitForText(browser, `${row} [data-testid="guard-veto-marked"]`, (t) => t === TEXT[lang].markedClear, "the veto shows its mark");
}

/** Marks the agent's message `message` in the open case's conversation as a promise. */
async function markConversationPromise(browser, lang, message) {
  const index = await browser.execute(
    (m) => [...document.querySelectorAll('[data-testid="transcript"] > li')].findIndex((li) => li.querySelector("p")?.textContent === m),
    message,
  );
  assert.ok(index >= 0, `the conversation shows "${message}"`);
  const item = `[data-testid="transcript"] > li:nth-child(${index + 1})`;
  await press(browser, `${item} [data-testid="transcript-mark-promise"]`);
  await waitForText(browser, `${item} [data-testid="transcript-marked"]`, (t) => t === TEXT[lang].markedPromise, "the message shows its mark");
}

async function retrain(browser) {
  await browser.execute(() => document.querySelector('[data-testid="guard-report"]')?.remove());
  await press(browser, '[data-testid="guard-retrain"]');
  await waitFor(browser, '[data-testid="guard-verdict"]', "the retrain reports", 120_000);
  return textOf(browser, '[data-testid="guard-verdict"]');
}

const only = process.env.CASES_E2E_LANG;
for (const { lang, env } of LANGUAGES.filter((l) => !only || l.lang === only)) {
  describe(`teaching the guardrail (${lang})`, { timeout: 400_000 }, () => {
    let app;
    let agent;
    let opened;
    const shot = (name) => screenshot(app.browser, `guardrail-${name}-${lang}`);

    before(async () => {
      app = await launchApp({ env: { GTK_THEME: "Adwaita", ...env } });
      agent = await agentApi(app.browser, app.dataDir);
      ({ case: opened } = await agent.openCase({
        conversation_id: `wa-case-${lang}`,
        title: "Wrong delivery address",
        summary: "The lead wants the delivery address of order 5521 changed.",
        lead: { name: "Maria Souza", channel: "whatsapp" },
        reason: "customer_request",
        context: [
          { role: "lead", text: "My order went to my old address." },
          { role: "agent", text: DM_US },
          { role: "lead", text: "Meu pedido foi para o endereço antigo." },
          { role: "agent", text: SEND_CPF },
        ],
      }));
    });
    after(async () => {
      await app?.stop();
    });

    it("lists a vetoed message in Settings → Guardrail and marks it not a promise by keyboard", async () => {
      const { browser } = app;
      const vetoed = await agent.beforeSend({ conversation_id: `wa-1-${lang}`, turn_id: "t1", message: CARD_REFUND });
      assert.equal(vetoed.verdict, "veto");
      await openGuardrail(browser, lang);
      await markVetoClear(browser, lang, CARD_REFUND);
      await waitForText(browser, '[data-testid="guard-mark"]', (t) => t.includes(CARD_REFUND), "the marks list it");
      await shot("01-veto-marked");
    });

    it("marks a message the agent sent in a case's conversation as a promised follow-up", async () => {
      const { browser } = app;
      await click(browser, 'nav button[data-nav="cases"]');
      await waitForText(browser, "h1", (t) => t === TEXT[lang].cases, "cases open");
      await click(browser, `.row[data-case-id="${opened.id}"]`);
      await waitFor(browser, '[data-testid="transcript"]', "the case shows its conversation");
      await markConversationPromise(browser, lang, DM_US);
      await shot("02-conversation-marked");
    });

    it("refuses a retrained model that makes more mistakes on the blind split, saying so beside both models' figures", async () => {
      const { browser } = app;
      await openGuardrail(browser, lang);
      assert.equal(await retrain(browser), TEXT[lang].refused);
      const report = await textOf(browser, '[data-testid="guard-report"]');
      assert.ok(report.includes(TEXT[lang].why), report);
      assert.equal(await textOf(browser, '[data-testid="guard-model"]'), TEXT[lang].shipped);
      await shot("03-retrain-refused");
    });

    it("adopts the model retrained with two more marks, and the agent's marked message then passes", async () => {
      const { browser } = app;
      const vetoed = await agent.beforeSend({ conversation_id: `wa-2-${lang}`, turn_id: "t1", message: BILL_REFUND });
      assert.equal(vetoed.verdict, "veto");
      await click(browser, 'nav button[data-nav="cases"]');
      await click(browser, `.row[data-case-id="${opened.id}"]`);
      await waitFor(browser, '[data-testid="transcript"]', "the case shows its conversation");
      await markConversationPromise(browser, lang, SEND_CPF);
      await openGuardrail(browser, lang);
      await markVetoClear(browser, lang, BILL_REFUND);
      assert.equal(await retrain(browser), TEXT[lang].adopted);
      await waitForText(browser, '[data-testid="guard-model"]', (t) => t !== TEXT[lang].shipped, "the model in use is the retrained one");
      await shot("04-retrain-adopted");
      const passed = await agent.beforeSend({ conversation_id: `wa-3-${lang}`, turn_id: "t1", message: BILL_REFUND });
      assert.equal(passed.verdict, "pass");
    });

    it("exports the marks as labelled lines, oldest first", async () => {
      const files = mkdtempSync(join(tmpdir(), "skillcase-e2e-marks-"));
      try {
        const path = join(files, "marks.tsv");
        const written = await invoke(app.browser, "guard_export_marks", { path });
        assert.deepEqual(written, { ok: 4 });
        assert.equal(
          readFileSync(path, "utf8"),
          `label\tlang\ttext\nclear\ten\t${CARD_REFUND}\npromise\ten\t${DM_US}\npromise\tpt-BR\t${SEND_CPF}\nclear\tpt-BR\t${BILL_REFUND}\n`,
        );
      } finally {
        rmSync(files, { recursive: true, force: true });
      }
    });

    it("goes back to the shipped model, which vetoes the message again", async () => {
      const { browser } = app;
      await press(browser, '[data-testid="guard-reset"]');
      await waitForText(browser, '[data-testid="guard-model"]', (t) => t === TEXT[lang].shipped, "the shipped model is in use");
      const vetoed = await agent.beforeSend({ conversation_id: `wa-4-${lang}`, turn_id: "t1", message: BILL_REFUND });
      assert.equal(vetoed.verdict, "veto");
      await shot("05-shipped-again");
    });
  });
}
