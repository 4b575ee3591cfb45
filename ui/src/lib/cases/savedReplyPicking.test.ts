import { beforeEach, describe, expect, it, vi } from "vitest";
import type { PickedReply } from "../bindings/PickedReply";
import { setLocale } from "../i18n/index.svelte";
import { SavedReplyPicking } from "./savedReplyPicking.svelte";

const savedRepliesPick = vi.fn();
vi.mock("$lib/bindings/commands", () => ({ savedRepliesPick: (...a: unknown[]) => savedRepliesPick(...a) }));

const APPROVED: PickedReply = { id: "r1", title: "Refund approved", text: "Hi Maria Souza, approved.", action: "resolved", language: null };
const PENDING: PickedReply = { id: "r2", title: "Refund pending", text: "Hi Maria Souza, soon.", action: null, language: "en" };
const key = (k: string, mods: { shiftKey?: boolean; ctrlKey?: boolean } = {}) => ({ key: k, shiftKey: false, ctrlKey: false, metaKey: false, altKey: false, ...mods });

/** A picker open on `text` typed up to its end. */
async function openOn(text: string): Promise<SavedReplyPicking> {
  const picker = new SavedReplyPicking();
  await picker.follow(text, text.length, "case-1", "resolved");
  return picker;
}

beforeEach(() => {
  setLocale("en");
  savedRepliesPick.mockReset().mockResolvedValue([APPROVED, PENDING]);
});

describe("the saved-reply picker's state", () => {
  it("opens on a # that starts a word, asking with the case, the action, the language and the query", async () => {
    const picker = await openOn("Thanks. #refu");
    expect(picker.hash).toEqual({ start: 8, query: "refu" });
    expect(savedRepliesPick).toHaveBeenCalledWith({ id: "case-1", filter: { action: "resolved", language: "en", query: "refu" } });
    expect([picker.items, picker.loaded, picker.highlight]).toEqual([[APPROVED, PENDING], true, 0]);
  });

  it("stays closed for a # inside a word", async () => {
    const picker = await openOn("order#12");
    expect(picker.hash).toBeNull();
    expect(savedRepliesPick).not.toHaveBeenCalled();
  });

  it("moves the highlight with Down and Up, wrapping at both ends", async () => {
    const picker = await openOn("#ref");
    expect(picker.key(key("ArrowUp"))).toBe("handled");
    expect(picker.highlight).toBe(1);
    picker.key(key("ArrowDown"));
    expect(picker.highlight).toBe(0);
  });

  it("chooses the highlighted reply with Enter or Tab, but not with Shift", async () => {
    const picker = await openOn("#ref");
    picker.key(key("ArrowDown"));
    expect(picker.key(key("Enter"))).toEqual(PENDING);
    expect(picker.key(key("Tab"))).toEqual(PENDING);
    expect(picker.key(key("Enter", { shiftKey: true }))).toBe("ignored");
  });

  it("leaves other keys, and every key with Ctrl, to the text area", async () => {
    const picker = await openOn("#ref");
    expect(picker.key(key("a"))).toBe("ignored");
    expect(picker.key(key("Enter", { ctrlKey: true }))).toBe("ignored");
  });

  it("puts the reply in place of the #query, with the caret after it, and closes", async () => {
    const picker = await openOn("Thanks. #ref");
    expect(picker.choose("Thanks. #ref", APPROVED)).toEqual({ text: "Thanks. Hi Maria Souza, approved.", caret: 33 });
    expect(picker.hash).toBeNull();
  });

  it("stays closed on the # Esc closed it on, until another # is typed", async () => {
    const picker = await openOn("#ref");
    expect(picker.key(key("Escape"))).toBe("handled");
    await picker.follow("#refu", 5, "case-1", "resolved");
    expect(picker.hash).toBeNull();
    await picker.follow("#refu #th", 9, "case-1", "resolved");
    expect(picker.hash).toEqual({ start: 6, query: "th" });
  });

  it("opens again on the dismissed # once the Saved replies button asks", async () => {
    const picker = await openOn("#ref");
    picker.key(key("Escape"));
    picker.forgetDismissal();
    await picker.follow("#ref", 4, "case-1", "resolved");
    expect(picker.hash).toEqual({ start: 0, query: "ref" });
  });

  it("keeps only the answer to the latest query", async () => {
    let answerOld: (items: PickedReply[]) => void = () => {};
    savedRepliesPick.mockReturnValueOnce(new Promise((resolve) => (answerOld = resolve)));
    const picker = new SavedReplyPicking();
    const old = picker.follow("#r", 2, "case-1", "resolved");
    savedRepliesPick.mockResolvedValueOnce([PENDING]);
    await picker.follow("#re", 3, "case-1", "resolved");
    answerOld([APPROVED, PENDING]);
    await old;
    expect(picker.items).toEqual([PENDING]);
  });

  it("answers why the saved replies could not be read", async () => {
    savedRepliesPick.mockRejectedValue({ code: "db_error", message: "disk I/O error" });
    const picker = new SavedReplyPicking();
    expect(await picker.follow("#ref", 4, "case-1", "resolved")).toEqual({ code: "db_error", message: "disk I/O error" });
  });
});
