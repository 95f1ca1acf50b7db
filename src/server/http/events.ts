/**
 * Resumable streams: the events of each call's SSE stream, kept so a client whose stream drops
 * can reconnect with `Last-Event-ID` (a GET) and get what it missed, then the rest as it comes.
 * The SDK transport writes events through `forRequest(sessionId)` (its `EventStore`, which also
 * makes it send the priming event and the `retry` field); `tail()` serves the GET. A stream is
 * bound to the session that opened it; events are kept a while after the stream's last event.
 * In memory here; `./redis-state.ts` keeps them in Redis streams for a fleet.
 */
import type { EventStore } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";

export type TailOutcome = "ended" | "aborted" | "unknown" | "lost";

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

interface Stream {
  session: string;
  events: JSONRPCMessage[];
  ended: boolean;
  touched: number;
  wake: Set<() => void>;
}

export interface MemoryEventsOptions {
  /** How long a stream is kept after its last event; default 10 minutes. */
  ttlMs?: number;
  /** Streams kept at most (oldest dropped first); default 10,000. */
  maxStreams?: number;
}

export class MemoryEvents implements StreamEvents {
  readonly #streams = new Map<string, Stream>();
  readonly #ttl: number;
  readonly #max: number;

  constructor(options: MemoryEventsOptions = {}) {
    this.#ttl = options.ttlMs ?? 10 * 60_000;
    this.#max = options.maxStreams ?? 10_000;
  }

  get size(): number {
    return this.#streams.size;
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
      if (this.#streams.size >= this.#max) this.#streams.delete(this.#streams.keys().next().value as string);
      s = { session, events: [], ended: false, touched: Date.now(), wake: new Set() };
      this.#streams.set(streamId, s);
    }
    s.events.push(message);
    s.touched = Date.now();
    if (isFinal(message)) s.ended = true;
    for (const wake of [...s.wake]) wake();
    return eventId(streamId, s.events.length);
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

  /** Drops streams whose last event is older than the TTL (run by the server's sweeper). */
  sweep(): void {
    const cutoff = Date.now() - this.#ttl;
    for (const [id, s] of this.#streams)
      if (s.touched < cutoff && s.wake.size === 0) this.#streams.delete(id);
  }

  async close(): Promise<void> {
    for (const s of this.#streams.values()) for (const wake of [...s.wake]) wake();
    this.#streams.clear();
  }
}
