// Singular or plural text for a count, from two message keys (`….one` / `….other`), since the
// same rule (1 = singular) holds in English and Brazilian Portuguese for the counts shown here.
import { t, type MessageKey } from "../i18n/index.svelte";

/** `t(one)` when `count` is 1, `t(other)` otherwise; both get `{count}`. */
export function plural(count: number, one: MessageKey, other: MessageKey, vars: Record<string, string | number> = {}): string {
  return t(count === 1 ? one : other, { ...vars, count });
}
