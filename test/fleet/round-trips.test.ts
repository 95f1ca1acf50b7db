/**
 * Redis round trips per tool call (issue 23 item 8), counted on the wire: the server reaches Redis
 * through a loopback proxy that counts the writes of its connections (a pipeline or an EVAL is
 * one write; the once-a-second heartbeat is left out). One `serp_search` in an open session makes
 * three: the session read-and-touch, the fleet rate limit, the result event (the priming event
 * costs none). Before issue 23 the same call made 10.
 */
import { createServer, type Server, type Socket, connect as tcpConnect } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Sandbox, startSandbox } from "../../src/sandbox/index.js";
import { type HttpServer, startHttpServer } from "../../src/server/http.js";
import { until } from "../helpers/mcp.js";
import { startRedis, type TestRedis } from "../helpers/redis.js";
import { connect, sandboxConfig, textOf } from "../http/helpers.js";

type Health = { streams_open: number };

/** Round trips: writes from the server to Redis, minus heartbeats. */
let writes: string[] = [];

async function countingProxy(target: URL): Promise<{ url: string; server: Server }> {
  const sockets = new Set<Socket>();
  const server = createServer((client) => {
    const upstream = tcpConnect(Number(target.port), target.hostname);
    sockets.add(client).add(upstream);
    client.on("data", (chunk: Buffer) => {
      const text = chunk.toString("latin1");
      // A write starts with a RESP array ("*"); a loaded machine may deliver one in two chunks.
      if (text.startsWith("*") && !text.includes("wd:replica:"))
        writes.push(text.replace(/\r\n/g, " ").slice(0, 120));
      upstream.write(chunk);
    });
    upstream.on("data", (chunk) => client.write(chunk));
    const end = () => {
      client.destroy();
      upstream.destroy();
    };
    client.on("close", end).on("error", end);
    upstream.on("close", end).on("error", end);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  server.on("close", () => {
    for (const s of sockets) s.destroy();
  });
  const port = (server.address() as { port: number }).port;
  return { url: `redis://127.0.0.1:${port}`, server };
}

let redis: TestRedis;
let proxy: Server;
let sandbox: Sandbox;
let http: HttpServer;

beforeAll(async () => {
  redis = await startRedis();
  const counted = await countingProxy(new URL(redis.url));
  proxy = counted.server;
  sandbox = await startSandbox();
  http = await startHttpServer({
    config: sandboxConfig(sandbox, "wdk_tripsQZXJVKWPRTM"),
    port: 0,
    redisUrl: counted.url,
    log: () => {},
  });
});

afterAll(async () => {
  await http?.shutdown(0);
  proxy?.close();
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
        writes = [];
        const from = sandbox.requests.length;
        const r = await c.client.callTool({
          name: "serp_search",
          arguments: { search_engine: "engine1_search", query },
        });
        expect(r.isError, textOf(r)).toBeFalsy();
        // The fleet rate limit is one round trip per upstream attempt: a retry (a loaded machine's
        // timeout) adds one. Per call: session + result event, plus one per attempt.
        const attempts = sandbox.requests.slice(from).filter((q) => q.path === "/v2/serp").length;
        counts.push(writes.length - (attempts - 1));
      }
      console.log(`redis round trips per serp_search call: ${counts.join(", ")}\n${writes.join("\n")}`);
      expect(Math.max(...counts)).toBeLessThanOrEqual(3);
    } finally {
      await c.close();
    }
  });
});
