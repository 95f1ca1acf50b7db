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
    const label = `${spec.method} ${spec.url.pathname}`;
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
    const linked =
      spec.timeoutMs === undefined ? undefined : linkSignals([spec.signal], { ms: spec.timeoutMs });
    try {
      return await this.#attempts(spec, label, headers, body, linked?.signal ?? spec.signal);
    } finally {
      linked?.dispose();
    }
  }

  async #attempts<T>(
    spec: CallSpec<T>,
    label: string,
    headers: Record<string, string>,
    body: string | undefined,
    signal: AbortSignal | undefined,
  ): Promise<T> {
    const { limiter, dispatcher, clock } = this.#deps;
    const started = clock.now();
    // Cancelled or out of time: `sent` says whether the attempt in flight had reached the server.
    const stopped = (sent: boolean) =>
      this.error(errorFromAbort(signal?.reason, label, spec.kind === "submission" && sent, spec.timeoutMs));
    const retry = { ...this.#deps.retry };
    if (spec.timeoutMs !== undefined) retry.deadlineMs = Math.min(retry.deadlineMs, spec.timeoutMs);

    const { observer } = this.#deps;
    // Waits are reported once over, with their start and end (no-ops without an observer).
    const wait = async (reason: WaitInfo["reason"], attempt: number, run: () => Promise<void>) => {
      if (!observer) return run();
      const startMs = clock.now();
      try {
        await run();
      } finally {
        const endMs = clock.now();
        if (reason !== "limiter" || endMs > startMs) {
          observer.waited({ reason, method: spec.method, url: spec.url, attempt, startMs, endMs });
        }
      }
    };

    for (let attempt = 1; ; attempt += 1) {
      if (signal?.aborted) throw stopped(false);
      await wait("limiter", attempt, () => limiter.acquire(signal, spec.lane)).catch(() => {
        throw stopped(false);
      });

      let response: HttpResponse;
      const attempted = observer?.attempt({ method: spec.method, url: spec.url, attempt });
      try {
        response = await send(dispatcher, { url: spec.url, method: spec.method, headers, body, signal });
        attempted?.({ status: response.status });
      } catch (err) {
        attempted?.({ error: err instanceof TransportError && !err.aborted ? err.code : "aborted" });
        if (!(err instanceof TransportError)) throw stopped(false);
        if (err.aborted) throw stopped(err.sent);
        if (CLOSED_CODES.has(err.code)) {
          throw this.error({
            code: "network_error",
            message: `${label} was not sent: the client is closed.`,
          });
        }
        const decision = this.#decide(spec.kind, { transport: { sent: err.sent } }, attempt, started, retry);
        if (!decision.retry) {
          throw this.error(errorFromTransport(err, label, attempt, decision.maybeAccepted));
        }
        await wait("backoff", attempt + 1, () => sleep(decision.delayMs, signal, clock)).catch(() => {
          throw stopped(false);
        });
        continue;
      }

      limiter.observe({
        limit: intHeader(response, "x-ratelimit-limit"),
        remaining: intHeader(response, "x-ratelimit-remaining"),
        resetEpochSec: intHeader(response, "x-ratelimit-reset"),
      });
      const bodyText = response.body.toString("utf8");
      if (response.status >= 200 && response.status < 300) {
        // A 204 (deletes) has no body to read.
        return this.#parse(response.status === 204 ? "null" : bodyText, spec.schema, label);
      }

      const failure: Failure = {
        status: response.status,
        retryAfterSec: response.status === 429 ? retryAfterFromBody(bodyText) : undefined,
        retryAfterHeaderSec: intHeader(response, "retry-after"),
        resetEpochSec: intHeader(response, "x-ratelimit-reset"),
      };
      const decision = this.#decide(spec.kind, failure, attempt, started, retry);
      if (response.status === 429) {
        const wait = decision.retry ? decision.delayMs : decision.retryAfterMs;
        if (wait !== undefined) limiter.pauseFor(wait);
      }
      if (!decision.retry) {
        throw this.error(
          errorFromStatus({
            status: response.status,
            bodyText,
            label,
            attempts: attempt,
            maybeAccepted: decision.maybeAccepted,
            retryAfterMs: decision.retryAfterMs,
          }),
        );
      }
      const reason = response.status === 429 ? "rate_limit" : "backoff";
      await wait(reason, attempt + 1, () => sleep(decision.delayMs, signal, clock)).catch(() => {
        throw stopped(false);
      });
    }
  }

  #decide(
    kind: RequestKind,
    failure: Failure,
    attempt: number,
    started: number,
    retry: RetryOptions,
  ): Decision {
    const now = this.#deps.clock.now();
    return decide(kind, failure, { attempt, elapsedMs: now - started, options: retry, now });
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
