// Starts everything an end-to-end test needs — Xvfb, tauri-driver (with WebKitWebDriver behind
// it) and the real Skillcase binary with a temporary data directory — and stops all of it again,
// even when a test fails. Every wait has a deadline, so a broken display or a hung WebDriver
// session fails the suite quickly with a message instead of hanging CI.
import { spawn } from "node:child_process";
import { mkdtempSync, mkdirSync, rmSync, existsSync } from "node:fs";
import { createConnection, createServer } from "node:net";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { remote } from "webdriverio";

export const ROOT = resolve(import.meta.dirname, "../../..");
export const APP_BINARY = process.env.SKILLCASE_APP_BINARY ?? join(ROOT, "target/debug/skillcase-app");
export const SCREENSHOTS = join(ROOT, "target/e2e-screenshots");
// tauri-driver and WebKitWebDriver get fresh ports from the OS for every launch: a fixed port
// can still be held by the previous launch's sockets (TIME_WAIT), and suites may run side by side.
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

/** A port nothing uses now, chosen by the OS. */
function freePort() {
  return new Promise((resolvePort, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address();
      server.close(() => resolvePort(port));
    });
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
 * Launches the app (or another Tauri `binary`, such as the benchmark's blank window) and opens a
 * WebDriver session on its window.
 * `env` is added to the app's environment (for example GTK_THEME for the dark theme).
 * Returns { browser, dataDir, stop }. Always call stop(), in a finally or an `after` hook.
 */
export async function launchApp({ env = {}, binary = APP_BINARY } = {}) {
  if (!existsSync(binary)) {
    throw new Error(`app binary not found at ${binary}: build it first (cargo build -p skillcase-app)`);
  }
  mkdirSync(SCREENSHOTS, { recursive: true });
  const children = [];
  const dataDir = mkdtempSync(join(tmpdir(), "skillcase-e2e-"));
  const stop = async (browser) => {
    if (browser && !(await sessionAlive(browser))) reportLostSession(children);
    if (browser) await withTimeout(browser.deleteSession(), 10_000, "closing the session").catch(() => {});
    // The next suite starts only once these processes are really gone.
    await Promise.all(children.reverse().map(killAndWait));
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
      // Xvfb has no GPU, so every GL call runs in Mesa's software rasterizer. With WebKit's
      // default GPU painting, a painting thread and the compositor thread share GL contexts
      // there, and the compositor once died in swrast_dri.so with a general protection fault
      // (kernel log), taking the page with it ("session deleted because of page crash"). Tiles
      // painted on the CPU leave the compositor the only GL user in the web process. (Turning
      // compositing off instead makes WebKitWebDriver's first screenshot wait forever.)
      WEBKIT_SKIA_ENABLE_CPU_RENDERING: "1",
      // The app paints without compositing unless told otherwise (src-tauri/src/rendering.rs),
      // and in that mode WebKitWebDriver's screenshots wait forever now and then (4 of some 80
      // in one run of the suite): the suite asks for compositing back. The page, its DOM and
      // every command are the same in both modes; the desktop bench drives the app as it ships.
      WEBKIT_DISABLE_COMPOSITING_MODE: "0",
      NO_AT_BRIDGE: "1",
      ...env,
    };
    // A variable given as undefined is left out, so a caller can unset one the harness sets.
    const browser = await openSession(children, Object.fromEntries(Object.entries(childEnv).filter(([, value]) => value !== undefined)), binary);
    return { browser, dataDir, stop: () => stop(browser) };
  } catch (err) {
    await stop(null);
    throw err;
  }
}

/** Whether the WebDriver session still answers (it is lost when the page's web process died). */
async function sessionAlive(browser) {
  try {
    await withTimeout(browser.getTitle(), 10_000, "the session to answer");
    return true;
  } catch {
    return false;
  }
}

/** Prints the end of what tauri-driver, WebKitWebDriver and the app wrote, so a lost window says why. */
function reportLostSession(children) {
  const lines = children.map((child) => child.output?.() ?? "").join("").trim().split("\n");
  console.error(`the app window's WebDriver session was lost; the last lines the driver and the app wrote:\n${lines.slice(-40).join("\n")}`);
}

/** Kills one child's process group and waits until it has exited. */
async function killAndWait(child) {
  const exited = child.exitCode !== null || child.signalCode !== null
    ? Promise.resolve()
    : new Promise((resolveExit) => child.once("exit", resolveExit));
  try {
    process.kill(-child.pid, "SIGKILL");
  } catch {
    // already gone
  }
  await withTimeout(exited, 10_000, "a killed process to exit").catch(() => {});
}

/**
 * Starts tauri-driver on fresh ports and opens a WebDriver session on the app window. Under a
 * loaded machine the driver now and then drops the very first session request (UND_ERR_SOCKET
 * before the app is even spawned); that attempt's driver is killed and a new one tried, at most
 * three times, and the last failure is reported with the driver's output.
 */
async function openSession(children, childEnv, binary) {
  let lastError;
  for (let attempt = 1; attempt <= 3; attempt += 1) {
    const driverPort = await freePort();
    let nativePort = await freePort();
    while (nativePort === driverPort) nativePort = await freePort();
    const driverArgs = ["--port", String(driverPort), "--native-port", String(nativePort)];
    const driver = start(children, tauriDriverPath(), driverArgs, { env: childEnv });
    driver.on("error", (err) => {
      throw new Error(`cannot start tauri-driver (cargo install tauri-driver --locked): ${err.message}`);
    });
    try {
      await waitForPort(driverPort, driver, "tauri-driver");
      return await withTimeout(
        remote({
          hostname: "127.0.0.1",
          port: driverPort,
          logLevel: "error",
          connectionRetryCount: 0,
          connectionRetryTimeout: STEP_TIMEOUT_MS,
          capabilities: {
            "tauri:options": { application: binary },
            "wdio:enforceWebDriverClassic": true,
          },
        }),
        45_000,
        "opening a WebDriver session on the app window",
      );
    } catch (err) {
      lastError = new Error(`attempt ${attempt}: ${err.message}\ndriver output:\n${driver.output()}`);
      console.error(`opening a WebDriver session failed (attempt ${attempt} of 3): ${err.message}`);
      await killAndWait(driver);
    }
  }
  throw lastError;
}

/** Saves a screenshot of the window as target/e2e-screenshots/<name>.png. */
export async function screenshot(browser, name) {
  // Let the window paint what the DOM already shows before capturing it.
  await browser.executeAsync((done) => requestAnimationFrame(() => requestAnimationFrame(() => done())));
  await withTimeout(browser.saveScreenshot(join(SCREENSHOTS, `${name}.png`)), STEP_TIMEOUT_MS, `screenshot ${name}`);
}

/** Clicks the element matching `selector` once it can be clicked (a person's click, not a script's). */
export async function click(browser, selector) {
  const el = await browser.$(selector);
  await el.waitForClickable({ timeout: 30_000, timeoutMsg: `${selector} should be clickable` });
  await el.click();
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

/**
 * Calls a Tauri command from the page, as a button of the window does: for the steps behind a
 * native dialog, which WebDriver cannot drive. Resolves to `{ ok }` or `{ err }`.
 */
export async function invoke(browser, command, args) {
  return browser.executeAsync(
    (cmd, a, done) => window.__TAURI_INTERNALS__.invoke(cmd, a).then((ok) => done({ ok }), (err) => done({ err })),
    command,
    args,
  );
}
