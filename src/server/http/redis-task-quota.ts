/**
 * Live MCP task records per principal for a fleet (`TaskQuota`, src/server/task-quota.ts): one
 * sorted set per principal (its id is already a keyed hash), scored by each record's expiry on
 * Redis's clock, checked and added to by one Lua script; the set expires with its last record.
 */
import { randomUUID } from "node:crypto";
import type { QuotaAnswer, TaskQuota } from "../task-quota.js";
import { PREFIX, type Shared } from "./redis.js";

/** KEYS: the owner's set. ARGV: ttl ms, max, member. Returns {1} or {0, held, ms until the oldest expires}. */
const ADD = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now)
local held = redis.call('ZCARD', KEYS[1])
if held >= tonumber(ARGV[2]) then
  local oldest = redis.call('ZRANGE', KEYS[1], 0, 0, 'WITHSCORES')
  return {0, held, math.ceil(tonumber(oldest[2]) - now)}
end
local expiry = now + tonumber(ARGV[1])
redis.call('ZADD', KEYS[1], expiry, ARGV[3])
local pttl = redis.call('PTTL', KEYS[1])
if pttl < tonumber(ARGV[1]) then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
return {1}`;

export class RedisTaskQuota implements TaskQuota {
  readonly #shared: Shared;

  constructor(shared: Shared) {
    this.#shared = shared;
  }

  async add(owner: string, ttlMs: number, max: number): Promise<QuotaAnswer> {
    const [ok, held, retryInMs] = (await this.#shared.redis.eval(
      ADD,
      1,
      `${PREFIX}tq:${owner}`,
      Math.max(1, Math.round(ttlMs)),
      max,
      randomUUID(),
    )) as [number, number?, number?];
    return ok === 1 ? { ok: true } : { ok: false, held: held ?? max, retryInMs: retryInMs ?? 0 };
  }
}
