// Trigger tests on the real window, in both languages: a skill's Tests tab (figures, expected
// against actual), a case added by typing, one added from Try a message and one from a real
// message in the activity log, the editor naming the cases an unsaved edit breaks, the library's
// conflicts, and an import that would break passing cases held until the person decides.
import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { click, launchApp, screenshot, waitForText } from "../support/harness.mjs";
import { agentApi } from "../support/agent.mjs";
import { dropFiles, fill, invoke, openSkill, skillsDirWith, writeZip } from "../support/skills.mjs";
import { ROOT } from "../support/harness.mjs";

const LANGUAGES = [
  { lang: "en", env: { LANG: "en_US.UTF-8", LANGUAGE: "en_US" }, passed: "Passed: 18 · Failed: 0", held: "held" },
  { lang: "pt-BR", env: { LANG: "pt_BR.UTF-8", LANGUAGE: "pt_BR" }, passed: "Passaram: 18 · Falharam: 0", held: "retido" },
];

/** Types into a field key by key, as a person does. */
async function type(browser, selector, text) {
  const field = await browser.$(selector);
  await field.waitForDisplayed({ timeout: 30_000, timeoutMsg: `${selector} should be shown` });
  await field.click();
  await field.clearValue();
  await field.addValue(text);
}

async function tab(browser, id) {
  await click(browser, `[role="tab"][data-tab="${id}"]`);
}

async function caseRow(browser, query) {
  const row = await browser.$(`[data-testid="test-case"][data-query="${query}"]`);
  await row.waitForExist({ timeout: 30_000, timeoutMsg: `the case "${query}" should be listed` });
  return row;
}

/** Every file of a catalog skill as zip entries under its folder, with `replace` applied. */
function packageOf(name, replace) {
  const dir = join(ROOT, "skills-examples", name);
  const entries = {};
  const walk = (d) => {
    for (const entry of readdirSync(d)) {
      const path = join(d, entry);
      if (statSync(path).isDirectory()) walk(path);
      else entries[`${name}/${relative(dir, path)}`] = readFileSync(path, "utf8");
    }
  };
  walk(dir);
  for (const [path, [from, to]] of Object.entries(replace)) entries[`${name}/${path}`] = entries[`${name}/${path}`].replace(from, to);
  return entries;
}

const only = process.env.CASES_E2E_LANG;
for (const { lang, env, passed, held } of LANGUAGES.filter((l) => !only || l.lang === only)) {
  describe(`trigger tests (${lang})`, { timeout: 300_000 }, () => {
    let app;
    let skills;
    let zips;
    let api;
    before(async () => {
      skills = skillsDirWith(["politica-de-frete", "cotacao-de-frete", "trocas-e-devolucoes"]);
      zips = mkdtempSync(join(tmpdir(), "skillcase-e2e-trigger-zips-"));
      app = await launchApp({ env: { ...env, SKILLCASE_SKILLS_DIR: skills.dir } });
      await waitForText(app.browser, '[data-testid="skill-count"]', (t) => /\d/.test(t), "the library loads");
      api = await agentApi(app.browser, app.dataDir);
    });
    after(async () => {
      await app?.stop();
      skills?.remove();
      rmSync(zips, { recursive: true, force: true });
    });

    it("shows a skill's cases expected against actual with its figures", async () => {
      const { browser } = app;
      await openSkill(browser, "politica-de-frete");
      await tab(browser, "tests");
      const summary = await waitForText(browser, '[data-testid="tests-summary"]', (t) => t.length > 0, "the summary");
      assert.ok(summary.startsWith(passed), summary);
      assert.equal((await browser.$$('[data-testid="test-case"]')).length, 18);
      await screenshot(browser, `triggers-tests-${lang}`);
    });

    it("adds a must-not-fire case typed into the form, which passes at once", async () => {
      const { browser } = app;
      await type(browser, '[data-testid="case-query"]', "Vocês vendem vale-presente?");
      await (await browser.$('[data-testid="case-expect"]')).selectByAttribute("value", "not");
      await click(browser, '[data-testid="case-add"]');
      const row = await caseRow(browser, "Vocês vendem vale-presente?");
      assert.equal(await row.getAttribute("data-passed"), "true");
    });

    it("adds a must-fire case from Try a message with one click", async () => {
      const { browser } = app;
      await tab(browser, "try");
      await type(browser, '[data-testid="try-input"]', "O frete pra Belém sai quanto?");
      await click(browser, '[data-testid="try-run"]');
      await click(browser, '[data-testid="add-must-fire"]');
      await browser.$('[data-testid="added-as-test"]').waitForExist({ timeout: 30_000 });
      await tab(browser, "tests");
      const row = await caseRow(browser, "O frete pra Belém sai quanto?");
      assert.equal(await row.getAttribute("data-passed"), "true");
    });

    it("turns a real message from the activity log into a case, and shows it failing when the skill fires on it", async () => {
      const { browser } = app;
      const message = "Vocês entregam em Palmas? Quanto é o frete?";
      await api.matchMessage("e2e-conversation", message);
      await tab(browser, "activity");
      await waitForText(browser, '[data-testid="activation-log"] .message', (t) => t === message, "the logged message");
      await screenshot(browser, `triggers-activity-log-${lang}`);
      await click(browser, '[data-testid="activation-log"] [data-testid="add-must-not"]');
      await browser.$('[data-testid="added-as-test"]').waitForExist({ timeout: 30_000 });
      await tab(browser, "tests");
      const row = await caseRow(browser, message);
      assert.equal(await row.getAttribute("data-passed"), "false");
      assert.equal(await (await browser.$('[data-testid="tests-summary"]')).getAttribute("data-failed"), "1");
      assert.equal(await row.$('[data-failure]').getAttribute("data-failure"), "fired_unexpectedly");
      await screenshot(browser, `triggers-tests-failing-${lang}`);
    });

    it("names, before saving, the cases an edit of the keywords would break", async () => {
      const { browser } = app;
      await tab(browser, "edit");
      await (await browser.$('[data-testid="editor-file"]')).selectByAttribute("value", "skill.config.yaml");
      await waitForText(browser, '[data-testid="editor-text"]', () => true, "the config loads");
      await browser.waitUntil(async () => (await (await browser.$('[data-testid="editor-text"]')).getValue()).includes("any_keywords"), {
        timeout: 30_000,
      });
      const text = await (await browser.$('[data-testid="editor-text"]')).getValue();
      await fill(browser, '[data-testid="editor-text"]', text.replace("    - frete\n", ""));
      await browser.$('[data-testid="trigger-changes"] [data-breaks="true"]').waitForExist({ timeout: 30_000, timeoutMsg: "the broken cases are named" });
      const queries = (breaks) =>
        browser.execute((b) => [...document.querySelectorAll(`[data-testid="trigger-changes"] [data-breaks="${b}"] q`)].map((q) => q.textContent), breaks);
      const broken = await queries(true);
      assert.ok(broken.includes("O frete pra Belém sai quanto?"), broken.join(" | "));
      // The logged message still fires the skill through "entregam em", so nothing is fixed.
      assert.deepEqual(await queries(false), []);
      await screenshot(browser, `triggers-editor-flips-${lang}`);
    });

    it("lists the library's conflicts and opens a skill from one", async () => {
      const { browser } = app;
      await click(browser, 'nav button[data-nav="skills"]');
      const back = await browser.$('[data-testid="back"]');
      if (await back.isExisting()) await back.click();
      await click(browser, '[data-testid="conflicts-button"]');
      const item = await browser.$('[data-testid="conflicts"] li[data-kind="fires_many"]');
      await item.waitForExist({ timeout: 30_000, timeoutMsg: "the conflict is listed" });
      assert.equal(await item.$("q").getText(), "Vocês entregam em Palmas? Quanto é o frete?");
      await screenshot(browser, `triggers-conflicts-${lang}`);
      await item.$('[data-skill="cotacao-de-frete"]').click();
      await browser.$('[data-testid="skill-detail"][data-skill="cotacao-de-frete"]').waitForExist({ timeout: 30_000 });
    });

    it("holds an import that would break passing cases until the person decides", async () => {
      const { browser } = app;
      await click(browser, '[data-testid="back"]');
      const zip = writeZip(join(zips, "trocas.zip"), packageOf("trocas-e-devolucoes", { "skill.config.yaml": ["    - troca\n", ""] }));
      await dropFiles(browser, [zip]);
      const outcome = await browser.$('[data-testid="import-report"] [data-state="held"]');
      await outcome.waitForExist({ timeout: 30_000, timeoutMsg: "the import is held" });
      assert.ok((await outcome.$("h3").getText()).includes(held));
      assert.ok((await browser.$$('[data-testid="import-report"] [data-breaks="true"]')).length > 0);
      await screenshot(browser, `triggers-import-held-${lang}`);
      await click(browser, '[data-testid="import-discard"]');
      await browser.$('[data-testid="import-report"] [data-state="held"]').waitForExist({ reverse: true, timeout: 30_000 });
      const versions = await invoke(browser, "skill_versions", { name: "trocas-e-devolucoes" });
      assert.equal(versions.ok.length, 1, "nothing was imported");
    });
  });
}
