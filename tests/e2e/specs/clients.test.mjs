// The per-client preview on the real window, in English and Portuguese: a skill's Level 1 tab
// with the Agent picker on Claude Code shows that client's listing with this skill's line marked,
// what its budget did to it (shortened: description and when_to_use pass 1,536 characters), its
// own findings and the tokens per level; on Codex the same skill is listed whole, and a smaller
// budget typed in leaves it out; a budget out of range is refused with its code.
import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { click, launchApp, screenshot, waitForText } from "../support/harness.mjs";

const LANGUAGES = [
  { lang: "en", env: { LANG: "en_US.UTF-8", LANGUAGE: "en_US" }, tokens: "Tokens per level (o200k_base)" },
  { lang: "pt-BR", env: { LANG: "pt_BR.UTF-8", LANGUAGE: "pt_BR" }, tokens: "Tokens por nível (o200k_base)" },
];

/** A skills directory with `reembolso` (a long description and a when_to_use) and `cotacao`. */
function skillsDir() {
  const dir = mkdtempSync(join(tmpdir(), "skillcase-e2e-clients-"));
  const write = (name, frontmatter, body) => {
    mkdirSync(join(dir, name, "references"), { recursive: true });
    writeFileSync(join(dir, name, "SKILL.md"), `---\n${frontmatter}\n---\n${body}\n`);
  };
  const long = "Reembolsa cobranças em dobro conferindo o extrato do cliente. ".repeat(16).trim();
  const when = "Quando o cliente diz que pagou duas vezes pelo mesmo pedido. ".repeat(10).trim();
  write("reembolso", `name: reembolso\ndescription: ${long}\nwhen_to_use: ${when}`, "# Reembolso\n\nConfira o extrato.");
  writeFileSync(join(dir, "reembolso", "references", "politica.md"), "# Política\n\nAté 7 dias.\n");
  write("cotacao", "name: cotacao\ndescription: Cota o frete de um pedido. Use quando o cliente pergunta o preço da entrega.", "# Cotação");
  return dir;
}

async function fate(browser, expected) {
  const el = await browser.$(`[data-testid="client-fate"][data-fate="${expected}"]`);
  try {
    await el.waitForExist({ timeout: 30_000 });
  } catch {
    const seen = await browser.execute(() => document.querySelector('[data-panel="level1"]')?.textContent ?? null);
    throw new Error(`the skill's fate should become ${expected}; the panel shows: ${seen}`);
  }
  return el.getText();
}

async function typeBudget(browser, value) {
  const input = await browser.$('[data-testid="client-budget"]');
  await input.click();
  await browser.keys(["Control", "a"]);
  await browser.keys(["Backspace"]);
  for (const key of value) await browser.keys(key);
  await browser.keys("Enter");
}

const only = process.env.CASES_E2E_LANG;
for (const { lang, env, tokens } of LANGUAGES.filter((l) => !only || l.lang === only)) {
  describe(`per-client preview (${lang})`, { timeout: 300_000 }, () => {
    let app;
    let skills;
    before(async () => {
      skills = skillsDir();
      app = await launchApp({ env: { GTK_THEME: "Adwaita", SKILLCASE_SKILLS_DIR: skills, SKILLCASE_CATALOG_DIR: "", ...env } });
    });
    after(async () => {
      await app?.stop();
      rmSync(skills, { recursive: true, force: true });
    });

    it("shows Claude Code's listing cutting the long entry, its finding and the tokens per level", async () => {
      const { browser } = app;
      await click(browser, 'nav button[data-nav="skills"]');
      await click(browser, '[data-testid="virtual-list"] [data-skill="reembolso"]');
      await waitForText(browser, "#skill-title", (t) => t === "reembolso", "the skill opens");
      await click(browser, '[data-tab="level1"]');
      const picker = await browser.$('[data-testid="index-agent"]');
      await picker.waitForExist({ timeout: 30_000 });
      await picker.selectByAttribute("value", "claude-code");
      await fate(browser, "shortened");
      const entry = await waitForText(browser, '[data-testid="client-entry"]', (t) => t.startsWith("- reembolso: "), "this skill's line is marked");
      assert.equal(entry.length, "- reembolso: ".length + 1536, "cut at 1,536 characters");
      const findings = await browser.$$('[data-testid="client-preview"] li[data-code="listing_entry_cut"]');
      assert.equal(findings.length, 1, "Claude Code's own finding");
      const counts = await waitForText(browser, '[data-testid="client-preview"]', (t) => t.includes(tokens), "the tokens per level");
      assert.ok(counts.includes("o200k_base"), counts);
      const level2 = await browser.$('[data-testid="client-tokens"] dd[data-level="2"]').getText();
      assert.match(level2, /^\d+ tokens$/);
      await screenshot(browser, `clients-claude-code-${lang}`);
    });

    it("on Codex lists the skill whole with its file, and a smaller budget typed in leaves it out", async () => {
      const { browser } = app;
      await browser.$('[data-testid="index-agent"]').selectByAttribute("value", "codex");
      await fate(browser, "kept");
      const line = await waitForText(browser, '[data-testid="client-entry"]', (t) => t.includes("(file: "), "Codex lists the file");
      assert.ok(line.endsWith(join(skills, "reembolso", "SKILL.md") + ")"), line);
      assert.equal((await browser.$$('[data-testid="client-preview"] li[data-code="client_ignores_key"]')).length, 1);
      await typeBudget(browser, "120");
      await fate(browser, "left_out");
      const listing = await browser.$('[data-testid="client-listing"]').getText();
      assert.ok(listing.startsWith("- cotacao"), listing);
      await screenshot(browser, `clients-codex-left-out-${lang}`);
    });

    it("refuses a budget out of range with its code", async () => {
      const { browser } = app;
      await typeBudget(browser, "5");
      const alert = await waitForText(browser, '[data-testid="client-preview"] [role="alert"]', (t) => t.includes("invalid_listing_budget"), "the refusal");
      assert.ok(alert.length > 0);
    });
  });
}
