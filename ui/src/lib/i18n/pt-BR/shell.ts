// Texto em português do Brasil da área shell. Mesmas chaves de en/shell.ts.
import type { shell as en } from "../en/shell";

export const shell: Record<keyof typeof en, string> = {
  "app.name": "Skillcase",
  "nav.label": "Navegação principal",
  "nav.skills": "Skills",
  "nav.catalog": "Catálogo",
  "nav.cases": "Casos",
  "nav.settings": "Configurações",
  "status.label": "Status",
  "status.version": "Skillcase {version}",
  "status.skillsDir": "Skills",
  "status.dataDir": "Dados",
  "status.database": "Banco de dados",
  "status.api": "API do agente",
  "status.apiFailed": "A API do agente está desligada: {message}",
  "status.watch": "Relida, não observada: {message}",
  "status.loading": "Conectando ao motor do Skillcase…",
  "status.error": "O motor não respondeu: {message} ({code})",
  "filters.clear": "Limpar filtros",
};
