/**
 * A manual `Clock` for the product's waiting, retry, rate-limit and expiry code: time moves only
 * when the test says so, so no test sleeps and none depends on how busy the machine is.
 *
 * - `advance(ms)` moves time on and wakes, in time order, every sleep that falls due.
 * - `{ auto: true }`: whenever sleeps are pending, no HTTP request is in flight and nothing new
 *   happened for a turn of the event loop, time jumps to the earliest wake-up, so code that
 *   alternates I/O and sleeps runs to its end at once. A request counts as in flight from its
 *   creation until its response has ended or failed (undici's diagnostics channels, which the
 *   product's client and Node's fetch both publish to); an event stream counts only until its
 *   headers, since it stays open as long as it is read.
 */
import { subscribe } from "node:diagnostics_channel";
import type { Clock } from "../../src/clock.js";

interface Sleeper {
  at: number;
  resolve(): void;
  reject(reason: unknown): void;
  signal?: AbortSignal;
  onAbort?: () => void;
}

/** Lets whatever the last wake-up started (its microtasks and one macrotask turn) run. */
const settle = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * The HTTP requests of this process that have not yet ended, each with the order it was made in,
 * kept from undici's diagnostics channels once the first auto clock is made.
 */
const inFlight = new Map<object, number>();
let requestsMade = 0;
const onRequestEnded = new Set<() => void>();

const isEventStream = (headers: unknown) => {
  if (!Array.isArray(headers)) return false;
  for (let i = 0; i + 1 < headers.length; i += 2)
    if (String(headers[i]).toLowerCase() === "content-type")
      return String(headers[i + 1])
        .toLowerCase()
        .startsWith("text/event-stream");
  return false;
};

function requestEnded(request: object): void {
  if (!inFlight.delete(request)) return;
  for (const listener of [...onRequestEnded]) listener();
}

let watching = false;
function watchRequests(): void {
  if (watching) return;
  watching = true;
  subscribe("undici:request:create", (message) => {
    inFlight.set((message as { request: object }).request, ++requestsMade);
  });
  subscribe("undici:request:headers", (message) => {
    const { request, response } = message as { request: object; response: { headers: unknown } };
    if (isEventStream(response.headers)) requestEnded(request);
  });
  subscribe("undici:request:trailers", (message) => requestEnded((message as { request: object }).request));
  subscribe("undici:request:error", (message) => requestEnded((message as { request: object }).request));
}

export class ManualClock implements Clock {
  #now: number;
  #sleepers: Sleeper[] = [];
  /** Sleeps started so far (`run` waits for the next one). */
  #started = 0;
  #onSleep = new Set<() => void>();
  #advancing = false;

  readonly #auto: boolean;

  /** Auto mode: requests made after this one are this clock's to wait for. */
  readonly #requestsBefore: number;

  constructor(options: { start?: number; auto?: boolean } = {}) {
    this.#now = options.start ?? Date.UTC(2026, 0, 1);
    this.#auto = options.auto ?? false;
    this.#requestsBefore = requestsMade;
    if (this.#auto) {
      watchRequests();
      onRequestEnded.add(() => {
        if (this.#sleepers.length > 0) this.#jumpWhenIdle(this.#started);
      });
    }
  }

  now(): number {
    return this.#now;
  }

  sleep(ms: number, signal?: AbortSignal): Promise<void> {
    if (signal?.aborted) return Promise.reject(signal.reason);
    if (ms <= 0) return Promise.resolve();
    return new Promise((resolve, reject) => {
      const sleeper: Sleeper = { at: this.#now + ms, resolve, reject, signal };
      if (signal) {
        sleeper.onAbort = () => {
          this.#sleepers = this.#sleepers.filter((s) => s !== sleeper);
          reject(signal.reason);
        };
        signal.addEventListener("abort", sleeper.onAbort, { once: true });
      }
      this.#sleepers.push(sleeper);
      this.#started += 1;
      for (const wake of [...this.#onSleep]) wake();
      if (this.#auto) this.#jumpWhenIdle(this.#started);
    });
  }

  /**
   * Auto mode: after a turn with no newer sleep, no advance under way and none of this clock's
   * requests in flight, jumps to the earliest wake-up.
   */
  #jumpWhenIdle(started: number): void {
    setImmediate(() => {
      if (this.#started !== started || this.#advancing || this.#awaitingResponse()) return;
      const due = this.#earliest();
      if (due) void this.advance(due.at - this.#now);
    });
  }

  #awaitingResponse(): boolean {
    for (const made of inFlight.values()) if (made > this.#requestsBefore) return true;
    return false;
  }

  /** Sleeps not yet over. */
  get pending(): number {
    return this.#sleepers.length;
  }

  /** Resolves once `count` sleeps are pending. */
  async sleeping(count = 1): Promise<void> {
    while (this.#sleepers.length < count) await this.#nextSleep(this.#started);
  }

  /** Moves time on by `ms`, waking every sleep that falls due in time order. */
  async advance(ms: number): Promise<void> {
    const until = this.#now + ms;
    this.#advancing = true;
    try {
      await this.#advanceTo(until);
    } finally {
      this.#advancing = false;
    }
    // Sleeps still pending (started meanwhile, or beside the one that woke): their jumps were
    // skipped during the advance.
    if (this.#auto && this.#sleepers.length > 0) this.#jumpWhenIdle(this.#started);
  }

  async #advanceTo(until: number): Promise<void> {
    for (;;) {
      // What the last wake-up (or the caller) started runs at the time it started at.
      await settle();
      const due = this.#earliest();
      if (!due || due.at > until) break;
      this.#now = Math.max(this.#now, due.at);
      this.#wake(due);
    }
    this.#now = until;
  }

  #earliest(): Sleeper | undefined {
    return this.#sleepers.reduce<Sleeper | undefined>((a, s) => (!a || s.at < a.at ? s : a), undefined);
  }

  #wake(sleeper: Sleeper): void {
    this.#sleepers = this.#sleepers.filter((s) => s !== sleeper);
    if (sleeper.onAbort) sleeper.signal?.removeEventListener("abort", sleeper.onAbort);
    sleeper.resolve();
  }

  /** Resolves when a sleep is started after the `after`-th one. */
  #nextSleep(after: number): Promise<void> {
    if (this.#started > after) return Promise.resolve();
    return new Promise((resolve) => {
      const wake = () => {
        this.#onSleep.delete(wake);
        resolve();
      };
      this.#onSleep.add(wake);
    });
  }
}
