/**
 * Shared state of a fleet (`WEBDATA_REDIS_URL`): one Redis connection for commands, one for
 * pub/sub, this replica's id and its heartbeat (`wd:replica:<id>`, a few seconds of TTL renewed
 * every second, so others can tell when it is gone). ioredis is loaded only when this module is,
 * i.e. only with a Redis URL: one process without it has no new dependency at run time.
 */
import { randomBytes } from "node:crypto";
import { Redis } from "ioredis";

export const PREFIX = "wd:";
/** Every command fails after this long without an answer (a stalled Redis must not hang calls). */
export const COMMAND_TIMEOUT_MS = 5_000;
const HEARTBEAT_MS = 1_000;
const HEARTBEAT_TTL_MS = 3_500;

export interface Shared {
  redis: Redis;
  /** Subscriber connection (subscribe only). */
  sub: Redis;
  replica: string;
  /** True while `replica`'s heartbeat key exists. */
  alive(replica: string): Promise<boolean>;
  /** A fresh connection for blocking reads; close it after use. */
  blocking(): Redis;
  /** Handlers of a pub/sub channel (subscribed on first use). */
  on(channel: string, handler: (message: string) => void): Promise<void>;
  close(): Promise<void>;
}

/** The command and pub/sub connections, connected (an unreachable Redis says which variable to check). */
async function connect(url: string, quiet: (what: string) => (error: Error) => void) {
  // Two connections plus the bounded blocking readers (`RedisEvents`): the pool is bounded.
  const options = {
    lazyConnect: true,
    maxRetriesPerRequest: 3,
    enableAutoPipelining: true,
    commandTimeout: COMMAND_TIMEOUT_MS,
  };
  const redis = new Redis(url, options);
  const sub = new Redis(url, { lazyConnect: true });
  redis.on("error", quiet("commands"));
  sub.on("error", quiet("pub/sub"));
  try {
    await redis.connect();
    await sub.connect();
  } catch (error) {
    redis.disconnect();
    sub.disconnect();
    throw new Error(
      `cannot reach Redis at WEBDATA_REDIS_URL (${error instanceof Error ? error.message : String(error)}): check the URL and that Redis is running`,
    );
  }
  return { redis, sub };
}

/** Handlers by pub/sub channel, each channel subscribed on first use. */
function channels(sub: Redis): Shared["on"] {
  const handlers = new Map<string, Set<(message: string) => void>>();
  sub.on("message", (channel: string, message: string) => {
    for (const h of handlers.get(channel) ?? []) h(message);
  });
  return async (channel, handler) => {
    let set = handlers.get(channel);
    if (!set) {
      set = new Set();
      handlers.set(channel, set);
      await sub.subscribe(channel);
    }
    set.add(handler);
  };
}

export async function connectShared(url: string, log: (line: string) => void): Promise<Shared> {
  const quiet = (what: string) => (error: Error) => log(`redis (${what}): ${error.message}`);
  const { redis, sub } = await connect(url, quiet);
  const replica = randomBytes(9).toString("base64url");
  const beat = () => redis.set(`${PREFIX}replica:${replica}`, "1", "PX", HEARTBEAT_TTL_MS).catch(() => {});
  await beat();
  const timer = setInterval(beat, HEARTBEAT_MS);
  timer.unref();
  const blockers = new Set<Redis>();
  return {
    redis,
    sub,
    replica,
    alive: async (id) => (await redis.exists(`${PREFIX}replica:${id}`)) === 1,
    blocking() {
      const conn = redis.duplicate({ enableAutoPipelining: false, commandTimeout: 2 * COMMAND_TIMEOUT_MS });
      conn.on("error", quiet("stream reader"));
      blockers.add(conn);
      conn.once("end", () => blockers.delete(conn));
      return conn;
    },
    on: channels(sub),
    async close() {
      clearInterval(timer);
      await redis.del(`${PREFIX}replica:${replica}`).catch(() => {});
      for (const conn of blockers) conn.disconnect();
      sub.disconnect();
      await redis.quit().catch(() => redis.disconnect());
    },
  };
}
