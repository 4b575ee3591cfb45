// Texto em português do Brasil da área cases. Mesmas chaves de en/cases.ts.
import type { cases as en } from "../en/cases";

export const cases: Record<keyof typeof en, string> = {
  "cases.title": "Casos",
  "cases.lead": "Responda os casos que a IA não resolveu: resolvido, pedir informação ao cliente ou escalar.",
  "cases.pending": "Os casos chegam aqui assim que a caixa de entrada for construída.",
};
