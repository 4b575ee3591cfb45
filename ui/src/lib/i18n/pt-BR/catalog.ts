// Texto em português do Brasil da área catalog. Mesmas chaves de en/catalog.ts.
import type { catalog as en } from "../en/catalog";

export const catalog: Record<keyof typeof en, string> = {
  "catalog.title": "Catálogo",
  "catalog.lead": "Skills de fábrica que você pode instalar e personalizar.",
  "catalog.pending": "As skills de fábrica aparecem aqui assim que o catálogo for construído.",
};
