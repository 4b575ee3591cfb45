// The internal note being written on a case: its text, the saving, and why it was refused.
import * as commands from "../bindings/commands";
import type { CaseWithTimeline } from "../bindings/CaseWithTimeline";
import type { ErrorBody } from "../bindings/ErrorBody";
import { t } from "../i18n/index.svelte";

/** The note tab's state; it outlives the tab being shown, so switching back keeps the text. */
export class NoteComposer {
  text = $state("");
  /** Why the last save did not happen, in the person's language; `null` when it did. */
  error = $state<string | null>(null);
  saving = $state(false);

  /** Saves the note on case `caseId`: answers the case as it now stands, `"empty"` when there is
   * nothing to save (the person is told), or `null` when it failed or a save is under way. */
  async save(caseId: string): Promise<CaseWithTimeline | "empty" | null> {
    if (this.saving) return null;
    if (this.text.trim() === "") {
      this.error = t("cases.note.empty");
      return "empty";
    }
    this.saving = true;
    this.error = null;
    try {
      const updated = await commands.caseAddNote({ id: caseId, text: this.text });
      this.text = "";
      return updated;
    } catch (err) {
      this.error = t("cases.note.failed", { message: (err as ErrorBody).message });
      return null;
    } finally {
      this.saving = false;
    }
  }
}
