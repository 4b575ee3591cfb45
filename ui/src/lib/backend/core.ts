// The one place that calls `invoke`. The generated command functions (`../bindings/commands.ts`)
// are built on `call`, so a rejected command always surfaces as the one error shape.
import { invoke } from "@tauri-apps/api/core";
import type { ErrorBody } from "../bindings/ErrorBody";
import type { ErrorCode } from "../bindings/ErrorCode";

/** Turns whatever a rejected `invoke` carries into the one error shape. */
export function toErrorBody(err: unknown): ErrorBody {
  if (err && typeof err === "object" && "code" in err && "message" in err) {
    return err as ErrorBody;
  }
  return { code: "ipc_failed", message: String(err) };
}

/** Runs a Tauri command; rejects with an `ErrorBody`. */
export async function call<T>(command: string, args?: Record<string, unknown>): Promise<T> {
  try {
    return await invoke<T>(command, args);
  } catch (err) {
    throw toErrorBody(err);
  }
}

/** Whether `err` carries one of the stable codes (a misspelt code fails the type check). */
export function hasCode(err: ErrorBody, ...codes: ErrorCode[]): boolean {
  return (codes as string[]).includes(err.code);
}
