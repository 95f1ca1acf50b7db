/**
 * The `RateStore` of a fleet (src/api/rate-store.ts): each key's GCRA cell in a Redis hash, taken
 * atomically by one Lua script on Redis's own clock, so every replica shares the key's slots.
 * Keys are named by a keyed hash (the fleet's salt) of the caller's key, never the key itself,
 * and expire once nothing is reserved ahead. With Redis away a slot comes from this replica's own
 * memory store (logged), so the replica alone still keeps the rate.
 */
import { MemoryRateStore, type RateRule, type RateSlot, type RateStore } from "../../api/rate-store.js";
import { PREFIX, type Shared } from "./redis.js";

/**
 * KEYS: the key's cell. ARGV: interval ms, burst, max wait ms (-1: any). Returns {1, wait ms}
 * for a slot taken, {0, ms until the next} for one further off than the max wait (nothing taken).
 * `nb` (a hold) delays every slot. The same step as `gcra()` in rate-store.ts.
 */
const TAKE = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local interval, burst, maxWait = tonumber(ARGV[1]), tonumber(ARGV[2]), tonumber(ARGV[3])
local tat = tonumber(redis.call('HGET', KEYS[1], 'tat') or '0')
local nb = tonumber(redis.call('HGET', KEYS[1], 'nb') or '0')
local slot = math.max(now, nb, tat - (burst - 1) * interval)
if maxWait >= 0 and slot - now > maxWait then return {0, math.ceil(slot - now)} end
tat = math.max(tat, slot) + interval
redis.call('HSET', KEYS[1], 'tat', tat)
redis.call('PEXPIRE', KEYS[1], math.ceil(math.max(tat, nb) - now) + 60000)
return {1, math.ceil(slot - now)}`;

/** KEYS: the key's cell. ARGV: hold until (epoch ms, this replica's clock). */
const HOLD = `
local nb = tonumber(redis.call('HGET', KEYS[1], 'nb') or '0')
if tonumber(ARGV[1]) > nb then
  redis.call('HSET', KEYS[1], 'nb', ARGV[1])
  redis.call('PEXPIRE', KEYS[1], math.max(1, tonumber(ARGV[1]) - tonumber(ARGV[2])) + 60000)
end
return 1`;

export interface RedisRateStoreOptions {
  /** The name part of a key in Redis (a keyed hash); default the key as given. */
  name?: (key: string) => string;
  /** The key prefix under `wd:`; default `rl:`. */
  prefix?: string;
  log?: (line: string) => void;
}

export class RedisRateStore implements RateStore {
  readonly #shared: Shared;
  readonly #name: (key: string) => string;
  readonly #prefix: string;
  readonly #log: (line: string) => void;
  /** Slots while Redis is away. */
  readonly #fallback = new MemoryRateStore();

  constructor(shared: Shared, options: RedisRateStoreOptions = {}) {
    this.#shared = shared;
    this.#name = options.name ?? ((key) => key);
    this.#prefix = `${PREFIX}${options.prefix ?? "rl:"}`;
    this.#log = options.log ?? (() => {});
  }

  async take(key: string, rule: RateRule, maxWaitMs = Number.POSITIVE_INFINITY): Promise<RateSlot> {
    if (!(rule.ratePerSecond > 0))
      throw new RangeError("rate must be a positive number of requests per second");
    const max = Number.isFinite(maxWaitMs) ? Math.max(0, maxWaitMs) : -1;
    try {
      const [taken, ms] = (await this.#shared.redis.eval(
        TAKE,
        1,
        this.#key(key),
        1000 / rule.ratePerSecond,
        Math.max(1, Math.floor(rule.burst)),
        max,
      )) as [number, number];
      return taken === 1 ? { taken: true, waitMs: Math.max(0, ms) } : { taken: false, retryInMs: ms };
    } catch (error) {
      this.#log(`fleet rate limit unavailable: ${error instanceof Error ? error.message : String(error)}`);
      return this.#fallback.take(key, rule, maxWaitMs);
    }
  }

  async hold(key: string, untilMs: number): Promise<void> {
    await this.#fallback.hold(key, untilMs);
    await this.#shared.redis.eval(HOLD, 1, this.#key(key), Math.round(untilMs), Date.now());
  }

  #key(key: string): string {
    return `${this.#prefix}${this.#name(key)}`;
  }
}
