// The four areas of the app, in sidebar order.
import type { MessageKey } from "./i18n/index.svelte";

export type Screen = "skills" | "catalog" | "cases" | "settings";

export const screens: { id: Screen; label: MessageKey; icon: string }[] = [
  { id: "skills", label: "nav.skills", icon: "M4 5h16v3H4zM4 10.5h16v3H4zM4 16h10v3H4z" },
  { id: "catalog", label: "nav.catalog", icon: "M4 4h7v7H4zM13 4h7v7h-7zM4 13h7v7H4zM13 13h7v7h-7z" },
  { id: "cases", label: "nav.cases", icon: "M3 7h18v12H3zM8 7V4h8v3M3 12h18" },
  { id: "settings", label: "nav.settings", icon: "M12 8a4 4 0 1 0 0 8 4 4 0 0 0 0-8zM12 2v3M12 19v3M2 12h3M19 12h3" },
];
