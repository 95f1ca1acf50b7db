import type { ValidationDetail } from "./schemas.js";

/** Machine-readable failure codes, shared by the client and the tools' error results. */
export type ErrorCode =
  | "invalid_argument"
  | "bad_request"
  | "unauthorized"
  | "payment_required"
  | "not_found"
  | "validation_failed"
  | "rate_limited"
  | "upstream_error"
  | "network_error"
  | "timeout"
  | "invalid_response"
  | "aborted"
  | "task_failed"
  /** The capability has no route in the configured API generation; nothing was sent. */
  | "unsupported";

export interface ApiErrorInit {
  code: ErrorCode;
  message: string;
  status?: number;
  /** Seconds to wait before retrying (429). */
  retryAfter?: number;
  /** The 422 `detail` list. */
  detail?: ValidationDetail[];
  /** Upstream error code string, e.g. RATE_LIMIT_EXCEEDED. */
  upstreamCode?: string;
  /** True when a submission may have been accepted upstream although the call failed. */
  maybeAccepted?: boolean;
  /** invalid_response: the first 500 characters of the body, redacted. */
  body?: string;
  cause?: unknown;
}

/** Every failure of a call to the Web Data API. Messages never carry the API key. */
export class ApiError extends Error {
  readonly code: ErrorCode;
  readonly status?: number;
  readonly retryAfter?: number;
  readonly detail?: ValidationDetail[];
  readonly upstreamCode?: string;
  readonly maybeAccepted: boolean;
  /** invalid_response: the first 500 characters of the body, redacted. */
  readonly body?: string;

  constructor(init: ApiErrorInit) {
    super(init.message, init.cause === undefined ? undefined : { cause: init.cause });
    this.name = "ApiError";
    this.code = init.code;
    this.status = init.status;
    this.retryAfter = init.retryAfter;
    this.detail = init.detail;
    this.upstreamCode = init.upstreamCode;
    this.maybeAccepted = init.maybeAccepted ?? false;
    if (init.body !== undefined) this.body = init.body;
  }
}

export const isApiError = (e: unknown): e is ApiError => e instanceof ApiError;
