// Singular or plural text for a count, from two message keys (`….one` / `….other`), since the
// same rule (1 = singular) holds in English and Brazilian Portuguese for the counts shown here.
// The count is written the reader's way: 10,011 in English, 10.011 in Portuguese.
import { locale, t, type MessageKey } from "../i18n/index.svelte";

/** `t(one)` when `count` is 1, `t(other)` otherwise; both get `{count}`, formatted for the locale. */
export function plural(count: number, one: MessageKey, other: MessageKey, vars: Record<string, string | number> = {}): string {
  return t(count === 1 ? one : other, { ...vars, count: new Intl.NumberFormat(locale()).format(count) });
}
