/** Every failure becomes an isError result an agent can act on; the process survives all of them. */

import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import type { Sandbox } from "../../src/sandbox/index.js";
import { call, type StdioServer, serverForFile, spawnAgainst, TEST_KEY, textOf } from "../helpers/mcp.js";

let sandbox: Sandbox;
let server: StdioServer;

const meta = (r: { _meta?: Record<string, unknown> }) => r._meta?.["web-data/error"] as Record<string, any>;

/** One call per tool that reaches the API at its first request. */
const FIRST_CALLS: Array<[string, Record<string, unknown>, string]> = [
  ["serp_search", { search_engine: "engine1_search", query: "boots" }, "POST /v2/serp"],
  ["extract_page", { url: "https://example.com/" }, "POST /v2/extract"],
  ["extract_batch", { inputs: [{ url: "https://example.com/" }] }, "POST /v2/extract/batch"],
  ["crawl_site", { url: "https://example.com/", limit: 2 }, "POST /v2/crawl"],
  ["map_site", { url: "https://example.com/" }, "POST /v2/map"],
  ["get_task", { task_id: "00000000-0000-4000-8000-000000000000" }, "GET /v2/tasks/"],
];

serverForFile(
  (started) => {
    ({ sandbox, server } = started);
  },
  { WEBDATA_WAIT_MS: "15000" },
);
afterEach(() => sandbox.faults.clear());

describe("errors(401)", () => {
  let wrong: StdioServer;
  beforeAll(async () => {
    wrong = await spawnAgainst(sandbox, { WEBDATA_API_KEY: "wrong-key-QQQQQ" });
  });
  afterAll(async () => wrong?.close());

  it.each(FIRST_CALLS)("%s names the status and WEBDATA_API_KEY, never the key", async (tool, args) => {
    const r = await call(wrong, tool, args);
    expect(r.isError).toBe(true);
    expect(textOf(r)).toMatch(/401/);
    expect(textOf(r)).toContain("WEBDATA_API_KEY");
    expect(meta(r).code).toBe("unauthorized");
    expect(JSON.stringify(r)).not.toMatch(/QQQQQ|wrong-key/);
    expect(wrong.stderr()).not.toMatch(/QQQQQ/);
  });
});

describe("errors(402, 422)", () => {
  it.each(FIRST_CALLS)("%s: 402 says the budget ran out, without retrying", async (tool, args, match) => {
    sandbox.faults.add({ kind: "status", status: 402, match });
    const from = sandbox.requests.length;
    const r = await call(server, tool, args);
    expect(r.isError).toBe(true);
    expect(meta(r).code).toBe("payment_required");
    expect(textOf(r)).toMatch(/402.*budget|budget.*402/);
    expect(sandbox.requests.slice(from).filter((q) => q.status === 402)).toHaveLength(1);
  });

  it.each(FIRST_CALLS)("%s: 422 lists the fields as loc: msg", async (tool, args, match) => {
    sandbox.faults.add({ kind: "status", status: 422, match });
    const r = await call(server, tool, args);
    expect(r.isError).toBe(true);
    expect(meta(r).code).toBe("validation_failed");
    expect(meta(r).fields).toEqual(["body: Injected validation error"]);
    expect(textOf(r)).toContain("- body: Injected validation error");
  });
});

describe("errors(retried)", () => {
  it.each([
    ["serp_search", FIRST_CALLS[0]],
    ["extract_page", FIRST_CALLS[1]],
  ] as const)(
    "%s: 429 after the retries gives rate_limited with retry_after",
    async (_n, [tool, args, match]) => {
      sandbox.faults.add({ kind: "rate_limit", match, retryAfter: 1 });
      const from = sandbox.requests.length;
      const r = await call(server, tool, args);
      expect(r.isError).toBe(true);
      expect(meta(r)).toMatchObject({ code: "rate_limited", retry_after: 1 });
      expect(textOf(r)).toContain("Retry after 1 s");
      expect(sandbox.requests.slice(from).filter((q) => q.status === 429).length).toBeGreaterThan(1);
    },
  );

  it.each([FIRST_CALLS[0], FIRST_CALLS[5]])(
    "%s: 5xx after the retries gives upstream_error",
    async (tool, args, match) => {
      sandbox.faults.add({ kind: "status", status: 503, match });
      const r = await call(server, tool, args);
      expect(r.isError).toBe(true);
      expect(meta(r).code).toBe("upstream_error");
      expect(textOf(r)).toMatch(/503/);
    },
  );

  it("a body that is not JSON gives invalid_response and says so", async () => {
    sandbox.faults.add({ kind: "malformed", match: "POST /v2/extract" });
    const r = await call(server, "extract_page", { url: "https://example.com/" });
    expect(r.isError).toBe(true);
    expect(meta(r).code).toBe("invalid_response");
    expect(textOf(r)).toMatch(/not.*JSON|JSON/);
  });
});

describe("errors(task_failed)", () => {
  it.each([["extract_page", { url: "https://example.com/", render: true }, "POST /v2/extract/async"]])(
    "%s: a failed task gives its error and error_type",
    async (tool, args, match) => {
      sandbox.faults.add({ kind: "task_error", match, count: 1 });
      const r = await call(server, tool, args);
      expect(r.isError).toBe(true);
      expect(meta(r).code).toBe("task_failed");
      expect(meta(r).error).toBeTruthy();
      expect(meta(r).error_type).toBeTruthy();
      expect(textOf(r)).toContain(meta(r).error);
      expect(textOf(r)).toContain(`error_type: ${meta(r).error_type}`);
      const again = await call(server, "get_task", { task_id: meta(r).id });
      expect(meta(again)).toMatchObject({ code: "task_failed", error: meta(r).error });
    },
  );

  it("map_site: a failed sync map gives its error at once", async () => {
    sandbox.faults.add({ kind: "task_error", match: "POST /v2/map", count: 1 });
    const r = await call(server, "map_site", { url: "https://example.com/" });
    expect(r.isError).toBe(true);
    expect(meta(r).code).toBe("task_failed");
    expect(textOf(r)).toContain(meta(r).error);
    const again = await call(server, "get_task", { task_id: meta(r).id });
    expect(meta(again)).toMatchObject({ code: "task_failed", error: meta(r).error });
  });

  it("crawl_site: a failed crawl gives task_failed", async () => {
    sandbox.faults.add({ kind: "crawl_fail", match: "POST /v2/crawl", count: 1 });
    const r = await call(server, "crawl_site", { url: "https://example.com/", limit: 2 });
    expect(r.isError).toBe(true);
    expect(meta(r).code).toBe("task_failed");
  });

  it("extract_batch: failed pages are listed with their error, the call succeeds", async () => {
    sandbox.faults.add({ kind: "task_error", match: "POST /v2/extract/batch", count: 1 });
    const r = await call(server, "extract_batch", {
      inputs: [{ url: "https://example.com/a" }, { url: "https://example.com/b" }],
    });
    expect(r.isError).toBeFalsy();
    expect(r.structuredContent.pages.some((p: { state: string }) => p.state === "error")).toBe(true);
  });

  it("the server survived every failure", async () => {
    await server.client.ping();
    expect(server.errors).toEqual([]);
    expect(server.stderr()).not.toContain(TEST_KEY);
  });
});
