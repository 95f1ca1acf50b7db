/**
 * Every tool's example arguments (its definition's `examples`, shown in the README and by
 * `call TOOL --help`) run on the sandbox through the real server, so none rots.
 */
import { describe, expect, it } from "vitest";
import { z } from "zod";
import type { Sandbox } from "../../src/sandbox/index.js";
import { ALL_TOOLS } from "../../src/tools/registry.js";
import { inProcessAgainst } from "../helpers/in-process.js";
import { call, type McpSession, serverForFile, textOf } from "../helpers/mcp.js";

let server: McpSession;

serverForFile(
  (started) => {
    ({ server } = started);
  },
  (sandbox: Sandbox) => ({
    WEBDATA_TOOLSETS: "all",
    WEBDATA_LEGACY_AUTH: "demo:demo",
    WEBDATA_LEGACY_BASE_URL: sandbox.legacyUrl,
  }),
  inProcessAgainst,
);

const cases = ALL_TOOLS.flatMap((tool) =>
  (tool.examples ?? []).map((args, i) => ({ name: `${tool.name}(example ${i + 1})`, tool, args })),
);

describe("tool examples", () => {
  it.each(ALL_TOOLS.map((t) => [t.name, t] as const))(
    "%s carries one or two examples its schema accepts",
    (_, tool) => {
      expect(tool.examples?.length ?? 0).toBeGreaterThanOrEqual(1);
      expect(tool.examples?.length ?? 0).toBeLessThanOrEqual(2);
      const schema = tool.inputObject ?? z.object(tool.input).strict();
      for (const args of tool.examples ?? []) expect(schema.safeParse(args).error).toBeUndefined();
    },
  );

  it.each(cases.map((c) => [c.name, c] as const))("%s succeeds on the sandbox", async (_, c) => {
    const r = await call(server, c.tool.name, { ...c.args });
    expect(r.isError, textOf(r)).toBeFalsy();
    expect(textOf(r).trim()).not.toBe("");
  });
});
