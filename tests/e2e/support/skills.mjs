// Test material for the skills suite: a temporary skills directory seeded from the repository's
// catalog (the repository itself is never written), and real zip files built by Python's zipfile
// (present on every Debian machine), including a malicious one with a `..` entry name.
import { spawnSync } from "node:child_process";
import { cpSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import assert from "node:assert/strict";
import { click, ROOT, waitForText } from "./harness.mjs";

/** A temporary skills directory holding copies of the named catalog skills. */
export function skillsDirWith(names) {
  const dir = mkdtempSync(join(tmpdir(), "skillcase-e2e-skills-"));
  for (const name of names) cpSync(join(ROOT, "skills-examples", name), join(dir, name), { recursive: true });
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

/**
 * Writes a zip at `path` with `entries` ({ name: text }), names stored exactly as given (so a
 * test can put `../` in one), deflate-compressed.
 */
export function writeZip(path, entries) {
  const script = [
    "import json, sys, zipfile",
    "entries = json.load(sys.stdin)",
    "with zipfile.ZipFile(sys.argv[1], 'w', zipfile.ZIP_DEFLATED) as z:",
    "    for name, text in entries.items():",
    "        z.writestr(zipfile.ZipInfo(name, (2026, 11, 30, 12, 0, 0)), text)",
  ].join("\n");
  const run = spawnSync("python3", ["-c", script, path], { input: JSON.stringify(entries), encoding: "utf8" });
  if (run.status !== 0) throw new Error(`python3 could not write ${path}: ${run.stderr}`);
  return path;
}

/** A valid skill package: a hard keyword, required and optional references, a route, an image and a PDF. */
export function skillPackage(name, { keyword, description }) {
  return {
    [`${name}/SKILL.md`]: `---\nname: ${name}\ndescription: ${description}\n---\n\n# ${name}\n\nAnswer with the table in the required reference.\n`,
    [`${name}/skill.config.yaml`]: [
      "type: prompt",
      "category: vendas",
      "tags: [frete, expresso]",
      "matcher:",
      `  any_keywords: [${keyword}]`,
      "  probe_keywords: [urgente]",
      "references:",
      "  required: [references/tabela.md]",
      "  routes:",
      "    - match: [devolução]",
      "      required_refs: [references/devolucao.md]",
      "",
    ].join("\n"),
    [`${name}/references/tabela.md`]: "# Tabela\n\nSP: 1 dia útil.\n",
    [`${name}/references/faq.md`]: "# FAQ\n\nPerguntas frequentes.\n",
    [`${name}/references/devolucao.md`]: "# Devolução\n\nDevolução em 7 dias.\n",
    [`${name}/assets/selo.svg`]: '<svg xmlns="http://www.w3.org/2000/svg" width="40" height="40"><circle cx="20" cy="20" r="18" fill="#1f7a8c"/></svg>\n',
    [`${name}/assets/manual.pdf`]: "%PDF-1.4\n% a tiny stand-in, never opened\n",
  };
}

/** Writes a file into a temporary folder and returns its path. */
export function tempFile(dir, name, text) {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
}

/** Emits Tauri's drop event with `paths`, as the window does when files are dropped on it. */
export async function dropFiles(browser, paths) {
  const result = await browser.executeAsync((dropped, done) => {
    window.__TAURI_INTERNALS__
      .invoke("plugin:event|emit", { event: "tauri://drag-drop", payload: { paths: dropped, position: { x: 400, y: 300 } } })
      .then(() => done("ok"), (err) => done(`emit failed: ${JSON.stringify(err)}`));
  }, paths);
  assert.equal(result, "ok");
}

export { invoke } from "./harness.mjs";

/** Sets a text field's value the way a paste does (an `input` event the UI reacts to). */
export async function fill(browser, selector, text) {
  await browser.execute(
    (sel, value) => {
      const el = document.querySelector(sel);
      el.focus();
      el.value = value;
      el.dispatchEvent(new Event("input", { bubbles: true }));
    },
    selector,
    text,
  );
}

/** Opens a skill's detail from the library by searching for its name. */
export async function openSkill(browser, name) {
  await click(browser, 'nav button[data-nav="skills"]');
  const back = await browser.$('[data-testid="back"]');
  if (await back.isExisting()) await back.click();
  await fill(browser, '[data-testid="skill-search"]', name);
  // Wait for the search's own answer (a short list holding the skill), not the rows shown before it.
  await browser.waitUntil(
    () =>
      browser.execute((wanted) => {
        const list = document.querySelector('[data-testid="virtual-list"]');
        return Number(list.dataset.total) <= 3 && list.querySelector(`[data-skill="${wanted}"]`) !== null;
      }, name),
    { timeout: 30_000, timeoutMsg: `the search for ${name} should find it` },
  );
  await click(browser, `[data-testid="virtual-list"] [data-skill="${name}"]`);
  await waitForText(browser, "#skill-title", (t) => t === name, `the detail of ${name} should open`);
}
