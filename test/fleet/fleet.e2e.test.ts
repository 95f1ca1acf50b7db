/**
 * A fleet end to end: 3 replicas of the built server sharing state in a real redis-server,
 * behind a real nginx doing plain round-robin (no affinity), against the sandbox — so
 * consecutive requests of one client land on different replicas. Covers issue 15's items 2-7:
 * sessions, calls with progress, deadline handles and get_task, MCP tasks, DELETE (2); the
 * fleet-wide rate limit (3); tasks read and cancelled elsewhere (4); webhooks landing on any
 * replica (5: forced onto another replica than the waiting call); a dropped stream resumed through another replica (6); and a replica killed
 * mid-call (7, last: it leaves two replicas).
 */

import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import {
  CallToolResultSchema,
  CreateTaskResultSchema,
  GetTaskResultSchema,
  LoggingMessageNotificationSchema,
} from "@modelcontextprotocol/sdk/types.js";
import { Redis } from "ioredis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { until } from "../helpers/mcp.js";
import { connect, raw, textOf } from "../http/helpers.js";
import { type Fleet, type RemoteSandbox, startFleet, startRemoteSandbox } from "./harness.js";
import { postCall, resume } from "./sse.js";

const KEY = "wdk_fleetQZXJVKWPRTMN";
/** The sandbox's rate limit per key (its default) and each call's wait (WEBDATA_WAIT_MS). */
const RATE_PER_S = 83;
const WAIT_MS = 15_000;
/**
 * Concurrent calls that must all finish within one wait: at most half of what the rate allows in
 * it (rate × wait × 0.5 = 622), here a quarter, so a machine busy enough to slow the replicas,
 * nginx and the sandbox several times over still has slack (at a 4 s wait, 156 calls timed out
 * on a 2-core machine under a load of 30).
 */
const CONCURRENT_CALLS = 150;
/**
 * The pause between two reads of a state the test waits for (a task's `get_task`, the sandbox's
 * request log). `get_task` reads the state once and answers, it does not wait: without a pause
 * the loops sent 430 calls through nginx, a replica and the sandbox, and the log was fetched 460
 * times (all of it, each time) in one run, a quarter of the file's CPU.
 */
const READ_PAUSE_MS = 200;
/** `get_task` on `taskId`, read at READ_PAUSE_MS, until it says done; every read must succeed. */
async function getTaskUntilDone(client: Client, taskId: string): Promise<void> {
  await until(
    async () => {
      const r = await client.callTool({ name: "get_task", arguments: { task_id: taskId } });
      expect(r.isError, textOf(r)).toBeFalsy();
      return r.structuredContent as { status: string };
    },
    (r) => r.status === "done",
    READ_PAUSE_MS,
  );
}

let sandbox: RemoteSandbox;
let fleet: Fleet;

beforeAll(async () => {
  sandbox = await startRemoteSandbox(KEY);
  await sandbox.configure({ rateLimit: RATE_PER_S });
  fleet = await startFleet({
    replicas: 3,
    env: { WEBDATA_API_KEY: KEY, WEBDATA_BASE_URL: sandbox.url, WEBDATA_WAIT_MS: String(WAIT_MS) },
    // Replica 0's callbacks go straight to replica 1 (item 5); the others' through nginx.
    replicaEnv: (i, ports): Record<string, string> =>
      i === 0 ? { WEBDATA_PUBLIC_URL: `http://127.0.0.1:${ports[1]}` } : {},
  });
}, 60_000);

afterAll(async () => {
  await fleet?.stop();
  await sandbox?.close();
});

const serp = (query: string) => ({
  name: "serp_search",
  arguments: { search_engine: "engine1_search", query },
});
const page = (url: string) => ({ name: "extract_page", arguments: { url, render: true } });
const siteUrl = (path: string) => `${sandbox.siteUrl}/${path}`;

describe("fleet: any replica serves any request (item 2)", () => {
  it("runs a session's initialize, tools/list, calls with progress and DELETE across replicas", async () => {
    const c = await connect(fleet.url);
    const id = c.transport.sessionId!;
    const { tools } = await c.client.listTools();
    expect(tools.map((t) => t.name)).toContain("extract_page");
    for (const q of ["tent", "lamp", "rope", "boots", "stove", "map"]) {
      const r = await c.client.callTool(serp(q));
      expect(r.isError, textOf(r)).toBeFalsy();
    }
    const progress: number[] = [];
    const rendered = await c.client.callTool(page(siteUrl("")), CallToolResultSchema, {
      onprogress: (p) => progress.push(p.progress),
    });
    expect(rendered.isError, textOf(rendered)).toBeFalsy();
    expect(progress.length).toBeGreaterThan(0);
    await c.transport.terminateSession();
    const after = await raw(fleet.url, {
      headers: { "mcp-session-id": id, "mcp-protocol-version": "2025-11-25" },
      body: { jsonrpc: "2.0", id: 9, method: "ping" },
    });
    expect(after.status).toBe(404);
    await c.client.close();
  });

  it("keeps a session's logging level in its Redis record for the calls other replicas serve", async () => {
    const c = await connect(fleet.url);
    try {
      const levels: string[] = [];
      c.client.setNotificationHandler(LoggingMessageNotificationSchema, (n) => {
        levels.push(n.params.level);
      });
      await c.client.setLoggingLevel("debug");
      // Round-robin: of three calls after the setLevel, two land on replicas that did not serve it.
      for (const q of ["tent", "lamp", "rope"]) await c.client.callTool(serp(q));
      expect(levels.filter((l) => l === "debug").length).toBeGreaterThanOrEqual(3);
    } finally {
      await c.close();
    }
  });

  it("hands back a deadline handle that get_task continues on other replicas", async () => {
    const c = await connect(fleet.url);
    try {
      // Work that outlasts the wait: the call answers with a handle.
      await sandbox.configure({ taskLatencyMs: WAIT_MS + 5_000 });
      const r = await c.client.callTool(page(siteUrl("about")), CallToolResultSchema, { timeout: 60_000 });
      await sandbox.configure({ taskLatencyMs: 300 });
      const s = r.structuredContent as { status: string; task_id: string };
      expect(s.status, textOf(r)).toBe("pending");
      await getTaskUntilDone(c.client, s.task_id);
    } finally {
      await sandbox.configure({ taskLatencyMs: 300 });
      await c.close();
    }
  });
});

describe("fleet: MCP tasks in Redis (items 2, 4)", () => {
  it("creates a task on one replica, reads its status and result and cancels another from the others", async () => {
    const c = await connect(fleet.url);
    try {
      const created = await c.client.request(
        { method: "tools/call", params: { ...page(siteUrl("")), task: { ttl: 120_000 } } },
        CreateTaskResultSchema,
      );
      const taskId = created.task.taskId;
      const seen = new Set<string>();
      for (let i = 0; i < 3; i++) {
        const got = await c.client.request({ method: "tasks/get", params: { taskId } }, GetTaskResultSchema);
        seen.add(got.status);
      }
      expect([...seen].every((s) => ["working", "completed"].includes(s))).toBe(true);
      const result = await c.client.request(
        { method: "tasks/result", params: { taskId } },
        CallToolResultSchema,
      );
      expect(result.isError, textOf(result)).toBeFalsy();
      expect(textOf(result).length).toBeGreaterThan(20);

      await sandbox.configure({ taskLatencyMs: 30_000 });
      const second = await c.client.request(
        { method: "tools/call", params: { ...page(siteUrl("contact")), task: { ttl: 120_000 } } },
        CreateTaskResultSchema,
      );
      await c.client.request(
        { method: "tasks/cancel", params: { taskId: second.task.taskId } },
        GetTaskResultSchema.passthrough(),
      );
      const after = await c.client.request(
        { method: "tasks/get", params: { taskId: second.task.taskId } },
        GetTaskResultSchema,
      );
      expect(after.status).toBe("cancelled");
      await expect(
        c.client.request(
          { method: "tasks/result", params: { taskId: second.task.taskId } },
          CallToolResultSchema,
        ),
      ).rejects.toThrow(/cancelled/);
    } finally {
      await sandbox.configure({ taskLatencyMs: 300 });
      await c.close();
    }
  });
});

describe("fleet: a cancel stops the work wherever it runs (item 4)", () => {
  /** One JSON-RPC request of `sessionId` straight to `url` (one replica), answered as JSON or SSE. */
  const rpc = async (url: string, sessionId: string, method: string, params: object) => {
    const response = await fetch(url, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
        "mcp-session-id": sessionId,
        "mcp-protocol-version": "2025-11-25",
      },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method, params }),
    });
    const text = await response.text();
    const data = text.split("\n").find((l) => l.startsWith("data: {"));
    return JSON.parse(data ? data.slice(6) : text) as { result?: { status?: string }; error?: unknown };
  };
  const polls = async (taskPath: string) =>
    (await sandbox.requests()).filter((r) => r.method === "GET" && r.path === taskPath).length;

  it("aborts a task's upstream polling on replica A when another replica cancels it", async () => {
    const [a, b, c] = fleet.replicas;
    const client = await connect(a.url);
    const sessionId = client.transport.sessionId!;
    try {
      await sandbox.configure({ taskLatencyMs: 120_000 });
      const seen = (await sandbox.requests()).length;
      const created = await client.client.request(
        { method: "tools/call", params: { ...page(siteUrl("contact")), task: { ttl: 120_000 } } },
        CreateTaskResultSchema,
      );
      // The work on replica A polls its upstream task (submitted with 120 s of latency, fixed at
      // submission): wait for the first poll to learn its path.
      const firstPoll = async () =>
        (await sandbox.requests())
          .slice(seen)
          .find((r) => r.method === "GET" && /^\/v[12]\/tasks\/[^/]+$/.test(r.path))?.path;
      const taskPath = (await until(firstPoll, (path) => path !== undefined, READ_PAUSE_MS)) as string;
      const cancelled = await rpc(b.url, sessionId, "tasks/cancel", { taskId: created.task.taskId });
      expect(cancelled.error, JSON.stringify(cancelled)).toBeUndefined();
      const got = await rpc(c.url, sessionId, "tasks/get", { taskId: created.task.taskId });
      expect(got.result?.status).toBe("cancelled");
      const atCancel = await polls(taskPath);

      // Let A's polling schedule run on (1 s, then the time waited again; the record's fallback
      // watch is 10 s): a call of 3 s upstream work through A, then the count again.
      await sandbox.configure({ taskLatencyMs: 3_000 });
      const later = await client.client.callTool(page(siteUrl("about")));
      expect(later.isError, textOf(later)).toBeFalsy();
      expect(await polls(taskPath)).toBe(atCancel);
    } finally {
      await sandbox.configure({ taskLatencyMs: 300 });
      await client.close();
    }
  });
});

describe("fleet: one rate limit per API key across replicas (item 3)", () => {
  // The batch adds a few upstream requests (submit, progress polls, the first pages' reads); its
  // 1,000 items cost the sandbox work, not requests.
  it("keeps a 1,000-item batch plus concurrent calls over 3 replicas under the sandbox's rate", async () => {
    const clients = await Promise.all([0, 1, 2].map(() => connect(fleet.url)));
    try {
      const before = (await sandbox.requests()).length;
      const batch = clients[0].client.callTool(
        {
          name: "extract_batch",
          arguments: {
            inputs: Array.from({ length: 1000 }, (_, i) => ({ url: siteUrl(`p/${i}`) })),
            max_chars: 2000,
          },
        },
        CallToolResultSchema,
        { timeout: 120_000 },
      );
      const calls = Array.from({ length: CONCURRENT_CALLS }, (_, i) =>
        clients[i % 3].client.callTool(serp(`q${i}`), CallToolResultSchema, { timeout: 120_000 }),
      );
      const results = await Promise.all([batch, ...calls]);
      expect(results.filter((r) => r.isError).map(textOf)).toEqual([]);
      const seen = (await sandbox.requests()).slice(before);
      expect(seen.filter((r) => r.path === "/v2/serp").length).toBeGreaterThanOrEqual(CONCURRENT_CALLS);
      const limited = seen.filter((r) => r.status === 429);
      expect(limited).toEqual([]);
    } finally {
      await Promise.all(clients.map((c) => c.close()));
    }
  }, 120_000);
});

describe("fleet: webhooks complete calls whichever replica receives them (item 5)", () => {
  it("completes calls waiting on replica A with callbacks verified on replica B", async () => {
    // Replica A's public URL is replica B's own address (see beforeAll): every callback of work
    // submitted through A lands on B, never on A.
    const [a, b] = fleet.replicas;
    const health = async (r: { url: string }) => (await raw(r.url.replace(/\/mcp$/, "/healthz"))).json();
    const [a0, b0] = [await health(a), await health(b)];
    const c = await connect(a.url);
    try {
      const results = await Promise.all(
        ["", "about", "contact"].map((p) => c.client.callTool(page(siteUrl(p)))),
      );
      for (const r of results) expect(r.isError, textOf(r)).toBeFalsy();
      // Each of the 3 submissions carried a callback to B, verified there against the registration
      // A saved in Redis and announced back to A, where the calls were waiting.
      for (;;) {
        const [a1, b1] = [await health(a), await health(b)];
        if (
          b1.callbacks_delivered - b0.callbacks_delivered >= 3 &&
          a1.callbacks_from_elsewhere - a0.callbacks_from_elsewhere >= 3
        )
          break;
      }
      const [a1, b1] = [await health(a), await health(b)];
      expect(b1.callbacks_delivered - b0.callbacks_delivered).toBe(3);
      expect(a1.callbacks_delivered).toBe(a0.callbacks_delivered);
      expect(a1.callbacks_from_elsewhere - a0.callbacks_from_elsewhere).toBe(3);
    } finally {
      await c.close();
    }
  });
});

describe("fleet: resumable streams (item 6)", () => {
  it("sends a priming event with retry, and a dropped stream resumes through another replica", async () => {
    const c = await connect(fleet.url);
    try {
      await sandbox.configure({ taskLatencyMs: 2_000 });
      const stream = await postCall(fleet.url, c.transport.sessionId!, 41, page(siteUrl("about")));
      const priming = await stream.next();
      expect(priming.id).toBeTruthy();
      expect(priming.data.trim()).toBe("");
      expect(priming.retry).toBe(1000);
      stream.abort();
      const resumed = await resume(fleet.url, c.transport.sessionId!, priming.id!);
      const answer = resumed.find((e) => e.message?.id === 41);
      expect(answer?.message?.result).toBeDefined();
      expect(answer?.message?.result?.isError).toBeFalsy();
    } finally {
      await sandbox.configure({ taskLatencyMs: 300 });
      await c.close();
    }
  });
});

describe("fleet: losing a replica mid-call (item 7)", () => {
  it("answers the resumed call with the handle of the accepted work, submitted once", async () => {
    const c = await connect(fleet.url);
    const redis = new Redis(fleet.redisUrl);
    try {
      await sandbox.configure({ taskLatencyMs: 8_000 });
      const url = siteUrl("p/lost-replica");
      const stream = await postCall(fleet.url, c.transport.sessionId!, 77, page(url));
      const priming = await stream.next();
      const streamId = priming.id!.slice(0, priming.id!.lastIndexOf("_"));
      // Until the API accepted the submission (the call notes its handle on the stream).
      const meta = await until(
        () => redis.hgetall(`wd:evm:${streamId}`),
        (m) => m.handles !== undefined && m.handles !== "[]",
      );
      const handle = JSON.parse(meta.handles)[0] as { kind: string; id: string };
      let victim = fleet.replicas[0];
      for (const r of fleet.replicas) {
        const health = (await raw(r.url.replace(/\/mcp$/, "/healthz"))).json();
        if (health.replica === meta.replica) victim = r;
      }
      const submissions = async () =>
        (await sandbox.requests()).filter((q) => q.method === "POST" && q.path === "/v2/extract/async")
          .length;
      const submittedBefore = await submissions();
      victim.child.kill("SIGKILL");
      await victim.exited;
      stream.abort();
      const resumed = await resume(fleet.url, c.transport.sessionId!, priming.id!);
      const answer = resumed.find((e) => e.message?.id === 77)?.message?.result;
      expect(answer?._meta?.["web-data/error"]).toMatchObject({
        code: "replica_lost",
        resume: { tool: "get_task", arguments: { task_id: handle.id } },
      });
      await sandbox.configure({ taskLatencyMs: 300 });
      await getTaskUntilDone(c.client, handle.id);
      // Nothing the API had accepted was submitted again.
      expect(await submissions()).toBe(submittedBefore);
      expect(handle.kind).toBe("task");
    } finally {
      await sandbox.configure({ taskLatencyMs: 300 });
      redis.disconnect();
      await c.close();
    }
  }, 60_000);
});
