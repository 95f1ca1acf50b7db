/**
 * The e2e helpers give every server they start its own agent catalog cache under the temp dir
 * (never ~/.cache) and remove it when the server is closed.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Sandbox } from "../../src/sandbox/index.js";
import { call, spawnAgainst, startTestSandbox, testCacheDir } from "./mcp.js";

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
});
