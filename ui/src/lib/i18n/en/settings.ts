// English text for the settings area. pt-BR/settings.ts has the same keys (the type checker keeps them in step).
export const settings = {
  "settings.title": "Settings",
  "settings.lead": "Skills directory, agent endpoint, local API, policy and language.",
  "settings.pending": "Settings can be changed here once the settings screen is built.",
};
