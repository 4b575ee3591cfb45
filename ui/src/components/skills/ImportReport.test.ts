import { beforeEach, describe, expect, it } from "vitest";
import { render } from "@testing-library/svelte";
import { setLocale } from "$lib/i18n/index.svelte";
import type { ImportOutcome } from "$lib/skills/report";
import ImportReport from "./ImportReport.svelte";

const outcomes: ImportOutcome[] = [
  {
    source: "/home/ana/Downloads/frete.zip",
    state: "imported",
    name: "frete",
    version: 7,
    files: [
      { path: "SKILL.md", size: 1200, kind: "skill_md", short_hash: "9f86d081884c" },
      { path: "references/tabela.md", size: 380, kind: "reference", short_hash: "60303ae22b99" },
    ],
    warnings: [],
    changes: [],
  },
  {
    source: "/home/ana/Downloads/evil.zip",
    state: "refused",
    code: "import_refused",
    message: "the archive was refused: zip_path_traversal",
    findings: [
      { code: "zip_path_traversal", severity: "error", file: "../../etc/passwd", line: null, column: null, message: "The name has a `..` segment.", hint: "Rebuild the zip from inside the skill folder." },
    ],
  },
  { source: "/home/ana/Downloads/slow.zip", state: "running" },
];

describe("import report", () => {
  beforeEach(() => setLocale("en"));

  it("gives one report per file and counts the finished ones", () => {
    const { container } = render(ImportReport, { outcomes });
    expect([...container.querySelectorAll("article")].map((a) => a.dataset.source)).toEqual(["frete.zip", "evil.zip", "slow.zip"]);
    expect(container.querySelector('[role="status"]')?.textContent).toBe("2 of 3 done");
  });

  it("lists an imported skill's version and files with kind, size and short hash", () => {
    const { container } = render(ImportReport, { outcomes });
    const ok = container.querySelector('[data-state="imported"]')!;
    expect(ok.textContent).toContain("imported frete, version 7");
    const rows = [...ok.querySelectorAll("tbody tr")].map((tr) => [...tr.querySelectorAll("td")].map((td) => td.textContent));
    expect(rows).toEqual([
      ["SKILL.md", "SKILL.md", "1.2 KB", "9f86d081884c"],
      ["references/tabela.md", "reference", "380 B", "60303ae22b99"],
    ]);
  });

  it("shows a refusal's code and each finding with its fix", () => {
    const { container } = render(ImportReport, { outcomes });
    const refused = container.querySelector('[data-state="refused"]')!;
    expect(refused.querySelector("h3")?.textContent).toContain("import_refused");
    expect(refused.querySelector('[data-code="zip_path_traversal"]')?.textContent).toContain("Rebuild the zip from inside the skill folder.");
  });

  it("holds a package that breaks trigger cases, names them, and offers to import anyway or not", async () => {
    const held: ImportOutcome[] = [
      {
        source: "/home/ana/Downloads/frete.zip",
        state: "held",
        name: "frete",
        changes: [
          {
            skill: "frete",
            passed_before: true,
            now: { case: { query: "qual o frete?", should_trigger: true }, fired: null, keyword: null, required: [], others: [], failure: "not_fired" },
          },
        ],
      },
    ];
    const confirmed: number[] = [];
    const { container, getByTestId } = render(ImportReport, { outcomes: held, onconfirm: (i: number) => confirmed.push(i), ondiscard: () => {} });
    const article = container.querySelector('[data-state="held"]')!;
    expect(article.textContent).toContain("held: importing frete would make passing trigger cases fail");
    expect(article.querySelector('[data-breaks="true"]')?.textContent).toContain("would fail");
    expect(article.querySelector('[data-breaks="true"] q')?.textContent).toBe("qual o frete?");
    getByTestId("import-anyway").click();
    expect(confirmed).toEqual([0]);
  });
});
