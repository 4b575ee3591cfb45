// Saved replies, on the real window and by keyboard: the person says who they
// are in Settings → You, adds a saved reply with variables in Settings → Saved replies (an unknown
// variable is refused next to the text first), then on a case types `#` and a few letters of it
// in the reply box, moves with the arrows, inserts it with Enter (the variables filled from the
// case and the person), closes a picker with Esc leaving the text, opens it with the Saved replies
// button, and sends: the fake agent endpoint receives the rendered text. Import (a good file, and
// a bad one that changes nothing and names its entry) and Export go through the same commands the
// buttons call once the native dialog answers, which WebDriver cannot drive. In English and
// Brazilian Portuguese.
import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Key } from "webdriverio";
import { click, invoke, launchApp, screenshot, textOf, waitForText } from "../support/harness.mjs";
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
    title: "Refund approved",
    body: "Hi {{lead.name}}, the refund for case {{case.number}} is approved. {{person.name}}",
    typo: "Hi {{lead.nmae}}",
    query: "refund",
    noMatch: "No saved reply matches “zzz”.",
    imported: "Imported: 2 added, 0 replaced.",
    other: "Thanks",
  },
  "pt-BR": {
    settings: "Configurações",
    cases: "Casos",
    saved: "Salvo.",
    title: "Reembolso aprovado",
    body: "Olá {{lead.name}}, o reembolso do caso {{case.number}} foi aprovado. {{person.name}}",
    typo: "Olá {{lead.nmae}}",
    query: "reembolso",
    noMatch: "Nenhuma resposta salva corresponde a “zzz”.",
    imported: "Importação concluída: 2 adicionadas, 0 substituídas.",
    other: "Obrigado",
  },
};

const exists = (browser, selector) => browser.execute((sel) => document.querySelector(sel) !== null, selector);
const focusedId = (browser) => browser.execute(() => document.activeElement?.id);
const valueOf = (browser, id) => browser.execute((i) => document.getElementById(i).value, id);

async function waitFor(browser, selector, what, timeout = 20_000) {
  await browser.waitUntil(() => exists(browser, selector), { timeout, interval: 100, timeoutMsg: what });
}

async function typeKeys(browser, text) {
  for (const k of text) await browser.keys(k);
}

async function openSettingsSection(browser, lang, section) {
  await click(browser, 'nav button[data-nav="settings"]');
  await waitForText(browser, "h1", (t) => t === TEXT[lang].settings, "settings open");
  await waitFor(browser, `[data-section="${section}"]`, `the ${section} section is there`);
  await browser.execute((s) => document.querySelector(`[data-section="${s}"]`).scrollIntoView({ block: "start" }), section);
}

const only = process.env.CASES_E2E_LANG;
for (const { lang, env } of LANGUAGES.filter((l) => !only || l.lang === only)) {
  describe(`saved replies (${lang})`, { timeout: 300_000 }, () => {
    let app;
    let endpoint;
    let agent;
    let files;
    const shot = (name) => screenshot(app.browser, `saved-replies-${name}-${lang}`);

    before(async () => {
      endpoint = await startFakeEndpoint();
      app = await launchApp({ env: { GTK_THEME: "Adwaita", ...env } });
      agent = await agentApi(app.browser, app.dataDir);
      setEndpoint(app.dataDir, endpoint.url);
      files = mkdtempSync(join(tmpdir(), "skillcase-e2e-replies-"));
    });
    after(async () => {
      await app?.stop();
      endpoint?.stop();
      if (files) rmSync(files, { recursive: true, force: true });
    });

    it("saves your name in Settings → You by keyboard", async () => {
      const { browser } = app;
      await openSettingsSection(browser, lang, "you");
      await browser.execute(() => document.getElementById("you-name").focus());
      await typeKeys(browser, "Ana Lima");
      await browser.keys(Key.Tab);
      assert.equal(await focusedId(browser), "you-email", "Tab reaches the e-mail");
      await typeKeys(browser, "ana@example.com");
      await browser.keys(Key.Enter);
      await waitForText(browser, '[data-section="you"] [role="status"]', (t) => t === TEXT[lang].saved, "saved");
      await shot("01-you-saved");
    });

    it("adds a saved reply by keyboard, refusing an unknown variable next to the text", async () => {
      const { browser } = app;
      await openSettingsSection(browser, lang, "replies");
      await waitFor(browser, '[data-testid="replies-empty"]', "no saved replies yet");
      await browser.execute(() => document.getElementById("reply-add").focus());
      await browser.keys(Key.Enter);
      await waitFor(browser, '[data-testid="reply-form"]', "the form opens");
      assert.equal(await focusedId(browser), "reply-title", "the title takes focus");
      await typeKeys(browser, TEXT[lang].title);
      await browser.keys(Key.Tab);
      assert.equal(await focusedId(browser), "reply-body", "Tab reaches the text");
      await typeKeys(browser, TEXT[lang].typo);
      await browser.keys([Key.Ctrl, Key.Enter]);
      await waitFor(browser, '[data-error="body"]', "the unknown variable is refused next to the text");
      const refusal = await textOf(browser, '[data-error="body"]');
      assert.ok(refusal.includes("{{lead.nmae}}"), refusal);
      await browser.execute(() => document.querySelector('[data-section="replies"]').scrollIntoView({ block: "start" }));
      await shot("02-unknown-variable");
      await browser.keys([Key.Ctrl, "a"]);
      await typeKeys(browser, TEXT[lang].body);
      await browser.keys([Key.Ctrl, Key.Enter]);
      await waitFor(browser, '[data-testid="saved-reply-row"]', "the reply is listed");
      assert.equal(await exists(browser, '[data-testid="reply-form"]'), false, "the form closes");
      const row = await textOf(browser, '[data-testid="saved-reply-row"]');
      assert.ok(row.includes(TEXT[lang].title), row);
      await shot("03-saved-reply-listed");
    });

    it("inserts the saved reply with # and the arrows, renders its variables and sends it", async () => {
      const { browser } = app;
      const { case: opened } = await agent.openCase({
        conversation_id: `wa-replies-${lang}`,
        title: "Refund for a double charge",
        summary: "The lead was charged twice for order 5521.",
        lead: { name: "Maria Souza", channel: "whatsapp" },
      });
      await click(browser, 'nav button[data-nav="cases"]');
      await waitForText(browser, "h1", (t) => t === TEXT[lang].cases, "cases open");
      await click(browser, `.row[data-case-id="${opened.id}"]`);
      await waitFor(browser, '[data-testid="case-detail"]', "the case opens");
      await browser.execute(() => document.activeElement?.blur());
      await browser.keys("1");
      assert.equal(await focusedId(browser), "reply-text", "1 picks Resolved and focuses the text");

      await typeKeys(browser, "#zzz");
      await waitFor(browser, '[data-testid="saved-reply-empty"]', "the picker says nothing matches");
      assert.equal(await textOf(browser, '[data-testid="saved-reply-empty"]'), TEXT[lang].noMatch);
      await browser.keys(Key.Escape);
      await browser.waitUntil(async () => !(await exists(browser, '[data-testid="saved-reply-picker"]')), { timeout: 5_000, timeoutMsg: "Esc closes the picker" });
      assert.equal(await valueOf(browser, "reply-text"), "#zzz", "Esc leaves the text as typed");
      assert.equal(await exists(browser, '[data-testid="case-detail"]'), true, "Esc does not leave the case");
      for (let i = 0; i < 4; i += 1) await browser.keys(Key.Backspace);

      await typeKeys(browser, "OK. #");
      await typeKeys(browser, TEXT[lang].query.slice(0, 4));
      await waitFor(browser, '[data-testid="saved-reply-option"][aria-selected="true"]', "the picker offers the reply, highlighted");
      await shot("04-picker-open");
      await browser.keys(Key.ArrowDown);
      await browser.keys(Key.Enter);
      const expected = lang === "en"
        ? `OK. Hi Maria Souza, the refund for case ${opened.number} is approved. Ana Lima`
        : `OK. Olá Maria Souza, o reembolso do caso ${opened.number} foi aprovado. Ana Lima`;
      await browser.waitUntil(async () => (await valueOf(browser, "reply-text")) === expected, { timeout: 5_000, timeoutMsg: "Enter inserts the rendered reply in place of #query" });
      assert.equal(await exists(browser, '[data-testid="saved-reply-picker"]'), false, "the picker closes");
      await shot("05-reply-inserted");

      await browser.keys(Key.Tab);
      assert.equal(await browser.execute(() => document.activeElement?.dataset.testid), "saved-replies-button", "Tab reaches the Saved replies button");
      await browser.keys(Key.Enter);
      await waitFor(browser, '[data-testid="saved-reply-option"]', "the button opens the picker");
      assert.equal(await focusedId(browser), "reply-text", "with the cursor back in the text");
      await browser.keys(Key.Escape);
      for (let i = 0; i < 2; i += 1) await browser.keys(Key.Backspace);
      assert.equal(await valueOf(browser, "reply-text"), expected, "the # the button typed is gone again");

      await browser.keys([Key.Ctrl, Key.Enter]);
      const [sent] = await eventually(() => endpoint.forCase(opened.id).length === 1 && endpoint.forCase(opened.id), "the reply reaches the agent");
      assert.equal(sent.body.action, "resolved");
      assert.equal(sent.body.text, expected);
    });

    it("imports a file all or nothing and exports what is saved", async () => {
      const { browser } = app;
      const bad = join(files, "bad.json");
      writeFileSync(bad, JSON.stringify({ format: "skillcase-saved-replies", version: 1, replies: [{ title: "Fine", body: "ok" }, { title: "Broken", body: "{{nope}}" }] }));
      const refused = await invoke(browser, "saved_replies_import", { path: bad });
      assert.equal(refused.err?.code, "invalid_saved_replies_file");
      assert.equal(refused.err?.details?.entry, 2, "the refusal names the entry");
      const good = join(files, "good.json");
      writeFileSync(good, JSON.stringify({ format: "skillcase-saved-replies", version: 1, replies: [
        { title: TEXT[lang].other, body: "🙂 {{person.name}}", action: null, language: null },
        { title: "Escalation only", body: "A colleague will take over.", action: "escalate", language: "en" },
      ] }));
      const imported = await invoke(browser, "saved_replies_import", { path: good });
      assert.deepEqual(imported.ok, { added: 2, replaced: 0 });

      await openSettingsSection(browser, lang, "replies");
      await browser.waitUntil(() => browser.execute(() => document.querySelectorAll('[data-testid="saved-reply-row"]').length === 3), { timeout: 20_000, timeoutMsg: "the list shows the imported replies, and nothing of the bad file" });
      await shot("06-imported");

      const out = join(files, "saved-replies.json");
      const exported = await invoke(browser, "saved_replies_export", { path: out });
      assert.equal(exported.ok, 3);
      const file = JSON.parse(readFileSync(out, "utf8"));
      assert.equal(file.format, "skillcase-saved-replies");
      assert.deepEqual(file.replies.map((r) => r.title).sort(), ["Escalation only", TEXT[lang].title, TEXT[lang].other].sort());

      await browser.execute(() => document.querySelector('[data-testid="reply-delete"]').focus());
      await browser.keys(Key.Enter);
      await waitFor(browser, '[data-testid="confirm-reply-delete"]', "Delete asks to confirm");
      await shot("07-confirm-delete");
      await browser.keys(Key.Enter);
      await browser.waitUntil(() => browser.execute(() => document.querySelectorAll('[data-testid="saved-reply-row"]').length === 2), { timeout: 20_000, timeoutMsg: "the confirmed delete removes one" });
    });
  });
}
