// The only way components reach Rust: typed functions per area, re-exported here. Types come
// from `../bindings`, generated from Rust by ts-rs — never written by hand. Tests mock this
// module (`vi.mock("$lib/backend")`).
export type { ErrorBody } from "../bindings/ErrorBody";
export { toErrorBody } from "./core";
export * from "./app";
export * from "./skills";
export * from "./cases";
export * from "./settings";
export * from "./dialog";
