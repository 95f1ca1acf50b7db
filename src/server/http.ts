/**
 * The Streamable HTTP transport: `startHttpServer()` serves the MCP endpoint at `/mcp` (see
 * `./http/mcp.ts`: a fresh SDK transport and server per request, sessions as records bound to
 * the caller's principal), guarded by Host/Origin allow-lists and an `Authenticator` (the static
 * access token by default), plus `GET /healthz` and, with a public URL, the webhook receiver
 * `POST /callbacks/task/<token>`. Routes are hono's (`./http/app.ts`) on `@hono/node-server`.
 * One module per concern under `./http/`: `auth/` (who is calling → principal), `state.ts`
 * (sessions, events, ownership, task work: memory or Redis), `api-servers.ts` (the MCP servers by
 * API key), `session-streams.ts` (each session's GET stream), `calls.ts` (call routing and
 * cancel), `fair-share`/`sessions` caps, `metrics.ts` (`/metrics`). `shutdown()` drains in-flight
 * calls and answers those still running with a JSON-RPC error. The CLI entry is `./http/main.ts`.
 */
import { once } from "node:events";
import { createServer as createNodeServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { getRequestListener } from "@hono/node-server";
import type { Config } from "../config.js";
import type { Telemetry } from "../telemetry/index.js";
import { type CreateServerOptions, createServer, type WebDataServer } from "./create-server.js";
import { CallerSlots, type FairShareLimits } from "./fair-share.js";
import { ApiServers } from "./http/api-servers.js";
import { buildApp, type HttpApp, MAX_BODY, MCP_PATH } from "./http/app.js";
import { type Authenticator, oauthAuthenticate, staticTokenAuthenticator } from "./http/auth/authenticate.js";
import { requireBearer } from "./http/auth/bearer.js";
import { type AllowList, buildAllowList, canonicalHost, isLoopbackHost } from "./http/auth/guard.js";
import type { ResourceServer } from "./http/auth/oauth/resource-server.js";
import type { OAuthSettings } from "./http/auth/oauth/settings.js";
import type { VerifierOptions } from "./http/auth/oauth/verifier.js";
import { CallbackRegistry } from "./http/callbacks.js";
import { CallRegistry } from "./http/calls.js";
import { API_KEY_HEADER, type McpDeps, McpEndpoint, RETRY_MS } from "./http/mcp.js";
import { listenMetrics, metricsRoutes } from "./http/metrics.js";
import { json, rpcError } from "./http/respond.js";
import type { SessionStreams } from "./http/session-streams.js";
import { DEFAULT_SESSION_LIMITS } from "./http/sessions.js";
import { type HttpState, openState } from "./http/state.js";
import type { ModernEndpoint } from "./modern/http.js";

export { MCP_PATH } from "./http/app.js";
export { API_KEY_HEADER } from "./http/mcp.js";

export interface HttpServerOptions {
  config: Config;
  /** Interface to bind; default 127.0.0.1. */
  host?: string;
  /** Port; default 8787 (0 picks a free one). */
  port?: number;
  /** Access token; defaults to `config.httpToken`. Required when `host` is not loopback. */
  token?: string;
  /** Replaces the static-token check (e.g. an OAuth resource server); must yield `AuthInfo`. */
  authenticate?: Authenticator;
  /** Routes added beside the built-in ones, e.g. `/metrics`. */
  extraRoutes?: (app: HttpApp) => void;
  /** Extra allowed Host values (`name` or `name:port`; `*` disables the check). */
  allowedHosts?: string[];
  /** Extra allowed Origins (`*` disables the check). */
  allowedOrigins?: string[];
  /**
   * Public base URL for webhooks; defaults to `config.publicUrl`. A function gets the port
   * actually bound (for `port: 0`).
   */
  publicUrl?: string | ((port: number) => string);
  /** Sessions without a request for this long are closed; default 30 minutes. */
  idleTimeoutMs?: number;
  /** Sessions of every credential together; default 10,000. */
  maxSessions?: number;
  /** Sessions of one principal (its least recently used is evicted past it); default 100. */
  maxSessionsPerPrincipal?: number;
  /** Resumed streams (`Last-Event-ID` of a call) open at once on this replica; default 64. */
  maxResumes?: number;
  /** Of those, one principal's; default 8 (past it: 429 with Retry-After). */
  maxResumesPerPrincipal?: number;
  /** Clients kept for callers' own API keys (least recently used out first); default 1,000. */
  maxClients?: number;
  /** How long `shutdown()` lets in-flight calls run; default 10 s. */
  drainMs?: number;
  /**
   * Shared state in Redis (`WEBDATA_REDIS_URL`): sessions, resumable streams, MCP tasks, webhook
   * registrations and the fleet-wide rate limit, so replicas behind a load balancer serve any
   * request. Without it everything is held in this process.
   */
  redisUrl?: string;
  /** Clock of the idle sweep (tests). */
  now?: () => number;
  /** Replaces `createServer` (tests). */
  createServer?: (options: CreateServerOptions) => WebDataServer;
  /** One line per event, to stderr by default. */
  log?: (line: string) => void;
  /** Act as an OAuth 2.1 resource server (needs a public URL; excludes `token`). */
  oauth?: OAuthSettings & VerifierOptions;
  /** Per-principal limits on calls, long calls and tasks running and waiting (per replica), and on live MCP task records; see `FairShareLimits`. */
  fairShare?: Partial<FairShareLimits>;
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
  /** Open sessions (a count of the store). */
  sessionCount(): Promise<number>;
  /** The webhook registry when a public URL is configured. */
  callbacks?: CallbackRegistry;
  /** With OAuth: the resource identifier tokens must be issued for. */
  oauthResource?: string;
  /** Where Prometheus metrics are served, when they are. */
  metricsUrl?: string;
  /** Closes sessions idle past the timeout now (it also runs every minute); returns how many. */
  sweepIdle(): Promise<number>;
  /** Stops accepting, lets open calls finish within `drainMs`, answers the rest, closes everything. */
  shutdown(drainMs?: number): Promise<void>;
}

export const DEFAULT_HTTP_PORT = 8787;
/** Resumed streams open at once per replica, and per principal. */
const DEFAULT_RESUMES = 64;
const DEFAULT_RESUMES_PER_PRINCIPAL = 8;

/** What every call still running at the end of the drain gets. */
export const SHUTDOWN_MESSAGE =
  "The server shut down before this call finished: call again (work the API already accepted can be continued with get_task)";

export async function startHttpServer(options: HttpServerOptions): Promise<HttpServer> {
  const host = options.host ?? "127.0.0.1";
  const token = options.token ?? options.config.httpToken;
  const log = options.log ?? ((line: string) => process.stderr.write(`[web-data] ${line}\n`));
  checkAuthChoice(options, host, token);
  const state = await openState({
    redisUrl: options.redisUrl,
    limits: sessionLimits(options),
    fairShare: options.fairShare,
    log,
    now: options.now,
  });
  // Listening first: the port bound decides the public URL, hence the webhooks, OAuth and the
  // allow-list, which the routes are then built with. A request in the meantime waits for them.
  let serve: (app: HttpApp) => void = () => {};
  const app = new Promise<HttpApp>((resolve) => {
    serve = resolve;
  });
  const server = await listenHttp(app, host, options.port ?? DEFAULT_HTTP_PORT);
  const port = (server.address() as AddressInfo).port;
  const drain = new AbortController();
  try {
    const bound = await bind(options, { host, port, state });
    const parts = await wire(options, state, { bound, drain: drain.signal, log });
    serve(routes(options, { token, state, parts, bound, drain: drain.signal, log }));
    return finishStart(options, { host, port, state, parts, bound, server, drain, log });
  } catch (error) {
    server.close();
    throw error;
  }
}

/** A static token and OAuth exclude each other; off loopback, one of them (or an authenticator) is needed. */
function checkAuthChoice(options: HttpServerOptions, host: string, token: string | undefined): void {
  if (options.oauth && token) {
    throw new Error("both OAuth (WEBDATA_OAUTH_ISSUER) and a static access token are set: choose one");
  }
  if (!isLoopbackHost(host) && !token && !options.oauth && !options.authenticate) {
    throw new Error(
      `refusing to listen on ${host} without an access token: set WEBDATA_HTTP_TOKEN or WEBDATA_OAUTH_ISSUER (or bind 127.0.0.1)`,
    );
  }
}

function sessionLimits(options: HttpServerOptions) {
  return {
    idleTimeoutMs: options.idleTimeoutMs ?? DEFAULT_SESSION_LIMITS.idleTimeoutMs,
    maxSessions: options.maxSessions ?? DEFAULT_SESSION_LIMITS.maxSessions,
    maxPerPrincipal: options.maxSessionsPerPrincipal ?? DEFAULT_SESSION_LIMITS.maxPerPrincipal,
  };
}

/** What follows from the port bound, made once before any route serves: fixed from then on. */
interface Bound {
  publicUrl?: string;
  allow: AllowList;
  oauth?: ResourceServer;
  callbacks?: CallbackRegistry;
  metricsServer?: Server;
}

/** The public URL, the webhook registry, the OAuth resource server, the allow-list, the metrics port. */
async function bind(
  options: HttpServerOptions,
  at: { host: string; port: number; state: HttpState },
): Promise<Bound> {
  const { host, port, state } = at;
  const publicOption = options.publicUrl ?? options.config.publicUrl;
  const publicUrl = typeof publicOption === "function" ? publicOption(port) : publicOption;
  if (options.oauth && !publicUrl) {
    throw new Error(
      "OAuth needs WEBDATA_PUBLIC_URL (the address clients use): tokens are checked against it",
    );
  }
  const callbacks = publicUrl
    ? new CallbackRegistry({ publicUrl, share: state.fleet?.callbackShare, hash: state.hash })
    : undefined;
  await state.fleet?.onCallback((taskId) => callbacks?.deliveredElsewhere(taskId));
  // Loaded only when OAuth is on (it brings jose).
  const oauth =
    options.oauth && publicUrl
      ? (await import("./http/auth/oauth/resource-server.js")).createResourceServer(options.oauth, {
          ...options.oauth,
          publicUrl,
          mcpPath: MCP_PATH,
        })
      : undefined;
  const allow = buildAllowList({
    host,
    port,
    extraHosts: options.allowedHosts,
    extraOrigins: options.allowedOrigins,
    publicUrl,
  });
  const scrape = options.telemetry?.scrape;
  const metricsServer =
    scrape && options.metricsPort !== undefined
      ? await listenMetrics(scrape, host, options.metricsPort)
      : undefined;
  return { publicUrl, allow, oauth, callbacks, metricsServer };
}

interface Parts {
  servers: ApiServers;
  streams: SessionStreams;
  mcp: McpEndpoint;
  modern: ModernEndpoint;
  countSessions(): Promise<number>;
  started: number;
}

interface Wiring {
  bound: Bound;
  /** Aborted when the shutdown starts (the drain). */
  drain: AbortSignal;
  log(line: string): void;
}

/** The MCP servers by API key, with the webhooks and the tool-list fan-out to both revisions. */
function apiServers(
  options: HttpServerOptions,
  state: HttpState,
  wiring: Wiring,
  fanOut: (scope: string) => void,
) {
  return new ApiServers({
    config: options.config,
    makeServer: options.createServer ?? createServer,
    taskWork: state.taskWork,
    ownership: state.ownership,
    fairShare: state.fairShare,
    telemetry: options.telemetry,
    rateStore: state.fleet?.rateStore,
    callbacks: wiring.bound.callbacks,
    keyScope: keyScopeOf(state),
    toolsChanged: fanOut,
    maxClients: options.maxClients,
    log: wiring.log,
  });
}

const keyScopeOf = (state: HttpState) => (apiKey: string) => state.hash(`key\n${apiKey}`);

/** Unset: a caller's own key is welcome on a token-guarded or loopback server, but behind OAuth the upstream key stays the server's unless the operator says otherwise. */
const keyHeaderAllowed = (options: HttpServerOptions) => options.config.httpAllowKeyHeader ?? !options.oauth;

/** The MCP servers, the sessions' streams, call routing and both revisions' endpoints, wired to the state. */
async function wire(options: HttpServerOptions, state: HttpState, wiring: Wiring): Promise<Parts> {
  const { fleet, taskWork, events } = state;
  const draining = () => wiring.drain.aborted;
  const servers: ApiServers = apiServers(options, state, wiring, (scope) => {
    void streams.toolsChanged(scope);
    modern.toolsChanged(scope);
  });
  const serverFor = (apiKey: string | undefined) => servers.serverFor(apiKey);
  // Revision 2026-07-28 beside 2025-11-25 on the same /mcp (loaded here: stdio never loads it).
  const { createModernEndpoint } = await import("./modern/http.js");
  const modern: ModernEndpoint = createModernEndpoint({
    config: options.config,
    hash: state.hash,
    maxBodyBytes: MAX_BODY,
    keyHeader: { name: API_KEY_HEADER, allowed: keyHeaderAllowed(options) },
    serverFor,
    keyScope: keyScopeOf(state),
    draining,
    log: wiring.log,
  });
  const streams: SessionStreams = await state.openStreams({
    retryMs: RETRY_MS,
    // Another replica saw the catalog change: this one's catalog of that key refreshes first.
    refresh: async (scope) => void (await servers.anchorOf(scope)?.services.agents?.refresh()),
  });
  const calls = new CallRegistry((sessionId) => {
    streams.endSession(sessionId);
    taskWork.endSession(sessionId);
    void Promise.resolve(events.endSession(sessionId)).catch(() => {});
  }, fleet?.callAnnouncer);
  await fleet?.onCallAnnouncement((announcement) => calls.receive(announcement));
  let sessionsOpen = 0;
  const countSessions = async () => {
    sessionsOpen = await state.sessions.count();
    return sessionsOpen;
  };
  options.telemetry?.observeSessions(() => sessionsOpen);
  const mcp = mcpEndpoint(options, state, {
    streams,
    calls,
    serverFor,
    draining,
    countSessions,
    log: wiring.log,
  });
  if (options.config.apiKey) servers.useServerKey(options.config.apiKey);
  return { servers, streams, mcp, modern, countSessions, started: Date.now() };
}

/** The 2025-11-25 endpoint (./http/mcp.ts) over the state. */
function mcpEndpoint(
  options: HttpServerOptions,
  state: HttpState,
  with_: Pick<McpDeps, "streams" | "calls" | "serverFor" | "draining" | "log"> & {
    countSessions(): Promise<number>;
  },
): McpEndpoint {
  const { telemetry } = options;
  return new McpEndpoint({
    sessions: state.sessions,
    events: state.events,
    streams: with_.streams,
    calls: with_.calls,
    hash: state.hash,
    serverFor: with_.serverFor,
    draining: with_.draining,
    keyHeader: keyHeaderAllowed(options),
    sessionsChanged: () => void with_.countSessions().catch(() => {}),
    resumes: new CallerSlots(
      options.maxResumesPerPrincipal ?? DEFAULT_RESUMES_PER_PRINCIPAL,
      options.maxResumes ?? DEFAULT_RESUMES,
    ),
    instrument: telemetry && ((transport) => telemetry.instrument(transport)),
    log: with_.log,
  });
}

/** The routes (./http/app.ts) with the authenticator the options choose. */
function routes(
  options: HttpServerOptions,
  at: {
    token?: string;
    state: HttpState;
    parts: Parts;
    bound: Bound;
    drain: AbortSignal;
    log(line: string): void;
  },
): HttpApp {
  const { parts, bound } = at;
  const staticAuth = staticTokenAuthenticator(at.token);
  const oauth = bound.oauth;
  const authenticate: Authenticator =
    options.authenticate ?? (oauth ? (request) => oauthAuthenticate(oauth, request) : staticAuth);
  const open = !options.authenticate && !options.oauth && !at.token;
  return buildApp({
    allow: bound.allow,
    authenticate,
    open,
    mcp: parts.mcp,
    modern: parts.modern,
    callbacks: bound.callbacks,
    health: () => health(at.state, parts, bound, at.drain),
    extraRoutes: (app) => {
      oauthMetadataRoute(app, oauth);
      if (options.metricsPort === undefined)
        metricsRoutes(app, requireBearer(authenticate, open), options.telemetry?.scrape);
      options.extraRoutes?.(app);
    },
    log: at.log,
  });
}

/** `/healthz`: the status for anyone, the counters for an authenticated caller (`app.ts`). */
async function health(state: HttpState, parts: Parts, bound: Bound, drain: AbortSignal) {
  const { callbacks } = bound;
  const draining = drain.aborted;
  return {
    status: draining ? 503 : 200,
    body: {
      status: draining ? "draining" : "ok",
      sessions: await parts.countSessions(),
      uptime_s: Math.floor((Date.now() - parts.started) / 1000),
      ...parts.mcp.health(),
      active_requests_2026: parts.modern.active,
      calls_running_2026: parts.modern.calls,
      streams_open: parts.streams.live,
      tasks_running: state.taskWork.running,
      long_calls_waiting: state.fairShare.waiting,
      calls_waiting: state.fairShare.callsWaiting,
      resumes_open: parts.mcp.resumesOpen,
      ...(state.fleet ? { replica: state.fleet.shared.replica } : {}),
      ...(callbacks
        ? {
            callbacks_delivered: callbacks.deliveries,
            callbacks_from_elsewhere: callbacks.completedElsewhere,
          }
        : {}),
      clients: parts.servers.size,
    },
  };
}

/** RFC 9728 metadata of the OAuth resource server, when there is one. */
function oauthMetadataRoute(app: HttpApp, server: ResourceServer | undefined): void {
  app.on(["GET", "HEAD"], "/.well-known/*", (c) => {
    return server?.metadataPaths.includes(c.req.path)
      ? json(200, server.metadata(), { "access-control-allow-origin": "*" })
      : json(404, { error: "not found" });
  });
}

/** Listens with hono's node adapter; hosts are compared (and URLs built) in canonical form. */
async function listenHttp(app: Promise<HttpApp>, host: string, port: number): Promise<Server> {
  const listener = app.then((routes) =>
    getRequestListener(routes.fetch, {
      errorHandler: () => rpcError(400, "Bad Request: the request could not be read"),
    }),
  );
  const server = createNodeServer((req, res) => {
    // `[0:0:0:0:0:0:0:1]:8787` and `[::1]:8787` are one host.
    const canonical = canonicalHost(req.headers.host);
    if (canonical) req.headers.host = canonical;
    void listener.then((serve) => serve(req, res));
  });
  // As the sandbox's (src/sandbox/index.ts): idle sockets are the client's to close, so a stalled
  // event loop cannot reset a POST a client just sent on a socket Node's 5 s timer was closing.
  server.keepAliveTimeout = 65_000;
  server.listen(port, host);
  // Rejects on an "error" (e.g. the port is taken) before "listening".
  await once(server, "listening");
  return server;
}

interface Started {
  host: string;
  port: number;
  state: HttpState;
  parts: Parts;
  bound: Bound;
  server: Server;
  drain: AbortController;
  log(line: string): void;
}

/** The running server's handle: its URLs, the idle sweep and the shutdown. */
function finishStart(options: HttpServerOptions, started: Started): HttpServer {
  const { host, port, state, bound } = started;
  const sweeper = startSweeper(started, options.idleTimeoutMs);
  const shutdown = shutdownOf(options, { ...started, sweeper });
  const wildcard = host === "0.0.0.0" || host === "::";
  const shownHost = wildcard ? "127.0.0.1" : host.includes(":") ? `[${host}]` : host;
  const metricsPort = bound.metricsServer ? (bound.metricsServer.address() as AddressInfo).port : port;
  return {
    url: `http://${shownHost}:${port}${MCP_PATH}`,
    port,
    allow: bound.allow,
    sessionCount: () => state.sessions.count(),
    callbacks: bound.callbacks,
    oauthResource: bound.oauth?.resource,
    metricsUrl: options.telemetry?.scrape ? `http://${shownHost}:${metricsPort}/metrics` : undefined,
    sweepIdle: () => state.sessions.sweep(),
    shutdown,
  };
}

/** Expires idle sessions, old stream events, dropped streams and webhook registrations. */
function startSweeper(started: Started, idleTimeoutMs: number | undefined): NodeJS.Timeout {
  const { state, parts, bound, log } = started;
  const sweeper = setInterval(
    () => {
      void state.sessions
        .sweep()
        .then(parts.countSessions)
        .catch((e: unknown) => log(`session sweep failed: ${String(e)}`));
      void state.events.sweep();
      parts.streams.sweep();
      bound.callbacks?.sweep();
    },
    Math.max(1_000, Math.min(60_000, idleTimeoutMs ?? 60_000)),
  );
  sweeper.unref();
  return sweeper;
}

/** Stops accepting, lets open calls finish within the drain, answers the rest, closes everything once. */
function shutdownOf(
  options: HttpServerOptions,
  started: Started & { sweeper: NodeJS.Timeout },
): (drainMs?: number) => Promise<void> {
  const { state, parts, bound, server, sweeper } = started;
  const { metricsServer } = bound;
  let stopping: Promise<void> | undefined;
  return (drainMs = options.drainMs ?? 10_000) => {
    stopping ??= (async () => {
      started.drain.abort();
      clearInterval(sweeper);
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeIdleConnections();
      await parts.mcp.whenIdle(AbortSignal.timeout(drainMs));
      await parts.mcp.abortAll(SHUTDOWN_MESSAGE);
      parts.modern.close();
      parts.streams.close();
      await parts.servers.close();
      bound.callbacks?.close();
      server.closeAllConnections();
      await closed;
      if (metricsServer) {
        metricsServer.closeAllConnections();
        await new Promise<void>((resolve) => metricsServer.close(() => resolve()));
      }
      await options.telemetry?.shutdown();
      await state.close();
    })();
    return stopping;
  };
}
