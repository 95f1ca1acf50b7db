/**
 * Graceful shutdown of the real binary: SIGTERM during a slow tool call lets the call finish,
 * refuses new work, and exits 0. The call is made slow with a latency fault on the child's
 * in-process sandbox (its URL is read from a search result, which links to the demo site).
 */
import { afterEach, describe, expect, it } from "vitest";
import { until } from "../helpers/mcp.js";
import { type HttpChild, spawnHttpServer } from "./child.js";
import { connect, raw, textOf } from "./helpers.js";

let server: HttpChild | undefined;

afterEach(async () => {
  await server?.kill();
  server = undefined;
});

const serp = (query: string) => ({
  name: "serp_search",
  arguments: { search_engine: "engine1_search", query },
});

async function slowDownNextSearch(c: Awaited<ReturnType<typeof connect>>, ms: number) {
  const first = await c.client.callTool(serp("lantern"));
  expect(first.isError, textOf(first)).toBeFalsy();
  const sandboxOrigin = new URL(
    (first.structuredContent as { results: Array<{ url: string }> }).results[0].url,
  ).origin;
  const res = await fetch(`${sandboxOrigin}/_sandbox/faults`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ kind: "latency", match: "POST /v2/serp", ms, count: 1 }),
  });
  expect(res.status).toBe(200);
}

/** Polls /healthz until a request is open on the server (no timing is asserted). */
async function untilBusy(url: string) {
  const health = url.replace(/\/mcp$/, "/healthz");
  await until(
    async () => (await raw(health)).json(),
    (body) => body.active_requests >= 1,
  );
}

describe("SIGTERM", () => {
  it("lets an in-flight call finish, refuses new sessions, then exits 0", async () => {
    server = await spawnHttpServer();
    const c = await connect(server.url);
    await slowDownNextSearch(c, 3_000);
    const call = c.client.callTool(serp("compass"));
    await untilBusy(server.url);

    server.child.kill("SIGTERM");
    await server.waitForStderr("draining");
    const refused = await raw(server.url.replace(/\/mcp$/, "/healthz")).then(
      (r) => r.status,
      () => "connection refused",
    );
    expect([503, "connection refused"]).toContain(refused);

    const result = await call;
    expect(result.isError, textOf(result)).toBeFalsy();
    expect((result.structuredContent as { results: unknown[] }).results.length).toBeGreaterThan(0);
    expect(await server.exited).toBe(0);
    await c.client.close();
  });

  it("answers a call that outlasts the drain bound with a JSON-RPC error, then exits 0", async () => {
    server = await spawnHttpServer([], { WEBDATA_HTTP_DRAIN_MS: "200" });
    const c = await connect(server.url);
    await slowDownNextSearch(c, 20_000);
    const call = c.client.callTool(serp("compass")).then(
      () => "answered",
      (error: Error) => error.message,
    );
    await untilBusy(server.url);
    server.child.kill("SIGTERM");
    expect(await server.exited).toBe(0);
    // Not a cut stream: the call gets an error that says what happened and what to do.
    expect(await call).toMatch(/shut down before this call finished: call again/);
    await c.client.close();
  });
});
