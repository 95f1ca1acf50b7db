/**
 * A tool's zod schemas are built when first read, not as the registry loads (defineTool in
 * src/tools/tool.ts): a process builds those of the tools it calls. Each build is seen on the
 * channel defineTool publishes it on.
 */
import { subscribe, unsubscribe } from "node:diagnostics_channel";
import { afterAll, describe, expect, it } from "vitest";

const CHANNEL = "web-data-mcp:tool-schema-built";
const builds: string[] = [];
const onBuild = (message: unknown) => {
  const { tool, part } = message as { tool: string; part: string };
  builds.push(`${tool} ${part}`);
};
subscribe(CHANNEL, onBuild);
afterAll(() => unsubscribe(CHANNEL, onBuild));

describe("the tools' schemas", () => {
  it("are not built as the registry loads; reading one builds it once", async () => {
    // Imported here, after the subscription (this file's modules are its own: fresh per file).
    const { ALL_TOOLS } = await import("../../src/tools/registry.js");
    expect(ALL_TOOLS.length).toBeGreaterThanOrEqual(20);
    expect(builds, "tool schemas built as the registry loaded").toEqual([]);

    const serp = ALL_TOOLS.find((t) => t.name === "serp_search");
    const first = serp?.input;
    expect(Object.keys(first ?? {})).toContain("search_engine");
    expect(serp?.input, "the same schema on every read").toBe(first);
    expect(builds).toEqual(["serp_search input"]);
    expect(Object.keys(serp?.output ?? {}).length).toBeGreaterThan(0);
    expect(builds).toEqual(["serp_search input", "serp_search output"]);
  });
});
