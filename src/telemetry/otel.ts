/**
 * The OpenTelemetry set-up behind `startTelemetry()` (loaded only when telemetry is on). Local
 * providers, nothing registered globally: a tracer provider with the OTLP exporter (configured by
 * the standard `OTEL_EXPORTER_OTLP_*` variables) or a test exporter, a meter provider with OTLP
 * and/or Prometheus readers, and an AsyncLocalStorage context so that upstream spans nest under
 * the MCP request that caused them.
 */
import { AsyncLocalStorageContextManager } from "@opentelemetry/context-async-hooks";
import { W3CTraceContextPropagator } from "@opentelemetry/core";
import { OTLPMetricExporter } from "@opentelemetry/exporter-metrics-otlp-http";
import { PrometheusExporter } from "@opentelemetry/exporter-prometheus";
import { OTLPTraceExporter } from "@opentelemetry/exporter-trace-otlp-http";
import { detectResources, envDetector, resourceFromAttributes } from "@opentelemetry/resources";
import { MeterProvider, type MetricReader, PeriodicExportingMetricReader } from "@opentelemetry/sdk-metrics";
import {
  BasicTracerProvider,
  BatchSpanProcessor,
  SimpleSpanProcessor,
  type SpanProcessor,
} from "@opentelemetry/sdk-trace-base";
import type { Telemetry, TelemetryOptions } from "./index.js";
import { instrumentTransport, mcpInstruments } from "./mcp-spans.js";
import { upstreamObserver } from "./upstream.js";

export function createTelemetry(
  options: TelemetryOptions & { otlp: { traces: boolean; metrics: boolean }; tools: ReadonlySet<string> },
): Telemetry {
  const resource = resourceFromAttributes({
    "service.name": options.settings?.serviceName || "web-data-mcp",
    "service.version": options.service?.version ?? "0.0.0",
  }).merge(detectResources({ detectors: [envDetector] }));

  const processors: SpanProcessor[] = [];
  if (options.spanExporter) processors.push(new SimpleSpanProcessor(options.spanExporter));
  if (options.otlp.traces) processors.push(new BatchSpanProcessor(new OTLPTraceExporter()));
  const tracerProvider = new BasicTracerProvider({ resource, spanProcessors: processors });
  const scope = options.service?.name ?? "web-data-mcp";
  const tracer = tracerProvider.getTracer(scope, options.service?.version);

  const readers: MetricReader[] = [];
  let prometheus: PrometheusExporter | undefined;
  if (options.prometheus) {
    prometheus = new PrometheusExporter({ preventServerStart: true });
    readers.push(prometheus);
  }
  if (options.otlp.metrics) {
    readers.push(new PeriodicExportingMetricReader({ exporter: new OTLPMetricExporter() }));
  }
  if (options.metricReader) readers.push(options.metricReader);
  const meterProvider = new MeterProvider({ resource, readers });
  const meter = meterProvider.getMeter(scope, options.service?.version);

  const contexts = new AsyncLocalStorageContextManager().enable();
  const propagator = new W3CTraceContextPropagator();
  const instruments = mcpInstruments(meter);
  const sessionCounts: Array<() => number> = [];
  meter
    .createObservableUpDownCounter("webdata.sessions.open", {
      description: "MCP sessions open on this server",
      unit: "{session}",
    })
    .addCallback((result) => {
      result.observe(sessionCounts.reduce((sum, count) => sum + count(), 0));
    });

  return {
    apiObserver: upstreamObserver(tracer, meter, contexts),
    instrument: (transport, opts) =>
      instrumentTransport(transport, {
        tracer,
        contexts,
        propagator,
        instruments,
        network: opts?.network ?? "tcp",
        toolNames: options.tools,
      }),
    observeSessions: (count) => sessionCounts.push(count),
    scrape: prometheus?.getMetricsRequestHandler.bind(prometheus),
    async shutdown() {
      await Promise.allSettled([tracerProvider.shutdown(), meterProvider.shutdown()]);
      contexts.disable();
    },
  };
}
