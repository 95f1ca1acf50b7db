/**
 * Issue 23 item 3, "the Redis connection pool is bounded": each resumed GET (a `Last-Event-ID`
 * tail of a stream still running) needs a blocking Redis reader of its own, and those readers are
 * capped; a resume past the cap is refused ("busy") instead of opening one more connection.
 * Before, every resumed GET opened its own Redis connection without a bound.
 */
import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";
import { Redis } from "ioredis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { connectShared, type Shared } from "../../src/server/http/redis.js";
import { RedisEvents } from "../../src/server/http/redis-events.js";
import { startRedis, type TestRedis } from "../helpers/redis.js";

let redis: TestRedis;
let shared: Shared;
let probe: Redis;

beforeAll(async () => {
  redis = await startRedis();
  shared = await connectShared(redis.url, () => {});
  probe = new Redis(redis.url);
});

afterAll(async () => {
  probe?.disconnect();
  await shared?.close();
  await redis?.stop();
});

/** Connections blocked in XREAD right now, as Redis lists them. */
const blockedReaders = async () => ((await probe.client("LIST")) as string).match(/cmd=xread/g)?.length ?? 0;

describe("resumed streams on Redis", () => {
  it("share a bounded number of blocking readers; a resume past it is refused", async () => {
    const events = new RedisEvents(shared, { maxReaders: 2 });
    const session = "s-readers";
    const { store } = events.forRequest(session, 1);
    const priming = await store.storeEvent("stream-live", {} as JSONRPCMessage);
    const progress = {
      jsonrpc: "2.0",
      method: "notifications/progress",
      params: { progressToken: 1, progress: 1 },
    };
    await store.storeEvent("stream-live", progress as JSONRPCMessage);
    const stop = new AbortController();
    const tail = () => events.tail(priming, session, () => {}, stop.signal);
    const running = [tail(), tail()];
    while ((await blockedReaders()) < 2) {} // each look is a Redis round trip: no sleep needed
    expect(await tail()).toBe("busy");
    expect(await blockedReaders()).toBe(2);
    stop.abort();
    expect(await Promise.all(running)).toEqual(["aborted", "aborted"]);
  });
});
