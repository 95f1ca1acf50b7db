import { describe, expect, it } from "vitest";
import {
  backoffMs,
  DEFAULT_RETRY,
  decide,
  type Failure,
  type RequestKind,
  rateLimitWaitMs,
} from "../../src/api/retry.js";

const ctx = (attempt = 1, elapsedMs = 0) => ({
  attempt,
  elapsedMs,
  options: DEFAULT_RETRY,
  random: () => 0.5,
  now: 0,
});

describe("retry policy table", () => {
  const cases: Array<[string, RequestKind, Failure, "retry" | "stop" | "stop, maybe accepted"]> = [
    ["a read is retried after a 500", "read", { status: 500 }, "retry"],
    ["a read is retried after a 502", "read", { status: 502 }, "retry"],
    ["a read is retried after a 503", "read", { status: 503 }, "retry"],
    ["a read is retried after a 504", "read", { status: 504 }, "retry"],
    ["a read is retried after a reset once sent", "read", { transport: { sent: true } }, "retry"],
    ["a read is retried after a refused connection", "read", { transport: { sent: false } }, "retry"],
    ["a read is retried after a 429", "read", { status: 429, retryAfterSec: 1 }, "retry"],
    ["a submission is retried after a 429", "submission", { status: 429, retryAfterSec: 1 }, "retry"],
    ["a submission is retried when never sent", "submission", { transport: { sent: false } }, "retry"],
    ["a submission is not re-sent after a 500", "submission", { status: 500 }, "stop, maybe accepted"],
    ["a submission is not re-sent after a 503", "submission", { status: 503 }, "stop, maybe accepted"],
    [
      "a submission is not re-sent after a reset",
      "submission",
      { transport: { sent: true } },
      "stop, maybe accepted",
    ],
    ["400 is never retried", "read", { status: 400 }, "stop"],
    ["401 is never retried", "read", { status: 401 }, "stop"],
    ["402 is never retried", "submission", { status: 402 }, "stop"],
    ["404 is never retried", "read", { status: 404 }, "stop"],
    ["422 is never retried", "submission", { status: 422 }, "stop"],
  ];
  it.each(cases)("%s", (_name, kind, failure, expected) => {
    const decision = decide(kind, failure, ctx());
    if (expected === "retry") expect(decision.retry).toBe(true);
    else {
      expect(decision.retry).toBe(false);
      if (!decision.retry) expect(decision.maybeAccepted).toBe(expected === "stop, maybe accepted");
    }
  });

  it("stops after the last attempt", () => {
    expect(decide("read", { status: 503 }, ctx(DEFAULT_RETRY.maxAttempts)).retry).toBe(false);
    expect(decide("read", { status: 503 }, ctx(DEFAULT_RETRY.maxAttempts - 1)).retry).toBe(true);
  });

  it("stops when the wait would pass the total deadline", () => {
    const decision = decide(
      "read",
      { status: 429, retryAfterSec: 10 },
      ctx(1, DEFAULT_RETRY.deadlineMs - 5_000),
    );
    expect(decision).toMatchObject({ retry: false, retryAfterMs: 10_000 });
  });
});

describe("429 waits", () => {
  it("waits what retry_after asks, which wins over X-RateLimit-Reset", () => {
    expect(rateLimitWaitMs({ status: 429, retryAfterSec: 2, resetEpochSec: 100 }, 0)).toBe(2_000);
    const decision = decide("read", { status: 429, retryAfterSec: 2, resetEpochSec: 100 }, ctx());
    expect(decision.retry && decision.delayMs).toBeGreaterThanOrEqual(2_000);
  });

  it("waits until X-RateLimit-Reset without retry_after", () => {
    expect(rateLimitWaitMs({ status: 429, resetEpochSec: 3 }, 1_000)).toBe(2_000);
  });

  it("falls back to Retry-After, then to backoff", () => {
    expect(rateLimitWaitMs({ status: 429, retryAfterHeaderSec: 4 }, 0)).toBe(4_000);
    expect(rateLimitWaitMs({ status: 429 }, 0)).toBeUndefined();
  });
});

describe("backoff", () => {
  it("is full jitter under a capped exponential ceiling", () => {
    const opts = { ...DEFAULT_RETRY, baseDelayMs: 100, maxDelayMs: 1_000 };
    expect(backoffMs(1, opts, () => 0.999)).toBeLessThan(100);
    expect(backoffMs(3, opts, () => 0.999)).toBeLessThan(400);
    expect(backoffMs(3, opts, () => 0.999)).toBeGreaterThan(390);
    expect(backoffMs(10, opts, () => 0.999)).toBeLessThan(1_000);
    expect(backoffMs(10, opts, () => 0)).toBe(0);
  });
});
