import { beforeEach, describe, expect, it } from "vitest";
import { ApiError } from "../../src/api/errors.js";
import { Limiters, RateLimiter } from "../../src/api/rate-limiter.js";
import { ManualClock } from "../helpers/clock.js";

let clock: ManualClock;

/** Starts `n` acquisitions and records the manual clock's time each is granted. */
function acquireAll(limiter: RateLimiter, n: number): number[] {
  const grants: number[] = [];
  for (let i = 0; i < n; i++) void limiter.acquire().then(() => grants.push(clock.now()));
  return grants;
}

function maxInWindow(times: number[], windowMs: number): number {
  let best = 0;
  for (let i = 0; i < times.length; i++) {
    let j = i;
    while (j < times.length && times[j] < times[i] + windowMs) j++;
    best = Math.max(best, j - i);
  }
  return best;
}

describe("RateLimiter", () => {
  beforeEach(() => {
    clock = new ManualClock({ start: 1_000_000 });
  });

  it("bursts at most half the rate, then spaces requests evenly at the rate", async () => {
    const limiter = new RateLimiter(50, { clock });
    const grants = acquireAll(limiter, 300);
    await clock.advance(10_000);
    expect(grants).toHaveLength(300);
    expect(maxInWindow(grants, 1)).toBeLessThanOrEqual(25);
    // after the burst: never more than the rate in a second, nor two requests closer than 1/rate
    const steady = grants.slice(25);
    expect(maxInWindow(steady, 1_000)).toBeLessThanOrEqual(50);
    for (let i = 1; i < steady.length; i++) expect(steady[i] - steady[i - 1]).toBeGreaterThanOrEqual(19);
    // and it does not waste the budget: 275 requests after the burst at 50/s take about 5.5 s
    expect(grants[299] - grants[0]).toBeLessThan(6_000);
  });

  it("keeps a token-bucket server at least half full", async () => {
    // Simulates the server's bucket (capacity = rate, refilled continuously) under a long stream.
    const rate = 83;
    const limiter = new RateLimiter(rate, { clock });
    const grants = acquireAll(limiter, 1_000);
    await clock.advance(15_000);
    let tokens = rate;
    let last = grants[0];
    let lowest = tokens;
    for (const at of grants) {
      tokens = Math.min(rate, tokens + ((at - last) / 1000) * rate) - 1;
      last = at;
      lowest = Math.min(lowest, tokens);
    }
    expect(lowest).toBeGreaterThanOrEqual(rate / 2 - 2);
  });

  it("holds every request until the reset when the server reports none remaining", async () => {
    const limiter = new RateLimiter(50, { clock });
    const resetAt = clock.now() + 3_000;
    limiter.observe({ limit: 50, remaining: 0, resetEpochSec: Math.ceil(resetAt / 1000) });
    const grants = acquireAll(limiter, 3);
    await clock.advance(2_000);
    expect(grants).toHaveLength(0);
    await clock.advance(2_000);
    expect(grants).toHaveLength(3);
    expect(grants[0]).toBeGreaterThanOrEqual(Math.ceil(resetAt / 1000) * 1000);
  });

  it("spreads a low remaining count until the reset", async () => {
    const limiter = new RateLimiter(100, { clock });
    const reset = Math.ceil((clock.now() + 2_000) / 1000);
    limiter.observe({ limit: 100, remaining: 4, resetEpochSec: reset });
    const grants = acquireAll(limiter, 4);
    await clock.advance(5_000);
    expect(grants).toHaveLength(4);
    // 4 requests over the time to the reset: consecutive grants are well apart
    for (let i = 1; i < grants.length; i++) expect(grants[i] - grants[i - 1]).toBeGreaterThanOrEqual(300);
  });

  it("lowers its rate to the server's X-RateLimit-Limit", async () => {
    const limiter = new RateLimiter(83, { clock });
    limiter.observe({ limit: 10, remaining: 10, resetEpochSec: Math.ceil(clock.now() / 1000) + 1 });
    expect(limiter.rate).toBe(10);
  });

  it("pauses after a 429 for the time asked", async () => {
    const limiter = new RateLimiter(50, { clock });
    limiter.pauseFor(1_500);
    const grants = acquireAll(limiter, 1);
    await clock.advance(1_400);
    expect(grants).toHaveLength(0);
    await clock.advance(200);
    expect(grants).toHaveLength(1);
  });

  it("rejects a cancelled acquisition with an aborted ApiError and grants the others", async () => {
    const limiter = new RateLimiter(1, { clock });
    await limiter.acquire();
    const controller = new AbortController();
    const cancelled = limiter.acquire(controller.signal);
    const next = limiter.acquire();
    controller.abort();
    await expect(cancelled).rejects.toMatchObject({ code: "aborted" });
    await expect(cancelled).rejects.toBeInstanceOf(ApiError);
    await clock.advance(1_100);
    await expect(next).resolves.toBeUndefined();
  });
});

describe("RateLimiter lanes (issue 30: fair for every tool)", () => {
  beforeEach(() => {
    clock = new ManualClock({ start: 1_000_000 });
  });

  it("serves another lane's request within a slot or two of a burst queued in one lane", async () => {
    const limiter = new RateLimiter(10, { clock });
    const order: string[] = [];
    const take = (lane: string, n: number) => {
      for (let i = 0; i < n; i++) void limiter.acquire(undefined, lane).then(() => order.push(lane));
    };
    take("alice", 50);
    await clock.advance(250);
    const servedBefore = order.length;
    take("bob", 1);
    take("carol", 2);
    await clock.advance(1_000);
    // FIFO would put bob behind all 50 of alice's; round-robin gives bob the next slot but one.
    expect(order).toContain("bob");
    expect(order.indexOf("bob") - servedBefore).toBeLessThanOrEqual(2);
    expect(order.slice(servedBefore, servedBefore + 6).sort()).toEqual(
      ["alice", "alice", "bob", "carol", "carol", "alice"].sort(),
    );
    await clock.advance(10_000);
    expect(order.filter((lane) => lane === "alice")).toHaveLength(50);
  });

  it("keeps the key's rate whatever the lanes: lanes share the slots, they add none", async () => {
    const limiter = new RateLimiter(50, { clock });
    const grants: number[] = [];
    for (let i = 0; i < 200; i++)
      void limiter.acquire(undefined, `lane-${i % 7}`).then(() => grants.push(clock.now()));
    await clock.advance(10_000);
    expect(grants).toHaveLength(200);
    expect(maxInWindow(grants.slice(5), 1_000)).toBeLessThanOrEqual(50);
  });
});

describe("sharedLimiter", () => {
  it("is one limiter per key and origin in a runtime, with the strictest rate; none across runtimes", () => {
    const limiters = new Limiters();
    const a = limiters.sharedLimiter("key-one-12345", "http://127.0.0.1:1", 83);
    const b = limiters.sharedLimiter("key-one-12345", "http://127.0.0.1:1", 40);
    const c = limiters.sharedLimiter("key-two-12345", "http://127.0.0.1:1", 83);
    const d = limiters.sharedLimiter("key-one-12345", "http://127.0.0.1:2", 83);
    expect(b).toBe(a);
    expect(a.rate).toBe(40);
    expect(c).not.toBe(a);
    expect(d).not.toBe(a);
    expect(new Limiters().sharedLimiter("key-one-12345", "http://127.0.0.1:1", 83)).not.toBe(a);
  });
});
