/**
 * The Streamable HTTP transport: `startHttpServer()` serves the MCP endpoint at `/mcp` with
 * stateful sessions (one SDK transport and one `createServer()` per session), guarded by
 * Host/Origin allow-lists and an optional bearer token, plus `GET /healthz` and, with a public
 * URL, the webhook receiver `POST /callbacks/task/<token>`. `shutdown()` drains in-flight calls.
 * The CLI entry (flags, signals) is `./http/main.ts`.
 */
import { createServer as createHttpServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { isInitializeRequest } from "@modelcontextprotocol/sdk/types.js";
import { WebDataClient, type WebDataClientOptions } from "../api/client.js";
import type { Config } from "../config.js";
import type { Telemetry } from "../telemetry/index.js";
import { type CreateServerOptions, createServer, type WebDataServer } from "./create-server.js";
import { CallbackClient } from "./http/callback-client.js";
import { CALLBACK_PATH, CallbackRegistry } from "./http/callbacks.js";
import {
  type AllowList,
  buildAllowList,
  checkBearer,
  checkHostAndOrigin,
  isLoopbackHost,
} from "./http/guard.js";
import type { ResourceServer } from "./http/oauth/resource-server.js";
import type { OAuthSettings } from "./http/oauth/settings.js";
import type { VerifierOptions } from "./http/oauth/verifier.js";
import { BodyError, header, RPC, readJsonBody, sendJson, sendRpcError } from "./http/respond.js";
import { type Session, SessionStore } from "./http/sessions.js";

export const MCP_PATH = "/mcp";
export const API_KEY_HEADER = "x-webdata-api-key";
const MAX_BODY = 4 * 1024 * 1024;
const MAX_CALLBACK_BODY = 256 * 1024;
const API_KEY_RE = /^[\x21-\x7e]{1,512}$/;

export interface HttpServerOptions {
  config: Config;
  /** Interface to bind; default 127.0.0.1. */
  host?: string;
  /** Port; default 8787 (0 picks a free one). */
  port?: number;
  /** Access token; defaults to `config.httpToken`. Required when `host` is not loopback. */
  token?: string;
  /** Extra allowed Host values (`name` or `name:port`; `*` disables the check). */
  allowedHosts?: string[];
  /** Extra allowed Origins (`*` disables the check). */
  allowedOrigins?: string[];
  /**
   * Public base URL for webhooks; defaults to `config.publicUrl`. A function gets the port
   * actually bound (for `port: 0`).
   */
  publicUrl?: string | ((port: number) => string);
  /** Sessions idle this long are closed; default 30 minutes. */
  idleTimeoutMs?: number;
  maxSessions?: number;
  /** How long `shutdown()` lets in-flight calls run; default 10 s. */
  drainMs?: number;
  /** Clock of the idle sweep (tests). */
  now?: () => number;
  /** Replaces `createServer` (tests). */
  createServer?: (options: CreateServerOptions) => WebDataServer;
  /** One line per event, to stderr by default. */
  log?: (line: string) => void;
  /** Act as an OAuth 2.1 resource server (needs a public URL; excludes `token`). */
  oauth?: OAuthSettings & VerifierOptions;
  /** Spans, metrics and (with `scrape`) `/metrics`; the server shuts it down on `shutdown()`. */
  telemetry?: Telemetry;
  /** Serve `/metrics` on this port of the same host, without authorization, instead of beside `/mcp`. */
  metricsPort?: number;
}

export interface HttpServer {
  /** `http://host:port/mcp` */
  url: string;
  port: number;
  allow: AllowList;
  readonly sessions: number;
  /** The webhook registry when a public URL is configured. */
  callbacks?: CallbackRegistry;
  /** With OAuth: the resource identifier tokens must be issued for. */
  oauthResource?: string;
  /** Where Prometheus metrics are served, when they are. */
  metricsUrl?: string;
  /** Closes sessions idle past the timeout now (it also runs every minute); returns how many. */
  sweepIdle(): number;
  /** Stops accepting, lets open calls finish within `drainMs`, then closes everything. */
  shutdown(drainMs?: number): Promise<void>;
}

export const DEFAULT_HTTP_PORT = 8787;

export async function startHttpServer(options: HttpServerOptions): Promise<HttpServer> {
  const { config } = options;
  const host = options.host ?? "127.0.0.1";
  const token = options.token ?? config.httpToken;
  const log = options.log ?? ((line: string) => process.stderr.write(`[web-data] ${line}\n`));
  if (options.oauth && token) {
    throw new Error("both OAuth (WEBDATA_OAUTH_ISSUER) and a static access token are set: choose one");
  }
  if (!isLoopbackHost(host) && !token && !options.oauth) {
    throw new Error(
      `refusing to listen on ${host} without an access token: set WEBDATA_HTTP_TOKEN or --token, or WEBDATA_OAUTH_ISSUER (or bind 127.0.0.1)`,
    );
  }
  let oauth: ResourceServer | undefined;
  // With OAuth a session belongs to the user who opened it (no hijack by session id).
  const owners = new WeakMap<Session, string>();
  const subjectOf = (req: IncomingMessage) => {
    const info = (req as IncomingMessage & { auth?: { clientId: string; extra?: Record<string, unknown> } })
      .auth;
    return `${String(info?.extra?.iss)} ${String(info?.extra?.sub ?? info?.clientId)}`;
  };
  let callbacks: CallbackRegistry | undefined;
  const makeClient = (apiKey: string) => {
    const clientOptions: WebDataClientOptions = {
      baseUrl: config.baseUrl,
      apiKey,
      legacyBaseUrl: config.legacyBaseUrl,
      legacyAuth: config.legacyAuth,
      maxRps: config.maxRps,
      observer: options.telemetry?.apiObserver,
    };
    return callbacks ? new CallbackClient(clientOptions, callbacks) : new WebDataClient(clientOptions);
  };
  let shared: WebDataClient | undefined;
  const makeServer = options.createServer ?? createServer;
  const services = () => (callbacks ? { taskCompletion: callbacks.completion } : {});
  const store = new SessionStore({
    idleTimeoutMs: options.idleTimeoutMs ?? 30 * 60_000,
    maxSessions: options.maxSessions ?? 1000,
    onError: (m) => log(m),
    now: options.now,
  });
  const started = Date.now();
  const scrape = options.telemetry?.scrape;
  options.telemetry?.observeSessions(() => store.size);
  let draining = false;
  let allow: AllowList = { hosts: [], origins: [] };

  async function openSession(req: IncomingMessage, res: ServerResponse, body: unknown) {
    if (store.full) return sendRpcError(res, 503, "Service Unavailable: too many sessions");
    const ownKey = header(req, API_KEY_HEADER)?.trim();
    if (ownKey !== undefined && !API_KEY_RE.test(ownKey)) {
      return sendRpcError(res, 400, `Bad Request: ${API_KEY_HEADER} is not a valid API key`);
    }
    if (!ownKey && !shared) {
      return sendRpcError(res, 401, `Unauthorized: send the Web Data API key in ${API_KEY_HEADER}`);
    }
    const create = () => {
      if (!ownKey) return { server: makeServer({ config, client: shared, services: services() }) };
      const client = makeClient(ownKey);
      const server = makeServer({
        config: { ...config, apiKey: ownKey },
        client,
        services: { ...services(), sessionKey: true },
      });
      return { server, dispose: () => client.close() };
    };
    const opened = await store.open(create, !!ownKey);
    options.telemetry?.instrument(opened.transport);
    await opened.transport.handleRequest(req, res, body);
    const id = opened.transport.sessionId;
    const session = id ? store.get(id) : undefined;
    if (!session) await opened.close();
    else if (oauth) owners.set(session, subjectOf(req));
  }

  /** The access check of `/mcp` (and `/metrics` beside it): false when it answered a refusal. */
  async function authorized(req: IncomingMessage, res: ServerResponse): Promise<boolean> {
    if (oauth) {
      const outcome = await oauth.authenticate(header(req, "authorization"));
      if (outcome.refusal) {
        sendJson(res, outcome.refusal.status, outcome.refusal.body, outcome.refusal.headers);
        return false;
      }
      // The SDK transport hands `req.auth` to handlers as `extra.authInfo`; the token itself
      // never goes upstream (the API key stays the server's or the session's own).
      (req as IncomingMessage & { auth?: unknown }).auth = outcome.authInfo;
    }
    const refused = checkBearer(req.headers, token);
    if (refused) {
      sendRpcError(res, refused.status, refused.message, {
        headers: { "www-authenticate": 'Bearer realm="web-data-mcp"' },
      });
      return false;
    }
    return true;
  }

  async function handleMcp(req: IncomingMessage, res: ServerResponse) {
    if (!(await authorized(req, res))) return;
    if (draining) return sendRpcError(res, 503, "Service Unavailable: the server is shutting down");
    const sessionId = header(req, "mcp-session-id");
    const method = req.method ?? "GET";
    if (!["GET", "POST", "DELETE"].includes(method)) {
      return sendRpcError(res, 405, "Method Not Allowed", { headers: { allow: "GET, POST, DELETE" } });
    }
    let body: unknown;
    if (method === "POST") body = await readJsonBody(req, MAX_BODY);
    let session: Session | undefined;
    if (sessionId) {
      session = store.get(sessionId);
      if (!session) return sendRpcError(res, 404, "Session not found: start a new session with initialize");
      if (oauth && owners.get(session) !== subjectOf(req)) {
        return sendRpcError(res, 403, "Forbidden: this session was opened by another user");
      }
    } else if (method === "POST" && isInitializeRequest(body)) {
      return openSession(req, res, body);
    } else {
      return sendRpcError(res, 400, "Bad Request: No valid session ID provided");
    }
    const done = new Promise<void>((resolve) => res.once("close", resolve));
    store.track(session, method === "POST" ? "post" : "other", done);
    await session.transport.handleRequest(req, res, body);
  }

  async function handleCallback(req: IncomingMessage, res: ServerResponse, url: URL) {
    const registry = callbacks;
    if (!registry) return sendJson(res, 404, { error: "not found" });
    if (req.method !== "POST") return sendJson(res, 405, { error: "method not allowed" }, { allow: "POST" });
    // The body only cross-checks the task id: a delivery that is not JSON still wakes the wait
    // (which then polls once), so it is read leniently.
    const body = await readJsonBody(req, MAX_CALLBACK_BODY).catch((error: unknown) => {
      if (error instanceof BodyError && error.status === 413) throw error;
      return undefined;
    });
    const token = url.pathname.slice(CALLBACK_PATH.length);
    const result = registry.receive(token, url.searchParams.get("secret") ?? undefined, body);
    sendJson(res, result.status, result.status === 200 ? { ok: true } : { error: result.message });
  }

  function cors(req: IncomingMessage, res: ServerResponse) {
    const origin = header(req, "origin");
    if (!origin) return;
    res.setHeader("access-control-allow-origin", origin);
    res.setHeader("vary", "Origin");
    res.setHeader("access-control-expose-headers", "mcp-session-id, mcp-protocol-version");
  }

  async function route(req: IncomingMessage, res: ServerResponse) {
    const refused = checkHostAndOrigin(req.headers, allow);
    if (refused) return sendRpcError(res, refused.status, refused.message);
    cors(req, res);
    const url = new URL(req.url ?? "/", "http://localhost");
    if (req.method === "OPTIONS") {
      res.writeHead(204, {
        "access-control-allow-methods": "GET, POST, DELETE, OPTIONS",
        "access-control-allow-headers":
          "authorization, content-type, accept, mcp-session-id, mcp-protocol-version, last-event-id, x-webdata-api-key",
        "access-control-max-age": "600",
      });
      return res.end();
    }
    if (url.pathname === MCP_PATH) return handleMcp(req, res);
    if (oauth?.metadataPaths.includes(url.pathname) && (req.method === "GET" || req.method === "HEAD")) {
      return sendJson(res, 200, oauth.metadata(), { "access-control-allow-origin": "*" });
    }
    if (url.pathname === "/healthz" && (req.method === "GET" || req.method === "HEAD")) {
      const status = draining ? "draining" : "ok";
      return sendJson(res, draining ? 503 : 200, {
        status,
        sessions: store.size,
        uptime_s: Math.floor((Date.now() - started) / 1000),
        active_requests: store.busy,
      });
    }
    if (url.pathname.startsWith(CALLBACK_PATH)) return handleCallback(req, res, url);
    if (url.pathname === "/metrics" && scrape && options.metricsPort === undefined) {
      if (req.method !== "GET") return sendJson(res, 405, { error: "method not allowed" }, { allow: "GET" });
      if (await authorized(req, res)) scrape(req, res);
      return;
    }
    return sendJson(res, 404, { error: "not found" });
  }

  const server = createHttpServer((req, res) => {
    route(req, res).catch((error: unknown) => {
      if (error instanceof BodyError)
        return sendRpcError(res, error.status, error.message, { code: RPC.parseError });
      log(`request failed: ${error instanceof Error ? error.message : String(error)}`);
      if (!res.headersSent) sendRpcError(res, 500, "Internal server error", { code: RPC.internal });
      else res.end();
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port ?? DEFAULT_HTTP_PORT, host, () => {
      server.off("error", reject);
      resolve();
    });
  });
  const port = (server.address() as AddressInfo).port;
  const metricsServer =
    scrape && options.metricsPort !== undefined
      ? await listenMetrics().catch((error: unknown) => {
          server.close();
          throw error;
        })
      : undefined;
  const publicOption = options.publicUrl ?? config.publicUrl;
  const publicUrl = typeof publicOption === "function" ? publicOption(port) : publicOption;
  if (publicUrl) callbacks = new CallbackRegistry({ publicUrl });
  if (options.oauth) {
    if (!publicUrl) {
      server.close();
      throw new Error(
        "OAuth needs WEBDATA_PUBLIC_URL (the address clients use): tokens are checked against it",
      );
    }
    // Loaded only when OAuth is on (it brings jose).
    const { createResourceServer } = await import("./http/oauth/resource-server.js");
    oauth = createResourceServer(options.oauth, { ...options.oauth, publicUrl, mcpPath: MCP_PATH });
  }
  if (config.apiKey) shared = makeClient(config.apiKey);
  allow = buildAllowList({
    host,
    port,
    extraHosts: options.allowedHosts,
    extraOrigins: options.allowedOrigins,
    publicUrl,
  });
  const sweeper = setInterval(
    () => {
      store.sweep();
      callbacks?.sweep();
    },
    Math.max(1_000, Math.min(60_000, options.idleTimeoutMs ?? 60_000)),
  );
  sweeper.unref();

  /** `/metrics` alone on its own port (`--metrics-port`), for a scraper inside the network. */
  async function listenMetrics() {
    const metrics = createHttpServer((req, res) => {
      const path = new URL(req.url ?? "/", "http://localhost").pathname;
      if (path === "/metrics" && req.method === "GET" && scrape) return scrape(req, res);
      sendJson(res, 404, { error: "not found: metrics are at /metrics" });
    });
    await new Promise<void>((resolve, reject) => {
      metrics.once("error", reject);
      metrics.listen(options.metricsPort, host, () => {
        metrics.off("error", reject);
        resolve();
      });
    });
    return metrics;
  }

  let stopping: Promise<void> | undefined;
  const shutdown = (drainMs = options.drainMs ?? 10_000) => {
    stopping ??= (async () => {
      draining = true;
      clearInterval(sweeper);
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeIdleConnections();
      await store.whenIdle(AbortSignal.timeout(drainMs));
      await store.closeAll();
      callbacks?.close();
      await shared?.close();
      server.closeAllConnections();
      await closed;
      if (metricsServer) {
        metricsServer.closeAllConnections();
        await new Promise<void>((resolve) => metricsServer.close(() => resolve()));
      }
      await options.telemetry?.shutdown();
    })();
    return stopping;
  };

  const wildcard = host === "0.0.0.0" || host === "::";
  const shownHost = wildcard ? "127.0.0.1" : host.includes(":") ? `[${host}]` : host;
  return {
    url: `http://${shownHost}:${port}${MCP_PATH}`,
    port,
    allow,
    get sessions() {
      return store.size;
    },
    callbacks,
    oauthResource: oauth?.resource,
    metricsUrl: scrape
      ? `http://${shownHost}:${metricsServer ? (metricsServer.address() as AddressInfo).port : port}/metrics`
      : undefined,
    sweepIdle: () => store.sweep(),
    shutdown,
  };
}
