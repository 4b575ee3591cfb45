// English text for the skills area. pt-BR/skills.ts has the same keys (the type checker keeps them in step).
export const skills = {
  "skills.title": "Skills",
  "skills.lead": "Validate skill packages and preview exactly what the agent sees at each disclosure level.",
  "skills.pending": "Your skill library appears here once the skill library is built.",
};
