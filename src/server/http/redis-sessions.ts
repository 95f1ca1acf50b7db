/**
 * Session records in Redis, so any replica serves any session. A record is a hash with a TTL of
 * the idle timeout, renewed by every request (idle expiry = activity). Two sorted sets by last
 * activity — every session, and each principal's — carry the caps, each with the same TTL.
 * Opening sweeps, evicts the principal's least recently used sessions past its cap, checks the
 * global cap and adds the record in one Lua script, so replicas cannot overshoot a cap together;
 * reading a record also marks it active, in the same round trip.
 */
import { randomUUID } from "node:crypto";
import { type LoggingLevel, LoggingLevelSchema } from "@modelcontextprotocol/sdk/types.js";
import type { Principal } from "../../principal.js";
import { PREFIX, type Shared } from "./redis.js";
import {
  full,
  type OpenResult,
  type SessionLimits,
  type SessionRecord,
  type SessionStore,
} from "./sessions.js";

const ALL = `${PREFIX}sessions`;
const rec = (id: string) => `${PREFIX}s:${id}`;
const mine = (owner: string) => `${PREFIX}so:${owner}`;

/**
 * KEYS: all, principal's, record. ARGV: now, idle ms, max, max per principal, id, owner,
 * credential, protocol. Returns {0, evicted ids...} or {1, oldest activity} at the global cap.
 */
const OPEN = `
local now, idle = tonumber(ARGV[1]), tonumber(ARGV[2])
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now - idle)
redis.call('ZREMRANGEBYSCORE', KEYS[2], '-inf', now - idle)
local over = redis.call('ZCARD', KEYS[2]) - tonumber(ARGV[4]) + 1
local evicted = {}
if over > 0 then
  evicted = redis.call('ZRANGE', KEYS[2], 0, over - 1)
  for _, id in ipairs(evicted) do
    redis.call('DEL', '${PREFIX}s:' .. id)
    redis.call('ZREM', KEYS[2], id)
    redis.call('ZREM', KEYS[1], id)
  end
end
if redis.call('ZCARD', KEYS[1]) >= tonumber(ARGV[3]) then
  local oldest = redis.call('ZRANGE', KEYS[1], 0, 0, 'WITHSCORES')
  return {1, oldest[2]}
end
redis.call('ZADD', KEYS[1], now, ARGV[5])
redis.call('ZADD', KEYS[2], now, ARGV[5])
redis.call('PEXPIRE', KEYS[1], idle)
redis.call('PEXPIRE', KEYS[2], idle)
redis.call('HSET', KEYS[3], 'owner', ARGV[6], 'cred', ARGV[7], 'last', now, 'protocol', ARGV[8])
redis.call('PEXPIRE', KEYS[3], idle)
table.insert(evicted, 1, 0)
return evicted`;

/**
 * KEYS: record, all. ARGV: now, idle ms, credential. Returns the record's fields (owner, last,
 * protocol, level) when it is live and bound to the credential, marking it active; else nil.
 */
const GET = `
local f = redis.call('HMGET', KEYS[1], 'owner', 'cred', 'last', 'protocol', 'level')
if not f[1] then return nil end
local now, idle = tonumber(ARGV[1]), tonumber(ARGV[2])
if now - tonumber(f[3]) > idle then
  redis.call('DEL', KEYS[1])
  redis.call('ZREM', KEYS[2], KEYS[1])
  return nil
end
if f[2] ~= ARGV[3] then return nil end
redis.call('HSET', KEYS[1], 'last', now)
redis.call('PEXPIRE', KEYS[1], idle)
redis.call('ZADD', KEYS[2], now, string.sub(KEYS[1], ${rec("").length + 1}))
redis.call('PEXPIRE', KEYS[2], idle)
local theirs = '${PREFIX}so:' .. f[1]
redis.call('ZADD', theirs, now, string.sub(KEYS[1], ${rec("").length + 1}))
redis.call('PEXPIRE', theirs, idle)
return {f[1], f[3], f[4] or '', f[5] or ''}`;

/** KEYS: record, all. Returns 1 when the record existed. */
const DELETE = `
local owner = redis.call('HGET', KEYS[1], 'owner')
local id = string.sub(KEYS[1], ${rec("").length + 1})
redis.call('ZREM', KEYS[2], id)
if not owner then return 0 end
redis.call('ZREM', '${PREFIX}so:' .. owner, id)
redis.call('DEL', KEYS[1])
return 1`;

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

  async open(principal: Principal, protocol?: string): Promise<OpenResult> {
    const id = randomUUID();
    const now = this.#now();
    const { idleTimeoutMs, maxSessions, maxPerPrincipal } = this.#limits;
    const [code, ...rest] = (await this.#shared.redis.eval(
      OPEN,
      3,
      ALL,
      mine(principal.id),
      rec(id),
      now,
      idleTimeoutMs,
      maxSessions,
      maxPerPrincipal,
      id,
      principal.id,
      principal.credential,
      protocol ?? "",
    )) as [number, ...string[]];
    if (code === 1) return full(Number(rest[0]), this.#limits, now);
    const session = { id, owner: principal.id, credential: principal.credential, lastActive: now, protocol };
    return { ok: true, session, evicted: rest };
  }

  async get(id: string, principal: Principal): Promise<SessionRecord | undefined> {
    const found = (await this.#shared.redis.eval(
      GET,
      2,
      rec(id),
      ALL,
      this.#now(),
      this.#limits.idleTimeoutMs,
      principal.credential,
    )) as [string, string, string, string] | null;
    if (!found) return undefined;
    const [owner, last, protocol, level] = found;
    const logLevel = LoggingLevelSchema.safeParse(level).data;
    return {
      id,
      owner,
      credential: principal.credential,
      lastActive: Number(last),
      protocol: protocol || undefined,
      ...(logLevel ? { logLevel } : {}),
    };
  }

  /** Activity is marked by `get` already (one round trip per request). */
  async touch(): Promise<void> {}

  async setLogLevel(id: string, level: LoggingLevel): Promise<void> {
    // Only on an existing record: HSET alone would make one without a TTL.
    await this.#shared.redis.eval(SET_LEVEL, 1, rec(id), level);
  }

  async delete(id: string): Promise<boolean> {
    return (await this.#shared.redis.eval(DELETE, 2, rec(id), ALL)) === 1;
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

  async countOf(principal: Principal): Promise<number> {
    return this.#shared.redis.zcount(mine(principal.id), this.#now() - this.#limits.idleTimeoutMs, "+inf");
  }

  async close(): Promise<void> {}
}
