/**
 * Protocol answers the SDK leaves to us, as a transport wrapper (`DelegatingTransport`) between
 * the transport and the server:
 * - invalid params of a protocol method get `-32602` naming the field (the SDK answers its own
 *   schema failures as `-32603` with a raw dump); `tools/call` checks its own params;
 * - a second `initialize` on the transport is refused (`-32600`);
 * - an error answer's message loses the `MCP error <code>: ` prefix an `McpError` puts in it, since
 *   the client's `McpError` adds it again;
 * - with `answerUnreadable` (stdio), a line that is not JSON gets a parse error (`-32700`) and one
 *   that is not JSON-RPC an invalid request (`-32600`; a JSON array: "batches are not supported"),
 *   both with `id: null`; the transport keeps reading. (Over HTTP the SDK transport answers these itself, with status 400.)
 */
import type { Transport, TransportSendOptions } from "@modelcontextprotocol/sdk/shared/transport.js";
import {
  CancelTaskRequestSchema,
  ErrorCode,
  GetTaskPayloadRequestSchema,
  GetTaskRequestSchema,
  InitializeRequestSchema,
  type JSONRPCMessage,
  type JSONRPCRequest,
  ListTasksRequestSchema,
  ListToolsRequestSchema,
  type MessageExtraInfo,
  PingRequestSchema,
  ReadResourceRequestSchema,
  type RequestId,
  SetLevelRequestSchema,
} from "@modelcontextprotocol/sdk/types.js";
import { DelegatingTransport, isRequest } from "../delegating-transport.js";
import { refusedAsArray, STDIO_BATCH_REFUSAL } from "./batches.js";

interface ParamsSchema {
  safeParse(value: unknown): {
    success: boolean;
    error?: { issues: ReadonlyArray<{ path: ReadonlyArray<PropertyKey>; message: string }> };
  };
}

/** The protocol methods the server answers, by the SDK's own request schemas. */
const SCHEMAS: Record<string, ParamsSchema> = {
  initialize: InitializeRequestSchema,
  ping: PingRequestSchema,
  "tools/list": ListToolsRequestSchema,
  "resources/read": ReadResourceRequestSchema,
  "logging/setLevel": SetLevelRequestSchema,
  "tasks/get": GetTaskRequestSchema,
  "tasks/result": GetTaskPayloadRequestSchema,
  "tasks/list": ListTasksRequestSchema,
  "tasks/cancel": CancelTaskRequestSchema,
};

const MAX_ISSUES = 3;

/** `params.level: Invalid option: expected one of …` for each of the first few issues. */
export function paramsProblem(request: JSONRPCRequest): string | undefined {
  const schema = SCHEMAS[request.method];
  const checked = schema?.safeParse({ method: request.method, params: request.params });
  if (!checked || checked.success) return undefined;
  const issues = checked.error?.issues ?? [];
  const lines = issues
    .slice(0, MAX_ISSUES)
    .map((i) => `${i.path.length > 0 ? i.path.map(String).join(".") : "params"}: ${i.message}`);
  return `Invalid params for ${request.method}: ${lines.join("; ")}`;
}

const PREFIX = /^MCP error -?\d+: /;

export interface ProtocolGuardOptions {
  /** Answer lines the transport could not read (stdio). */
  answerUnreadable?: boolean;
}

export class ProtocolGuard extends DelegatingTransport {
  #initialized = false;

  constructor(
    inner: Transport,
    private readonly options: ProtocolGuardOptions = {},
  ) {
    super(inner);
    inner.onerror = (error) => this.#unreadable(error);
  }

  protected override receive(message: JSONRPCMessage, extra?: MessageExtraInfo): void {
    if (!isRequest(message)) {
      super.receive(message, extra);
      return;
    }
    if (message.method === "initialize" && this.#initialized) {
      void this.#refuse(
        message.id,
        ErrorCode.InvalidRequest,
        "Invalid Request: this session is already initialized; to start over, open a new session",
      );
      return;
    }
    const problem = paramsProblem(message);
    if (problem !== undefined) {
      void this.#refuse(message.id, ErrorCode.InvalidParams, problem);
      return;
    }
    if (message.method === "initialize") this.#initialized = true;
    super.receive(message, extra);
  }

  override send(message: JSONRPCMessage, options?: TransportSendOptions): Promise<void> {
    if ("error" in message && PREFIX.test(message.error.message)) {
      const error = { ...message.error, message: message.error.message.replace(PREFIX, "") };
      return super.send({ ...message, error }, options);
    }
    return super.send(message, options);
  }

  #refuse(id: RequestId, code: number, message: string): Promise<void> {
    return this.send({ jsonrpc: "2.0", id, error: { code, message } }, { relatedRequestId: id }).catch(
      (error: unknown) => this.onerror?.(error instanceof Error ? error : new Error(String(error))),
    );
  }

  #unreadable(error: Error): void {
    this.onerror?.(error);
    if (!this.options.answerUnreadable) return;
    const notJson = error instanceof SyntaxError;
    if (!notJson && error.name !== "ZodError") return;
    const answer = notJson
      ? { code: ErrorCode.ParseError, message: "Parse error: the line is not JSON" }
      : {
          code: ErrorCode.InvalidRequest,
          message: refusedAsArray(error)
            ? STDIO_BATCH_REFUSAL
            : "Invalid Request: the line is not a JSON-RPC 2.0 message",
        };
    // `id: null` is what JSON-RPC 2.0 prescribes when the request's id could not be read.
    const reply = { jsonrpc: "2.0", id: null, error: answer } as unknown as JSONRPCMessage;
    this.inner.send(reply).catch(() => {});
  }
}
