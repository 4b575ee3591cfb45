// Saved replies: Settings manages them, the reply box's picker asks which fit a `#query`.
import type { SavedReply } from "../bindings/SavedReply";
import type { SavedReplyInput } from "../bindings/SavedReplyInput";
import type { PickedReply } from "../bindings/PickedReply";
import type { PickFilter } from "../bindings/PickFilter";
import type { ReplyLanguage } from "../bindings/ReplyLanguage";
import type { ImportOutcome } from "../bindings/ImportOutcome";
import * as commands from "../bindings/commands";

export type { SavedReply, SavedReplyInput, PickedReply, PickFilter, ReplyLanguage, ImportOutcome };

/** Every saved reply, by title. */
export function listSavedReplies(): Promise<SavedReply[]> {
  return commands.savedRepliesList();
}

/** Adds a saved reply; refused with `invalid_saved_reply` or `unknown_variable`. */
export function createSavedReply(input: SavedReplyInput): Promise<SavedReply> {
  return commands.savedReplyCreate({ input });
}

/** Changes a saved reply. */
export function updateSavedReply(id: string, input: SavedReplyInput): Promise<SavedReply> {
  return commands.savedReplyUpdate({ id, input });
}

/** Deletes a saved reply. */
export function deleteSavedReply(id: string): Promise<void> {
  return commands.savedReplyDelete({ id });
}

/** The saved replies the picker offers on case `caseId`, rendered for it, best first. */
export function pickSavedReplies(caseId: string, filter: PickFilter): Promise<PickedReply[]> {
  return commands.savedRepliesPick({ id: caseId, filter });
}

/** Writes every saved reply to the JSON file at `path`; answers how many. */
export function exportSavedReplies(path: string): Promise<number> {
  return commands.savedRepliesExport({ path });
}

/** Imports the JSON file at `path`, all or nothing. */
export function importSavedReplies(path: string): Promise<ImportOutcome> {
  return commands.savedRepliesImport({ path });
}
