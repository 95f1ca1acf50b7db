/**
 * The one waiting mechanism: poll a task, batch or crawl until it ends, with adaptive intervals
 * (schedule.ts), a deadline that returns a resumable handle instead of throwing, progress on
 * every poll, cancellation, and an optional callback notification raced against the polling.
 */

import { abortedError } from "../api/abort.js";
import type { WebDataClient } from "../api/client.js";
import { isTimeoutReason } from "../api/error-factory.js";
import { ApiError, type ErrorCode } from "../api/errors.js";
import { type Clock, realClock } from "../clock.js";
import { DEFAULT_WAIT_MS } from "../config.js";
import { type Progress, ProgressTracker } from "./progress.js";
import { firstPollDelayMs, nextPollDelayMs } from "./schedule.js";
import { describeReading, POLLERS, type PollReading, type WaitTarget } from "./targets.js";

export type { Progress } from "./progress.js";
export type { WaitTarget } from "./targets.js";

/** A source of completion notifications (e.g. a callback receiver); resolves when `id` ended. */
export interface Completion {
  wait(id: string, signal: AbortSignal): Promise<void>;
}

export interface WaitOptions {
  /** How long to wait before returning a "pending" handle; default WEBDATA_WAIT_MS or 50000. */
  deadlineMs?: number;
  signal?: AbortSignal;
  onProgress?: (progress: Progress) => void | Promise<void>;
  completion?: Completion;
  /** The time the wait's pauses and deadline run on; default the client's clock. */
  clock?: Clock;
}

export type WaitOutcome =
  | { status: "done"; target: WaitTarget; state: string; record: unknown }
  | {
      status: "failed";
      target: WaitTarget;
      state: string;
      error?: string;
      error_type?: string;
      record: unknown;
    }
  | {
      status: "pending";
      target: WaitTarget;
      state: string;
      record?: unknown;
      elapsedMs: number;
      /** The last poll error, when the last polls failed with a transient error. */
      lastError?: string;
    };

/** A poll is not started when less than this is left before the deadline. */
const MIN_POLL_WINDOW_MS = 25;
/** Errors that polling again cannot fix. */
const PERMANENT: ReadonlySet<ErrorCode> = new Set([
  "unauthorized",
  "payment_required",
  "not_found",
  "bad_request",
  "validation_failed",
  "invalid_argument",
]);

/** Resolves after `ms`, when `wake` settles, or when `signal` aborts — whichever is first. */
async function pause(clock: Clock, ms: number, signal: AbortSignal, wake?: Promise<unknown>): Promise<void> {
  if (ms <= 0 || signal.aborted) return;
  const over = new AbortController();
  const onAbort = () => over.abort();
  signal.addEventListener("abort", onAbort, { once: true });
  try {
    const slept = clock.sleep(ms, over.signal).catch(() => {});
    await (wake ? Promise.race([slept, wake.then(noop, noop)]) : slept);
  } finally {
    signal.removeEventListener("abort", onAbort);
    over.abort();
  }
}

const noop = () => {};

export async function waitFor(
  client: WebDataClient,
  target: WaitTarget,
  options: WaitOptions = {},
): Promise<WaitOutcome> {
  const { signal: userSignal, completion, onProgress } = options;
  const what = `waiting for ${target.kind} ${target.id}`;
  const clock = options.clock ?? client.clock ?? realClock;
  const started = clock.now();
  const deadlineMs = options.deadlineMs ?? DEFAULT_WAIT_MS;
  const deadlineAt = started + deadlineMs;
  const poll = POLLERS[target.kind];
  const tracker = new ProgressTracker();

  // `stop` ends everything this wait started: at the deadline, on cancel, and when it returns.
  const stop = new AbortController();
  clock.sleep(deadlineMs, stop.signal).then(
    () => stop.abort(),
    () => {},
  );
  const onUserAbort = () => stop.abort();
  userSignal?.addEventListener("abort", onUserAbort, { once: true });
  if (userSignal?.aborted) stop.abort();

  let notified = false;
  let notification = completion
    ?.wait(target.id, stop.signal)
    .then(() => {
      notified = true;
    })
    .catch(() => {
      // A failed notification source leaves polling in charge.
    });

  const report = (progress: Progress) => {
    if (!onProgress) return;
    try {
      Promise.resolve(onProgress(progress)).catch(() => {});
    } catch {
      // A failing progress sink must not end the wait.
    }
  };

  let reading: PollReading | undefined;
  let lastError: ApiError | undefined;
  // A caller's signal that aborts for lack of time (AbortSignal.timeout) is a deadline, not a cancel.
  const cancelled = () => userSignal?.aborted === true && !isTimeoutReason(userSignal.reason);
  const pending = (): WaitOutcome => ({
    status: "pending",
    target,
    state: reading?.state ?? "unknown",
    ...(reading ? { record: reading.record } : {}),
    elapsedMs: clock.now() - started,
    ...(lastError ? { lastError: lastError.message } : {}),
  });

  try {
    if (cancelled()) throw abortedError(what);
    let withCallback = completion !== undefined;
    let delay = firstPollDelayMs(target.kind, withCallback);
    for (;;) {
      if (!notified) await pause(clock, Math.min(delay, deadlineAt - clock.now()), stop.signal, notification);
      if (notified) {
        // One immediate poll for the notification; if the work is somehow not over, poll as usual.
        notified = false;
        notification = undefined;
        withCallback = false;
      }
      if (cancelled()) throw abortedError(what);
      if (stop.signal.aborted || deadlineAt - clock.now() < MIN_POLL_WINDOW_MS) return pending();

      try {
        reading = await poll(client, target.id, stop.signal);
        lastError = undefined;
      } catch (err) {
        if (cancelled()) throw abortedError(what);
        if (stop.signal.aborted) return pending();
        const error =
          err instanceof ApiError ? err : new ApiError({ code: "network_error", message: String(err) });
        if (PERMANENT.has(error.code)) throw error;
        lastError = error;
      }

      const elapsedMs = clock.now() - started;
      const final = reading?.end !== undefined;
      const message =
        reading && !lastError
          ? describeReading(target, reading, elapsedMs)
          : `${target.kind} ${target.id}: status unavailable (${lastError?.message ?? "poll failed"}), still polling`;
      if (reading?.completed !== undefined) {
        report(tracker.next(final ? (reading.total ?? 0) : reading.completed, reading.total, message, final));
      } else {
        report(tracker.next(elapsedMs / 1000, undefined, message));
      }

      if (reading?.end === "done") {
        return { status: "done", target, state: reading.state, record: reading.record };
      }
      if (reading?.end === "failed") {
        return {
          status: "failed",
          target,
          state: reading.state,
          ...(reading.error !== undefined ? { error: reading.error } : {}),
          ...(reading.error_type !== undefined ? { error_type: reading.error_type } : {}),
          record: reading.record,
        };
      }
      delay = nextPollDelayMs(target.kind, elapsedMs, withCallback);
    }
  } finally {
    userSignal?.removeEventListener("abort", onUserAbort);
    stop.abort();
  }
}
