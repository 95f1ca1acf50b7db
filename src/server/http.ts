/**
 * The Streamable HTTP transport: `startHttpServer()` serves the MCP endpoint at `/mcp` (see
 * `./http/mcp.ts`: a fresh SDK transport and server per request, sessions as records bound to
 * the caller's credential), guarded by Host/Origin allow-lists and an `Authenticator` (the static
 * access token by default), plus `GET /healthz` and, with a public URL, the webhook receiver
 * `POST /callbacks/task/<token>`. Routes are hono's (`./http/app.ts`) on `@hono/node-server`.
 * `shutdown()` drains in-flight calls and answers those still running with a JSON-RPC error.
 * The CLI entry (flags, signals) is `./http/main.ts`.
 */
import { randomBytes } from "node:crypto";
import {
  createServer as createNodeServer,
  type IncomingMessage,
  type Server,
  type ServerResponse,
} from "node:http";
import type { AddressInfo } from "node:net";
import { getRequestListener } from "@hono/node-server";
import { RESPONSE_ALREADY_SENT } from "@hono/node-server/utils/response";
import { InMemoryTaskStore } from "@modelcontextprotocol/sdk/experimental/tasks";
import type { WebDataClient, WebDataClientOptions } from "../api/client.js";
import type { Config } from "../config.js";
import type { Telemetry } from "../telemetry/index.js";
import { type CreateServerOptions, createServer, type WebDataServer } from "./create-server.js";
import { FairShare, type FairShareLimits } from "./fair-share.js";
import { buildApp, type HttpApp, MCP_PATH } from "./http/app.js";
import {
  type Authenticator,
  credentialHasher,
  oauthAuthenticate,
  staticTokenAuthenticator,
} from "./http/auth.js";
import { CallbackClient } from "./http/callback-client.js";
import { CallbackRegistry } from "./http/callbacks.js";
import { CallRegistry } from "./http/calls.js";
import { ClientPool, ServerPool } from "./http/clients.js";
import { MemoryEvents, type StreamEvents } from "./http/events.js";
import { type AllowList, buildAllowList, canonicalHost, isLoopbackHost } from "./http/guard.js";
import { McpEndpoint, RETRY_MS } from "./http/mcp.js";
import type { ResourceServer } from "./http/oauth/resource-server.js";
import type { OAuthSettings } from "./http/oauth/settings.js";
import type { VerifierOptions } from "./http/oauth/verifier.js";
import { json, rpcError } from "./http/respond.js";
import { SessionStreams } from "./http/session-streams.js";
import { DEFAULT_SESSION_LIMITS, MemorySessions, type SessionStore } from "./http/sessions.js";
import { MemoryOwnership, type OwnershipStore } from "./ownership.js";
import { ANNOUNCED_WATCH_MS, TaskWork } from "./tasks.js";

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
  /** Per-principal limits on long calls and tasks running and waiting (per replica); defaults 4 and 100. */
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

/** What every call still running at the end of the drain gets. */
export const SHUTDOWN_MESSAGE =
  "The server shut down before this call finished: call again (work the API already accepted can be continued with get_task)";

export async function startHttpServer(options: HttpServerOptions): Promise<HttpServer> {
  const { config } = options;
  const host = options.host ?? "127.0.0.1";
  const token = options.token ?? config.httpToken;
  const log = options.log ?? ((line: string) => process.stderr.write(`[web-data] ${line}\n`));
  if (options.oauth && token) {
    throw new Error("both OAuth (WEBDATA_OAUTH_ISSUER) and a static access token are set: choose one");
  }
  if (!isLoopbackHost(host) && !token && !options.oauth && !options.authenticate) {
    throw new Error(
      `refusing to listen on ${host} without an access token: set WEBDATA_HTTP_TOKEN or WEBDATA_OAUTH_ISSUER (or bind 127.0.0.1)`,
    );
  }
  let oauth: ResourceServer | undefined;
  const staticAuth = staticTokenAuthenticator(token);
  let callbacks: CallbackRegistry | undefined;
  const makeServer = options.createServer ?? createServer;
  const limits = {
    idleTimeoutMs: options.idleTimeoutMs ?? DEFAULT_SESSION_LIMITS.idleTimeoutMs,
    maxSessions: options.maxSessions ?? DEFAULT_SESSION_LIMITS.maxSessions,
    maxPerPrincipal: options.maxSessionsPerPrincipal ?? DEFAULT_SESSION_LIMITS.maxPerPrincipal,
  };
  // Loaded only with a Redis URL (it brings ioredis).
  const fleet = options.redisUrl
    ? await (await import("./http/fleet.js")).joinFleet(options.redisUrl, limits, log, options.now)
    : undefined;
  const memoryTasks = fleet ? undefined : new InMemoryTaskStore();
  const ownership: OwnershipStore = fleet?.ownership ?? new MemoryOwnership();
  const fairShare = new FairShare(options.fairShare);
  // A cancel through any replica stops the work on the one running it at once; the record's
  // watch is then only the fallback.
  const taskWork = fleet
    ? new TaskWork(fleet.tasks, ANNOUNCED_WATCH_MS)
    : new TaskWork(memoryTasks as InMemoryTaskStore);
  await fleet?.tasks.onCancel((taskId) => taskWork.cancelledElsewhere(taskId));
  const services = (ownKey: boolean) => ({
    ...(callbacks ? { taskCompletion: callbacks.completion } : {}),
    ...(ownKey ? { sessionKey: true } : {}),
  });
  const makeClient = (apiKey: string) => {
    const clientOptions: WebDataClientOptions = {
      baseUrl: config.baseUrl,
      apiKey,
      legacyBaseUrl: config.legacyBaseUrl,
      legacyAuth: config.legacyAuth,
      maxRps: config.maxRps,
      observer: options.telemetry?.apiObserver,
      generation: config.apiGeneration,
    };
    return new CallbackClient(clientOptions, callbacks);
  };
  // Only a client's anchor reports tool list changes: it is the one server per client that lives.
  const serverOf = (client: WebDataClient, apiKey: string, ownKey: boolean, anchor = false) =>
    makeServer({
      config: ownKey ? { ...config, apiKey } : config,
      client,
      services: services(ownKey),
      taskWork,
      ownership,
      fairShare,
      ...(anchor ? { onToolsChanged: () => void streams.toolsChanged(ownKey ? keyScope(apiKey) : "") } : {}),
    });
  const clients = new ClientPool({
    makeClient,
    makeAnchor: (client, apiKey) => serverOf(client, apiKey, true, true),
    makeServer: (client, apiKey) => serverOf(client, apiKey, true),
    max: options.maxClients,
    onError: log,
  });
  let shared: { client: WebDataClient; anchor: WebDataServer; servers: ServerPool } | undefined;
  const sessions: SessionStore = fleet?.sessions ?? new MemorySessions(limits, options.now);
  const events: StreamEvents = fleet?.events ?? new MemoryEvents();
  const started = Date.now();
  const { telemetry } = options;
  const scrape = telemetry?.scrape;
  let sessionsOpen = 0;
  const countSessions = async () => {
    sessionsOpen = await sessions.count();
    return sessionsOpen;
  };
  options.telemetry?.observeSessions(() => sessionsOpen);
  let draining = false;
  let allow: AllowList = { hosts: [], origins: [] };

  // Shared by the fleet (principals must be the same on every replica), else this process's own.
  const hash = credentialHasher(fleet?.salt ?? randomBytes(32));
  const keyScope = (apiKey: string) => hash(`key\n${apiKey}`);
  const streams = new SessionStreams({
    events,
    retryMs: RETRY_MS,
    announcer: fleet?.toolsAnnouncer,
    // Another replica saw the catalog change: this one's catalog of that key refreshes first.
    refresh: async (scope) => {
      const anchor = scope === "" ? shared?.anchor : clients.anchorOf((apiKey) => keyScope(apiKey) === scope);
      await anchor?.services.agents?.refresh();
    },
  });
  await fleet?.onToolsAnnouncement((scope) => void streams.receive(scope));
  const calls = new CallRegistry((sessionId) => {
    streams.endSession(sessionId);
    taskWork.endSession(sessionId);
    void Promise.resolve(events.endSession(sessionId)).catch(() => {});
  }, fleet?.callAnnouncer);
  await fleet?.onCallAnnouncement((announcement) => calls.receive(announcement));
  const mcp = new McpEndpoint({
    sessions,
    events,
    streams,
    calls,
    hash,
    serverFor(apiKey) {
      if (apiKey) {
        const held = clients.acquire(apiKey);
        const server = held.servers.take();
        return { server, release: () => held.servers.give(server).finally(held.release) };
      }
      if (!shared) return undefined;
      const { servers } = shared;
      const server = servers.take();
      return { server, release: () => servers.give(server) };
    },
    draining: () => draining,
    // Unset: a caller's own key is welcome on a token-guarded or loopback server, but behind OAuth
    // the upstream key stays the server's unless the operator says otherwise.
    keyHeader: config.httpAllowKeyHeader ?? !options.oauth,
    sessionsChanged: () => void countSessions().catch(() => {}),
    instrument: telemetry && ((transport) => telemetry.instrument(transport)),
    log,
  });
  const authenticate: Authenticator = (request) => {
    if (options.authenticate) return options.authenticate(request);
    return oauth ? oauthAuthenticate(oauth, request) : staticAuth(request);
  };
  const app = buildApp({
    allow: () => allow,
    // Chosen per request: the OAuth resource server is made once the public URL is known.
    authenticate,
    mcp,
    callbacks: () => callbacks,
    health: async () => ({
      status: draining ? 503 : 200,
      body: {
        status: draining ? "draining" : "ok",
        sessions: await countSessions(),
        uptime_s: Math.floor((Date.now() - started) / 1000),
        ...mcp.health(),
        streams_open: streams.live,
        tasks_running: taskWork.running,
        long_calls_waiting: fairShare.waiting,
        ...(fleet ? { replica: fleet.shared.replica } : {}),
        ...(callbacks
          ? {
              callbacks_delivered: callbacks.deliveries,
              callbacks_from_elsewhere: callbacks.completedElsewhere,
            }
          : {}),
        clients: clients.size,
      },
    }),
    extraRoutes: (app) => {
      app.on(["GET", "HEAD"], "/.well-known/*", (c) =>
        oauth?.metadataPaths.includes(c.req.path)
          ? json(200, oauth.metadata(), { "access-control-allow-origin": "*" })
          : json(404, { error: "not found" }),
      );
      if (scrape && options.metricsPort === undefined) {
        // Beside /mcp, /metrics needs the same authorization.
        app.get("/metrics", async (c) => {
          const outcome = await authenticate(c.req.raw);
          if (!outcome.ok) return rpcError(outcome.status, outcome.message, { headers: outcome.headers });
          const { incoming, outgoing } = c.env as unknown as NodeBindings;
          scrape(incoming, outgoing);
          return RESPONSE_ALREADY_SENT;
        });
      }
      options.extraRoutes?.(app);
    },
    log,
  });

  const listener = getRequestListener(app.fetch, {
    errorHandler: () => rpcError(400, "Bad Request: the request could not be read"),
  });
  const server = createNodeServer((req, res) => {
    // `[0:0:0:0:0:0:0:1]:8787` and `[::1]:8787` are one host: compare (and build URLs) canonically.
    const canonical = canonicalHost(req.headers.host);
    if (canonical) req.headers.host = canonical;
    void listener(req, res);
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
      ? await listenMetrics(scrape, host, options.metricsPort).catch((error: unknown) => {
          server.close();
          throw error;
        })
      : undefined;
  const publicOption = options.publicUrl ?? config.publicUrl;
  const publicUrl = typeof publicOption === "function" ? publicOption(port) : publicOption;
  if (publicUrl) callbacks = new CallbackRegistry({ publicUrl, share: fleet?.callbackShare, hash });
  await fleet?.onCallback((taskId) => callbacks?.deliveredElsewhere(taskId));
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
  if (config.apiKey) {
    const client = makeClient(config.apiKey);
    shared = {
      client,
      anchor: serverOf(client, config.apiKey, false, true),
      servers: new ServerPool(() => serverOf(client, config.apiKey, false)),
    };
  }
  allow = buildAllowList({
    host,
    port,
    extraHosts: options.allowedHosts,
    extraOrigins: options.allowedOrigins,
    publicUrl,
  });
  const sweeper = setInterval(
    () => {
      void sessions
        .sweep()
        .then(countSessions)
        .catch((e: unknown) => log(`session sweep failed: ${String(e)}`));
      void events.sweep();
      streams.sweep();
      callbacks?.sweep();
    },
    Math.max(1_000, Math.min(60_000, options.idleTimeoutMs ?? 60_000)),
  );
  sweeper.unref();

  let stopping: Promise<void> | undefined;
  const shutdown = (drainMs = options.drainMs ?? 10_000) => {
    stopping ??= (async () => {
      draining = true;
      clearInterval(sweeper);
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeIdleConnections();
      await mcp.whenIdle(AbortSignal.timeout(drainMs));
      await mcp.abortAll(SHUTDOWN_MESSAGE);
      streams.close();
      taskWork.close();
      memoryTasks?.cleanup();
      await clients.close();
      await shared?.servers.close();
      await shared?.anchor.close();
      await shared?.client.close();
      await events.close();
      await sessions.close();
      callbacks?.close();
      server.closeAllConnections();
      await closed;
      if (metricsServer) {
        metricsServer.closeAllConnections();
        await new Promise<void>((resolve) => metricsServer.close(() => resolve()));
      }
      await options.telemetry?.shutdown();
      await fleet?.close();
    })();
    return stopping;
  };

  const wildcard = host === "0.0.0.0" || host === "::";
  const shownHost = wildcard ? "127.0.0.1" : host.includes(":") ? `[${host}]` : host;
  return {
    url: `http://${shownHost}:${port}${MCP_PATH}`,
    port,
    allow,
    sessionCount: () => sessions.count(),
    callbacks,
    oauthResource: oauth?.resource,
    metricsUrl: scrape
      ? `http://${shownHost}:${metricsServer ? (metricsServer.address() as AddressInfo).port : port}/metrics`
      : undefined,
    sweepIdle: () => sessions.sweep(),
    shutdown,
  };
}

type NodeBindings = { incoming: IncomingMessage; outgoing: ServerResponse };

/** `/metrics` alone on its own port (`--metrics-port`), for a scraper inside the network. */
async function listenMetrics(
  scrape: NonNullable<Telemetry["scrape"]>,
  host: string,
  port: number,
): Promise<Server> {
  const metrics = createNodeServer((req, res) => {
    const path = new URL(req.url ?? "/", "http://localhost").pathname;
    if (path === "/metrics" && req.method === "GET") return scrape(req, res);
    res.writeHead(404, { "content-type": "application/json" });
    res.end(JSON.stringify({ error: "not found: metrics are at /metrics" }));
  });
  await new Promise<void>((resolve, reject) => {
    metrics.once("error", reject);
    metrics.listen(port, host, () => {
      metrics.off("error", reject);
      resolve();
    });
  });
  return metrics;
}
