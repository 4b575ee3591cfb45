import { describe, expect, it } from "vitest";
import { commandLine, configSnippet, shellWord } from "./setup";
import type { McpSetup } from "../bindings/McpSetup";

const DEFAULT: McpSetup = { command: "skillcase", args: ["mcp"], env: {}, http_url: "http://127.0.0.1:7878/mcp" };

describe("the MCP setup Settings offers to copy", () => {
  it("is the bare command when the data directory is the default one", () => {
    expect(commandLine(DEFAULT)).toBe("skillcase mcp");
  });

  it("puts the data directory the command needs before it, quoting what the shell would split", () => {
    const setup: McpSetup = {
      ...DEFAULT,
      command: "/opt/Skillcase App/skillcase",
      env: { SKILLCASE_DATA_DIR: "/home/ana/dados do Skillcase" },
    };
    expect(commandLine(setup)).toBe(
      "SKILLCASE_DATA_DIR='/home/ana/dados do Skillcase' '/opt/Skillcase App/skillcase' mcp",
    );
  });

  it("quotes a single quote so the shell gives it back", () => {
    expect(shellWord("/tmp/it's")).toBe(`'/tmp/it'\\''s'`);
    expect(shellWord("/usr/local/bin/skillcase")).toBe("/usr/local/bin/skillcase");
  });

  it("writes the mcpServers entry hosts read, without env when none is needed", () => {
    expect(JSON.parse(configSnippet(DEFAULT))).toEqual({
      mcpServers: { skillcase: { command: "skillcase", args: ["mcp"] } },
    });
  });

  it("carries the data directory in the entry's env, exactly as given", () => {
    const setup: McpSetup = { ...DEFAULT, env: { SKILLCASE_DATA_DIR: "/home/ana/dados do Skillcase" } };
    expect(JSON.parse(configSnippet(setup)).mcpServers.skillcase).toEqual({
      command: "skillcase",
      args: ["mcp"],
      env: { SKILLCASE_DATA_DIR: "/home/ana/dados do Skillcase" },
    });
  });

  it("is laid out as hosts document it, with the arguments on one line", () => {
    const setup: McpSetup = { ...DEFAULT, args: ["mcp", "--skills-dir", "/srv/a \"b\", c"] };
    expect(configSnippet(setup)).toBe(
      [
        "{",
        '  "mcpServers": {',
        '    "skillcase": {',
        '      "command": "skillcase",',
        '      "args": ["mcp", "--skills-dir", "/srv/a \\"b\\", c"]',
        "    }",
        "  }",
        "}",
      ].join("\n"),
    );
    expect(JSON.parse(configSnippet(setup)).mcpServers.skillcase.args).toEqual(setup.args);
  });
});
