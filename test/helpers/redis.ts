/**
 * A redis-server of the test file's own on a free loopback port, in a temp dir, stopped by
 * `stop()` (the suite runs files in parallel: none shares a Redis).
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startRedisServer } from "../../scripts/fleet.mjs";
import { useStarted } from "./read-through.js";

export interface TestRedis {
  url: string;
  stop(): Promise<void>;
}

export async function startRedis(): Promise<TestRedis> {
  const dir = mkdtempSync(join(tmpdir(), "webdata-redis-"));
  const removeDir = () => rmSync(dir, { recursive: true, force: true });
  const redis = await startRedisServer(dir).catch((error) => {
    removeDir();
    throw error;
  });
  return {
    url: redis.url,
    async stop() {
      await redis.stop();
      removeDir();
    },
  };
}

/** A Redis of the file's own from `beforeAll` to `afterAll`; the handle reads through to it. */
export function useRedis(): TestRedis {
  return useStarted("the Redis server", startRedis, (redis) => redis.stop());
}
