import { describe, expect, it, beforeEach } from "vitest";
import { setLocale } from "../i18n/index.svelte";
import { actualText, conflictText, expectedText, failuresFirst, orderedChanges, percent, quickCase } from "./triggers";
import type { CaseResult } from "../bindings/CaseResult";
import type { CaseChange } from "../bindings/CaseChange";

const result = (over: Partial<CaseResult>): CaseResult => ({
  case: { query: "qual o frete?", should_trigger: true },
  fired: "hard",
  keyword: "frete",
  required: [],
  others: [],
  failure: null,
  ...over,
});

describe("trigger tests in words", () => {
  beforeEach(() => setLocale("en"));

  it("says a positive case fires, a probe case is a near miss and a negative does not fire", () => {
    expect(expectedText({ query: "a", should_trigger: true })).toBe("fires");
    expect(expectedText({ query: "a", should_trigger: true, kind: "probe" })).toBe("near miss");
    expect(expectedText({ query: "a", should_trigger: false })).toBe("does not fire");
  });

  it("adds the references a case requires", () => {
    expect(expectedText({ query: "a", should_trigger: true, required_refs: ["references/a.md", "references/b.md"] })).toBe(
      "fires · reads references/a.md, references/b.md",
    );
  });

  it("shows the keyword, the route and the other skills a message fires", () => {
    const r = result({ required: ["references/a.md"], others: ["cotacao"] });
    expect(actualText(r)).toBe("fires (“frete”) · reads references/a.md · also fires cotacao");
    expect(actualText(result({ fired: null, keyword: null, required: ["references/a.md"] }))).toBe("does not fire");
  });

  it("speaks Portuguese too", () => {
    setLocale("pt-BR");
    expect(actualText(result({ fired: "probe", keyword: "entrega" }))).toBe("quase dispara (“entrega”)");
    expect(expectedText({ query: "a", should_trigger: false })).toBe("não dispara");
  });

  it("rounds shares to whole percentages and says n/a when nothing was measured", () => {
    expect(percent(2 / 3)).toBe("67 %");
    expect(percent(null)).toBe("n/a");
  });

  it("words both kinds of conflict", () => {
    expect(conflictText({ kind: "fires_many", query: "q", owner: "a", skills: ["a", "b"] })).toBe("fires a, b");
    expect(conflictText({ kind: "taken", query: "q", owner: "a", skills: ["b"] })).toBe("should fire a, but b takes it");
  });

  it("lists the cases an edit breaks before the ones it fixes", () => {
    const change = (query: string, passed_before: boolean): CaseChange => ({ skill: "s", passed_before, now: result({ case: { query, should_trigger: true } }) });
    expect(orderedChanges([change("fixed", false), change("broken", true)]).map((c) => c.now.case.query)).toEqual(["broken", "fixed"]);
  });

  it("makes a one-click case of a trimmed message", () => {
    expect(quickCase("  qual o frete?\n", false)).toEqual({ query: "qual o frete?", should_trigger: false });
  });

  it("lists failing cases first, keeping each group's order", () => {
    const named = (query: string, failed: boolean) => result({ case: { query, should_trigger: true }, failure: failed ? "not_fired" : null });
    const order = failuresFirst([named("a", false), named("b", true), named("c", false), named("d", true)]).map((r) => r.case.query);
    expect(order).toEqual(["b", "d", "a", "c"]);
  });
});
