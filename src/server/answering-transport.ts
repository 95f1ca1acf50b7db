/**
 * A transport wrapper (a `DelegatingTransport`) that knows which requests are still unanswered:
 * it notes each incoming request and reports each answer sent. At shutdown the
 * requests still open get a JSON-RPC error (`failPending`) instead of a cut stream or silence —
 * over HTTP at the end of the drain (src/server/http/mcp.ts), over stdio on SIGTERM.
 */
import type { Transport, TransportSendOptions } from "@modelcontextprotocol/sdk/shared/transport.js";
import type { JSONRPCMessage, MessageExtraInfo, RequestId } from "@modelcontextprotocol/sdk/types.js";
import { DelegatingTransport, isRequest } from "../delegating-transport.js";

const isAnswer = (message: JSONRPCMessage): message is JSONRPCMessage & { id: RequestId } =>
  "id" in message && ("result" in message || "error" in message);

export class AnsweringTransport extends DelegatingTransport {
  /** Requests received and not yet answered. */
  readonly pending = new Set<RequestId>();

  constructor(
    inner: Transport,
    private readonly answered?: (id: RequestId, left: number) => void,
  ) {
    super(inner);
  }

  protected override receive(message: JSONRPCMessage, extra?: MessageExtraInfo): void {
    if (isRequest(message)) this.pending.add(message.id);
    super.receive(message, extra);
  }

  override async send(message: JSONRPCMessage, options?: TransportSendOptions): Promise<void> {
    try {
      await super.send(message, options);
    } finally {
      if (isAnswer(message) && this.pending.delete(message.id))
        this.answered?.(message.id, this.pending.size);
    }
  }

  /**
   * Hands the server a `notifications/cancelled` for an open request, as if its client had sent
   * it on this transport: the SDK aborts the handler's signal. A cancel that arrived on another
   * POST (or replica) reaches the call this way. Returns false when `id` is not open here.
   */
  cancel(id: RequestId, reason: string): boolean {
    if (!this.pending.has(id)) return false;
    this.receive({ jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: id, reason } });
    // A cancelled request gets no answer (the SDK sends none): it no longer holds its stream open.
    this.pending.delete(id);
    this.answered?.(id, this.pending.size);
    return true;
  }

  /** Answers every request still open with a JSON-RPC error carrying `message`. */
  async failPending(message: string, code = -32000): Promise<void> {
    for (const id of [...this.pending]) {
      await this.send({ jsonrpc: "2.0", id, error: { code, message } }, { relatedRequestId: id }).catch(
        () => {},
      );
    }
  }
}
