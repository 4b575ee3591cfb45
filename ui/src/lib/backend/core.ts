// The one place that calls `invoke`. Every area module (app.ts, cases.ts, ...) builds its typed
// functions on `call`, so a rejected command always surfaces as the one error shape.
import { invoke } from "@tauri-apps/api/core";
import type { ErrorBody } from "../bindings/ErrorBody";

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
