/**
 * Telemetry switch: OpenTelemetry traces and metrics following the MCP semantic conventions,
 * plus Prometheus `/metrics`. Nothing here imports OpenTelemetry: when neither the standard
 * `OTEL_*` exporter variables nor `--metrics` ask for it, `startTelemetry()` returns undefined
 * without loading a byte of it (start-up and the main bundle stay as they were).
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import type { MetricReader } from "@opentelemetry/sdk-metrics";
import type { SpanExporter } from "@opentelemetry/sdk-trace-base";
import type { ApiObserver } from "../api/observer.js";
import type { TelemetrySettings } from "../config.js";

export interface Telemetry {
  /** Give it to `WebDataClient` (`observer`) for upstream spans and metrics. */
  apiObserver: ApiObserver;
  /**
   * Wraps an MCP transport (a `DelegatingTransport`; connect the server to the result): one server
   * span and one duration record per request.
   */
  instrument(transport: Transport, options?: { network?: "tcp" | "pipe" }): Transport;
  /** The open-sessions gauge reads this. */
  observeSessions(count: () => number): void;
  /** Answers a scrape in Prometheus text format (only with `prometheus: true`). */
  scrape?: (req: IncomingMessage, res: ServerResponse) => void;
  /** Flushes and stops the exporters. */
  shutdown(): Promise<void>;
}

export interface TelemetryOptions {
  /** What the configuration asks for (OTLP signals, the service name); default: nothing. */
  settings?: TelemetrySettings;
  /** Serve metrics for Prometheus (`--metrics` / `WEBDATA_METRICS=1`). */
  prometheus?: boolean;
  /** The instrumentation scope (and `service.version`). */
  service?: { name: string; version: string };
  /** Tests: export spans here (synchronously) instead of OTLP. */
  spanExporter?: SpanExporter;
  /** Tests: an extra metric reader. */
  metricReader?: MetricReader;
  /**
   * The tool names metrics may carry, asked for once telemetry is on (the server hands its
   * registry's: telemetry imports no tools); any other name is labelled `other`. Default: none.
   */
  toolNames?: () => Promise<Iterable<string>>;
}

export async function startTelemetry(options: TelemetryOptions = {}): Promise<Telemetry | undefined> {
  const otlp = options.settings?.otlp ?? { traces: false, metrics: false };
  if (
    !otlp.traces &&
    !otlp.metrics &&
    !options.prometheus &&
    !options.spanExporter &&
    !options.metricReader
  ) {
    return undefined;
  }
  const { createTelemetry } = await import("./otel.js");
  const tools = new Set(options.toolNames ? await options.toolNames() : []);
  return createTelemetry({ ...options, otlp, tools });
}
