/**
 * Turns every way a call can fail into one `ApiError` with a message an agent can act on.
 * Callers pass the result through the client's `Redactor` (see `executor.ts`).
 */
import type { z } from "zod";
import { BODY_EXCERPT_CHARS, excerpt, serviceError, tryJson } from "./error-body.js";
import type { ApiErrorInit, ErrorCode } from "./errors.js";
import type { TransportError } from "./http.js";
import { RateLimitErrorBodySchema, type ValidationDetail, ValidationErrorBodySchema } from "./schemas.js";

/** What a submission cut off after it was sent means, in API terms (the tool layer adds what to do). */
export const MAYBE_ACCEPTED_ADVICE =
  "This submission may have been accepted and started (billed) work before the failure.";

function codeForStatus(status: number): ErrorCode {
  switch (status) {
    case 400:
      return "bad_request";
    case 401:
      return "unauthorized";
    case 402:
      return "payment_required";
    case 404:
      return "not_found";
    case 422:
      return "validation_failed";
    case 429:
      return "rate_limited";
    default:
      return status >= 500 ? "upstream_error" : "bad_request";
  }
}

function formatDetail(detail: ValidationDetail[]): string {
  return detail
    .slice(0, 10)
    .map((d) => `${d.loc.join(".") || "(body)"}: ${d.msg}`)
    .join("; ");
}

export interface StatusErrorInput {
  status: number;
  bodyText: string;
  /** "GET /v1/tasks/abc" — method and path, never the query or headers. */
  label: string;
  attempts: number;
  maybeAccepted: boolean;
  /** The wait the 429 asked for, in ms, when known. */
  retryAfterMs?: number;
}

/** An HTTP error status (4xx/5xx) as an `ApiError` init. */
export function errorFromStatus(input: StatusErrorInput): ApiErrorInit {
  const { status, bodyText, label } = input;
  const body = tryJson(bodyText);
  const code = codeForStatus(status);
  const { code: upstreamCode, message: upstreamMessage } = serviceError(bodyText);
  const said = upstreamMessage ? ` The service said: ${upstreamMessage}` : "";
  const tries = input.attempts > 1 ? ` (after ${input.attempts} attempts)` : "";
  const init: ApiErrorInit = { code, status, upstreamCode, message: "" };

  switch (status) {
    case 401:
      init.message = `401 Unauthorized from ${label}: the API key is missing or invalid.${said}`;
      break;
    case 402:
      init.message = `402 Payment Required from ${label}: insufficient budget or the trial expired; top up the account or use another key.${said}`;
      break;
    case 404: {
      const doubled = /\/(v\d+)\/v\d+\//.exec(label);
      init.message = doubled
        ? `404 Not Found from ${label}: the path has two version segments, so the base URL ends in /${doubled[1]}; it should be the service host without the version (e.g. https://api.example.com).${said}`
        : `404 Not Found from ${label}: no such resource; check the id or name.${said}`;
      break;
    }
    case 422: {
      const parsed = ValidationErrorBodySchema.safeParse(body);
      if (parsed.success) init.detail = parsed.data.detail;
      const fields = parsed.success ? ` Invalid fields: ${formatDetail(parsed.data.detail)}.` : said;
      init.message = `422 Validation failed for ${label}.${fields}`;
      break;
    }
    case 429: {
      const parsed = RateLimitErrorBodySchema.safeParse(body);
      const seconds = parsed.success
        ? parsed.data.error.retry_after
        : input.retryAfterMs !== undefined
          ? input.retryAfterMs / 1000
          : undefined;
      init.retryAfter = seconds;
      if (parsed.success) init.upstreamCode = parsed.data.error.code;
      const wait = seconds !== undefined ? ` Retry after ${seconds} s.` : "";
      const why = said;
      init.message = `429 Rate limit exceeded for ${label}${tries}.${wait}${why}`;
      break;
    }
    case 400:
      init.message = `400 Bad Request from ${label}: the parameters were refused.${said}`;
      break;
    default:
      init.message =
        status >= 500
          ? `HTTP ${status} from the Web Data API for ${label}${tries}: the service failed.${said}`
          : `HTTP ${status} from the Web Data API for ${label}.${said}`;
  }
  if (input.maybeAccepted) {
    init.maybeAccepted = true;
    init.message += ` ${MAYBE_ACCEPTED_ADVICE}`;
  }
  return init;
}

const TIMEOUT_CODES = new Set(["UND_ERR_CONNECT_TIMEOUT", "UND_ERR_HEADERS_TIMEOUT", "UND_ERR_BODY_TIMEOUT"]);

/** A failure below HTTP (reset, refused, timeout) as an `ApiError` init. */
export function errorFromTransport(
  err: TransportError,
  label: string,
  attempts: number,
  maybeAccepted: boolean,
): ApiErrorInit {
  const tries = attempts > 1 ? ` (after ${attempts} attempts)` : "";
  const timedOut = TIMEOUT_CODES.has(err.code);
  const what = timedOut
    ? `the Web Data API did not answer ${label} in time`
    : `the connection to the Web Data API failed for ${label}`;
  const init: ApiErrorInit = {
    code: timedOut ? "timeout" : "network_error",
    message: `${what}${tries} (${err.code}: ${err.message}).`,
    cause: { code: err.code, sent: err.sent },
  };
  if (maybeAccepted) {
    init.maybeAccepted = true;
    init.message += ` ${MAYBE_ACCEPTED_ADVICE}`;
  }
  return init;
}

/** True for an abort reason that means "out of time" (e.g. from `AbortSignal.timeout`). */
export function isTimeoutReason(reason: unknown): boolean {
  return (
    typeof reason === "object" && reason !== null && (reason as { name?: unknown }).name === "TimeoutError"
  );
}

/** A call ended by its signal: `timeout` when the reason says time ran out, else `aborted`. */
export function errorFromAbort(
  reason: unknown,
  label: string,
  maybeAccepted: boolean,
  timeoutMs?: number,
): ApiErrorInit {
  const timedOut = isTimeoutReason(reason);
  const limit = timeoutMs !== undefined ? ` (${(timeoutMs / 1000).toFixed(1)} s)` : "";
  const init: ApiErrorInit = timedOut
    ? {
        code: "timeout",
        message: `${label} reached its time limit${limit} before the Web Data API answered.`,
      }
    : { code: "aborted", message: `${label} was cancelled before it finished.` };
  if (maybeAccepted) {
    init.maybeAccepted = true;
    init.message += ` ${MAYBE_ACCEPTED_ADVICE}`;
  }
  return init;
}

/** A 2xx body that is not JSON. */
export function notJsonError(bodyText: string, label: string): ApiErrorInit {
  const shown = bodyText.trim() === "" ? "an empty body" : excerpt(bodyText);
  return {
    code: "invalid_response",
    message: `the API returned a body that is not JSON (${shown}) for ${label}.`,
    body: bodyText.slice(0, BODY_EXCERPT_CHARS),
  };
}

function describePath(path: ReadonlyArray<PropertyKey>): string {
  return path.length === 0 ? "(the body)" : path.map(String).join(".");
}

/** A 2xx JSON body that does not match the documented shape: names the first offending member. */
export function shapeError(error: z.ZodError, label: string, bodyText = ""): ApiErrorInit {
  const issue = error.issues[0];
  const member = describePath(issue?.path ?? []);
  const missing =
    issue?.code === "invalid_type" &&
    (issue as { input?: unknown }).input === undefined &&
    issue.path.length > 0;
  const problem = missing
    ? `without the required member "${member}"`
    : `with an invalid member "${member}" (${issue?.message ?? "unexpected value"})`;
  return {
    code: "invalid_response",
    message: `the API returned a response to ${label} ${problem}.`,
    body: bodyText.slice(0, BODY_EXCERPT_CHARS),
  };
}
