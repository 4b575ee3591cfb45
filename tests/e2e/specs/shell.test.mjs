// The app shell: the real window opens, navigation works, and the status line shows what Rust
// reports through IPC (the data directory this test chose).
import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { launchApp, screenshot, textOf, waitForText } from "../support/harness.mjs";

const SCREENS = [
  { id: "skills", title: "Skills" },
  { id: "catalog", title: "Catalog" },
  { id: "cases", title: "Cases" },
  { id: "settings", title: "Settings" },
];

describe("the shell (light theme)", { timeout: 180_000 }, () => {
  let app;
  before(async () => {
    app = await launchApp({ env: { GTK_THEME: "Adwaita", LANG: "en_US.UTF-8" } });
  });
  after(async () => app?.stop());

  it("opens a window with the four navigation items", async () => {
    const { browser } = app;
    await waitForText(browser, "h1", (t) => t === "Skills", "the Skills screen should open first");
    const labels = await browser.execute(() => [...document.querySelectorAll("nav button")].map((b) => b.textContent.trim()));
    assert.deepEqual(labels, ["Skills", "Catalog", "Cases", "Settings"]);
    await waitForText(browser, '[data-field="version"]', (t) => t.startsWith("Skillcase"), "status line loads");
    await screenshot(browser, "shell-light");
  });

  it("shows each screen when its navigation item is clicked", async () => {
    const { browser } = app;
    for (const screen of SCREENS) {
      await (await browser.$(`nav button[data-nav="${screen.id}"]`)).click();
      await waitForText(browser, "h1", (t) => t === screen.title, `clicking ${screen.id} should show ${screen.title}`);
      await screenshot(browser, `screen-${screen.id}`);
    }
  });

  it("shows the data directory chosen by the test in the status line, read from Rust", async () => {
    const { browser, dataDir } = app;
    const text = await waitForText(
      browser,
      '[data-testid="status-line"]',
      (t) => t.includes(dataDir),
      `status line should show ${dataDir}`,
    );
    assert.match(text, /Skillcase \d+\.\d+\.\d+/);
    assert.ok(text.includes(`${dataDir}/skillcase.sqlite3`), text);
    assert.ok(text.includes("skills-examples"), text);
  });

  it("runs the local agent API inside the app, answering with the token from the data directory", async () => {
    const { browser, dataDir } = app;
    const shown = await waitForText(browser, '[data-field="api"]', (t) => t.includes("http://127.0.0.1:"), "API URL");
    const url = shown.match(/http:\/\/127\.0\.0\.1:\d+/)[0];
    const token = readFileSync(join(dataDir, "api-token"), "utf8").trim();
    const answer = await fetch(`${url}/v1/openapi.json`, { headers: { Authorization: `Bearer ${token}` } });
    assert.equal(answer.status, 200);
    assert.equal((await answer.json()).openapi, "3.1.0");
    const refused = await fetch(`${url}/v1/openapi.json`, { headers: { Authorization: "Bearer wrong" } });
    assert.equal(refused.status, 401);
  });
});

describe("the shell (dark theme)", { timeout: 180_000 }, () => {
  let app;
  before(async () => {
    app = await launchApp({ env: { GTK_THEME: "Adwaita:dark", } });
  });
  after(async () => app?.stop());

  it("follows the system's dark theme", async () => {
    const { browser } = app;
    await waitForText(browser, "h1", (t) => t.length > 0, "a screen should open");
    await waitForText(browser, '[data-field="version"]', (t) => t.startsWith("Skillcase"), "status line loads");
    const background = await browser.execute(() => getComputedStyle(document.body).backgroundColor);
    assert.equal(background, "rgb(21, 25, 29)", "dark background from prefers-color-scheme: dark");
    await screenshot(browser, "shell-dark");
  });
});
