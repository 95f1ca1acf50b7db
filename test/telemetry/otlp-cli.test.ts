/**
 * The built CLI switched on by the standard variables alone: `OTEL_EXPORTER_OTLP_ENDPOINT` sends
 * traces and metrics (OTLP/HTTP JSON) to a loopback collector stand-in, flushed when the server
 * drains on SIGTERM; `--metrics` serves `/metrics`. And OAuth with a static token is refused at
 * start-up.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type FakeServer, json, startFakeServer } from "../helpers/fake-upstream.js";
import { runCli, spawnServer } from "../helpers/mcp.js";
import { spawnHttpServer } from "../http/child.js";
import { connect, raw } from "../http/helpers.js";

/** The OTLP collector stand-in: answers every export 200 `{}` and records it. */
let sink: FakeServer;

beforeAll(async () => {
  sink = await startFakeServer((_req, res) => json(res, 200, {}));
});

afterAll(() => sink.close());

describe("telemetry from the environment (built CLI)", () => {
  it("otlp(env): traces and metrics reach the collector; /metrics answers with --metrics", async () => {
    const server = await spawnHttpServer(["--metrics"], {
      OTEL_EXPORTER_OTLP_ENDPOINT: sink.url,
      OTEL_SERVICE_NAME: "web-data-otlp-test",
    });
    try {
      await server.waitForStderr("Prometheus metrics at");
      const session = await connect(server.url);
      const result = await session.client.callTool({
        name: "serp_search",
        arguments: { search_engine: "engine1_search", query: "otlp" },
      });
      expect(result.isError).toBeFalsy();
      await session.close();
      const scraped = await raw(server.url.replace(/\/mcp$/, "/metrics"));
      expect(scraped.status).toBe(200);
      expect(scraped.body).toContain('gen_ai_tool_name="serp_search"');
      server.child.kill("SIGTERM");
      expect(await server.exited).toBe(0);
    } finally {
      await server.kill();
    }
    const traces = sink.requests.filter((r) => r.url === "/v1/traces").map((r) => r.body);
    const metrics = sink.requests.filter((r) => r.url === "/v1/metrics").map((r) => r.body);
    expect(traces.join("")).toContain('"tools/call serp_search"');
    expect(traces.join("")).toContain("web-data-otlp-test");
    expect(traces.join("")).toContain('"POST /v2/serp"');
    expect(metrics.join("")).toContain("mcp.server.operation.duration");
  });

  it("otlp(stdio): the stdio server exports too, with nothing but JSON-RPC on stdout", async () => {
    sink.requests.length = 0;
    const server = await spawnServer({
      args: ["--sandbox"],
      env: { OTEL_EXPORTER_OTLP_ENDPOINT: sink.url, OTEL_SERVICE_NAME: "web-data-stdio-test" },
    });
    try {
      const result = await server.client.callTool({
        name: "serp_search",
        arguments: { search_engine: "engine1_search", query: "stdio" },
      });
      expect(result.isError).toBeFalsy();
      expect(server.errors).toEqual([]); // a stray stdout line would be a parse error here
    } finally {
      await server.close(); // stdin ends: the server flushes its spans, then exits
    }
    const traces = sink.requests
      .filter((r) => r.url === "/v1/traces")
      .map((r) => r.body)
      .join("");
    expect(traces).toContain('"tools/call serp_search"');
    expect(traces).toContain('"pipe"');
    expect(traces).toContain("web-data-stdio-test");
  });

  it("oauth(start-up): OAuth and a static token together are refused with a message", async () => {
    const run = await runCli(["--http", "--sandbox", "--port", "0"], {
      WEBDATA_OAUTH_ISSUER: "https://login.example.com",
      WEBDATA_HTTP_TOKEN: "static-token-0123456789",
      WEBDATA_PUBLIC_URL: "https://mcp.example.com",
    });
    expect(run.status).not.toBe(0);
    expect(run.stderr).toMatch(/both WEBDATA_OAUTH_ISSUER and a static access token .* choose one/);
    expect(run.stderr).not.toContain("static-token-0123456789");
  });
});
