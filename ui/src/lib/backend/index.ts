// What the window needs from the shell beyond a command call: the error codes, the events that
// keep views live, the file drop and the clipboard. Commands are called through the functions
// generated from their Rust declarations (`../bindings/commands.ts`), and every type comes from
// ts-rs (`../bindings/`). Tests mock this module and the generated commands
// (`vi.mock("$lib/backend")`, `vi.mock("$lib/bindings/commands")`).
export { hasCode } from "./core";
export * from "./events";
export * from "./drop";
export * from "./clipboard";
