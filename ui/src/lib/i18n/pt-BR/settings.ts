// Texto em português do Brasil da área settings. Mesmas chaves de en/settings.ts.
import type { settings as en } from "../en/settings";

export const settings: Record<keyof typeof en, string> = {
  "settings.title": "Configurações",
  "settings.lead": "Pasta de skills, endpoint do agente, API local, política e idioma.",
  "settings.pending": "As configurações poderão ser alteradas aqui assim que a tela for construída.",
};
