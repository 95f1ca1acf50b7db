/** Invariants across the whole registry (github-mcp-server style), read through a real MCP client. */
import type { Tool } from "@modelcontextprotocol/sdk/types.js";
import { encode } from "gpt-tokenizer/encoding/o200k_base";
import { beforeAll, describe, expect, it } from "vitest";
import { loadConfig } from "../../src/config.js";
import { listTools } from "../../src/server/list-tools.js";
import { ALL_TOOLS, selectTools } from "../../src/tools/registry.js";
import { DEFAULT_TOOLSETS, TOOLSETS } from "../../src/toolsets.js";
import { useInProcessServer } from "../helpers/in-process.js";

const LONG_TOOLS = ALL_TOOLS.filter((t) => t.longRunning).map((t) => t.name);

const config = loadConfig({
  WEBDATA_API_KEY: "k_unused_in_this_test",
  WEBDATA_BASE_URL: "http://127.0.0.1:9",
  WEBDATA_LEGACY_AUTH: "u:p",
});

let tools: Tool[];

const server = useInProcessServer({
  config: { ...config, toolsets: [...TOOLSETS], toolsetsNamed: true },
  tools: ALL_TOOLS,
  extensions: [],
});
beforeAll(async () => {
  tools = (await server.client.listTools()).tools;
});

describe("registry", () => {
  it("lists every registry tool, in registry order, when every toolset is on", () => {
    expect(tools.map((t) => t.name)).toEqual(ALL_TOOLS.map((t) => t.name));
  });

  it("has unique snake_case names", () => {
    const names = ALL_TOOLS.map((t) => t.name);
    expect(new Set(names).size).toBe(names.length);
    for (const n of names) expect(n).toMatch(/^[a-z][a-z0-9_]*$/);
  });

  it("gives every tool a toolset, title, short description, annotations and an output schema", () => {
    for (const def of ALL_TOOLS) expect(TOOLSETS).toContain(def.toolset);
    for (const tool of tools) {
      expect(tool.title, tool.name).toBeTruthy();
      expect(tool.description?.length, tool.name).toBeLessThanOrEqual(300);
      const def = ALL_TOOLS.find((d) => d.name === tool.name)!;
      // openWorldHint is left at the protocol's default, true.
      expect(tool.annotations, tool.name).toEqual(
        def.readOnly
          ? { readOnlyHint: true }
          : {
              readOnlyHint: false,
              destructiveHint: def.destructive ?? false,
              idempotentHint: def.idempotent ?? false,
            },
      );
      expect(tool.outputSchema?.type, tool.name).toBe("object");
    }
  });

  it("has no top-level anyOf/oneOf/allOf in input or output schemas", () => {
    for (const tool of tools) {
      for (const schema of [tool.inputSchema, tool.outputSchema]) {
        expect(schema?.type, tool.name).toBe("object");
        for (const k of ["anyOf", "oneOf", "allOf"])
          expect(schema, `${tool.name} ${k}`).not.toHaveProperty(k);
      }
    }
  });

  it("makes the long tools task-capable and leaves the rest plain", () => {
    expect(LONG_TOOLS.length).toBeGreaterThan(0);
    for (const tool of tools) {
      const expected = LONG_TOOLS.includes(tool.name) ? "optional" : "forbidden";
      expect(tool.execution?.taskSupport ?? "forbidden", tool.name).toBe(expected);
      if (expected === "forbidden") expect(tool.execution, tool.name).toBeUndefined();
    }
  });

  it("admits the deadline handle in every long tool's output schema", () => {
    for (const tool of tools.filter((t) => LONG_TOOLS.includes(t.name))) {
      const props = tool.outputSchema?.properties ?? {};
      expect(Object.keys(props), tool.name).toEqual(expect.arrayContaining(["status", "state", "resume"]));
      expect(tool.outputSchema?.required ?? [], tool.name).not.toContain("state");
    }
  });
});

describe("toolset selection", () => {
  it("exposes the default toolsets by default, without their opt-in tools: not legacy, manage, research, media or generate_template", () => {
    const c = loadConfig({ WEBDATA_API_KEY: "x_unused", WEBDATA_BASE_URL: "http://h" });
    const toolsets = selectTools(c).map((t) => t.toolset);
    for (const off of ["legacy", "manage", "research", "media"]) expect(toolsets).not.toContain(off);
    expect(new Set(toolsets)).toEqual(new Set(DEFAULT_TOOLSETS));
    // The literal list, over stdio and HTTP: test/server/default-tools.test.ts.
    expect(selectTools(c).map((t) => t.name)).toEqual(
      "web_search serp_search extract_page extract_batch crawl_site map_site get_task list_agents run_agent run_template check_domain_health job_runs cancel".split(
        " ",
      ),
    );
  });

  it("brings an opt-in tool with its toolset once WEBDATA_TOOLSETS names it, or all", () => {
    const named = (toolsets: string) =>
      selectTools(
        loadConfig({ WEBDATA_API_KEY: "x_unused", WEBDATA_BASE_URL: "http://h", WEBDATA_TOOLSETS: toolsets }),
      ).map((t) => t.name);
    expect(named("templates")).toEqual(["run_template", "generate_template"]);
    expect(named("all")).toContain("generate_template");
    expect(named(DEFAULT_TOOLSETS.join(","))).toContain("generate_template");
    expect(named("search,jobs")).toEqual(["web_search", "serp_search", "serp_search_async", "job_runs"]);
  });

  it("keeps the default tools/list within 4,000 o200k tokens (as bench/server.mjs counts it)", () => {
    const c = loadConfig({ WEBDATA_API_KEY: "x_unused", WEBDATA_BASE_URL: "http://h" });
    const tokens = encode(JSON.stringify({ tools: listTools(selectTools(c)) })).length;
    expect(tokens).toBeLessThanOrEqual(4000);
  });

  it("exposes every tool but legacy with WEBDATA_TOOLSETS=all", () => {
    const c = loadConfig({
      WEBDATA_API_KEY: "x_unused",
      WEBDATA_BASE_URL: "http://h",
      WEBDATA_TOOLSETS: "all",
    });
    expect(selectTools(c).map((t) => t.name)).toEqual(
      ALL_TOOLS.filter((t) => t.toolset !== "legacy").map((t) => t.name),
    );
  });

  it("WEBDATA_READ_ONLY=1 hides every tool that writes or starts billable work beyond a read", () => {
    const c = loadConfig({
      WEBDATA_API_KEY: "x_unused",
      WEBDATA_BASE_URL: "http://h",
      WEBDATA_TOOLSETS: "all",
      WEBDATA_READ_ONLY: "1",
    });
    const names = selectTools(c).map((t) => t.name);
    for (const hidden of [
      "generate_template",
      "research",
      "cancel",
      "manage_template",
      "manage_research_agent",
      "manage_job",
    ])
      expect(names).not.toContain(hidden);
    expect(names).toEqual(ALL_TOOLS.filter((t) => t.readOnly && t.toolset !== "legacy").map((t) => t.name));
    expect(names).toContain("web_search");
    expect(() =>
      loadConfig({ WEBDATA_API_KEY: "x", WEBDATA_BASE_URL: "http://h", WEBDATA_READ_ONLY: "maybe" }),
    ).toThrow(/WEBDATA_READ_ONLY must be 1 or 0/);
  });

  it("filters by WEBDATA_TOOLSETS", () => {
    const c = loadConfig({
      WEBDATA_API_KEY: "x_unused",
      WEBDATA_BASE_URL: "http://h",
      WEBDATA_TOOLSETS: "search, tasks",
    });
    expect(
      selectTools(c)
        .map((t) => t.name)
        .sort(),
    ).toEqual(["cancel", "get_task", "serp_search", "serp_search_async", "web_search"]);
  });

  it("adds legacy only with WEBDATA_LEGACY_AUTH and WEBDATA_LEGACY_BASE_URL", () => {
    const without = loadConfig({
      WEBDATA_API_KEY: "x_unused",
      WEBDATA_BASE_URL: "http://h",
      WEBDATA_TOOLSETS: "all",
    });
    expect(selectTools(without).some((t) => t.toolset === "legacy")).toBe(false);
    const noHost = loadConfig({
      WEBDATA_API_KEY: "x_unused",
      WEBDATA_BASE_URL: "http://h",
      WEBDATA_LEGACY_AUTH: "u:p",
    });
    expect(selectTools(noHost).some((t) => t.toolset === "legacy")).toBe(false);
    expect(noHost.notes).toEqual([expect.stringMatching(/WEBDATA_LEGACY_BASE_URL is not.*get_social_event/)]);
    const withAuth = loadConfig({
      WEBDATA_API_KEY: "x_unused",
      WEBDATA_BASE_URL: "http://h",
      WEBDATA_LEGACY_AUTH: "u:p",
      WEBDATA_LEGACY_BASE_URL: "http://legacy.h",
    });
    expect(
      selectTools(withAuth)
        .filter((t) => t.toolset === "legacy")
        .map((t) => t.name),
    ).toEqual(ALL_TOOLS.filter((t) => t.toolset === "legacy").map((t) => t.name));
    // The default set and get_social_event: 14 tools.
    expect(selectTools(withAuth)).toHaveLength(14);
  });
});
