/**
 * Prometheus label values come from closed sets (issue 23): a client that sends made-up method
 * names, tool names or ids cannot mint new series. Unknown values are `other`.
 */
import { expect, it } from "vitest";
import { registryToolNames } from "../../src/server/tool-names.js";
import { startTelemetry } from "../../src/telemetry/index.js";
import { endpointOf } from "../../src/telemetry/upstream.js";
import { useHttpServerOn } from "../helpers/http-server.js";
import { useSandbox } from "../helpers/sandbox.js";
import { connect, raw } from "../http/helpers.js";

const KEY = "wdk_labelsKEY12345678";
const sandbox = useSandbox({ key: KEY });
const http = useHttpServerOn(sandbox, KEY, async () => ({
  server: { telemetry: await startTelemetry({ prometheus: true, toolNames: registryToolNames }) },
}));

it("labels made-up methods, tools and API paths as other", async () => {
  const c = await connect(http.url);
  try {
    for (let i = 0; i < 3; i++) {
      await c.client.request({ method: `evil/method-${i}`, params: {} }, {} as never).catch(() => {});
      await c.client.callTool({ name: `evil_tool_${i}`, arguments: {} }).catch(() => {});
      await c.client
        .callTool({ name: "get_task", arguments: { crawl_id: `evil-crawl-${i}` } })
        .catch(() => {});
    }
    await c.client.callTool({ name: "get_task", arguments: { limit: 1 } });
  } finally {
    await c.close();
  }
  const scraped = (await raw(http.url.replace(/\/mcp$/, "/metrics"))).body;
  expect(scraped).toContain('gen_ai_tool_name="get_task"');
  expect(scraped).toContain('mcp_method_name="other"');
  expect(scraped).toContain('gen_ai_tool_name="other"');
  expect(scraped).not.toMatch(/evil/);
});

it("maps an API path outside the known routes to other", () => {
  expect(endpointOf(new URL("http://127.0.0.1/v9/evil/path-123"))).toBe("other");
  expect(endpointOf(new URL("http://127.0.0.1/v1/tasks/abc"))).toBe("/v1/tasks/{task_id}");
  expect(endpointOf(new URL("http://127.0.0.1/v1/extract/async"))).toBe("/v1/extract/async");
});
