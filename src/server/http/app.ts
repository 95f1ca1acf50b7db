/**
 * The HTTP routes, on hono: Host/Origin guard (DNS-rebinding protection) on every path, CORS,
 * `GET /healthz`, the MCP endpoint behind a body limit and hono's `bearerAuth` over the
 * `Authenticator` (`./auth/bearer.ts`: it yields the caller's `Identity`), the webhook receiver, and `extraRoutes` for modules plugged in beside them
 * (e.g. `/metrics`). Only the product's own logic lives here; routing, CORS and body limits are
 * hono's, the MCP protocol is the SDK transport's.
 */
import { Hono } from "hono";
import { bodyLimit } from "hono/body-limit";
import { cors } from "hono/cors";
import { HTTPException } from "hono/http-exception";
import type { Authenticator, Identity } from "./auth/authenticate.js";
import { type HttpEnv, requireBearer } from "./auth/bearer.js";
import { type AllowList, checkHostAndOrigin } from "./auth/guard.js";
import type { CallbackRegistry } from "./callbacks.js";
import { CALLBACK_PATH, CALLBACK_SECRET_HEADER } from "./callbacks.js";
import type { McpEndpoint } from "./mcp.js";
import { isRedisFailure, REDIS_UNAVAILABLE } from "./redis-errors.js";
import { json, RPC, rpcError } from "./respond.js";

export const MCP_PATH = "/mcp";
export const MAX_BODY = 4 * 1024 * 1024;
const MAX_CALLBACK_BODY = 256 * 1024;

export type { HttpEnv } from "./auth/bearer.js";
export type HttpApp = Hono<HttpEnv>;

export interface AppDeps {
  allow: AllowList;
  authenticate: Authenticator;
  /** No credential is asked at all (no token, no OAuth, no authenticator given): /mcp is open. */
  open: boolean;
  mcp: McpEndpoint;
  /** Revision 2026-07-28 requests (`../modern/http.ts`); everything 2025-era goes to `mcp`. */
  modern?: {
    isLegacy(request: Request): Promise<boolean>;
    handle(request: Request, identity: Identity | undefined): Promise<Response>;
  };
  /** The webhook registry, when there is a public URL. */
  callbacks?: CallbackRegistry;
  health(): Promise<{ status: number; body: Record<string, unknown> }>;
  /** Adds routes beside the built-in ones (after the Host/Origin guard, before the 404). */
  extraRoutes?: (app: HttpApp) => void;
  log(line: string): void;
}

const CORS_HEADERS = [
  "authorization",
  "content-type",
  "accept",
  "mcp-session-id",
  "mcp-protocol-version",
  "last-event-id",
  "mcp-method",
  "mcp-name",
  "x-webdata-api-key",
];

/** A refusal carries its own response; a Redis failure is a 503; anything else a 500. */
function errorHandler(log: (line: string) => void) {
  return (error: Error) => {
    // A refusal (hono's bearerAuth, `./auth/bearer.ts`) carries its own response.
    if (error instanceof HTTPException) return error.getResponse();
    if (isRedisFailure(error)) {
      log(`shared state unavailable: ${error.message}`);
      return rpcError(503, REDIS_UNAVAILABLE, { headers: { "retry-after": "1" } });
    }
    log(`request failed: ${error instanceof Error ? error.message : String(error)}`);
    return rpcError(500, "Internal server error", { code: RPC.internal });
  };
}

/** `/mcp`: body limit, the bearer check, then the revision's endpoint. */
function mcpRoute(app: HttpApp, deps: AppDeps): void {
  app.use(
    MCP_PATH,
    bodyLimit({
      maxSize: MAX_BODY,
      onError: () =>
        rpcError(413, `Payload Too Large: a request body may be at most ${MAX_BODY / 1024 / 1024} MiB`, {
          code: RPC.invalidRequest,
        }),
    }),
  );
  app.use(MCP_PATH, requireBearer(deps.authenticate, deps.open));
  app.all(MCP_PATH, async (c) => {
    // The SDK's own classifier picks the revision per request: no envelope → the sessionful path.
    if (deps.modern && !(await deps.modern.isLegacy(c.req.raw)))
      return deps.modern.handle(c.req.raw, c.get("identity"));
    return deps.mcp.handle(c, c.get("identity"));
  });
}

/** The webhook receiver, `POST /callbacks/task/<token>` (404 without a public URL). */
function callbackRoute(app: HttpApp, registry: CallbackRegistry | undefined): void {
  app.use(
    `${CALLBACK_PATH}*`,
    bodyLimit({ maxSize: MAX_CALLBACK_BODY, onError: () => json(413, { error: "payload too large" }) }),
  );
  app.all(`${CALLBACK_PATH}:token`, async (c) => {
    if (!registry) return json(404, { error: "not found" });
    if (c.req.method !== "POST") return json(405, { error: "method not allowed" }, { allow: "POST" });
    // The body only cross-checks the task id: a delivery that is not JSON still wakes the wait
    // (which then polls once), so it is read leniently.
    const body = await c.req.json().catch(() => undefined);
    const result = await registry.deliver(c.req.param("token"), c.req.header(CALLBACK_SECRET_HEADER), body);
    return result.status === 200 ? json(200, { ok: true }) : json(result.status, { error: result.message });
  });
}

export function buildApp(deps: AppDeps): HttpApp {
  const app = new Hono<HttpEnv>();
  app.onError(errorHandler(deps.log));
  app.notFound(() => json(404, { error: "not found" }));
  app.use("*", async (c, next) => {
    const refused = checkHostAndOrigin(
      { host: c.req.header("host"), origin: c.req.header("origin") },
      deps.allow,
    );
    if (refused) return rpcError(refused.status, refused.message);
    await next();
  });
  app.use(
    "*",
    cors({
      origin: (origin) => origin,
      allowMethods: ["GET", "POST", "DELETE", "OPTIONS"],
      allowHeaders: CORS_HEADERS,
      exposeHeaders: ["mcp-session-id", "mcp-protocol-version"],
      maxAge: 600,
    }),
  );
  // Counters are for the operator: a caller the authenticator refuses gets the status alone.
  app.on(["GET", "HEAD"], "/healthz", async (c) => {
    const { status, body } = await deps.health();
    const outcome = await deps.authenticate(c.req.raw);
    return json(status, outcome.ok ? body : { status: body.status });
  });
  mcpRoute(app, deps);
  callbackRoute(app, deps.callbacks);
  deps.extraRoutes?.(app);
  return app;
}
