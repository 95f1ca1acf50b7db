/**
 * `/mcp` for revision 2026-07-28 requests, beside the 2025 path (`../http/mcp.ts`) on the same
 * endpoint: the SDK sorts each request (`isLegacyRequest`, the classifier `createMcpHandler` runs
 * itself) and this module serves the new-era ones with `createMcpHandler(factory, { legacy:
 * "reject" })`. No session and nothing held between requests: any replica answers any request.
 *
 * The request has passed the same Host/Origin guard, body limit and authentication as the 2025
 * path (`../http/app.ts`); the caller is made a principal here by the same `callerOf`, and
 * that principal, the request's cache policy and the shutdown signal are handed to the server
 * factory as parameters (`ModernRequest`), then to each call as its `CallScope`.
 * `subscriptions/listen` streams hear `tools/list_changed` from one event bus per tool scope (the
 * server's key, or a caller's own key: its agent catalog), fed by the anchors' catalog refreshes.
 */
import { createMcpHandler, InMemoryServerEventBus, isLegacyRequest } from "@modelcontextprotocol/server";
import type { Config } from "../../config.js";
import type { CredentialHash } from "../../principal.js";
import type { HeldServer } from "../http/api-servers.js";
import type { Identity } from "../http/auth/authenticate.js";
import { type Caller, callerOf } from "../http/auth/principal.js";
import { rpcError } from "../http/respond.js";
import { cachePolicy } from "./cache.js";
import { createModernServer } from "./server.js";

export interface ModernEndpointDeps {
  config: Config;
  hash: CredentialHash;
  /** The request's body limit (the 2025 path's too). */
  maxBodyBytes: number;
  /** The header a caller's own API key comes in, and whether the operator allows it. */
  keyHeader: { name: string; allowed: boolean };
  serverFor(apiKey: string | undefined): HeldServer | undefined;
  /** The tool scope of a caller's own key (`""`: the server's key). */
  keyScope(apiKey: string): string;
  draining(): boolean;
  log(line: string): void;
}

export interface ModernEndpoint {
  /** True for a 2025-era request (the sessionful path serves it). */
  isLegacy(request: Request): Promise<boolean>;
  handle(request: Request, identity: Identity | undefined): Promise<Response>;
  /** The tool list of `scope` changed: tell its `subscriptions/listen` streams. */
  toolsChanged(scope: string): void;
  /** In-flight new-era requests (for `/healthz`). */
  readonly active: number;
  /** New-era tool calls still running (a cancelled one ends when its work has stopped). */
  readonly calls: number;
  /** Aborts every new-era call still running (the end of the shutdown drain). */
  close(): void;
}

/** Counts of what is running: in-flight requests, and tool calls (a cancelled one until its work stops). */
function counters() {
  const counts = { active: 0, calls: 0 };
  const track = (work: Promise<unknown>) => {
    counts.calls += 1;
    void work.finally(() => {
      counts.calls -= 1;
    });
  };
  return { counts, track };
}

interface Running {
  counts: { active: number };
  track(work: Promise<unknown>): void;
  shutdown: AbortSignal;
  busOf(scope: string): InMemoryServerEventBus;
}

/** Serves one new-era request for `caller` on a held server, released once its exchange is over. */
async function serve(request: Request, caller: Caller, deps: ModernEndpointDeps, running: Running) {
  const { apiKey, principal } = caller;
  const held = deps.serverFor(apiKey);
  if (!held) return rpcError(401, `Unauthorized: send the Web Data API key in ${deps.keyHeader.name}`);
  let released = false;
  const release = () => {
    if (released) return;
    released = true;
    running.counts.active -= 1;
    void held.release().catch((e: unknown) => deps.log(`server release failed: ${String(e)}`));
  };
  running.counts.active += 1;
  const handler = createMcpHandler(
    () => {
      const modern = createModernServer(held.server, {
        principal,
        cache: cachePolicy(deps.config, apiKey !== undefined),
        shutdown: running.shutdown,
        track: running.track,
      });
      // The per-request instance closes once its exchange (or its listen stream) is over.
      modern.onclose = release;
      return modern;
    },
    {
      legacy: "reject",
      bus: running.busOf(apiKey === undefined ? "" : deps.keyScope(apiKey)),
      maxRequestBodySize: deps.maxBodyBytes,
      onerror: (error) => deps.log(`2026-07-28 request: ${error.message}`),
    },
  );
  try {
    const response = await handler.fetch(request);
    // Refused before an instance was made (a bad header, an unsupported version): nothing to wait for.
    if (!response.headers.get("content-type")?.includes("text/event-stream")) queueMicrotask(release);
    return response;
  } catch (error) {
    release();
    throw error;
  }
}

export function createModernEndpoint(deps: ModernEndpointDeps): ModernEndpoint {
  const buses = new Map<string, InMemoryServerEventBus>();
  const busOf = (scope: string) => {
    const bus = buses.get(scope) ?? new InMemoryServerEventBus();
    buses.set(scope, bus);
    return bus;
  };
  const shutdown = new AbortController();
  const { counts, track } = counters();
  const running: Running = { counts, track, shutdown: shutdown.signal, busOf };
  return {
    isLegacy: (request) => isLegacyRequest(request, undefined, { maxRequestBodySize: deps.maxBodyBytes }),
    async handle(request, identity) {
      if (deps.draining()) return rpcError(503, "Service Unavailable: the server is shutting down");
      const caller = callerOf(request, identity, deps);
      return caller instanceof Response ? caller : serve(request, caller, deps, running);
    },
    toolsChanged: (scope) => buses.get(scope)?.publish({ kind: "tools_list_changed" }),
    get active() {
      return counts.active;
    },
    get calls() {
      return counts.calls;
    },
    close: () => shutdown.abort(new Error("The server shut down before this call finished: call again")),
  };
}
