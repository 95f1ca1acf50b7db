/**
 * Webhook completion. With a public base URL, every async submission carries a callback URL
 * `${public}/callbacks/task/<token>`: the token (32 random bytes) names the registration (the
 * task id is not known before the API answers). Where the API lets us give the callback headers
 * (crawl's `callback.headers`), a per-registration secret travels in `x-webdata-callback-secret`
 * and is checked in constant time; the other routes take a bare `callback_url`, so their token
 * is the only credential — and a delivery never says how the work ended, it only wakes the wait,
 * which then reads the state from the API. No secret is ever in a URL. A verified delivery wakes
 * whoever waits on the task through `completion`, which the waiting mechanism races against its
 * polling — polling stays the fallback, so a lost delivery only costs time. In a fleet (`share`),
 * registrations are also kept in Redis, named by the keyed hash of the token and holding only
 * the keyed hash of the secret (the fleet's salt, as principals), and a delivery that lands on another replica wakes the waiting
 * one through pub/sub (`deliver`).
 */
import { randomBytes } from "node:crypto";
import { CompletionWaiters } from "../../async/completion-waiters.js";
import type { CredentialHash } from "../../principal.js";
import { safeEqual } from "./auth/guard.js";
import { credentialHasher } from "./auth/principal.js";

/** What `waitFor` races against polling: settles when the task's callback has arrived. */
export interface TaskCompletion {
  wait(id: string, signal: AbortSignal): Promise<void>;
}

/** A callback URL handed to one submission. */
export interface PreparedCallback {
  url: string;
  /** Headers the callback must carry (the secret), for an API field that takes them. */
  headers: Record<string, string>;
  /** Ties the registration to the task id the API answered with. */
  bind(taskId: string): void;
  /** The submission failed: forget the registration. */
  cancel(): void;
}

/** A registration as other replicas see it. */
export interface SharedRegistration {
  /** The keyed hash of the secret; absent when the token alone is the credential. */
  secretHash?: string;
  created: number;
  taskId?: string;
}

/** Where registrations are shared between replicas (Redis), and how deliveries are announced. */
export interface CallbackShare {
  /** `name` is the keyed hash of the token. */
  save(name: string, registration: SharedRegistration, ttlMs: number): void;
  load(name: string): Promise<SharedRegistration | undefined>;
  /** Tells every replica that `taskId`'s callback arrived. */
  publish(taskId: string): void;
}

export interface CallbackRegistryOptions {
  /** Public base URL of this server (no trailing slash needed). */
  publicUrl: string;
  /** How long a registration (and a delivered mark) is kept; default 6 hours. */
  ttlMs?: number;
  now?: () => number;
  share?: CallbackShare;
  /** Names tokens and secrets in the share (the hash principals are made with). */
  hash?: CredentialHash;
}

export type DeliveryResult = { status: 200 | 400 | 403 | 404; message: string };

interface Entry {
  secretHash?: string;
  created: number;
  taskId?: string;
  delivered: boolean;
  state?: string;
}

export const CALLBACK_PATH = "/callbacks/task/";
export const CALLBACK_SECRET_HEADER = "x-webdata-callback-secret";
const TOKEN_RE = /^[A-Za-z0-9_-]{16,64}$/;

export class CallbackRegistry {
  readonly #base: string;
  readonly #ttl: number;
  readonly #now: () => number;
  readonly #byToken = new Map<string, Entry>();
  readonly #byTask = new Map<string, Entry>();
  readonly #waiters = new CompletionWaiters();
  #deliveries = 0;
  #completedElsewhere = 0;
  readonly #share: CallbackShare | undefined;
  readonly #hash: CredentialHash;

  constructor(options: CallbackRegistryOptions) {
    this.#share = options.share;
    this.#hash = options.hash ?? credentialHasher(randomBytes(32));
    this.#base = `${options.publicUrl.replace(/\/+$/, "")}${CALLBACK_PATH}`;
    this.#ttl = options.ttlMs ?? 6 * 60 * 60_000;
    this.#now = options.now ?? Date.now;
  }

  /**
   * Callbacks of work submitted here that another replica received and announced here, which
   * woke this replica's waits on them (`/healthz`; the fleet tests read it).
   */
  get completedElsewhere(): number {
    return this.#completedElsewhere;
  }

  /** Verified deliveries so far. */
  get deliveries(): number {
    return this.#deliveries;
  }

  /** Registrations currently held. */
  get size(): number {
    return this.#byToken.size;
  }

  /** A registration; with `header`, deliveries must carry the secret header it returns. */
  prepare(options: { header?: boolean } = {}): PreparedCallback {
    this.sweep();
    const token = randomBytes(32).toString("base64url");
    const secret = options.header ? randomBytes(24).toString("base64url") : undefined;
    const entry: Entry = {
      ...(secret !== undefined ? { secretHash: this.#hash(secret) } : {}),
      created: this.#now(),
      delivered: false,
    };
    this.#byToken.set(token, entry);
    const save = () =>
      this.#share?.save(
        this.#hash(token),
        { secretHash: entry.secretHash, created: entry.created, taskId: entry.taskId },
        this.#ttl,
      );
    save();
    return {
      url: `${this.#base}${token}`,
      headers: secret !== undefined ? { [CALLBACK_SECRET_HEADER]: secret } : {},
      bind: (taskId) => {
        if (entry.taskId !== undefined || !this.#byToken.has(token)) return;
        entry.taskId = taskId;
        this.#byTask.set(taskId, entry);
        save();
        if (entry.delivered) this.#waiters.done(taskId);
      },
      cancel: () => this.#forget(token, entry),
    };
  }

  /** Settles when the task's callback has arrived (here or, in a fleet, on another replica). */
  readonly completion: TaskCompletion = this.#waiters;

  /** Handles one delivery for `token`; `secret` from the secret header. */
  receive(token: string, secret: string | undefined, body: unknown): DeliveryResult {
    const entry = TOKEN_RE.test(token) ? this.#byToken.get(token) : undefined;
    if (!entry || this.#expired(entry)) return { status: 404, message: "unknown callback" };
    if (entry.secretHash !== undefined && (!secret || !safeEqual(this.#hash(secret), entry.secretHash)))
      return { status: 403, message: "bad callback secret" };
    const task = (body as { task?: { id?: unknown; state?: unknown } } | null)?.task;
    const bodyId = typeof task?.id === "string" ? task.id : undefined;
    if (entry.taskId !== undefined && bodyId !== undefined && bodyId !== entry.taskId) {
      return { status: 400, message: "callback names another task" };
    }
    if (entry.taskId === undefined && bodyId !== undefined && !this.#byTask.has(bodyId)) {
      entry.taskId = bodyId;
      this.#byTask.set(bodyId, entry);
    }
    if (!entry.delivered) this.#deliveries += 1;
    entry.delivered = true;
    if (typeof task?.state === "string") entry.state = task.state;
    if (entry.taskId !== undefined) this.#waiters.done(entry.taskId);
    return { status: 200, message: "ok" };
  }

  /**
   * A delivery on any replica: a registration made on another one is read from the share, and a
   * verified delivery is announced to every replica.
   */
  async deliver(token: string, secret: string | undefined, body: unknown): Promise<DeliveryResult> {
    if (this.#share && TOKEN_RE.test(token) && !this.#byToken.has(token)) {
      const saved = await this.#share.load(this.#hash(token));
      if (saved && !this.#byToken.has(token)) {
        const entry: Entry = { secretHash: saved.secretHash, created: saved.created, delivered: false };
        this.#byToken.set(token, entry);
        if (saved.taskId !== undefined && !this.#byTask.has(saved.taskId)) {
          entry.taskId = saved.taskId;
          this.#byTask.set(saved.taskId, entry);
        }
      }
    }
    const result = this.receive(token, secret, body);
    const taskId = this.#byToken.get(token)?.taskId;
    if (result.status === 200 && taskId !== undefined) this.#share?.publish(taskId);
    return result;
  }

  /** Another replica received `taskId`'s callback. */
  deliveredElsewhere(taskId: string): void {
    const entry = this.#byTask.get(taskId);
    if (entry && !entry.delivered) this.#completedElsewhere += 1;
    if (entry) entry.delivered = true;
    this.#waiters.done(taskId);
  }

  /** Drops expired registrations (run on every `prepare`, and by the server's idle sweep). */
  sweep(): void {
    for (const [token, entry] of this.#byToken) if (this.#expired(entry)) this.#forget(token, entry);
  }

  close(): void {
    this.#byToken.clear();
    this.#byTask.clear();
    this.#waiters.clear();
  }

  #expired(entry: Entry): boolean {
    return this.#now() - entry.created > this.#ttl;
  }

  #forget(token: string, entry: Entry): void {
    this.#byToken.delete(token);
    if (entry.taskId !== undefined && this.#byTask.get(entry.taskId) === entry)
      this.#byTask.delete(entry.taskId);
  }
}
