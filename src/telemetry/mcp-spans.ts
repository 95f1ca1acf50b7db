/**
 * MCP server spans and the operation-duration metric, per the OpenTelemetry MCP semantic
 * conventions: a SERVER span per JSON-RPC request named `{mcp.method.name} {target}` (e.g.
 * `tools/call serp_search`), its parent taken from `params._meta.traceparent` when the client
 * sends one. `instrumentTransport` returns a `DelegatingTransport` around any transport, to connect
 * the server to instead: a request coming in starts its span (and its handler runs inside the
 * span's context), the response going out ends it, a close ends those still open.
 */
import type { Transport, TransportSendOptions } from "@modelcontextprotocol/sdk/shared/transport.js";
import type { JSONRPCMessage, MessageExtraInfo } from "@modelcontextprotocol/sdk/types.js";
import {
  type Context,
  type ContextManager,
  type Histogram,
  type Meter,
  ROOT_CONTEXT,
  type Span,
  SpanKind,
  SpanStatusCode,
  type TextMapGetter,
  type TextMapPropagator,
  type Tracer,
  trace,
} from "@opentelemetry/api";
import { DelegatingTransport } from "../delegating-transport.js";
import { closedLabels } from "./labels.js";

export interface McpInstruments {
  duration: Histogram;
}

export function mcpInstruments(meter: Meter): McpInstruments {
  return {
    duration: meter.createHistogram("mcp.server.operation.duration", {
      description: "Duration of MCP requests as seen by the server",
      unit: "s",
      advice: { explicitBucketBoundaries: [0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1, 2, 5, 10, 30, 60, 120, 300] },
    }),
  };
}

interface Deps {
  tracer: Tracer;
  contexts: ContextManager;
  propagator: TextMapPropagator;
  instruments: McpInstruments;
  network: "tcp" | "pipe";
  /** The tool names a metric may carry (any other is `other`). */
  toolNames: ReadonlySet<string>;
}

type Carrier = Record<string, unknown>;
const metaGetter: TextMapGetter<Carrier> = {
  keys: (carrier) => Object.keys(carrier),
  get: (carrier, key) => {
    const value = carrier[key];
    return typeof value === "string" ? value : undefined;
  },
};

interface Message {
  id?: string | number;
  method?: string;
  params?: { name?: unknown; _meta?: unknown; protocolVersion?: unknown };
  result?: { isError?: unknown; protocolVersion?: unknown };
  error?: { code?: unknown };
}

interface Open {
  span: Span;
  started: number;
  attributes: Record<string, string>;
}

/** What the span name names after the method: the tool or prompt. */
function targetOf(message: Message): string | undefined {
  if (message.method === "tools/call" || message.method === "prompts/get") {
    return typeof message.params?.name === "string" ? message.params.name : undefined;
  }
  return undefined;
}

/** Wraps `transport`: connect the server to what this returns. */
export function instrumentTransport(transport: Transport, deps: Deps): Transport {
  return new InstrumentedTransport(transport, deps);
}

class InstrumentedTransport extends DelegatingTransport {
  readonly #deps: Deps;
  readonly #open = new Map<string | number, Open>();
  #protocolVersion: string | undefined;

  constructor(inner: Transport, deps: Deps) {
    super(inner);
    this.#deps = deps;
  }

  protected override receive(raw: JSONRPCMessage, extra?: MessageExtraInfo): void {
    const message = raw as Message;
    if (message.method === undefined || message.id === undefined) {
      super.receive(raw, extra);
      return;
    }
    const { tracer, contexts, propagator } = this.#deps;
    const target = targetOf(message);
    if (message.method === "initialize" && typeof message.params?.protocolVersion === "string") {
      this.#protocolVersion ??= message.params.protocolVersion;
    }
    const headerVersion = extra?.requestInfo?.headers?.["mcp-protocol-version"];
    const attributes: Record<string, string> = {
      "mcp.method.name": message.method,
      "jsonrpc.request.id": String(message.id),
      "network.transport": this.#deps.network,
    };
    const version = typeof headerVersion === "string" ? headerVersion : this.#protocolVersion;
    if (version) attributes["mcp.protocol.version"] = version;
    if (this.sessionId) attributes["mcp.session.id"] = this.sessionId;
    if (target && message.method === "tools/call") {
      attributes["gen_ai.tool.name"] = target;
      attributes["gen_ai.operation.name"] = "execute_tool";
    } else if (target) {
      attributes["gen_ai.prompt.name"] = target;
    }
    const meta = message.params?._meta;
    const parent: Context =
      meta && typeof meta === "object"
        ? propagator.extract(ROOT_CONTEXT, meta as Carrier, metaGetter)
        : ROOT_CONTEXT;
    const span = tracer.startSpan(
      target ? `${message.method} ${target}` : message.method,
      { kind: SpanKind.SERVER, attributes },
      parent,
    );
    this.#open.set(message.id, { span, started: performance.now(), attributes });
    contexts.with(trace.setSpan(parent, span), () => super.receive(raw, extra));
  }

  override send(raw: JSONRPCMessage, options?: TransportSendOptions): Promise<void> {
    const message = raw as Message;
    const entry =
      message.id !== undefined && message.method === undefined ? this.#open.get(message.id) : undefined;
    if (entry) {
      this.#open.delete(message.id as string | number);
      if (typeof message.result?.protocolVersion === "string")
        this.#protocolVersion = message.result.protocolVersion;
      const attributes = { ...entry.attributes };
      delete attributes["jsonrpc.request.id"];
      delete attributes["mcp.session.id"];
      if (this.sessionId) entry.span.setAttribute("mcp.session.id", this.sessionId);
      let errorType: string | undefined;
      if (message.error) {
        errorType = String(message.error.code ?? "error");
        entry.span.setAttribute("rpc.jsonrpc.error_code", Number(message.error.code));
      } else if (message.result?.isError === true) {
        errorType = "tool_error";
      }
      if (errorType) {
        entry.span.setAttribute("error.type", errorType);
        entry.span.setStatus({ code: SpanStatusCode.ERROR });
        attributes["error.type"] = errorType;
      }
      entry.span.end();
      this.#deps.instruments.duration.record(
        (performance.now() - entry.started) / 1000,
        closedLabels(attributes, this.#deps.toolNames),
      );
    }
    return super.send(raw, options);
  }

  protected override closed(): void {
    for (const entry of this.#open.values()) {
      entry.span.setAttribute("error.type", "connection_closed");
      entry.span.setStatus({ code: SpanStatusCode.ERROR });
      entry.span.end();
    }
    this.#open.clear();
    super.closed();
  }
}
