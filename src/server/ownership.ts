/**
 * Which upstream work each principal made through this server. Under the deployment's shared API
 * key every caller reaches the same account upstream, so the server itself must keep them apart.
 * The rules are the route table's data (`work` of each route in src/api/routes.ts, read by
 * ./ownership-hook.ts); this module is where the claims are kept: this process's
 * (`MemoryOwnership`) or the fleet's (`RedisOwnership` in ./http/redis-ownership.ts). A caller
 * that brought its own key needs none of this (the key's account is its own).
 */
import { ACCOUNT_KINDS, type WorkKind as ApiWorkKind } from "../api/work.js";

/** The API's kinds of work, and `link`: a `webdata://` resource a call returned (src/server/resources.ts). */
export type WorkKind = ApiWorkKind | "link";

export interface WorkRef {
  kind: WorkKind;
  id: string;
}

export interface OwnershipStore {
  /** Records that `principal` owns these (kept `ttlMs`, the newest `maxPerPrincipal` at most). */
  claim(owner: string, refs: readonly WorkRef[]): Promise<void>;
  /** Of `refs`, those `owner` owns (in order). */
  owned(owner: string, refs: readonly WorkRef[]): Promise<WorkRef[]>;
  /**
   * Of `refs` of account-level kinds (`ACCOUNT_KINDS`), those some principal owns (in order): the
   * rest were made outside this server. Other kinds are never answered here.
   */
  claimed(refs: readonly WorkRef[]): Promise<WorkRef[]>;
  close(): Promise<void>;
}

export interface OwnershipLimits {
  /** How long a claim is kept; default 7 days. */
  ttlMs: number;
  /** Claims kept per principal (oldest out first); default 10,000. */
  maxPerPrincipal: number;
}

export const DEFAULT_OWNERSHIP_LIMITS: OwnershipLimits = {
  ttlMs: 7 * 24 * 3_600_000,
  maxPerPrincipal: 10_000,
};

export const refKey = (ref: WorkRef): string => `${ref.kind}:${ref.id}`;

export class MemoryOwnership implements OwnershipStore {
  /** Per owner: ref key → expiry (ms epoch), oldest claim first. */
  readonly #claims = new Map<string, Map<string, number>>();
  readonly #limits: OwnershipLimits;
  readonly #now: () => number;

  constructor(limits: OwnershipLimits = DEFAULT_OWNERSHIP_LIMITS, now: () => number = Date.now) {
    this.#limits = limits;
    this.#now = now;
  }

  async claim(owner: string, refs: readonly WorkRef[]): Promise<void> {
    const mine = this.#claims.get(owner) ?? new Map<string, number>();
    this.#claims.set(owner, mine);
    for (const ref of refs) {
      mine.delete(refKey(ref));
      mine.set(refKey(ref), this.#now() + this.#limits.ttlMs);
    }
    for (const key of mine.keys()) {
      if (mine.size <= this.#limits.maxPerPrincipal) break;
      mine.delete(key);
    }
  }

  async owned(owner: string, refs: readonly WorkRef[]): Promise<WorkRef[]> {
    const mine = this.#claims.get(owner);
    const now = this.#now();
    return refs.filter((ref) => (mine?.get(refKey(ref)) ?? 0) > now);
  }

  async claimed(refs: readonly WorkRef[]): Promise<WorkRef[]> {
    const now = this.#now();
    const claims = [...this.#claims.values()];
    return refs.filter(
      (ref) =>
        ref.kind !== "link" &&
        ACCOUNT_KINDS.has(ref.kind) &&
        claims.some((mine) => (mine.get(refKey(ref)) ?? 0) > now),
    );
  }

  async close(): Promise<void> {
    this.#claims.clear();
  }
}
