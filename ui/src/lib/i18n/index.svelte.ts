// The current language and the `t` function every component uses for its text.
import { en, type MessageKey } from "./en/index";
import { ptBR } from "./pt-BR/index";

export type Locale = "en" | "pt-BR";
export type { MessageKey };

const dictionaries: Record<Locale, Record<MessageKey, string>> = { en, "pt-BR": ptBR };

/** Portuguese for any `pt*` system language, English otherwise. */
export function detectLocale(languages: readonly string[]): Locale {
  return languages.some((l) => l.toLowerCase().startsWith("pt")) ? "pt-BR" : "en";
}

const state = $state<{ locale: Locale }>({
  locale: detectLocale(typeof navigator === "undefined" ? [] : navigator.languages ?? []),
});

export function locale(): Locale {
  return state.locale;
}

export function setLocale(next: Locale): void {
  state.locale = next;
  if (typeof document !== "undefined") document.documentElement.lang = next;
}

/** The text for `key` in the current language, with `{name}` placeholders filled from `vars`. */
export function t(key: MessageKey, vars: Record<string, string | number> = {}): string {
  // A key built at run time from data the window does not know yet reads as English, or as the
  // key itself, rather than breaking the screen that shows it.
  const text: string = dictionaries[state.locale][key] ?? dictionaries.en[key] ?? key;
  return text.replace(/\{(\w+)\}/g, (whole, name: string) => (name in vars ? String(vars[name]) : whole));
}

/** Whether `key` has text (for keys built from an error code at run time). */
export function hasMessage(key: string): key is MessageKey {
  return key in dictionaries.en;
}
