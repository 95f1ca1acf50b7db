/**
 * Stateful Streamable HTTP sessions: one SDK transport and one `createServer()` per session,
 * found by the `mcp-session-id` header. Tracks open requests per session (for draining and for
 * the idle sweep) and closes sessions that stayed idle past the timeout.
 */
import { randomUUID } from "node:crypto";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import type { WebDataServer } from "../create-server.js";

export interface Session {
  id: string;
  transport: StreamableHTTPServerTransport;
  /** Requests of this session still open (tool calls, GET streams). */
  open: number;
  /** Open POST requests: the work a drain waits for. */
  posts: number;
  lastSeen: number;
  /** True when the session uses a key brought by its client. */
  ownKey: boolean;
}

export interface SessionFactoryResult {
  server: WebDataServer;
  /** Extra clean-up (e.g. the session's own API client). */
  dispose?: () => Promise<void>;
}

export interface SessionStoreOptions {
  idleTimeoutMs: number;
  maxSessions: number;
  now?: () => number;
  onError?: (message: string) => void;
}

interface Held extends Session {
  close: () => Promise<void>;
}

export class SessionStore {
  readonly #sessions = new Map<string, Held>();
  readonly #pending = new Set<Promise<void>>();
  readonly #idleWaiters = new Set<() => void>();
  readonly #options: SessionStoreOptions;
  readonly #now: () => number;

  constructor(options: SessionStoreOptions) {
    this.#options = options;
    this.#now = options.now ?? Date.now;
  }

  get size(): number {
    return this.#sessions.size;
  }

  get full(): boolean {
    return this.#sessions.size >= this.#options.maxSessions;
  }

  get(id: string): Session | undefined {
    return this.#sessions.get(id);
  }

  /** Open POST requests across all sessions. */
  get busy(): number {
    let n = 0;
    for (const s of this.#sessions.values()) n += s.posts;
    return n;
  }

  /**
   * Makes a transport + server pair. The session is stored once the SDK has answered
   * `initialize` (its `onsessioninitialized`); until then it is only reachable by this request.
   */
  async open(
    create: () => SessionFactoryResult,
    ownKey: boolean,
  ): Promise<{ transport: StreamableHTTPServerTransport; close: () => Promise<void> }> {
    const made = create();
    let held: Held | undefined;
    const transport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      onsessioninitialized: (id) => {
        held = { id, transport, open: 0, posts: 0, lastSeen: this.#now(), ownKey, close: closeAll };
        this.#sessions.set(id, held);
      },
    });
    let closing: Promise<void> | undefined;
    const closeAll = () => {
      closing ??= (async () => {
        if (held) this.#sessions.delete(held.id);
        await made.server.close().catch((e) => this.#report("server close", e));
        await transport.close().catch((e) => this.#report("transport close", e));
        await made.dispose?.().catch((e) => this.#report("session clean-up", e));
      })();
      return closing;
    };
    // DELETE, a closed transport or a closed server all end the session.
    transport.onclose = () => {
      this.#track(closeAll());
    };
    try {
      await made.server.server.connect(transport);
    } catch (error) {
      await closeAll();
      throw error;
    }
    return { transport, close: closeAll };
  }

  /** Marks a request of `session` open until `done` settles. */
  track(session: Session, kind: "post" | "other", done: Promise<unknown>): void {
    const held = session as Held;
    held.open += 1;
    if (kind === "post") held.posts += 1;
    held.lastSeen = this.#now();
    void done.finally(() => {
      held.open -= 1;
      if (kind === "post") held.posts -= 1;
      held.lastSeen = this.#now();
      if (this.busy === 0) for (const wake of [...this.#idleWaiters]) wake();
    });
  }

  /** Closes sessions with no open request that were last seen more than the timeout ago. */
  sweep(): number {
    const cutoff = this.#now() - this.#options.idleTimeoutMs;
    let closed = 0;
    for (const s of [...this.#sessions.values()]) {
      if (s.open === 0 && s.lastSeen <= cutoff) {
        closed += 1;
        this.#track(s.close());
      }
    }
    return closed;
  }

  /** Settles once no POST is open, or when `signal` aborts (whichever first). */
  whenIdle(signal: AbortSignal): Promise<void> {
    if (this.busy === 0 || signal.aborted) return Promise.resolve();
    return new Promise((resolve) => {
      const done = () => {
        this.#idleWaiters.delete(done);
        signal.removeEventListener("abort", done);
        resolve();
      };
      this.#idleWaiters.add(done);
      signal.addEventListener("abort", done, { once: true });
    });
  }

  async closeAll(): Promise<void> {
    await Promise.all([...this.#sessions.values()].map((s) => s.close()));
    await Promise.all([...this.#pending]);
  }

  #track(p: Promise<void>): void {
    this.#pending.add(p);
    void p.finally(() => this.#pending.delete(p));
  }

  #report(what: string, error: unknown): void {
    this.#options.onError?.(`${what} failed: ${error instanceof Error ? error.message : String(error)}`);
  }
}
