/**
 * The loaded server lists its static tools with the build-time list's entries (`adoptEntries`, so
 * loading the tools builds no JSON Schema): that is right only while dist/tool-list.json is what
 * `listTools` makes of the same definitions, which the first test checks (npm run build first).
 */
import { readFileSync } from "node:fs";
import type { Tool } from "@modelcontextprotocol/sdk/types.js";
import { describe, expect, it } from "vitest";
import { adoptEntries, listTools } from "../../src/server/list-tools.js";
import { ALL_TOOLS } from "../../src/tools/registry.js";

describe("the build-time list and the loaded one", () => {
  it("dist/tool-list.json holds listTools' entry for every registry tool, in registry order", () => {
    const built = JSON.parse(readFileSync("dist/tool-list.json", "utf8")) as { tools: Array<{ tool: Tool }> };
    // Fresh definitions (copies): entries listTools builds, none adopted by another test.
    expect(built.tools.map((t) => t.tool)).toEqual(listTools(ALL_TOOLS.map((t) => ({ ...t }))));
  });

  it("adoptEntries takes a list naming the same tools in the same order as their entries", () => {
    const tools = ALL_TOOLS.slice(0, 2).map((t) => ({ ...t }));
    const listed = tools.map((t) => ({
      name: t.name,
      inputSchema: { type: "object" as const },
      title: "built",
    }));
    adoptEntries(tools, listed);
    expect(listTools(tools)).toEqual(listed);
  });

  it("adoptEntries ignores a list of other tools, or in another order", () => {
    const tools = ALL_TOOLS.slice(0, 2).map((t) => ({ ...t }));
    const stub = (name: string) => ({ name, inputSchema: { type: "object" as const }, title: "built" });
    adoptEntries(tools, [stub("other"), stub("tools")]);
    adoptEntries(tools, tools.map((t) => stub(t.name)).reverse());
    adoptEntries(tools, [stub(tools[0]?.name as string)]);
    const listed = listTools(tools);
    expect(listed.map((t) => t.name)).toEqual(tools.map((t) => t.name));
    expect(listed.map((t) => t.title)).toEqual(tools.map((t) => t.title));
    expect(listed[0]?.inputSchema.properties).toBeDefined();
  });
});
