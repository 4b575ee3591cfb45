import { describe, expect, it, vi } from "vitest";
import { activeFilters, debounce, NO_FILTER, sameFilter } from "./filters";
import { isTyping, moveSelection } from "./keys";

describe("search and filters", () => {
  it("treats queries that differ only in spacing as the same search", () => {
    expect(sameFilter({ ...NO_FILTER, query: " frete  grátis " }, { ...NO_FILTER, query: "frete grátis" })).toBe(true);
    expect(sameFilter({ ...NO_FILTER, query: "frete" }, { ...NO_FILTER, query: "frete", type: "prompt" })).toBe(false);
  });

  it("counts the filters that narrow the list, not the query", () => {
    expect(activeFilters({ query: "x", origin: "catalog", type: "all", validity: "invalid" })).toBe(2);
    expect(activeFilters(NO_FILTER)).toBe(0);
  });

  it("runs a debounced call once, with the last value, after the pause", () => {
    vi.useFakeTimers();
    const run = vi.fn();
    const search = debounce(run, 150);
    search("f");
    search("fr");
    search("fre");
    vi.advanceTimersByTime(149);
    expect(run).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    expect(run.mock.calls).toEqual([["fre"]]);
    vi.useRealTimers();
  });
});

describe("list keys", () => {
  it("moves with arrows and stops at the ends", () => {
    expect(moveSelection("ArrowDown", -1, 5, 10)).toBe(0);
    expect(moveSelection("ArrowDown", 4, 5, 10)).toBe(4);
    expect(moveSelection("ArrowUp", 0, 5, 10)).toBe(0);
    expect(moveSelection("End", 1, 5, 10)).toBe(4);
    expect(moveSelection("Home", 3, 5, 10)).toBe(0);
  });

  it("pages by one screen less a row", () => {
    expect(moveSelection("PageDown", 0, 100, 10)).toBe(9);
    expect(moveSelection("PageUp", 50, 100, 10)).toBe(41);
  });

  it("ignores other keys and empty lists", () => {
    expect(moveSelection("a", 0, 5, 10)).toBeNull();
    expect(moveSelection("ArrowDown", -1, 0, 10)).toBeNull();
  });

  it("knows when a key press is typing", () => {
    const input = document.createElement("input");
    const checkbox = Object.assign(document.createElement("input"), { type: "checkbox" });
    expect(isTyping(input)).toBe(true);
    expect(isTyping(document.createElement("textarea"))).toBe(true);
    expect(isTyping(checkbox)).toBe(false);
    expect(isTyping(document.createElement("button"))).toBe(false);
  });
});
