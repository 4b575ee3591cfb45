import { beforeEach, describe, expect, it, vi } from "vitest";
import { fireEvent, render, screen } from "@testing-library/svelte";
import { setLocale } from "$lib/i18n/index.svelte";
import type { TriggerReport } from "$lib/bindings/TriggerReport";
import TriggerTestsPanel from "./TriggerTestsPanel.svelte";

const report: TriggerReport = {
  skills: [
    {
      name: "frete",
      passed: 1,
      failed: 1,
      precision: 1,
      recall: 0.5,
      cases: [
        { case: { query: "qual o frete?", should_trigger: true }, fired: "hard", keyword: "frete", required: ["references/a.md"], others: [], failure: null },
        { case: { query: "a entrega atrasou", should_trigger: true }, fired: "probe", keyword: "entrega", required: [], others: ["status"], failure: "not_fired" },
      ],
    },
  ],
  conflicts: [],
  passed: 1,
  failed: 1,
};

vi.mock("$lib/bindings/commands", () => ({
  skillTriggerTests: vi.fn(async () => report),
  skillAddTriggerCase: vi.fn(async () => report),
  skillRemoveTriggerCase: vi.fn(async () => report),
}));
const commands = await import("$lib/bindings/commands");

describe("a skill's Tests tab", () => {
  beforeEach(() => {
    setLocale("en");
    vi.clearAllMocks();
  });

  it("shows each case expected against actual, with the failure's reason and the figures", async () => {
    render(TriggerTestsPanel, { name: "frete", changeTick: 0, editable: true, onopen: () => {} });
    expect((await screen.findByTestId("tests-summary")).textContent).toContain("Passed: 1 · Failed: 1 · precision 100 % · recall 50 %");
    const failed = document.querySelector('[data-passed="false"]')!;
    expect(failed.textContent).toContain("near miss (“entrega”)");
    expect(failed.textContent).toContain("It should fire and does not.");
    expect(failed.querySelector("button.other")?.textContent).toBe("status");
  });

  it("adds a must-not-fire case from the form and removes a case by its message", async () => {
    render(TriggerTestsPanel, { name: "frete", changeTick: 0, editable: true, onopen: () => {} });
    await screen.findByTestId("tests-summary");
    await fireEvent.input(screen.getByTestId("case-query"), { target: { value: "  quero trocar  " } });
    await fireEvent.change(screen.getByTestId("case-expect"), { target: { value: "not" } });
    await fireEvent.submit(screen.getByTestId("add-case"));
    expect(commands.skillAddTriggerCase).toHaveBeenCalledWith({ name: "frete", case: { query: "quero trocar", should_trigger: false } });
    // The failing case is listed first.
    await fireEvent.click(screen.getAllByTestId("remove-case")[0]);
    expect(commands.skillRemoveTriggerCase).toHaveBeenCalledWith({ name: "frete", query: "a entrega atrasou" });
  });

  it("offers no add or remove on a read-only skill", async () => {
    render(TriggerTestsPanel, { name: "frete", changeTick: 0, editable: false, onopen: () => {} });
    await screen.findByTestId("tests-summary");
    expect(screen.queryByTestId("add-case")).toBeNull();
    expect(screen.queryByTestId("remove-case")).toBeNull();
  });

  it("explains the tab when the skill has no cases, in Portuguese too", async () => {
    setLocale("pt-BR");
    render(TriggerTestsPanel, { name: "outra", changeTick: 0, editable: true, onopen: () => {} });
    expect((await screen.findByTestId("tests-none")).textContent).toContain("Nenhum caso de gatilho ainda");
  });
});
