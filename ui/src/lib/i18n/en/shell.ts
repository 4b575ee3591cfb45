// English text for the shell area. pt-BR/shell.ts has the same keys (the type checker keeps them in step).
export const shell = {
  "app.name": "Skillcase",
  "nav.label": "Main navigation",
  "nav.skills": "Skills",
  "nav.catalog": "Catalog",
  "nav.cases": "Cases",
  "nav.settings": "Settings",
  "status.label": "Status",
  "status.version": "Skillcase {version}",
  "status.skillsDir": "Skills",
  "status.dataDir": "Data",
  "status.database": "Database",
  "status.api": "Agent API",
  "status.apiFailed": "Agent API is off: {message}",
  "status.loading": "Connecting to the Skillcase engine…",
  "status.error": "The engine did not answer: {message} ({code})",
  "filters.clear": "Clear filters",
};
