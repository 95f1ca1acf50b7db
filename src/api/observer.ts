/**
 * What the client reports about its own work, for whoever watches (telemetry, when on): each
 * HTTP attempt and each wait (a 429's pause, a retry's backoff, the client's own rate limiter).
 * A plain interface so that api/ needs no telemetry library; no observer costs nothing.
 */

export interface AttemptInfo {
  method: string;
  url: URL;
  /** 1 for the first send, 2 for the first retry… */
  attempt: number;
}

export interface AttemptOutcome {
  /** The HTTP status, when a response came back. */
  status?: number;
  /** A transport failure's code (e.g. `UND_ERR_CONNECT_TIMEOUT`), or `aborted`. */
  error?: string;
}

export interface WaitInfo {
  /**
   * `rate_limit`: a 429 asked to wait (retry_after / X-RateLimit-Reset); `limiter`: the client's
   * own rate limiter held the request; `backoff`: waiting before retrying a 5xx or network error.
   */
  reason: "rate_limit" | "limiter" | "backoff";
  method: string;
  url: URL;
  /** The attempt the wait comes before. */
  attempt: number;
  /** Epoch milliseconds. */
  startMs: number;
  endMs: number;
}

export interface ApiObserver {
  /** Called as an attempt starts; the returned function is called once with its outcome. */
  attempt(info: AttemptInfo): (outcome: AttemptOutcome) => void;
  /** Called after a wait ended (or was cut short by cancellation). */
  waited(info: WaitInfo): void;
}
