/**
 * The MCP server for revision 2026-07-28 traffic: the v2 SDK's low-level `Server`
 * (`@modelcontextprotocol/server`), built for one HTTP request (or one stdio connection) over the
 * same tools as the 2025 path — the `Runtime` of a `WebDataServer` (./../runtime.ts): one
 * registry, one runner (`runCall`), one call scope. Loaded only when a new-era request arrives.
 *
 * What the revision asks and where it is answered: `server/discover`, the `_meta` envelope,
 * `Mcp-Method`/`Mcp-Name` (-32020), unsupported versions (-32022 with the supported ones) and the
 * removed methods (`ping`, `logging/setLevel`: -32601) are the SDK's; this module gives it the
 * capabilities, the instructions, the cache hints (./cache.ts), the tools and the per-call scope.
 */
import {
  type CallToolResult,
  LOG_LEVEL_META_KEY,
  type LoggingLevel,
  ProtocolError,
  ProtocolErrorCode,
  ResourceNotFoundError,
  Server,
  type ServerContext,
  type Tool,
} from "@modelcontextprotocol/server";
import type { Logger } from "../../logger.js";
import type { Principal } from "../../principal.js";
import type { CallScope, ProgressNotice } from "../call-scope.js";
import { INSTRUCTIONS } from "../instructions.js";
import { LOG_LEVELS } from "../logging.js";
import type { Runtime } from "../runtime.js";
import { SERVER_NAME, VERSION } from "../version.js";
import { type CachePolicy, cacheHints } from "./cache.js";

export interface ModernSource {
  /** The tools and their runner for this request's API key. */
  runtime(): Promise<Runtime>;
  /** The tools as listed now (the build-time list until the tools are loaded, as on the 2025 path). */
  listTools(): Promise<unknown[]>;
  /** The server's logger (stderr; redacts). */
  logger: Logger;
}

export interface ModernRequest {
  /** Over HTTP: who the request is for. */
  principal?: Principal;
  cache: CachePolicy;
  /** Aborted when the server shuts down (the request's own cancellation comes from the SDK). */
  shutdown?: AbortSignal;
  /** Told of each tool call's work, which settles when the call has ended (`/healthz`, the drain). */
  track?(work: Promise<unknown>): void;
}

/**
 * The call's logger: stderr as always, and the caller at the level its request's `_meta`
 * `io.modelcontextprotocol/logLevel` names — none at all without it (the revision forbids
 * `notifications/message` for a request that did not ask).
 */
function callLogger(base: Logger, ctx: ServerContext, redact: (s: string) => string): Logger {
  const asked = (ctx.mcpReq.envelope as Record<string, unknown> | undefined)?.[LOG_LEVEL_META_KEY];
  const min = typeof asked === "string" ? LOG_LEVELS.indexOf(asked as LoggingLevel) : -1;
  const line =
    (level: "debug" | "info" | "warning" | "error") => (message: string, data?: Record<string, unknown>) => {
      base[level](message, data);
      if (min < 0 || LOG_LEVELS.indexOf(level) < min) return;
      const safe = redact(message);
      const payload =
        data === undefined ? safe : { message: safe, ...JSON.parse(redact(JSON.stringify(data))) };
      void ctx.mcpReq
        .notify({ method: "notifications/message", params: { level, logger: SERVER_NAME, data: payload } })
        .catch(() => {});
    };
  return { debug: line("debug"), info: line("info"), warning: line("warning"), error: line("error") };
}

/** The call scope of one 2026-07-28 request: built here once, passed down to the runner. */
function scopeOf(ctx: ServerContext, request: ModernRequest, log: Logger, runtime: Runtime): CallScope {
  const token = ctx.mcpReq._meta?.progressToken;
  const signal = request.shutdown
    ? AbortSignal.any([ctx.mcpReq.signal, request.shutdown])
    : ctx.mcpReq.signal;
  return {
    principal: request.principal,
    signal,
    ...(typeof token === "string" || typeof token === "number" ? { progressToken: token } : {}),
    sendNotification: (notice: ProgressNotice) => ctx.mcpReq.notify(notice),
    log: callLogger(log, ctx, runtime.redact),
  };
}

export function createModernServer(source: ModernSource, request: ModernRequest): Server {
  const server = new Server(
    { name: SERVER_NAME, title: "Web Data", version: VERSION },
    {
      capabilities: { tools: { listChanged: true }, resources: {}, logging: {} },
      instructions: INSTRUCTIONS,
      cacheHints: cacheHints(request.cache),
    },
  );
  server.setRequestHandler("tools/list", async () => ({ tools: (await source.listTools()) as Tool[] }));
  server.setRequestHandler("tools/call", async (call, ctx): Promise<CallToolResult> => {
    const runtime = await source.runtime();
    const { name, arguments: args = {} } = call.params;
    const running = runtime.run(name, args, scopeOf(ctx, request, source.logger, runtime));
    if (!running) {
      throw new ProtocolError(
        ProtocolErrorCode.InvalidParams,
        `Unknown tool "${name}". Call tools/list for the tools this server has.`,
      );
    }
    request.track?.(running);
    return (await running) as CallToolResult;
  });
  server.setRequestHandler("resources/list", () => ({ resources: [] }));
  server.setRequestHandler("resources/templates/list", async () => (await source.runtime()).templates());
  server.setRequestHandler("resources/read", async (read, ctx) => {
    const { uri } = read.params;
    const runtime = await source.runtime();
    const outcome = await runtime.readIn(uri, scopeOf(ctx, request, source.logger, runtime));
    if (outcome.ok) return { contents: outcome.contents };
    if (outcome.missing) throw new ResourceNotFoundError(uri, `Resource not found: ${uri}`);
    throw new ProtocolError(ProtocolErrorCode.InternalError, outcome.message);
  });
  return server;
}
