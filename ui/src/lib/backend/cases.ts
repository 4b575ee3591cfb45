// The case inbox and case detail: typed commands and the `case-opened` / `case-changed` events.
import type { UnlistenFn } from "@tauri-apps/api/event";
import { listenTo } from "../bindings/events";
import type { CaseFilter } from "../bindings/CaseFilter";
import type { CasePage } from "../bindings/CasePage";
import type { CaseListItem } from "../bindings/CaseListItem";
import type { CaseWithTimeline } from "../bindings/CaseWithTimeline";
import type { Case } from "../bindings/Case";
import type { CaseEvent } from "../bindings/CaseEvent";
import type { CaseStatus } from "../bindings/CaseStatus";
import type { CaseTab } from "../bindings/CaseTab";
import type { CaseView } from "../bindings/CaseView";
import type { Delivery } from "../bindings/Delivery";
import type { DeliveryState } from "../bindings/DeliveryState";
import type { HumanAction } from "../bindings/HumanAction";
import type { OutboxStatus } from "../bindings/OutboxStatus";
import type { EndpointHealth } from "../bindings/EndpointHealth";
import type { TabCounts } from "../bindings/TabCounts";
import type { Promise as CasePromise } from "../bindings/Promise";
import type { PendingPromise } from "../bindings/PendingPromise";
import type { GuardSpan } from "../bindings/GuardSpan";
import type { HandoverReason } from "../bindings/HandoverReason";
import type { CaseReport } from "../bindings/CaseReport";
import type { ReportRange } from "../bindings/ReportRange";
import type { ReportSummary } from "../bindings/ReportSummary";
import type { ReportWeek } from "../bindings/ReportWeek";
import type { QuietPlan } from "../bindings/QuietPlan";
import type { CaseSort } from "../bindings/CaseSort";
import type { CaseSla } from "../bindings/CaseSla";
import type { Replying } from "../bindings/Replying";
import * as commands from "../bindings/commands";

export type {
  Replying,
  CaseView,
  Case,
  CaseSla,
  CaseSort,
  CaseEvent,
  CaseFilter,
  CaseListItem,
  CasePage,
  CaseStatus,
  CaseTab,
  CaseWithTimeline,
  Delivery,
  DeliveryState,
  EndpointHealth,
  HumanAction,
  OutboxStatus,
  TabCounts,
  CasePromise,
  PendingPromise,
  GuardSpan,
  HandoverReason,
  CaseReport,
  ReportRange,
  ReportSummary,
  ReportWeek,
  QuietPlan,
};

/** One inbox page (tab, search, status, reason, dates, offset, limit). */
export function listCases(filter: CaseFilter): Promise<CasePage> {
  return commands.casesList({ filter });
}

/** The handover report over the cases opened in `range` (days, both included). */
export function caseReport(range: ReportRange): Promise<CaseReport> {
  return commands.casesReport({ range });
}

/** Cases per tab and unread cases waiting on the person. */
export function caseCounts(): Promise<TabCounts> {
  return commands.casesCounts();
}

/** One case with its timeline and deliveries. */
export function getCase(id: string): Promise<CaseWithTimeline> {
  return commands.caseGet({ id });
}

/** Marks a case read (opened) or unread again. */
export function markCaseRead(id: string, read: boolean): Promise<void> {
  return commands.caseMarkRead({ id, read });
}

/** Bulk action: marks the cases read or unread again, all or none. */
export function markCasesRead(ids: string[], read: boolean): Promise<void> {
  return commands.casesMarkRead({ ids, read });
}

/** Bulk action: cancels the open cases with one reason, all or none; returns them cancelled. */
export function cancelCases(ids: string[], reason: string): Promise<Case[]> {
  return commands.casesCancel({ ids, reason });
}

/** Gives the open cases to `assignee` (null: unassigned), all or none; returns them as they now stand. */
export function assignCases(ids: string[], assignee: string | null): Promise<Case[]> {
  return commands.casesAssign({ ids, assignee });
}

/** Take: assigns the open case to the person at this desktop. */
export function takeCase(id: string): Promise<Case> {
  return commands.caseTake({ id });
}

/** The name the person at this desktop goes by on cases (Settings' You name, else the system user). */
/** This desktop's person is typing a reply: holds the case's short lease (the lease in force comes back). */
export function holdReply(id: string): Promise<Replying> {
  return commands.caseHoldReply({ id });
}

export function casesMe(): Promise<string> {
  return commands.casesMe();
}

/** For Send & next: the case waiting on the person longest, other than `except`; null when none. */
export function nextCaseWaiting(except: string): Promise<string | null> {
  return commands.caseNextWaiting({ except });
}

/** The person's answer; returns the case as it now stands. */
export function replyToCase(id: string, action: HumanAction, text: string): Promise<CaseWithTimeline> {
  return commands.caseReply({ id, action, text });
}

/** A person's internal note on the case (never sent to the agent); returns the case as it now stands. */
export function addCaseNote(id: string, text: string): Promise<CaseWithTimeline> {
  return commands.caseAddNote({ id, text });
}

/** Sends a failed or dead delivery again. */
export function retryDelivery(id: string): Promise<Delivery> {
  return commands.deliveryRetry({ id });
}

/** Whether replies reach the agent endpoint (the banner). */
export function outboxStatus(): Promise<OutboxStatus> {
  return commands.outboxStatus();
}

/** Calls `handler` with the id of each case the agent or the guardrail opens. */
export function onCaseOpened(handler: (id: string) => void): Promise<UnlistenFn> {
  return listenTo("case-opened", (event) => handler(event.id));
}

/** Calls `handler` with the id of each case whose status, timeline or delivery changed. */
export function onCaseChanged(handler: (id: string) => void): Promise<UnlistenFn> {
  return listenTo("case-changed", (event) => handler(event.id));
}

/** Calls `handler` with the id of each case whose promise to the customer fell due unanswered. */
export function onPromiseOverdue(handler: (id: string) => void): Promise<UnlistenFn> {
  return listenTo("promise-overdue", (event) => handler(event.id));
}

/** Calls `handler` when events were dropped and every view should reload. */
export function onEventsLagged(handler: () => void): Promise<UnlistenFn> {
  return listenTo("events-lagged", () => handler());
}
