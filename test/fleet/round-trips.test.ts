/**
 * Redis round trips per tool call (issue 23 item 8), counted on the wire: the server reaches Redis
 * through a loopback proxy that counts the writes of its connections (a pipeline or an EVAL is
 * one write; the once-a-second heartbeat is left out). One `serp_search` in an open session makes
 * three: the session read-and-touch, the fleet rate limit, the result event (the priming event
 * costs none). Before issue 23 the same call made 10.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type CountingRedisProxy, countingRedisProxy } from "../../scripts/redis-proxy.mjs";
import { type Sandbox, startSandbox } from "../../src/sandbox/index.js";
import { type HttpServer, startHttpServer } from "../../src/server/http.js";
import { until } from "../helpers/mcp.js";
import { startRedis, type TestRedis } from "../helpers/redis.js";
import { connect, sandboxConfig, textOf } from "../http/helpers.js";

type Health = { streams_open: number };

let redis: TestRedis;
let proxy: CountingRedisProxy;
let sandbox: Sandbox;
let http: HttpServer;

beforeAll(async () => {
  redis = await startRedis();
  proxy = await countingRedisProxy(redis.url);
  sandbox = await startSandbox();
  http = await startHttpServer({
    config: sandboxConfig(sandbox, "wdk_tripsQZXJVKWPRTM"),
    port: 0,
    redisUrl: proxy.url,
    log: () => {},
  });
});

afterAll(async () => {
  await http?.shutdown(0);
  await proxy?.close();
  await sandbox?.close();
  await redis?.stop();
});

describe("Redis round trips", () => {
  it("one tool call in an open session makes at most 3", async () => {
    const c = await connect(http.url);
    try {
      // The client's standalone GET stream opens after initialize: its session read is not a call's.
      await until(
        async () =>
          ((await (await fetch(http.url.replace(/\/mcp$/, "/healthz"))).json()) as Health).streams_open,
        (open) => open === 1,
      );
      await c.client.callTool({
        name: "serp_search",
        arguments: { search_engine: "engine1_search", query: "warm" },
      });
      const counts: number[] = [];
      for (const query of ["alpha", "bravo", "charlie"]) {
        proxy.reset();
        const from = sandbox.requests.length;
        const r = await c.client.callTool({
          name: "serp_search",
          arguments: { search_engine: "engine1_search", query },
        });
        expect(r.isError, textOf(r)).toBeFalsy();
        // The fleet rate limit is one round trip per upstream attempt: a retry (a loaded machine's
        // timeout) adds one. Per call: session + result event, plus one per attempt.
        const attempts = sandbox.requests.slice(from).filter((q) => q.path === "/v2/serp").length;
        counts.push(proxy.writes().length - (attempts - 1));
      }
      console.log(
        `redis round trips per serp_search call: ${counts.join(", ")}\n${proxy.writes().join("\n")}`,
      );
      expect(Math.max(...counts)).toBeLessThanOrEqual(3);
    } finally {
      await c.close();
    }
  });
});
