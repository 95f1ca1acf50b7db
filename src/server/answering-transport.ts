/**
 * A transport wrapper that knows which requests are still unanswered: it delegates everything to
 * the real transport, notes each incoming request, and reports each answer sent. At shutdown the
 * requests still open get a JSON-RPC error (`failPending`) instead of a cut stream or silence —
 * over HTTP at the end of the drain (src/server/http/mcp.ts), over stdio on SIGTERM.
 */
import type { Transport, TransportSendOptions } from "@modelcontextprotocol/sdk/shared/transport.js";
import { isJSONRPCRequest, type JSONRPCMessage, type RequestId } from "@modelcontextprotocol/sdk/types.js";

const isAnswer = (message: JSONRPCMessage): message is JSONRPCMessage & { id: RequestId } =>
  "id" in message && ("result" in message || "error" in message);

export class AnsweringTransport implements Transport {
  onclose?: Transport["onclose"];
  onerror?: Transport["onerror"];
  onmessage?: Transport["onmessage"];
  /** Requests received and not yet answered. */
  readonly pending = new Set<RequestId>();

  constructor(
    private readonly inner: Transport,
    private readonly answered?: (id: RequestId, left: number) => void,
  ) {
    inner.onmessage = (message, extra) => {
      if (isJSONRPCRequest(message)) this.pending.add(message.id);
      this.onmessage?.(message, extra);
    };
    inner.onclose = () => this.onclose?.();
    inner.onerror = (error) => this.onerror?.(error);
  }

  get sessionId(): string | undefined {
    return this.inner.sessionId;
  }

  start(): Promise<void> {
    return this.inner.start();
  }

  async send(message: JSONRPCMessage, options?: TransportSendOptions): Promise<void> {
    try {
      await this.inner.send(message, options);
    } finally {
      if (isAnswer(message) && this.pending.delete(message.id))
        this.answered?.(message.id, this.pending.size);
    }
  }

  /** Answers every request still open with a JSON-RPC error carrying `message`. */
  async failPending(message: string, code = -32000): Promise<void> {
    for (const id of [...this.pending]) {
      await this.send({ jsonrpc: "2.0", id, error: { code, message } }, { relatedRequestId: id }).catch(
        () => {},
      );
    }
  }

  close(): Promise<void> {
    return this.inner.close();
  }
}
