// Remote catalogs on the real window, in English and Portuguese: a static JSON index served by a
// real HTTP server on 127.0.0.1 (counting the requests) is subscribed by typing its URL; the first
// pull downloads every file, installing a skill makes a local fork; when upstream changes a file
// the next pull downloads only that file and the skill says *update available*, and Update brings
// it; when upstream drops a skill the local copy stays, marked *upstream removed*.
import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createServer } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Key } from "webdriverio";
import { click, launchApp, screenshot, waitForText } from "../support/harness.mjs";

const LANGUAGES = [
  {
    lang: "en",
    env: { LANG: "en_US.UTF-8", LANGUAGE: "en_US" },
    firstPull: "2 new, 0 updated, 0 unchanged, 0 removed; 3 files downloaded.",
    installed: (name, url) => `Installed ${name} from ${url}.`,
    updatePull: "0 new, 1 updated, 1 unchanged, 0 removed; 1 files downloaded.",
    updated: (url) => `Updated frete from ${url}.`,
    removedPull: "0 new, 0 updated, 1 unchanged, 1 removed; 0 files downloaded.",
  },
  {
    lang: "pt-BR",
    env: { LANG: "pt_BR.UTF-8", LANGUAGE: "pt_BR" },
    firstPull: "2 novas, 0 atualizadas, 0 sem mudança, 0 removidas; 3 arquivos baixados.",
    installed: (name, url) => `${name} instalada de ${url}.`,
    updatePull: "0 novas, 1 atualizadas, 1 sem mudança, 0 removidas; 1 arquivos baixados.",
    updated: (url) => `frete atualizada de ${url}.`,
    removedPull: "0 novas, 0 atualizadas, 1 sem mudança, 1 removidas; 0 arquivos baixados.",
  },
];

const skillMd = (name, description) => `---\nname: ${name}\ndescription: ${description}\n---\n# ${name}\n\nLeia references/tabela.md.\n`;

/** A static catalog: `skills` maps a name to its files ({ path: text }); `index.json` lists them. */
async function startCatalog() {
  const skills = {
    frete: {
      "SKILL.md": skillMd("frete", "Calcula o frete de um pedido. Use quando o cliente pergunta quanto custa a entrega."),
      "references/tabela.md": "# Tabela\n\nSul: R$ 20.\n",
    },
    cep: { "SKILL.md": skillMd("cep", "Confere um CEP. Use quando o cliente informa o endereço de entrega.") },
  };
  const requests = [];
  const sha = (text) => createHash("sha256").update(text).digest("hex");
  const index = () => ({
    skills: Object.entries(skills).map(([name, files]) => ({
      name,
      version: name === "frete" && files["references/tabela.md"].includes("grátis") ? "1.1.0" : "1.0.0",
      description: `${name} skill`,
      files: Object.entries(files).map(([path, text]) => ({ path, sha256: sha(text), size: Buffer.byteLength(text) })),
    })),
  });
  const server = createServer((req, res) => {
    const path = decodeURIComponent(new URL(req.url, "http://x").pathname);
    requests.push(path);
    if (path === "/cat/index.json") {
      res.writeHead(200, { "content-type": "application/json" });
      return res.end(JSON.stringify(index()));
    }
    const [, , name, ...rest] = path.split("/");
    const text = skills[name]?.[rest.join("/")];
    if (text === undefined) {
      res.writeHead(404);
      return res.end();
    }
    res.writeHead(200, { "content-type": "application/octet-stream" });
    res.end(text);
  });
  await new Promise((r) => server.listen(0, "127.0.0.1", r));
  const url = `http://127.0.0.1:${server.address().port}/cat/index.json`;
  return {
    url,
    skills,
    /** The file downloads since the last call (the index itself left out). */
    downloads() {
      const files = requests.filter((p) => p !== "/cat/index.json");
      requests.length = 0;
      return files;
    },
    stop: () => server.close(),
  };
}

/** The marks of the remote skill `name`, as data-marks lists them. */
const marks = (browser, name) =>
  browser.execute((n) => document.querySelector(`[data-testid="remote-skill"][data-skill="${n}"]`)?.dataset.marks ?? null, name);

async function installSkill(browser, name) {
  await click(browser, `[data-testid="remote-skill"][data-skill="${name}"] [data-testid="remote-install"]`);
}

const only = process.env.CASES_E2E_LANG;
for (const l of LANGUAGES.filter((x) => !only || x.lang === only)) {
  describe(`remote catalogs (${l.lang})`, { timeout: 300_000 }, () => {
    let app;
    let catalog;
    let skillsDir;
    before(async () => {
      catalog = await startCatalog();
      skillsDir = mkdtempSync(join(tmpdir(), "skillcase-e2e-remote-"));
      mkdirSync(skillsDir, { recursive: true });
      app = await launchApp({ env: { GTK_THEME: "Adwaita", SKILLCASE_SKILLS_DIR: skillsDir, SKILLCASE_CATALOG_DIR: "", ...l.env } });
      await click(app.browser, 'nav button[data-nav="catalog"]');
    });
    after(async () => {
      await app?.stop();
      catalog?.stop();
      rmSync(skillsDir, { recursive: true, force: true });
    });

    it("subscribes by typing the URL and the first pull downloads every file", async () => {
      const { browser } = app;
      await click(browser, '[data-testid="remote-url"]');
      for (const key of catalog.url) await browser.keys(key);
      await browser.keys(Key.Enter);
      await waitForText(browser, '[data-testid="remote-status"]', (t) => t === `${catalog.url}: ${l.firstPull}`, "the first pull's report");
      assert.deepEqual(catalog.downloads().sort(), ["/cat/cep/SKILL.md", "/cat/frete/SKILL.md", "/cat/frete/references/tabela.md"]);
      await screenshot(browser, `remote-subscribed-${l.lang}`);
    });

    it("installs both skills as local forks", async () => {
      const { browser } = app;
      for (const name of ["frete", "cep"]) {
        await installSkill(browser, name);
        await waitForText(browser, '[data-testid="remote-status"]', (t) => t === l.installed(name, catalog.url), `${name} installed`);
        assert.ok(existsSync(join(skillsDir, name, "SKILL.md")), `${name} is in the skills directory`);
      }
      assert.equal(await marks(browser, "frete"), "installed");
    });

    it("pulls only the changed file and offers the update, which brings it", async () => {
      const { browser } = app;
      catalog.skills.frete["references/tabela.md"] = "# Tabela\n\nSul: grátis.\n";
      await click(browser, '[data-testid="remote-pull"]');
      await waitForText(browser, '[data-testid="remote-status"]', (t) => t === `${catalog.url}: ${l.updatePull}`, "the second pull's report");
      assert.deepEqual(catalog.downloads(), ["/cat/frete/references/tabela.md"], "only the changed file is downloaded");
      assert.equal(await marks(browser, "frete"), "update_available installed");
      await screenshot(browser, `remote-update-available-${l.lang}`);
      await installSkill(browser, "frete");
      await waitForText(browser, '[data-testid="remote-status"]', (t) => t === l.updated(catalog.url), "the update is installed");
      assert.equal(readFileSync(join(skillsDir, "frete/references/tabela.md"), "utf8"), "# Tabela\n\nSul: grátis.\n");
      assert.equal(await marks(browser, "frete"), "installed");
    });

    it("keeps the local copy of a skill upstream removed, marked as such", async () => {
      const { browser } = app;
      delete catalog.skills.cep;
      await click(browser, '[data-testid="remote-pull"]');
      await waitForText(browser, '[data-testid="remote-status"]', (t) => t === `${catalog.url}: ${l.removedPull}`, "the third pull's report");
      assert.equal(await marks(browser, "cep"), "upstream_removed installed");
      assert.ok(existsSync(join(skillsDir, "cep", "SKILL.md")), "the local copy stays");
      await screenshot(browser, `remote-upstream-removed-${l.lang}`);
    });
  });
}
