// The only way components reach Rust: typed functions per area, re-exported here. They call the
// command functions and events generated from the Rust declarations (`../bindings/commands.ts`,
// `../bindings/events.ts`); the types come from ts-rs — never written by hand. Tests mock this
// module (`vi.mock("$lib/backend")`).
export type { ErrorBody } from "../bindings/ErrorBody";
export type { ErrorCode } from "../bindings/ErrorCode";
export { hasCode, toErrorBody } from "./core";
export * from "./skills";
export * from "./drop";
export * from "./cases";
export * from "./settings";
export * from "./clipboard";
export * from "./mcp";
