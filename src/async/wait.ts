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
  const wait = new Wait(client, target, options);
  try {
    return await wait.run();
  } finally {
    wait.end();
  }
}

/** A poll's outcome when it ended the work, else undefined. */
function ended(target: WaitTarget, reading: PollReading | undefined): WaitOutcome | undefined {
  if (reading?.end === "done")
    return { status: "done", target, state: reading.state, record: reading.record };
  if (reading?.end !== "failed") return undefined;
  return {
    status: "failed",
    target,
    state: reading.state,
    ...(reading.error !== undefined ? { error: reading.error } : {}),
    ...(reading.error_type !== undefined ? { error_type: reading.error_type } : {}),
    record: reading.record,
  };
}

/** One wait: its clock, deadline, cancellation, notification and last reading. */
class Wait {
  readonly #what: string;
  readonly #clock: Clock;
  readonly #started: number;
  readonly #deadlineAt: number;
  readonly #tracker = new ProgressTracker();
  /** Ends everything this wait started: at the deadline, on cancel, and when it returns. */
  readonly #stop = new AbortController();
  readonly #onUserAbort = () => this.#stop.abort();
  #notified = false;
  #notification: Promise<void> | undefined;
  #withCallback: boolean;
  #reading: PollReading | undefined;
  #lastError: ApiError | undefined;

  constructor(
    private readonly client: WebDataClient,
    private readonly target: WaitTarget,
    private readonly options: WaitOptions,
  ) {
    this.#what = `waiting for ${target.kind} ${target.id}`;
    this.#clock = options.clock ?? client.clock ?? realClock;
    this.#started = this.#clock.now();
    const deadlineMs = options.deadlineMs ?? DEFAULT_WAIT_MS;
    this.#deadlineAt = this.#started + deadlineMs;
    this.#clock.sleep(deadlineMs, this.#stop.signal).then(
      () => this.#stop.abort(),
      () => {},
    );
    const userSignal = options.signal;
    userSignal?.addEventListener("abort", this.#onUserAbort, { once: true });
    if (userSignal?.aborted) this.#stop.abort();
    this.#withCallback = options.completion !== undefined;
    this.#notification = options.completion
      ?.wait(target.id, this.#stop.signal)
      .then(() => {
        this.#notified = true;
      })
      .catch(() => {
        // A failed notification source leaves polling in charge.
      });
  }

  end(): void {
    this.options.signal?.removeEventListener("abort", this.#onUserAbort);
    this.#stop.abort();
  }

  /** A caller's signal that aborts for lack of time (AbortSignal.timeout) is a deadline, not a cancel. */
  #cancelled(): boolean {
    const userSignal = this.options.signal;
    return userSignal?.aborted === true && !isTimeoutReason(userSignal.reason);
  }

  #pending(): WaitOutcome {
    const reading = this.#reading;
    return {
      status: "pending",
      target: this.target,
      state: reading?.state ?? "unknown",
      ...(reading ? { record: reading.record } : {}),
      elapsedMs: this.#clock.now() - this.#started,
      ...(this.#lastError ? { lastError: this.#lastError.message } : {}),
    };
  }

  async run(): Promise<WaitOutcome> {
    if (this.#cancelled()) throw abortedError(this.#what);
    let delay = firstPollDelayMs(this.target.kind, this.#withCallback);
    for (;;) {
      if (!this.#notified) {
        const ms = Math.min(delay, this.#deadlineAt - this.#clock.now());
        await pause(this.#clock, ms, this.#stop.signal, this.#notification);
      }
      if (this.#notified) {
        // One immediate poll for the notification; if the work is somehow not over, poll as usual.
        this.#notified = false;
        this.#notification = undefined;
        this.#withCallback = false;
      }
      if (this.#cancelled()) throw abortedError(this.#what);
      if (this.#stop.signal.aborted || this.#deadlineAt - this.#clock.now() < MIN_POLL_WINDOW_MS)
        return this.#pending();
      if (!(await this.#poll())) return this.#pending();
      const elapsedMs = this.#clock.now() - this.#started;
      this.#report(elapsedMs);
      const outcome = ended(this.target, this.#reading);
      if (outcome) return outcome;
      delay = nextPollDelayMs(this.target.kind, elapsedMs, this.#withCallback);
    }
  }

  /** One poll: false when the deadline cut it off; a permanent error or a cancel throws. */
  async #poll(): Promise<boolean> {
    try {
      this.#reading = await POLLERS[this.target.kind](this.client, this.target.id, this.#stop.signal);
      this.#lastError = undefined;
    } catch (err) {
      if (this.#cancelled()) throw abortedError(this.#what);
      if (this.#stop.signal.aborted) return false;
      const error =
        err instanceof ApiError ? err : new ApiError({ code: "network_error", message: String(err) });
      if (PERMANENT.has(error.code)) throw error;
      this.#lastError = error;
    }
    return true;
  }

  /** Progress once per poll: counts when the target has them, else the seconds waited. */
  #report(elapsedMs: number): void {
    const { target } = this;
    const reading = this.#reading;
    const lastError = this.#lastError;
    const final = reading?.end !== undefined;
    const message =
      reading && !lastError
        ? describeReading(target, reading, elapsedMs)
        : `${target.kind} ${target.id}: status unavailable (${lastError?.message ?? "poll failed"}), still polling`;
    const progress =
      reading?.completed !== undefined
        ? this.#tracker.next(final ? (reading.total ?? 0) : reading.completed, reading.total, message, final)
        : this.#tracker.next(elapsedMs / 1000, undefined, message);
    const { onProgress } = this.options;
    if (!onProgress) return;
    try {
      Promise.resolve(onProgress(progress)).catch(() => {});
    } catch {
      // A failing progress sink must not end the wait.
    }
  }
}
