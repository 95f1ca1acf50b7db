/**
 * Each session's own standalone stream (a GET on `/mcp`): what the server says outside any call —
 * `notifications/tools/list_changed` — reaches the sessions it concerns, and no other. A session
 * has one live stream (a new GET replaces the old one). Events are kept in the `StreamEvents`
 * store under a stream id that names the session, so a client whose stream dropped resumes with
 * `Last-Event-ID` (and carries on on a fresh stream); for `GRACE_MS` after a drop the session's
 * events are still kept for that resume. `SessionStreams` is the interface, like the other stores:
 * `MemorySessionStreams` here (one process), `RedisSessionStreams` (`./redis-session-streams.ts`)
 * for a fleet, where a change is announced to every replica (Redis pub/sub), which brings its own
 * tool list up to date and tells the streams it holds. Both hold their open streams in `HeldStreams`.
 */
import { randomBytes } from "node:crypto";
import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";
import type { Context } from "hono";
import type { Principal } from "../../principal.js";
import { parseEventId, type StreamEvents } from "./events.js";
import { sseResponse, writeMessage } from "./sse.js";

export const TOOLS_CHANGED: JSONRPCMessage = { jsonrpc: "2.0", method: "notifications/tools/list_changed" };

/** How long a dropped stream's events are still kept for its resume (ms). */
export const GRACE_MS = 60_000;
/** A comment line this often keeps proxies from closing a quiet stream (ms). */
const KEEP_ALIVE_MS = 25_000;
const STREAM_TAG = "gs";

/** Which tool list a session sees: the server's key (`""`) or the caller's own (its key id). */
export const toolScope = (principal: Principal): string => principal.keyId ?? "";

export interface SessionStreams {
  /** Live streams on this replica. */
  readonly live: number;
  owns(lastEventId: string, sessionId: string): boolean;
  /**
   * The session's stream: the priming event (id and `retry`), what `lastEventId`'s stream kept
   * after it when resuming, then every event from now on. Replaces the session's earlier stream.
   */
  open(c: Context, sessionId: string, principal: Principal, lastEventId?: string): Promise<Response>;
  /** The tool list of `scope` changed on this replica: its sessions are told, on every replica. */
  toolsChanged(scope: string): Promise<void>;
  endSession(sessionId: string): void;
  /** Forgets streams dropped longer than the grace period ago. */
  sweep(): void;
  close(): void;
}

export interface SessionStreamsDeps {
  events: StreamEvents;
  /** The `retry` field of the priming event (ms). */
  retryMs: number;
  now?: () => number;
}

interface Held {
  session: string;
  scope: string;
  streamId: string;
  /** Writes to the open response; unset once it closed (kept for the grace period). */
  write?: (id: string, message: JSONRPCMessage) => void;
  end?: () => void;
  droppedAt?: number;
}

/** The streams held open on this replica, and what they are sent: the part every implementation shares. */
export class HeldStreams {
  readonly #deps: SessionStreamsDeps;
  readonly #held = new Map<string, Held>();
  readonly #now: () => number;

  constructor(deps: SessionStreamsDeps) {
    this.#deps = deps;
    this.#now = deps.now ?? Date.now;
  }

  get live(): number {
    let n = 0;
    for (const held of this.#held.values()) if (held.write) n += 1;
    return n;
  }

  owns(lastEventId: string, sessionId: string): boolean {
    const streamId = parseEventId(lastEventId)?.streamId ?? "";
    return streamId.startsWith(`${STREAM_TAG}.${sessionId}.`);
  }

  async open(c: Context, sessionId: string, principal: Principal, lastEventId?: string): Promise<Response> {
    const streamId = `${STREAM_TAG}.${sessionId}.${randomBytes(6).toString("hex")}`;
    const { events, retryMs } = this.#deps;
    const prime = events.primingId(streamId);
    const missed: [string, JSONRPCMessage][] = [];
    if (lastEventId && this.owns(lastEventId, sessionId)) {
      await events.replay(lastEventId, sessionId, (id, message) => void missed.push([id, message]));
    }
    this.endSession(sessionId);
    const held: Held = { session: sessionId, scope: toolScope(principal), streamId };
    this.#held.set(sessionId, held);
    return sseResponse(c, sessionId, async (stream) => {
      held.write = (id, message) => void writeMessage(stream, id, message);
      const ended = new Promise<void>((resolve) => {
        held.end = () => {
          this.#dropped(held);
          resolve();
        };
        stream.onAbort(held.end);
      });
      const keepAlive = setInterval(() => void stream.write(": keep-alive\n\n"), KEEP_ALIVE_MS);
      await stream.writeSSE({ id: prime, retry: retryMs, data: "" });
      for (const [id, message] of missed) await writeMessage(stream, id, message);
      await ended;
      clearInterval(keepAlive);
    });
  }

  #dropped(held: Held): void {
    if (!held.write) return;
    held.write = undefined;
    held.end = undefined;
    held.droppedAt = this.#now();
  }

  /** Keeps `message` in each stream of `scope` held here and writes it to those still open. */
  async send(scope: string, message: JSONRPCMessage): Promise<void> {
    this.sweep();
    const held = [...this.#held.values()].filter((h) => h.scope === scope);
    await Promise.all(
      held.map(async (h) => {
        const id = await this.#deps.events
          .forRequest(h.session)
          .store.storeEvent(h.streamId, message)
          .catch(() => undefined);
        if (id !== undefined) h.write?.(id, message);
      }),
    );
  }

  endSession(sessionId: string): void {
    const held = this.#held.get(sessionId);
    if (!held) return;
    this.#held.delete(sessionId);
    held.end?.();
  }

  sweep(): void {
    const cutoff = this.#now() - GRACE_MS;
    for (const [id, held] of this.#held) {
      if (held.droppedAt !== undefined && held.droppedAt < cutoff) this.#held.delete(id);
    }
  }

  close(): void {
    for (const id of [...this.#held.keys()]) this.endSession(id);
  }
}

/** One process: a change is told to the sessions of its scope held here, which are all of them. */
export class MemorySessionStreams extends HeldStreams implements SessionStreams {
  toolsChanged(scope: string): Promise<void> {
    return this.send(scope, TOOLS_CHANGED);
  }
}
