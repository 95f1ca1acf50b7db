/**
 * run_agent and list_agents end to end: the built server over stdio, a real MCP client, the
 * sandbox's catalog. Bad params are refused in the agent's own words with no run request.
 */
import { describe, expect, it } from "vitest";
import type { Sandbox } from "../../src/sandbox/index.js";
import {
  call,
  requestsSince,
  type StdioServer,
  serverForFile,
  spawnAgainst,
  textOf,
} from "../helpers/mcp.js";

let sandbox: Sandbox;
let server: StdioServer;

serverForFile((started) => {
  ({ sandbox, server } = started);
});

const runs = (from: number) =>
  sandbox.requests
    .slice(from)
    .filter((r) => /^\/v1\/agents?\/(run|async)|^\/v2\/extract\/templates\/(run|async)/.test(r.path));

describe("run_agent", () => {
  it("run_agent(missing required param): the agent's description and examples, no run request", async () => {
    const from = sandbox.requests.length;
    const r = await call(server, "run_agent", { agent: "ecommerce_search_listing", params: {} });
    expect(r.isError).toBe(true);
    const text = textOf(r);
    expect(text).toContain('param "query" is required but missing');
    expect(text).toContain("Search keyword or phrase");
    expect(text).toMatch(/Examples: "/);
    expect(text).toContain("Example params:");
    expect(runs(from)).toEqual([]);
  });

  it("run_agent(too-short string, wrong type): both named, no request once the agent is known", async () => {
    const from = sandbox.requests.length;
    const r = await call(server, "run_agent", {
      agent: "ecommerce_search_listing",
      params: { query: "x", page: "two" },
    });
    expect(r.isError).toBe(true);
    const text = textOf(r);
    expect(text).toMatch(
      /param "query" must be at least 2 characters long\. "query" \(string, required\): Search keyword/,
    );
    expect(text).toMatch(/param "page" must be an integer, got the string "two"/);
    expect(r._meta?.["web-data/error"]).toMatchObject({ code: "invalid_argument" });
    // Nothing but the server's own background catalog reads.
    expect(requestsSince(sandbox, from)).toEqual([]);
  });

  it("run_agent(unknown param): names it and lists the agent's params", async () => {
    const r = await call(server, "run_agent", {
      agent: "ecommerce_search_listing",
      params: { query: "laptop", qeury: "laptop" },
    });
    expect(r.isError).toBe(true);
    expect(textOf(r)).toMatch(/unknown param "qeury"; this agent takes: query/);
  });

  it("run_agent(valid): data.parsing as structured content", async () => {
    const r = await call(server, "run_agent", {
      agent: "ecommerce_search_listing",
      params: { query: "laptop" },
    });
    expect(r.isError).toBeFalsy();
    expect(r.structuredContent).toMatchObject({ status: "done", agent: "ecommerce_search_listing" });
    expect(r.structuredContent.parsing).toBeTypeOf("object");
    expect(r.structuredContent.pages).toHaveLength(1);
  });

  it("run_agent(pages: 3): one async run per page with the page incremented, results merged", async () => {
    const from = sandbox.requests.length;
    const one = await call(server, "run_agent", {
      agent: "ecommerce_search_listing",
      params: { query: "usb cable", page: 2 },
    });
    const r = await call(server, "run_agent", {
      agent: "ecommerce_search_listing",
      params: { query: "usb cable", page: 2 },
      pages: 3,
    });
    expect(r.isError).toBeFalsy();
    const s = r.structuredContent;
    expect(s.status).toBe("done");
    expect(s.pages.map((p: { page: number }) => p.page)).toEqual([2, 3, 4]);
    expect(new Set(s.tasks.map((t: { task_id: string }) => t.task_id)).size).toBe(3);
    expect(runs(from).filter((q) => q.path === "/v2/extract/templates/async")).toHaveLength(3);
    // Merged arrays hold every page's items in page order; page 2 alone gives the first slice.
    const key = Object.keys(s.parsing).find((k) => Array.isArray(s.parsing[k]))!;
    const total = s.pages.reduce((n: number, p: { items: number }) => n + p.items, 0);
    expect(s.parsing[key]).toHaveLength(total);
    expect(s.parsing[key].slice(0, one.structuredContent.parsing[key].length)).toEqual(
      one.structuredContent.parsing[key],
    );
  });

  it("run_agent(task fails): task_failed with the task's error, not an empty success", async () => {
    sandbox.faults.add({ kind: "task_error", count: 1, match: "POST /v2/extract/templates/run" });
    const r = await call(server, "run_agent", {
      agent: "ecommerce_search_listing",
      params: { query: "laptop" },
    });
    sandbox.faults.clear();
    expect(r.isError).toBe(true);
    expect(r._meta?.["web-data/error"]).toMatchObject({ code: "task_failed" });
  });

  it("run_agent(pages on an agent without pagination): refused before any request", async () => {
    const from = sandbox.requests.length;
    const r = await call(server, "run_agent", {
      agent: "ecommerce_product_page",
      params: { url: "https://shop.example.com/p/1" },
      pages: 2,
    });
    expect(r.isError).toBe(true);
    expect(textOf(r)).toMatch(/has no pagination param/);
    expect(runs(from)).toEqual([]);
  });

  it("run_agent(unknown agent): not_found with close names", async () => {
    const r = await call(server, "run_agent", { agent: "ecommerce_search", params: {} });
    expect(r.isError).toBe(true);
    expect(textOf(r)).toMatch(/no agent named "ecommerce_search".*Did you mean: .*ecommerce_search_listing/s);
  });
});

describe("toolsets", () => {
  it("tools/list(default toolsets, no WEBDATA_LEGACY_AUTH): the agent, template and job tools; no generate_template or get_social_event", async () => {
    const names = (await server.client.listTools()).tools.map((t) => t.name);
    for (const n of ["list_agents", "run_agent", "check_domain_health", "run_template", "job_runs"])
      expect(names).toContain(n);
    for (const n of ["generate_template", "get_social_event"]) expect(names).not.toContain(n);
  });
});

describe("list_agents", () => {
  it("list_agents(query): a compact, filtered listing", async () => {
    const r = await call(server, "list_agents", { query: "hotel" });
    expect(r.isError).toBeFalsy();
    const names = r.structuredContent.agents.map((a: { name: string }) => a.name);
    expect(names).toEqual(expect.arrayContaining(["hotel_listing", "hotel_search"]));
    expect(r.structuredContent.total).toBe(names.length);
    expect(textOf(r).split("\n").length).toBeLessThan(names.length + 5);
  });

  it("list_agents(managed_by, privacy, limit): filters and pages", async () => {
    const all = await call(server, "list_agents", { limit: 200 });
    const vendor = await call(server, "list_agents", { managed_by: "vendor", limit: 200 });
    const priv = await call(server, "list_agents", { privacy: "private", limit: 200 });
    expect(
      vendor.structuredContent.agents.every((a: { managed_by: string }) => a.managed_by === "vendor"),
    ).toBe(true);
    expect(priv.structuredContent.agents.every((a: { is_public: boolean }) => !a.is_public)).toBe(true);
    expect(vendor.structuredContent.total).toBeLessThanOrEqual(all.structuredContent.total);
    const page = await call(server, "list_agents", { limit: 5, offset: 5 });
    expect(page.structuredContent.agents).toEqual(all.structuredContent.agents.slice(5, 10));
    expect(page.structuredContent.next_offset).toBe(10);
  });

  it("list_agents(name): the agent's full input description", async () => {
    const r = await call(server, "list_agents", { name: "ecommerce_search_listing" });
    expect(r.isError).toBeFalsy();
    const a = r.structuredContent.agent;
    expect(a.params.map((p: { name: string }) => p.name)).toContain("query");
    expect(a.pagination_param).toBe("page");
    expect(a.example_params.query).toBeTypeOf("string");
    expect(textOf(r)).toContain('- "query" (string, required): Search keyword or phrase.');
  });
});

describe("run_agent past the wait limit", () => {
  it("run_agent(pages, slow tasks): a pending handle with every page's task and the get_task call", async () => {
    // The wait covers the submissions too: enough for them on a loaded machine, far less than the work.
    const slow = await spawnAgainst(sandbox, { WEBDATA_WAIT_MS: "1500" });
    sandbox.configure({ taskLatencyMs: 60_000 });
    try {
      const r = await call(slow, "run_agent", {
        agent: "ecommerce_search_listing",
        params: { query: "laptop" },
        pages: 2,
      });
      expect(r.isError).toBeFalsy();
      const s = r.structuredContent;
      expect(s.status).toBe("pending");
      expect(s.tasks).toHaveLength(2);
      expect(s.resume).toEqual({ tool: "get_task", arguments: { task_id: s.tasks[0].task_id } });
      expect(textOf(r)).toContain(`page 2: ${s.tasks[1].task_id}`);
    } finally {
      sandbox.configure({ taskLatencyMs: 100 });
      await slow.close();
    }
  });
});
