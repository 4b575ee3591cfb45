import { describe, expect, it, vi } from "vitest";
import { PagedRows, rowWindow, scrollToRow } from "./window";

describe("row window", () => {
  it("renders only the visible rows plus the overscan, with spacers for the rest", () => {
    expect(rowWindow(3200, 400, 32, 10_000, 5)).toEqual({ start: 95, end: 118, padTop: 3040, padBottom: (10_000 - 118) * 32 });
  });

  it("clamps at both ends of the list", () => {
    expect(rowWindow(0, 400, 32, 3, 5)).toEqual({ start: 0, end: 3, padTop: 0, padBottom: 0 });
    expect(rowWindow(-50, 400, 32, 0)).toEqual({ start: 0, end: 0, padTop: 0, padBottom: 0 });
  });

  it("scrolls just enough to show a row above or below the viewport, and not at all when it is visible", () => {
    expect(scrollToRow(2, 320, 320, 32)).toBe(64);
    expect(scrollToRow(20, 0, 320, 32)).toBe(352);
    expect(scrollToRow(5, 0, 320, 32)).toBeNull();
  });
});

describe("paged rows", () => {
  const backend = (total: number) =>
    vi.fn(async (offset: number, limit: number) => ({
      total,
      items: Array.from({ length: Math.max(0, Math.min(limit, total - offset)) }, (_, i) => `skill-${offset + i}`),
    }));

  it("fetches only the pages a window overlaps, once each", async () => {
    const fetch = backend(10_000);
    const rows = new PagedRows(fetch, () => {}, 100);
    await rows.ensure(150, 260);
    await rows.ensure(180, 200);
    expect(fetch.mock.calls).toEqual([
      [100, 100],
      [200, 100],
    ]);
    expect(rows.total).toBe(10_000);
    expect(rows.get(250)).toBe("skill-250");
    expect(rows.get(50)).toBeUndefined();
  });

  it("ignores an answer that arrives after a reset", async () => {
    let release: (v: { total: number; items: string[] }) => void = () => {};
    const slow = vi.fn(() => new Promise<{ total: number; items: string[] }>((r) => (release = r)));
    const rows = new PagedRows(slow, () => {}, 10);
    const pending = rows.ensure(0, 5);
    rows.reset();
    release({ total: 1, items: ["stale"] });
    await pending;
    expect(rows.get(0)).toBeUndefined();
    expect(rows.total).toBeNull();
  });

  it("keeps showing its rows during a refresh and drops rows past the new end", async () => {
    let total = 3;
    const fetch = vi.fn(async () => ({ total, items: ["a", "b", "c"].slice(0, total) }));
    const rows = new PagedRows(fetch, () => {}, 10);
    await rows.ensure(0, 3);
    total = 2;
    rows.refresh();
    expect(rows.get(2)).toBe("c");
    await rows.ensure(0, 3);
    expect([rows.get(0), rows.get(1), rows.get(2)]).toEqual(["a", "b", undefined]);
    expect(fetch).toHaveBeenCalledTimes(2);
  });
});
