import { beforeEach, describe, expect, it } from "vitest";
import { fieldOf, messageOf } from "./fieldError";
import { setLocale } from "./i18n/index.svelte";

describe("placing a refused setting", () => {
  beforeEach(() => setLocale("en"));

  it("uses the field the backend names", () => {
    expect(fieldOf({ code: "invalid_limit", message: "", details: { field: "max_files" } })).toBe("max_files");
  });

  it("knows the field of codes that imply one", () => {
    expect(fieldOf({ code: "invalid_endpoint_url", message: "", details: { url: "x" } })).toBe("url");
    expect(fieldOf({ code: "api_bind_failed", message: "" })).toBe("api_port");
  });

  it("puts an unknown refusal on the form", () => {
    expect(fieldOf({ code: "db_error", message: "disk full" })).toBeNull();
  });

  it("prefers the text for the code and field, then the code, then the backend message", () => {
    const timeout = { code: "invalid_endpoint_setting", message: "x", details: { field: "timeout_secs" } };
    expect(messageOf(timeout)).toBe("Enter from 1 to 120 seconds.");
    expect(messageOf({ code: "invalid_api_port", message: "x" })).toBe("Choose a port from 1024 to 65535.");
    expect(messageOf({ code: "db_error", message: "disk full" })).toBe("disk full");
  });

  it("speaks Portuguese when the locale is pt-BR", () => {
    setLocale("pt-BR");
    expect(messageOf({ code: "api_port_in_use", message: "x" }, { port: 9000 })).toBe(
      "A porta 9000 já está em uso. Escolha outra.",
    );
  });
});
