/**
 * The MCP endpoint (`/mcp`). Every request runs on a fresh SDK transport (web-standard Streamable
 * HTTP, without its own session handling) and a fresh `createServer()` — about 0.4 ms — so no
 * replica holds anything a session needs: the session is a record in the `SessionStore`, bound
 * to the caller's credential, and our wrapper of the transport reports its id. The caller is made
 * once per request (`callerOf`), each method has its own function, and each POST runs in a
 * `RequestScope` built once and entered on its server. Streams are resumable through
 * the `StreamEvents` store; a GET without `Last-Event-ID` opens the session's own standalone
 * stream (`./session-streams.ts`: `tools/list_changed`), a call's notifications travel on that
 * call's stream. Requests in flight are tracked for the shutdown drain, which
 * answers calls still running at its end with a JSON-RPC error, and so that a
 * `notifications/cancelled` (which comes in a POST of its own) reaches the server running the call.
 */

import { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js";
import type { Transport, TransportSendOptions } from "@modelcontextprotocol/sdk/shared/transport.js";
import {
  CancelledNotificationSchema,
  isInitializeRequest,
  isJSONRPCRequest,
  type JSONRPCMessage,
  LATEST_PROTOCOL_VERSION,
  type LoggingLevel,
  type RequestId,
  SetLevelRequestSchema,
  SUPPORTED_PROTOCOL_VERSIONS,
} from "@modelcontextprotocol/sdk/types.js";
import type { Context } from "hono";
import type { SSEStreamingApi } from "hono/streaming";
import { DelegatingTransport } from "../../delegating-transport.js";
import type { CredentialHash } from "../../principal.js";
import { AnsweringTransport } from "../answering-transport.js";
import { batchesAllowed, batchRefusal } from "../batches.js";
import type { RequestScope } from "../call-scope.js";
import type { CallerSlots } from "../fair-share.js";
import { DEFAULT_CLIENT_LEVEL } from "../logging.js";
import { ProtocolGuard } from "../protocol-guard.js";
import type { HeldServer } from "./api-servers.js";
import type { Identity } from "./auth/authenticate.js";
import { type Caller, callerOf } from "./auth/principal.js";
import { noteHandles } from "./callback-client.js";
import type { CallRegistry } from "./calls.js";
import type { StreamEvents } from "./events.js";
import { RPC, rpcError } from "./respond.js";
import type { SessionStreams } from "./session-streams.js";
import type { SessionRecord, SessionStore } from "./sessions.js";
import { sseResponse, writeMessage } from "./sse.js";

export const API_KEY_HEADER = "x-webdata-api-key";
/** The `retry` field of the priming event: how soon a client reconnects after a drop (ms). */
export const RETRY_MS = 1_000;

export interface McpDeps {
  sessions: SessionStore;
  events: StreamEvents;
  /** Each session's standalone GET stream. */
  streams: SessionStreams;
  /** Calls in flight by session: where cancels and session ends are routed. */
  calls: CallRegistry;
  /** The keyed hash principals are made with (`credentialHasher`). */
  hash: CredentialHash;
  /** A server for one request (`undefined`: no key to call the API with); `release()` disconnects it and hands it back. */
  serverFor(apiKey: string | undefined): HeldServer | undefined;
  draining(): boolean;
  /** Whether a caller may bring its own API key in `x-webdata-api-key` (the operator's switch). */
  keyHeader: boolean;
  /** Resumed streams per principal and per replica (issue 30: no user takes the whole pool). */
  resumes: CallerSlots;
  /** A session was opened or ended (the sessions gauge recounts). */
  sessionsChanged?(): void;
  /** Wraps every request's transport before it is connected (telemetry); the wrapper is used. */
  instrument?(transport: Transport): Transport;
  log(line: string): void;
}

/** A request's session as found: its id, its record and the protocol version header sent. */
interface Found {
  id: string;
  session: SessionRecord;
  version: string | null;
}

const bad = (message: string) => rpcError(400, `Bad Request: ${message}`);
const notFound = () =>
  rpcError(404, "Session not found: start a new session with initialize", { code: RPC.sessionNotFound });
const noKey = () => rpcError(401, `Unauthorized: send the Web Data API key in ${API_KEY_HEADER}`);

export class McpEndpoint {
  readonly #deps: McpDeps;
  readonly #inflight = new Set<AnsweringTransport>();
  readonly #idle = new Set<() => void>();

  constructor(deps: McpDeps) {
    this.#deps = deps;
  }

  /** Calls still running (open POSTs with requests). */
  get busy(): number {
    return this.#inflight.size;
  }

  /** One request to `/mcp`: its caller made once (`callerOf`), then served by its method. */
  async handle(c: Context, identity: Identity | undefined): Promise<Response> {
    const method = c.req.method;
    if (method !== "GET" && method !== "POST" && method !== "DELETE") {
      return rpcError(405, "Method Not Allowed", { headers: { allow: "GET, POST, DELETE" } });
    }
    if (this.#deps.draining()) return rpcError(503, "Service Unavailable: the server is shutting down");
    const caller = callerOf(c.req.raw, identity, {
      hash: this.#deps.hash,
      keyHeader: { name: API_KEY_HEADER, allowed: this.#deps.keyHeader },
    });
    if (caller instanceof Response) return caller;
    if (method === "POST") return this.#post(c.req.raw, caller);
    if (method === "GET") return this.#get(c, caller);
    return this.#delete(c.req.raw, caller);
  }

  /** The request's session: a supported protocol version header, a session id, the caller's session. */
  async #session(request: Request, caller: Caller): Promise<Found | Response> {
    const version = request.headers.get("mcp-protocol-version");
    if (version !== null && !SUPPORTED_PROTOCOL_VERSIONS.includes(version)) {
      return bad(
        `Unsupported protocol version ${JSON.stringify(version.slice(0, 40))} in MCP-Protocol-Version (supported: ${SUPPORTED_PROTOCOL_VERSIONS.join(", ")})`,
      );
    }
    const id = request.headers.get("mcp-session-id") ?? undefined;
    if (!id) return bad("No valid session ID provided");
    const session = await this.#deps.sessions.get(id, caller.principal);
    return session ? { id, session, version } : notFound();
  }

  /** A POST: `initialize` opens a session; anything else runs in the caller's session. */
  async #post(request: Request, caller: Caller): Promise<Response> {
    if (!/^application\/json\b/i.test(request.headers.get("content-type") ?? "")) {
      return rpcError(415, "Unsupported Media Type: Content-Type must be application/json");
    }
    let body: unknown;
    try {
      body = JSON.parse(await request.text());
    } catch {
      return rpcError(400, "Parse error: the body is not valid JSON", { code: RPC.parseError });
    }
    const sessionId = request.headers.get("mcp-session-id") ?? undefined;
    if (!sessionId && isInitializeRequest(body)) return this.#initialize(request, body, caller);
    if (sessionId && (Array.isArray(body) ? body : [body]).some(isInitializeRequest)) {
      return rpcError(
        400,
        "Invalid Request: this session is already initialized; to start over, send initialize without mcp-session-id",
        { code: RPC.invalidRequest },
      );
    }
    const found = await this.#session(request, caller);
    if (found instanceof Response) return found;
    if (Array.isArray(body)) {
      // A header-less request is 2025-03-26, the revision that still had batches.
      const revision = found.session.protocol ?? found.version ?? "2025-03-26";
      if (!batchesAllowed(revision))
        return rpcError(400, batchRefusal(revision), { code: RPC.invalidRequest });
    }
    await this.#deps.sessions.touch(found.id);
    for (const { requestId, reason } of cancelsIn(body)) {
      this.#deps.calls.cancel(found.id, requestId, reason ?? "cancelled by the client");
    }
    const level = levelSet(body);
    if (level) await this.#deps.sessions.setLogLevel(found.id, level);
    try {
      const session = { id: found.id, logLevel: found.session.logLevel };
      return await this.#run(withProtocol(request, found.session.protocol), body, caller, session);
    } finally {
      void this.#deps.sessions.touch(found.id);
    }
  }

  /** A GET: the session's own stream, or with a call's `Last-Event-ID` the rest of that call's. */
  async #get(c: Context, caller: Caller): Promise<Response> {
    const found = await this.#session(c.req.raw, caller);
    if (found instanceof Response) return found;
    await this.#deps.sessions.touch(found.id);
    const last = c.req.header("last-event-id") ?? undefined;
    if (last && !this.#deps.streams.owns(last, found.id)) {
      const slot = this.#deps.resumes.take(caller.principal.id);
      if (!slot.ok) return resumeRefused(slot.limit, this.#deps.resumes);
      return this.#resume(c, last, found.id, slot.release);
    }
    return this.#deps.streams.open(c, found.id, caller.principal, last);
  }

  /** A DELETE: the session ends, and with it its calls, task work and kept events. */
  async #delete(request: Request, caller: Caller): Promise<Response> {
    const found = await this.#session(request, caller);
    if (found instanceof Response) return found;
    await this.#deps.sessions.delete(found.id);
    this.#deps.calls.endSession(found.id);
    this.#deps.sessionsChanged?.();
    return new Response(null, { status: 200 });
  }

  async #initialize(request: Request, body: unknown, caller: Caller): Promise<Response> {
    const probe = this.#deps.serverFor(caller.apiKey);
    if (!probe) return noKey();
    await probe.release();
    const asked = (body as { params: { protocolVersion: string } }).params.protocolVersion;
    const protocol = SUPPORTED_PROTOCOL_VERSIONS.includes(asked) ? asked : LATEST_PROTOCOL_VERSION;
    const opened = await this.#deps.sessions.open(caller.principal, protocol);
    if (!opened.ok) {
      return rpcError(opened.status, opened.message, {
        headers: { "retry-after": String(opened.retryAfter) },
      });
    }
    // An evicted session ends like a DELETE: its calls, task work and kept events stop.
    for (const id of opened.evicted) this.#deps.calls.endSession(id);
    const response = await this.#run(request, body, caller, { id: opened.session.id });
    if (response.status !== 200) await this.#deps.sessions.delete(opened.session.id);
    this.#deps.sessionsChanged?.();
    return response;
  }

  /**
   * One POST on a fresh transport and server, closed once every request in it is answered. Its
   * `RequestScope` is built here, once, and entered on the server (`scopes.enter`), whose handlers
   * run every call of the POST in it.
   */
  async #run(
    request: Request,
    body: unknown,
    caller: Caller,
    session: { id: string; logLevel?: LoggingLevel },
  ): Promise<Response> {
    const made = this.#deps.serverFor(caller.apiKey);
    if (!made) return noKey();
    const messages = (Array.isArray(body) ? body : [body]) as JSONRPCMessage[];
    const first = messages.find(isJSONRPCRequest);
    const events = this.#deps.events.forRequest(session.id, first?.id);
    const scope: RequestScope = {
      ...caller,
      sessionId: session.id,
      logLevel: session.logLevel ?? DEFAULT_CLIENT_LEVEL,
      hook: noteHandles(events.note),
    };
    // A pooled server may carry another session's level: every request starts at its session's.
    made.server.logger.setClientLevel(made.server.server, scope.logLevel);
    const transport = new WebStandardStreamableHTTPServerTransport({
      // An initialize takes the session's id from the generator; the rest run stateless, their
      // session id reported by our own wrapper (`SessionTransport`).
      sessionIdGenerator: messages.some(isInitializeRequest) ? () => session.id : undefined,
      eventStore: events.store,
      retryInterval: RETRY_MS,
    });
    const call = this.#track(made, new SessionTransport(transport, session.id), first !== undefined);
    try {
      await made.server.server.connect(call.transport);
      const authInfo = made.server.scopes.enter(scope);
      const response = await transport.handleRequest(request, { parsedBody: body, authInfo });
      if (
        call.transport.pending.size === 0 ||
        !response.headers.get("content-type")?.includes("text/event-stream")
      ) {
        call.finish();
      }
      return withSessionId(response, session.id);
    } catch (error) {
      call.finish();
      throw error;
    }
  }

  /**
   * The POST's transport stack (protocol guard, telemetry, the open-request tracker), tracked
   * for the drain and for cancels while it has requests; `finish` releases the server once.
   */
  #track(made: HeldServer, session: SessionTransport, hasRequests: boolean) {
    let finished = false;
    let untrack = () => {};
    const finish = () => {
      if (finished) return;
      finished = true;
      untrack();
      this.#inflight.delete(transport);
      if (this.#inflight.size === 0) for (const wake of [...this.#idle]) wake();
      void made.release().catch((e: unknown) => this.#deps.log(`server release failed: ${String(e)}`));
    };
    // The request's server is closed once every request in the POST is answered.
    // Telemetry wraps inside it, so the drain's `failPending` answers end their spans too.
    const guarded = new ProtocolGuard(session);
    const transport = new CallTransport(this.#deps.instrument?.(guarded) ?? guarded, (_id, left) => {
      if (left === 0) finish();
    });
    if (hasRequests) {
      this.#inflight.add(transport);
      untrack = this.#deps.calls.add(session.sessionId, transport);
    }
    return { transport, finish };
  }

  /** GET with the `Last-Event-ID` of a call's stream: the rest of that call's events. */
  #resume(c: Context, last: string, sessionId: string, release: () => void): Response {
    const events = this.#deps.events;
    return sseResponse(c, sessionId, async (stream) => {
      try {
        await this.#tail(stream, events, last, sessionId);
      } finally {
        release();
      }
    });
  }

  /** The rest of the call's events after `last`, on `stream`. */
  async #tail(stream: SSEStreamingApi, events: StreamEvents, last: string, sessionId: string) {
    const stop = new AbortController();
    stream.onAbort(() => stop.abort());
    let first = true;
    const outcome = await events
      .tail(
        last,
        sessionId,
        (id, message) => {
          first = false;
          return writeMessage(stream, id, message);
        },
        stop.signal,
      )
      .catch(() => "lost" as const);
    if (first && outcome === "unknown") await stream.write(": unknown Last-Event-ID for this session\n\n");
  }

  /** Resumed streams open now (for `/healthz`). */
  get resumesOpen(): number {
    return this.#deps.resumes.used;
  }

  /** Settles once no call is running, or when `signal` aborts. */
  whenIdle(signal: AbortSignal): Promise<void> {
    if (this.#inflight.size === 0 || signal.aborted) return Promise.resolve();
    return new Promise((resolve) => {
      const done = () => {
        this.#idle.delete(done);
        signal.removeEventListener("abort", done);
        resolve();
      };
      this.#idle.add(done);
      signal.addEventListener("abort", done, { once: true });
    });
  }

  /** Answers every call still running with a JSON-RPC error (the end of the shutdown drain). */
  async abortAll(message: string): Promise<void> {
    await Promise.all([...this.#inflight].map((t) => t.failPending(message, RPC.serverError)));
  }

  /** For `/healthz`. */
  health(): Record<string, unknown> {
    return { active_requests: this.#inflight.size };
  }
}

/**
 * The SDK transport of a POST inside a session, reporting the session's id: the SDK's server reads
 * it as `extra.sessionId` (MCP tasks are scoped by it). The transport itself runs stateless (only
 * an `initialize` takes the id, from `sessionIdGenerator`), so nothing is written into it.
 */
class SessionTransport extends DelegatingTransport {
  constructor(
    inner: Transport,
    readonly id: string,
  ) {
    super(inner);
  }

  override get sessionId(): string {
    return this.id;
  }
}

/** The answer with the session's id header, as every answer in a session carries it. */
function withSessionId(response: Response, sessionId: string): Response {
  if (response.headers.get("mcp-session-id") === sessionId) return response;
  const headers = new Headers(response.headers);
  headers.set("mcp-session-id", sessionId);
  return new Response(response.body, { status: response.status, statusText: response.statusText, headers });
}

/**
 * The POST's transport, tracking its open requests (`AnsweringTransport`). A log line has no
 * request of its own, and this transport has no standalone stream (the session's is
 * `SessionStreams`'): it goes on the stream of a request still open in this POST — its server
 * serves nothing else, so it is this session's — instead of being dropped.
 */
class CallTransport extends AnsweringTransport {
  override send(message: JSONRPCMessage, options?: TransportSendOptions): Promise<void> {
    const [open] = this.pending;
    if (
      "method" in message &&
      message.method === "notifications/message" &&
      options?.relatedRequestId === undefined &&
      open !== undefined
    ) {
      return super.send(message, { ...options, relatedRequestId: open });
    }
    return super.send(message, options);
  }
}

/**
 * A resume past a cap: 429 for the caller's own (its other resumed streams hold it), 503 when the
 * replica's pool is full (others hold it); either says which limit and when to retry.
 */
function resumeRefused(limit: "caller" | "replica", slots: CallerSlots): Response {
  const retry = String(Math.ceil(RETRY_MS / 1000));
  if (limit === "caller") {
    return rpcError(
      429,
      `Too Many Requests: you have ${slots.perCaller} resumed streams (Last-Event-ID) open on this server, the most one caller may; close one or retry in ${retry} s`,
      { headers: { "retry-after": retry } },
    );
  }
  return rpcError(
    503,
    `Service Unavailable: this server has its ${slots.total} resumed streams (Last-Event-ID) open, the most it holds; retry in ${retry} s`,
    { headers: { "retry-after": retry } },
  );
}

/** The `notifications/cancelled` in a POST body. */
function cancelsIn(body: unknown): Array<{ requestId: RequestId; reason?: string }> {
  return (Array.isArray(body) ? body : [body]).flatMap((message) => {
    const parsed = CancelledNotificationSchema.safeParse(message);
    return parsed.success && parsed.data.params.requestId !== undefined
      ? [{ requestId: parsed.data.params.requestId, reason: parsed.data.params.reason }]
      : [];
  });
}

/** The level the last valid `logging/setLevel` in the POST body sets, if any. */
function levelSet(body: unknown): LoggingLevel | undefined {
  let level: LoggingLevel | undefined;
  for (const message of Array.isArray(body) ? body : [body]) {
    const parsed = SetLevelRequestSchema.safeParse(message);
    if (parsed.success) level = parsed.data.params.level;
  }
  return level;
}

/**
 * A request whose `mcp-protocol-version` header is older than what its session negotiated is
 * served as the negotiated version: the client proved at initialize that it reads what that
 * version sends (for 2025-11-25: the priming event and `retry` that make its streams resumable).
 */
function withProtocol(request: Request, negotiated: string | undefined): Request {
  const header = request.headers.get("mcp-protocol-version");
  if (!negotiated || !header || header >= negotiated) return request;
  const headers = new Headers(request.headers);
  headers.set("mcp-protocol-version", negotiated);
  return new Request(request.url, { method: request.method, headers, signal: request.signal });
}
