/**
 * The one rate-limit abstraction (issue 31), memory and Redis through one contract: a GCRA per
 * key — `burst` slots at once, then one per interval — with a hold (a 429's pause) and a refusal
 * past `maxWaitMs` that takes nothing. Then the count of live MCP task records per principal
 * (issue 30), the same way. Intervals are 100 s, so the milliseconds a test run takes
 * between two calls never decide an assertion (no timing).
 */
import { Redis } from "ioredis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MemoryRateStore, type RateSlot, type RateStore } from "../../src/api/rate-store.js";
import { connectShared, type Shared } from "../../src/server/http/redis.js";
import { RedisRateStore } from "../../src/server/http/redis-rate-store.js";
import { RedisTaskQuota } from "../../src/server/http/redis-task-quota.js";
import { MemoryTaskQuota, type TaskQuota } from "../../src/server/task-quota.js";
import { startRedis, type TestRedis } from "../helpers/redis.js";

let redis: TestRedis;
let shared: Shared;

beforeAll(async () => {
  redis = await startRedis();
  shared = await connectShared(redis.url, () => {});
});

afterAll(async () => {
  await shared?.close();
  await redis?.stop();
});

/** One slot per 100 s, 3 at once. */
const SLOW = { ratePerSecond: 0.01, burst: 3 };
const INTERVAL = 100_000;
let n = 0;
const freshKey = () => `contract-${++n}`;
const wait = (slot: RateSlot) => (slot.taken ? slot.waitMs : Number.NaN);

const kinds: Array<{ name: string; store: () => RateStore }> = [
  { name: "memory", store: () => new MemoryRateStore() },
  { name: "redis", store: () => new RedisRateStore(shared, { prefix: "rl-contract:" }) },
];

describe.each(kinds)("rate store ($name)", ({ name, store: make }) => {
  it("grants the burst at once, then one slot per interval", async () => {
    const store = make();
    const key = freshKey();
    const burst = [];
    for (let i = 0; i < 3; i++) burst.push(await store.take(key, SLOW));
    expect(burst.map(wait)).toEqual([0, 0, 0]);
    const fourth = wait(await store.take(key, SLOW));
    const fifth = wait(await store.take(key, SLOW));
    expect(fourth).toBeGreaterThan(INTERVAL - 5_000);
    expect(fourth).toBeLessThanOrEqual(INTERVAL);
    expect(fifth - fourth).toBeGreaterThan(INTERVAL - 5_000);
    expect(fifth - fourth).toBeLessThanOrEqual(INTERVAL + 5_000);
  });

  it("refuses a slot further off than maxWaitMs, says when one comes, and takes nothing", async () => {
    const store = make();
    const key = freshKey();
    for (let i = 0; i < 3; i++) expect((await store.take(key, SLOW, 0)).taken).toBe(true);
    const refused = await store.take(key, SLOW, 0);
    expect(refused.taken).toBe(false);
    expect(refused.taken ? 0 : refused.retryInMs).toBeGreaterThan(INTERVAL - 5_000);
    // Nothing was taken by the refusal: the next slot is still the first one after the burst.
    const next = wait(await store.take(key, SLOW));
    expect(next).toBeLessThanOrEqual(INTERVAL);
  });

  it("holds a key until the time given, for every later taker", async () => {
    const store = make();
    const key = freshKey();
    await store.hold(key, Date.now() + 50_000);
    const held = wait(await store.take(key, SLOW));
    expect(held).toBeGreaterThan(45_000);
    expect(held).toBeLessThanOrEqual(50_000);
  });

  it("keeps keys apart", async () => {
    const store = make();
    const [a, b] = [freshKey(), freshKey()];
    for (let i = 0; i < 3; i++) await store.take(a, SLOW);
    expect(wait(await store.take(b, SLOW))).toBe(0);
  });

  it("refuses a rate that is not positive", async () => {
    await expect(make().take(freshKey(), { ratePerSecond: 0, burst: 1 })).rejects.toThrow(/positive/);
  });

  if (name === "redis") {
    it("shares a key's slots between stores on one Redis (replicas), and every cell expires", async () => {
      const replicaA = make();
      const replicaB = new RedisRateStore(shared, { prefix: "rl-contract:" });
      const key = freshKey();
      for (let i = 0; i < 3; i++) await replicaA.take(key, SLOW);
      expect(wait(await replicaB.take(key, SLOW))).toBeGreaterThan(INTERVAL - 5_000);
      const probe = new Redis(redis.url);
      try {
        const keys = await probe.keys("wd:rl-contract:*");
        expect(keys.length).toBeGreaterThan(0);
        for (const k of keys) expect(await probe.pttl(k), k).toBeGreaterThan(0);
      } finally {
        probe.disconnect();
      }
    });
  }
});

const quotas: Array<{ name: string; quota: () => TaskQuota }> = [
  { name: "memory", quota: () => new MemoryTaskQuota() },
  { name: "redis", quota: () => new RedisTaskQuota(shared) },
];

/** Live MCP task records per principal (issue 30 item 3), memory and Redis through one contract. */
describe.each(quotas)("task quota ($name)", ({ quota: make }) => {
  it("counts a principal's live records up to the cap, then refuses with when its oldest expires", async () => {
    const quota = make();
    const owner = `owner-${++n}`;
    for (let i = 0; i < 3; i++) expect(await quota.add(owner, 100_000, 3)).toEqual({ ok: true });
    const refused = await quota.add(owner, 100_000, 3);
    expect(refused.ok).toBe(false);
    if (refused.ok) return;
    expect(refused.held).toBe(3);
    expect(refused.retryInMs).toBeGreaterThan(90_000);
    expect(refused.retryInMs).toBeLessThanOrEqual(100_000);
    expect(await quota.add(`other-${n}`, 100_000, 3)).toEqual({ ok: true });
  });

  it("stops counting a record once its TTL has ended", async () => {
    const quota = make();
    const owner = `owner-${++n}`;
    expect(await quota.add(owner, 1, 1)).toEqual({ ok: true });
    // A 1 ms record: poll until it has expired (each look is a call, no sleep).
    let answer = await quota.add(owner, 100_000, 1);
    while (!answer.ok) answer = await quota.add(owner, 100_000, 1);
    expect(answer).toEqual({ ok: true });
  });
});
