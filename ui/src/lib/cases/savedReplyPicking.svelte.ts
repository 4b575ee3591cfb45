// The saved-reply picker's state while the person types in the reply box: which `#query` it is
// open for, the replies that fit (only the latest answer counts), the highlighted one, and the
// `#` it was closed on with Esc (it stays closed until another `#`).
import * as commands from "../bindings/commands";
import type { ErrorBody } from "../bindings/ErrorBody";
import type { HumanAction } from "../bindings/HumanAction";
import type { PickedReply } from "../bindings/PickedReply";
import { locale } from "../i18n/index.svelte";
import { hashQueryAt, moveHighlight, replaceRange, type HashQuery } from "./savedReplies";

/** What a key does while the picker may be open: nothing for it, handled, or a reply chosen. */
export type PickerKey = "ignored" | "handled" | PickedReply;

/** The picker under one reply box. */
export class SavedReplyPicking {
  /** The `#query` it is open for; `null` while closed. */
  hash = $state<HashQuery | null>(null);
  /** The replies that fit, best first. */
  items = $state<PickedReply[]>([]);
  /** The first answer for this `#query` has come. */
  loaded = $state(false);
  highlight = $state(0);
  #dismissedAt = -1;
  #seq = 0;

  /** Opens, refreshes or closes the picker for the `#query` ending at `caret` in `text`, asking
   * which saved replies fit case `caseId` and `action`; answers the error when that failed. */
  async follow(text: string, caret: number, caseId: string, action: HumanAction | null): Promise<ErrorBody | null> {
    const found = hashQueryAt(text, caret);
    if (!found || found.start === this.#dismissedAt) {
      this.hash = null;
      return null;
    }
    this.#dismissedAt = -1;
    const opening = this.hash === null || this.hash.start !== found.start;
    this.hash = found;
    const seq = ++this.#seq;
    try {
      const items = await commands.savedRepliesPick({ id: caseId, filter: { action, language: locale(), query: found.query } });
      if (seq !== this.#seq) return null;
      this.items = items;
      this.loaded = true;
      if (opening || this.highlight >= items.length) this.highlight = 0;
      return null;
    } catch (err) {
      return seq === this.#seq ? (err as ErrorBody) : null;
    }
  }

  /** Closes the picker; an answer still on its way is dropped. */
  close(): void {
    this.hash = null;
    this.items = [];
    this.loaded = false;
    this.#seq++;
  }

  /** A `#` typed by the Saved replies button opens it even where Esc closed it. */
  forgetDismissal(): void {
    this.#dismissedAt = -1;
  }

  /** The picker's keys while it is open (Up/Down move, Enter or Tab choose, Esc closes for this
   * `#`); any other key, or any key with Ctrl, Meta or Alt, types as usual. */
  key(e: Pick<KeyboardEvent, "key" | "shiftKey" | "ctrlKey" | "metaKey" | "altKey">): PickerKey {
    if (!this.hash || e.ctrlKey || e.metaKey || e.altKey) return "ignored";
    if (e.key === "Escape") {
      this.#dismissedAt = this.hash.start;
      this.close();
    } else if (e.key === "ArrowDown" || e.key === "ArrowUp") {
      this.highlight = moveHighlight(this.highlight, e.key === "ArrowDown" ? 1 : -1, this.items.length);
    } else if ((e.key === "Enter" || e.key === "Tab") && !e.shiftKey && this.items.length > 0) {
      return this.items[this.highlight];
    } else return "ignored";
    return "handled";
  }

  /** `text` with the `#query` replaced by `item`'s rendered text, and the caret after it; the
   * picker closes. `null` when it is not open. */
  choose(text: string, item: PickedReply): { text: string; caret: number } | null {
    if (!this.hash) return null;
    const next = replaceRange(text, this.hash.start, this.hash.start + 1 + this.hash.query.length, item.text);
    this.close();
    return next;
  }
}
