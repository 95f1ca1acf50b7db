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
  DEFAULT_REPLAY_LIMITS,
  eventId,
  isFinal,
  keptEvent,
  notHere,
  parseEventId,
  type ReplayLimits,
  type RequestEvents,
  type SendEvent,
  type StreamEvents,
  type TailOutcome,
  type UpstreamHandle,
} from "./events.js";
import { PREFIX, type Shared } from "./redis.js";

const data = (streamId: string) => `${PREFIX}ev:${streamId}`;
const meta = (streamId: string) => `${PREFIX}evm:${streamId}`;
const sessionBytes = (session: string) => `${PREFIX}evb:${session}`;
const BLOCK_MS = 1_000;
/** The id of every stream's priming event: before any entry, so a resume from it reads them all. */
const PRIMING_SEQ = "0-0";
/** How long a resume from the priming event waits for the call's first event. */
const FIRST_EVENT_WAIT_MS = 10_000;

/**
 * One event, one round trip. KEYS: stream, meta, session bytes. ARGV: session, replica, request
 * id JSON, handles JSON, event JSON, its stand-in JSON, final "1"/"", ttl ms, max session bytes.
 * Past the session's bytes the stand-in is kept instead. Returns the entry id.
 */
const STORE = `
local msg = ARGV[5]
local used = tonumber(redis.call('GET', KEYS[3]) or '0')
if used + string.len(msg) > tonumber(ARGV[9]) then msg = ARGV[6] end
if redis.call('EXISTS', KEYS[2]) == 0 then
  redis.call('HSET', KEYS[2], 'session', ARGV[1], 'replica', ARGV[2], 'request', ARGV[3], 'handles', ARGV[4])
end
if ARGV[7] == '1' then redis.call('HSET', KEYS[2], 'ended', '1') end
local id = redis.call('XADD', KEYS[1], 'MAXLEN', '~', '2000', '*', 'm', msg)
redis.call('INCRBY', KEYS[3], string.len(msg))
local ttl = tonumber(ARGV[8])
redis.call('PEXPIRE', KEYS[1], ttl)
redis.call('PEXPIRE', KEYS[2], ttl)
redis.call('PEXPIRE', KEYS[3], ttl)
return id`;

export interface RedisEventsOptions extends Partial<ReplayLimits> {
  /** Blocking readers (resumed streams) open at once; default 64. A resume past it is refused. */
  maxReaders?: number;
}

export class RedisEvents implements StreamEvents {
  readonly #shared: Shared;
  readonly #limits: ReplayLimits;
  readonly #maxReaders: number;
  #readers = 0;

  constructor(shared: Shared, options: RedisEventsOptions = {}) {
    this.#shared = shared;
    this.#limits = { ...DEFAULT_REPLAY_LIMITS, ...options };
    this.#maxReaders = options.maxReaders ?? 64;
  }

  forRequest(sessionId: string, requestId?: RequestId): RequestEvents {
    const { redis, replica } = this.#shared;
    let streamId: string | undefined;
    const handles: UpstreamHandle[] = [];
    const limits = this.#limits;
    return {
      store: {
        storeEvent: async (id, message) => {
          streamId ??= id;
          // The priming event costs no round trip: the stream's meta is written with its first
          // real event (or the first accepted submission), and a resume from it reads from the start.
          if (Object.keys(message).length === 0) return eventId(id, PRIMING_SEQ);
          const kept = keptEvent(message, limits);
          const entry = await redis.eval(
            STORE,
            3,
            data(id),
            meta(id),
            sessionBytes(sessionId),
            sessionId,
            replica,
            JSON.stringify(requestId ?? null),
            JSON.stringify(handles),
            kept.json,
            kept.standIn,
            isFinal(message) ? "1" : "",
            limits.ttlMs,
            limits.maxSessionBytes,
          );
          return eventId(id, String(entry));
        },
        replayEventsAfter: notHere,
      },
      note: (handle) => {
        handles.push(handle);
        if (streamId === undefined) return;
        const fields = { session: sessionId, replica, request: JSON.stringify(requestId ?? null) };
        void redis
          .multi()
          .hset(meta(streamId), { ...fields, handles: JSON.stringify(handles) })
          .pexpire(meta(streamId), limits.ttlMs)
          .exec()
          .catch(() => {});
      },
    };
  }

  async endSession(sessionId: string): Promise<void> {
    await this.#shared.redis.del(sessionBytes(sessionId));
  }

  async tail(last: string, session: string, send: SendEvent, signal: AbortSignal): Promise<TailOutcome> {
    const parsed = parseEventId(last);
    if (!parsed || !/^\d+-\d+$/.test(parsed.seq)) return "unknown";
    const { redis } = this.#shared;
    const info = await this.#meta(parsed.streamId, parsed.seq, signal);
    if (info?.session !== session) return "unknown";
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
    if (this.#readers >= this.#maxReaders) return "busy";
    this.#readers += 1;
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
      this.#readers -= 1;
    }
  }

  primingId(streamId: string): string {
    return eventId(streamId, PRIMING_SEQ);
  }

  async replay(last: string, session: string, send: SendEvent): Promise<void> {
    const parsed = parseEventId(last);
    if (!parsed || !/^\d+-\d+$/.test(parsed.seq)) return;
    const [[, owner], [, entries]] = (await this.#shared.redis
      .multi()
      .hget(meta(parsed.streamId), "session")
      .xrange(data(parsed.streamId), `(${parsed.seq}`, "+")
      .exec()) as [[null, string | null], [null, Array<[string, string[]]>]];
    if (owner !== session) return;
    for (const [entry, fields] of entries) {
      const message = JSON.parse(fields[1] ?? "{}") as JSONRPCMessage;
      if (Object.keys(message).length > 0) await send(eventId(parsed.streamId, entry), message);
    }
  }

  /**
   * The stream's meta. Resumed from its priming event, a call may not have stored anything yet:
   * wait a while for its first event before calling the stream unknown.
   */
  async #meta(
    streamId: string,
    seq: string,
    signal: AbortSignal,
  ): Promise<Record<string, string> | undefined> {
    const waitUntil = Date.now() + (seq === PRIMING_SEQ ? FIRST_EVENT_WAIT_MS : 0);
    for (;;) {
      const info = await this.#shared.redis.hgetall(meta(streamId));
      if (info.session !== undefined) return info;
      if (signal.aborted || Date.now() >= waitUntil) return undefined;
      await new Promise((resolve) => setTimeout(resolve, 100));
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
