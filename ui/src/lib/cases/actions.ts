// The three actions of the reply panel (SPEC B3) and what each needs from the person.
import type { HumanAction } from "../bindings/HumanAction";
import type { CaseStatus } from "../bindings/CaseStatus";
import type { MessageKey } from "../i18n/index.svelte";

export interface ActionInfo {
  action: HumanAction;
  /** The button. */
  label: MessageKey;
  /** The text area's label: what the text is for. */
  textLabel: MessageKey;
  placeholder: MessageKey;
  /** The key that picks it. */
  key: "1" | "2" | "3";
}

export const ACTIONS: ActionInfo[] = [
  {
    action: "resolved",
    label: "cases.action.resolved",
    textLabel: "cases.text.resolved",
    placeholder: "cases.placeholder.resolved",
    key: "1",
  },
  {
    action: "need_lead_info",
    label: "cases.action.need_lead_info",
    textLabel: "cases.text.need_lead_info",
    placeholder: "cases.placeholder.need_lead_info",
    key: "2",
  },
  {
    action: "escalate",
    label: "cases.action.escalate",
    textLabel: "cases.text.escalate",
    placeholder: "cases.placeholder.escalate",
    key: "3",
  },
];

/** The action's description. */
export function actionInfo(action: HumanAction): ActionInfo {
  return ACTIONS.find((a) => a.action === action)!;
}

/** Whether a person may take `action` on a case in `status` (the transition table of SPEC B2). */
export function actionAllowed(action: HumanAction, status: CaseStatus): boolean {
  if (status === "awaiting_human") return true;
  return status === "awaiting_lead" && action === "escalate";
}

/** Escalating hands the conversation to a person for good, so it asks to confirm. */
export function needsConfirmation(action: HumanAction): boolean {
  return action === "escalate";
}
