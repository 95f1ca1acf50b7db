/**
 * OpenTelemetry over the real HTTP server and sandbox: the span tree of one `tools/call` that met
 * a 429, waited, retried and succeeded (in-memory span exporter), the trace context taken from
 * `params._meta.traceparent`, and `/metrics` scraped in Prometheus text.
 */
import { InMemorySpanExporter, type ReadableSpan } from "@opentelemetry/sdk-trace-base";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadConfig } from "../../src/config.js";
import { registryToolNames } from "../../src/server/tool-names.js";
import { startTelemetry } from "../../src/telemetry/index.js";
import { useHttpServerOn } from "../helpers/http-server.js";
import { useSandbox } from "../helpers/sandbox.js";
import { type Connected, connect, raw, textOf } from "../http/helpers.js";

const KEY = "wdk_telemetryKEY12345";
const TRACE_ID = "4bf92f3577b34da6a3ce929d0e0e4736";
const PARENT_ID = "00f067aa0ba902b7";

const exporter = new InMemorySpanExporter();
const sandbox = useSandbox({ key: KEY });
const http = useHttpServerOn(sandbox, KEY, async () => ({
  server: {
    telemetry: await startTelemetry({
      spanExporter: exporter,
      prometheus: true,
      toolNames: registryToolNames,
    }),
  },
}));
let session: Connected;

beforeAll(async () => {
  session = await connect(http.url);
});

afterAll(async () => {
  await session?.close();
});

const attr = (span: ReadableSpan, name: string) => span.attributes[name];

describe("telemetry (MCP semantic conventions)", () => {
  it("telemetry(off): nothing asked for loads nothing", async () => {
    expect(await startTelemetry({ settings: loadConfig({}, { sandbox: true }).telemetry })).toBeUndefined();
    expect(
      await startTelemetry({
        settings: loadConfig(
          { OTEL_EXPORTER_OTLP_ENDPOINT: "http://x", OTEL_SDK_DISABLED: "true" },
          { sandbox: true },
        ).telemetry,
      }),
    ).toBeUndefined();
  });

  it("telemetry(span tree): tools/call → 429 → rate-limit wait → retry → 200, under the caller's trace", async () => {
    sandbox.faults.add({ kind: "rate_limit", match: "POST /v2/serp", count: 1, retryAfter: 1 });
    exporter.reset();
    const result = await session.client.callTool({
      name: "serp_search",
      arguments: { search_engine: "engine1_search", query: "quokka" },
      _meta: { traceparent: `00-${TRACE_ID}-${PARENT_ID}-01` },
    });
    expect(result.isError, textOf(result)).toBeFalsy();

    const spans = exporter.getFinishedSpans();
    const root = spans.find((s) => s.name === "tools/call serp_search");
    expect(root, spans.map((s) => s.name).join(", ")).toBeDefined();
    const server = root as ReadableSpan;
    expect(server.kind).toBe(1); // SERVER
    expect(server.spanContext().traceId).toBe(TRACE_ID);
    expect(server.parentSpanContext?.spanId).toBe(PARENT_ID);
    expect(server.attributes).toMatchObject({
      "mcp.method.name": "tools/call",
      "gen_ai.tool.name": "serp_search",
      "gen_ai.operation.name": "execute_tool",
      "mcp.session.id": session.transport.sessionId,
      "mcp.protocol.version": "2025-11-25",
      "network.transport": "tcp",
    });
    expect(typeof attr(server, "jsonrpc.request.id")).toBe("string");
    expect(attr(server, "error.type")).toBeUndefined();

    // The client's own limiter may hold a request for a moment: not part of this story.
    const children = spans
      .filter((s) => s.parentSpanContext?.spanId === server.spanContext().spanId && s.name !== "wait limiter")
      .sort((a, b) => a.startTime[0] - b.startTime[0] || a.startTime[1] - b.startTime[1]);
    expect(children.map((s) => s.name)).toEqual(["POST /v2/serp", "wait rate_limit", "POST /v2/serp"]);
    const [limited, wait, retried] = children as [ReadableSpan, ReadableSpan, ReadableSpan];
    expect(limited.kind).toBe(2); // CLIENT
    expect(limited.attributes).toMatchObject({
      "http.request.method": "POST",
      "url.template": "/v2/serp",
      "http.response.status_code": 429,
      "error.type": "429",
    });
    expect(attr(limited, "http.request.resend_count")).toBeUndefined();
    expect(wait.attributes).toMatchObject({ "webdata.wait.reason": "rate_limit", "webdata.attempt": 2 });
    expect(retried.attributes).toMatchObject({
      "http.response.status_code": 200,
      "http.request.resend_count": 1,
    });
    expect(attr(retried, "error.type")).toBeUndefined();
    for (const child of children) expect(child.spanContext().traceId).toBe(TRACE_ID);
  });

  it("telemetry(error.type): a tool error result marks the server span", async () => {
    exporter.reset();
    sandbox.faults.add({ kind: "status", status: 400, match: "POST /v2/serp", count: 1 });
    const result = await session.client.callTool({
      name: "serp_search",
      arguments: { search_engine: "engine1_search", query: "bad" },
    });
    expect(result.isError).toBe(true);
    const server = exporter.getFinishedSpans().find((s) => s.name === "tools/call serp_search");
    expect(server?.attributes["error.type"]).toBe("tool_error");
    expect(server?.parentSpanContext).toBeUndefined(); // no traceparent: a root span
  });

  it("telemetry(/metrics): Prometheus text with the MCP and upstream metrics", async () => {
    const scraped = await raw(http.url.replace(/\/mcp$/, "/metrics"));
    expect(scraped.status).toBe(200);
    expect(String(scraped.headers["content-type"])).toMatch(/^text\/plain/);
    const text = scraped.body;
    expect(text).toMatch(
      /mcp_server_operation_duration_count\{[^}]*mcp_method_name="tools\/call"[^}]*gen_ai_tool_name="serp_search"[^}]*\} [1-9]/,
    );
    expect(text).toMatch(/mcp_server_operation_duration_count\{[^}]*error_type="tool_error"[^}]*\} 1/);
    expect(text).toMatch(/webdata_upstream_rate_limited_total\{[^}]*url_template="\/v2\/serp"[^}]*\} 1/);
    expect(text).toMatch(
      /webdata_upstream_request_duration_count\{[^}]*url_template="\/v2\/serp"[^}]*http_response_status_code="429"[^}]*\} 1/,
    );
    expect(text).toMatch(
      /webdata_upstream_wait_duration_sum\{[^}]*webdata_wait_reason="rate_limit"[^}]*\} [0-9.]+/,
    );
    expect(text).toMatch(/webdata_sessions_open(\{[^}]*\})? 1/);
  });
});
