// The library with 10,000 skills on the real window: the list shows the count quickly, keeps only
// the rows in view in the DOM (windowing), fetches pages over IPC as it scrolls, and searches.
// The measured times are printed so a slowdown is visible in the test output.
import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { launchApp, screenshot, textOf } from "../support/harness.mjs";

const COUNT = 10_000;

describe("the skills library with 10,000 skills", { timeout: 300_000 }, () => {
  let app;
  let dir;
  before(async () => {
    dir = mkdtempSync(join(tmpdir(), "skillcase-e2e-scale-"));
    for (let i = 0; i < COUNT; i++) {
      const name = `skill-${String(i).padStart(5, "0")}`;
      mkdirSync(join(dir, name));
      writeFileSync(join(dir, name, "SKILL.md"), `---\nname: ${name}\ndescription: Skill ${i} answers questions about topic ${i % 97}.\n---\n\nBody ${i}.\n`);
    }
    app = await launchApp({ env: { GTK_THEME: "Adwaita", LANG: "en_US.UTF-8", SKILLCASE_SKILLS_DIR: dir } });
  });
  after(async () => {
    await app?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it("lists them all with only the visible rows in the DOM", async () => {
    const { browser } = app;
    const started = Date.now();
    await browser.waitUntil(async () => /^10,0\d\d skills$/.test((await textOf(browser, '[data-testid="skill-count"]')) ?? ""), {
      timeout: 120_000,
      interval: 100,
      timeoutMsg: "the count of 10,000 skills plus the catalog",
    });
    console.log(`count shown ${Date.now() - started} ms after the window opened`);
    const rows = await browser.execute(() => document.querySelectorAll("[data-testid=virtual-list] .row").length);
    assert.ok(rows > 0 && rows < 50, `${rows} rows in the DOM`);
  });

  it("scrolls to the last skill, fetching its page on the way", async () => {
    const { browser } = app;
    const [ms, rows] = await browser.executeAsync((done) => {
      const list = document.querySelector('[data-testid="virtual-list"]');
      const start = performance.now();
      list.scrollTop = list.scrollHeight;
      const check = () => {
        if (list.querySelector('[data-skill="skill-09999"]')) done([performance.now() - start, list.querySelectorAll(".row").length]);
        else requestAnimationFrame(check);
      };
      check();
    });
    console.log(`last row rendered ${Math.round(ms)} ms after jumping to the bottom; ${rows} rows in the DOM`);
    assert.ok(rows < 50, `${rows} rows in the DOM`);
    assert.ok(ms < 3000, `${ms} ms to show the last page`);
    await screenshot(browser, "skills-scale-bottom");
  });

  it("answers a page and a search over IPC quickly", async () => {
    const { browser } = app;
    const timed = (query) =>
      browser.executeAsync((q, done) => {
        const start = performance.now();
        window.__TAURI_INTERNALS__.invoke("skills_list", { query: q }).then((page) => done([performance.now() - start, page.total, page.items.length]));
      }, query);
    const [pageMs, , items] = await timed({ offset: 9_900, limit: 100 });
    const [searchMs, matches] = await timed({ text: "topic 42", offset: 0, limit: 100 });
    console.log(`page at offset 9,900: ${Math.round(pageMs)} ms; search "topic 42": ${Math.round(searchMs)} ms, ${matches} matches`);
    assert.equal(items, 100);
    assert.ok(matches >= 100, `${matches} matches`);
    assert.ok(pageMs < 1000 && searchMs < 2000, `page ${pageMs} ms, search ${searchMs} ms`);
  });
});
