/**
 * The HTTP layer's stores, memory and Redis side by side through one contract (issue 23 items
 * 3–4, 8): sessions capped per principal with least-recently-used eviction, ownership of upstream
 * work, the sessions' standalone streams, and stream events bounded per event and per session (a result too large to replay is
 * kept as a short "read it with get_task" stand-in). Then a fleet run: every key it leaves in
 * Redis has an expiry, and an MCP task's TTL is clamped to the configured maximum.
 */
import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";
import { CreateTaskResultSchema } from "@modelcontextprotocol/sdk/types.js";
import { Context } from "hono";
import { Redis } from "ioredis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Principal } from "../../src/principal.js";
import { MemoryEvents, type ReplayLimits, type StreamEvents } from "../../src/server/http/events.js";
import { connectShared, type Shared } from "../../src/server/http/redis.js";
import { RedisEvents } from "../../src/server/http/redis-events.js";
import { RedisOwnership } from "../../src/server/http/redis-ownership.js";
import { RedisSessionStreams } from "../../src/server/http/redis-session-streams.js";
import { RedisSessions } from "../../src/server/http/redis-sessions.js";
import { MemorySessionStreams, type SessionStreams } from "../../src/server/http/session-streams.js";
import { MemorySessions, type SessionLimits, type SessionStore } from "../../src/server/http/sessions.js";
import { MemoryOwnership, type OwnershipStore } from "../../src/server/ownership.js";
import { openSse } from "../fleet/sse.js";
import { useHttpServerOn } from "../helpers/http-server.js";
import { startRedis, type TestRedis } from "../helpers/redis.js";
import { useSandbox } from "../helpers/sandbox.js";
import { connect } from "./helpers.js";

let redis: TestRedis;
let shared: Shared;
/** Further replicas' connections (closed after the file). */
const others: Shared[] = [];

beforeAll(async () => {
  redis = await startRedis();
  shared = await connectShared(redis.url, () => {});
});

afterAll(async () => {
  for (const other of others) await other.close();
  await shared?.close();
  await redis?.stop();
});

const LIMITS: SessionLimits = { idleTimeoutMs: 60_000, maxSessions: 50, maxPerPrincipal: 3 };
const REPLAY: ReplayLimits = { maxEventBytes: 2_000, maxSessionBytes: 10_000, ttlMs: 60_000 };
const alice = new Principal("alice-id", "oauth");
const bob = new Principal("bob-id", "oauth");

/** What a GET on /mcp brings the session streams (hono's request context). */
const getContext = () => new Context(new Request("http://127.0.0.1/mcp"));

/** Each reading a millisecond later: activity order is never a tie (Redis would order ties by id). */
const ticking = () => {
  let t = Date.now();
  return () => ++t;
};

const kinds = [
  {
    name: "memory",
    sessions: (): SessionStore => new MemorySessions(LIMITS, ticking()),
    ownership: (): OwnershipStore => new MemoryOwnership(),
    events: (): StreamEvents => new MemoryEvents(REPLAY),
    streams: async (events: StreamEvents): Promise<SessionStreams> =>
      new MemorySessionStreams({ events, retryMs: 1_000 }),
    /** The streams of every replica of one deployment: one process is one replica. */
    replicas: async (): Promise<SessionStreams[]> => [
      new MemorySessionStreams({ events: new MemoryEvents(REPLAY), retryMs: 1_000 }),
    ],
  },
  {
    name: "redis",
    sessions: (): SessionStore => new RedisSessions(shared, LIMITS, ticking()),
    ownership: (): OwnershipStore => new RedisOwnership(shared),
    events: (): StreamEvents => new RedisEvents(shared, REPLAY),
    streams: (events: StreamEvents): Promise<SessionStreams> =>
      RedisSessionStreams.start(shared, { events, retryMs: 1_000 }),
    /** Two replicas: each its own connections (its own replica id) to the one Redis. */
    replicas: async (): Promise<SessionStreams[]> => {
      const other = await connectShared(redis.url, () => {});
      others.push(other);
      return Promise.all(
        [shared, other].map((on) =>
          RedisSessionStreams.start(on, { events: new RedisEvents(on, REPLAY), retryMs: 1_000 }),
        ),
      );
    },
  },
];

const result = (id: number, text: string, taskId?: string): JSONRPCMessage => ({
  jsonrpc: "2.0",
  id,
  result: {
    content: [{ type: "text", text }],
    ...(taskId ? { structuredContent: { task_id: taskId } } : {}),
  },
});

/** What a resume of `stream` after its priming event replays. */
async function replay(events: StreamEvents, session: string, primingId: string): Promise<JSONRPCMessage[]> {
  const got: JSONRPCMessage[] = [];
  await events.tail(primingId, session, (_id, m) => void got.push(m), AbortSignal.timeout(5_000));
  return got;
}

describe.each(kinds)("$name stores", (kind) => {
  it("sessions: at a principal's cap its least recently used is evicted, others untouched", async () => {
    const store = kind.sessions();
    const opened: string[] = [];
    for (let i = 0; i < 3; i++) {
      const s = await store.open(alice);
      if (!s.ok) throw new Error("refused");
      opened.push(s.session.id);
    }
    const theirs = await store.open(bob);
    expect(theirs.ok).toBe(true);
    await store.touch(opened[0]);
    expect(await store.get(opened[0], alice)).toBeDefined();
    const fourth = await store.open(alice);
    expect(fourth.ok && fourth.evicted).toEqual([opened[1]]);
    expect(await store.get(opened[1], alice)).toBeUndefined();
    expect(await store.get(opened[0], alice)).toBeDefined();
    expect(await store.countOf(alice)).toBe(3);
    expect(await store.countOf(bob)).toBe(1);
    // Bound to the principal: another one does not find it.
    expect(await store.get(opened[0], bob)).toBeUndefined();
  });

  it("ownership: only the claimer owns, listings filter", async () => {
    const store = kind.ownership();
    await store.claim("alice-id", [
      { kind: "task", id: "t1" },
      { kind: "batch", id: "b1" },
    ]);
    expect(await store.owned("alice-id", [{ kind: "task", id: "t1" }])).toHaveLength(1);
    expect(await store.owned("bob-id", [{ kind: "task", id: "t1" }])).toHaveLength(0);
    // Kind matters: a task id is not a batch id.
    expect(await store.owned("alice-id", [{ kind: "batch", id: "t1" }])).toHaveLength(0);
    const listed = await store.owned("alice-id", [
      { kind: "task", id: "t0" },
      { kind: "task", id: "t1" },
    ]);
    expect(listed.map((r) => r.id)).toEqual(["t1"]);
  });

  it("ownership: an account object claimed by anyone is told from one made outside this server", async () => {
    const store = kind.ownership();
    const job = `job-${kind.name}`;
    await store.claim("alice-id", [
      { kind: "job", id: job },
      { kind: "task", id: `t-${kind.name}` },
    ]);
    const asked = [
      { kind: "job" as const, id: "job-made-outside" },
      { kind: "job" as const, id: job },
      { kind: "template" as const, id: job },
    ];
    expect((await store.claimed(asked)).map((r) => `${r.kind}:${r.id}`)).toEqual([`job:${job}`]);
    // Only account-level kinds are answered: a task is its maker's alone, never "shared".
    expect(await store.claimed([{ kind: "task", id: `t-${kind.name}` }])).toEqual([]);
  });

  it("events: an event over the bound is replayed as a short get_task stand-in", async () => {
    const events = kind.events();
    const session = `s-${kind.name}-big`;
    const { store } = events.forRequest(session, 1);
    const priming = await store.storeEvent("stream-big", {} as JSONRPCMessage);
    await store.storeEvent("stream-big", result(1, "x".repeat(50_000), "task-42"));
    const [message] = await replay(events, session, priming);
    const text = JSON.stringify(message);
    expect(text.length).toBeLessThan(1_000);
    expect(text).toMatch(/too large to replay/);
    expect(text).toContain("get_task");
    expect(text).toContain("task-42");
  });

  it("events: a session keeps a bounded number of bytes", async () => {
    const events = kind.events();
    const session = `s-${kind.name}-many`;
    const replayed: JSONRPCMessage[] = [];
    for (let i = 0; i < 10; i++) {
      const { store } = events.forRequest(session, i);
      const priming = await store.storeEvent(`stream-${kind.name}-${i}`, {} as JSONRPCMessage);
      await store.storeEvent(`stream-${kind.name}-${i}`, result(i, "y".repeat(1_800)));
      replayed.push(...(await replay(events, session, priming)));
    }
    const kept = replayed.reduce((n, m) => n + JSON.stringify(m).length, 0);
    expect(kept).toBeLessThanOrEqual(REPLAY.maxSessionBytes + 10 * 300);
    expect(JSON.stringify(replayed.at(-1))).toMatch(/too large to replay/);
    expect(JSON.stringify(replayed[0])).toContain("y".repeat(1_800));
  });
});

describe.each(kinds)("$name session streams", (kind) => {
  const replayed = async (events: StreamEvents, session: string, after: string) => {
    const ids: string[] = [];
    await events.replay(after, session, (id) => void ids.push(id));
    return ids;
  };

  it("a session's standalone stream gets its own scope's events only, kept for a resume", async () => {
    const events = kind.events();
    const streams = await kind.streams(events);
    const carol = new Principal("carol-id", "key", "carol-key");
    const sa = `sa${Date.now()}`;
    const sc = `sc${Date.now()}`;
    try {
      const a = await openSse(await streams.open(getContext(), sa, alice), new AbortController());
      const c = await openSse(await streams.open(getContext(), sc, carol), new AbortController());
      const [primeA, primeC] = [await a.next(), await c.next()];
      expect(primeA.retry).toBe(1_000);
      expect(primeA.data.trim()).toBe("");
      await streams.toolsChanged(""); // the server key's list: alice's session, not carol's
      const toA = await a.next();
      expect(toA.message).toEqual({ jsonrpc: "2.0", method: "notifications/tools/list_changed" });
      await streams.toolsChanged("carol-key");
      const toC = await c.next();
      expect(toC.message?.method).toBe("notifications/tools/list_changed");
      // Kept per stream: each session's stream holds its one event, and another's id replays nothing.
      expect(await replayed(events, sa, primeA.id!)).toEqual([toA.id]);
      expect(await replayed(events, sc, primeC.id!)).toEqual([toC.id]);
      expect(await replayed(events, sc, primeA.id!)).toEqual([]);
      expect(streams.owns(primeA.id!, sc)).toBe(false);

      // Dropped: a change meanwhile is kept, and the resume with Last-Event-ID gets it, then goes on.
      await a.cancel();
      expect(streams.live).toBe(1);
      await streams.toolsChanged("");
      const back = await openSse(await streams.open(getContext(), sa, alice, toA.id), new AbortController());
      const [primeBack, missed] = [await back.next(), await back.next()];
      expect(primeBack.data.trim()).toBe("");
      expect(missed.message?.method).toBe("notifications/tools/list_changed");
      expect(missed.id).not.toBe(toA.id);
      await streams.toolsChanged("");
      expect((await back.next()).message?.method).toBe("notifications/tools/list_changed");
      expect(streams.live).toBe(2);
      // One live stream per session: a second GET replaces the first.
      const again = await openSse(await streams.open(getContext(), sa, alice), new AbortController());
      await again.next();
      expect(await back.rest()).toEqual([]);
      expect(streams.live).toBe(2);
    } finally {
      streams.close();
      await events.endSession(sa);
      await events.endSession(sc);
      await events.close();
    }
    expect(streams.live).toBe(0);
  });
});

describe.each(kinds)("$name session streams of a deployment", (kind) => {
  it("a tool list change told on one replica reaches that scope's sessions on every replica", async () => {
    const replicas = await kind.replicas();
    const carol = new Principal("carol-id", "key", "carol-key");
    const opened = [];
    try {
      for (const [i, streams] of replicas.entries()) {
        const mine = await openSse(
          await streams.open(getContext(), `d${i}a${Date.now()}`, alice),
          new AbortController(),
        );
        const theirs = await openSse(
          await streams.open(getContext(), `d${i}c${Date.now()}`, carol),
          new AbortController(),
        );
        await mine.next();
        await theirs.next();
        opened.push({ mine, theirs });
      }
      await replicas[0].toolsChanged("");
      for (const { mine } of opened) {
        expect((await mine.next()).message?.method).toBe("notifications/tools/list_changed");
      }
      // carol's scope was not told: her streams end with nothing but their priming event.
      for (const streams of replicas) streams.close();
      for (const { theirs } of opened) expect(await theirs.rest()).toEqual([]);
    } finally {
      for (const streams of replicas) streams.close();
    }
  });
});

describe("a fleet's Redis", () => {
  const sandbox = useSandbox();
  const http = useHttpServerOn(sandbox, "wdk_keysQZXJVKWPRTMN", () => ({
    env: { WEBDATA_TASK_MAX_TTL_MS: "3600000" },
    server: { redisUrl: redis.url },
  }));

  it("leaves no key without an expiry, and clamps an MCP task's TTL", async () => {
    const c = await connect(http.url);
    try {
      await c.client.callTool({ name: "extract_page", arguments: { url: `${sandbox.siteUrl}/` } });
      await c.client.callTool({ name: "get_task", arguments: {} });
      const created = await c.client.request(
        {
          method: "tools/call",
          params: { name: "extract_page", arguments: { url: `${sandbox.siteUrl}/` }, task: { ttl: 1e13 } },
        },
        CreateTaskResultSchema,
      );
      expect(created.task.ttl).toBe(3_600_000);
      const probe = new Redis(redis.url);
      const keys = await probe.keys("wd:*");
      const forever: string[] = [];
      for (const key of keys) if ((await probe.pttl(key)) < 0) forever.push(key);
      await probe.quit();
      expect(keys.length).toBeGreaterThan(5);
      expect(forever).toEqual([]);
    } finally {
      await c.close();
    }
  });
});
