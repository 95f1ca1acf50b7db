/**
 * Who owns which upstream work, for a fleet: one sorted set per principal (`wd:own:<principal>`),
 * members `kind:id` scored by their expiry, the key itself expiring with its newest claim; and one
 * sorted set of the account-level objects claimed by anyone (`wd:own-any`, same members and
 * scores), which tells one made outside this server from another principal's. A claim is one
 * pipeline; a check or a listing's filter is one `ZMSCORE`.
 */
import { ACCOUNT_KINDS } from "../../api/work.js";
import {
  DEFAULT_OWNERSHIP_LIMITS,
  type OwnershipLimits,
  type OwnershipStore,
  refKey,
  type WorkRef,
} from "../ownership.js";
import { PREFIX, type Shared } from "./redis.js";

const key = (owner: string) => `${PREFIX}own:${owner}`;
const ANY = `${PREFIX}own-any`;

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
    const account = refs.filter((ref) => ref.kind !== "link" && ACCOUNT_KINDS.has(ref.kind));
    const multi = this.#shared.redis
      .multi()
      .zadd(key(owner), ...scored)
      .zremrangebyscore(key(owner), "-inf", now)
      .zremrangebyrank(key(owner), 0, -this.#limits.maxPerPrincipal - 1)
      .pexpire(key(owner), this.#limits.ttlMs);
    if (account.length > 0) {
      multi
        .zadd(ANY, "GT", ...account.flatMap((ref) => [expires, refKey(ref)]))
        .zremrangebyscore(ANY, "-inf", now)
        .pexpire(ANY, this.#limits.ttlMs);
    }
    await multi.exec();
  }

  async owned(owner: string, refs: readonly WorkRef[]): Promise<WorkRef[]> {
    if (refs.length === 0) return [];
    const scores = await this.#shared.redis.zmscore(key(owner), ...refs.map(refKey));
    const now = this.#now();
    return refs.filter((_, i) => Number(scores[i] ?? 0) > now);
  }

  /** Only account-level kinds are indexed: any other ref is its maker's alone, so never asked here. */
  async claimed(refs: readonly WorkRef[]): Promise<WorkRef[]> {
    if (refs.length === 0) return [];
    const scores = await this.#shared.redis.zmscore(ANY, ...refs.map(refKey));
    const now = this.#now();
    return refs.filter((_, i) => Number(scores[i] ?? 0) > now);
  }

  async close(): Promise<void> {}
}
