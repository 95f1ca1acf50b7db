/**
 * What an error body says, in any of the shapes the service uses: `{error: {code, message}}`,
 * `{error: "…"}`, `{detail: "…"}`, `{detail: [{loc, msg}, …]}`, `{message}`, and those of its
 * SDK (web-data-api-v2.md §2.5): `{status: "failed", error?: CODE, msg, details?:
 * {schema_validation_errors: [{instancePath, message}]}}` and `{success: "false", task_id,
 * message}` (the task id is kept in the message: the work may exist). The service's own
 * message always reaches the agent; a body that is not JSON is shown as a short excerpt.
 */
import { isObj } from "./normalize.js";

const EXCERPT_CHARS = 100;
/** How much of a response body an error's details carry (redacted by the executor). */
export const BODY_EXCERPT_CHARS = 500;

export function excerpt(text: string, chars = EXCERPT_CHARS): string {
  const flat = text.replace(/\s+/g, " ").trim();
  return flat.length > chars ? `${flat.slice(0, chars)}…` : flat;
}

export function tryJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

export interface ServiceError {
  /** The service's error code (`error.code`), when it gave one. */
  code?: string;
  /** The service's message, when it gave one. */
  message?: string;
}

/** One `detail` entry as `loc: msg` (or its text). */
function detailEntry(d: unknown): string | undefined {
  if (typeof d === "string") return d;
  if (!isObj(d)) return undefined;
  const msg = typeof d.msg === "string" ? d.msg : typeof d.message === "string" ? d.message : undefined;
  if (msg === undefined) return undefined;
  const loc = Array.isArray(d.loc) ? d.loc.map(String).join(".") : "";
  return loc ? `${loc}: ${msg}` : msg;
}

/** The code and message of an error body, whatever its shape. */
export function serviceError(bodyText: string): ServiceError {
  const body = tryJson(bodyText);
  if (!isObj(body)) {
    return body === undefined && bodyText.trim() !== "" ? { message: excerpt(bodyText) } : {};
  }
  const out: ServiceError = {};
  const error = body.error;
  if (isObj(error)) {
    if (typeof error.code === "string") out.code = error.code;
    if (typeof error.message === "string") out.message = error.message;
  } else if (typeof error === "string" && /^[A-Z][A-Z0-9_]+$/.test(error) && typeof body.msg === "string") {
    out.code = error;
  } else if (typeof error === "string") {
    out.message = error;
  }
  if (out.message === undefined && typeof body.msg === "string")
    out.message = withSchemaErrors(body.msg, body.details);
  if (out.message === undefined) {
    if (typeof body.detail === "string") out.message = body.detail;
    else if (Array.isArray(body.detail)) {
      const parts = body.detail
        .slice(0, 10)
        .map(detailEntry)
        .filter((x) => x !== undefined);
      if (parts.length > 0) out.message = parts.join("; ");
    } else if (typeof body.message === "string") out.message = body.message;
  }
  if (out.code === undefined && typeof body.code === "string") out.code = body.code;
  if (out.message !== undefined && typeof body.task_id === "string" && body.task_id !== "") {
    out.message = `${out.message} (task ${body.task_id})`;
  }
  return out;
}

/** `msg` with the first schema validation errors of `details`, as `path: message`. */
function withSchemaErrors(msg: string, details: unknown): string {
  const list =
    isObj(details) && Array.isArray(details.schema_validation_errors) ? details.schema_validation_errors : [];
  const parts = list
    .slice(0, 10)
    .map((e) =>
      isObj(e) && typeof e.message === "string"
        ? `${String(e.instancePath ?? "") || "body"}: ${e.message}`
        : undefined,
    )
    .filter((x) => x !== undefined);
  return parts.length > 0 ? `${msg}: ${parts.join("; ")}` : msg;
}
