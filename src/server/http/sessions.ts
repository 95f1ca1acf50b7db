/**
 * MCP sessions of the Streamable HTTP endpoint. A session is a small record, not a live server:
 * every request runs on a fresh SDK transport and server (see `./mcp.ts`), so any replica can
 * serve any session once the record is shared (`./redis-state.ts`). A record is bound to the
 * credential that opened it (a hash of the token subject and the API key) and counts activity:
 * its last request start or end, never an open stream.
 */
import { randomUUID } from "node:crypto";
import type { LoggingLevel } from "@modelcontextprotocol/sdk/types.js";

export interface SessionRecord {
  id: string;
  /** Hash of the credential that opened the session (`credentialId`). */
  owner: string;
  /** Last request start or end (ms epoch). */
  lastActive: number;
  /** The protocol version negotiated at initialize. */
  protocol?: string;
  /**
   * The level the client last set with `logging/setLevel`: each request's server is fresh, so
   * the record carries it to the next request's server.
   */
  logLevel?: LoggingLevel;
}

export type OpenResult =
  | { ok: true; session: SessionRecord }
  | { ok: false; status: 429 | 503; message: string };

export interface SessionLimits {
  /** Closed after this long without a request; default 30 minutes. */
  idleTimeoutMs: number;
  /** Every credential together. */
  maxSessions: number;
  /** One credential. */
  maxPerCredential: number;
}

/** Where session records live: this process (`MemorySessions`) or Redis (`RedisSessions`). */
export interface SessionStore {
  open(owner: string, protocol?: string): Promise<OpenResult>;
  /** The record when it exists, is not idle past the timeout and belongs to `owner`. */
  get(id: string, owner: string): Promise<SessionRecord | undefined>;
  /** Marks activity now. */
  touch(id: string): Promise<void>;
  /** Keeps the level the client set with `logging/setLevel`. */
  setLogLevel(id: string, level: LoggingLevel): Promise<void>;
  delete(id: string): Promise<boolean>;
  /** Drops records idle past the timeout; returns how many. */
  sweep(): Promise<number>;
  count(): Promise<number>;
  close(): Promise<void>;
}

export const DEFAULT_SESSION_LIMITS: SessionLimits = {
  idleTimeoutMs: 30 * 60_000,
  maxSessions: 10_000,
  maxPerCredential: 100,
};

export const refusals = {
  full: { ok: false, status: 503, message: "Service Unavailable: too many sessions; retry later" },
  ownerFull: {
    ok: false,
    status: 429,
    message:
      "Too Many Requests: this credential holds the most sessions allowed; end unused ones with DELETE /mcp",
  },
} as const satisfies Record<string, OpenResult>;

export class MemorySessions implements SessionStore {
  readonly #records = new Map<string, SessionRecord>();
  readonly #perOwner = new Map<string, number>();
  readonly #limits: SessionLimits;
  readonly #now: () => number;

  constructor(limits: SessionLimits, now: () => number = Date.now) {
    this.#limits = limits;
    this.#now = now;
  }

  async open(owner: string, protocol?: string): Promise<OpenResult> {
    if ((this.#perOwner.get(owner) ?? 0) >= this.#limits.maxPerCredential) {
      await this.sweep();
      if ((this.#perOwner.get(owner) ?? 0) >= this.#limits.maxPerCredential) return refusals.ownerFull;
    }
    if (this.#records.size >= this.#limits.maxSessions) {
      await this.sweep();
      if (this.#records.size >= this.#limits.maxSessions) return refusals.full;
    }
    const session = { id: randomUUID(), owner, lastActive: this.#now(), protocol };
    this.#records.set(session.id, session);
    this.#perOwner.set(owner, (this.#perOwner.get(owner) ?? 0) + 1);
    return { ok: true, session };
  }

  async get(id: string, owner: string): Promise<SessionRecord | undefined> {
    const s = this.#records.get(id);
    if (!s) return undefined;
    if (this.#idle(s)) {
      this.#drop(s);
      return undefined;
    }
    return s.owner === owner ? s : undefined;
  }

  async touch(id: string): Promise<void> {
    const s = this.#records.get(id);
    if (s) s.lastActive = this.#now();
  }

  async setLogLevel(id: string, level: LoggingLevel): Promise<void> {
    const s = this.#records.get(id);
    if (s) s.logLevel = level;
  }

  async delete(id: string): Promise<boolean> {
    const s = this.#records.get(id);
    if (!s) return false;
    this.#drop(s);
    return true;
  }

  async sweep(): Promise<number> {
    let n = 0;
    for (const s of [...this.#records.values()]) {
      if (this.#idle(s)) {
        this.#drop(s);
        n += 1;
      }
    }
    return n;
  }

  async count(): Promise<number> {
    return this.#records.size;
  }

  async close(): Promise<void> {
    this.#records.clear();
    this.#perOwner.clear();
  }

  #idle(s: SessionRecord): boolean {
    return this.#now() - s.lastActive > this.#limits.idleTimeoutMs;
  }

  #drop(s: SessionRecord): void {
    this.#records.delete(s.id);
    const left = (this.#perOwner.get(s.owner) ?? 1) - 1;
    if (left <= 0) this.#perOwner.delete(s.owner);
    else this.#perOwner.set(s.owner, left);
  }
}
