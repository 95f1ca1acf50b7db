/**
 * The e2e helpers give every server they start its own agent catalog cache under the temp dir
 * (never ~/.cache) and remove it when the server is closed.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { AgentCatalog } from "../../src/agents/catalog.js";
import type { Sandbox } from "../../src/sandbox/index.js";
import { startInProcessServer } from "./in-process.js";
import { call, envAgainst, spawnAgainst, startTestSandbox, testCacheDir } from "./mcp.js";

let sandbox: Sandbox;
beforeAll(async () => {
  sandbox = await startTestSandbox();
});
afterAll(async () => {
  await sandbox?.close();
});

describe("testCacheDir", () => {
  it("testCacheDir(default) is a fresh dir under the temp dir, gone after remove()", () => {
    const cache = testCacheDir({ WEBDATA_API_KEY: "x" });
    const dir = cache.env.WEBDATA_CACHE_DIR;
    expect(dir?.startsWith(tmpdir())).toBe(true);
    expect(cache.env.WEBDATA_API_KEY).toBe("x");
    expect(existsSync(dir)).toBe(true);
    cache.remove();
    expect(existsSync(dir)).toBe(false);
  });

  it("testCacheDir(own dir or --sandbox) leaves the environment as given", () => {
    expect(testCacheDir({ WEBDATA_CACHE_DIR: "/somewhere" }).env).toEqual({
      WEBDATA_CACHE_DIR: "/somewhere",
    });
    expect(testCacheDir({}, ["--sandbox"]).env.WEBDATA_CACHE_DIR).toBeUndefined();
  });

  it.runIf(process.platform === "linux")(
    "spawnAgainst(default): the server caches the catalog in its temp dir, removed on close",
    async () => {
      const server = await spawnAgainst(sandbox);
      let dir: string | undefined;
      try {
        const environ = readFileSync(`/proc/${server.transport.pid}/environ`, "utf8").split("\0");
        dir = environ.find((e) => e.startsWith("WEBDATA_CACHE_DIR="))?.slice("WEBDATA_CACHE_DIR=".length);
        expect(dir?.startsWith(tmpdir())).toBe(true);
        const listed = await call(server, "list_agents", {});
        expect(listed.isError).toBeFalsy();
        expect(readdirSync(dir as string).some((f) => f.startsWith("agents-"))).toBe(true);
      } finally {
        await server.close();
      }
      expect(existsSync(dir as string)).toBe(false);
    },
  );

  it("startInProcessServer(close): the catalog's cache write under way has ended when close settles", async () => {
    const cache = testCacheDir();
    const dir = cache.env.WEBDATA_CACHE_DIR as string;
    const server = await startInProcessServer({ env: envAgainst(sandbox, cache.env) });
    try {
      await server.app.ready;
      const catalog = server.app.services.agents as AgentCatalog;
      const before = catalog.fetchedAt;
      void catalog.refresh().catch(() => {});
      // `fetchedAt` is set as the fetched list is kept, right before its cache write starts.
      while (catalog.fetchedAt === before) await new Promise((r) => setImmediate(r));
    } finally {
      await server.close();
    }
    // Nothing is left half-written: the write has ended, and the dir can go.
    const files = readdirSync(dir);
    expect(files.filter((f) => f.endsWith(".tmp"))).toEqual([]);
    const written = files.filter((f) => /^agents-[0-9a-f]{24}\.json$/.test(f));
    expect(written).toHaveLength(1);
    expect(JSON.parse(readFileSync(join(dir, written[0]), "utf8")).agents.length).toBeGreaterThan(0);
    cache.remove();
    expect(existsSync(dir)).toBe(false);
  });
});
