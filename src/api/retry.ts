/**
 * Retry policy of the Web Data client.
 *
 * | failure                                         | read (GET, POST /v1/domain-health/check, legacy event) | submission (POST that starts billed work*) |
 * | ----------------------------------------------- | ------------------------------------------------------ | ------------------------------------------ |
 * | 429 rate limited                                | retry after `retry_after`, else `X-RateLimit-Reset`,   | same (a 429 was not accepted)              |
 * |                                                 | else `Retry-After`, else backoff                       |                                            |
 * | 500 / 502 / 503 / 504                           | retry with backoff                                     | NOT re-sent: `maybeAccepted: true`         |
 * | connect refused / DNS / connect timeout         | retry with backoff                                     | retry with backoff (never reached server)  |
 * | reset or timeout after the request was sent     | retry with backoff                                     | NOT re-sent: `maybeAccepted: true`         |
 * | 400 / 401 / 402 / 404 / 422, other 4xx          | never retried                                          | never retried                              |
 * | invalid body (not JSON, missing member)         | never retried                                          | never retried                              |
 * | cancelled by the caller's AbortSignal           | never retried                                          | never retried                              |
 *
 * *Submissions: extract (sync, async, batch), serp, agents run / async / batch, agent async,
 * templates run / batch, crawl, map. A submission that fails with `maybeAccepted` tells the
 * agent to check `get_task` / the task list before resubmitting.
 *
 * Backoff is capped exponential with full jitter: a random delay in [0, min(cap, base·2^(n-1))].
 * Attempts are bounded (default 4) and so is the total time (default 30 s): a retry whose wait
 * would end past the deadline is not made, and the last error surfaces.
 */

export type RequestKind = "read" | "submission";

export interface RetryOptions {
  /** Total attempts, the first included. */
  maxAttempts: number;
  /** Total time budget from the first attempt, in ms. */
  deadlineMs: number;
  baseDelayMs: number;
  maxDelayMs: number;
}

export const DEFAULT_RETRY: RetryOptions = {
  maxAttempts: 4,
  deadlineMs: 30_000,
  baseDelayMs: 200,
  maxDelayMs: 5_000,
};

const RETRIABLE_STATUSES = new Set([500, 502, 503, 504]);
/** Small spread added to server-named waits so concurrent callers do not return in lockstep. */
const SERVER_WAIT_JITTER_MS = 50;
/** A reset time further ahead than this is taken as clock skew and ignored. */
const MAX_RESET_WAIT_MS = 61_000;

export interface Failure {
  /** HTTP status, when a response arrived. */
  status?: number;
  /** Seconds from the 429 body's `retry_after`. */
  retryAfterSec?: number;
  /** `Retry-After` header, in seconds. */
  retryAfterHeaderSec?: number;
  /** `X-RateLimit-Reset`, epoch seconds. */
  resetEpochSec?: number;
  /** A failure below HTTP; `sent` says whether the request reached a connected socket. */
  transport?: { sent: boolean };
}

export type Decision =
  | { retry: true; delayMs: number }
  | { retry: false; maybeAccepted: boolean; retryAfterMs?: number };

export interface DecisionContext {
  attempt: number;
  elapsedMs: number;
  options: RetryOptions;
  random?: () => number;
  now?: number;
}

export function backoffMs(
  attempt: number,
  options: RetryOptions,
  random: () => number = Math.random,
): number {
  const ceiling = Math.min(options.maxDelayMs, options.baseDelayMs * 2 ** Math.max(0, attempt - 1));
  return Math.floor(random() * ceiling);
}

/** The wait a 429 asks for: `retry_after` wins over `X-RateLimit-Reset`, then `Retry-After`. */
export function rateLimitWaitMs(failure: Failure, now: number = Date.now()): number | undefined {
  if (failure.retryAfterSec !== undefined && failure.retryAfterSec >= 0) return failure.retryAfterSec * 1000;
  if (failure.resetEpochSec !== undefined) {
    const untilReset = failure.resetEpochSec * 1000 - now;
    if (untilReset <= MAX_RESET_WAIT_MS) return Math.max(0, untilReset);
  }
  if (failure.retryAfterHeaderSec !== undefined && failure.retryAfterHeaderSec >= 0) {
    return failure.retryAfterHeaderSec * 1000;
  }
  return undefined;
}

/** Whether a failed attempt is retried, and after how long. */
export function decide(kind: RequestKind, failure: Failure, ctx: DecisionContext): Decision {
  const random = ctx.random ?? Math.random;
  const { options } = ctx;
  let delayMs: number | undefined;
  const maybeAccepted = false;

  if (failure.transport) {
    if (failure.transport.sent && kind === "submission") return { retry: false, maybeAccepted: true };
    delayMs = backoffMs(ctx.attempt, options, random);
  } else if (failure.status === 429) {
    const asked = rateLimitWaitMs(failure, ctx.now);
    delayMs =
      asked === undefined
        ? backoffMs(ctx.attempt, options, random)
        : asked + Math.floor(random() * SERVER_WAIT_JITTER_MS);
    if (ctx.attempt >= options.maxAttempts || ctx.elapsedMs + delayMs > options.deadlineMs) {
      return { retry: false, maybeAccepted: false, retryAfterMs: asked };
    }
    return { retry: true, delayMs };
  } else if (failure.status !== undefined && RETRIABLE_STATUSES.has(failure.status)) {
    if (kind === "submission") return { retry: false, maybeAccepted: true };
    const header = failure.retryAfterHeaderSec;
    delayMs = header !== undefined && header >= 0 ? header * 1000 : backoffMs(ctx.attempt, options, random);
  } else {
    return { retry: false, maybeAccepted };
  }

  if (ctx.attempt >= options.maxAttempts || ctx.elapsedMs + delayMs > options.deadlineMs) {
    return { retry: false, maybeAccepted };
  }
  return { retry: true, delayMs };
}
