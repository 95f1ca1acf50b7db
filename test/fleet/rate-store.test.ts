/**
 * Two replicas in one process, each in its own fleet (its own Redis database): each one's API
 * clients reserve their rate-limit slots in their own fleet's store, and still do once the other
 * replica has shut down. The store reaches a client through its options, not a process-wide
 * setting that the last replica to start overwrites and the first to close removes.
 */
import { Redis } from "ioredis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type HttpServer, startHttpServer } from "../../src/server/http.js";
import { startRedis, type TestRedis } from "../helpers/redis.js";
import { useSandbox } from "../helpers/sandbox.js";
import { connect, sandboxConfig, textOf } from "../http/helpers.js";

const KEY = "wdk_rateStoreQZXJVKWP";
const sandbox = useSandbox({ key: KEY });
let redis: TestRedis;
const replicas: { http: HttpServer; probe: Redis }[] = [];

beforeAll(async () => {
  redis = await startRedis();
  for (const db of [1, 2]) {
    const url = `${redis.url}/${db}`;
    const http = await startHttpServer({
      config: sandboxConfig(sandbox, KEY),
      port: 0,
      redisUrl: url,
      log: () => {},
    });
    replicas.push({ http, probe: new Redis(url) });
  }
});

afterAll(async () => {
  for (const { http, probe } of replicas) {
    await http.shutdown(0);
    probe.disconnect();
  }
  await redis?.stop();
});

/** The `tat` (next slot, ms) of each rate-limit key in a replica's Redis. */
async function slots(probe: Redis): Promise<number[]> {
  const keys = await probe.keys("wd:rl:*");
  return Promise.all(keys.map(async (key) => Number(await probe.hget(key, "tat"))));
}

async function search(http: HttpServer, query: string): Promise<void> {
  const c = await connect(http.url);
  try {
    const r = await c.client.callTool({
      name: "serp_search",
      arguments: { search_engine: "engine1_search", query },
    });
    expect(r.isError, textOf(r)).toBeFalsy();
  } finally {
    await c.close();
  }
}

describe("the fleet's rate store", () => {
  it("is each replica's own, and stays after the other replica closes", async () => {
    const [a, b] = replicas;
    await search(a.http, "alpha");
    expect(await slots(a.probe), "replica A's call reserves in A's fleet").toHaveLength(1);
    expect(await slots(b.probe), "and not in B's").toEqual([]);
    await search(b.http, "bravo");
    const [before] = await slots(b.probe);
    expect(before).toBeGreaterThan(0);

    await a.http.shutdown(0);
    await search(b.http, "charlie");
    const [after] = await slots(b.probe);
    expect(after, "B still reserves in its fleet after A closed").toBeGreaterThan(before);
  });
});
