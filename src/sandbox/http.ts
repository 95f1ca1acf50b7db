/** Response helpers shared by every route: the error bodies and request-body parsing. */
import type { HttpBindings } from "@hono/node-server";
import type { Context } from "hono";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import type { z } from "zod";
import type { ValidationDetail } from "../api/schemas.js";
import { type Dialect, liveError } from "./dialect.js";
import { validate } from "./validation.js";

export type SandboxEnv = {
  Bindings: HttpBindings;
  /**
   * `connectionReset`: set when a fault destroyed the socket, so the log records status 0.
   * `dialect`: the API request's dialect (`chooseDialect`, middleware.ts): its error bodies and
   * answers are made in it.
   */
  Variables: { connectionReset: boolean; dialect: Dialect };
};
export type Ctx = Context<SandboxEnv>;

export const ERROR_CODES: Record<number, string> = {
  400: "BAD_REQUEST",
  401: "UNAUTHORIZED",
  402: "PAYMENT_REQUIRED",
  404: "NOT_FOUND",
  500: "INTERNAL_ERROR",
  502: "BAD_GATEWAY",
  503: "SERVICE_UNAVAILABLE",
  504: "GATEWAY_TIMEOUT",
};

export const ERROR_MESSAGES: Record<number, string> = {
  400: "Bad request: the parameters are wrong",
  401: "Invalid or missing API key",
  402: "Payment required: insufficient budget or trial expired",
  404: "Not found",
  500: "Internal error of the service infrastructure",
  502: "Bad gateway",
  503: "Service unavailable",
  504: "Gateway timeout",
};

/** `{error: {code, message}}` with the status's documented code (in the live dialect, its body there). */
export function errorResponse(c: Ctx, status: number, message?: string): Response {
  const code = ERROR_CODES[status] ?? "ERROR";
  return errorJson(c, { error: { code, message: message ?? ERROR_MESSAGES[status] ?? "Error" } }, status);
}

/** An error body as the request's dialect shows it (dialect.ts `liveError`). */
export function errorJson(c: Ctx, body: object, status: number, headers?: Record<string, string>): Response {
  const shaped = c.get("dialect") === "live" ? liveError(status, body) : body;
  return c.json(shaped as object, status as 400, headers);
}

export function notFound(c: Ctx, what: string): Response {
  return errorResponse(c, 404, `${what} not found`);
}

export function validationResponse(c: Ctx, detail: ValidationDetail[]): Response {
  return c.json({ detail }, 422);
}

export function rateLimitBody(limit: number, retryAfter: number) {
  return {
    error: {
      code: "RATE_LIMIT_EXCEEDED",
      message: `Rate limit of ${limit} requests per second exceeded`,
      retry_after: retryAfter,
    },
  };
}

type Parsed<T> = { ok: true; data: T } | { ok: false; response: Response };

/** Reads the JSON body and validates it; a missing, non-JSON or invalid body becomes a 422. */
export async function parseBody<S extends z.ZodType>(c: Ctx, schema: S): Promise<Parsed<z.output<S>>> {
  const text = await c.req.text();
  let value: unknown;
  if (text.trim() === "") {
    value = undefined;
  } else {
    try {
      value = JSON.parse(text);
    } catch (e) {
      const detail: ValidationDetail = {
        loc: ["body", 0],
        msg: "JSON decode error",
        type: "json_invalid",
        ctx: { error: e instanceof Error ? e.message : String(e) },
      };
      return { ok: false, response: validationResponse(c, [detail]) };
    }
  }
  if (value === undefined) {
    return {
      ok: false,
      response: validationResponse(c, [{ loc: ["body"], msg: "Field required", type: "missing" }]),
    };
  }
  return check(c, schema, value, "body");
}

/** Validates the query string (all values as strings) against `schema`. */
export function parseQuery<S extends z.ZodType>(c: Ctx, schema: S): Parsed<z.output<S>> {
  return check(c, schema, c.req.query(), "query");
}

function check<S extends z.ZodType>(c: Ctx, schema: S, value: unknown, root: string): Parsed<z.output<S>> {
  const result = validate(schema, value, root);
  if (result.ok) return { ok: true, data: result.data };
  return { ok: false, response: validationResponse(c, result.detail) };
}

export function json(c: Ctx, body: unknown, status: ContentfulStatusCode = 200): Response {
  return c.json(body as object, status);
}
