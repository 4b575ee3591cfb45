// A delay as people type it (an amount in minutes or hours) and as it is saved (minutes).

export type Unit = "minutes" | "hours";

/** Whole hours when the minutes make whole hours, else minutes. */
export function fromMinutes(minutes: number): { amount: number; unit: Unit } {
  return minutes % 60 === 0 ? { amount: minutes / 60, unit: "hours" } : { amount: minutes, unit: "minutes" };
}

/** The minutes `amount` of `unit` make. */
export function toMinutes(amount: number, unit: Unit): number {
  return unit === "hours" ? amount * 60 : amount;
}

/** A delay in a form: its switch, and the amount and unit as typed. */
export interface DelayInput {
  on: boolean;
  amount: string;
  unit: Unit;
}

/** The form's delay for a saved one: switched `on`, `minutes` shown in whole hours if they make them. */
export function delayInput(on: boolean, minutes: number): DelayInput {
  const { amount, unit } = fromMinutes(minutes);
  return { on, amount: String(amount), unit };
}
