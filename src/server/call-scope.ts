/**
 * One call's scope, whichever protocol revision carried it: who it is for, how it is cancelled,
 * where its progress and log lines go. Built once per request by the transport layer (the 2025
 * path: the HTTP endpoint's `RequestScope` plus the SDK's handler `extra`; the 2026-07-28 path
 * from its own request context) and passed down as a parameter to the one tool runner (`runCall`
 * in ./call-tool.ts). A tool sees only its `ToolContext`, never the revision.
 */
import type { AuthInfo } from "@modelcontextprotocol/sdk/server/auth/types.js";
import type { LoggingLevel } from "@modelcontextprotocol/sdk/types.js";
import type { RouteHook } from "../api/route-hook.js";
import type { Logger } from "../logger.js";
import type { Principal } from "../principal.js";
import type { McpTasks } from "../tools/tool.js";

/** A `notifications/progress` as both revisions send it. */
export interface ProgressNotice {
  method: "notifications/progress";
  params: { progressToken: string | number; progress: number; total?: number; message?: string };
}

export interface CallScope {
  /** Over HTTP: who the call is for (every piece of state and every cap belongs to it). stdio: none. */
  principal?: Principal;
  /** Aborted when the client cancels (2025: `notifications/cancelled`; 2026 HTTP: it closed the stream). */
  signal: AbortSignal;
  /** The request's progress token, when the client asked for progress. */
  progressToken?: string | number;
  /** Where progress goes: on the request's own stream. */
  sendNotification(notification: ProgressNotice): Promise<void>;
  /** The call's logger: its lines reach the caller at the level it asked for (and stderr). */
  log?: Logger;
  /** What the call may do to the caller's MCP tasks (2025 path only: the 2026 one has none). */
  tasks?: McpTasks;
  /** Put around every route call of this call's client (over HTTP: notes the handle a resume answers with). */
  hook?: RouteHook;
}

/**
 * One 2025-11-25 HTTP request's scope, built once from the request by the HTTP endpoint
 * (src/server/http/mcp.ts) and handed to the server it runs on (`RequestScopes.enter`): every
 * call and resource read of that request runs in it. stdio has none.
 */
export interface RequestScope {
  /** Who the request is for: every piece of state and every cap belongs to it. */
  principal: Principal;
  /** The caller's own API key (absent: the server's). A secret: never logged or returned. */
  apiKey?: string;
  /** The session the request belongs to (MCP tasks, cancels and stream events are scoped by it). */
  sessionId: string;
  /** The level the session's client asked for with `logging/setLevel`. */
  logLevel: LoggingLevel;
  /** Put around every route call the request's tool calls make (`CallScope.hook`). */
  hook?: RouteHook;
}

/**
 * The scopes of the requests one server serves. The SDK hands each request handler the
 * `AuthInfo` the transport was given with the request (`extra.authInfo`, the same object): the
 * HTTP layer hands it the minimal one `enter` makes for the request's scope, and the handlers find
 * the scope by it (`of`). Nothing rides on the `AuthInfo` itself.
 */
export class RequestScopes {
  readonly #byAuth = new WeakMap<AuthInfo, RequestScope>();

  /** The `AuthInfo` to give the SDK transport with a request served in `scope`. */
  enter(scope: RequestScope): AuthInfo {
    const auth: AuthInfo = { token: "", clientId: scope.principal.kind, scopes: [] };
    this.#byAuth.set(auth, scope);
    return auth;
  }

  /** The scope of the request a handler serves (none on stdio). */
  of(extra: { authInfo?: AuthInfo }): RequestScope | undefined {
    return extra.authInfo ? this.#byAuth.get(extra.authInfo) : undefined;
  }
}
