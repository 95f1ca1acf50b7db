/**
 * Time for the product's waiting, retry, rate-limit and expiry code: an injected `Clock` (tests
 * drive a manual one) that defaults to real time. Readable by every folder; imports nothing.
 */
export interface Clock {
  /** Epoch milliseconds. */
  now(): number;
  /**
   * Resolves after `ms` (at once for `ms <= 0`); rejects with the signal's reason as soon as
   * `signal` aborts, and at once when it already has.
   */
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
}

/** setTimeout's largest delay (about 24.8 days); longer sleeps are cut to it. */
const MAX_TIMER_MS = 2_147_483_647;

export const realClock: Clock = {
  now: () => Date.now(),
  sleep(ms, signal) {
    if (signal?.aborted) return Promise.reject(signal.reason);
    if (ms <= 0) return Promise.resolve();
    return new Promise((resolve, reject) => {
      const onAbort = () => {
        clearTimeout(timer);
        reject(signal?.reason);
      };
      const timer = setTimeout(
        () => {
          signal?.removeEventListener("abort", onAbort);
          resolve();
        },
        Math.min(ms, MAX_TIMER_MS),
      );
      signal?.addEventListener("abort", onAbort, { once: true });
    });
  },
};
