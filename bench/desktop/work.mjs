// A working hour in the app, at a person's pace: every `paceSecs` a case of Waiting on you is
// opened and answered from the keyboard (the answer goes on to the fake agent endpoint), the inbox
// is searched, and every fourth round a skill is searched on the Skills screen and opened. The
// tree's memory is read after start and every few minutes, so growth tells from a one-off rise.
import { clearBox, click, KEY, pause } from "./driving.mjs";
import { treeMemory, processTree } from "./procfs.mjs";

const INBOX_SEARCHES = ["refund", "4242", "lead 7", "wa-99999", "excec"];
const SKILL_SEARCHES = ["topic 42", "skill-09999", "plan 12"];

/** Types `text` one key per WebDriver call (WebKitWebDriver drops a key repeated in one action). */
async function type(browser, text) {
  for (const key of text) await browser.keys(key);
}

/** Answers the next case of Waiting on you as resolved, from the keyboard. */
async function answerCase(browser, round) {
  await browser.keys("j");
  await browser.keys(KEY.Enter);
  await browser.$('[data-testid="case-title"]').then((el) => el.waitForExist({ timeout: 30_000 }));
  await browser.keys("1");
  await (await browser.$("#reply-text")).addValue(`Refund approved for the duplicate charge, round ${round}.`);
  await browser.keys([KEY.Ctrl, KEY.Enter]);
  await browser.$('[data-testid="case-detail"][data-status="resolved"]').then((el) => el.waitForExist({ timeout: 30_000 }));
  for (let i = 0; i < 3 && (await browser.$('[data-testid="case-detail"]').isExisting()); i++) await browser.keys(KEY.Escape);
}

/** Searches the inbox for one of the usual queries, looks at the result, and empties the box. */
async function searchInbox(browser, round) {
  await browser.keys("/");
  await type(browser, INBOX_SEARCHES[round % INBOX_SEARCHES.length]);
  await pause(1_000);
  await clearBox(browser, "#case-search");
}

/**
 * Goes to the Skills screen, searches, opens the first skill found (its detail takes the list's
 * place), closes it, empties the search and comes back to the inbox.
 */
async function lookUpSkill(browser, round) {
  await click(browser, 'nav button[data-nav="skills"]');
  await browser.keys("/");
  await type(browser, SKILL_SEARCHES[round % SKILL_SEARCHES.length]);
  await pause(1_000);
  await browser.keys(KEY.Enter);
  await browser.$('[data-testid="skill-search"]').then((el) => el.waitForExist({ reverse: true, timeout: 30_000 }));
  await pause(1_000);
  await browser.keys(KEY.Escape);
  await browser.$('[data-testid="skill-search"]').then((el) => el.waitForExist({ timeout: 30_000 }));
  await clearBox(browser, '[data-testid="skill-search"]');
  await click(browser, 'nav button[data-nav="cases"]');
  await browser.$('[role="listbox"][data-total]').then((el) => el.waitForExist({ timeout: 30_000 }));
  // Keys go to the inbox, not to the button just clicked (Enter would press it again).
  await browser.execute(() => document.activeElement?.blur());
}

/**
 * Works for `minutes`, one round every `paceSecs`, and returns the memory after start, every
 * `sampleMinutes` and at the end, with the number of rounds done. The window must be on the inbox.
 */
export async function workingHour(browser, pid, { minutes, paceSecs, sampleMinutes, log }) {
  const started = Date.now();
  const elapsed = () => (Date.now() - started) / 60_000;
  const samples = [{ minute: 0, rounds: 0, memory: treeMemory(processTree(pid)) }];
  let round = 0;
  while (elapsed() < minutes) {
    const roundStarted = Date.now();
    round += 1;
    await answerCase(browser, round);
    await searchInbox(browser, round);
    if (round % 4 === 0) await lookUpSkill(browser, round);
    if (elapsed() >= samples.length * sampleMinutes) {
      samples.push({ minute: elapsed(), rounds: round, memory: treeMemory(processTree(pid)) });
      log(`work: ${round} rounds in ${elapsed().toFixed(1)} min, PSS ${Math.round(samples.at(-1).memory.pss)} MB`);
    }
    await pause(Math.max(0, paceSecs * 1000 - (Date.now() - roundStarted)));
  }
  samples.push({ minute: elapsed(), rounds: round, memory: treeMemory(processTree(pid)) });
  return { rounds: round, minutes: elapsed(), samples };
}
