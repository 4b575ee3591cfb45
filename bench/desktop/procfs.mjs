// What a desktop process tree costs, read from /proc: the app (or the blank window), its
// WebKitWebProcess and its WebKitNetworkProcess. Memory is quoted as PSS (shared library pages
// split between the processes that map them, so WebKit's ~110 MB of libraries count once), with
// RSS beside it because that is what `top` shows. Idle cost is CPU time and voluntary context
// switches (a thread blocked and was woken: the user-space measure of wake-ups), summed over
// every thread, including threads that came and went between two samples.
import { readdirSync, readFileSync, readlinkSync } from "node:fs";

const CLK_TCK = 100;

function read(path) {
  try {
    return readFileSync(path, "utf8");
  } catch {
    return null;
  }
}

/** The pid of the process named `comm` whose environment holds `marker` (the run's data dir). */
export function findProcess(comm, marker) {
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    if (read(`/proc/${entry}/comm`)?.trim() !== comm.slice(0, 15)) continue;
    if (read(`/proc/${entry}/environ`)?.includes(marker)) return Number(entry);
  }
  return null;
}

/** The app and the WebKit processes it started: { app, web, network } (pids, null when absent). */
export function processTree(appPid) {
  const tree = { app: appPid, web: null, network: null };
  for (const task of readdirSync(`/proc/${appPid}/task`)) {
    for (const child of (read(`/proc/${appPid}/task/${task}/children`) ?? "").trim().split(/\s+/).filter(Boolean)) {
      const comm = read(`/proc/${child}/comm`)?.trim() ?? "";
      if (comm.startsWith("WebKitWebProces")) tree.web = Number(child);
      if (comm.startsWith("WebKitNetworkPr")) tree.network = Number(child);
    }
  }
  return tree;
}

function kib(text, field) {
  const match = new RegExp(`^${field}:\\s+(\\d+) kB`, "m").exec(text ?? "");
  return match ? Number(match[1]) : 0;
}

/** Memory of one process in MiB: PSS, its private anonymous part, RSS, peak RSS and PSS by region. */
export function memoryOf(pid) {
  const rollup = read(`/proc/${pid}/smaps_rollup`);
  const status = read(`/proc/${pid}/status`);
  const mib = (k) => k / 1024;
  return {
    pss: mib(kib(rollup, "Pss")),
    pssAnon: mib(kib(rollup, "Pss_Anon")),
    rss: mib(kib(status, "VmRSS")),
    peakRss: mib(kib(status, "VmHWM")),
    regions: pssByRegion(pid),
  };
}

/**
 * PSS in MiB by where it lives: malloc's main heap, other anonymous memory (thread arenas,
 * stacks, the JavaScript heap), the process's own executable, WebKit's and JavaScriptCore's
 * libraries, and every other file or shared mapping — what tells a window's own cost from the
 * engine underneath it.
 */
function pssByRegion(pid) {
  let exe = null;
  try {
    exe = readlinkSync(`/proc/${pid}/exe`);
  } catch {}
  const regions = { heap: 0, anon: 0, executable: 0, webkit: 0, files: 0 };
  let region = "anon";
  for (const line of (read(`/proc/${pid}/smaps`) ?? "").split("\n")) {
    const mapping = /^[0-9a-f]+-[0-9a-f]+ \S+ \S+ \S+ \S+\s*(.*)$/.exec(line);
    if (mapping) {
      const name = mapping[1];
      if (name === "[heap]") region = "heap";
      else if (name === "" || name.startsWith("[")) region = "anon";
      else if (name === exe) region = "executable";
      else if (/libwebkit2gtk|libjavascriptcoregtk/.test(name)) region = "webkit";
      else region = "files";
      continue;
    }
    const pss = /^Pss:\s+(\d+) kB/.exec(line);
    if (pss) regions[region] += Number(pss[1]) / 1024;
  }
  return regions;
}

/** Memory of the whole tree: each process, and the sums. */
export function treeMemory(tree) {
  const parts = {};
  for (const [name, pid] of Object.entries(tree)) if (pid) parts[name] = memoryOf(pid);
  const sum = (key) => Object.values(parts).reduce((total, part) => total + part[key], 0);
  return { parts, pss: sum("pss"), rss: sum("rss") };
}

/** CPU seconds (user + system, finished threads included) of one process. */
function cpuSeconds(pid) {
  const stat = read(`/proc/${pid}/stat`);
  if (!stat) return 0;
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  return (Number(fields[11]) + Number(fields[12])) / CLK_TCK;
}

/** Voluntary context switches of each live thread of `pid`, keyed by tid, with its name. */
function threadSwitches(pid) {
  const threads = new Map();
  let tasks = [];
  try {
    tasks = readdirSync(`/proc/${pid}/task`);
  } catch {
    return threads;
  }
  for (const tid of tasks) {
    const status = read(`/proc/${pid}/task/${tid}/status`);
    if (!status) continue;
    const name = /^Name:\s+(.*)$/m.exec(status)?.[1] ?? "?";
    const switches = Number(/^voluntary_ctxt_switches:\s+(\d+)$/m.exec(status)?.[1] ?? 0);
    threads.set(tid, { name, switches });
  }
  return threads;
}

/**
 * Samples the tree once a second for `seconds` and returns CPU (% of one core) and wake-ups per
 * minute for each process, with the threads that woke most, how many seconds had any wake-up and
 * the busiest second (and when, in seconds from the start), so a burst tells from a steady cost. A thread's count is the sum of its
 * positive deltas, so a thread that ends between samples loses at most one second.
 */
export async function sampleIdle(tree, seconds) {
  const procs = Object.entries(tree).filter(([, pid]) => pid);
  const startCpu = Object.fromEntries(procs.map(([name, pid]) => [name, cpuSeconds(pid)]));
  const last = Object.fromEntries(procs.map(([name, pid]) => [name, threadSwitches(pid)]));
  const woke = Object.fromEntries(procs.map(([name]) => [name, new Map()]));
  const perSecond = Object.fromEntries(procs.map(([name]) => [name, []]));
  const started = Date.now();
  while (Date.now() - started < seconds * 1000) {
    await new Promise((resolve) => setTimeout(resolve, 1000));
    for (const [name, pid] of procs) {
      const now = threadSwitches(pid);
      let second = 0;
      for (const [tid, thread] of now) {
        const before = last[name].get(tid)?.switches ?? 0;
        const delta = Math.max(0, thread.switches - before);
        second += delta;
        woke[name].set(thread.name, (woke[name].get(thread.name) ?? 0) + delta);
      }
      perSecond[name].push(second);
      last[name] = now;
    }
  }
  const minutes = (Date.now() - started) / 60_000;
  const result = {};
  for (const [name, pid] of procs) {
    const cpu = cpuSeconds(pid) - startCpu[name];
    const threads = [...woke[name]].sort((a, b) => b[1] - a[1]);
    result[name] = {
      cpuPercent: (100 * cpu) / (minutes * 60),
      wakeupsPerMinute: threads.reduce((total, [, n]) => total + n, 0) / minutes,
      topThreads: threads.slice(0, 5).map(([thread, n]) => `${thread} ${Math.round(n / minutes)}/min`),
      // A steady cost shows in most seconds; a one-off burst in a few.
      secondsWithWakeups: perSecond[name].filter((n) => n > 0).length,
      busiestSecond: Math.max(0, ...perSecond[name]),
      busiestSecondAt: perSecond[name].indexOf(Math.max(0, ...perSecond[name])),
    };
  }
  return result;
}

/** Seconds from `pid`'s exec to now, from /proc/uptime and the process's start time in ticks. */
export function secondsSinceStart(pid) {
  const uptime = Number(read("/proc/uptime").split(" ")[0]);
  const stat = read(`/proc/${pid}/stat`);
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  return uptime - Number(fields[19]) / CLK_TCK;
}
