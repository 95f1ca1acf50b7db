/**
 * The stdio fast front with WEBDATA_AGENT_TOOLS: its first tools/list — from the catalog cache's
 * tool-list sidecar, or cold from the snapshot's permissive template — is byte for byte what the
 * loaded server lists; a sidecar that does not fit the config or the cache is not used; one that
 * fits the cache but lists other entries is corrected by tools/list_changed; no key in it.
 * Raw JSON-RPC over the built `dist/cli.js` (so the front answers before the SDK loads).
 */
import { cp, mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import type { Sandbox } from "../../src/sandbox/index.js";
import { assertBuilt, spawnAgainst, startTestSandbox, TEST_KEY, until } from "../helpers/mcp.js";
import { initialized, initParams, type Msg, type RawServer, spawnRaw } from "./raw-stdio.js";

const AGENTS = "ecommerce_search_listing,news_article";
const STALE = "STALE entry from the sidecar";

let sandbox: Sandbox;
/** A catalog cache and its sidecar as the built server left them. */
let warm: string;
const dirs: string[] = [];
const open: Array<{ close(): Promise<void> }> = [];

async function tempDir(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), "fast-start-agents-"));
  dirs.push(dir);
  return dir;
}

async function inDir(dir: string, name: RegExp): Promise<string> {
  const found = (await readdir(dir)).find((f) => name.test(f));
  if (!found) throw new Error(`no ${name} in ${dir}`);
  return join(dir, found);
}
const sidecarOf = (dir: string) => inDir(dir, /^agents-[0-9a-f]{24}\.tools\.json$/);
const catalogOf = (dir: string) => inDir(dir, /^agents-[0-9a-f]{24}\.json$/);
const readJson = async (file: string) => JSON.parse(await readFile(file, "utf8"));
const isExact = (t: Msg | undefined) => Object.keys(t?.inputSchema?.properties ?? {}).length > 0;

beforeAll(async () => {
  assertBuilt();
  sandbox = await startTestSandbox();
  warm = await tempDir();
  const server = await spawnAgainst(sandbox, { WEBDATA_CACHE_DIR: warm, WEBDATA_AGENT_TOOLS: AGENTS });
  try {
    // The first start fetches the catalog, swaps in the exact tools and saves them beside the cache.
    await until(
      async () => {
        const tools: Msg[] = await sidecarOf(warm)
          .then(readJson)
          .then(
            (s) => s.tools,
            () => [],
          );
        return tools.length === 2 && tools.every(isExact);
      },
      (done) => done,
      20,
    );
  } finally {
    await server.close();
  }
});
afterEach(async () => {
  for (const o of open.splice(0).reverse()) await o.close();
});
afterAll(async () => {
  await sandbox?.close();
  for (const d of dirs) await rm(d, { recursive: true, force: true });
});

function start(s: Sandbox, cacheDir: string): RawServer {
  const server = spawnRaw({
    WEBDATA_BASE_URL: s.url,
    WEBDATA_API_KEY: TEST_KEY,
    WEBDATA_CACHE_DIR: cacheDir,
    WEBDATA_AGENT_TOOLS: AGENTS,
  });
  open.push(server);
  return server;
}

/** A copy of the warm cache dir, its sidecar and catalog cache changed by `edit`. */
async function warmCopy(edit: { sidecar?: (s: Msg) => void; catalog?: (c: Msg) => void } = {}) {
  const dir = await tempDir();
  await cp(warm, dir, { recursive: true });
  for (const [file, fn] of [
    [await sidecarOf(dir), edit.sidecar],
    [await catalogOf(dir), edit.catalog],
  ] as const) {
    if (!fn) continue;
    const json = await readJson(file);
    fn(json);
    await writeFile(file, JSON.stringify(json));
  }
  return dir;
}

/**
 * The first tools/list, sent with initialize and a logging/setLevel before it in one chunk: the
 * front answers the list before the setLevel the full server answers once loaded; the full server
 * answers in order. Then a tools/list the loaded server answers (after setLevel was).
 */
async function firstAndLoaded(server: RawServer) {
  const init = server.request("initialize", initParams("2025-06-18"));
  const level = server.request("logging/setLevel", { level: "error" });
  const first = server.request("tools/list");
  server.send(init, initialized, level, first);
  await server.response(first.id);
  await server.response(level.id);
  const byFront = server.position(first.id) < server.position(level.id);
  const later = server.request("tools/list");
  server.send(later);
  await server.response(later.id);
  const result = (id: number) => server.received[server.position(id)].result;
  return {
    byFront,
    first: result(first.id),
    loaded: result(later.id),
    // Re-serialized as parsed: the same bytes as written, member order included.
    sameBytes: JSON.stringify(result(first.id)) === JSON.stringify(result(later.id)),
  };
}

/** The catalog answers late: the loaded server lists what it started with until the test ends. */
async function withSlowCatalog(fn: () => Promise<void>) {
  sandbox.configure({ catalogDelayMs: 10_000 });
  try {
    await fn();
  } finally {
    sandbox.configure({ catalogDelayMs: 0 });
  }
}

const listChanged = (server: RawServer) => server.notifications("notifications/tools/list_changed").length;
const agentTools = (list: Msg) => (list.tools as Msg[]).filter((t) => t.name.startsWith("agent_"));

describe("fast front with agent tools", () => {
  const starts: Array<[string, () => Promise<string>, boolean]> = [
    ["cached: the sidecar's exact tools", () => warmCopy(), true],
    ["cold (empty cache): the snapshot template's permissive tools", tempDir, false],
  ];
  it.each(starts)("%s, byte for byte what the loaded server lists", async (_label, cacheDir, exact) => {
    await withSlowCatalog(async () => {
      const server = start(sandbox, await cacheDir());
      const { byFront, first, loaded, sameBytes } = await firstAndLoaded(server);
      expect(byFront).toBe(true);
      expect(agentTools(first).map((t) => t.name)).toEqual([
        "agent_ecommerce_search_listing",
        "agent_news_article",
      ]);
      expect(agentTools(first).map(isExact)).toEqual([exact, exact]);
      expect(first).toEqual(loaded);
      expect(sameBytes).toBe(true);
      expect(listChanged(server)).toBe(0);
    });
  });

  it("a sidecar that fits the cache but lists other entries: tools/list_changed, then the right list", async () => {
    const dir = await warmCopy({
      sidecar: (s) => {
        s.tools[1].description = STALE;
      },
    });
    const server = start(sandbox, dir);
    const { byFront, first, loaded } = await firstAndLoaded(server);
    expect(byFront).toBe(true);
    expect(JSON.stringify(first)).toContain(STALE);
    await until(
      () => listChanged(server),
      (n) => n > 0,
    );
    expect(JSON.stringify(loaded)).not.toContain(STALE);
    expect(agentTools(loaded).every(isExact)).toBe(true);
  });

  const edits: Array<[string, { sidecar?: (s: Msg) => void; catalog?: (c: Msg) => void }]> = [
    ["written by another version", { sidecar: (s) => Object.assign(s, { app: "0.0.0-other" }) }],
    ["for other agent names", { sidecar: (s) => Object.assign(s, { names: ["news_article"] }) }],
    [
      "older than the catalog cache",
      { catalog: (c) => Object.assign(c.details.news_article, { description: "Changed since. Really." }) },
    ],
  ];
  it.each(edits)("a sidecar %s is not used: the server's own list comes first", async (_label, edit) => {
    const dir = await warmCopy({
      ...edit,
      sidecar: (s) => {
        for (const t of s.tools) t.description = STALE;
        edit.sidecar?.(s);
      },
    });
    await withSlowCatalog(async () => {
      const server = start(sandbox, dir);
      const { first, loaded } = await firstAndLoaded(server);
      expect(JSON.stringify(first)).not.toContain(STALE);
      expect(agentTools(first).every(isExact)).toBe(true);
      expect(first).toEqual(loaded);
    });
  });

  it("the sidecar holds no key, nor any part of one", async () => {
    const text = await readFile(await sidecarOf(warm), "utf8");
    for (let i = 0; i + 6 <= TEST_KEY.length; i++) expect(text).not.toContain(TEST_KEY.slice(i, i + 6));
    const sidecar = JSON.parse(text);
    expect(sidecar.names).toEqual(AGENTS.split(","));
    expect(sidecar.tools.map((t: Msg) => t.name)).toEqual([
      "agent_ecommerce_search_listing",
      "agent_news_article",
    ]);
  });
});
