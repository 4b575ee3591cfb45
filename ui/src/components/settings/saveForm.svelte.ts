// The save state every Settings form shares: saving (the Save button is off), saved (the
// "Saved." note), and the refusal — a `{code, message}` error from the backend, or a number
// that is not one — shown next to the field it names (`_form` when it names none).
import type { ErrorBody } from "$lib/bindings/ErrorBody";
import type { SettingsView } from "$lib/bindings/SettingsView";
import { fieldErrors } from "$lib/fieldError";
import { t } from "$lib/i18n/index.svelte";
import { wholeNumber } from "./numbers";

/** The numbers read from a form's fields: a number where text was typed, `null` where off. */
export type WholeNumbers<T> = { [K in keyof T]: T[K] extends string ? number : number | null };

/** One Settings form's save: call `save` with the command that stores the group. */
export class SaveForm {
  /** The message per field of the last refusal (`_form` for a form-wide one); empty when none. */
  errors = $state<Record<string, string>>({});
  /** A save is under way. */
  busy = $state(false);
  /** The last save went through (cleared when the person saves again). */
  saved = $state(false);

  /** `onsaved` hands every fresh view to the screen, so the other sections see it too. */
  constructor(private readonly onsaved: (view: SettingsView) => void) {}

  /** Runs `command`; on success clears the errors, marks the form saved and hands the fresh
   * view on (after `apply`, which refreshes the form from it); on a refusal puts its message
   * next to its field. `vars` fill the refusal's message. Answers the fresh view, or `null`. */
  async save(
    command: () => Promise<SettingsView>,
    apply: (fresh: SettingsView) => void = () => {},
    vars: Record<string, string | number> = {},
  ): Promise<SettingsView | null> {
    this.saved = false;
    this.busy = true;
    try {
      const fresh = await command();
      this.errors = {};
      apply(fresh);
      this.saved = true;
      this.onsaved(fresh);
      return fresh;
    } catch (err) {
      this.errors = fieldErrors(err as ErrorBody, vars);
      return null;
    } finally {
      this.busy = false;
    }
  }

  /** The whole numbers typed in `fields` (field name → text; `null` for a field switched off,
   * which stays `null`), or `null` after putting "Enter a whole number." next to every field
   * that does not hold one; nothing is saved then. */
  wholeNumbers<T extends Record<string, string | null>>(fields: T): WholeNumbers<T> | null {
    this.saved = false;
    const numbers: Record<string, number | null> = {};
    const wrong: Record<string, string> = {};
    for (const [field, text] of Object.entries(fields)) {
      const n = text === null ? null : wholeNumber(text);
      if (text !== null && n === null) wrong[field] = t("settings.error.number");
      numbers[field] = n;
    }
    if (Object.keys(wrong).length > 0) {
      this.errors = wrong;
      return null;
    }
    return numbers as WholeNumbers<T>;
  }
}
