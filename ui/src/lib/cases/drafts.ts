// Drafts of replies, one per case, kept while the person moves around the app (and across a
// reload, in localStorage), so leaving a case never loses what they typed.
import type { HumanAction } from "../bindings/HumanAction";

export interface Draft {
  action: HumanAction | null;
  text: string;
}

const KEY = "skillcase.case-drafts";

function storage(): Storage | null {
  try {
    return typeof localStorage === "undefined" ? null : localStorage;
  } catch {
    return null;
  }
}

function load(): Map<string, Draft> {
  try {
    const raw = storage()?.getItem(KEY);
    return new Map(raw ? (Object.entries(JSON.parse(raw)) as [string, Draft][]) : []);
  } catch {
    return new Map();
  }
}

const drafts = load();

function save(): void {
  storage()?.setItem(KEY, JSON.stringify(Object.fromEntries(drafts)));
}

/** The draft of `caseId`, or an empty one. */
export function draftFor(caseId: string): Draft {
  return { ...(drafts.get(caseId) ?? { action: null, text: "" }) };
}

/** Keeps `draft` for `caseId`; an empty draft is forgotten. */
export function keepDraft(caseId: string, draft: Draft): void {
  if (draft.action === null && draft.text.trim() === "") drafts.delete(caseId);
  else drafts.set(caseId, { action: draft.action, text: draft.text });
  save();
}

/** Forgets the draft of `caseId` (after it was sent). */
export function clearDraft(caseId: string): void {
  drafts.delete(caseId);
  save();
}
