// Texto em português do Brasil da área catalog. Mesmas chaves de en/catalog.ts.
import type { catalog as en } from "../en/catalog";

export const catalog: Record<keyof typeof en, string> = {
  "catalog.title": "Catálogo",
  "catalog.lead": "Skills de fábrica que você pode instalar e personalizar.",
  "catalog.install": "Instalar",
  "catalog.installing": "Instalando…",
  "catalog.installed": "Instalada",
  "catalog.overridden": "Substituída localmente",
  "catalog.open": "Abrir",
  "catalog.removeOverride": "Remover substituição",
  "catalog.removeOverrideConfirm": "Remover sua cópia local de {name}? A versão do catálogo volta; suas versões continuam no histórico.",
  "catalog.empty": "Nenhuma skill de fábrica acompanha esta versão.",
  "catalog.category": "Categoria",
  "catalog.tags": "Tags",
  "catalog.uncategorised": "sem categoria",
  "catalog.list": "Skills de fábrica",
};
