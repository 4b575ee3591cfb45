// One shared clock for every "waiting 2 h" on screen, so all timers tick together.
import { TICK_MS } from "./waiting";

export const clock = $state({ now: Date.now() });

let timer: ReturnType<typeof setInterval> | undefined;
let users = 0;

/** Starts ticking while at least one caller needs it; returns the function that stops. */
export function useClock(): () => void {
  users += 1;
  clock.now = Date.now();
  timer ??= setInterval(() => (clock.now = Date.now()), TICK_MS);
  return () => {
    users -= 1;
    if (users === 0 && timer) {
      clearInterval(timer);
      timer = undefined;
    }
  };
}
