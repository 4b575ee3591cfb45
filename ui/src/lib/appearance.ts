// Applies the saved language and theme to the window: the language through `setLocale`, the
// theme as `data-theme` on <html> (absent = follow the system; see styles.css).
import { detectLocale, setLocale } from "./i18n/index.svelte";
import * as commands from "./bindings/commands";
import type { Language } from "./bindings/Language";
import type { Theme } from "./bindings/Theme";

/** Speaks `language`; `system` picks from the system's languages. */
export function applyLanguage(language: Language): void {
  const languages = typeof navigator === "undefined" ? [] : (navigator.languages ?? []);
  setLocale(language === "system" ? detectLocale(languages) : language);
}

/** Shows `theme`; `system` follows the system's light/dark preference. */
export function applyTheme(theme: Theme): void {
  const root = document.documentElement;
  if (theme === "system") delete root.dataset.theme;
  else root.dataset.theme = theme;
}

/** Applies the saved language and theme at start-up; the system's choices stay if that fails. */
export async function applySavedAppearance(): Promise<void> {
  try {
    const { workspace } = await commands.settingsGet();
    applyLanguage(workspace.language);
    applyTheme(workspace.theme);
  } catch {
    // The status line reports an engine that does not answer; the system defaults are fine here.
  }
}
