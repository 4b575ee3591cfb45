// Where a refused setting's message goes and what it says: the backend names the field in
// `details.field` (or the code implies it), and the text comes from the locale files by code
// and field, falling back to the backend's own message.
import type { ErrorBody } from "./bindings/ErrorBody";
import { hasMessage, t } from "./i18n/index.svelte";

/** Codes whose field is implied rather than named in `details.field`. */
const FIELD_OF_CODE: Record<string, string> = {
  invalid_endpoint_url: "url",
  invalid_agent_id: "agent_id",
  api_bind_failed: "api_port",
};

/** The field a refusal belongs next to, or `null` for a form-wide message. */
export function fieldOf(err: ErrorBody): string | null {
  const details = err.details as { field?: unknown } | undefined;
  if (typeof details?.field === "string") return details.field;
  return FIELD_OF_CODE[err.code] ?? null;
}

/** The person-facing message for `err`, in the current language. */
export function messageOf(err: ErrorBody, vars: Record<string, string | number> = {}): string {
  const field = fieldOf(err);
  for (const key of [`settings.error.${err.code}.${field}`, `settings.error.${err.code}`]) {
    if (hasMessage(key)) return t(key, vars);
  }
  return err.message;
}

/** `{ [field]: message }` for one refusal (the form-wide key is `_form`). */
export function fieldErrors(err: ErrorBody, vars: Record<string, string | number> = {}): Record<string, string> {
  return { [fieldOf(err) ?? "_form"]: messageOf(err, vars) };
}
