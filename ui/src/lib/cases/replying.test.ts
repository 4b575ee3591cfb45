import { describe, expect, it } from "vitest";
import { RENEW_MS, otherReplying, shouldRenew } from "./replying";

const NOW = Date.parse("2026-12-03T10:00:00.000Z");
const ana = (until: string) => ({ person: "Ana", until });

describe("the reply lease in the window", () => {
  it("renews on the first keystroke and then at most every few seconds", () => {
    expect(shouldRenew(0, NOW)).toBe(true);
    expect(shouldRenew(NOW, NOW + RENEW_MS - 1)).toBe(false);
    expect(shouldRenew(NOW, NOW + RENEW_MS)).toBe(true);
  });

  it("shows another person whose lease still runs", () => {
    expect(otherReplying(ana("2026-12-03T10:00:10.000Z"), "Bruno", NOW)?.person).toBe("Ana");
  });

  it("hides a lease that ran out", () => {
    expect(otherReplying(ana("2026-12-03T09:59:59.000Z"), "Bruno", NOW)).toBeNull();
  });

  it("never shows my own lease", () => {
    expect(otherReplying(ana("2026-12-03T10:00:10.000Z"), "Ana", NOW)).toBeNull();
  });
});
