/**
 * Resumable streams for a fleet: each call's events in a Redis stream (`XADD`), so a client whose
 * stream dropped resumes through any replica (`XRANGE` after its `Last-Event-ID`, then `XREAD
 * BLOCK` for the rest). A meta hash names the stream's session, the replica running the call, the
 * request id and what the call submitted upstream. When that replica's heartbeat is gone and the
 * call never answered, the resume answers it: with the upstream handle (continue with get_task,
 * nothing is submitted again) or, when nothing was accepted, with "call again".
 */
import type { JSONRPCMessage, RequestId } from "@modelcontextprotocol/sdk/types.js";
import {
  eventId,
  isFinal,
  notHere,
  parseEventId,
  type RequestEvents,
  type SendEvent,
  type StreamEvents,
  type TailOutcome,
  type UpstreamHandle,
} from "./events.js";
import { PREFIX, type Shared } from "./redis.js";

const data = (streamId: string) => `${PREFIX}ev:${streamId}`;
const meta = (streamId: string) => `${PREFIX}evm:${streamId}`;
const BLOCK_MS = 1_000;

export class RedisEvents implements StreamEvents {
  readonly #shared: Shared;
  readonly #ttlMs: number;

  constructor(shared: Shared, options: { ttlMs?: number } = {}) {
    this.#shared = shared;
    this.#ttlMs = options.ttlMs ?? 10 * 60_000;
  }

  forRequest(sessionId: string, requestId?: RequestId): RequestEvents {
    const { redis, replica } = this.#shared;
    let streamId: string | undefined;
    const handles: UpstreamHandle[] = [];
    const ttl = this.#ttlMs;
    return {
      store: {
        storeEvent: async (id, message) => {
          if (streamId === undefined) {
            streamId = id;
            await redis
              .multi()
              .hset(meta(id), {
                session: sessionId,
                replica,
                request: JSON.stringify(requestId ?? null),
                handles: JSON.stringify(handles),
              })
              .pexpire(meta(id), ttl)
              .exec();
          }
          const entry = await redis.xadd(data(id), "MAXLEN", "~", "2000", "*", "m", JSON.stringify(message));
          const multi = redis.multi().pexpire(data(id), ttl).pexpire(meta(id), ttl);
          if (isFinal(message)) multi.hset(meta(id), "ended", "1");
          await multi.exec();
          return eventId(id, entry as string);
        },
        replayEventsAfter: notHere,
      },
      note: (handle) => {
        handles.push(handle);
        if (streamId !== undefined) void redis.hset(meta(streamId), "handles", JSON.stringify(handles));
      },
    };
  }

  async tail(last: string, session: string, send: SendEvent, signal: AbortSignal): Promise<TailOutcome> {
    const parsed = parseEventId(last);
    if (!parsed || !/^\d+-\d+$/.test(parsed.seq)) return "unknown";
    const { redis } = this.#shared;
    const info = await redis.hgetall(meta(parsed.streamId));
    if (info.session !== session) return "unknown";
    let cursor = parsed.seq;
    const deliver = async (entries: Array<[string, string[]]>): Promise<boolean> => {
      for (const [entry, fields] of entries) {
        cursor = entry;
        const message = JSON.parse(fields[1] ?? "{}") as JSONRPCMessage;
        if (Object.keys(message).length > 0) await send(eventId(parsed.streamId, entry), message);
        if (isFinal(message)) return true;
      }
      return false;
    };
    if (await deliver(await redis.xrange(data(parsed.streamId), `(${cursor}`, "+"))) return "ended";
    const reader = this.#shared.blocking();
    const stop = () => reader.disconnect();
    signal.addEventListener("abort", stop, { once: true });
    try {
      while (!signal.aborted) {
        const read = (await reader
          .xread("BLOCK", BLOCK_MS, "STREAMS", data(parsed.streamId), cursor)
          .catch(() => null)) as Array<[string, Array<[string, string[]]>]> | null;
        if (signal.aborted) return "aborted";
        if (read && (await deliver(read[0][1]))) return "ended";
        if (!read && !(await this.#shared.alive(info.replica))) {
          // A last look: the answer may have landed just before the replica went.
          if (await deliver(await redis.xrange(data(parsed.streamId), `(${cursor}`, "+"))) return "ended";
          const now = await redis.hgetall(meta(parsed.streamId));
          await send(
            eventId(parsed.streamId, cursor),
            lostAnswer(JSON.parse(now.request ?? "null"), now.handles),
          );
          return "lost";
        }
      }
      return "aborted";
    } finally {
      signal.removeEventListener("abort", stop);
      reader.disconnect();
    }
  }

  sweep(): void {}

  async close(): Promise<void> {}
}

/** The answer to a call whose replica died: a handle to continue with, or "call again". */
function lostAnswer(id: RequestId | null, handlesJson: string | undefined): JSONRPCMessage {
  const handles = JSON.parse(handlesJson ?? "[]") as UpstreamHandle[];
  const handle = handles.at(-1);
  const text = handle
    ? `The server replica running this call stopped before it answered. The API had already accepted the work as ${handle.kind} ${handle.id}: continue with get_task ${JSON.stringify({ [`${handle.kind}_id`]: handle.id })} — do not call the tool again, that would submit the work a second time.`
    : "The server replica running this call stopped before it answered, and nothing had been accepted by the API: call the tool again.";
  return {
    jsonrpc: "2.0",
    id: id ?? 0,
    result: {
      content: [{ type: "text", text }],
      isError: true,
      _meta: {
        "web-data/error": {
          code: "replica_lost",
          retryable: !handle,
          ...(handle
            ? { resume: { tool: "get_task", arguments: { [`${handle.kind}_id`]: handle.id } } }
            : {}),
        },
      },
    },
  } as JSONRPCMessage;
}
