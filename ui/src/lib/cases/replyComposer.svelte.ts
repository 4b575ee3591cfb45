// The reply being written on a case: the action picked and the text (kept as the case's draft),
// the escalation confirmation, the send, and the Take over a send refused because someone else
// is replying offers.
import * as commands from "../bindings/commands";
import type { Case } from "../bindings/Case";
import type { CaseWithTimeline } from "../bindings/CaseWithTimeline";
import type { ErrorBody } from "../bindings/ErrorBody";
import type { HumanAction } from "../bindings/HumanAction";
import { hasCode } from "../backend";
import { ownWrite } from "../inbox.svelte";
import { t } from "../i18n/index.svelte";
import { actionAllowed, needsConfirmation } from "./actions";
import { clearDraft, type Draft } from "./drafts";

/** What a send did: asked to confirm the escalation, sent (the case as it now stands), or nothing. */
export type SendOutcome = "confirm" | CaseWithTimeline | null;

/** The reply tab's state; it outlives the tab being shown. */
export class ReplyComposer {
  action = $state<HumanAction | null>(null);
  text = $state("");
  /** The escalation confirmation is up. */
  confirming = $state(false);
  /** Send & next was asked for: the next case opens once this one is sent. */
  thenNext = $state(false);
  sending = $state(false);
  /** Why the last send failed, in the person's language; `null` when it did not. */
  error = $state<string | null>(null);
  /** The last send was refused because someone else is replying: Take over is offered. */
  takeOver = $state(false);

  /** Starts from the case's draft. */
  constructor(draft: Draft) {
    this.action = draft.action;
    this.text = draft.text;
  }

  /** Whether Send can go on a case in `status`. */
  canSend(status: Case["status"]): boolean {
    return !this.sending && this.action !== null && actionAllowed(this.action, status) && this.text.trim() !== "";
  }

  /** Picks `action` (the error of the last attempt goes). */
  pick(action: HumanAction): void {
    this.action = action;
    this.error = null;
  }

  /** Sends the reply on `current` (`next`: then open the next case). An escalation asks to
   * confirm first; sending it again while the confirmation is up confirms it. Once sent, the
   * draft is forgotten. */
  async send(current: Case, next: boolean): Promise<SendOutcome> {
    if (!this.canSend(current.status) || this.action === null) return null;
    if (!this.confirming) this.thenNext = next;
    if (needsConfirmation(this.action) && !this.confirming) {
      this.confirming = true;
      return "confirm";
    }
    this.confirming = false;
    this.sending = true;
    this.error = null;
    try {
      const { action, text } = this;
      const updated = await ownWrite(current.id, () => commands.caseReply({ id: current.id, action, text }));
      clearDraft(current.id);
      this.action = null;
      this.text = "";
      return updated;
    } catch (err) {
      this.error = t("cases.reply.failed", { message: (err as ErrorBody).message });
      this.takeOver = hasCode(err as ErrorBody, "case_being_replied");
      return null;
    } finally {
      this.sending = false;
    }
  }

  /** Takes case `caseId` (which ends the other person's hold); answers whether it is now this
   * person's, so the send can go again. */
  async takeCase(caseId: string): Promise<boolean> {
    this.takeOver = false;
    try {
      await commands.caseTake({ id: caseId });
      return true;
    } catch (err) {
      this.error = t("cases.reply.failed", { message: (err as ErrorBody).message });
      return false;
    }
  }

  /** Closes the escalation confirmation; answers whether it was up. */
  cancelConfirmation(): boolean {
    if (!this.confirming) return false;
    this.confirming = false;
    return true;
  }
}
