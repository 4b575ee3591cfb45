// Unmount what each test rendered, so tests never see each other's DOM.
import { afterEach } from "vitest";
import { cleanup } from "@testing-library/svelte";

afterEach(() => cleanup());
