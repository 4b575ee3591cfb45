// One shared clock for every "waiting 2 h", "due in 3 h" and "5 minutes ago" on screen. It ticks
// only when a label on screen would change: each label asks for the moment it next changes
// (`tickAt`), and the clock sleeps until the earliest of them, so a screen of cases waiting for
// days wakes the page once an hour, not twice a minute, and a screen without such labels never.

export const clock = $state({ now: Date.now() });

/** The longest single sleep (setTimeout's limit is about 24.8 days). */
const LONGEST = 86_400_000;
/** Wake a little after the boundary, so the label read then has already changed. */
const MARGIN = 5;

let timer: ReturnType<typeof setTimeout> | undefined;
let timerAt = Infinity;
let users = 0;

function tick(): void {
  timer = undefined;
  timerAt = Infinity;
  clock.now = Date.now();
}

/** A woken laptop or a window shown again catches up at once instead of at the next boundary. */
function catchUp(): void {
  if (document.visibilityState === "visible") tick();
}

/** Asks for a tick at `at` (ms since the epoch); the earliest asked for wins. Labels ask again
 * after every tick, so a label gone from the screen keeps the clock awake at most once more. */
export function tickAt(at: number): void {
  if (users === 0 || !Number.isFinite(at)) return;
  const now = Date.now();
  const wanted = Math.min(Math.max(at, now), now + LONGEST);
  if (wanted >= timerAt) return;
  if (timer) clearTimeout(timer);
  timerAt = wanted;
  timer = setTimeout(tick, wanted - now + MARGIN);
}

/** Runs the clock while at least one screen needs it; returns the function that stops. */
export function useClock(): () => void {
  users += 1;
  if (users === 1) {
    clock.now = Date.now();
    document.addEventListener("visibilitychange", catchUp);
  }
  return () => {
    users -= 1;
    if (users > 0) return;
    document.removeEventListener("visibilitychange", catchUp);
    if (timer) clearTimeout(timer);
    timer = undefined;
    timerAt = Infinity;
  };
}
