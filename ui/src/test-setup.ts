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
