/**
 * Client-side rate limiter, one per API key and origin in a client runtime (`Limiters.sharedLimiter`).
 *
 * - A token bucket (GCRA) on the client: a burst of up to 10% of the rate, then requests evenly
 *   spaced at `rate` per second. Against a token-bucket server (the sandbox's kind) the server's
 *   own bucket stays about 90% full, so delays and bunching on the way there cannot empty it.
 * - The server's `X-RateLimit-*` headers steer it: the limit caps the rate; a remaining count
 *   under 10% of the limit (the end of a fixed window, or someone else using the key) spreads
 *   what is left until the reset; none left holds every request until the reset; a 429 holds
 *   every request for the wait it asks (`pauseFor`).
 * - With a `SharedRateStore` (a fleet's Redis, given to the client that uses it: `fleetThrottle`),
 *   each grant also reserves a slot in one fleet-wide GCRA per key, and a 429's pause holds the
 *   key fleet-wide.
 * - The limiters live in a client runtime (`Limiters`), passed to the clients that share them;
 *   it keeps at most `MAX_LIMITERS`, idle ones dropped first.
 */
import { createHash } from "node:crypto";
import { type Clock, realClock } from "../clock.js";
import { abortedError, sleep } from "./abort.js";

export interface RateLimitHeaders {
  limit?: number;
  remaining?: number;
  /** Epoch seconds. */
  resetEpochSec?: number;
}

interface Waiter {
  resolve: () => void;
  reject: (err: unknown) => void;
  signal?: AbortSignal;
  onAbort?: () => void;
}

/** Burst size of the client's bucket, as a fraction of the rate. */
const BURST_FRACTION = 0.1;
/** Under this share of the limit remaining, requests are spread until the reset. */
const LOW_REMAINING_FRACTION = 0.1;
/** Server-named pauses longer than this are taken as clock skew and capped. */
const MAX_PAUSE_MS = 61_000;

/** A GCRA shared by every process using a key (implemented over Redis by the HTTP layer). */
export interface SharedRateStore {
  /** Reserves the key's next slot at `ratePerSecond` with `burst`; resolves with the ms to wait for it. */
  reserve(key: string, ratePerSecond: number, burst: number): Promise<number>;
  /** Holds the key until `untilMs` (epoch ms) for everyone (after a 429). */
  hold(key: string, untilMs: number): void;
}

/** What a request asks of a limiter before it is sent and after it is answered. */
export interface Throttle {
  /** Resolves when a request may start; rejects with an `aborted` ApiError if `signal` aborts first. */
  acquire(signal?: AbortSignal): Promise<void>;
  /** Holds every request for `ms` (after a 429). */
  pauseFor(ms: number): void;
  /** Feeds the `X-RateLimit-*` headers of a response. */
  observe(headers: RateLimitHeaders): void;
}

export class RateLimiter implements Throttle {
  /** Names the key in a shared store (a hash, never the key). */
  readonly id: string;
  #configuredRate: number;
  #rate: number;
  readonly #clock: Clock;
  #queue: Waiter[] = [];
  /** Cancels the pending wake-up of the queue (one at a time, at `#timerAt`). */
  #timer: AbortController | undefined;
  #timerAt = 0;
  /** GCRA theoretical arrival time of the next request. */
  #tat = 0;
  #lastGrant = Number.NEGATIVE_INFINITY;
  /** No grant before this time (a 429, or no requests left until the reset). */
  #notBefore = 0;
  /** Spacing while the server reports few requests left, valid until `#paceUntil`. */
  #paceMs = 0;
  #paceUntil = 0;
  #serverResetMs = 0;
  #serverRemaining = Number.POSITIVE_INFINITY;

  constructor(ratePerSecond: number, options: { clock?: Clock; id?: string } = {}) {
    if (!(ratePerSecond > 0)) throw new RangeError("rate must be a positive number of requests per second");
    this.id = options.id ?? "";
    this.#configuredRate = ratePerSecond;
    this.#rate = ratePerSecond;
    this.#clock = options.clock ?? realClock;
  }

  get rate(): number {
    return this.#rate;
  }

  /** Lowers the rate (several clients sharing a key take the strictest setting). */
  lowerRate(ratePerSecond: number): void {
    if (!(ratePerSecond > 0) || ratePerSecond >= this.#configuredRate) return;
    this.#configuredRate = ratePerSecond;
    this.#rate = Math.min(this.#rate, ratePerSecond);
  }

  /** True when nothing waits and the bucket is full again (safe to drop). */
  get idle(): boolean {
    return this.#queue.length === 0 && this.#tat <= this.#clock.now() && this.#notBefore <= this.#clock.now();
  }

  /** Requests granted at once after an idle spell. */
  get burst(): number {
    return Math.max(1, Math.floor(this.#rate * BURST_FRACTION));
  }

  get clock(): Clock {
    return this.#clock;
  }

  acquire(signal?: AbortSignal): Promise<void> {
    if (signal?.aborted) return Promise.reject(abortedError());
    return new Promise<void>((resolve, reject) => {
      const waiter: Waiter = { resolve, reject, signal };
      if (signal) {
        waiter.onAbort = () => {
          const index = this.#queue.indexOf(waiter);
          if (index >= 0) this.#queue.splice(index, 1);
          reject(abortedError());
        };
        signal.addEventListener("abort", waiter.onAbort, { once: true });
      }
      this.#queue.push(waiter);
      this.#pump();
    });
  }

  /** Returns the time (epoch ms) no request starts before. */
  pauseFor(ms: number): number {
    this.#notBefore = Math.max(this.#notBefore, this.#clock.now() + Math.min(ms, MAX_PAUSE_MS));
    return this.#notBefore;
  }

  observe(headers: RateLimitHeaders): void {
    const { limit, remaining, resetEpochSec } = headers;
    if (limit !== undefined && limit > 0) this.#rate = Math.min(this.#configuredRate, limit);
    if (remaining === undefined || resetEpochSec === undefined) return;
    const now = this.#clock.now();
    const resetMs = resetEpochSec * 1000;
    if (resetMs <= now || resetMs - now > MAX_PAUSE_MS) return;
    // Responses arrive out of order: for one reset time the smallest remaining count is the truest.
    if (
      resetMs < this.#serverResetMs ||
      (resetMs === this.#serverResetMs && remaining >= this.#serverRemaining)
    ) {
      return;
    }
    this.#serverResetMs = resetMs;
    this.#serverRemaining = remaining;
    const threshold = Math.max(1, (limit ?? this.#rate) * LOW_REMAINING_FRACTION);
    if (remaining <= 0) {
      this.#notBefore = Math.max(this.#notBefore, resetMs);
    } else if (remaining < threshold) {
      this.#paceMs = (resetMs - now) / remaining;
      this.#paceUntil = resetMs;
    } else {
      this.#paceMs = 0;
    }
    this.#pump();
  }

  /** Earliest time the next request may start. */
  #nextSlot(now: number): number {
    const spacingMs = 1000 / this.#rate;
    let slot = Math.max(now, this.#notBefore, this.#tat - (this.burst - 1) * spacingMs);
    if (this.#paceMs > 0 && slot < this.#paceUntil) {
      slot = Math.min(Math.max(slot, this.#lastGrant + this.#paceMs), this.#paceUntil);
    }
    return slot;
  }

  #pump(): void {
    while (this.#queue.length > 0) {
      const now = this.#clock.now();
      const slot = this.#nextSlot(now);
      if (slot > now) {
        this.#schedule(slot, now);
        return;
      }
      const waiter = this.#queue.shift()!;
      if (waiter.onAbort) waiter.signal?.removeEventListener("abort", waiter.onAbort);
      this.#lastGrant = now;
      this.#tat = Math.max(this.#tat, now) + 1000 / this.#rate;
      waiter.resolve();
    }
  }

  #schedule(at: number, now: number): void {
    if (this.#timer && this.#timerAt <= at) return;
    this.#timer?.abort();
    const timer = new AbortController();
    this.#timer = timer;
    this.#timerAt = at;
    this.#clock.sleep(Math.max(1, Math.ceil(at - now)), timer.signal).then(
      () => {
        if (this.#timer === timer) this.#timer = undefined;
        this.#pump();
      },
      () => {},
    );
  }
}

/**
 * `limiter` within a fleet: each grant also reserves the key's next slot in `store` (waiting for
 * it), and a 429's pause holds the key for every replica. The store is the client's own (its
 * fleet's), so replicas in one process never share or drop each other's.
 */
export function fleetThrottle(limiter: RateLimiter, store: SharedRateStore): Throttle {
  if (!limiter.id) return limiter;
  return {
    async acquire(signal) {
      await limiter.acquire(signal);
      const waitMs = await store.reserve(limiter.id, limiter.rate, limiter.burst);
      if (waitMs > 0) await sleep(waitMs, signal, limiter.clock).catch(() => Promise.reject(abortedError()));
    },
    pauseFor(ms) {
      store.hold(limiter.id, limiter.pauseFor(ms));
    },
    observe: (headers) => limiter.observe(headers),
  };
}

/** Limiters one client runtime keeps; past this the least recently used idle ones are dropped. */
export const MAX_LIMITERS = 1_000;

/**
 * The limiters of one client runtime (`client-runtime.ts`), by API key and origin, least recently
 * used first: the clients given that runtime share them; nothing is held per process.
 */
export class Limiters {
  readonly #held = new Map<string, RateLimiter>();

  /** Limiters held now (tests of the bound). */
  get size(): number {
    return this.#held.size;
  }

  /**
   * The limiter shared by every client of this runtime using the same API key against the same
   * origin; a new one runs on `clock` (the first client's).
   */
  sharedLimiter(
    apiKey: string,
    origin: string,
    ratePerSecond: number,
    clock: Clock = realClock,
  ): RateLimiter {
    const limiters = this.#held;
    const id = `${createHash("sha256").update(apiKey).digest("hex")} ${origin}`;
    let limiter = limiters.get(id);
    if (limiter) {
      limiters.delete(id);
      limiter.lowerRate(ratePerSecond);
    } else {
      limiter = new RateLimiter(ratePerSecond, {
        id: createHash("sha256").update(id).digest("base64url"),
        clock,
      });
      for (const [old, held] of limiters) {
        if (limiters.size < MAX_LIMITERS) break;
        if (held.idle) limiters.delete(old);
      }
    }
    limiters.set(id, limiter);
    return limiter;
  }
}
