/**
 * Redis round trips per tool call (issue 23 item 8), counted on the wire: the server reaches Redis
 * through a loopback proxy (scripts/redis-proxy.mjs) that counts what each connection sends before
 * Redis answers (a pipeline or an EVAL is one; the once-a-second heartbeat is left out). One `serp_search` in an open session makes
 * three: the session read-and-touch, the fleet rate limit, the result event (the priming event
 * costs none). Before issue 23 the same call made 10.
 */
import { describe, expect, it } from "vitest";
import { useHttpServer } from "../helpers/http-server.js";
import { until } from "../helpers/mcp.js";
import { connect, textOf } from "../http/helpers.js";

type Health = { streams_open: number };

const fx = useHttpServer("wdk_tripsQZXJVKWPRTM", { redis: true });

describe("Redis round trips", () => {
  it("one tool call in an open session makes at most 3", async () => {
    const c = await connect(fx.http.url);
    try {
      // The client's standalone GET stream opens after initialize: its session read is not a call's.
      await until(
        async () =>
          ((await (await fetch(fx.http.url.replace(/\/mcp$/, "/healthz"))).json()) as Health).streams_open,
        (open) => open === 1,
      );
      // The proxy and the server share this process, and a call's result event is stored (it
      // passes the proxy and Redis answers) before its answer is sent: once a call has answered,
      // the proxy has seen all its writes. (Waiting to see each result event's write instead hung
      // whenever one was sent while another command awaited its answer: the proxy then counts it
      // in that round trip, as it should, and never lists it on its own.)
      fx.redis.reset();
      await c.client.callTool({
        name: "serp_search",
        arguments: { search_engine: "engine1_search", query: "warm" },
      });
      const CALLS = ["alpha", "bravo", "charlie"];
      fx.redis.reset();
      const from = fx.sandbox.requests.length;
      for (const query of CALLS) {
        const r = await c.client.callTool({
          name: "serp_search",
          arguments: { search_engine: "engine1_search", query },
        });
        expect(r.isError, textOf(r)).toBeFalsy();
      }
      // The fleet rate limit is one round trip per upstream attempt: a retry (a loaded machine's
      // timeout) adds one. Per call: session + result event, plus one per attempt.
      const attempts = fx.sandbox.requests.slice(from).filter((q) => q.path === "/v2/serp").length;
      const writes = fx.redis.writes();
      const perCall = (writes.length - (attempts - CALLS.length)) / CALLS.length;
      expect(
        perCall,
        `${writes.length} round trips for ${CALLS.length} calls:\n${writes.join("\n")}`,
      ).toBeLessThanOrEqual(3);
    } finally {
      await c.close();
    }
  });
});
