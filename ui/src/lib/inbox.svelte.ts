// What the whole window shares about the inbox: the tab counts (the navigation badge shows the
// unread cases waiting on the person), the latest new case (the toast), and a revision that
// bumps on every case event so the open screen re-reads what it shows.
import { onCaseChanged, onCaseOpened, onEventsLagged, onPromiseOverdue } from "./backend";
import * as commands from "./bindings/commands";
import type { TabCounts } from "./bindings/TabCounts";

export interface NewCaseNotice {
  id: string;
  number: number;
  title: string;
}

export const inbox = $state<{
  counts: TabCounts | null;
  notice: NewCaseNotice | null;
  revision: number;
  /** The id of the case that changed last, so a detail view reloads only for its case. */
  changed: string | null;
  /** Whether that change was this window's own write, whose result the window already shows. */
  own: boolean;
  /** A case someone asked to open from outside the screen (the toast's Open). */
  openRequest: string | null;
}>({ counts: null, notice: null, revision: 0, changed: null, own: false, openRequest: null });

/** How long the new-case toast stays up. */
export const NOTICE_MS = 8_000;
let noticeTimer: ReturnType<typeof setTimeout> | undefined;

/** Re-reads the counts from Rust. */
export async function refreshCounts(): Promise<void> {
  try {
    inbox.counts = await commands.casesCounts();
  } catch {
    // The counts stay as they were; the next event tries again.
  }
}

/** How long the change event of a write this window made is waited for; a change after that is
 * someone else's. */
export const ECHO_MS = 2_000;

/** Per case, the writes of this window whose change event has not come back yet. */
const echoes = new Map<string, number>();

function expect(id: string): void {
  echoes.set(id, (echoes.get(id) ?? 0) + 1);
}

/** Forgets one expected echo of case `id`; answers whether there was one. */
function consume(id: string): boolean {
  const n = echoes.get(id) ?? 0;
  if (n === 0) return false;
  if (n === 1) echoes.delete(id);
  else echoes.set(id, n - 1);
  return true;
}

/**
 * Runs `write`, a change this window makes to case `id` whose result (the case as the write left
 * it) the caller shows at once: the change event it sends back marks the change as the window's
 * own, so the case's detail does not read it again (the list and the counts still follow).
 */
export async function ownWrite<T>(id: string, write: () => Promise<T>): Promise<T> {
  expect(id);
  try {
    const result = await write();
    setTimeout(() => consume(id), ECHO_MS);
    return result;
  } catch (err) {
    consume(id);
    throw err;
  }
}

/** A change to case `id`; an empty id (the team inbox reconnected) may have touched any case. */
function touched(id: string | null): void {
  inbox.own = id ? consume(id) : false;
  inbox.changed = id || null;
  inbox.revision += 1;
  void refreshCounts();
}

async function announce(id: string): Promise<void> {
  touched(id);
  try {
    const { case: opened } = await commands.caseGet({ id });
    inbox.notice = { id, number: Number(opened.number), title: opened.title };
    clearTimeout(noticeTimer);
    noticeTimer = setTimeout(() => (inbox.notice = null), NOTICE_MS);
  } catch {
    // A case that cannot be read is still counted; it just gets no toast.
  }
}

/** Dismisses the toast. */
export function dismissNotice(): void {
  clearTimeout(noticeTimer);
  inbox.notice = null;
}

/** Asks the cases screen to open `id`. */
export function requestOpen(id: string): void {
  inbox.openRequest = id;
  dismissNotice();
}

/** Starts listening to case events; returns the function that stops. */
export function startInbox(): () => void {
  const stops = [
    onCaseOpened(announce),
    onCaseChanged(touched),
    onPromiseOverdue(touched),
    onEventsLagged(() => touched(null)),
  ];
  void refreshCounts();
  return () => stops.forEach((stop) => stop.then((fn) => fn()).catch(() => {}));
}
