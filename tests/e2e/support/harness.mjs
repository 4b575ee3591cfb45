// Starts everything an end-to-end test needs — Xvfb, tauri-driver (with WebKitWebDriver behind
// it) and the real Skillcase binary with a temporary data directory — and stops all of it again,
// even when a test fails. Every wait has a deadline, so a broken display or a hung WebDriver
// session fails the suite quickly with a message instead of hanging CI.
import { spawn } from "node:child_process";
import { mkdtempSync, mkdirSync, rmSync, existsSync } from "node:fs";
import { createConnection } from "node:net";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { remote } from "webdriverio";

export const ROOT = resolve(import.meta.dirname, "../../..");
export const APP_BINARY = process.env.SKILLCASE_APP_BINARY ?? join(ROOT, "target/debug/skillcase-app");
export const SCREENSHOTS = join(ROOT, "target/e2e-screenshots");
const DRIVER_PORT = Number(process.env.TAURI_DRIVER_PORT ?? 4444);
// WebKitWebDriver behind tauri-driver; set both ports to run two suites side by side.
const NATIVE_PORT = Number(process.env.TAURI_NATIVE_PORT ?? DRIVER_PORT + 1);
const STEP_TIMEOUT_MS = 30_000;

/** Rejects with `what` when `promise` does not settle within `ms`. */
export function withTimeout(promise, ms, what) {
  let timer;
  const deadline = new Promise((_, reject) => {
    timer = setTimeout(() => reject(new Error(`timed out after ${ms} ms: ${what}`)), ms);
  });
  return Promise.race([promise, deadline]).finally(() => clearTimeout(timer));
}

function tauriDriverPath() {
  const fromCargo = join(process.env.CARGO_HOME ?? join(process.env.HOME ?? "/root", ".cargo"), "bin/tauri-driver");
  return existsSync(fromCargo) ? fromCargo : "tauri-driver";
}

/** Starts a child in its own process group and remembers it for `stopAll`. */
function start(children, command, args, options) {
  const child = spawn(command, args, { detached: true, stdio: ["ignore", "pipe", "pipe"], ...options });
  let output = "";
  child.stdout?.on("data", (d) => (output += d));
  child.stderr?.on("data", (d) => (output += d));
  child.output = () => output;
  children.push(child);
  return child;
}

async function startXvfb(children) {
  const xvfb = spawn("Xvfb", ["-displayfd", "3", "-screen", "0", "1280x800x24", "-nolisten", "tcp"], {
    detached: true,
    stdio: ["ignore", "ignore", "pipe", "pipe"],
  });
  children.push(xvfb);
  const display = await withTimeout(
    new Promise((resolveDisplay, reject) => {
      let text = "";
      xvfb.stdio[3].on("data", (d) => {
        text += d;
        if (text.includes("\n")) resolveDisplay(`:${text.trim()}`);
      });
      xvfb.on("exit", (code) => reject(new Error(`Xvfb exited with ${code}; is the xvfb package installed?`)));
      xvfb.on("error", (err) => reject(new Error(`cannot start Xvfb: ${err.message}`)));
    }),
    10_000,
    "Xvfb to report its display",
  );
  return display;
}

function portOpen(port) {
  return new Promise((resolveOpen) => {
    const socket = createConnection({ host: "127.0.0.1", port });
    socket.once("connect", () => (socket.destroy(), resolveOpen(true)));
    socket.once("error", () => resolveOpen(false));
  });
}

async function waitForPort(port, child, what) {
  const until = Date.now() + 15_000;
  while (Date.now() < until) {
    if (await portOpen(port)) return;
    if (child.exitCode !== null) throw new Error(`${what} exited early:\n${child.output()}`);
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`${what} did not listen on port ${port} within 15 s:\n${child.output()}`);
}

/**
 * Launches the app and opens a WebDriver session on its window.
 * `env` is added to the app's environment (for example GTK_THEME for the dark theme).
 * Returns { browser, dataDir, stop }. Always call stop(), in a finally or an `after` hook.
 */
export async function launchApp({ env = {} } = {}) {
  if (!existsSync(APP_BINARY)) {
    throw new Error(`app binary not found at ${APP_BINARY}: build it first (cargo build -p skillcase-app)`);
  }
  mkdirSync(SCREENSHOTS, { recursive: true });
  const children = [];
  const dataDir = mkdtempSync(join(tmpdir(), "skillcase-e2e-"));
  const stop = async (browser) => {
    if (browser) await withTimeout(browser.deleteSession(), 10_000, "closing the session").catch(() => {});
    for (const child of children.reverse()) {
      try {
        process.kill(-child.pid, "SIGKILL");
      } catch {
        // already gone
      }
    }
    rmSync(dataDir, { recursive: true, force: true });
  };
  try {
    const display = await startXvfb(children);
    const childEnv = {
      ...process.env,
      DISPLAY: display,
      SKILLCASE_DATA_DIR: dataDir,
      SKILLCASE_API_PORT: "0",
      LIBGL_ALWAYS_SOFTWARE: "1",
      NO_AT_BRIDGE: "1",
      ...env,
    };
    const driver = start(children, tauriDriverPath(), ["--port", String(DRIVER_PORT), "--native-port", String(NATIVE_PORT)], { env: childEnv });
    driver.on("error", (err) => {
      throw new Error(`cannot start tauri-driver (cargo install tauri-driver --locked): ${err.message}`);
    });
    await waitForPort(DRIVER_PORT, driver, "tauri-driver");
    const browser = await withTimeout(
      remote({
        hostname: "127.0.0.1",
        port: DRIVER_PORT,
        logLevel: "error",
        connectionRetryCount: 0,
        connectionRetryTimeout: STEP_TIMEOUT_MS,
        capabilities: {
          "tauri:options": { application: APP_BINARY },
          "wdio:enforceWebDriverClassic": true,
        },
      }),
      45_000,
      `opening a WebDriver session on the app window (driver output:\n${driver.output()})`,
    );
    return { browser, dataDir, stop: () => stop(browser) };
  } catch (err) {
    await stop(null);
    throw err;
  }
}

/** Saves a screenshot of the window as target/e2e-screenshots/<name>.png. */
export async function screenshot(browser, name) {
  // Let the window paint what the DOM already shows before capturing it.
  await browser.executeAsync((done) => requestAnimationFrame(() => requestAnimationFrame(() => done())));
  await withTimeout(browser.saveScreenshot(join(SCREENSHOTS, `${name}.png`)), STEP_TIMEOUT_MS, `screenshot ${name}`);
}

/** The whitespace-normalised text of the first element matching `selector`, or null if absent. */
export async function textOf(browser, selector) {
  return browser.execute((sel) => {
    const el = document.querySelector(sel);
    return el ? el.textContent.replace(/\s+/g, " ").trim() : null;
  }, selector);
}

/** Waits until `selector` exists and its text satisfies `predicate`. Returns that text. */
export async function waitForText(browser, selector, predicate, what) {
  let last = null;
  try {
    await browser.waitUntil(
      async () => {
        last = await textOf(browser, selector);
        return last !== null && predicate(last);
      },
      { timeout: STEP_TIMEOUT_MS, interval: 100 },
    );
  } catch {
    // The message is built after the wait, so it names the text seen last, not the text at the start.
    throw new Error(`${what}; last text was: ${JSON.stringify(last)}`);
  }
  return last;
}
