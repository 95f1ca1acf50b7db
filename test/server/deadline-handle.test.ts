/**
 * A long tool whose wait found the work done but whose reading of the results ran out of time
 * (queued behind the rate limit, a slow answer) returns the handle that resumes it, not a
 * `timeout` error: the fleet's 1,000-item batch under 500 concurrent calls lost its result so.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { WebDataClient } from "../../src/api/client.js";
import { loadConfig } from "../../src/config.js";
import type { Logger } from "../../src/logger.js";
import type { Sandbox } from "../../src/sandbox/index.js";
import { runTool, type ToolDeps } from "../../src/server/run-tool.js";
import { extractBatch } from "../../src/tools/extract-batch.js";
import { startTestSandbox, TEST_KEY } from "../helpers/mcp.js";

const quiet: Logger = { debug() {}, info() {}, warning() {}, error() {} };

let sandbox: Sandbox;
let client: WebDataClient;

beforeAll(async () => {
  sandbox = await startTestSandbox({ taskLatencyMs: 20 });
  client = new WebDataClient({ baseUrl: sandbox.url, apiKey: TEST_KEY });
});
afterAll(async () => {
  await client.close();
  await sandbox.close();
});

/** The real client, but its batch detail read waits until the call's signal ends (past the deadline). */
function slowDetailClient(onWaiting = () => {}): WebDataClient {
  return new Proxy(client, {
    get(target, name, receiver) {
      if (name !== "getBatch") {
        const value = Reflect.get(target, name, receiver);
        return typeof value === "function" ? value.bind(target) : value;
      }
      return async (id: string, opts: { signal?: AbortSignal } = {}) => {
        const signal = opts.signal;
        if (signal && !signal.aborted) {
          const ended = new Promise((resolve) => signal.addEventListener("abort", resolve, { once: true }));
          onWaiting();
          await ended;
        }
        return target.getBatch(id, opts);
      };
    },
  });
}

function deps(c: WebDataClient): ToolDeps {
  const config = loadConfig({ WEBDATA_API_KEY: TEST_KEY, WEBDATA_BASE_URL: sandbox.url });
  return { config, client: c, services: {}, log: quiet, redact: (s) => s };
}

async function call(c: WebDataClient, signal = new AbortController().signal) {
  return runTool(
    extractBatch,
    { inputs: [{ url: `${sandbox.siteUrl}/` }, { url: `${sandbox.siteUrl}/blog` }] },
    deps(c),
    { signal, deadline: Date.now() + 5_000, sendNotification: async () => {} },
  );
}

describe("results read past the deadline", () => {
  it("answers with the batch handle and its get_task resume, not a timeout error", async () => {
    const result = await call(slowDetailClient());
    const structured = result.structuredContent as Record<string, unknown>;
    expect(result.content).toEqual([expect.objectContaining({ text: expect.stringContaining("get_task") })]);
    expect(result.isError).toBeFalsy();
    expect(structured.status).toBe("pending");
    expect(structured.batch_id).toEqual(expect.any(String));
    expect(structured.resume).toEqual({ tool: "get_task", arguments: { batch_id: structured.batch_id } });
  });

  it("still reads the results when they come in time", async () => {
    const result = await call(client);
    expect(result.isError).toBeFalsy();
    expect((result.structuredContent as Record<string, unknown>).status).not.toBe("pending");
  });

  it("a client's cancel stays an aborted error, not a handle", async () => {
    const controller = new AbortController();
    const result = await call(
      slowDetailClient(() => controller.abort()),
      controller.signal,
    );
    expect(result.isError).toBe(true);
    expect(result._meta?.["web-data/error"]).toMatchObject({ code: "aborted" });
  });
});
