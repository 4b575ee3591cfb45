import { beforeEach, describe, expect, it, vi } from "vitest";
import { fireEvent, render, screen, waitFor } from "@testing-library/svelte";
import { setLocale } from "$lib/i18n/index.svelte";
import type { SavedReply } from "$lib/bindings/SavedReply";
import SavedRepliesSection from "./SavedRepliesSection.svelte";

const savedRepliesList = vi.fn();
const savedReplyCreate = vi.fn();
const savedReplyDelete = vi.fn();
vi.mock("$lib/bindings/commands", () => ({
  savedRepliesList: (...a: unknown[]) => savedRepliesList(...a),
  savedReplyCreate: (...a: unknown[]) => savedReplyCreate(...a),
  savedReplyUpdate: vi.fn(),
  savedReplyDelete: (...a: unknown[]) => savedReplyDelete(...a),
  savedRepliesImport: vi.fn(),
  savedRepliesExport: vi.fn(),
  pickOpenFile: vi.fn(),
  pickSaveFile: vi.fn(),
}));

const THANKS: SavedReply = { id: "r1", title: "Thanks", body: "Thank you, {{lead.name}}!", action: "resolved", language: "en", updated_at: "2026-12-01T10:00:00.000Z" };

describe("Settings → Saved replies", () => {
  beforeEach(() => {
    setLocale("en");
    savedRepliesList.mockReset();
    savedReplyCreate.mockReset();
    savedReplyDelete.mockReset();
  });

  it("lists each saved reply with the answer and language it is offered for", async () => {
    savedRepliesList.mockResolvedValue([THANKS]);
    render(SavedRepliesSection, { props: {} });
    const row = await screen.findByTestId("saved-reply-row");
    expect(row.textContent).toContain("Thanks");
    expect(row.textContent).toContain("Resolved");
    expect(row.textContent).toContain("English");
  });

  it("shows an unknown variable next to the text, naming it", async () => {
    savedRepliesList.mockResolvedValue([]);
    savedReplyCreate.mockRejectedValue({ code: "unknown_variable", message: "x", details: { field: "body", variable: "lead.nmae" } });
    render(SavedRepliesSection, { props: {} });
    await fireEvent.click(await screen.findByTestId("reply-add"));
    await fireEvent.input(screen.getByLabelText("Title"), { target: { value: "Hi" } });
    await fireEvent.input(screen.getByLabelText("Text"), { target: { value: "Hi {{lead.nmae}}" } });
    await fireEvent.click(screen.getByTestId("reply-save"));
    await waitFor(() => expect(document.querySelector('[data-error="body"]')?.textContent).toContain("{{lead.nmae}} is not a variable"));
  });

  it("sends a new reply for all answers and both languages when none is chosen", async () => {
    savedRepliesList.mockResolvedValue([]);
    savedReplyCreate.mockResolvedValue(THANKS);
    render(SavedRepliesSection, { props: {} });
    await fireEvent.click(await screen.findByTestId("reply-add"));
    await fireEvent.input(screen.getByLabelText("Title"), { target: { value: "Thanks" } });
    await fireEvent.input(screen.getByLabelText("Text"), { target: { value: "Thank you!" } });
    await fireEvent.click(screen.getByTestId("reply-save"));
    await waitFor(() => expect(savedReplyCreate).toHaveBeenCalledWith({ input: { title: "Thanks", body: "Thank you!", action: null, language: null } }));
  });

  it("deletes only after the confirmation", async () => {
    savedRepliesList.mockResolvedValue([THANKS]);
    savedReplyDelete.mockResolvedValue(undefined);
    render(SavedRepliesSection, { props: {} });
    await fireEvent.click(await screen.findByTestId("reply-delete"));
    expect(savedReplyDelete).not.toHaveBeenCalled();
    await fireEvent.click(await screen.findByTestId("reply-delete-yes"));
    await waitFor(() => expect(savedReplyDelete).toHaveBeenCalledWith({ id: "r1" }));
  });
});
