/**
 * The one place a thrown failure becomes a tool result: `isError: true`, a text an agent can act
 * on (what went wrong and what to do), no `structuredContent` (it would have to match the
 * tool's output schema) and the machine-readable part under `_meta["web-data/error"]`.
 */
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { ApiError, type ErrorCode } from "../api/errors.js";
import { redactDeep } from "../api/redact.js";
import type { ValidationDetail } from "../api/schemas.js";

export const ERROR_META_KEY = "web-data/error";

export interface ToolErrorInit {
  retryAfter?: number;
  fields?: string[];
  /** Failed task details. */
  error?: string;
  errorType?: string;
  id?: string;
}

/** A failure a tool raises itself (bad argument combination, failed task, …). */
export class ToolError extends Error {
  override name = "ToolError";
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly init: ToolErrorInit = {},
  ) {
    super(message);
  }
}

/** The `invalid_argument` failure for a tool's bad arguments, each listed, plus an optional hint. */
export function invalidArguments(tool: string, problems: string[], hint?: string): ToolError {
  const list = problems.map((p) => `- ${p}`).join("\n");
  return new ToolError(
    "invalid_argument",
    `Invalid arguments for ${tool}; fix them and call again:\n${list}${hint ? `\n${hint}` : ""}`,
    { fields: problems },
  );
}

/** An `ApiError` or a `ToolError`: a failure the tools expect; anything else is a bug of ours. */
export const isExpected = (error: unknown): boolean =>
  error instanceof ApiError || error instanceof ToolError;

export interface ErrorPayload {
  /** `internal_error`: a bug in this server's own code. */
  code: ErrorCode | "internal_error";
  message: string;
  retry_after?: number;
  fields?: string[];
  error?: string;
  error_type?: string;
  id?: string;
  /** invalid_response: the first 500 characters of the body, redacted. */
  body?: string;
}

/** One 422 entry as `loc: msg`, without the leading "body" segment of a body field. */
export function formatField(d: ValidationDetail): string {
  const loc = d.loc.length > 1 && d.loc[0] === "body" ? d.loc.slice(1) : d.loc;
  return `${loc.join(".") || "(request)"}: ${d.msg}`;
}

export interface ErrorTextOptions {
  /** The key came from the HTTP session (X-Webdata-Api-Key): a 401 names it, not WEBDATA_API_KEY. */
  sessionKey?: boolean;
}

/** What an agent should do about an API failure, by code: fixed words, or words from the error. */
type Advice = string | ((e: ApiError, options: ErrorTextOptions, fields: string[]) => string);

/** The advice of each code (a data table: one entry per code; a code not here gets none). */
const ADVICE: Partial<Record<ErrorCode, Advice>> = {
  unauthorized: (_e, options) =>
    `The API rejected the key (HTTP 401). Check ${
      options.sessionKey
        ? "the API key this session sent (X-Webdata-Api-Key)"
        : "WEBDATA_API_KEY in the server's environment"
    }; retrying will not help.`,
  payment_required:
    "The account has no budget left or its trial expired (HTTP 402). Top up the account; retrying will not help.",
  validation_failed: (_e, _options, fields) =>
    `The API rejected the request's fields (HTTP 422). Fix these and call again:${
      fields.length ? `\n${fields.map((f) => `- ${f}`).join("\n")}` : ""
    }`,
  bad_request: "The API rejected the request as malformed (HTTP 400). Check the arguments and call again.",
  // A path with two version segments (/v1/v2/…): the base URL is wrong, not the id.
  not_found: (e) =>
    /\/v\d+\/v\d+\//.test(e.message)
      ? "The API has no such path (HTTP 404): WEBDATA_BASE_URL ends in a version segment. Set it to the service host without the version; retrying will not help."
      : "The API does not know this resource (HTTP 404). Check the id or name.",
  rate_limited: (e) =>
    `Rate limit still exceeded after retries (HTTP 429).${
      e.retryAfter !== undefined ? ` Retry after ${e.retryAfter} s.` : " Retry later."
    }`,
  upstream_error: "The service failed (server error) even after retries. Try again in a little while.",
  invalid_response:
    "The service answered with a body that is not the JSON the spec describes. Try again later.",
  network_error: "The service could not be reached. Check WEBDATA_BASE_URL and the network, then try again.",
  timeout: "The service did not answer in time. Check WEBDATA_BASE_URL and the network, then try again.",
  aborted: "The call was cancelled.",
  unsupported:
    "API generation 1 has no route for this; nothing was sent. Set WEBDATA_API_GENERATION=2 (or auto) to use it.",
};

/** The structured error: code and message, plus the 422's fields, the 429's wait or the bad body. */
function apiErrorPayload(e: ApiError): ErrorPayload {
  const payload: ErrorPayload = { code: e.code, message: e.message };
  if (e.code === "validation_failed") payload.fields = (e.detail ?? []).map(formatField);
  if (e.code === "rate_limited") payload.retry_after = e.retryAfter;
  if (e.code === "invalid_response" && e.body !== undefined) payload.body = e.body;
  return payload;
}

function apiErrorText(e: ApiError, options: ErrorTextOptions): { text: string; payload: ErrorPayload } {
  // The client's message speaks API terms only; which tool or variable to turn to is said here.
  const payload = apiErrorPayload(e);
  const advice = ADVICE[e.code];
  let text = typeof advice === "function" ? advice(e, options, payload.fields ?? []) : (advice ?? "");
  if (e.maybeAccepted) {
    text +=
      " The submission may have been accepted before the failure: list recent tasks with get_task {} (no id) before submitting again, so the work is not run twice.";
  }
  const status = e.status !== undefined ? `HTTP ${e.status}: ` : "";
  const detail = e.code === "validation_failed" ? "" : ` (${status}${e.message})`;
  return { text: `Error [${e.code}]: ${text}${detail}`.trim(), payload };
}

/** Turns anything thrown by a handler into an `isError` result. */
export function errorResult(
  error: unknown,
  redact: (s: string) => string = (s) => s,
  options: ErrorTextOptions = {},
): CallToolResult {
  return toolError(error, redact, options).result;
}

/** The error code a result carries under `_meta["web-data/error"]` (what a client of ours reads). */
export function errorCodeIn(result: { _meta?: Record<string, unknown> }): string | undefined {
  const payload = result._meta?.[ERROR_META_KEY];
  if (typeof payload !== "object" || payload === null || !("code" in payload)) return undefined;
  return typeof payload.code === "string" ? payload.code : undefined;
}

/** `errorResult` with its error code beside it, typed (the runner logs it). */
export function toolError(
  error: unknown,
  redact: (s: string) => string = (s) => s,
  options: ErrorTextOptions = {},
): { result: CallToolResult; code: ErrorPayload["code"] } {
  let text: string;
  let payload: ErrorPayload;
  if (error instanceof ApiError) {
    ({ text, payload } = apiErrorText(error, options));
  } else if (error instanceof ToolError) {
    payload = { code: error.code, message: error.message };
    if (error.init.retryAfter !== undefined) payload.retry_after = error.init.retryAfter;
    if (error.init.fields) payload.fields = error.init.fields;
    if (error.init.error !== undefined) payload.error = error.init.error;
    if (error.init.errorType !== undefined) payload.error_type = error.init.errorType;
    if (error.init.id !== undefined) payload.id = error.init.id;
    text = `Error [${error.code}]: ${error.message}`;
  } else {
    const message = error instanceof Error ? error.message : String(error);
    payload = { code: "internal_error", message };
    text = `Error [internal_error]: a bug in this server (${message}). Report it; retrying may not help.`;
  }
  const safe = redactDeep(payload, redact);
  return {
    result: {
      isError: true,
      content: [{ type: "text", text: redact(text) }],
      _meta: { [ERROR_META_KEY]: safe },
    },
    code: payload.code,
  };
}
