/**
 * The one webhook completion mechanism: waits keyed by task (or crawl) id, settled when that id's
 * completion is reported, and the last ids reported remembered for waits that start after their
 * callback arrived. Both receivers feed it: the loopback receiver (./callback-receiver.ts) and the
 * HTTP server's verified webhook route (src/server/http/callbacks.ts, which also hears of
 * deliveries on other replicas). `waitFor` races its `wait` against polling.
 */
import type { Completion } from "./wait.js";

/** Ended ids remembered for waits that start after their callback arrived. */
const MAX_REMEMBERED = 10_000;

export class CompletionWaiters implements Completion {
  readonly #waiters = new Map<string, Set<() => void>>();
  readonly #ended = new Set<string>();

  /** `id`'s work ended (its callback arrived): settles its waits, now and later. */
  readonly done = (id: string): void => {
    this.#ended.add(id);
    if (this.#ended.size > MAX_REMEMBERED) this.#ended.delete(this.#ended.values().next().value as string);
    for (const wake of this.#waiters.get(id) ?? []) wake();
    this.#waiters.delete(id);
  };

  /** Bound (callers may pass the method around on its own). */
  readonly wait = (id: string, signal: AbortSignal): Promise<void> => {
    if (this.#ended.has(id)) return Promise.resolve();
    return new Promise((resolve, reject) => {
      if (signal.aborted) {
        reject(signal.reason);
        return;
      }
      const set = this.#waiters.get(id) ?? new Set();
      const onAbort = () => {
        set.delete(wake);
        if (set.size === 0) this.#waiters.delete(id);
        reject(signal.reason);
      };
      const wake = () => {
        signal.removeEventListener("abort", onAbort);
        resolve();
      };
      set.add(wake);
      this.#waiters.set(id, set);
      signal.addEventListener("abort", onAbort, { once: true });
    });
  };

  clear(): void {
    this.#waiters.clear();
    this.#ended.clear();
  }
}
