/**
 * Client-side rate limiter, one per API key and origin in a client runtime (`Limiters.sharedLimiter`).
 *
 * - Its slots come from a `RateStore` (rate-store.ts): a GCRA on the client, a burst of up to 10%
 *   of the rate, then requests evenly spaced at `rate` per second. Against a token-bucket server
 *   (the sandbox's kind) the server's own bucket stays about 90% full, so delays and bunching on
 *   the way there cannot empty it. The store is the limiter's own (in memory), or, within a fleet,
 *   the fleet's Redis one given to the client that uses it (`fleetThrottle`): each slot is then
 *   one of the key's fleet-wide slots, and a 429's pause holds the key fleet-wide.
 * - Waiting is fair between lanes (issue 30): each `acquire` names a lane (over HTTP, the caller's
 *   principal), each lane queues in its own FIFO, and the slots go round-robin between the lanes
 *   with waiters. One lane's burst therefore delays another lane's request by one slot per lane
 *   waiting, not by the whole burst. One slot is taken at a time, when it is due, so a fleet's
 *   store is never reserved far ahead of what this replica sends (fair per replica).
 * - The server's `X-RateLimit-*` headers steer it: the limit caps the rate; a remaining count
 *   under 10% of the limit (the end of a fixed window, or someone else using the key) spreads
 *   what is left until the reset; none left holds every request until the reset; a 429 holds
 *   every request for the wait it asks (`pauseFor`).
 * - The limiters live in a client runtime (`Limiters`), passed to the clients that share them;
 *   it keeps at most `MAX_LIMITERS`, idle ones dropped first.
 */
import { createHash } from "node:crypto";
import { type Clock, realClock } from "../clock.js";
import { abortedError } from "./abort.js";
import { MemoryRateStore, type RateStore } from "./rate-store.js";

export interface RateLimitHeaders {
  limit?: number;
  remaining?: number;
  /** Epoch seconds. */
  resetEpochSec?: number;
}

interface Waiter {
  resolve: () => void;
  reject: (err: unknown) => void;
  lane: string;
  store?: RateStore;
  signal?: AbortSignal;
  onAbort?: () => void;
}

/** Burst size of the client's bucket, as a fraction of the rate. */
const BURST_FRACTION = 0.1;
/** Under this share of the limit remaining, requests are spread until the reset. */
const LOW_REMAINING_FRACTION = 0.1;
/** Server-named pauses longer than this are taken as clock skew and capped. */
const MAX_PAUSE_MS = 61_000;

/** A fleet's store of the key's slots (the HTTP layer's Redis one): the same contract as every `RateStore`. */
export type SharedRateStore = RateStore;

/** What a request asks of a limiter before it is sent and after it is answered. */
export interface Throttle {
  /**
   * Resolves when a request may start, its turn taken round-robin between `lane`s (default `""`);
   * rejects with an `aborted` ApiError if `signal` aborts first.
   */
  acquire(signal?: AbortSignal, lane?: string): Promise<void>;
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
  /** The limiter's own slots (in memory), unless a waiter brings its fleet's store. */
  readonly #store: MemoryRateStore;
  /** Waiters by lane, each lane FIFO; the lane served next is the first (then it goes last). */
  readonly #lanes = new Map<string, Waiter[]>();
  #waiting = 0;
  #draining = false;
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
    this.#store = new MemoryRateStore(() => this.#clock.now());
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
    return (
      this.#waiting === 0 &&
      !this.#draining &&
      this.#store.idle(this.id) &&
      this.#notBefore <= this.#clock.now()
    );
  }

  /** Requests granted at once after an idle spell. */
  get burst(): number {
    return Math.max(1, Math.floor(this.#rate * BURST_FRACTION));
  }

  get clock(): Clock {
    return this.#clock;
  }

  /** Requests waiting, every lane together. */
  get waiting(): number {
    return this.#waiting;
  }

  /**
   * Resolves when a request of `lane` may start; with `store` (a fleet's), its slot is taken
   * there instead of in this limiter's own.
   */
  acquire(signal?: AbortSignal, lane = "", store?: RateStore): Promise<void> {
    if (signal?.aborted) return Promise.reject(abortedError());
    return new Promise<void>((resolve, reject) => {
      const waiter: Waiter = { resolve, reject, lane, store, signal };
      if (signal) {
        waiter.onAbort = () => {
          this.#remove(waiter);
          reject(abortedError());
        };
        signal.addEventListener("abort", waiter.onAbort, { once: true });
      }
      const queue = this.#lanes.get(lane);
      if (queue) queue.push(waiter);
      else this.#lanes.set(lane, [waiter]);
      this.#waiting += 1;
      void this.#drain();
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
  }

  /** Earliest time the next request may start by the server's word (a pause, pacing). */
  #localSlot(now: number): number {
    let slot = Math.max(now, this.#notBefore);
    if (this.#paceMs > 0 && slot < this.#paceUntil) {
      slot = Math.min(Math.max(slot, this.#lastGrant + this.#paceMs), this.#paceUntil);
    }
    return slot;
  }

  /**
   * Grants the waiters one slot at a time, round-robin between lanes: waits for what the server
   * said, takes the next slot from the store (the next waiter's fleet store, or its own), waits
   * for it, checks the server's word again, then grants. One loop at a time.
   */
  async #drain(): Promise<void> {
    if (this.#draining) return;
    this.#draining = true;
    try {
      let held = false;
      while (this.#waiting > 0) {
        const now = this.#clock.now();
        const local = this.#localSlot(now);
        if (local > now) {
          await this.#clock.sleep(Math.ceil(local - now));
          continue;
        }
        if (!held) {
          const wait = await this.#take();
          if (wait > 0) await this.#clock.sleep(Math.max(1, Math.ceil(wait)));
          held = true;
          continue;
        }
        held = false;
        this.#grant(now);
      }
    } finally {
      this.#draining = false;
    }
  }

  /** Takes the next slot; resolves with the ms until it comes. */
  async #take(): Promise<number> {
    const rule = { ratePerSecond: this.#rate, burst: this.burst };
    const next = this.#lanes.values().next().value?.[0];
    // A store that fails (it should answer from its own fallback) leaves the limiter's own.
    const slot = next?.store
      ? await next.store.take(this.id, rule).catch(() => this.#store.takeNow(this.id, rule))
      : this.#store.takeNow(this.id, rule);
    return slot.taken ? slot.waitMs : 0;
  }

  /** The first waiter of the lane whose turn it is; that lane goes to the back. */
  #grant(now: number): void {
    const [lane, queue] = this.#lanes.entries().next().value ?? [];
    if (lane === undefined || !queue) return;
    const waiter = queue.shift()!;
    this.#lanes.delete(lane);
    if (queue.length > 0) this.#lanes.set(lane, queue);
    this.#waiting -= 1;
    if (waiter.onAbort) waiter.signal?.removeEventListener("abort", waiter.onAbort);
    this.#lastGrant = now;
    waiter.resolve();
  }

  #remove(waiter: Waiter): void {
    const queue = this.#lanes.get(waiter.lane);
    const index = queue?.indexOf(waiter) ?? -1;
    if (!queue || index < 0) return;
    queue.splice(index, 1);
    if (queue.length === 0) this.#lanes.delete(waiter.lane);
    this.#waiting -= 1;
  }
}

/**
 * `limiter` within a fleet: each slot is taken in `store` (the fleet's), still one at a time and
 * round-robin between lanes, and a 429's pause holds the key for every replica. The store is the
 * client's own (its fleet's), so replicas in one process never share or drop each other's.
 */
export function fleetThrottle(limiter: RateLimiter, store: SharedRateStore): Throttle {
  if (!limiter.id) return limiter;
  return {
    acquire: (signal, lane) => limiter.acquire(signal, lane, store),
    pauseFor(ms) {
      void store.hold(limiter.id, limiter.pauseFor(ms)).catch(() => {});
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
