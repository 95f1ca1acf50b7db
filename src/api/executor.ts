/**
 * Runs one API call: rate limiter → HTTP send → status/transport classification → retries
 * (see retry.ts) → JSON parse → zod validation. Every failure becomes a redacted `ApiError`.
 */

import type { Dispatcher } from "undici";
import type { z } from "zod";
import type { Clock } from "../clock.js";
import { linkSignals, sleep } from "./abort.js";
import {
  errorFromAbort,
  errorFromStatus,
  errorFromTransport,
  notJsonError,
  shapeError,
} from "./error-factory.js";
import { ApiError, type ApiErrorInit } from "./errors.js";
import { type HttpResponse, headerValue, send, TransportError } from "./http.js";
import type { ApiObserver, WaitInfo } from "./observer.js";
import type { Throttle } from "./rate-limiter.js";
import type { Redactor } from "./redact.js";
import { type Decision, decide, type Failure, type RequestKind, type RetryOptions } from "./retry.js";

export interface CallSpec<T> {
  method: "GET" | "POST" | "DELETE" | "PATCH";
  url: URL;
  /** The authorization header value. */
  authorization: string;
  body?: unknown;
  kind: RequestKind;
  schema: z.ZodType<T>;
  signal?: AbortSignal;
  /** Time limit of the whole call, retries included (ms). */
  timeoutMs?: number;
  /** The rate limiter's lane this call waits in (fair share between lanes). */
  lane?: string;
}

export interface ExecutorDeps {
  dispatcher: Dispatcher;
  limiter: Throttle;
  redactor: Redactor;
  retry: RetryOptions;
  userAgent: string;
  observer?: ApiObserver;
  clock: Clock;
}

function intHeader(res: HttpResponse, name: string): number | undefined {
  const raw = headerValue(res.headers, name);
  if (raw === undefined || raw.trim() === "") return undefined;
  const value = Number(raw);
  return Number.isFinite(value) ? value : undefined;
}

function retryAfterFromBody(bodyText: string): number | undefined {
  try {
    const value = (JSON.parse(bodyText) as { error?: { retry_after?: unknown } })?.error?.retry_after;
    return typeof value === "number" && Number.isFinite(value) ? value : undefined;
  } catch {
    return undefined;
  }
}

/** One call, as every attempt of it sees it. */
interface Run<T> {
  spec: CallSpec<T>;
  label: string;
  headers: Record<string, string>;
  body: string | undefined;
  signal: AbortSignal | undefined;
  started: number;
  retry: RetryOptions;
}

/** How an attempt ended when it did not throw: the answer, or the wait before the next one. */
type Outcome<T> = { value: T } | { reason: "backoff" | "rate_limit"; delayMs: number };

/** A non-2xx answer as `decide` weighs it. */
function failureOf(response: HttpResponse, bodyText: string): Failure {
  return {
    status: response.status,
    retryAfterSec: response.status === 429 ? retryAfterFromBody(bodyText) : undefined,
    retryAfterHeaderSec: intHeader(response, "retry-after"),
    resetEpochSec: intHeader(response, "x-ratelimit-reset"),
  };
}

/** The client's own pool was closed: retrying cannot help. */
const CLOSED_CODES = new Set(["UND_ERR_DESTROYED", "UND_ERR_CLOSED"]);

export class Executor {
  readonly #deps: ExecutorDeps;

  constructor(deps: ExecutorDeps) {
    this.#deps = deps;
  }

  /** A redacted ApiError (the one place errors leave the client). */
  error(init: ApiErrorInit): ApiError {
    const { redactor } = this.#deps;
    return new ApiError({
      ...init,
      message: redactor.text(init.message),
      detail: init.detail === undefined ? undefined : redactor.value(init.detail),
      upstreamCode: init.upstreamCode === undefined ? undefined : redactor.text(init.upstreamCode),
      body: init.body === undefined ? undefined : redactor.text(init.body),
    });
  }

  async call<T>(spec: CallSpec<T>): Promise<T> {
    const linked =
      spec.timeoutMs === undefined ? undefined : linkSignals([spec.signal], { ms: spec.timeoutMs });
    try {
      return await this.#attempts(this.#run(spec, linked?.signal ?? spec.signal));
    } finally {
      linked?.dispose();
    }
  }

  /** What every attempt of one call shares: its request, signal, start and retry budget. */
  #run<T>(spec: CallSpec<T>, signal: AbortSignal | undefined): Run<T> {
    const headers: Record<string, string> = {
      authorization: spec.authorization,
      accept: "application/json",
      "user-agent": this.#deps.userAgent,
    };
    let body: string | undefined;
    if (spec.body !== undefined) {
      body = JSON.stringify(spec.body);
      headers["content-type"] = "application/json";
    }
    const retry = { ...this.#deps.retry };
    if (spec.timeoutMs !== undefined) retry.deadlineMs = Math.min(retry.deadlineMs, spec.timeoutMs);
    const label = `${spec.method} ${spec.url.pathname}`;
    return { spec, label, headers, body, signal, started: this.#deps.clock.now(), retry };
  }

  /** Attempt after attempt until one answers, fails for good or the call is stopped. */
  async #attempts<T>(run: Run<T>): Promise<T> {
    const { limiter } = this.#deps;
    for (let attempt = 1; ; attempt += 1) {
      if (run.signal?.aborted) throw this.#stopped(run, false);
      await this.#timed(run, "limiter", attempt, () => limiter.acquire(run.signal, run.spec.lane)).catch(
        () => {
          throw this.#stopped(run, false);
        },
      );
      const outcome = await this.#attempt(run, attempt);
      if ("value" in outcome) return outcome.value;
      const { reason, delayMs } = outcome;
      await this.#timed(run, reason, attempt + 1, () => sleep(delayMs, run.signal, this.#deps.clock)).catch(
        () => {
          throw this.#stopped(run, false);
        },
      );
    }
  }

  /** One send: the parsed answer, or how long to wait before the next attempt (else it throws). */
  async #attempt<T>(run: Run<T>, attempt: number): Promise<Outcome<T>> {
    const { spec, headers, body, signal } = run;
    const attempted = this.#deps.observer?.attempt({ method: spec.method, url: spec.url, attempt });
    let response: HttpResponse;
    try {
      response = await send(this.#deps.dispatcher, {
        url: spec.url,
        method: spec.method,
        headers,
        body,
        signal,
      });
      attempted?.({ status: response.status });
    } catch (err) {
      attempted?.({ error: err instanceof TransportError && !err.aborted ? err.code : "aborted" });
      return this.#afterTransportError(run, err, attempt);
    }
    return this.#afterResponse(run, response, attempt);
  }

  /** A send that failed below HTTP: stopped, closed, or retried only when `decide` allows. */
  #afterTransportError<T>(run: Run<T>, err: unknown, attempt: number): Outcome<T> {
    if (!(err instanceof TransportError)) throw this.#stopped(run, false);
    if (err.aborted) throw this.#stopped(run, err.sent);
    if (CLOSED_CODES.has(err.code)) {
      throw this.error({
        code: "network_error",
        message: `${run.label} was not sent: the client is closed.`,
      });
    }
    const decision = this.#decide(run, { transport: { sent: err.sent } }, attempt);
    if (!decision.retry) {
      throw this.error(errorFromTransport(err, run.label, attempt, decision.maybeAccepted));
    }
    return { reason: "backoff", delayMs: decision.delayMs };
  }

  /** An HTTP answer: parsed when 2xx, else retried only when `decide` allows (a 429 pauses the limiter). */
  #afterResponse<T>(run: Run<T>, response: HttpResponse, attempt: number): Outcome<T> {
    const { limiter } = this.#deps;
    limiter.observe({
      limit: intHeader(response, "x-ratelimit-limit"),
      remaining: intHeader(response, "x-ratelimit-remaining"),
      resetEpochSec: intHeader(response, "x-ratelimit-reset"),
    });
    const bodyText = response.body.toString("utf8");
    if (response.status >= 200 && response.status < 300) {
      // A 204 (deletes) has no body to read.
      return { value: this.#parse(response.status === 204 ? "null" : bodyText, run.spec.schema, run.label) };
    }
    const decision = this.#decide(run, failureOf(response, bodyText), attempt);
    if (response.status === 429) {
      const wait = decision.retry ? decision.delayMs : decision.retryAfterMs;
      if (wait !== undefined) limiter.pauseFor(wait);
    }
    if (!decision.retry) {
      throw this.error(
        errorFromStatus({
          status: response.status,
          bodyText,
          label: run.label,
          attempts: attempt,
          maybeAccepted: decision.maybeAccepted,
          retryAfterMs: decision.retryAfterMs,
        }),
      );
    }
    return { reason: response.status === 429 ? "rate_limit" : "backoff", delayMs: decision.delayMs };
  }

  /** Cancelled or out of time: `sent` says whether the attempt in flight had reached the server. */
  #stopped(run: Run<unknown>, sent: boolean): ApiError {
    const { spec, signal, label } = run;
    return this.error(
      errorFromAbort(signal?.reason, label, spec.kind === "submission" && sent, spec.timeoutMs),
    );
  }

  /** Runs a wait, reported to the observer once over with its start and end (a limiter wait only when it took time). */
  async #timed(run: Run<unknown>, reason: WaitInfo["reason"], attempt: number, wait: () => Promise<void>) {
    const { observer, clock } = this.#deps;
    if (!observer) return wait();
    const startMs = clock.now();
    try {
      await wait();
    } finally {
      const endMs = clock.now();
      if (reason !== "limiter" || endMs > startMs) {
        observer.waited({ reason, method: run.spec.method, url: run.spec.url, attempt, startMs, endMs });
      }
    }
  }

  #decide(run: Run<unknown>, failure: Failure, attempt: number): Decision {
    const now = this.#deps.clock.now();
    return decide(run.spec.kind, failure, {
      attempt,
      elapsedMs: now - run.started,
      options: run.retry,
      now,
    });
  }

  #parse<T>(bodyText: string, schema: z.ZodType<T>, label: string): T {
    let json: unknown;
    try {
      json = JSON.parse(bodyText);
    } catch {
      throw this.error(notJsonError(bodyText, label));
    }
    const parsed = schema.safeParse(json, { reportInput: true });
    if (!parsed.success) throw this.error(shapeError(parsed.error, label, bodyText));
    return parsed.data;
  }
}
