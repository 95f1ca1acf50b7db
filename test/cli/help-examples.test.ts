/**
 * Every example line `call TOOL --help` prints runs as printed: its flags (`--sandbox`, and
 * `--toolsets X` for a tool the default list leaves out) give a configuration that offers the
 * tool, and `call`'s own code (`runCall`) succeeds on the sandbox with exit code 0. A tool `call`
 * does not offer gets a message naming its toolset and `--toolsets all`.
 */
import { describe, expect, it } from "vitest";
import { notOfferedMessage, runCall, toolHelp } from "../../src/cli/call.js";
import { type Config, loadConfig } from "../../src/config.js";
import { ALL_TOOLS } from "../../src/tools/registry.js";
import { DEFAULT_TOOLSETS, exposesTool } from "../../src/toolsets.js";
import { TEST_KEY, testCacheDir } from "../helpers/mcp.js";
import { useSandbox } from "../helpers/sandbox.js";

const LINE = /^ {2}web-data-mcp call (\S+) '(.*)' --sandbox(?: --toolsets (\S+))?$/;

const lines = ALL_TOOLS.flatMap((tool) =>
  toolHelp(tool.name)
    .split("\n")
    .filter((l) => l.startsWith("  web-data-mcp call "))
    .map((line) => ({ tool, line })),
);

describe("call TOOL --help", () => {
  // Short task and crawl latencies: the lines' long work ends in a few polls.
  const sandbox = useSandbox({ taskLatencyMs: 20, crawlPageMs: 5 });

  /** What `call --sandbox [--toolsets X]` runs with (src/cli.ts resolveConfig), on this sandbox. */
  function configOf(toolsets: string | undefined, cacheDir: string): Config {
    const config = loadConfig({ WEBDATA_CACHE_DIR: cacheDir }, { sandbox: true, toolsets });
    return {
      ...config,
      baseUrl: sandbox.url,
      legacyBaseUrl: sandbox.legacyUrl,
      apiKey: TEST_KEY,
      legacyAuth: "demo:demo",
    };
  }

  it("prints one or two example lines per tool, each in the one form below", () => {
    expect(lines.length).toBe(ALL_TOOLS.reduce((n, t) => n + (t.examples?.length ?? 0), 0));
    for (const { line } of lines) expect(line).toMatch(LINE);
  });

  it.each(lines.map((l) => [l.line.trim(), l] as const))("%s exits 0", async (_, { tool, line }) => {
    const [, name, json, toolsets] = LINE.exec(line)!;
    expect(name).toBe(tool.name);
    const cache = testCacheDir();
    try {
      const code = await runCall(
        configOf(toolsets, cache.env.WEBDATA_CACHE_DIR),
        name,
        JSON.parse(json),
        false,
      );
      expect(code).toBe(0);
    } finally {
      cache.remove();
    }
  });

  it("names --toolsets exactly for the tools the default list leaves out", () => {
    const defaults = loadConfig({}, { sandbox: true });
    for (const { tool, line } of lines) {
      const offered = exposesTool(defaults, tool);
      expect(line.endsWith(`--toolsets ${tool.toolset}`), line).toBe(!offered);
    }
  });
});

describe("a tool this configuration does not offer", () => {
  const config = { toolsets: [...DEFAULT_TOOLSETS], legacyAuth: undefined, readOnly: false };
  const offTool = ALL_TOOLS.find((t) => !DEFAULT_TOOLSETS.includes(t.toolset) && t.toolset !== "legacy")!;

  it("is named with the toolset that brings it and --toolsets all", () => {
    const text = notOfferedMessage(offTool.name, config);
    expect(text).toContain(`it is in toolset ${offTool.toolset}, which is off`);
    expect(text).toContain(`--toolsets ${[...DEFAULT_TOOLSETS, offTool.toolset].join(",")}`);
    expect(text).toContain("--toolsets all");
  });

  it("says the legacy credential and host for the legacy toolset, and WEBDATA_READ_ONLY for a writer", () => {
    expect(notOfferedMessage("get_social_event", config)).toContain(
      "needs WEBDATA_LEGACY_AUTH (user:pass) and WEBDATA_LEGACY_BASE_URL",
    );
    const writer = ALL_TOOLS.find((t) => !t.readOnly && DEFAULT_TOOLSETS.includes(t.toolset));
    if (writer) {
      expect(notOfferedMessage(writer.name, { ...config, readOnly: true })).toContain(
        `WEBDATA_READ_ONLY is set and ${writer.name} writes`,
      );
    }
  });
});
