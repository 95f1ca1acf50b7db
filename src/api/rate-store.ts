/**
 * The one rate-limit abstraction (issue 31): a GCRA per key — up to `burst` slots at once, then
 * one every `1 / ratePerSecond` — behind one small interface, in memory here and in Redis for a
 * fleet (`src/server/http/redis-rate-store.ts`), both run through one contract test
 * (`test/http/rate-store.contract.test.ts`). Its users: the API client's limiter (which queues the
 * callers and follows the server's headers, `rate-limiter.ts`), the fleet's limit per API key (the
 * Redis store under that limiter), and the OAuth introspection limit (`maxWaitMs: 0`: a slot now
 * or a refusal).
 */

export interface RateRule {
  ratePerSecond: number;
  /** Slots granted at once after an idle spell (at least 1). */
  burst: number;
}

/** A slot taken (`waitMs` until it comes), or not taken because it is further off than allowed. */
export type RateSlot = { taken: true; waitMs: number } | { taken: false; retryInMs: number };

export interface RateStore {
  /**
   * Takes `key`'s next slot under `rule` when it comes within `maxWaitMs` (default: however far
   * off it is); a slot further off is not taken, and the answer says when one would come.
   */
  take(key: string, rule: RateRule, maxWaitMs?: number): Promise<RateSlot>;
  /** No slot of `key` starts before `untilMs` (epoch ms), for everyone using the store (after a 429). */
  hold(key: string, untilMs: number): Promise<void>;
}

interface Cell {
  /** Theoretical arrival time of the next slot. */
  tat: number;
  /** No slot before this (a hold). */
  notBefore: number;
}

/** The GCRA step both stores take (the Redis one in Lua): the slot, and the cell after taking it. */
export function gcra(
  cell: Cell,
  now: number,
  rule: RateRule,
  maxWaitMs: number,
): { slot: RateSlot; next?: Cell } {
  const interval = 1000 / rule.ratePerSecond;
  const burst = Math.max(1, Math.floor(rule.burst));
  const at = Math.max(now, cell.notBefore, cell.tat - (burst - 1) * interval);
  if (at - now > maxWaitMs) return { slot: { taken: false, retryInMs: at - now } };
  return {
    slot: { taken: true, waitMs: at - now },
    next: { tat: Math.max(cell.tat, at) + interval, notBefore: cell.notBefore },
  };
}

/** Cells kept at most; past it the idle ones (nothing reserved ahead, no hold) are dropped. */
const MAX_CELLS = 10_000;

/** The store of one process: a cell per key in a bounded map. */
export class MemoryRateStore implements RateStore {
  readonly #cells = new Map<string, Cell>();
  readonly #now: () => number;

  constructor(now: () => number = Date.now) {
    this.#now = now;
  }

  async take(key: string, rule: RateRule, maxWaitMs = Number.POSITIVE_INFINITY): Promise<RateSlot> {
    return this.takeNow(key, rule, maxWaitMs);
  }

  /** `take` without the promise (the client's limiter and the introspection limit are in process). */
  takeNow(key: string, rule: RateRule, maxWaitMs = Number.POSITIVE_INFINITY): RateSlot {
    if (!(rule.ratePerSecond > 0))
      throw new RangeError("rate must be a positive number of requests per second");
    const now = this.#now();
    const { slot, next } = gcra(this.#cells.get(key) ?? { tat: 0, notBefore: 0 }, now, rule, maxWaitMs);
    if (next) this.#set(key, next, now);
    return slot;
  }

  async hold(key: string, untilMs: number): Promise<void> {
    const cell = this.#cells.get(key) ?? { tat: 0, notBefore: 0 };
    if (untilMs > cell.notBefore) this.#set(key, { ...cell, notBefore: untilMs }, this.#now());
  }

  /** Whether `key` has nothing reserved ahead and no hold (its next `burst` slots are free now). */
  idle(key: string): boolean {
    const cell = this.#cells.get(key);
    const now = this.#now();
    return !cell || (cell.tat <= now && cell.notBefore <= now);
  }

  #set(key: string, cell: Cell, now: number): void {
    this.#cells.delete(key);
    this.#cells.set(key, cell);
    if (this.#cells.size <= MAX_CELLS) return;
    for (const [old, held] of this.#cells) {
      if (this.#cells.size <= MAX_CELLS) break;
      if (held.tat <= now && held.notBefore <= now) this.#cells.delete(old);
    }
  }
}
