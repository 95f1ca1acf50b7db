/**
 * The bundle's rewrite of the SDK's types.js (scripts/start-path-plugin.mjs, issue 33): every
 * schema built on first use through a stand-in that behaves as the schema does, and a build that
 * fails when the SDK's sources no longer fit the rewrite.
 */
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import * as original from "@modelcontextprotocol/sdk/types.js";
import { build } from "esbuild";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  deferredSchemas,
  guardsRejectEarly,
  readsNoSchemaAtLoad,
  startPath,
} from "../../scripts/start-path-plugin.mjs";
import { at } from "./helpers.js";

const TYPES = at("node_modules/@modelcontextprotocol/sdk/dist/esm/types.js");
const SERVER = at("node_modules/@modelcontextprotocol/sdk/dist/esm/server/index.js");
const types = readFileSync(TYPES, "utf8");
/** The SDK's own schemas by name. */
const sdk: Record<string, unknown> = { ...original };

describe("the rewrite of the SDK's types.js", () => {
  it("declares each schema as a memoised builder and a stand-in, and builds none as it loads", () => {
    const out = deferredSchemas(types, TYPES);
    expect(out).toContain(
      'const CallToolResultSchema$built = /* @__PURE__ */ __builder("CallToolResultSchema", () => ResultSchema$built().extend({',
    );
    expect(out).toContain(
      "export const CallToolResultSchema = /* @__PURE__ */ __deferred(CallToolResultSchema$built);",
    );
    expect(out).toContain(
      "export const isJSONRPCRequest = (value) => JSONRPCRequestSchema$built().safeParse(value).success;",
    );
    expect(out).toContain("export const JSONRPCErrorSchema = JSONRPCErrorResponseSchema;");
    expect(out).not.toMatch(/^(export )?const \w+Schema = z\./m);
  });

  it("fails when types.js reads a schema at its top level, or makes one by a call that is not zod's", () => {
    expect(() =>
      deferredSchemas(`${types}\nexport const shape = CallToolResultSchema.shape;\n`, TYPES),
    ).toThrow(/CallToolResultSchema is read at the module's top level/);
    expect(() => deferredSchemas(`${types}\nexport const OddSchema = makeSchema();\n`, TYPES)).toThrow(
      /OddSchema is made by a call on makeSchema/,
    );
    expect(() => deferredSchemas("export const A = 1;\n", TYPES)).toThrow(
      /no longer looks like the SDK's types.js/,
    );
  });

  it("fails when a JSON-RPC message guard is no longer the one-parse function it rewrites", () => {
    expect(guardsRejectEarly(types, TYPES)).toContain(
      'export const isJSONRPCResultResponse = (value) => typeof value === "object" && value !== null && "result" in value && JSONRPCResultResponseSchema.safeParse(value).success;',
    );
    const changed = types.replace(
      "export const isJSONRPCErrorResponse = (value) => JSONRPCErrorResponseSchema.safeParse(value).success;",
      "export const isJSONRPCErrorResponse = (value) => JSONRPCErrorResponseSchema.safeParse(value).success && true;",
    );
    expect(() => guardsRejectEarly(changed, TYPES)).toThrow(/no longer defines isJSONRPCErrorResponse/);
  });

  it("fails when another SDK module uses a schema as it loads, not when it uses one in a function", () => {
    const server = readFileSync(SERVER, "utf8");
    expect(() => readsNoSchemaAtLoad(server, SERVER)).not.toThrow();
    expect(() =>
      readsNoSchemaAtLoad(`${server}\nconst levels = LoggingLevelSchema.options;\n`, SERVER),
    ).toThrow(/uses LoggingLevelSchema as it loads/);
  });
});

describe("the SDK's schemas as bundled", () => {
  const dir = mkdtempSync(join(tmpdir(), "webdata-deferred-schemas-"));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  let bundled: typeof original;

  beforeAll(async () => {
    const outfile = join(dir, "types.cjs");
    await build({
      stdin: {
        contents: 'export * from "@modelcontextprotocol/sdk/types.js";',
        resolveDir: at("."),
        loader: "js",
      },
      outfile,
      bundle: true,
      format: "cjs",
      platform: "node",
      logLevel: "silent",
      plugins: [startPath],
    });
    bundled = createRequire(import.meta.url)(outfile);
  });

  const text = { type: "text", text: "hello" };
  const samples: Array<[keyof typeof original, unknown]> = [
    ["JSONRPCMessageSchema", { jsonrpc: "2.0", id: 1, method: "tools/list", params: {} }],
    ["JSONRPCMessageSchema", { jsonrpc: "2.0", id: 1, result: { tools: [] } }],
    ["JSONRPCMessageSchema", { jsonrpc: "1.0", id: 1, method: "x" }],
    ["JSONRPCMessageSchema", [{ jsonrpc: "2.0", id: 1, method: "ping" }]],
    [
      "InitializeRequestSchema",
      {
        method: "initialize",
        params: {
          protocolVersion: "2025-06-18",
          capabilities: { elicitation: {} },
          clientInfo: { name: "c", version: "1" },
        },
      },
    ],
    ["InitializeRequestSchema", { method: "initialize", params: { capabilities: {} } }],
    [
      "CallToolRequestSchema",
      { method: "tools/call", params: { name: "t", arguments: { a: 1 }, task: { ttl: 5 } } },
    ],
    ["CallToolRequestSchema", { method: "tools/call", params: { arguments: 3 } }],
    [
      "CallToolResultSchema",
      {
        content: [
          text,
          { type: "image", data: "aGk=", mimeType: "image/png" },
          { type: "resource_link", uri: "x://y", name: "y" },
        ],
        structuredContent: { a: 1 },
      },
    ],
    ["CallToolResultSchema", { content: [{ type: "text" }, { type: "audio", data: "!!" }], isError: "yes" }],
    [
      "CreateTaskResultSchema",
      { task: { taskId: "t", status: "working", ttl: null, createdAt: "2026-01-01T00:00:00Z" } },
    ],
    ["CreateTaskResultSchema", { task: { taskId: "t", status: "sleeping" } }],
  ];

  it.each(samples.map(([name, value], i) => [i, name, value] as const))(
    "parse as the SDK's own do (sample %i, %s)",
    (_, name, value) => {
      const outcome = (schema: unknown) => {
        const r = (schema as typeof original.JSONRPCMessageSchema).safeParse(value);
        return { success: r.success, data: r.data, issues: r.error?.issues };
      };
      expect(outcome(bundled[name])).toEqual(outcome(sdk[name]));
    },
  );

  // What a transport may hand the Protocol: every kind of message, broken ones, and values that
  // carry a guard's member but are still not that message.
  const inherited = Object.create({ result: {} });
  Object.assign(inherited, { jsonrpc: "2.0", id: 3 });
  const messages: unknown[] = [
    { jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "t" } },
    { jsonrpc: "2.0", id: "a", method: "ping" },
    { jsonrpc: "2.0", method: "notifications/initialized" },
    { jsonrpc: "2.0", id: 1, method: "ping", extra: true },
    { jsonrpc: "2.0", id: null, method: "ping" },
    { jsonrpc: "2.0", id: 1, result: {} },
    { jsonrpc: "2.0", id: 1, result: undefined },
    { jsonrpc: "2.0", result: {} },
    { jsonrpc: "2.0", id: 1, error: { code: -32601, message: "no" } },
    { jsonrpc: "2.0", error: { code: -32700, message: "parse" } },
    { jsonrpc: "2.0", id: 1, error: "no" },
    { jsonrpc: "1.0", id: 1, result: {} },
    { id: 1, method: "ping" },
    inherited,
    {},
    [],
    [{ jsonrpc: "2.0", id: 1, method: "ping" }],
    null,
    undefined,
    "ping",
    7,
  ];
  const guards = [
    "isJSONRPCRequest",
    "isJSONRPCNotification",
    "isJSONRPCResultResponse",
    "isJSONRPCErrorResponse",
  ] as const;

  it.each(guards)("answer %s as the SDK's own guard does, for every kind of message", (guard) => {
    expect(messages.map((m) => bundled[guard](m))).toEqual(messages.map((m) => original[guard](m)));
    // Each guard says yes to something, so the equality above is not all refusals.
    expect(messages.some((m) => bundled[guard](m))).toBe(true);
  });

  it("read as the SDK's own do: a shape, an enum's options, the zod class they are", () => {
    expect(Object.keys(bundled.CallToolResultSchema.shape)).toEqual(
      Object.keys(original.CallToolResultSchema.shape),
    );
    expect(bundled.LoggingLevelSchema.options).toEqual(original.LoggingLevelSchema.options);
    expect(bundled.ListToolsRequestSchema.shape.method.value).toBe("tools/list");
    expect(bundled.CallToolResultSchema.def.type).toBe("object");
    expect(bundled.isJSONRPCRequest({ jsonrpc: "2.0", id: 1, method: "ping" })).toBe(true);
  });
});
