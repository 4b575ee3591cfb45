// Install to agents on the real window, in English and Portuguese, with eleven agents installed on
// the machine (their config folders in a temporary HOME, so the machine's own folders are never
// written): the skill view's *Install to…* lists this computer's agents first, the ones that read
// the standard's `.agents/skills` as one row, and every other agent behind *Show all* with a
// filter; it copies a library skill into the shared folder and Claude Code's (recording it in the
// skills CLI's user lock too), the drift badge turns to *drifted* when a copied file is edited by
// hand and back to in sync when the dialog installs again, and a project folder holding someone's
// own folder of that name refuses the install (for every ticked folder) until the person ticks the
// replace box. Everything is done by clicking and typing.
import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { click, launchApp, screenshot, textOf, waitForText } from "../support/harness.mjs";

const LANGUAGES = [
  {
    lang: "en",
    env: { LANG: "en_US.UTF-8", LANGUAGE: "en_US" },
    installedTwo: "Installed frete into 2 folders.",
    badgeSync: "Installed · 2",
    badgeDrifted: "Drifted · 2",
    driftedRow: "installed, changed by hand",
  },
  {
    lang: "pt-BR",
    env: { LANG: "pt_BR.UTF-8", LANGUAGE: "pt_BR" },
    installedTwo: "frete instalada em 2 pastas.",
    badgeSync: "Instalada · 2",
    badgeDrifted: "Alterada · 2",
    driftedRow: "instalada, alterada à mão",
  },
];

const SKILL_MD = [
  "---",
  "name: frete",
  "description: Calcula o frete de um pedido. Use quando o cliente pergunta quanto custa a entrega.",
  "---",
  "# Frete",
  "",
  "Leia references/tabela.md antes de responder.",
  "",
].join("\n");

/** A skills directory with the `frete` skill and one reference. */
function skillsDir() {
  const dir = mkdtempSync(join(tmpdir(), "skillcase-e2e-install-"));
  mkdirSync(join(dir, "frete/references"), { recursive: true });
  writeFileSync(join(dir, "frete/SKILL.md"), SKILL_MD);
  writeFileSync(join(dir, "frete/references/tabela.md"), "# Tabela\n\nSul: R$ 20.\n");
  return dir;
}

/** The config folders of the agents "installed" on this machine, under HOME. */
const DETECTED = [".claude", ".codex", ".cursor", ".copilot", ".gemini", ".config/opencode", ".codeium/windsurf", ".roo", ".kiro", ".junie", ".config/goose"];

/** The user-level folders of the detected agents that have their own (Windsurf reads the shared one too). */
const OWN_FOLDERS = [".roo/skills", ".kiro/skills", ".junie/skills", ".config/goose/skills"];

/** Types `text` into the focused field one key at a time, as a person would. */
async function type(browser, selector, text) {
  await click(browser, selector);
  for (const key of text) await browser.keys(key);
}

/** The badge's text and state, or null while there is none. */
async function badge(browser) {
  return browser.execute(() => {
    const el = document.querySelector('[data-testid="install-badge"]');
    return el ? { text: el.textContent.trim(), state: el.dataset.state } : null;
  });
}

async function reopenSkill(browser) {
  await click(browser, '[data-testid="back"]');
  await click(browser, '[data-testid="virtual-list"] [data-skill="frete"]');
  await waitForText(browser, "#skill-title", (t) => t === "frete", "the skill opens again");
}

// CASES_E2E_LANG=en (or pt-BR) runs one language only, for a quicker loop while working.
const only = process.env.CASES_E2E_LANG;
for (const l of LANGUAGES.filter((l) => !only || l.lang === only)) {
  describe(`install to agents (${l.lang})`, { timeout: 300_000 }, () => {
    let app;
    let skills;
    let home;
    let project;
    before(async () => {
      skills = skillsDir();
      home = mkdtempSync(join(tmpdir(), "skillcase-e2e-home-"));
      for (const folder of DETECTED) mkdirSync(join(home, folder), { recursive: true });
      project = mkdtempSync(join(tmpdir(), "skillcase-e2e-project-"));
      app = await launchApp({ env: { GTK_THEME: "Adwaita", HOME: home, SKILLCASE_SKILLS_DIR: skills, SKILLCASE_CATALOG_DIR: "", ...l.env } });
    });
    after(async () => {
      await app?.stop();
      for (const dir of [skills, home, project]) rmSync(dir, { recursive: true, force: true });
    });

    it("lists this computer's agents, the shared folder as one row, and installs into the two kept", async () => {
      const { browser } = app;
      await click(browser, 'nav button[data-nav="skills"]');
      await click(browser, '[data-testid="virtual-list"] [data-skill="frete"]');
      await waitForText(browser, "#skill-title", (t) => t === "frete", "the skill opens");
      assert.equal(await badge(browser), null, "not installed anywhere yet");
      await click(browser, '[data-testid="install-skill"]');
      await waitForText(browser, '[data-testid="install-row"][data-folder=".agents/skills"]', () => true, "the shared folder's row");
      const folders = await browser.execute(() => [...document.querySelectorAll('[data-testid="install-row"]')].map((r) => r.dataset.folder));
      assert.deepEqual(folders.slice(0, 2), [".agents/skills", ".claude/skills"]);
      assert.deepEqual([...folders.slice(2)].sort(), [...OWN_FOLDERS].sort(), "each detected agent with its own folder, nothing else");
      const shared = await textOf(browser, '[data-testid="install-row"][data-folder=".agents/skills"]');
      for (const name of ["Codex", "Cursor", "GitHub Copilot"]) assert.ok(shared.includes(name), shared);
      await screenshot(browser, `install-dialog-${l.lang}`);
      for (const folder of OWN_FOLDERS) await click(browser, `[data-testid="install-row"][data-folder="${folder}"] input`);
      await click(browser, '[data-testid="install-submit"]');
      await waitForText(browser, '[data-testid="install-done"]', (t) => t === l.installedTwo, "the install's report");
      for (const folder of [".claude/skills", ".agents/skills"]) {
        assert.equal(readFileSync(join(home, folder, "frete/SKILL.md"), "utf8"), SKILL_MD);
        const lock = JSON.parse(readFileSync(join(home, folder, "skillcase.lock"), "utf8"));
        assert.ok(lock.skills.frete, `${folder}/skillcase.lock lists frete`);
      }
      const cliLock = JSON.parse(readFileSync(join(home, ".agents/.skill-lock.json"), "utf8"));
      assert.equal(cliLock.version, 3);
      assert.equal(cliLock.skills.frete.sourceType, "local");
      for (const folder of OWN_FOLDERS) assert.ok(!existsSync(join(home, folder)), `${folder} was left unticked and got nothing`);
      await browser.waitUntil(async () => (await badge(browser))?.text === l.badgeSync, { timeout: 20_000, timeoutMsg: "the badge counts 2 copies" });
      assert.equal((await badge(browser)).state, "in_sync");
      await screenshot(browser, `install-badge-${l.lang}`);
    });

    it("shows every other agent behind Show all, found by the filter", async () => {
      const { browser } = app;
      await click(browser, '[data-testid="install-skill"]');
      await click(browser, '[data-testid="install-show-all"]');
      const all = await browser.execute(() => document.querySelectorAll('[data-testid="install-row"]').length);
      assert.ok(all >= 50, `every known agent's folder is listed (${all})`);
      await type(browser, '[data-testid="install-agent-filter"]', "OpenHands");
      await browser.waitUntil(
        async () => (await browser.execute(() => [...document.querySelectorAll('[data-testid="install-row"]')].map((r) => r.dataset.folder))).join() === ".openhands/skills",
        { timeout: 10_000, timeoutMsg: "the filter keeps the OpenHands folder only" },
      );
      await screenshot(browser, `install-all-agents-${l.lang}`);
      await click(browser, '[data-testid="install-dialog"] .modal-buttons button[type="button"]');
    });

    it("shows a copy edited by hand as drifted and installs it back to the library's", async () => {
      const { browser } = app;
      writeFileSync(join(home, ".agents/skills/frete/references/tabela.md"), "# Tabela\n\nSul: grátis.\n");
      await reopenSkill(browser);
      await browser.waitUntil(async () => (await badge(browser))?.text === l.badgeDrifted, { timeout: 20_000, timeoutMsg: "the badge says drifted" });
      await click(browser, '[data-testid="install-badge"]');
      const row = await waitForText(browser, '[data-testid="install-row"][data-folder=".agents/skills"]', (t) => t.includes(l.driftedRow), "the shared folder's row is drifted");
      assert.ok(row.includes("references/tabela.md"), row);
      await screenshot(browser, `install-drifted-${l.lang}`);
      await click(browser, '[data-testid="install-submit"]');
      await waitForText(browser, '[data-testid="install-done"]', (t) => t === l.installedTwo, "installed again");
      assert.equal(readFileSync(join(home, ".agents/skills/frete/references/tabela.md"), "utf8"), "# Tabela\n\nSul: R$ 20.\n");
      await browser.waitUntil(async () => (await badge(browser))?.state === "in_sync", { timeout: 20_000, timeoutMsg: "the badge is in sync again" });
    });

    it("refuses a project folder holding someone's own frete until the replace box is ticked", async () => {
      const { browser } = app;
      mkdirSync(join(project, ".claude/skills/frete"), { recursive: true });
      writeFileSync(join(project, ".claude/skills/frete/SKILL.md"), "someone's own\n");
      await click(browser, '[data-testid="install-skill"]');
      await click(browser, '[data-testid="install-level-other"]');
      await type(browser, '[data-testid="install-project"]', project);
      for (const folder of [".agents/skills", ".claude/skills"]) {
        const box = await browser.$(`[data-testid="install-row"][data-folder="${folder}"] input`);
        if (!(await box.isSelected())) await box.click();
      }
      for (const folder of [".windsurf/skills", ".roo/skills", ".kiro/skills", ".junie/skills", ".goose/skills"]) {
        const box = await browser.$(`[data-testid="install-row"][data-folder="${folder}"] input`);
        if ((await box.isExisting()) && (await box.isSelected())) await box.click();
      }
      await click(browser, '[data-testid="install-submit"]');
      const refusal = await waitForText(browser, '[data-testid="install-error"]', (t) => t.includes("install_conflict"), "the conflict is refused");
      assert.ok(refusal.length > 0);
      assert.equal(readFileSync(join(project, ".claude/skills/frete/SKILL.md"), "utf8"), "someone's own\n", "nothing was written");
      assert.ok(!existsSync(join(project, ".agents")), "the other ticked folder was not written either");
      await screenshot(browser, `install-conflict-${l.lang}`);
      await click(browser, '[data-testid="install-force"]');
      await click(browser, '[data-testid="install-submit"]');
      await waitForText(browser, '[data-testid="install-done"]', (t) => t === l.installedTwo, "installed with replace");
      for (const folder of [".claude/skills", ".agents/skills"]) assert.equal(readFileSync(join(project, folder, "frete/SKILL.md"), "utf8"), SKILL_MD);
      const projectLock = JSON.parse(readFileSync(join(project, "skills-lock.json"), "utf8"));
      assert.equal(projectLock.skills.frete.computedHash.length, 64, "recorded in the skills CLI's project lock");
      await browser.waitUntil(async () => (await badge(browser))?.text.endsWith("4"), { timeout: 20_000, timeoutMsg: "the badge counts 4 copies" });
      assert.equal(await textOf(browser, '[data-testid="install-dialog"]'), null, "the dialog closed");
    });
  });
}
