import { beforeEach, describe, expect, it, vi } from "vitest";
import { fireEvent, render, screen, waitFor } from "@testing-library/svelte";
import { setLocale } from "$lib/i18n/index.svelte";
import type { GuardCounts } from "$lib/bindings/GuardCounts";
import type { GuardRetrainReport } from "$lib/bindings/GuardRetrainReport";
import type { GuardVetoEntry } from "$lib/bindings/GuardVetoEntry";
import GuardrailSection from "./GuardrailSection.svelte";

const guardVetoes = vi.fn();
const guardMarks = vi.fn();
const guardMark = vi.fn();
const guardRetrain = vi.fn();
vi.mock("$lib/bindings/commands", () => ({
  guardVetoes: (...a: unknown[]) => guardVetoes(...a),
  guardMarks: (...a: unknown[]) => guardMarks(...a),
  guardMark: (...a: unknown[]) => guardMark(...a),
  guardRetrain: (...a: unknown[]) => guardRetrain(...a),
  guardModelStatus: async () => ({ marks: 0 }),
  guardUnmark: vi.fn(),
  guardForgetModel: vi.fn(),
  guardExportMarks: vi.fn(),
  pickSaveFile: vi.fn(),
}));

const REFUND: GuardVetoEntry = {
  conversation_id: "wa-1",
  turn_id: "t1",
  vetoes: 1,
  last_at: "2026-12-07T10:00:00Z",
  evidence: "O estorno constará em fatura em até 3 dias úteis.",
  message: "Pronto! O estorno constará em fatura em até 3 dias úteis.",
};

const counts = (caught: number, falseAlarms: number): GuardCounts => ({ promises: 260, caught, clear: 260, false_alarms: falseAlarms });

function report(adopted: boolean): GuardRetrainReport {
  const figures = { blind_en: counts(251, 4), blind_pt_br: counts(252, 5), held_out_marks: { promises: 0, caught: 0, clear: 0, false_alarms: 0 } };
  return {
    marks: 1,
    trained_on: 1,
    held_out: 0,
    before: figures,
    after: { ...figures, blind_en: counts(249, 4) },
    adopted,
    refusals: adopted ? [] : [{ kind: "blind_mistakes", language: "en", before: 13, after: 15 }],
  };
}

describe("Settings → Guardrail", () => {
  beforeEach(() => {
    setLocale("en");
    guardVetoes.mockReset().mockResolvedValue([REFUND]);
    guardMarks.mockReset().mockResolvedValue([]);
    guardMark.mockReset();
    guardRetrain.mockReset();
  });

  it("marks the whole vetoed message, not only its deciding sentence, as not a promise", async () => {
    guardMark.mockResolvedValue({ id: 1, text: REFUND.message, promise: false, source: "veto", marked_by: "Ana", marked_at: "2026-12-07T10:01:00Z" });
    render(GuardrailSection, { props: {} });
    await fireEvent.click(await screen.findByTestId("guard-mark-clear"));
    await waitFor(() =>
      expect(guardMark).toHaveBeenCalledWith({ mark: { text: REFUND.message, promise: false, source: "veto", conversation_id: "wa-1" } }),
    );
    expect((await screen.findByTestId("guard-outcome")).textContent).toBe("Marked. Retrain to teach the guardrail.");
  });

  it("shows a refused retrain with both models side by side and why it was refused", async () => {
    guardRetrain.mockResolvedValue(report(false));
    render(GuardrailSection, { props: {} });
    await fireEvent.click(await screen.findByTestId("guard-retrain"));
    const shown = await screen.findByTestId("guard-report");
    expect(shown.textContent).toContain("251/260 caught · 4/260 false alarms");
    expect(shown.textContent).toContain("249/260 caught · 4/260 false alarms");
    expect(screen.getByTestId("guard-verdict").textContent).toBe("Not adopted: the guardrail keeps the model in use.");
    expect(shown.textContent).toContain("On the English blind test set it makes 15 mistakes, against 13 now.");
  });

  it("says when the retrained model was adopted", async () => {
    guardRetrain.mockResolvedValue(report(true));
    render(GuardrailSection, { props: {} });
    await fireEvent.click(await screen.findByTestId("guard-retrain"));
    expect((await screen.findByTestId("guard-verdict")).textContent).toBe("Adopted: the guardrail now judges with the retrained model.");
  });
});
