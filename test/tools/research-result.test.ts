/**
 * `research` when the run says it ended but its result route still answers 409 (active): the tool
 * asks again after a pause and hands back its handle at the call's deadline. Before, the wait
 * answered "done" at once each time and the loop read status and result as fast as the service
 * answered, past the deadline, for as long as the service said so (a property test under damaged
 * answers hung on it: test/tools/handlers.property.test.ts). The real sandbox behind a fake
 * upstream that answers every result read 409.
 */
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadConfig } from "../../src/config.js";
import { type FakeServer, forward, json, startFakeServer } from "../helpers/fake-upstream.js";
import { type InProcessServer, startInProcessServer } from "../helpers/in-process.js";
import { useSandbox } from "../helpers/sandbox.js";

const KEY = "wdk_RESEARCHRESULTQZXJV";
const RESULT = /^GET \/v2\/agents\/[^/]+\/runs\/[^/]+\/result/;
const sandbox = useSandbox({ key: KEY, taskLatencyMs: 0, rateLimit: 1_000_000 });
let upstream: FakeServer;
let server: InProcessServer;

beforeAll(async () => {
  upstream = await startFakeServer(async (req, res) => {
    if (RESULT.test(`${req.method} ${req.url}`)) return json(res, 409, { error: "run still active" });
    await forward(sandbox.url, req, res);
  });
  const config = loadConfig({
    WEBDATA_API_KEY: KEY,
    WEBDATA_BASE_URL: upstream.url,
    WEBDATA_TOOLSETS: "all",
    WEBDATA_WAIT_MS: "2500",
    WEBDATA_MAX_RPS: "1000000",
  });
  server = await startInProcessServer({ config, extensions: [] });
});

afterAll(async () => {
  await server?.close();
  await upstream?.close();
});

describe("research, a run that ended but whose result is not ready", () => {
  it("hands back its handle at the deadline, reading the result at a pause, not in a loop", async () => {
    const result = (await server.client.callTool({
      name: "research",
      arguments: { input: "What tents suit winter camping?" },
    })) as CallToolResult;
    expect(result.isError, JSON.stringify(result.content)).toBeFalsy();
    expect(result.structuredContent).toMatchObject({ status: "pending" });
    const reads = upstream.requests.filter((r) => RESULT.test(`${r.method} ${r.url}`));
    expect(reads.length).toBeGreaterThan(0);
    // One read a second within a 2.5 s deadline; the loop it replaces made thousands.
    expect(reads.length).toBeLessThanOrEqual(5);
    // The server goes on serving.
    const next = await server.client.callTool({
      name: "check_domain_health",
      arguments: { domains: ["a.com"] },
    });
    expect(next.isError, JSON.stringify(next.content)).toBeFalsy();
  });
});
