// English text for the catalog area. pt-BR/catalog.ts has the same keys (the type checker keeps them in step).
export const catalog = {
  "catalog.title": "Catalog",
  "catalog.lead": "Factory skills you can install and customise.",
  "catalog.pending": "Factory skills appear here once the catalog is built.",
};
