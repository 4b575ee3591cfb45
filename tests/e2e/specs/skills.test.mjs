// The Skills and Catalog screens on the real window: import by the drop event (the real
// handler, fed by an emitted `tauri://drag-drop`) and by the command, a refused malicious zip,
// the three disclosure levels with the required/optional split, try a message, an edit refused
// while invalid, restoring an older version, and installing a catalog skill. Each run uses a
// temporary skills directory, so the repository is never written.
import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { appendFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { launchApp, screenshot, textOf, waitForText } from "../support/harness.mjs";
import { dropFiles, fill, invoke, openSkill, skillPackage, skillsDirWith, writeZip } from "../support/skills.mjs";

const SEEDED = ["trocas-e-devolucoes", "politica-de-frete"];
const EXPRESSO = skillPackage("frete-expresso", { keyword: "expresso", description: '"Frete expresso: prazos e preços da entrega em 24 h."' });
const AGENDADA = skillPackage("entrega-agendada", { keyword: "agendada", description: "Entrega agendada em dia e turno escolhidos." });
const EVIL = {
  "evil/SKILL.md": "---\nname: evil\ndescription: Looks harmless.\n---\nBody.\n",
  "../../outside.md": "escapes the skills directory",
};

async function click(browser, selector) {
  const el = await browser.$(selector);
  await el.waitForExist({ timeout: 30_000, timeoutMsg: `${selector} should exist` });
  await el.click();
}

describe("skills screens (light theme, English)", { timeout: 300_000 }, () => {
  let app;
  let skills;
  let zips;
  before(async () => {
    skills = skillsDirWith(SEEDED);
    appendFileSync(join(skills.dir, "trocas-e-devolucoes/SKILL.md"), "\nLocal note: exchanges also at the Centro store.\n");
    zips = mkdtempSync(join(tmpdir(), "skillcase-e2e-zips-"));
    app = await launchApp({ env: { GTK_THEME: "Adwaita", LANG: "en_US.UTF-8", SKILLCASE_SKILLS_DIR: skills.dir } });
  });
  after(async () => {
    await app?.stop();
    skills?.remove();
    rmSync(zips, { recursive: true, force: true });
  });

  it("lists every skill with origin, type and validity, and searches as you type", async () => {
    const { browser } = app;
    await waitForText(browser, '[data-testid="skill-count"]', (t) => t === "11 skills", "the catalog and the seeded copies");
    const row = await textOf(browser, '[data-testid="virtual-list"] [data-skill="cotacao-de-frete"]');
    assert.match(row, /cotacao-de-frete catalog compute-entry 1 warning/);
    await screenshot(browser, "skills-library-light-en");
    await fill(browser, '[data-testid="skill-search"]', "frete");
    await waitForText(browser, '[data-testid="skill-count"]', (t) => t === "2 skills", "search for frete");
    const names = await browser.execute(() => [...document.querySelectorAll("[data-testid=virtual-list] [data-skill]")].map((e) => e.dataset.skill));
    assert.deepEqual(names, ["cotacao-de-frete", "politica-de-frete"]);
    await screenshot(browser, "skills-search-filtered-light-en");
    await click(browser, '[role="search"] .clear');
    await waitForText(browser, '[data-testid="skill-count"]', (t) => t === "11 skills", "Clear filters");
    assert.equal(await browser.execute(() => document.querySelector('[data-testid="skill-search"]').value), "");
    assert.equal(await browser.$('[role="search"] .clear').isExisting(), false, "Clear hides once nothing is filtered");
  });

  it("imports a valid zip dropped on the window and reports its version and files", async () => {
    const { browser } = app;
    const zip = writeZip(join(zips, "frete-expresso.zip"), EXPRESSO);
    await dropFiles(browser, [zip]);
    const report = await waitForText(browser, '[data-testid="import-report"] [data-state="imported"]', (t) => t.includes("frete-expresso"), "drop import report");
    assert.match(report, /imported frete-expresso, version \d+/);
    const files = await browser.execute(() =>
      [...document.querySelectorAll('[data-state="imported"] tbody tr')].map((tr) => [...tr.children].map((td) => td.textContent.trim())),
    );
    assert.deepEqual(files.map((f) => [f[0], f[1]]), [
      ["SKILL.md", "SKILL.md"],
      ["assets/manual.pdf", "asset"],
      ["assets/selo.svg", "asset"],
      ["references/devolucao.md", "reference"],
      ["references/faq.md", "reference"],
      ["references/tabela.md", "reference"],
      ["skill.config.yaml", "config"],
    ]);
    assert.ok(files.every((f) => /^[0-9a-f]{12}$/.test(f[3])), "each file has a 12-digit short hash");
    await waitForText(browser, '[data-testid="skill-count"]', (t) => t === "12 skills", "the imported skill is listed");
    await screenshot(browser, "skills-import-report-light-en");
  });

  it("imports through the command too, and the list picks the new skill up from the change event", async () => {
    const { browser } = app;
    const zip = writeZip(join(zips, "entrega-agendada.zip"), AGENDADA);
    const answer = await invoke(browser, "skills_import", { path: zip });
    assert.equal(answer.ok?.name, "entrega-agendada", JSON.stringify(answer));
    await waitForText(browser, '[data-testid="skill-count"]', (t) => t === "13 skills", "the list refreshes from skill-changed");
    assert.ok(await textOf(browser, '[data-testid="virtual-list"] [data-skill="entrega-agendada"]'));
  });

  it("shows an edit made in an external editor within a second, without a reload", async () => {
    const { browser } = app;
    const file = join(skills.dir, "entrega-agendada", "SKILL.md");
    const started = Date.now();
    writeFileSync(file, readFileSync(file, "utf8").replace("Entrega agendada em dia e turno escolhidos.", "Entrega agendada, editada fora do app."));
    await waitForText(browser, '[data-testid="virtual-list"] [data-skill="entrega-agendada"]', (t) => t.includes("editada fora do app"), "the external edit");
    const elapsed = Date.now() - started;
    assert.ok(elapsed < 1500, `shown after ${elapsed} ms`);
  });

  it("refuses a malicious zip and shows the finding with its code", async () => {
    const { browser } = app;
    const zip = writeZip(join(zips, "evil.zip"), EVIL);
    await dropFiles(browser, [zip]);
    const refused = await waitForText(browser, '[data-testid="import-report"] [data-state="refused"]', (t) => t.includes("evil.zip"), "refusal report");
    assert.match(refused, /refused/);
    assert.ok(await textOf(browser, '[data-state="refused"] [data-code="zip_path_traversal"]'), refused);
    await screenshot(browser, "skills-import-refused-light-en");
    await waitForText(browser, '[data-testid="skill-count"]', (t) => t === "13 skills", "nothing was added");
  });

  it("imports a skill folder dropped on the window", async () => {
    const { browser } = app;
    const folder = join(zips, "retirada-na-loja");
    mkdirSync(join(folder, "references"), { recursive: true });
    writeFileSync(join(folder, "SKILL.md"), "---\nname: retirada-na-loja\ndescription: Retirada do pedido na loja física.\n---\n\nSee [hours](references/horarios.md).\n");
    writeFileSync(join(folder, "references", "horarios.md"), "# Horários\n\n9h às 18h.\n");
    await dropFiles(browser, [folder]);
    const report = await waitForText(browser, '[data-testid="import-report"] [data-source="retirada-na-loja"]', (t) => t.includes("imported"), "folder import report");
    assert.match(report, /imported retirada-na-loja, version \d+/);
    assert.match(report, /references\/horarios\.md\s*reference/);
  });

  it("opens a skill with the keyboard and shows the three levels with the required/optional split", async () => {
    const { browser } = app;
    const close = await browser.$('[data-testid="import-report"] .close');
    if (await close.isExisting()) await close.click();
    await browser.execute(() => document.activeElement?.blur());
    await browser.keys("/");
    assert.equal(await browser.execute(() => document.activeElement?.dataset.testid), "skill-search");
    // One key per call: WebKitWebDriver drops the second of two equal keys sent together.
    for (const key of "expresso") await browser.keys(key);
    assert.equal(await browser.execute(() => document.querySelector('[data-testid="skill-search"]').value), "expresso");
    await waitForText(browser, '[data-testid="virtual-list"]', (t) => t.includes("frete-expresso") && !t.includes("politica-de-frete"), "search narrows the list");
    const names = await browser.execute(() => [...document.querySelectorAll("[data-testid=virtual-list] [data-skill]")].map((e) => e.dataset.skill));
    for (let i = 0; i <= names.indexOf("frete-expresso"); i++) await browser.keys(["ArrowDown"]);
    await browser.keys(["Enter"]);
    await waitForText(browser, "#skill-title", (t) => t === "frete-expresso", "Enter opens the selected skill");

    const required = await waitForText(browser, '[data-block="required"]', (t) => t.length > 0, "level 2 required block");
    assert.equal(required, "<skill_required_references> Read every document below with read_skill_file before you act. - references/tabela.md </skill_required_references>");
    const optional = await textOf(browser, '[data-block="optional"]');
    assert.equal(
      optional,
      "<skill_optional_references> Read these with read_skill_file only when the task needs them. - assets/manual.pdf - assets/selo.svg - references/devolucao.md - references/faq.md </skill_optional_references>",
    );
    await screenshot(browser, "skills-level2-light-en");

    await fill(browser, '[data-testid="task-input"]', "cliente quer devolução");
    await waitForText(browser, '[data-block="route_matched"]', (t) => t.includes("--- references/devolucao.md ---"), "route-matched references inlined");
    assert.match(await textOf(browser, '[data-block="required"]'), /- references\/tabela.md - references\/devolucao.md/);

    await click(browser, '[data-tab="level1"]');
    const entry = await waitForText(browser, '[data-testid="index-entry"]', (t) => t.length > 0, "this skill's index entry");
    assert.match(entry, /^<skill name="frete-expresso" type="prompt" category="vendas" tags="frete,expresso">/);
    assert.match(await textOf(browser, '[data-testid="index-position"]'), /Entry \d+ of \d+ in the index/);
    await screenshot(browser, "skills-level1-light-en");

    await click(browser, '[data-tab="level3"]');
    await click(browser, '[data-testid="file-tree"] [data-path="references/tabela.md"]');
    await waitForText(browser, '[data-testid="file-text"]', (t) => t === "# Tabela SP: 1 dia útil.", "level 3 text of the file");
    await screenshot(browser, "skills-level3-light-en");
    await click(browser, '[data-testid="file-tree"] [data-path="assets/selo.svg"]');
    await browser.waitUntil(() => browser.execute(() => document.querySelector('[data-testid="file-pane"] img')?.src.startsWith("data:image/svg+xml;base64,")), {
      timeout: 30_000,
      timeoutMsg: "the image is previewed",
    });
    await screenshot(browser, "skills-level3-image-light-en");
    await click(browser, '[data-testid="file-tree"] [data-path="assets/manual.pdf"]');
    const binary = await waitForText(browser, '[data-testid="binary-file"]', (t) => t.length > 0, "a binary file shows type and size");
    assert.match(binary, /^pdf · \d+ B/);
  });

  it("tries a message and shows which skill fires and what the agent receives next", async () => {
    const { browser } = app;
    await click(browser, '[data-tab="try"]');
    await fill(browser, '[data-testid="try-input"]', "Quero o frete EXPRESSO para amanhã");
    await click(browser, '[data-testid="try-run"]');
    const hit = await waitForText(browser, '[data-testid="try-matches"] [data-skill="frete-expresso"]', (t) => t.length > 0, "the expected skill fires");
    assert.match(hit, /fires frete-expresso keyword “expresso”/);
    assert.equal(await browser.execute(() => document.querySelector('[data-skill="frete-expresso"][data-trigger]').dataset.trigger), "hard");
    await waitForText(browser, '.receives[data-skill="frete-expresso"] [data-block="required"]', (t) => t.includes("references/tabela.md"), "level 2 of the hard match");
    await screenshot(browser, "skills-try-light-en");
  });

  it("refuses to save an edit that makes the skill invalid, and saves a valid one", async () => {
    const { browser } = app;
    await click(browser, '[data-tab="edit"]');
    const original = await waitForText(browser, '[data-testid="editor-text"]', () => true, "the editor loads SKILL.md");
    void original;
    const text = await browser.execute(() => document.querySelector('[data-testid="editor-text"]').value);
    await fill(browser, '[data-testid="editor-text"]', text.replace("name: frete-expresso", "name: Frete Expresso"));
    await waitForText(browser, '[data-testid="editor-state"]', (t) => t === "Save is off while there are errors: fix them first.", "live validation");
    assert.equal(await browser.execute(() => document.querySelector('[data-testid="editor-save"]').disabled), true);
    const codes = await browser.execute(() => [...document.querySelectorAll("[data-testid=editor] [data-code]")].map((e) => e.dataset.code));
    assert.ok(codes.length > 0, "the findings are listed under the editor");
    await screenshot(browser, "skills-editor-invalid-light-en");
    const forced = await invoke(browser, "skill_save_file", { name: "frete-expresso", path: "SKILL.md", text: text.replace("name: frete-expresso", "name: Frete Expresso") });
    assert.ok(forced.err?.code, "the backend refuses the same save with a code");

    await fill(browser, '[data-testid="editor-text"]', text.replace("Answer with the table", "Answer with the updated table"));
    await waitForText(browser, '[data-testid="editor-state"]', (t) => t === "Unsaved changes", "a valid draft");
    await click(browser, '[data-testid="editor-save"]');
    await waitForText(browser, '[data-testid="editor-state"]', (t) => t === "Saved.", "the save went through");
  });

  it("restores an older version after confirmation", async () => {
    const { browser } = app;
    await click(browser, '[data-tab="versions"]');
    await browser.$('[data-testid="versions-panel"] tr[data-version]').waitForExist({ timeout: 30_000 });
    const rows = await browser.execute(() => [...document.querySelectorAll("[data-testid=versions-panel] tr[data-version]")].map((r) => ({ id: r.dataset.version, live: r.classList.contains("live"), text: r.textContent })));
    assert.equal(rows.length, 2, JSON.stringify(rows));
    assert.ok(rows[0].live && /edit/.test(rows[0].text) && /import/.test(rows[1].text), JSON.stringify(rows));
    await waitForText(browser, '[data-testid="diff"]', (t) => t.includes("Answer with the updated table"), "the diff of the two versions");
    await screenshot(browser, "skills-versions-light-en");
    await click(browser, `[data-testid="restore-${rows[1].id}"]`);
    await click(browser, '[data-testid="confirm-ok"]');
    await waitForText(browser, '[data-testid="restored"]', (t) => t.includes("v1"), "restored message names the skill's first version");
    await click(browser, '[data-tab="level2"]');
    await waitForText(browser, '[data-testid="level-text"]', (t) => t.includes("Answer with the table in the required reference."), "level 2 shows the restored body");
  });

  it("charts the activations the agent API recorded, hard and probe", async () => {
    const { browser, dataDir } = app;
    const shown = await waitForText(browser, '[data-field="api"]', (t) => t.includes("http://127.0.0.1:"), "API URL");
    const url = shown.match(/http:\/\/127\.0\.0\.1:\d+/)[0];
    const token = readFileSync(join(dataDir, "api-token"), "utf8").trim();
    const messages = ["frete expresso para SP", "quero o expresso", "tem expresso?", "é urgente", "muito urgente"];
    for (const [i, message] of messages.entries()) {
      const answer = await fetch(`${url}/v1/skills/match`, {
        method: "POST",
        headers: { Authorization: `Bearer ${token}`, "Content-Type": "application/json" },
        body: JSON.stringify({ conversation_id: `c${i}`, message }),
      });
      assert.equal(answer.status, 200, await answer.text());
    }
    await click(browser, '[data-tab="activity"]');
    const chart = await waitForText(browser, '[data-testid="activity-chart"] figcaption', (t) => t.length > 0, "the activity chart");
    assert.equal(chart, "hard: 3 probe: 2");
    assert.equal(await browser.execute(() => document.querySelectorAll("[data-testid=activity-chart] rect").length), 2);
    await screenshot(browser, "skills-activity-light-en");
  });

  it("creates a skill from the template, adds and removes a reference, and deletes the skill after confirming", async () => {
    const { browser } = app;
    await click(browser, 'nav button[data-nav="skills"]');
    const back = await browser.$('[data-testid="back"]');
    if (await back.isExisting()) await back.click();
    await click(browser, '[data-testid="new-skill"]');
    await fill(browser, '[data-testid="new-skill-name"]', "cupom-de-desconto");
    await fill(browser, '[data-testid="new-skill-description"]', "Explica como aplicar um cupom de desconto no carrinho.");
    await click(browser, '[data-testid="new-skill-create"]');
    await waitForText(browser, "#skill-title", (t) => t === "cupom-de-desconto", "the new skill opens");

    await click(browser, '[data-tab="edit"]');
    await browser.$('[data-testid="editor-text"]').waitForExist({ timeout: 30_000 });
    await fill(browser, '[data-testid="add-path"]', "references/regras.md");
    await click(browser, '.add button[type="submit"]');
    await fill(browser, '[data-testid="editor-text"]', "# Regras\n\nUm cupom por pedido.\n");
    await waitForText(browser, '[data-testid="editor-state"]', (t) => t === "Unsaved changes", "the new file checks clean");
    await click(browser, '[data-testid="editor-save"]');
    await waitForText(browser, '[data-testid="editor-state"]', (t) => t === "Saved.", "the new reference is saved");
    await click(browser, '[data-tab="level2"]');
    await waitForText(browser, '[data-block="optional"]', (t) => t.includes("- references/regras.md"), "the new reference is offered");

    await click(browser, '[data-tab="edit"]');
    await browser.$('[data-testid="editor-file"]').waitForExist({ timeout: 30_000 });
    await browser.execute(() => {
      const select = document.querySelector('[data-testid="editor-file"]');
      select.value = "references/regras.md";
      select.dispatchEvent(new Event("change", { bubbles: true }));
    });
    await click(browser, '[data-testid="remove-file"]');
    await click(browser, '[data-testid="confirm-ok"]');
    await click(browser, '[data-tab="level3"]');
    await browser.waitUntil(async () => !(await browser.$('[data-testid="file-tree"] [data-path="references/regras.md"]').isExisting()), {
      timeout: 30_000,
      timeoutMsg: "the reference is gone from the file tree",
    });

    await click(browser, '[data-testid="delete-skill"]');
    await click(browser, '[data-testid="confirm-ok"]');
    await browser.$('[data-testid="skills-library"]').waitForExist({ timeout: 30_000 });
    await browser.waitUntil(
      () => browser.execute(() => document.querySelector('[data-testid="virtual-list"] [data-skill="cupom-de-desconto"]') === null),
      { timeout: 30_000, timeoutMsg: "the deleted skill is no longer listed" },
    );
    assert.equal((await invoke(browser, "skill_detail", { name: "cupom-de-desconto" })).err?.code, "skill_not_found");
  });

  it("installs a catalog skill and marks it installed", async () => {
    const { browser } = app;
    await click(browser, 'nav button[data-nav="catalog"]');
    await waitForText(browser, '[data-testid="catalog"] [data-skill="politica-de-frete"]', (t) => t.length > 0, "catalog cards");
    assert.equal(await browser.execute(() => document.querySelector('[data-skill="politica-de-frete"]').dataset.installed), "true");
    await click(browser, '[data-skill="onboarding-faq"] [data-testid="install"]');
    await waitForText(browser, '[data-skill="onboarding-faq"] [data-testid="mark-installed"]', (t) => t === "Installed", "installed mark");
    await screenshot(browser, "catalog-light-en");
    await openSkill(browser, "onboarding-faq");
    assert.match(await textOf(browser, '[data-testid="skill-detail"] [data-badge="origin"]'), /catalog · locally overridden|local/);
  });

  it("marks an overridden catalog skill and brings the catalog version back when the override is removed", async () => {
    const { browser } = app;
    await click(browser, 'nav button[data-nav="catalog"]');
    await waitForText(browser, '[data-skill="trocas-e-devolucoes"] [data-testid="mark-overridden"]', (t) => t === "Locally overridden", "overridden mark");
    await click(browser, '[data-skill="trocas-e-devolucoes"] [data-testid="remove-override"]');
    await click(browser, '[data-testid="confirm-ok"]');
    await browser.$('[data-skill="trocas-e-devolucoes"] [data-testid="install"]').waitForExist({ timeout: 30_000, timeoutMsg: "the catalog skill can be installed again" });
    await openSkill(browser, "trocas-e-devolucoes");
    assert.equal(await textOf(browser, '[data-testid="skill-detail"] [data-badge="origin"]'), "catalog");
  });
});

/** Switches language and theme on the Settings screen, which applies them at once. */
async function appearance(browser, language, theme) {
  await click(browser, 'nav button[data-nav="settings"]');
  await click(browser, `input[name="language"][value="${language}"] + span`);
  await click(browser, `input[name="theme"][value="${theme}"] + span`);
  await browser.waitUntil(
    () => browser.execute((l, th) => document.documentElement.lang === l && document.documentElement.dataset.theme === th, language, theme),
    { timeout: 30_000, timeoutMsg: `the window should switch to ${language} / ${theme}` },
  );
}

describe("every skills screen in both themes and both languages", { timeout: 400_000 }, () => {
  let app;
  let skills;
  let zips;
  before(async () => {
    skills = skillsDirWith(SEEDED);
    appendFileSync(join(skills.dir, "politica-de-frete/SKILL.md"), "\nLocal note: store pickup closes at 18h.\n");
    zips = mkdtempSync(join(tmpdir(), "skillcase-e2e-zips-"));
    app = await launchApp({ env: { GTK_THEME: "Adwaita", LANG: "en_US.UTF-8", SKILLCASE_SKILLS_DIR: skills.dir } });
    const { browser } = app;
    await waitForText(browser, '[data-testid="skill-count"]', (t) => /\d/.test(t), "the library loads");
    const zip = writeZip(join(zips, "frete-expresso.zip"), EXPRESSO);
    assert.ok((await invoke(browser, "skills_import", { path: zip })).ok);
    const text = (await invoke(browser, "skill_source", { name: "frete-expresso", path: "SKILL.md" })).ok;
    const edited = text.replace("Answer with the table", "Answer with the updated table");
    assert.ok((await invoke(browser, "skill_save_file", { name: "frete-expresso", path: "SKILL.md", text: edited })).ok);
  });
  after(async () => {
    await app?.stop();
    skills?.remove();
    rmSync(zips, { recursive: true, force: true });
  });

  for (const [theme, language] of [
    ["light", "en"],
    ["dark", "en"],
    ["light", "pt-BR"],
    ["dark", "pt-BR"],
  ]) {
    it(`shows the library, the import report, the skill tabs and the catalog (${theme}, ${language})`, async () => {
      const { browser } = app;
      const tag = `${theme}-${language}`;
      await appearance(browser, language, theme);
      await click(browser, 'nav button[data-nav="skills"]');
      const back = await browser.$('[data-testid="back"]');
      if (await back.isExisting()) await back.click();
      await fill(browser, '[data-testid="skill-search"]', "");
      await dropFiles(browser, [writeZip(join(zips, "evil.zip"), EVIL), writeZip(join(zips, "entrega-agendada.zip"), AGENDADA)]);
      await browser.$('[data-testid="import-report"] [data-state="imported"]').waitForExist({ timeout: 30_000 });
      await screenshot(browser, `tour-import-${tag}`);
      await click(browser, '[data-testid="import-report"] .close');
      await screenshot(browser, `tour-library-${tag}`);
      await fill(browser, '[data-testid="skill-search"]', "zzz-nothing");
      await browser.$('[data-testid="skills-empty"]').waitForExist({ timeout: 30_000 });
      await screenshot(browser, `tour-library-empty-${tag}`);

      await openSkill(browser, "frete-expresso");
      await fill(browser, '[data-testid="task-input"]', "devolução");
      await browser.$('[data-block="route_matched"]').waitForExist({ timeout: 30_000 });
      await screenshot(browser, `tour-level2-${tag}`);
      await click(browser, '[data-tab="level1"]');
      await browser.$('[data-testid="index-entry"]').waitForExist({ timeout: 30_000 });
      await screenshot(browser, `tour-level1-${tag}`);
      await click(browser, '[data-tab="level3"]');
      await browser.$('[data-testid="file-text"]').waitForExist({ timeout: 30_000 });
      await screenshot(browser, `tour-level3-${tag}`);
      await click(browser, '[data-tab="try"]');
      await fill(browser, '[data-testid="try-input"]', "preciso do frete expresso, é urgente");
      await click(browser, '[data-testid="try-run"]');
      await browser.$('[data-testid="try-matches"]').waitForExist({ timeout: 30_000 });
      await screenshot(browser, `tour-try-${tag}`);
      await click(browser, '[data-tab="versions"]');
      await browser.$('[data-testid="diff"]').waitForExist({ timeout: 30_000 });
      await screenshot(browser, `tour-versions-${tag}`);
      await click(browser, '[data-tab="activity"]');
      await browser.$('[data-testid="activity-chart"]').waitForExist({ timeout: 30_000 });
      await screenshot(browser, `tour-activity-${tag}`);
      await click(browser, '[data-tab="edit"]');
      await browser.$('[data-testid="editor-text"]').waitForExist({ timeout: 30_000 });
      const text = await browser.execute(() => document.querySelector('[data-testid="editor-text"]').value);
      await fill(browser, '[data-testid="editor-text"]', text.replace('description: "', 'description: '));
      await browser.$('[data-testid="editor-findings"] [data-code]').waitForExist({ timeout: 30_000 });
      await screenshot(browser, `tour-editor-${tag}`);
      await fill(browser, '[data-testid="editor-text"]', text);

      await openSkill(browser, "cotacao-de-frete");
      await click(browser, '[data-tab="validation"]');
      await browser.$('[data-testid="findings"]').waitForExist({ timeout: 30_000 });
      await screenshot(browser, `tour-validation-${tag}`);

      await click(browser, 'nav button[data-nav="catalog"]');
      await browser.$('[data-testid="catalog"] [data-skill]').waitForExist({ timeout: 30_000 });
      await screenshot(browser, `tour-catalog-${tag}`);
    });
  }
});
