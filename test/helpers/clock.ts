/**
 * A manual `Clock` for the product's waiting, retry, rate-limit and expiry code: time moves only
 * when the test says so, so no test sleeps and none depends on how busy the machine is.
 *
 * - `advance(ms)` moves time on and wakes, in time order, every sleep that falls due.
 * - `{ auto: true }`: each time the code starts a sleep and then does nothing more for a turn of
 *   the event loop, time jumps to the earliest wake-up, so code that alternates I/O and sleeps
 *   runs to its end at once. For code with one line of activity at a time: a sleep started while
 *   other work is still in flight moves time anyway.
 */
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

export class ManualClock implements Clock {
  #now: number;
  #sleepers: Sleeper[] = [];
  /** Sleeps started so far (`run` waits for the next one). */
  #started = 0;
  #onSleep = new Set<() => void>();
  #advancing = false;

  readonly #auto: boolean;

  constructor(options: { start?: number; auto?: boolean } = {}) {
    this.#now = options.start ?? Date.UTC(2026, 0, 1);
    this.#auto = options.auto ?? false;
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

  /** Auto mode: after a turn with no newer sleep and no advance under way, jumps to the earliest wake-up. */
  #jumpWhenIdle(started: number): void {
    setImmediate(() => {
      if (this.#started !== started || this.#advancing) return;
      const due = this.#earliest();
      if (due) void this.advance(due.at - this.#now);
    });
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
    const started = this.#started;
    this.#advancing = true;
    try {
      await this.#advanceTo(until);
    } finally {
      this.#advancing = false;
    }
    // A sleep the woken code started meanwhile: its own jump was skipped during the advance.
    if (this.#auto && this.#started !== started) this.#jumpWhenIdle(this.#started);
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
