// Dates as the person reads them, in the app's language.
import { locale } from "../i18n/index.svelte";

/** A short local date and time, e.g. "30/11/2026 14:05". */
export function formatTime(iso: string): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  return new Intl.DateTimeFormat(locale(), { dateStyle: "short", timeStyle: "short" }).format(date);
}
