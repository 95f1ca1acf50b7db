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
  env?: NodeJS.ProcessEnv;
  /** Serve metrics for Prometheus (`--metrics` / `WEBDATA_METRICS=1`). */
  prometheus?: boolean;
  /** The instrumentation scope (and `service.version`). */
  service?: { name: string; version: string };
  /** Tests: export spans here (synchronously) instead of OTLP. */
  spanExporter?: SpanExporter;
  /** Tests: an extra metric reader. */
  metricReader?: MetricReader;
}

const set = (v: string | undefined) => v !== undefined && v.trim() !== "";

/** Which signals the environment asks for (the standard OTLP exporter variables). */
export function otlpWanted(env: NodeJS.ProcessEnv): { traces: boolean; metrics: boolean } {
  if (env.OTEL_SDK_DISABLED?.trim().toLowerCase() === "true") return { traces: false, metrics: false };
  const any = set(env.OTEL_EXPORTER_OTLP_ENDPOINT);
  return {
    traces:
      (any || set(env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT)) && env.OTEL_TRACES_EXPORTER?.trim() !== "none",
    metrics:
      (any || set(env.OTEL_EXPORTER_OTLP_METRICS_ENDPOINT)) && env.OTEL_METRICS_EXPORTER?.trim() !== "none",
  };
}

/** `WEBDATA_METRICS=1` (or true/yes/on). */
export function metricsFlag(env: NodeJS.ProcessEnv): boolean {
  return /^(1|true|yes|on)$/i.test(env.WEBDATA_METRICS?.trim() ?? "");
}

export async function startTelemetry(options: TelemetryOptions = {}): Promise<Telemetry | undefined> {
  const env = options.env ?? process.env;
  const otlp = otlpWanted(env);
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
  return createTelemetry({ ...options, env, otlp });
}
