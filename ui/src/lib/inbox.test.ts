import { beforeAll, describe, expect, it, vi } from "vitest";

const handlers: { changed?: (id: string) => void } = {};

vi.mock("$lib/backend", () => ({
  onCaseChanged: vi.fn(async (handler: (id: string) => void) => {
    handlers.changed = handler;
    return () => {};
  }),
  onCaseOpened: vi.fn(async () => () => {}),
  onPromiseOverdue: vi.fn(async () => () => {}),
  onEventsLagged: vi.fn(async () => () => {}),
}));

vi.mock("$lib/bindings/commands", () => ({
  casesCounts: vi.fn(async () => ({ waiting_on_you: 0, waiting_on_customer: 0, closed: 0, unread: 0 })),
}));

const { inbox, ownWrite, startInbox } = await import("$lib/inbox.svelte");

function changed(id: string): void {
  handlers.changed?.(id);
}

describe("a case change the window wrote itself", () => {
  beforeAll(() => {
    startInbox();
  });

  it("is marked the window's own when its event comes back after the write returned", async () => {
    await ownWrite("case-1", async () => "sent");
    changed("case-1");
    expect(inbox.changed).toBe("case-1");
    expect(inbox.own).toBe(true);
  });

  it("leaves the next change to that case, someone else's, to be read again", async () => {
    await ownWrite("case-2", async () => "sent");
    changed("case-2");
    changed("case-2");
    expect(inbox.own).toBe(false);
  });

  it("is marked the window's own when its event comes back before the write returned", async () => {
    let finish: (value: string) => void = () => {};
    const write = ownWrite("case-3", () => new Promise<string>((resolve) => (finish = resolve)));
    changed("case-3");
    expect(inbox.own).toBe(true);
    finish("sent");
    await write;
    changed("case-3");
    expect(inbox.own).toBe(false);
  });

  it("expects no change back from a write that was refused", async () => {
    await expect(ownWrite("case-4", async () => Promise.reject(new Error("refused")))).rejects.toThrow("refused");
    changed("case-4");
    expect(inbox.own).toBe(false);
  });

  it("does not mark another case's change as the window's own", async () => {
    await ownWrite("case-5", async () => "sent");
    changed("case-6");
    expect(inbox.own).toBe(false);
  });
});
