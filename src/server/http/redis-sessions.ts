/**
 * Session records in Redis, so any replica serves any session. A record is a hash with a TTL of
 * the idle timeout, renewed by every request (idle expiry = activity). Two sorted sets by last
 * activity — every session, and each credential's — carry the caps; opening checks both and
 * adds the record in one Lua script, so replicas cannot overshoot a cap together.
 */
import { randomUUID } from "node:crypto";
import { type LoggingLevel, LoggingLevelSchema } from "@modelcontextprotocol/sdk/types.js";
import { PREFIX, type Shared } from "./redis.js";
import {
  type OpenResult,
  refusals,
  type SessionLimits,
  type SessionRecord,
  type SessionStore,
} from "./sessions.js";

const ALL = `${PREFIX}sessions`;
const rec = (id: string) => `${PREFIX}s:${id}`;
const mine = (owner: string) => `${PREFIX}so:${owner}`;

/** KEYS: all, owner's, record. ARGV: now, idle ms, max, max per owner, id, owner, protocol. */
const OPEN = `
local now, idle = tonumber(ARGV[1]), tonumber(ARGV[2])
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now - idle)
redis.call('ZREMRANGEBYSCORE', KEYS[2], '-inf', now - idle)
if redis.call('ZCARD', KEYS[2]) >= tonumber(ARGV[4]) then return 2 end
if redis.call('ZCARD', KEYS[1]) >= tonumber(ARGV[3]) then return 1 end
redis.call('ZADD', KEYS[1], now, ARGV[5])
redis.call('ZADD', KEYS[2], now, ARGV[5])
redis.call('PEXPIRE', KEYS[2], idle)
redis.call('HSET', KEYS[3], 'owner', ARGV[6], 'last', now, 'protocol', ARGV[7])
redis.call('PEXPIRE', KEYS[3], idle)
return 0`;

const SET_LEVEL = `if redis.call('EXISTS', KEYS[1]) == 1 then redis.call('HSET', KEYS[1], 'level', ARGV[1]) end`;

export class RedisSessions implements SessionStore {
  readonly #shared: Shared;
  readonly #limits: SessionLimits;
  readonly #now: () => number;

  constructor(shared: Shared, limits: SessionLimits, now: () => number = Date.now) {
    this.#shared = shared;
    this.#limits = limits;
    this.#now = now;
  }

  async open(owner: string, protocol?: string): Promise<OpenResult> {
    const id = randomUUID();
    const now = this.#now();
    const { idleTimeoutMs, maxSessions, maxPerCredential } = this.#limits;
    const code = await this.#shared.redis.eval(
      OPEN,
      3,
      ALL,
      mine(owner),
      rec(id),
      now,
      idleTimeoutMs,
      maxSessions,
      maxPerCredential,
      id,
      owner,
      protocol ?? "",
    );
    if (code === 2) return refusals.ownerFull;
    if (code === 1) return refusals.full;
    return { ok: true, session: { id, owner, lastActive: now, protocol } };
  }

  async get(id: string, owner: string): Promise<SessionRecord | undefined> {
    const found = await this.#shared.redis.hmget(rec(id), "owner", "last", "protocol", "level");
    const [who, last, protocol, level] = found;
    if (who === null || last === null) return undefined;
    const lastActive = Number(last);
    // The clock given (tests) may run ahead of Redis's TTL.
    if (this.#now() - lastActive > this.#limits.idleTimeoutMs) {
      await this.delete(id);
      return undefined;
    }
    if (who !== owner) return undefined;
    const logLevel = LoggingLevelSchema.safeParse(level).data;
    return { id, owner, lastActive, protocol: protocol || undefined, ...(logLevel ? { logLevel } : {}) };
  }

  async touch(id: string): Promise<void> {
    const now = this.#now();
    const owner = await this.#shared.redis.hget(rec(id), "owner");
    if (owner === null) return;
    await this.#shared.redis
      .multi()
      .hset(rec(id), "last", now)
      .pexpire(rec(id), this.#limits.idleTimeoutMs)
      .zadd(ALL, now, id)
      .zadd(mine(owner), now, id)
      .pexpire(mine(owner), this.#limits.idleTimeoutMs)
      .exec();
  }

  async setLogLevel(id: string, level: LoggingLevel): Promise<void> {
    // Only on an existing record: HSET alone would make one without a TTL.
    await this.#shared.redis.eval(SET_LEVEL, 1, rec(id), level);
  }

  async delete(id: string): Promise<boolean> {
    const owner = await this.#shared.redis.hget(rec(id), "owner");
    const multi = this.#shared.redis.multi().del(rec(id)).zrem(ALL, id);
    if (owner !== null) multi.zrem(mine(owner), id);
    const result = await multi.exec();
    return Number(result?.[0]?.[1] ?? 0) > 0;
  }

  async sweep(): Promise<number> {
    const cutoff = this.#now() - this.#limits.idleTimeoutMs;
    const stale = await this.#shared.redis.zrangebyscore(ALL, "-inf", cutoff);
    for (const id of stale) await this.delete(id);
    return stale.length;
  }

  async count(): Promise<number> {
    return this.#shared.redis.zcount(ALL, this.#now() - this.#limits.idleTimeoutMs, "+inf");
  }

  async close(): Promise<void> {}
}
