/**
 * The core scenario of every tool, end to end over stdio, against the sandbox in both dialects:
 * `spec` (the shapes the spec shows) and `live` (the shapes of the live service's published
 * types: `{status, task}` submissions, `{data, pagination}` task lists, flat crawls, batch
 * progress without `total`, agents managed by the operator's name, nulls…). One parametrised
 * suite: every scenario must give the same outcome in both.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Sandbox } from "../../src/sandbox/index.js";
import {
  call,
  requestsSince,
  type StdioServer,
  spawnAgainst,
  startTestSandbox,
  TEST_KEY,
  textOf,
} from "../helpers/mcp.js";

const AGENT = "ecommerce_search_listing";

describe.each(["spec", "live"] as const)("dialect %s", (dialect) => {
  let sandbox: Sandbox;
  let server: StdioServer;
  /** A task id from an earlier call, for get_task and the task list. */
  let asyncTaskId: string | undefined;

  beforeAll(async () => {
    sandbox = await startTestSandbox({ dialect });
    server = await spawnAgainst(sandbox, { WEBDATA_AGENT_TOOLS: AGENT });
  });
  afterAll(async () => {
    await server?.close();
    await sandbox?.close();
  });

  const ok = async (name: string, args: Record<string, unknown>) => {
    const r = await call(server, name, args);
    expect(r.isError, `${name} (${dialect}): ${textOf(r)}`).toBeFalsy();
    return r.structuredContent;
  };

  it(`the sandbox answers in the ${dialect} dialect`, async () => {
    const res = await fetch(`${sandbox.url}/v1/extract/async`, {
      method: "POST",
      headers: { authorization: `Bearer ${TEST_KEY}`, "content-type": "application/json" },
      body: JSON.stringify({ url: `${sandbox.siteUrl}/` }),
    });
    const body = (await res.json()) as Record<string, any>;
    if (dialect === "live") {
      expect(body.task_id).toBeUndefined();
      expect(body.task.id).toBeTypeOf("string");
    } else {
      expect(body.task_id).toBeTypeOf("string");
    }
  });

  it(`serp_search (${dialect})`, async () => {
    const s = await ok("serp_search", { search_engine: "engine1_search", query: "hiking boots" });
    expect(s.results.length).toBeGreaterThan(0);
  });

  it(`extract_page sync (${dialect})`, async () => {
    const s = await ok("extract_page", { url: `${sandbox.siteUrl}/` });
    expect(s.status).toBe("done");
    expect(s.chars).toBeGreaterThan(0);
  });

  it(`extract_page async (${dialect})`, async () => {
    const s = await ok("extract_page", { url: `${sandbox.siteUrl}/`, render: true });
    expect(s.status).toBe("done");
    expect(s.chars).toBeGreaterThan(0);
    asyncTaskId = s.task_id;
    expect(asyncTaskId).toBeTypeOf("string");
  });

  it(`get_task task (${dialect})`, async () => {
    const s = await ok("get_task", { task_id: asyncTaskId });
    expect(s).toMatchObject({ status: "done", state: "success" });
    expect(s.chars).toBeGreaterThan(0);
  });

  it(`get_task list (${dialect})`, async () => {
    const s = await ok("get_task", { limit: 50 });
    expect(s.tasks.map((t: { task_id: string }) => t.task_id)).toContain(asyncTaskId);
    expect(textOf(await call(server, "get_task", {}))).toContain("recent task");
  });

  it(`extract_batch and get_task batch (${dialect})`, async () => {
    const urls = [`${sandbox.siteUrl}/`, `${sandbox.siteUrl}/about`];
    const s = await ok("extract_batch", { inputs: urls.map((url) => ({ url })) });
    expect(s.status).toBe("done");
    expect(s.pages).toHaveLength(2);
    expect(s.completed).toBe(2);
    expect(s.pages[0].chars).toBeGreaterThan(0);
    const b = await ok("get_task", { batch_id: s.batch_id });
    expect(b.status).toBe("done");
    expect(b.pages.length).toBe(2);
  });

  it(`run_agent (${dialect})`, async () => {
    const s = await ok("run_agent", { agent: AGENT, params: { query: "laptop" } });
    expect(s).toMatchObject({ status: "done", agent: AGENT });
    expect(s.parsing).toBeTypeOf("object");
  });

  it(`run_agent async with pages (${dialect})`, async () => {
    const from = sandbox.requests.length;
    const s = await ok("run_agent", { agent: AGENT, params: { query: "usb cable" }, pages: 2 });
    expect(s.status).toBe("done");
    expect(requestsSince(sandbox, from).some((r) => r.path === "/v1/agent/async")).toBe(true);
  });

  it(`dedicated agent tool (${dialect})`, async () => {
    const s = await ok(`agent_${AGENT}`, { query: "laptop" });
    const fields = (await ok("list_agents", { name: AGENT })).agent.output_fields;
    expect(Object.keys(s).length).toBeGreaterThan(0);
    for (const k of Object.keys(s)) expect(fields).toContain(k);
  });

  it(`list_agents (${dialect})`, async () => {
    const s = await ok("list_agents", {});
    expect(s.agents.length).toBeGreaterThan(0);
    const one = await ok("list_agents", { name: AGENT });
    expect(one.agent.name).toBe(AGENT);
  });

  it(`run_template run and versions (${dialect})`, async () => {
    const s = await ok("run_template", {
      template: "ecommerce_product",
      params: { url: "https://shop.example.com/p/1" },
    });
    expect(s.status).toBe("done");
    const v = await ok("run_template", { template: "ecommerce_product", list_versions: true });
    expect(v.versions.map((x: { version_number: number }) => x.version_number).sort()).toEqual([1, 2]);
  });

  it(`crawl_site and get_task crawl (${dialect})`, async () => {
    const s = await ok("crawl_site", { url: `${sandbox.siteUrl}/`, limit: 3 });
    expect(s.status).toBe("done");
    expect(s.pages.length).toBeGreaterThan(0);
    expect(s.pages[0].chars).toBeGreaterThan(0);
    const c = await ok("get_task", { crawl_id: s.crawl_id });
    expect(c.status).toBe("done");
    expect(c.pages.length).toBe(s.pages.length);
  });

  it(`map_site (${dialect})`, async () => {
    const s = await ok("map_site", { url: `${sandbox.siteUrl}/` });
    expect(s.status).toBe("done");
    expect(s.urls.length).toBeGreaterThan(3);
  });

  it(`check_domain_health (${dialect})`, async () => {
    const s = await ok("check_domain_health", { domains: ["example.com"], include_driver: true });
    expect(s.domains[0]).toMatchObject({ domain: "example.com", status: expect.any(String) });
  });

  it(`job_runs and artifact URL (${dialect})`, async () => {
    const s = await ok("job_runs", { job_id: "job_daily_prices" });
    expect(s.runs.length).toBeGreaterThan(0);
    const run = s.runs.find((x: { artifact_ids?: string[] }) => x.artifact_ids?.length);
    const d = await ok("job_runs", { run_id: run.id, artifact_id: run.artifact_ids[0] });
    expect(d.download.url).toMatch(/^http/);
  });

  it(`a submission that may have been accepted is found through get_task {} (${dialect})`, async () => {
    const url = `${sandbox.siteUrl}/about?maybe=${dialect}`;
    sandbox.faults.add({ kind: "reset", after: "accept", match: "POST /v1/extract/async", count: 1 });
    const r = await call(server, "extract_page", { url, render: true });
    sandbox.faults.clear();
    expect(r.isError).toBe(true);
    expect(textOf(r)).toContain("get_task {}");
    const list = await ok("get_task", { limit: 100 });
    expect(list.tasks.some((t: { url?: string }) => t.url === url)).toBe(true);
  });

  it(`get_task refuses ids that would change the path (${dialect})`, async () => {
    for (const id of ["..", ".", "  "]) {
      const from = sandbox.requests.length;
      const r = await call(server, "get_task", { task_id: id });
      expect(r.isError).toBe(true);
      expect(textOf(r)).toMatch(/invalid_argument/);
      expect(requestsSince(sandbox, from)).toEqual([]);
    }
  });
});
