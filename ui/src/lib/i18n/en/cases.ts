// English text for the cases area. pt-BR/cases.ts has the same keys (the type checker keeps them in step).
export const cases = {
  "cases.title": "Cases",
  "cases.lead": "Answer the cases the AI could not resolve: resolved, need info from the customer, or escalate.",
  "cases.pending": "Cases arrive here once the inbox is built.",
};
