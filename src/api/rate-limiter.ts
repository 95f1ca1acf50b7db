/**
 * Client-side rate limiter, one per API key and origin in the process (see `sharedLimiter`).
 *
 * Two rules together keep a steady stream under both kinds of server limit:
 * - a small token bucket (GCRA): bursts of up to 10% of the rate, then evenly spaced requests at
 *   `rate` per second, so a token-bucket server's own bucket stays nearly full and jitter on the
 *   way there cannot empty it;
 * - a sliding window: at most `rate` requests start in any `windowMs` (a little over 1 s), so a
 *   fixed-window server never sees more than its limit in one window.
 * It also follows the server's `X-RateLimit-*` headers: the limit caps the rate; a remaining count
 * under 10% of the limit (someone else is using the key) spreads what is left until the reset;
 * none left, or a 429, holds every request until the reset or the `retry_after`.
 */
import { createHash } from "node:crypto";
import { abortedError } from "./abort.js";

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

/** Slack added to the window so jitter on the way to the server cannot bunch requests into one window. */
const DEFAULT_WINDOW_MS = 1_015;
const LOW_REMAINING_FRACTION = 0.1;
/** Burst size of the client's token bucket, as a fraction of the rate. */
const BURST_FRACTION = 0.1;
/** Server-named pauses longer than this are taken as clock skew and capped. */
const MAX_PAUSE_MS = 61_000;

export class RateLimiter {
  #rate: number;
  #configuredRate: number;
  readonly #windowMs: number;
  readonly #now: () => number;
  /** Start times of the last `rate` grants, oldest first. */
  #stamps: number[] = [];
  #queue: Waiter[] = [];
  #timer: NodeJS.Timeout | undefined;
  #timerAt = 0;
  /** No grant before this time (a 429, or no requests left until the reset). */
  #notBefore = 0;
  /** Minimum spacing while the server reports few requests left, valid until `#paceUntil`. */
  #paceMs = 0;
  #paceUntil = 0;
  #lastGrant = Number.NEGATIVE_INFINITY;
  /** GCRA theoretical arrival time of the next request. */
  #tat = 0;
  #serverResetMs = 0;
  #serverRemaining = Number.POSITIVE_INFINITY;

  constructor(ratePerSecond: number, options: { windowMs?: number; now?: () => number } = {}) {
    if (!(ratePerSecond > 0)) throw new RangeError("rate must be a positive number of requests per second");
    this.#configuredRate = ratePerSecond;
    this.#rate = ratePerSecond;
    this.#windowMs = options.windowMs ?? DEFAULT_WINDOW_MS;
    this.#now = options.now ?? Date.now;
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

  /** Resolves when a request may start; rejects with an `aborted` ApiError if `signal` aborts first. */
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

  /** Holds every request for `ms` (after a 429). */
  pauseFor(ms: number): void {
    this.#notBefore = Math.max(this.#notBefore, this.#now() + Math.min(ms, MAX_PAUSE_MS));
  }

  /** Feeds the `X-RateLimit-*` headers of a response. */
  observe(headers: RateLimitHeaders): void {
    const now = this.#now();
    if (headers.limit !== undefined && headers.limit > 0) {
      this.#rate = Math.min(this.#configuredRate, headers.limit);
    }
    const { remaining, resetEpochSec, limit } = headers;
    if (remaining === undefined || resetEpochSec === undefined) return;
    const resetMs = resetEpochSec * 1000;
    if (resetMs <= now || resetMs - now > MAX_PAUSE_MS) return;
    // Responses can arrive out of order: within one window the smallest remaining count is the truest.
    if (resetMs === this.#serverResetMs) {
      if (remaining >= this.#serverRemaining) return;
    } else if (resetMs < this.#serverResetMs) {
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
    }
    this.#pump();
  }

  /** Earliest time the next request may start. */
  #nextSlot(now: number): number {
    let slot = Math.max(now, this.#notBefore);
    const spacingMs = 1000 / this.#rate;
    const burstToleranceMs = (Math.max(1, Math.ceil(this.#rate * BURST_FRACTION)) - 1) * spacingMs;
    slot = Math.max(slot, this.#tat - burstToleranceMs);
    const capacity = Math.max(1, Math.floor(this.#rate));
    const windowMs = (this.#windowMs * capacity) / this.#rate;
    if (this.#stamps.length >= capacity) {
      slot = Math.max(slot, this.#stamps[this.#stamps.length - capacity] + windowMs);
    }
    if (this.#paceMs > 0 && slot < this.#paceUntil) {
      slot = Math.min(Math.max(slot, this.#lastGrant + this.#paceMs), Math.max(slot, this.#paceUntil));
    }
    return slot;
  }

  #pump(): void {
    while (this.#queue.length > 0) {
      const now = this.#now();
      const slot = this.#nextSlot(now);
      if (slot > now) {
        this.#schedule(slot, now);
        return;
      }
      const waiter = this.#queue.shift()!;
      if (waiter.onAbort) waiter.signal?.removeEventListener("abort", waiter.onAbort);
      this.#grant(now);
      waiter.resolve();
    }
  }

  #grant(now: number): void {
    this.#lastGrant = now;
    this.#tat = Math.max(this.#tat, now) + 1000 / this.#rate;
    this.#stamps.push(now);
    const keep = Math.max(1, Math.floor(this.#configuredRate));
    if (this.#stamps.length > keep * 2) this.#stamps.splice(0, this.#stamps.length - keep);
  }

  #schedule(at: number, now: number): void {
    if (this.#timer && this.#timerAt <= at) return;
    if (this.#timer) clearTimeout(this.#timer);
    this.#timerAt = at;
    this.#timer = setTimeout(
      () => {
        this.#timer = undefined;
        this.#pump();
      },
      Math.max(1, Math.ceil(at - now)),
    );
  }
}

const limiters = new Map<string, RateLimiter>();

/** The limiter shared by every client of this process using the same API key against the same origin. */
export function sharedLimiter(apiKey: string, origin: string, ratePerSecond: number): RateLimiter {
  const id = `${createHash("sha256").update(apiKey).digest("hex")} ${origin}`;
  let limiter = limiters.get(id);
  if (limiter) {
    limiter.lowerRate(ratePerSecond);
  } else {
    limiter = new RateLimiter(ratePerSecond);
    limiters.set(id, limiter);
  }
  return limiter;
}
