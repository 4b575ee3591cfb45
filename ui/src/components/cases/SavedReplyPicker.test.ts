import { beforeEach, describe, expect, it, vi } from "vitest";
import { fireEvent, render, screen, waitFor } from "@testing-library/svelte";
import { setLocale } from "$lib/i18n/index.svelte";
import type { Case } from "$lib/bindings/Case";
import type { PickedReply } from "$lib/bindings/PickedReply";
import ReplyPanel from "./ReplyPanel.svelte";
import { aCase } from "../../test/cases";

const savedRepliesPick = vi.fn();
vi.mock("$lib/bindings/commands", () => ({
  savedRepliesPick: (...args: unknown[]) => savedRepliesPick(...args),
  caseReply: vi.fn(),
  caseHoldReply: vi.fn(async () => ({ person: "Ana Souza", until: "2999-01-01T00:00:00.000Z" })),
  caseTake: vi.fn(),
  casesMe: async () => "Ana Souza",
  caseAddNote: vi.fn(),
}));
vi.mock("$lib/backend", () => ({
  hasCode: (err: { code: string }, ...codes: string[]) => codes.includes(err.code),
}));

const CASE: Case = aCase();

const REPLIES: PickedReply[] = [
  { id: "r1", title: "Refund approved", text: "Hi Maria Souza, approved.", action: "resolved", language: null },
  { id: "r2", title: "Refund pending", text: "Hi Maria Souza, soon.", action: null, language: "en" },
];

async function typeInReply(value: string): Promise<HTMLTextAreaElement> {
  const area = document.getElementById("reply-text") as HTMLTextAreaElement;
  area.value = value;
  area.setSelectionRange(value.length, value.length);
  await fireEvent.input(area);
  return area;
}

async function panelOnResolved(): Promise<void> {
  render(ReplyPanel, { props: { current: { ...CASE, id: `case-${Math.random()}` }, onsent: vi.fn() } });
  await fireEvent.click(screen.getByRole("radio", { name: /Resolved/ }));
}

describe("the saved-reply picker in the reply box", () => {
  beforeEach(() => {
    setLocale("en");
    savedRepliesPick.mockReset();
    savedRepliesPick.mockResolvedValue(REPLIES);
  });

  it("asks for the replies matching what follows #, for the chosen action and the UI language", async () => {
    await panelOnResolved();
    await typeInReply("Hello #refu");
    expect(savedRepliesPick.mock.calls.at(-1)?.[0].filter).toEqual({ action: "resolved", language: "en", query: "refu" });
    await waitFor(() => expect(screen.getAllByTestId("saved-reply-option")).toHaveLength(2));
  });

  it("highlights the first reply, and Down moves to the next", async () => {
    await panelOnResolved();
    const area = await typeInReply("#ref");
    await waitFor(() => expect(screen.getAllByRole("option")[0].getAttribute("aria-selected")).toBe("true"));
    await fireEvent.keyDown(area, { key: "ArrowDown" });
    expect(screen.getAllByRole("option")[1].getAttribute("aria-selected")).toBe("true");
  });

  it("Enter puts the rendered reply in place of the #query", async () => {
    await panelOnResolved();
    const area = await typeInReply("Thanks. #ref");
    await waitFor(() => expect(screen.getAllByRole("option")).toHaveLength(2));
    await fireEvent.keyDown(area, { key: "Enter" });
    await waitFor(() => expect(area.value).toBe("Thanks. Hi Maria Souza, approved."));
    expect(screen.queryByTestId("saved-reply-picker")).toBeNull();
  });

  it("Tab inserts the highlighted reply too", async () => {
    await panelOnResolved();
    const area = await typeInReply("#ref");
    await waitFor(() => expect(screen.getAllByRole("option")).toHaveLength(2));
    await fireEvent.keyDown(area, { key: "ArrowDown" });
    await fireEvent.keyDown(area, { key: "Tab" });
    await waitFor(() => expect(area.value).toBe("Hi Maria Souza, soon."));
  });

  it("Escape closes the picker and leaves the text as typed", async () => {
    await panelOnResolved();
    const area = await typeInReply("#ref");
    await waitFor(() => expect(screen.getByTestId("saved-reply-picker")).toBeTruthy());
    await fireEvent.keyDown(area, { key: "Escape" });
    expect(screen.queryByTestId("saved-reply-picker")).toBeNull();
    expect(area.value).toBe("#ref");
  });

  it("says when nothing matches the query", async () => {
    savedRepliesPick.mockResolvedValue([]);
    await panelOnResolved();
    await typeInReply("#zzz");
    await waitFor(() => expect(screen.getByTestId("saved-reply-empty").textContent).toContain("No saved reply matches “zzz”."));
  });

  it("the Saved replies button types a # at the caret and opens the picker", async () => {
    await panelOnResolved();
    const area = await typeInReply("Hi");
    await fireEvent.click(screen.getByTestId("saved-replies-button"));
    await waitFor(() => expect(area.value).toBe("Hi #"));
    await waitFor(() => expect(screen.getAllByTestId("saved-reply-option")).toHaveLength(2));
  });
});
