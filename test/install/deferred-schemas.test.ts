/**
 * The SDK's message schemas in the bundle are built on their first use, not as dist/stdio.cjs loads
 * (issue 33; scripts/start-path-plugin.mjs rewrites the SDK's types.js, scripts/deferred-schema.mjs
 * builds): the stdio handshake builds the ones it parses a message with or registers a handler
 * with, a call's request and result schemas wait for the first call, and each is built once.
 * Counted in the built server by ./schema-probe.cjs (preloaded), which sees each build.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { call, spawnAgainst } from "../helpers/mcp.js";
import { useSandbox } from "../helpers/sandbox.js";
import { at } from "./helpers.js";

const PROBE = fileURLToPath(new URL("./schema-probe.cjs", import.meta.url));

/** Schemas only a call, its result or a request to the client parses. */
const CALL_SIDE = [
  "CallToolRequestSchema",
  "CallToolResultSchema",
  "ContentBlockSchema",
  "TextContentSchema",
  "EmbeddedResourceSchema",
  "CreateTaskResultSchema",
  "TaskSchema",
  "EmptyResultSchema",
  "CreateMessageResultSchema",
  "ElicitResultSchema",
  "ListRootsResultSchema",
];

interface Build {
  name: string;
  /** The bundle whose copy of the SDK built it. */
  file: string;
  /** Answers the server had written by then. */
  answers: number;
}

describe("the SDK's schemas in the built server", () => {
  const sandbox = useSandbox();
  const dir = mkdtempSync(join(tmpdir(), "webdata-schema-probe-"));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const out = join(dir, "builds.jsonl");
  const builds = (): Build[] =>
    existsSync(out)
      ? readFileSync(out, "utf8")
          .split("\n")
          .filter(Boolean)
          .map((line) => JSON.parse(line))
      : [];

  it("are each built on first use: the handshake's before it is answered, a call's on the first call, once", async () => {
    const server = await spawnAgainst(sandbox, {
      NODE_OPTIONS: `--require ${JSON.stringify(PROBE)}`,
      SCHEMA_PROBE_OUT: out,
    });
    try {
      await server.client.listTools();
      // Answered by now: initialize, then tools/list.
      const handshake = builds()
        .filter((b) => b.file === "stdio.cjs" && b.answers < 2)
        .map((b) => b.name);
      expect(handshake).toEqual(
        expect.arrayContaining(["JSONRPCMessageSchema", "InitializeRequestSchema", "ListToolsRequestSchema"]),
      );
      expect(handshake.filter((name) => CALL_SIDE.includes(name))).toEqual([]);

      for (let i = 0; i < 2; i++) {
        expect((await call(server, "extract_page", { url: `${sandbox.siteUrl}/` })).isError).toBeFalsy();
      }
      const stdio = builds().filter((b) => b.file === "stdio.cjs");
      const times = (name: string) => stdio.filter((b) => b.name === name).length;
      expect(times("CallToolRequestSchema")).toBe(1);
      expect(times("CallToolResultSchema")).toBe(1);
      expect(times("TextContentSchema")).toBe(1);
      expect(new Set(stdio.map((b) => b.name)).size).toBe(stdio.length);
    } finally {
      await server.close();
    }
  });

  it("are each a stand-in in dist/stdio.cjs, its schema made by a builder, none built as the file loads", () => {
    const text = readFileSync(at("dist/stdio.cjs"), "utf8");
    for (const name of ["JSONRPCMessageSchema", "CallToolResultSchema"]) {
      expect(text).toMatch(new RegExp(`\\b${name} = /\\* @__PURE__ \\*/ deferred\\d*\\(${name}\\$built\\)`));
    }
    const start = text.indexOf("// node_modules/@modelcontextprotocol/sdk/dist/esm/types.js");
    const end = text.indexOf("\n// ", start + 1);
    const declarations = [...text.slice(start, end).matchAll(/\b(\w+Schema(?:\$built)?) = (.{0,40})/g)];
    expect(declarations.length).toBeGreaterThan(50);
    // Each a builder, a stand-in or another schema's alias: no zod call runs as the module loads.
    const eager = declarations.filter(
      ([, , value]) =>
        !/^(\/\* @__PURE__ \*\/ (builder|deferred)\d*\(|\w+Schema(\$built)?[,;]?$)/.test(value),
    );
    expect(eager.map(([declaration]) => declaration)).toEqual([]);
  });
});
