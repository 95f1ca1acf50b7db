/**
 * A tool's argument and result objects are built with zod's compiled parsers even where the stdio
 * server turned them off for the process (src/server/zod-jitless.ts): the switch is put back after
 * each build, whatever the build does, and the objects check values as before. That they run
 * faster is the peers bench's to show (docs/benchmarks.md, issue 33), not a test's.
 */
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { inputSchema, outputSchema } from "../../src/server/tool-schemas.js";
import { ALL_TOOLS } from "../../src/tools/registry.js";
import type { ToolDefinition } from "../../src/tools/tool.js";

const extractPage = () => ({ ...(ALL_TOOLS.find((t) => t.name === "extract_page") as ToolDefinition) });

describe("a tool's argument and result objects in a jitless process", () => {
  let before: boolean | undefined;
  beforeEach(() => {
    before = z.config().jitless;
    z.config({ jitless: true });
  });
  afterEach(() => {
    z.config({ jitless: before });
  });

  it("are built with the switch put back after", () => {
    const tool = extractPage();
    const input = inputSchema(tool);
    expect(z.config().jitless).toBe(true);
    const output = outputSchema(tool);
    expect(z.config().jitless).toBe(true);
    expect(input.safeParse({ url: "https://example.com/" }).success).toBe(true);
    expect(input.safeParse({ url: "https://example.com/", nope: 1 }).success).toBe(false);
    expect(output.safeParse({ status: 42 }).success).toBe(false);
  });

  it("put the switch back when a tool's shape fails to build", () => {
    const broken = {
      ...extractPage(),
      get input(): never {
        throw new Error("no shape");
      },
    } as ToolDefinition;
    expect(() => inputSchema(broken)).toThrow("no shape");
    expect(z.config().jitless).toBe(true);
  });
});
