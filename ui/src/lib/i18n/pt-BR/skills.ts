// Texto em português do Brasil da área skills. Mesmas chaves de en/skills.ts.
import type { skills as en } from "../en/skills";

export const skills: Record<keyof typeof en, string> = {
  "skills.title": "Skills",
  "skills.lead": "Valide pacotes de skills e veja exatamente o que o agente recebe em cada nível de divulgação.",
  "skills.pending": "Sua biblioteca de skills aparece aqui assim que a biblioteca for construída.",
};
