/**
 * The one way we wrap an SDK transport: a `Transport` of our own that forwards start, send and
 * close to the inner one and sets its own handlers on it — no SDK object's method is replaced.
 * Subclasses override `receive` (a message came in), `send` (one goes out) or `closed`.
 * Telemetry (src/telemetry/mcp-spans.ts) and the unanswered-call tracker
 * (src/server/answering-transport.ts) are both built on it, and stack.
 */
import type { Transport, TransportSendOptions } from "@modelcontextprotocol/sdk/shared/transport.js";
import type { JSONRPCMessage, JSONRPCRequest, MessageExtraInfo } from "@modelcontextprotocol/sdk/types.js";

/**
 * Whether a message that reached `receive` is a request. The SDK's transports hand on only
 * messages they parsed as a `JSONRPCMessage`, and of its four kinds only a request has both a
 * method and an id: no second schema parse of every message (the SDK's `isJSONRPCRequest`).
 */
export function isRequest(message: JSONRPCMessage): message is JSONRPCRequest {
  return "method" in message && "id" in message;
}

export class DelegatingTransport implements Transport {
  onclose?: Transport["onclose"];
  onerror?: Transport["onerror"];
  onmessage?: Transport["onmessage"];

  constructor(protected readonly inner: Transport) {
    inner.onmessage = (message, extra) => this.receive(message, extra);
    inner.onclose = () => this.closed();
    inner.onerror = (error) => this.onerror?.(error);
  }

  get sessionId(): string | undefined {
    return this.inner.sessionId;
  }

  setProtocolVersion(version: string): void {
    this.inner.setProtocolVersion?.(version);
  }

  start(): Promise<void> {
    return this.inner.start();
  }

  send(message: JSONRPCMessage, options?: TransportSendOptions): Promise<void> {
    return this.inner.send(message, options);
  }

  close(): Promise<void> {
    return this.inner.close();
  }

  /** A message from the inner transport: hands it on to whoever connected to this one. */
  protected receive(message: JSONRPCMessage, extra?: MessageExtraInfo): void {
    this.onmessage?.(message, extra);
  }

  /** The inner transport closed. */
  protected closed(): void {
    this.onclose?.();
  }
}
