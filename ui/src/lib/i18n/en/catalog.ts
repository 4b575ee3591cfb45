// English text for the catalog area. pt-BR/catalog.ts has the same keys (the type checker keeps them in step).
export const catalog = {
  "catalog.title": "Catalog",
  "catalog.lead": "Factory skills you can install and customise.",
  "catalog.install": "Install",
  "catalog.installing": "Installing…",
  "catalog.installed": "Installed",
  "catalog.overridden": "Locally overridden",
  "catalog.open": "Open",
  "catalog.removeOverride": "Remove override",
  "catalog.removeOverrideConfirm": "Remove your local copy of {name}? The catalog version comes back; your versions stay in the history.",
  "catalog.empty": "No factory skills are shipped with this build.",
  "catalog.category": "Category",
  "catalog.tags": "Tags",
  "catalog.uncategorised": "uncategorised",
  "catalog.list": "Factory skills",
};
