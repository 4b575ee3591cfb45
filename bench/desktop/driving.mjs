// Driving a window through WebDriver the way a person would, shared by the bench's phases.

/** WebDriver's codes for the keys the bench presses. */
export const KEY = { Enter: "\uE007", Escape: "\uE00C", Backspace: "\uE003", Ctrl: "\uE009", Down: "\uE015", Up: "\uE013" };

export const pause = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** Clicks `selector` once it can be clicked. */
export async function click(browser, selector) {
  const element = await browser.$(selector);
  await element.waitForClickable({ timeout: 60_000 });
  await element.click();
}

/** Empties the search box `selector` as select-all and delete would, and leaves it. */
export async function clearBox(browser, selector) {
  await browser.execute((sel) => {
    const box = document.querySelector(sel);
    box.value = "";
    box.dispatchEvent(new Event("input", { bubbles: true }));
    box.blur();
  }, selector);
}
