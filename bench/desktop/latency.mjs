// Keystroke latency inside the web page: from the DOM keydown event to the frame that shows its
// effect. WebKitGTK 2.50 has no Event Timing API, so a capture listener on the window stamps each
// keydown and ends it at requestAnimationFrame + setTimeout(0): the first task after the rendering
// update that includes the handler's changes. For searches the end is the frame after the result
// list's last change, so a debounce and the query's round trip are both inside the figure.

import { pause } from "./driving.mjs";

/** Installs the probe in the page (idempotent). */
export async function installProbe(browser) {
  await browser.execute(() => {
    if (window.__latency) return;
    const probe = { keys: [], mutations: [], observer: null };
    window.__latency = probe;
    addEventListener(
      "keydown",
      (event) => {
        const record = { key: event.key, at: event.timeStamp, frame: null };
        probe.keys.push(record);
        requestAnimationFrame(() => setTimeout(() => (record.frame = performance.now()), 0));
      },
      { capture: true },
    );
    probe.watch = (selector) => {
      probe.observer?.disconnect();
      probe.mutations = [];
      const target = document.querySelector(selector);
      if (!target) throw new Error(`nothing matches ${selector}`);
      probe.observer = new MutationObserver(() => {
        const record = { at: performance.now(), frame: null };
        probe.mutations.push(record);
        requestAnimationFrame(() => setTimeout(() => (record.frame = performance.now()), 0));
      });
      probe.observer.observe(target, { childList: true, subtree: true, characterData: true });
    };
  });
}


/** Percentiles of a list of milliseconds. */
export function summary(samples) {
  const sorted = [...samples].sort((a, b) => a - b);
  const at = (q) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
  return { n: sorted.length, p50: at(0.5), p95: at(0.95), max: sorted[sorted.length - 1] };
}

/**
 * Presses each of `keys` in turn `count` times in all, 60–160 ms apart (random, so the 60 Hz frame
 * clock's phase is averaged out), and returns keydown → frame for each press.
 */
export async function pressLatency(browser, keys, count) {
  await browser.execute(() => (window.__latency.keys = []));
  for (let i = 0; i < count; i++) {
    await browser.keys(keys[i % keys.length]);
    await pause(60 + Math.random() * 100);
  }
  await pause(300);
  const records = await browser.execute(() => window.__latency.keys.map((r) => [r.at, r.frame]));
  return records.filter(([, frame]) => frame !== null).map(([at, frame]) => frame - at);
}

/**
 * Types `text` into the focused field `box`, one key per WebDriver call and `gap` ms apart, and
 * returns the time from its last keydown to the last change of the list `selector` (`changed`)
 * and to the frame after it (`drawn`), waiting until the list has been still 600 ms; null when
 * the last key changed nothing. One call per key: WebKitWebDriver
 * drops a key repeated within one action sequence (`wa-99999` arrived as `wa-9`), so the field
 * is checked to hold `text` before the figure counts.
 */
export async function searchLatency(browser, box, selector, text, gap = 0) {
  await browser.execute((sel) => {
    window.__latency.keys = [];
    window.__latency.watch(sel);
  }, selector);
  for (const key of text) {
    await browser.keys(key);
    if (gap > 0) await pause(gap);
  }
  let lastCount = -1;
  for (let still = 0; still < 600; ) {
    await pause(100);
    const count = await browser.execute(() => window.__latency.mutations.length);
    still = count === lastCount ? still + 100 : 0;
    lastCount = count;
  }
  const typed = await browser.execute((sel) => document.querySelector(sel).value, box);
  if (typed !== text) throw new Error(`the search box holds ${JSON.stringify(typed)}, not ${JSON.stringify(text)}`);
  return browser.execute(() => {
    const { keys, mutations } = window.__latency;
    const lastKey = keys[keys.length - 1]?.at;
    const lastChange = mutations.filter((m) => m.at >= lastKey).pop();
    if (!lastChange || lastChange.frame === null) return null;
    return { drawn: lastChange.frame - lastKey, changed: lastChange.at - lastKey };
  });
}

/**
 * The inbox page for `search` asked for `count` times from inside the page, as the list asks
 * for it: the command's round trip (IPC, the engine, the JSON both ways) without any drawing.
 */
export async function pageRoundTrip(browser, search, count) {
  return browser.executeAsync(
    async (search, count, done) => {
      const times = [];
      for (let i = 0; i < count; i++) {
        const started = performance.now();
        await window.__TAURI_INTERNALS__.invoke("cases_list", { filter: { tab: "waiting_on_you", search, offset: 0, limit: 100 } });
        times.push(performance.now() - started);
      }
      done(times);
    },
    search,
    count,
  );
}
