// Unmount what each test rendered, so tests never see each other's DOM.
import { afterEach } from "vitest";
import { cleanup } from "@testing-library/svelte";

afterEach(() => cleanup());

// jsdom has no layout, so no ResizeObserver; Svelte's `bind:clientHeight` needs one to exist.
globalThis.ResizeObserver ??= class {
  observe(): void {}
  unobserve(): void {}
  disconnect(): void {}
};

// jsdom has no showModal() or close() on <dialog> (it only reflects `open`), and components/Dialog
// opens the app's every dialog with them: the part of the contract the tests rely on, no more
// (no top layer, no focus trap; Escape is the `cancel` event a test fires itself).
HTMLDialogElement.prototype.showModal ??= function (this: HTMLDialogElement): void {
  this.open = true;
};
HTMLDialogElement.prototype.close ??= function (this: HTMLDialogElement): void {
  if (!this.open) return;
  this.open = false;
  this.dispatchEvent(new Event("close"));
};
