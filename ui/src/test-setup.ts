// Unmount what each test rendered, so tests never see each other's DOM.
import { afterEach } from "vitest";
import { cleanup } from "@testing-library/svelte";

afterEach(() => cleanup());

// jsdom lays nothing out, so it has no ResizeObserver; `bind:clientHeight` needs one to exist.
if (typeof globalThis.ResizeObserver === "undefined") {
  globalThis.ResizeObserver = class {
    observe() {}
    unobserve() {}
    disconnect() {}
  };
}
