import { beforeEach, describe, expect, it, vi } from "vitest";
import { setLocale } from "../i18n/index.svelte";
import { aCase } from "../../test/cases";
import { NoteComposer } from "./noteComposer.svelte";

const caseAddNote = vi.fn();
vi.mock("$lib/bindings/commands", () => ({ caseAddNote: (...a: unknown[]) => caseAddNote(...a) }));

const NOTED = { case: aCase(), events: [], deliveries: [], promises: [] };

beforeEach(() => {
  setLocale("en");
  caseAddNote.mockReset().mockResolvedValue(NOTED);
});

describe("the internal note being written", () => {
  it("refuses an empty note without asking the backend, and says why", async () => {
    const note = new NoteComposer();
    note.text = "   ";
    expect(await note.save("case-1")).toBe("empty");
    expect(note.error).toBe("Write the note first: an empty note is not saved.");
    expect(caseAddNote).not.toHaveBeenCalled();
  });

  it("saves the note on the case and starts empty again", async () => {
    const note = new NoteComposer();
    note.text = "Manager approved by phone.";
    expect(await note.save("case-1")).toBe(NOTED);
    expect(caseAddNote).toHaveBeenCalledWith({ id: "case-1", text: "Manager approved by phone." });
    expect([note.text, note.error, note.saving]).toEqual(["", null, false]);
  });

  it("keeps the text and says why, in the person's language, when the note is not saved", async () => {
    setLocale("pt-BR");
    caseAddNote.mockRejectedValue({ code: "db_error", message: "disk I/O error" });
    const note = new NoteComposer();
    note.text = "Manager approved by phone.";
    expect(await note.save("case-1")).toBeNull();
    expect(note.text).toBe("Manager approved by phone.");
    expect(note.error).toBe("A nota não foi salva: disk I/O error");
  });

  it("saves once while a save is under way", async () => {
    const note = new NoteComposer();
    note.text = "Manager approved by phone.";
    const first = note.save("case-1");
    expect(await note.save("case-1")).toBeNull();
    await first;
    expect(caseAddNote).toHaveBeenCalledTimes(1);
  });
});
