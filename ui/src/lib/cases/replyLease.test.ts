import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { RENEW_MS } from "./replying";
import { ReplyLease } from "./replyLease.svelte";

const caseHoldReply = vi.fn();
vi.mock("$lib/bindings/commands", () => ({
  casesMe: async () => "Ana Souza",
  caseHoldReply: (...a: unknown[]) => caseHoldReply(...a),
}));

const NOW = Date.parse("2026-12-03T10:00:00.000Z");
const bruno = (until: number) => ({ person: "Bruno", until: new Date(until).toISOString() });

beforeEach(() => {
  vi.useFakeTimers({ now: NOW });
  caseHoldReply.mockReset().mockImplementation(async () => ({ person: "Ana Souza", until: new Date(Date.now() + 15_000).toISOString() }));
});
afterEach(() => vi.useRealTimers());

describe("the reply lease in the reply box", () => {
  it("shows someone else replying while their lease runs, and no longer once it ends", async () => {
    const lease = new ReplyLease(bruno(NOW + 3_000));
    const stop = lease.start();
    await vi.advanceTimersByTimeAsync(1_000);
    expect(lease.other?.person).toBe("Bruno");
    await vi.advanceTimersByTimeAsync(3_000);
    expect(lease.other).toBeNull();
    stop();
  });

  it("keeps no timer while no lease runs, and one that ends with the lease while one does", async () => {
    const lease = new ReplyLease(null);
    const stop = lease.start();
    expect(vi.getTimerCount()).toBe(0);
    lease.lease = bruno(NOW + 15_000);
    expect(vi.getTimerCount()).toBe(1);
    await vi.advanceTimersByTimeAsync(15_001);
    expect(lease.other).toBeNull();
    expect(vi.getTimerCount()).toBe(0);
    stop();
  });

  it("never shows the person's own lease as someone else's", async () => {
    const lease = new ReplyLease({ person: "Ana Souza", until: new Date(NOW + 10_000).toISOString() });
    const stop = lease.start();
    await vi.advanceTimersByTimeAsync(0);
    expect(lease.other).toBeNull();
    stop();
  });

  it("holds the lease on the first keystroke and renews it at most every few seconds", async () => {
    const lease = new ReplyLease(null);
    lease.typing("case-1");
    await vi.advanceTimersByTimeAsync(RENEW_MS - 1);
    lease.typing("case-1");
    expect(caseHoldReply).toHaveBeenCalledTimes(1);
    expect(caseHoldReply).toHaveBeenCalledWith({ id: "case-1" });
    await vi.advanceTimersByTimeAsync(1);
    lease.typing("case-1");
    expect(caseHoldReply).toHaveBeenCalledTimes(2);
  });

  it("keeps the lease the renewal answered", async () => {
    const lease = new ReplyLease(bruno(NOW - 1_000));
    lease.typing("case-1");
    await vi.advanceTimersByTimeAsync(0);
    expect(lease.lease?.person).toBe("Ana Souza");
  });
});
