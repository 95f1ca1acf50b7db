/**
 * A fleet's shared state in one place (`WEBDATA_REDIS_URL`): sessions, resumable streams, MCP
 * task records, webhook registrations, and the fleet-wide rate limit per API key — one GCRA in
 * Redis (`RedisRateStore`), taken atomically on Redis's own clock, so the sum of upstream
 * requests of every replica stays within `WEBDATA_MAX_RPS` (each replica's limiter still follows
 * the `X-RateLimit-*` headers, and a 429's pause holds the key fleet-wide). Loaded only with a
 * Redis URL (see `./redis.ts`).
 */
import { randomBytes } from "node:crypto";
import type { SharedRateStore } from "../../api/rate-limiter.js";
import { credentialHasher } from "./auth/principal.js";
import type { CallbackShare, SharedRegistration } from "./callbacks.js";
import { type CallAnnouncement, type CallAnnouncer, parseAnnouncement } from "./calls.js";
import { connectShared, PREFIX, type Shared } from "./redis.js";
import { RedisEvents } from "./redis-events.js";
import { RedisOwnership } from "./redis-ownership.js";
import { RedisRateStore } from "./redis-rate-store.js";
import { RedisSessionStreams, type RedisSessionStreamsDeps } from "./redis-session-streams.js";
import { RedisSessions } from "./redis-sessions.js";
import { RedisTaskQuota } from "./redis-task-quota.js";
import { RedisTaskStore } from "./redis-tasks.js";
import type { SessionLimits } from "./sessions.js";

const CALLBACKS = `${PREFIX}callbacks`;
const CALLS = `${PREFIX}calls`;
const callbackKey = (name: string) => `${PREFIX}cb:${name}`;

export interface Fleet {
  shared: Shared;
  /** The fleet's salt of credential hashes (principals are the same on every replica). */
  salt: string;
  sessions: RedisSessions;
  events: RedisEvents;
  tasks: RedisTaskStore;
  /** Live MCP task records per principal, fleet-wide. */
  taskQuota: RedisTaskQuota;
  ownership: RedisOwnership;
  /** The fleet-wide rate limit per API key, for the API clients of this replica (`ApiServers`). */
  rateStore: SharedRateStore;
  callbackShare: CallbackShare;
  /** Cancels and session ends, to every replica (`CallRegistry`). */
  callAnnouncer: CallAnnouncer;
  onCallAnnouncement(handler: (announcement: CallAnnouncement) => void): Promise<void>;
  /** The sessions' standalone streams, told of tool list changes on every replica. */
  sessionStreams(deps: Omit<RedisSessionStreamsDeps, "events">): Promise<RedisSessionStreams>;
  /** Wakes this replica's waiters when another replica received a callback. */
  onCallback(handler: (taskId: string) => void): Promise<void>;
  close(): Promise<void>;
}

export async function joinFleet(
  url: string,
  limits: SessionLimits,
  log: (line: string) => void,
  now?: () => number,
): Promise<Fleet> {
  const shared = await connectShared(url, log);
  const { redis } = shared;
  const salt = await fleetSalt(shared);
  // The limiter's id is a plain hash of the API key: Redis names it by the keyed hash instead.
  const rateStore = new RedisRateStore(shared, { name: credentialHasher(salt), log });
  const events = new RedisEvents(shared);
  const callbackShare: CallbackShare = {
    save(name, registration, ttlMs) {
      redis.set(callbackKey(name), JSON.stringify(registration), "PX", ttlMs).catch(() => {});
    },
    async load(name) {
      const raw = await redis.get(callbackKey(name));
      return raw === null ? undefined : (JSON.parse(raw) as SharedRegistration);
    },
    publish(taskId) {
      redis.publish(CALLBACKS, taskId).catch(() => {});
    },
  };
  return {
    shared,
    salt,
    sessions: new RedisSessions(shared, limits, now),
    events,
    tasks: new RedisTaskStore(shared),
    taskQuota: new RedisTaskQuota(shared),
    ownership: new RedisOwnership(shared),
    rateStore,
    callbackShare,
    onCallback: (handler) => shared.on(CALLBACKS, handler),
    callAnnouncer: {
      publish: (announcement) => void redis.publish(CALLS, JSON.stringify(announcement)).catch(() => {}),
    },
    onCallAnnouncement: (handler) =>
      shared.on(CALLS, (text) => {
        const announcement = parseAnnouncement(text);
        if (announcement) handler(announcement);
      }),
    sessionStreams: (deps) => RedisSessionStreams.start(shared, { ...deps, events }),
    close: () => shared.close(),
  };
}

const SALT = `${PREFIX}salt`;
/** How long the salt outlives the last replica's start-up or sweep. */
export const SALT_TTL_MS = 30 * 24 * 3_600_000;

/** The fleet's salt: made by the first replica (SET NX), read by the rest, its expiry renewed. */
async function fleetSalt(shared: Shared): Promise<string> {
  const fresh = randomBytes(32).toString("base64url");
  const [, [, salt]] = (await shared.redis
    .multi()
    .set(SALT, fresh, "PX", SALT_TTL_MS, "NX")
    .get(SALT)
    .pexpire(SALT, SALT_TTL_MS)
    .exec()) as [[null, unknown], [null, string]];
  return salt;
}
