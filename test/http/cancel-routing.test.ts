/**
 * Issue 23 items 4–5: a `notifications/cancelled` over HTTP reaches the call it names (each POST
 * has a fresh server, so it must be routed), on whichever replica runs it (Redis pub/sub); DELETE
 * ends the session's calls and MCP task work. "Stopped" is read from the sandbox's request log:
 * once the call is over, its task is polled no more while a fresh witness call on the same server
 * is polled six times (about 1.5 s of polling at least; longer on a slow machine, never shorter),
 * so the check holds however busy the machine is.
 */
import { CallToolResultSchema } from "@modelcontextprotocol/sdk/types.js";
import { describe, expect, it, vi } from "vitest";
import type { HttpServer } from "../../src/server/http.js";
import { useHttpServerOn } from "../helpers/http-server.js";
import { useRedis } from "../helpers/redis.js";
import { useSandbox } from "../helpers/sandbox.js";
import { connect, INITIALIZE, raw } from "./helpers.js";

const KEY = "wdk_cancelQZXJVKWPRT";
const sandbox = useSandbox({ taskLatencyMs: 120_000 });
const redis = useRedis();
const http = useHttpServerOn(sandbox, KEY);
const fleet = () => ({ server: { redisUrl: redis.url } });
const replicaA = useHttpServerOn(sandbox, KEY, fleet);
const replicaB = useHttpServerOn(sandbox, KEY, fleet);

const health = async (server: HttpServer) =>
  (await raw(server.url.replace(/\/mcp$/, "/healthz"))).json() as {
    active_requests: number;
    tasks_running: number;
  };

/** The task the call submitted, once the sandbox has seen it polled. */
async function polledTask(since: number, except?: string): Promise<string> {
  let id: string | undefined;
  await vi.waitFor(
    () => {
      id = sandbox.requests
        .slice(since)
        .map((r) => /^\/v[12]\/tasks\/([^/]+)$/.exec(r.path)?.[1])
        .find((x) => x !== undefined && x !== except);
      expect(id).toBeDefined();
    },
    { timeout: 10_000, interval: 50 },
  );
  return id!;
}

const pollsOf = (task: string, after: number) =>
  sandbox.requests.filter(
    (r) => /^\/v[12]\/tasks\//.test(r.path) && r.path.endsWith(`/${task}`) && r.at > after,
  ).length;

/** No poll of `task` while a witness call on `server` is polled six times. */
async function expectNoMorePolls(server: HttpServer, task: string) {
  const before = pollsOf(task, 0);
  const witness = await connect(server.url);
  try {
    const from = sandbox.requests.length;
    const call = witness.client.callTool(longCall, CallToolResultSchema).catch((e: unknown) => e);
    const witnessTask = await polledTask(from, task);
    await vi.waitFor(() => expect(pollsOf(witnessTask, 0)).toBeGreaterThanOrEqual(6), {
      timeout: 60_000,
      interval: 100,
    });
    expect(pollsOf(task, 0)).toBe(before);
    await witness.close();
    await call;
  } finally {
    await witness.close().catch(() => {});
  }
}

const longCall = {
  name: "extract_page",
  arguments: { url: "https://example.com/slow", render: true, max_chars: 500 },
};

describe("notifications/cancelled over HTTP", () => {
  it("stops the call it names: its polling ends", async () => {
    const c = await connect(http.url);
    try {
      const from = sandbox.requests.length;
      const abort = new AbortController();
      const call = c.client
        .callTool(longCall, CallToolResultSchema, { signal: abort.signal })
        .catch((e: unknown) => e);
      const task = await polledTask(from);
      abort.abort("the user changed their mind");
      await call;
      await vi.waitFor(async () => expect((await health(http)).active_requests).toBe(0), {
        timeout: 10_000,
        interval: 100,
      });
      await expectNoMorePolls(http, task);
    } finally {
      await c.close();
    }
  });

  it("reaches the call on another replica (Redis pub/sub)", async () => {
    const init = await raw(replicaA.url, { body: INITIALIZE });
    const session = String(init.headers["mcp-session-id"]);
    const headers = {
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
      "mcp-session-id": session,
      "mcp-protocol-version": "2025-06-18",
    };
    const from = sandbox.requests.length;
    const call = await fetch(replicaA.url, {
      method: "POST",
      headers,
      body: JSON.stringify({ jsonrpc: "2.0", id: 7, method: "tools/call", params: longCall }),
    });
    const task = await polledTask(from);
    expect((await health(replicaA)).active_requests).toBe(1);
    const cancel = await raw(replicaB.url, {
      headers,
      body: { jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: 7, reason: "stop" } },
    });
    expect(cancel.status).toBe(202);
    await vi.waitFor(async () => expect((await health(replicaA)).active_requests).toBe(0), {
      timeout: 10_000,
      interval: 100,
    });
    await expectNoMorePolls(replicaA, task);
    await call.body?.cancel();
  });
});

describe("DELETE ends the session's work", () => {
  it("cancels its calls in flight and its MCP tasks", async () => {
    const c = await connect(http.url);
    const from = sandbox.requests.length;
    const plain = c.client.callTool(longCall, CallToolResultSchema).catch((e: unknown) => e);
    const task = await polledTask(from);
    const created = await c.client.request(
      { method: "tools/call", params: { ...longCall, task: { ttl: 600_000 } } },
      // The CreateTaskResult is read loosely: only its task id matters here.
      CallToolResultSchema.passthrough(),
    );
    expect(JSON.stringify(created)).toMatch(/taskId/);
    await vi.waitFor(async () => expect((await health(http)).tasks_running).toBe(1), { timeout: 10_000 });
    await c.transport.terminateSession();
    await vi.waitFor(
      async () => {
        const h = await health(http);
        expect(h.active_requests).toBe(0);
        expect(h.tasks_running).toBe(0);
      },
      { timeout: 10_000, interval: 100 },
    );
    await expectNoMorePolls(http, task);
    await c.client.close();
    await plain;
  });
});
