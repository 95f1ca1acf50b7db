/**
 * MCP server spans and the operation-duration metric, per the OpenTelemetry MCP semantic
 * conventions: a SERVER span per JSON-RPC request named `{mcp.method.name} {target}` (e.g.
 * `tools/call serp_search`), its parent taken from `params._meta.traceparent` when the client
 * sends one. It wraps a connected transport's `onmessage` (the request starts, and its handler
 * runs inside the span's context) and `send` (the response ends it), so it fits any transport.
 */
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
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

export function instrumentTransport(transport: Transport, deps: Deps): void {
  const { tracer, contexts, propagator, instruments } = deps;
  const receive = transport.onmessage;
  const send = transport.send.bind(transport);
  if (!receive) throw new Error("instrument the transport after the server is connected to it");
  const open = new Map<string | number, Open>();
  let protocolVersion: string | undefined;

  transport.onmessage = (raw, extra) => {
    const message = raw as Message;
    if (message.method === undefined || message.id === undefined) return receive(raw, extra);
    const target = targetOf(message);
    if (message.method === "initialize" && typeof message.params?.protocolVersion === "string") {
      protocolVersion ??= message.params.protocolVersion;
    }
    const headerVersion = extra?.requestInfo?.headers?.["mcp-protocol-version"];
    const attributes: Record<string, string> = {
      "mcp.method.name": message.method,
      "jsonrpc.request.id": String(message.id),
      "network.transport": deps.network,
    };
    const version = typeof headerVersion === "string" ? headerVersion : protocolVersion;
    if (version) attributes["mcp.protocol.version"] = version;
    if (transport.sessionId) attributes["mcp.session.id"] = transport.sessionId;
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
    open.set(message.id, { span, started: performance.now(), attributes });
    return contexts.with(trace.setSpan(parent, span), () => receive(raw, extra));
  };

  transport.send = (raw, options) => {
    const message = raw as Message;
    const entry = message.id !== undefined && message.method === undefined ? open.get(message.id) : undefined;
    if (entry) {
      open.delete(message.id as string | number);
      if (typeof message.result?.protocolVersion === "string")
        protocolVersion = message.result.protocolVersion;
      const attributes = { ...entry.attributes };
      delete attributes["jsonrpc.request.id"];
      delete attributes["mcp.session.id"];
      if (transport.sessionId) entry.span.setAttribute("mcp.session.id", transport.sessionId);
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
      instruments.duration.record((performance.now() - entry.started) / 1000, attributes);
    }
    return send(raw, options);
  };

  const closed = transport.onclose;
  transport.onclose = () => {
    for (const entry of open.values()) {
      entry.span.setAttribute("error.type", "connection_closed");
      entry.span.setStatus({ code: SpanStatusCode.ERROR });
      entry.span.end();
    }
    open.clear();
    closed?.();
  };
}
