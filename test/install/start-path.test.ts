/**
 * What the stdio server loads before it answers `initialize` and `tools/list` (issue 33): the
 * modules dist/cli.js imports statically plus the stdio chunk it imports for the server. Read from
 * the bundle itself (esbuild writes a `// node_modules/…` or `// src/…` line before each module);
 * scripts/bundle.mjs says how the path is kept small. Speed is measured by `npm run bench`, not here.
 */
import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { assertBuilt } from "../helpers/mcp.js";
import { at } from "./helpers.js";

/** The files on the start path, each with the modules esbuild put in it. */
function startPath(): Array<{ file: string; bytes: number; modules: string[] }> {
  const seen = new Map<string, { file: string; bytes: number; modules: string[] }>();
  const visit = (file: string, dynamic?: RegExp) => {
    if (seen.has(file)) return;
    const text = readFileSync(file, "utf8");
    const modules = [...text.matchAll(/^\/\/ ((?:node_modules|src)\/\S+)$/gm)].map((m) => m[1]);
    seen.set(file, { file, bytes: text.length, modules });
    const imports = [
      ...text.matchAll(/^(?:import|export)\s[^;]*?from\s*"(\.[^"]+)"/gms),
      ...text.matchAll(/^import\s*"(\.[^"]+)"/gm),
    ];
    for (const m of imports) visit(join(dirname(file), m[1]));
    if (dynamic) {
      for (const m of text.matchAll(/import\("(\.[^"]+)"\)/g)) {
        if (dynamic.test(m[1])) visit(join(dirname(file), m[1]));
      }
    }
  };
  visit(at("dist/cli.js"), /\/stdio-[^/]+\.js$/);
  return [...seen.values()];
}

let files: ReturnType<typeof startPath>;
let modules: string[];

beforeAll(() => {
  assertBuilt();
  files = startPath();
  modules = files.flatMap((f) => f.modules);
});

describe("the stdio start path (dist/cli.js and the stdio chunk, before any call)", () => {
  it("reaches the stdio server and the SDK's message schemas", () => {
    expect(modules).toContain("src/server/stdio.ts");
    expect(modules).toContain("src/server/create-server.ts");
    expect(
      modules.some((m) => m.startsWith("node_modules/@modelcontextprotocol/sdk/dist/esm/types.js")),
    ).toBe(true);
  });

  it("loads nothing the handshake and the build-time tools/list do not use", () => {
    const unused = [
      /^node_modules\/ajv/, // the SDK's default validator (loaded with the runtime)
      /^node_modules\/fast-uri/,
      /^node_modules\/zod\/v4\/locales\/(?!en\.js)/, // every locale but the default
      /^node_modules\/undici/, // the API client
      /^node_modules\/(hono|@hono)\//, // HTTP
      /^node_modules\/ioredis/,
      /^node_modules\/jose/, // OAuth
      /^node_modules\/@opentelemetry/,
      /^node_modules\/@modelcontextprotocol\/(server|node|core)\//, // the v2 protocol packages
      /^node_modules\/re2js/,
      /^src\/(sandbox|agents|async)\//,
      /^src\/server\/http\//,
      /^src\/tools\//, // tool definitions and handlers: the runtime
      /^src\/api\/client/,
    ];
    expect(modules.filter((m) => unused.some((re) => re.test(m)))).toEqual([]);
  });

  it("builds only the SDK message schemas something on the path names", () => {
    const text = files.map((f) => readFileSync(f.file, "utf8")).join("\n");
    // Named by the Server, Protocol, the stdio transport or our guard: built before the first message.
    for (const name of ["JSONRPCMessageSchema", "InitializeRequestSchema", "ListToolsRequestSchema"]) {
      expect(text).toMatch(new RegExp(`\\b${name} = `));
    }
    // The SDK's unions of every client/server message (each builds dozens of schemas) and the
    // requests no one on the path handles: left to the chunks that use them (scripts/start-path-plugin.mjs).
    for (const name of [
      "ClientRequestSchema",
      "ServerResultSchema",
      "ServerNotificationSchema",
      "CompleteRequestSchema",
      "SubscribeRequestSchema",
    ]) {
      expect(text).not.toMatch(new RegExp(`\\b${name} = `));
    }
  });

  it("stays small enough to compile quickly", () => {
    const bytes = files.reduce((sum, f) => sum + f.bytes, 0);
    // 1.16 MB before issue 33 (every zod locale, Ajv); 457 kB after its first pass; 416 kB once
    // zod's fromJSONSchema (agents only) no longer spreads every classic schema into the zod chunk.
    expect(bytes).toBeLessThan(440_000);
  });
});
