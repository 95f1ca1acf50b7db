/**
 * What the stdio server loads before it answers `initialize` and `tools/list` (issue 33): the
 * modules dist/cli.cjs imports statically plus dist/stdio.cjs, the server's start path as one
 * CommonJS file that dist/cli.cjs compiles with V8's code cache (src/cli/code-cache.ts); then what a
 * first call loads, dist/runtime.cjs (compiled the same way). Read from
 * the bundle itself (esbuild writes a `// node_modules/…` or `// src/…` line before each module);
 * scripts/bundle.mjs says how the path is kept small. Speed is measured by `npm run bench`, not here.
 */
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { assertBuilt, call, type McpSession, spawnAgainst } from "../helpers/mcp.js";
import { useSandbox } from "../helpers/sandbox.js";
import { at } from "./helpers.js";

/** The files on the start path, each with the modules esbuild put in it. */
function startPath(): Array<{ file: string; bytes: number; modules: string[] }> {
  const seen = new Map<string, { file: string; bytes: number; modules: string[] }>();
  const visit = (file: string) => {
    if (seen.has(file)) return;
    const text = readFileSync(file, "utf8");
    const modules = [...text.matchAll(/^\/\/ ((?:node_modules|src)\/\S+)$/gm)].map((m) => m[1]);
    seen.set(file, { file, bytes: text.length, modules });
    const imports = [
      ...text.matchAll(/^(?:import|export)\s[^;]*?from\s*"(\.[^"]+)"/gms),
      ...text.matchAll(/^import\s*"(\.[^"]+)"/gm),
      ...text.matchAll(/\brequire\("(\.[^"]+)"\)/g),
    ];
    for (const m of imports) visit(join(dirname(file), m[1]));
  };
  visit(at("dist/cli.cjs"));
  visit(at("dist/stdio.cjs"));
  return [...seen.values()];
}

let files: ReturnType<typeof startPath>;
let modules: string[];

beforeAll(() => {
  assertBuilt();
  files = startPath();
  modules = files.flatMap((f) => f.modules);
});

describe("the stdio start path (dist/cli.cjs and dist/stdio.cjs, before any call)", () => {
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

  it("holds only the SDK message schemas something on the path names", () => {
    const text = files.map((f) => readFileSync(f.file, "utf8")).join("\n");
    // Named by the Server, Protocol, the stdio transport or our guard (each built on its first use,
    // ./deferred-schemas.test.ts).
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
    // zod's fromJSONSchema (agents only) no longer spreads every classic schema into the zod chunk;
    // 341 kB as one CommonJS file (no ESM chunk shared with the runtime, HTTP or agents).
    expect(bytes).toBeLessThan(360_000);
  });

  it("is two CommonJS files: the bin dist/cli.cjs, which requires nothing of ours, and dist/stdio.cjs", () => {
    // Five ES modules before (the flags, config and loader in chunks shared with `call`): each is
    // resolved, read, compiled and linked apart; then one ES module, which started Node's ES module
    // loader (6-7 ms of a spawn); then the whole CLI (33 kB) in dist/cli.cjs.
    expect(files.map((f) => f.file)).toEqual([at("dist/cli.cjs"), at("dist/stdio.cjs")]);
    const cli = readFileSync(at("dist/cli.cjs"), "utf8");
    expect(cli).not.toMatch(/^(?:import|export)\b/m);
    // The flags' parser and the other commands are dist/cli-main.cjs's, loaded for an argument.
    expect(files[0]?.modules).not.toContain("src/cli/args.ts");
    expect(files[0]?.modules).toContain("src/bin.ts");
    expect(files[1]?.modules).toContain("src/config.ts");
    // Its only import() is the code-cache loader's, which serves dist/stdio.cjs's own lazy chunks
    // (OpenTelemetry, the 2026-07-28 server); the other commands' chunks are dist/cli-main.cjs's.
    for (const m of cli.matchAll(/\bimport\(([^)]*)\)/g)) expect(m[1]).toBe("url.href");
  });

  it("carries the package version: no package.json is read as it starts", () => {
    const { version } = JSON.parse(readFileSync(at("package.json"), "utf8"));
    const text = files.map((f) => readFileSync(f.file, "utf8")).join("\n");
    expect(text).toContain(`VERSION = ${JSON.stringify(version)}`);
    expect(text).not.toContain("package.json");
  });

  it("loads node:v8 (the WebAssembly tiering flag) only after the handshake, lazily", () => {
    const cli = readFileSync(at("dist/cli.cjs"), "utf8");
    expect(cli).not.toMatch(/^import [^;]*"node:v8"/m);
    expect(cli).not.toMatch(/^(?:const|var|let) [^;]*require\("node:v8"\)/m);
    expect(cli).toMatch(/createRequire\)\(__import_meta_url\)\("node:v8"\)/);
    expect(readFileSync(at("dist/stdio.cjs"), "utf8")).not.toMatch(/require\("node:v8"\)/);
  });

  it("loads node:crypto only when the SDK's task store makes its first task id", () => {
    const text = readFileSync(at("dist/stdio.cjs"), "utf8");
    expect(text).not.toMatch(/= require\("node:crypto"\)/);
    expect(text).toMatch(/randomBytes = \(size\) => .*\("node:crypto"\)\.randomBytes\(size\)/);
  });

  it("sets zod jitless before the SDK's message schemas are built (src/server/zod-jitless.ts)", () => {
    const text = readFileSync(at("dist/stdio.cjs"), "utf8");
    const jitless = text.search(/\bconfig\(\{ jitless: !0 \}\)/);
    expect(jitless).toBeGreaterThan(0);
    expect(jitless).toBeLessThan(text.indexOf("// node_modules/@modelcontextprotocol/sdk/dist/esm/types.js"));
  });

  it("is one CommonJS file whose lazy parts are dist/runtime.cjs and ESM chunks, each loaded through __import", () => {
    const text = readFileSync(at("dist/stdio.cjs"), "utf8");
    expect(text).not.toMatch(/\bimport\(/);
    const lazy = [...text.matchAll(/\b__import\("(\.\/[^"]+)"\)/g)].map((m) => m[1]);
    expect(lazy).toContain("./runtime.cjs");
    for (const path of lazy) expect(path, path).toMatch(/^\.\/(runtime\.cjs|chunks\/[^/]+\.js)$/);
    for (const path of lazy) expect(existsSync(at(join("dist", path))), path).toBe(true);
    // dist/cli.cjs loads it by this name (src/cli.ts stdioServer).
    expect(readFileSync(at("dist/cli.cjs"), "utf8")).toContain('"./stdio.cjs"');
  });
});

describe("the first call's runtime (dist/runtime.cjs)", () => {
  const runtime = () => readFileSync(at("dist/runtime.cjs"), "utf8");
  const bundled = (text: string) =>
    [...text.matchAll(/^\/\/ ((?:node_modules|src)\/\S+)$/gm)].map((m) => m[1]);

  it("is the tools, the API client and their checks, without undici's fetch, WebSocket, cookies, caches or mocks", () => {
    const modules = bundled(runtime());
    expect(modules).toContain("src/server/runtime.ts");
    expect(modules).toContain("src/tools/extract-page.ts");
    expect(modules).toContain("node_modules/undici/lib/dispatcher/agent.js");
    // undici's index.js requires all of these eagerly (scripts/undici-plugin.mjs).
    const unused = [
      /^node_modules\/undici\/index\.js$/,
      /^node_modules\/undici\/lib\/web\/(fetch\/index|cookies|websocket|eventsource|cache)/,
      /^node_modules\/undici\/lib\/(mock|cache|interceptor)\//,
      /^node_modules\/ajv/,
      /^node_modules\/zod\/v4\/locales\/(?!en\.js)/,
      /^src\/server\/http\//,
      /^src\/sandbox\//,
    ];
    expect(modules.filter((m) => unused.some((re) => re.test(m)))).toEqual([]);
  });

  it("reads none of Node's lazy web globals as it loads (each loads Node's own undici and its WebAssembly)", () => {
    for (const file of ["dist/stdio.cjs", "dist/runtime.cjs"]) {
      const text = readFileSync(at(file), "utf8");
      expect(text, file).not.toMatch(
        /\bglobalThis\.(fetch|Headers|FormData|Request|Response|WebSocket|EventSource|MessageEvent|CloseEvent)\b/,
      );
    }
  });

  it("loads node:fs/promises (nine of Node's internal modules) only when the agent cache is written", () => {
    expect(runtime()).not.toMatch(/require\("node:fs\/promises"\)/);
    expect(runtime()).toMatch(/\.promises\.writeFile\(/);
  });

  it("loads undici's HTTP/2 client (node:http2, node:tls) only when a connection negotiates h2", () => {
    expect(runtime()).toMatch(/\bconnectH2 = \(client, socket\) => require_client_h2\(\)\(client, socket\)/);
  });

  it("is strict, as its ES module sources are: each CommonJS bundle's first statement is the directive", () => {
    for (const file of ["dist/cli.cjs", "dist/cli-main.cjs", "dist/stdio.cjs", "dist/runtime.cjs"]) {
      const text = readFileSync(at(file), "utf8").replace(/^#![^\n]*\n/, "");
      expect(text.startsWith('"use strict";\n'), file).toBe(true);
    }
  });

  it("is ASCII, like every file of the bundle (a UTF-8 file is decoded at each load)", () => {
    const files = [
      "dist/cli.cjs",
      "dist/cli-main.cjs",
      "dist/stdio.cjs",
      "dist/runtime.cjs",
      ...readdirSync(at("dist/chunks"))
        .filter((f) => f.endsWith(".js"))
        .map((f) => `dist/chunks/${f}`),
    ];
    expect(files.filter((f) => /[^\0-\x7f]/.test(readFileSync(at(f), "latin1")))).toEqual([]);
  });
});

describe("the built server's code cache", () => {
  const cache = mkdtempSync(join(tmpdir(), "webdata-start-cache-"));
  afterAll(() => rmSync(cache, { recursive: true, force: true }));
  const sandbox = useSandbox();

  const session = async () => {
    const server = await spawnAgainst(sandbox, { WEBDATA_CACHE_DIR: cache });
    try {
      return {
        tools: (await server.client.listTools()).tools,
        extracted: (await call(server, "extract_page", { url: `${sandbox.siteUrl}/` })).isError,
      };
    } finally {
      await server.close();
    }
  };
  const codeFiles = () =>
    existsSync(join(cache, "code"))
      ? readdirSync(join(cache, "code")).map((name) => ({
          name,
          mtime: statSync(join(cache, "code", name)).mtimeMs,
        }))
      : [];

  /**
   * Runs the built server with `args` and a preloaded probe (CommonJS, so it starts nothing itself)
   * that writes the lines of `list` (an expression) at exit; `use` drives the session first.
   */
  const probed = async (list: string, args: string[], use: (server: McpSession) => Promise<void>) => {
    const dir = mkdtempSync(join(tmpdir(), "webdata-probe-"));
    try {
      const probe = join(dir, "probe.cjs");
      const out = join(dir, "lines.txt");
      writeFileSync(
        probe,
        `process.on("exit", () => require("node:fs").writeFileSync(${JSON.stringify(out)}, ${list}.join("\\n")));`,
      );
      const env = {
        WEBDATA_CACHE_DIR: join(dir, "cache"),
        NODE_OPTIONS: `--require ${JSON.stringify(probe)}`,
      };
      const server = await spawnAgainst(sandbox, env, args);
      try {
        await use(server);
      } finally {
        await server.close();
      }
      return readFileSync(out, "utf8").split("\n");
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  };

  it("never starts Node's ES module loader: spawn, handshake, a first call and exit", async () => {
    // The internal modules Node loaded by exit. An ES module entry or an import() loads the
    // loader's translators and module jobs; node:module and node:vm load only the loader's own
    // file, which starts nothing.
    const loaded = await probed("process.moduleLoadList", [], async (server) => {
      expect((await call(server, "extract_page", { url: `${sandbox.siteUrl}/` })).isError).toBeFalsy();
    });
    expect(loaded).toContain("NativeModule internal/modules/cjs/loader");
    expect(loaded.filter((m) => /internal\/modules\/esm\/(translators|module_job)/.test(m))).toEqual([]);
  });

  it("loads no node:http, node:assert or node:perf_hooks for a first call (scripts/undici-plugin.mjs, scripts/lru-cache-plugin.mjs)", async () => {
    const loaded = await probed("process.moduleLoadList", [], async (server) => {
      expect((await call(server, "extract_page", { url: `${sandbox.siteUrl}/` })).isError).toBeFalsy();
    });
    // The list is Node's own: it holds the socket module the call went out on.
    expect(loaded).toContain("NativeModule net");
    expect(loaded.filter((m) => /^NativeModule (http|_http_\w+|assert|perf_hooks)$/.test(m))).toEqual([]);
  });

  it("serves a plain start from the bin and dist/stdio.cjs alone; an argument loads the rest of the CLI", async () => {
    // The CommonJS files Node required by exit (dist/stdio.cjs and dist/runtime.cjs are compiled
    // through node:vm, not required).
    const required = (args: string[]) =>
      probed("Object.keys(require.cache)", args, async (server) => {
        expect((await server.client.listTools()).tools.map((t) => t.name)).toContain("extract_page");
      });
    const plain = await required([]);
    expect(plain).toContain(at("dist/cli.cjs"));
    expect(plain).not.toContain(at("dist/cli-main.cjs"));
    expect(await required(["--toolsets", "search,extract"])).toContain(at("dist/cli-main.cjs"));
  });

  it("is written by the first start under the cache dir, for the start path and the runtime, and reused unchanged by the next", async () => {
    const first = await session();
    const written = codeFiles();
    const name = (file: string) =>
      expect.stringMatching(new RegExp(`^${file}-[0-9a-z.]+-${process.version}-${process.arch}\\.bin$`));
    expect(written.map((f) => f.name).sort()).toEqual([name("runtime"), name("stdio")]);
    const second = await session();
    // A hit writes nothing; the same tools and a working call either way.
    expect(codeFiles()).toEqual(written);
    expect(second).toEqual(first);
    expect(first.extracted).toBeFalsy();
  });
});
