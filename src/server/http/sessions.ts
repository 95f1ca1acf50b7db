/**
 * MCP sessions of the Streamable HTTP endpoint. A session is a small record, not a live server:
 * every request runs on a fresh SDK transport and server (see `./mcp.ts`), so any replica can
 * serve any session once the record is shared (`./redis-sessions.ts`). A record belongs to the
 * principal that opened it, is bound to its credential (the principal plus the API key it uses)
 * and counts activity: its last request start or end, never an open stream. The cap is per
 * principal: at it, the principal's least recently used session is evicted, so a client that
 * never sends DELETE cannot lock its own principal out.
 */
import { randomUUID } from "node:crypto";
import type { LoggingLevel } from "@modelcontextprotocol/sdk/types.js";
import type { Principal } from "../../principal.js";

export interface SessionRecord {
  id: string;
  /** The principal's id. */
  owner: string;
  /** The principal plus its API key (`Principal.credential`): requests must match it. */
  credential: string;
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
  | {
      ok: true;
      session: SessionRecord /** Sessions of the principal evicted to make room. */;
      evicted: string[];
    }
  | {
      ok: false;
      status: 503;
      message: string /** Seconds until the oldest session expires. */;
      retryAfter: number;
    };

export interface SessionLimits {
  /** Closed after this long without a request; default 30 minutes. */
  idleTimeoutMs: number;
  /** Every principal together. */
  maxSessions: number;
  /** One principal (its least recently used session is evicted past it). */
  maxPerPrincipal: number;
}

/** Where session records live: this process (`MemorySessions`) or Redis (`RedisSessions`). */
export interface SessionStore {
  open(principal: Principal, protocol?: string): Promise<OpenResult>;
  /** The record when it exists, is not idle past the timeout and is bound to `principal`'s credential. */
  get(id: string, principal: Principal): Promise<SessionRecord | undefined>;
  /** Marks activity now. */
  touch(id: string): Promise<void>;
  /** Keeps the level the client set with `logging/setLevel`. */
  setLogLevel(id: string, level: LoggingLevel): Promise<void>;
  delete(id: string): Promise<boolean>;
  /** Drops records idle past the timeout; returns how many. */
  sweep(): Promise<number>;
  count(): Promise<number>;
  /** Open sessions of one principal. */
  countOf(principal: Principal): Promise<number>;
  close(): Promise<void>;
}

export const DEFAULT_SESSION_LIMITS: SessionLimits = {
  idleTimeoutMs: 30 * 60_000,
  maxSessions: 10_000,
  maxPerPrincipal: 100,
};

export const FULL_MESSAGE = "Service Unavailable: the server holds the most sessions it allows; retry later";

/** The refusal at the global cap: `retryAfter` is when the oldest session expires unless used. */
export const full = (oldestActive: number, limits: SessionLimits, now: number): OpenResult => ({
  ok: false,
  status: 503,
  message: FULL_MESSAGE,
  retryAfter: Math.max(1, Math.ceil((oldestActive + limits.idleTimeoutMs - now) / 1000)),
});

export class MemorySessions implements SessionStore {
  /** Every record, least recently used first (re-inserted on activity). */
  readonly #records = new Map<string, SessionRecord>();
  readonly #perOwner = new Map<string, Set<string>>();
  readonly #limits: SessionLimits;
  readonly #now: () => number;

  constructor(limits: SessionLimits, now: () => number = Date.now) {
    this.#limits = limits;
    this.#now = now;
  }

  async open(principal: Principal, protocol?: string): Promise<OpenResult> {
    const evicted: string[] = [];
    const mine = this.#perOwner.get(principal.id);
    if (mine && mine.size >= this.#limits.maxPerPrincipal) await this.sweep();
    // Least recently used first: the set keeps activity order (see #bump).
    for (const id of mine ?? []) {
      if (mine!.size < this.#limits.maxPerPrincipal) break;
      evicted.push(id);
      this.#drop(this.#records.get(id)!);
    }
    if (this.#records.size >= this.#limits.maxSessions) await this.sweep();
    if (this.#records.size >= this.#limits.maxSessions) {
      const oldest = this.#records.values().next().value as SessionRecord;
      return full(oldest.lastActive, this.#limits, this.#now());
    }
    const session: SessionRecord = {
      id: randomUUID(),
      owner: principal.id,
      credential: principal.credential,
      lastActive: this.#now(),
      protocol,
    };
    this.#records.set(session.id, session);
    const set = this.#perOwner.get(principal.id) ?? new Set<string>();
    set.add(session.id);
    this.#perOwner.set(principal.id, set);
    return { ok: true, session, evicted };
  }

  async get(id: string, principal: Principal): Promise<SessionRecord | undefined> {
    const s = this.#records.get(id);
    if (!s) return undefined;
    if (this.#idle(s)) {
      this.#drop(s);
      return undefined;
    }
    return s.credential === principal.credential ? s : undefined;
  }

  async touch(id: string): Promise<void> {
    const s = this.#records.get(id);
    if (!s) return;
    s.lastActive = this.#now();
    this.#bump(s);
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
      if (!this.#idle(s)) break;
      this.#drop(s);
      n += 1;
    }
    return n;
  }

  async count(): Promise<number> {
    return this.#records.size;
  }

  async countOf(principal: Principal): Promise<number> {
    return this.#perOwner.get(principal.id)?.size ?? 0;
  }

  async close(): Promise<void> {
    this.#records.clear();
    this.#perOwner.clear();
  }

  #idle(s: SessionRecord): boolean {
    return this.#now() - s.lastActive > this.#limits.idleTimeoutMs;
  }

  /** Moves the record to the most recently used end of both orders. */
  #bump(s: SessionRecord): void {
    this.#records.delete(s.id);
    this.#records.set(s.id, s);
    const mine = this.#perOwner.get(s.owner);
    mine?.delete(s.id);
    mine?.add(s.id);
  }

  #drop(s: SessionRecord): void {
    this.#records.delete(s.id);
    const mine = this.#perOwner.get(s.owner);
    mine?.delete(s.id);
    if (mine?.size === 0) this.#perOwner.delete(s.owner);
  }
}
