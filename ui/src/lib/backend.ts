// The only module that talks to Rust. Components import these typed functions; tests mock this
// module. Types come from `./bindings`, generated from Rust by ts-rs — never written by hand.
import { invoke } from "@tauri-apps/api/core";
import type { AppInfo } from "./bindings/AppInfo";
import type { ErrorBody } from "./bindings/ErrorBody";

export type { AppInfo, ErrorBody };

/** Turns whatever a rejected `invoke` carries into the one error shape. */
export function toErrorBody(err: unknown): ErrorBody {
  if (err && typeof err === "object" && "code" in err && "message" in err) {
    return err as ErrorBody;
  }
  return { code: "ipc_failed", message: String(err) };
}

async function call<T>(command: string, args?: Record<string, unknown>): Promise<T> {
  try {
    return await invoke<T>(command, args);
  } catch (err) {
    throw toErrorBody(err);
  }
}

/** Version, skills directory, data directory and database path (status line). */
export function appInfo(): Promise<AppInfo> {
  return call<AppInfo>("app_info");
}
