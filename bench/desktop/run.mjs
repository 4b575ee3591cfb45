// The desktop benchmark: the release Skillcase window on 10,000 skills and 100,000 cases, side by
// side with a blank Tauri 2 window built from the same workspace (the floor), both driven through
// the end-to-end harness (Xvfb, tauri-driver, WebKitWebDriver) with the same environment.
// Run it with bench/desktop.sh; settings come from the environment:
//   STARTS (5) launches of each window, alternating; PRESSES (100) keys per latency measure;
//   IDLE_SECS (600) idle sampling per window; TYPING_GAP (150) ms between the keys of a search
//   typed at a person's pace; WORK_MINUTES (60) of simulated work, one round every WORK_PACE (30) s,
//   memory read every WORK_SAMPLE (5) min; BENCH_BINARIES (target/release) where the three
//   binaries are, so a copy can be measured while the workspace builds;
//   PHASES (start,latency,team,idle,work) which parts to run, to look again at one of them quickly.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { launchApp, ROOT } from "../../tests/e2e/support/harness.mjs";
import { writeCases, writeSkills } from "./data.mjs";
import { teamDatabase } from "./team.mjs";
import { installProbe, pageRoundTrip, pressLatency, searchLatency, summary } from "./latency.mjs";
import { clearBox, click, KEY, pause } from "./driving.mjs";
import { workingHour } from "./work.mjs";
import { findProcess, processTree, sampleIdle, secondsSinceStart, treeMemory } from "./procfs.mjs";

const BINARIES = process.env.BENCH_BINARIES ?? join(ROOT, "target/release");
const APP = join(BINARIES, "skillcase-app");
const BLANK = join(BINARIES, "skillcase-blank-window");
const CLI = join(BINARIES, "skillcase");
process.env.SKILLCASE_CLI_BINARY = CLI;
const { setEndpoint, startFakeEndpoint } = await import("../../tests/e2e/support/agent.mjs");

const setting = (name, fallback) => Number(process.env[name] ?? fallback);
const STARTS = setting("STARTS", 5);
const PRESSES = setting("PRESSES", 100);
const WORK_MINUTES = setting("WORK_MINUTES", 60);
const WORK_PACE = setting("WORK_PACE", 30);
const WORK_SAMPLE = setting("WORK_SAMPLE", 5);
const IDLE_SECS = setting("IDLE_SECS", 600);
const TYPING_GAP = setting("TYPING_GAP", 150);
const SKILLS = setting("SKILLS", 10_000);
const CASES = setting("CASES", 100_000);
const PHASES = new Set((process.env.PHASES ?? "start,latency,team,idle,work").split(","));

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const log = (...parts) => console.error(`[${new Date().toISOString().slice(11, 19)}]`, ...parts);

/** Waits for the performance mark `name` and returns it in seconds since the process started. */
async function markSinceStart(browser, pid, name) {
  await browser.waitUntil(() => browser.execute((n) => performance.getEntriesByName(n).length > 0, name), {
    timeout: 120_000,
    interval: 50,
    timeoutMsg: `the window never set the mark ${name}`,
  });
  const before = secondsSinceStart(pid);
  const [now, mark] = await browser.execute((n) => [performance.now(), performance.getEntriesByName(n)[0].startTime], name);
  const after = secondsSinceStart(pid);
  // The page's clock starts at navigation; pin it to the process's clock at the moment of the call.
  return (before + after) / 2 - now / 1000 + mark / 1000;
}

/** Launches a window with the run's data and finds its process tree. */
async function launch(binary, comm, dirs, env = {}) {
  const app = await launchApp({
    binary,
    // Each window as it ships: the harness's choice of WebKit's compositing mode is undone.
    env: { LANG: "en_US.UTF-8", GTK_THEME: "Adwaita", SKILLCASE_DATA_DIR: dirs.data, SKILLCASE_SKILLS_DIR: dirs.skills, WEBKIT_DISABLE_COMPOSITING_MODE: undefined, ...env },
  });
  const pid = findProcess(comm, dirs.data);
  if (!pid) throw new Error(`no ${comm} process for ${dirs.data}`);
  return { ...app, pid };
}

async function toInbox(browser, pid) {
  const clicked = secondsSinceStart(pid);
  await click(browser, 'nav button[data-nav="cases"]');
  const inbox = await markSinceStart(browser, pid, "inbox:first-page");
  return { inbox, clickToInbox: inbox - clicked };
}

/** One start of each window: start-up marks, and the memory once it has settled. */
async function startOnce(dirs, results) {
  const blank = await launch(BLANK, "skillcase-blank-window", dirs);
  try {
    results.blank.firstPaint.push(await markSinceStart(blank.browser, blank.pid, "blank:first-paint"));
    await pause(10_000);
    results.blank.memory.push(treeMemory(processTree(blank.pid)));
  } finally {
    await blank.stop();
  }
  const app = await launch(APP, "skillcase-app", dirs);
  try {
    results.app.firstData.push(await markSinceStart(app.browser, app.pid, "skills:first-data"));
    const { inbox, clickToInbox } = await toInbox(app.browser, app.pid);
    results.app.inbox.push(inbox);
    results.app.clickToInbox.push(clickToInbox);
    await pause(10_000);
    results.app.memory.push(treeMemory(processTree(app.pid)));
  } finally {
    await app.stop();
  }
}

/**
 * Each query typed five times into the search box `box` at each pace (keys as fast as WebDriver
 * sends them, and `TYPING_GAP` ms apart as a brisk typist does), timed until the list `list`
 * changes and until it is drawn; the box emptied between. For the inbox (`roundTrip`), the
 * query's page is also asked for from the page itself, which parts the figure into the
 * command's round trip and the rest.
 */
async function searches(browser, box, list, queries, roundTrip = false) {
  const figures = { burst: {}, typed: {}, changed: {}, roundTrip: {} };
  for (const [pace, gap] of [["burst", 0], ["typed", TYPING_GAP]]) {
    for (const query of queries) {
      const samples = [];
      for (let i = 0; i < 5; i++) {
        await click(browser, box);
        samples.push(await searchLatency(browser, box, list, query, gap));
        await clearBox(browser, box);
        await pause(800);
      }
      const timed = samples.filter((s) => s !== null);
      figures[pace][query] = summary(timed.map((s) => s.drawn));
      if (pace === "typed") figures.changed[query] = summary(timed.map((s) => s.changed));
    }
  }
  for (const query of roundTrip ? queries : []) figures.roundTrip[query] = summary((await pageRoundTrip(browser, query, 11)).slice(1));
  return figures;
}

/** Latency of j/k, the skills list's arrows and both search boxes in the app; the blank window's frame floor. */
async function latencies(dirs, results) {
  const blank = await launch(BLANK, "skillcase-blank-window", dirs);
  try {
    await installProbe(blank.browser);
    results.blank.keyFrame = summary(await pressLatency(blank.browser, ["j", "k"], PRESSES));
  } finally {
    await blank.stop();
  }
  const app = await launch(APP, "skillcase-app", dirs);
  try {
    const { browser } = app;
    await installProbe(browser);
    await toInbox(browser, app.pid);
    await browser.execute(() => document.activeElement?.blur());
    results.app.inboxJK = summary(await pressLatency(browser, ["j", "k"], PRESSES));
    results.app.inboxSearch = await searches(browser, "#case-search", '[role="listbox"][data-total]', ["wa-99999", "4242", "excec 4242", "lead 7"], true);

    await click(browser, 'nav button[data-nav="skills"]');
    await browser.keys("/");
    await browser.keys(KEY.Down);
    results.app.skillsArrows = summary(await pressLatency(browser, [KEY.Down, KEY.Up], PRESSES));
    results.app.skillsSearch = await searches(browser, '[data-testid="skill-search"]', '[data-testid="virtual-list"]', ["topic 42", "skill-09999", "plan 12"]);
  } finally {
    await app.stop();
  }
}

/**
 * The team database at 1,000,000 cases: start to the inbox's first page, and the inbox search
 * (the newest case's conversation id, a number also said in answers, a note's word without its
 * accents cut short with a number, a customer's name).
 */
async function team(dirs, results) {
  const db = await teamDatabase(CLI, dirs.data);
  try {
    const app = await launch(APP, "skillcase-app", dirs, { SKILLCASE_DATABASE_URL: db.url });
    try {
      await installProbe(app.browser);
      const { inbox, clickToInbox } = await toInbox(app.browser, app.pid);
      results.team = { inbox, clickToInbox };
      await app.browser.execute(() => document.activeElement?.blur());
      results.team.search = await searches(app.browser, "#case-search", '[role="listbox"][data-total]', [
        "wa-5511901299999",
        "4242",
        "excec 4242",
        "fernanda lima",
      ], true);
    } finally {
      await app.stop();
    }
  } finally {
    db.stop();
  }
}

/** The app through WORK_MINUTES of work at a person's pace, from a fresh start on the inbox. */
async function work(dirs, results) {
  const app = await launch(APP, "skillcase-app", dirs);
  try {
    await toInbox(app.browser, app.pid);
    await app.browser.execute(() => document.activeElement?.blur());
    await pause(10_000);
    results.app.work = await workingHour(app.browser, app.pid, { minutes: WORK_MINUTES, paceSecs: WORK_PACE, sampleMinutes: WORK_SAMPLE, log });
  } finally {
    await app.stop();
  }
}

/** Idle cost of each window for IDLE_SECS: the app with the inbox open, the blank window as it is. */
async function idle(dirs, results) {
  const blank = await launch(BLANK, "skillcase-blank-window", dirs);
  try {
    await pause(10_000);
    results.blank.idle = await sampleIdle(processTree(blank.pid), IDLE_SECS);
  } finally {
    await blank.stop();
  }
  const app = await launch(APP, "skillcase-app", dirs);
  try {
    await toInbox(app.browser, app.pid);
    await app.browser.execute(() => document.activeElement?.blur());
    await pause(10_000);
    results.app.idle = await sampleIdle(processTree(app.pid), IDLE_SECS);
  } finally {
    await app.stop();
  }
}

async function main() {
  const root = mkdtempSync(join(tmpdir(), "skillcase-bench-desktop-"));
  const dirs = { root, skills: join(root, "skills"), data: join(root, "data") };
  const endpoint = await startFakeEndpoint();
  const results = {
    settings: { STARTS, PRESSES, WORK_MINUTES, WORK_PACE, IDLE_SECS, TYPING_GAP, SKILLS, CASES },
    blank: { firstPaint: [], memory: [] },
    app: { firstData: [], inbox: [], clickToInbox: [], memory: [] },
  };
  try {
    log(`writing ${SKILLS} skills and ${CASES} cases`);
    writeSkills(dirs.skills, SKILLS);
    writeCases(CLI, dirs.data, dirs.skills, CASES);
    setEndpoint(dirs.data, endpoint.url);
    for (let i = 1; PHASES.has("start") && i <= STARTS; i++) {
      log(`start ${i} of ${STARTS}`);
      await startOnce(dirs, results);
    }
    if (PHASES.has("latency")) {
      log("latency and work");
      await latencies(dirs, results);
    }
    if (PHASES.has("team")) {
      log("the team database: filling 1,000,000 cases, then its inbox");
      await team(dirs, results);
    }
    if (PHASES.has("idle")) {
      log(`idle, ${IDLE_SECS} s each`);
      await idle(dirs, results);
    }
    if (PHASES.has("work")) {
      log(`${WORK_MINUTES} minutes of work, a case every ${WORK_PACE} s`);
      await work(dirs, results);
    }
  } finally {
    endpoint.stop();
    rmSync(root, { recursive: true, force: true });
  }
  const out = join(ROOT, "target/bench-desktop.json");
  writeFileSync(out, JSON.stringify(results, null, 2));
  report(results);
  log(`all figures: ${out}`);
}

function report(r) {
  if (r.blank.firstPaint.length > 0) reportStart(r);
  reportLater(r);
}

function reportStart(r) {
  const ms = (s) => `${Math.round(s * 1000)} ms`;
  const mib = (m) => `${Math.round(m)} MB`;
  const memMedian = (list, key) => median(list.map((m) => m[key]));
  const blankPaint = median(r.blank.firstPaint);
  const appData = median(r.app.firstData);
  console.log(`start to first paint, blank window (median of ${r.blank.firstPaint.length}): ${ms(blankPaint)}`);
  console.log(`start to the Skills screen's data, app: ${ms(appData)} (${(appData / blankPaint).toFixed(2)}× the blank window's)`);
  console.log(`start to the inbox's first page, app: ${ms(median(r.app.inbox))}; click on Cases to its first page ${ms(median(r.app.clickToInbox))}`);
  const blankPss = memMedian(r.blank.memory, "pss");
  const appPss = memMedian(r.app.memory, "pss");
  console.log(`memory after start, PSS of the tree: blank ${mib(blankPss)}, app ${mib(appPss)} (+${mib(appPss - blankPss)}); RSS summed: blank ${mib(memMedian(r.blank.memory, "rss"))}, app ${mib(memMedian(r.app.memory, "rss"))}`);
  for (const [who, m] of [["blank", r.blank.memory.at(-1)], ["app", r.app.memory.at(-1)]]) {
    console.log(`  ${who}: ${Object.entries(m.parts).map(([p, v]) => `${p} PSS ${mib(v.pss)} (anon ${mib(v.pssAnon)}) RSS ${mib(v.rss)}`).join("; ")}`);
    for (const [p, v] of Object.entries(m.parts)) {
      console.log(`    ${who} ${p} PSS by region: ${Object.entries(v.regions).map(([region, size]) => `${region} ${mib(size)}`).join(", ")}`);
    }
  }
}

function reportLater(r) {
  const mib = (m) => `${Math.round(m)} MB`;
  if (r.app.work) {
    const w = r.app.work;
    const first = w.samples[0].memory;
    const last = w.samples.at(-1).memory;
    const parts = (m) => Object.entries(m.parts).map(([p, v]) => `${p} ${mib(v.pss)}`).join(", ");
    console.log(`work, ${w.rounds} cases answered with searches in ${w.minutes.toFixed(1)} min: PSS ${mib(first.pss)} (${parts(first)}) → ${mib(last.pss)} (${parts(last)})`);
    console.log(`  PSS along the way: ${w.samples.map((s) => `${s.minute.toFixed(0)} min ${mib(s.memory.pss)}`).join(", ")}`);
  }
  const lat = (s) => (s.n === 0 ? "the last key changed nothing on screen" : `p50 ${s.p50.toFixed(0)} ms, p95 ${s.p95.toFixed(0)} ms (n ${s.n})`);
  if (r.blank.keyFrame) console.log(`keydown → frame, blank window: ${lat(r.blank.keyFrame)}`);
  if (r.app.inboxJK) console.log(`j/k in the inbox: ${lat(r.app.inboxJK)}`);
  if (r.app.skillsArrows) console.log(`arrows in the Skills list: ${lat(r.app.skillsArrows)}`);
  if (r.team) console.log(`team database, 1,000,000 cases: start to the inbox's first page ${Math.round(r.team.inbox * 1000)} ms (click on Cases to it ${Math.round(r.team.clickToInbox * 1000)} ms)`);
  for (const [name, set] of [["inbox search", r.app.inboxSearch], ["skills search", r.app.skillsSearch], ["team inbox search", r.team?.search]]) {
    const what = { burst: "keys in a burst, last keystroke → drawn", typed: "typed, last keystroke → drawn", changed: "typed, last keystroke → list changed", roundTrip: "its page asked for from the page, round trip" };
    for (const [part, queries] of Object.entries(set ?? {})) {
      for (const [q, s] of Object.entries(queries)) console.log(`${name} "${q}", ${what[part]}: ${lat(s)}`);
    }
  }
  for (const [who, i] of [["blank", r.blank.idle], ["app", r.app.idle]]) {
    if (!i) continue;
    const cpu = Object.values(i).reduce((t, p) => t + p.cpuPercent, 0);
    const wake = Object.values(i).reduce((t, p) => t + p.wakeupsPerMinute, 0);
    console.log(`idle ${who}: CPU ${cpu.toFixed(2)} % of a core, ${Math.round(wake)} wake-ups/min`);
    for (const [p, v] of Object.entries(i)) {
      const when = `wake-ups in ${v.secondsWithWakeups} s of ${IDLE_SECS}, busiest second ${v.busiestSecond} at ${v.busiestSecondAt} s`;
      console.log(`  ${p}: ${v.cpuPercent.toFixed(2)} %, ${Math.round(v.wakeupsPerMinute)}/min (${when}) — ${v.topThreads.join(", ")}`);
    }
  }
}

await main();
