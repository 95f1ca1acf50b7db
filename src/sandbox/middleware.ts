/**
 * The layers every request goes through, in order: the Host check (every path), the control
 * endpoints' guard, then for API requests: request log, rate limit (headers on every response,
 * 429 when the bucket is empty), injected faults, then authentication.
 * /site/* (the demo web site) and /_sandbox/* (control endpoints) bypass the API layers.
 */
import type { MiddlewareHandler } from "hono";
import type { SandboxState } from "./context.js";
import { DIALECT_HEADER, dialectOf } from "./dialect.js";
import { FAULT_HEADER } from "./faults.js";
import { errorJson, errorResponse, rateLimitBody, type SandboxEnv } from "./http.js";
import { hostAllowed, isLoopbackName } from "./loopback.js";
import type { AuthKind } from "./types.js";

type Middleware = MiddlewareHandler<SandboxEnv>;

export const isApiPath = (path: string) =>
  !(path === "/site" || path.startsWith("/site/") || path.startsWith("/_sandbox/") || path === "/_sandbox");

function authKind(header: string | undefined): AuthKind {
  if (/^bearer\s/i.test(header ?? "")) return "bearer";
  if (/^basic\s/i.test(header ?? "")) return "basic";
  return "none";
}

/** DNS-rebinding protection, as the HTTP server does: every path, before anything else. */
export function checkHost(state: SandboxState): Middleware {
  return async (c, next) => {
    if (hostAllowed(c.req.header("host"), state.allowedHosts)) return next();
    return c.json(
      {
        error: {
          code: "FORBIDDEN",
          message:
            "Host header is not allowed: use a loopback address, or start the sandbox with --allowed-hosts",
        },
      },
      403,
    );
  };
}

/**
 * /_sandbox/* from another machine (a sandbox bound beyond loopback, which needs a key) takes
 * the sandbox's bearer key too; from loopback it stays open for tests and local scripts.
 */
export function guardControl(state: SandboxState): Middleware {
  return async (c, next) => {
    if (isApiPath(c.req.path) || c.req.path.startsWith("/site")) return next();
    if (isLoopbackName(c.env.incoming.socket.remoteAddress?.replace(/^::ffff:/, "") ?? "")) return next();
    const token = /^bearer\s+(.+)$/i.exec(c.req.header("authorization") ?? "")?.[1].trim();
    if (state.config.key !== undefined && token === state.config.key) return next();
    return errorResponse(c, 401, "The /_sandbox control endpoints need the sandbox key from another host");
  };
}

export function logRequests(state: SandboxState): Middleware {
  return async (c, next) => {
    if (!isApiPath(c.req.path)) return next();
    const at = Date.now();
    await next();
    const status = c.get("connectionReset") ? 0 : c.res.status;
    state.log({
      method: c.req.method,
      path: c.req.path,
      status,
      at,
      auth: authKind(c.req.header("authorization")),
    });
  };
}

/** The API request's dialect: `X-Sandbox-Dialect`, else the sandbox's own (dialect.ts). */
export function chooseDialect(state: SandboxState): Middleware {
  return async (c, next) => {
    if (isApiPath(c.req.path))
      c.set("dialect", dialectOf(c.req.header(DIALECT_HEADER), state.config.dialect));
    return next();
  };
}

export function rateLimit(state: SandboxState): Middleware {
  return async (c, next) => {
    if (!isApiPath(c.req.path)) return next();
    const key = c.req.header("authorization") ?? "anonymous";
    const decision = state.limiter.take(key);
    const headers = {
      "X-RateLimit-Limit": String(decision.limit),
      "X-RateLimit-Remaining": String(decision.remaining),
      "X-RateLimit-Reset": String(decision.reset),
    };
    if (!decision.allowed) {
      return errorJson(c, rateLimitBody(decision.limit, decision.retryAfter), 429, {
        ...headers,
        "Retry-After": String(decision.retryAfter),
      });
    }
    await next();
    for (const [k, v] of Object.entries(headers)) c.res.headers.set(k, v);
  };
}

const STATUS_WITH_DETAIL = 422;

export function injectFaults(state: SandboxState): Middleware {
  return async (c, next) => {
    if (!isApiPath(c.req.path)) return next();
    const target = `${c.req.method} ${c.req.path}`;
    const header = c.req.header(FAULT_HEADER);
    const faults = state.faults;
    const latency = faults.take(["latency"], target, header);
    if (latency) await faults.hold(state.timers.sleep(latency.ms ?? 1000));
    const reset = faults.take(["reset"], target, header);
    if (reset && reset.after !== "accept") return resetConnection(c);
    const limited = faults.take(["rate_limit"], target, header);
    if (limited) {
      const retryAfter = limited.retryAfter ?? 1;
      return errorJson(c, rateLimitBody(state.config.rateLimit, retryAfter), 429, {
        "Retry-After": String(retryAfter),
      });
    }
    const status = faults.take(["status"], target, header);
    if (status?.status === STATUS_WITH_DETAIL) {
      return c.json(
        { detail: [{ loc: ["body"], msg: "Injected validation error", type: "value_error" }] },
        422,
      );
    }
    if (status?.status === 429)
      return errorJson(c, rateLimitBody(state.config.rateLimit, 1), 429, { "Retry-After": "1" });
    if (status)
      return errorResponse(c, status.status ?? 500, `Injected fault: status ${status.status ?? 500}`);
    const malformed = faults.take(["malformed"], target, header);
    await next();
    if (reset) return void resetConnection(c);
    if (malformed) {
      const text = await c.res.clone().text();
      const headers = new Headers(c.res.headers);
      headers.delete("content-length");
      headers.set("content-type", "application/json");
      c.res = new Response(truncated(text), { status: 200, headers });
    }
  };
}

/** Half of the body; never valid JSON. */
function truncated(text: string): string {
  const half = text.slice(0, Math.floor(text.length / 2));
  try {
    JSON.parse(half);
  } catch {
    return half;
  }
  return `{"truncated": ${half}`;
}

function resetConnection(c: Parameters<Middleware>[0]): Response {
  c.set("connectionReset", true);
  c.env.incoming.socket.destroy();
  return new Response(null, { status: 500 });
}

/** "bearer": a valid key is required; "basic": the legacy credential; "optional": bearer if sent. */
export type AuthRule = "bearer" | "basic" | "optional";

function authRule(method: string, path: string): AuthRule {
  if (/^\/legacy\/api\/v1\/realtime\//.test(path)) return "basic";
  if (method === "GET" && /^\/v2\/extract\/templates\/[^/]+\/versions\/?$/.test(path)) return "optional";
  if (path.startsWith("/downloads/")) return "optional";
  return "bearer";
}

export function authenticate(state: SandboxState): Middleware {
  return async (c, next) => {
    if (!isApiPath(c.req.path)) return next();
    const rule = authRule(c.req.method, c.req.path);
    const header = c.req.header("authorization");
    if (rule === "basic") {
      const expected = `Basic ${Buffer.from(state.config.legacyAuth).toString("base64")}`;
      if (header?.replace(/^basic/i, "Basic") !== expected) {
        return errorResponse(c, 401, "Invalid or missing Basic credentials for the legacy endpoint");
      }
      return next();
    }
    if (rule === "optional" && header === undefined) return next();
    const match = /^bearer\s+(.+)$/i.exec(header ?? "");
    const token = match?.[1].trim();
    if (!token || (state.config.key !== undefined && token !== state.config.key)) {
      return errorResponse(
        c,
        401,
        token ? "Invalid API key" : "Missing API key: send Authorization: Bearer <key>",
      );
    }
    return next();
  };
}
