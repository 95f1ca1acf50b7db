/**
 * Resumable streams: the events of each call's SSE stream, kept so a client whose stream drops
 * can reconnect with `Last-Event-ID` (a GET) and get what it missed, then the rest as it comes.
 * The SDK transport writes events through `forRequest(sessionId)` (its `EventStore`, which also
 * makes it send the priming event and the `retry` field); `tail()` serves the GET. A stream is
 * bound to the session that opened it; events are kept a while after the stream's last event.
 * What is kept is bounded: an event larger than `maxEventBytes`, or one past the session's
 * `maxSessionBytes`, is kept as a short stand-in (`replayStandIn`: a result names the get_task
 * call that reads it). In memory here; `./redis-events.ts` keeps them in Redis for a fleet.
 */
import type { EventStore } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";
import { LRUCache } from "lru-cache";

/** "busy": too many resumed streams are open on this replica; the client retries (the `retry` field). */
export type TailOutcome = "ended" | "aborted" | "unknown" | "lost" | "busy";

export type SendEvent = (eventId: string, message: JSONRPCMessage) => Promise<void> | void;

/** Work the API accepted during a call (its id answers `get_task`). */
export interface UpstreamHandle {
  kind: "task" | "batch" | "crawl";
  id: string;
}

/** The events side of one POST: its transport's `EventStore`, and what the call submitted upstream. */
export interface RequestEvents {
  store: EventStore;
  /** Records a submission the API accepted (a resume elsewhere can then answer with a handle). */
  note(handle: UpstreamHandle): void;
}

export interface StreamEvents {
  /** Drops expired streams (the server's sweeper runs it). */
  sweep(): void | Promise<void>;
  /** The events of one POST of `sessionId` answering `requestId`. */
  forRequest(sessionId: string, requestId?: string | number): RequestEvents;
  /**
   * Sends the events of `lastEventId`'s stream that follow it, then new ones until the stream's
   * response is sent or `signal` aborts. "unknown": no such stream for this session.
   */
  tail(lastEventId: string, sessionId: string, send: SendEvent, signal: AbortSignal): Promise<TailOutcome>;
  /** The id of a stream's priming event (nothing is stored for it): a resume from it reads the whole stream. */
  primingId(streamId: string): string;
  /** Sends the events kept after `lastEventId` in its stream of `sessionId`, without waiting for more. */
  replay(lastEventId: string, sessionId: string, send: SendEvent): Promise<void>;
  /** The session ended: its events need not be kept (and no longer count against anything). */
  endSession(sessionId: string): void | Promise<void>;
  close(): Promise<void>;
}

/** A JSON-RPC response (result or error) ends the stream of its request. */
export const isFinal = (message: JSONRPCMessage): boolean =>
  typeof message === "object" && message !== null && ("result" in message || "error" in message);

/** The transport's own replay is never used: GETs with `Last-Event-ID` are served by `tail()`. */
export const notHere = async (): Promise<string> => {
  throw new Error("replays are served by the HTTP layer's tail()");
};

export const eventId = (streamId: string, seq: string | number) => `${streamId}_${seq}`;

export function parseEventId(id: string): { streamId: string; seq: string } | undefined {
  const at = id.lastIndexOf("_");
  if (at <= 0 || at === id.length - 1 || id.length > 200) return undefined;
  return { streamId: id.slice(0, at), seq: id.slice(at + 1) };
}

export interface ReplayLimits {
  /** The largest event kept whole (bytes of its JSON); default 256 KiB. */
  maxEventBytes: number;
  /** Bytes of events kept per session; default 4 MiB. */
  maxSessionBytes: number;
  /** How long a stream is kept after its last event; default 10 minutes. */
  ttlMs: number;
}

export const DEFAULT_REPLAY_LIMITS: ReplayLimits = {
  maxEventBytes: 256 * 1024,
  maxSessionBytes: 4 * 1024 * 1024,
  ttlMs: 10 * 60_000,
};

/** The get_task arguments that read a result again, from its structured content. */
function resumeArgs(message: JSONRPCMessage): Record<string, string> | undefined {
  const structured = "result" in message ? message.result.structuredContent : undefined;
  if (typeof structured !== "object" || structured === null) return undefined;
  for (const key of ["task_id", "batch_id", "crawl_id"] as const) {
    const id = (structured as Record<string, unknown>)[key];
    if (typeof id === "string" && id) return { [key]: id };
  }
  return undefined;
}

/**
 * What replaces an event too large to keep: for a result, a short result saying how to read it
 * (get_task with its id, when it has one); for anything else, an empty event (skipped on replay).
 */
export function replayStandIn(message: JSONRPCMessage, bytes: number): JSONRPCMessage {
  if (!("result" in message) || !("id" in message)) return {} as JSONRPCMessage;
  const args = resumeArgs(message);
  const how = args ? `read it with get_task ${JSON.stringify(args)}` : "call the tool again for a fresh copy";
  const text = `This result (${Math.ceil(bytes / 1024)} KiB) was too large to replay after the stream dropped: ${how}.`;
  return {
    jsonrpc: "2.0",
    id: message.id,
    result: {
      content: [{ type: "text", text }],
      ...(args ? { structuredContent: { status: "too_large_to_replay", ...args } } : {}),
    },
  };
}

/** The event as kept: itself, or its stand-in when it is over the event bound. */
export function keptEvent(
  message: JSONRPCMessage,
  limits: ReplayLimits,
): { json: string; full: string; standIn: string } {
  const full = JSON.stringify(message);
  const bytes = Buffer.byteLength(full);
  const standIn = JSON.stringify(replayStandIn(message, bytes));
  return { json: bytes > limits.maxEventBytes ? standIn : full, full, standIn };
}

interface Stream {
  session: string;
  events: JSONRPCMessage[];
  bytes: number;
  ended: boolean;
  touched: number;
  wake: Set<() => void>;
}

export interface MemoryEventsOptions extends Partial<ReplayLimits> {
  /** Streams kept at most (least recently written or read dropped first); default 10,000. */
  maxStreams?: number;
}

export class MemoryEvents implements StreamEvents {
  /** A stream leaving (dropped, evicted past the bound) gives its bytes back to its session. */
  readonly #streams: LRUCache<string, Stream>;
  /** Bytes kept per session. */
  readonly #bytes = new Map<string, number>();
  readonly #limits: ReplayLimits;

  constructor(options: MemoryEventsOptions = {}) {
    this.#limits = { ...DEFAULT_REPLAY_LIMITS, ...options };
    this.#streams = new LRUCache<string, Stream>({
      max: options.maxStreams ?? 10_000,
      dispose: (s, _id, reason) => {
        if (reason !== "set") this.#giveBack(s);
      },
    });
  }

  get size(): number {
    return this.#streams.size;
  }

  /** Bytes of events kept for `session` (tests, health). */
  bytesOf(session: string): number {
    return this.#bytes.get(session) ?? 0;
  }

  forRequest(sessionId: string): RequestEvents {
    return {
      store: {
        storeEvent: async (streamId, message) => this.#append(streamId, message, sessionId),
        replayEventsAfter: notHere,
      },
      // One process: the call's own work answers a resume, so handles are not needed.
      note: () => {},
    };
  }

  #append(streamId: string, message: JSONRPCMessage, session: string): string {
    let s = this.#streams.get(streamId);
    if (!s) {
      s = { session, events: [], bytes: 0, ended: false, touched: Date.now(), wake: new Set() };
      this.#streams.set(streamId, s);
    }
    const kept = keptEvent(message, this.#limits);
    const used = this.bytesOf(session);
    const json = used + kept.json.length > this.#limits.maxSessionBytes ? kept.standIn : kept.json;
    s.events.push(json === kept.full ? message : (JSON.parse(json) as JSONRPCMessage));
    s.bytes += json.length;
    this.#bytes.set(session, used + json.length);
    s.touched = Date.now();
    if (isFinal(message)) s.ended = true;
    for (const wake of [...s.wake]) wake();
    return eventId(streamId, s.events.length);
  }

  #drop(streamId: string): void {
    this.#streams.delete(streamId);
  }

  #giveBack(s: Stream): void {
    const left = this.bytesOf(s.session) - s.bytes;
    if (left > 0) this.#bytes.set(s.session, left);
    else this.#bytes.delete(s.session);
  }

  /** Forgets a session's streams (it ended). */
  endSession(session: string): void {
    for (const [id, s] of [...this.#streams.entries()]) if (s.session === session) this.#drop(id);
  }

  async tail(last: string, session: string, send: SendEvent, signal: AbortSignal): Promise<TailOutcome> {
    const parsed = parseEventId(last);
    const s = parsed ? this.#streams.get(parsed.streamId) : undefined;
    if (!parsed || !s || s.session !== session) return "unknown";
    let next = Number(parsed.seq);
    if (!Number.isInteger(next) || next < 0) return "unknown";
    for (;;) {
      while (next < s.events.length) {
        next += 1;
        const message = s.events[next - 1];
        // The priming event carries no message.
        if (Object.keys(message).length > 0) await send(eventId(parsed.streamId, next), message);
      }
      if (s.ended) return "ended";
      if (signal.aborted) return "aborted";
      await new Promise<void>((resolve) => {
        const done = () => {
          s.wake.delete(done);
          signal.removeEventListener("abort", done);
          resolve();
        };
        s.wake.add(done);
        signal.addEventListener("abort", done, { once: true });
      });
    }
  }

  primingId(streamId: string): string {
    return eventId(streamId, 0);
  }

  async replay(last: string, session: string, send: SendEvent): Promise<void> {
    await this.tail(last, session, send, AbortSignal.abort());
  }

  /** Drops streams whose last event is older than the TTL (run by the server's sweeper). */
  sweep(): void {
    const cutoff = Date.now() - this.#limits.ttlMs;
    for (const [id, s] of [...this.#streams.entries()])
      if (s.touched < cutoff && s.wake.size === 0) this.#drop(id);
  }

  async close(): Promise<void> {
    for (const s of this.#streams.values()) for (const wake of [...s.wake]) wake();
    this.#streams.clear();
    this.#bytes.clear();
  }
}
