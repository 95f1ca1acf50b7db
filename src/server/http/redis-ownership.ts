/**
 * Who owns which upstream work, for a fleet: one sorted set per principal (`wd:own:<principal>`),
 * members `kind:id` scored by their expiry, the key itself expiring with its newest claim. A claim
 * is one pipeline; a check or a listing's filter is one `ZMSCORE`.
 */
import {
  DEFAULT_OWNERSHIP_LIMITS,
  type OwnershipLimits,
  type OwnershipStore,
  refKey,
  type WorkRef,
} from "../ownership.js";
import { PREFIX, type Shared } from "./redis.js";

const key = (owner: string) => `${PREFIX}own:${owner}`;

export class RedisOwnership implements OwnershipStore {
  readonly #shared: Shared;
  readonly #limits: OwnershipLimits;
  readonly #now: () => number;

  constructor(
    shared: Shared,
    limits: OwnershipLimits = DEFAULT_OWNERSHIP_LIMITS,
    now: () => number = Date.now,
  ) {
    this.#shared = shared;
    this.#limits = limits;
    this.#now = now;
  }

  async claim(owner: string, refs: readonly WorkRef[]): Promise<void> {
    if (refs.length === 0) return;
    const now = this.#now();
    const expires = now + this.#limits.ttlMs;
    const scored = refs.flatMap((ref) => [expires, refKey(ref)]);
    await this.#shared.redis
      .multi()
      .zadd(key(owner), ...scored)
      .zremrangebyscore(key(owner), "-inf", now)
      .zremrangebyrank(key(owner), 0, -this.#limits.maxPerPrincipal - 1)
      .pexpire(key(owner), this.#limits.ttlMs)
      .exec();
  }

  async owned(owner: string, refs: readonly WorkRef[]): Promise<WorkRef[]> {
    if (refs.length === 0) return [];
    const scores = await this.#shared.redis.zmscore(key(owner), ...refs.map(refKey));
    const now = this.#now();
    return refs.filter((_, i) => Number(scores[i] ?? 0) > now);
  }

  async close(): Promise<void> {}
}
