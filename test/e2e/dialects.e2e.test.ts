/**
 * The core scenario of every tool, end to end over stdio, against three targets of the sandbox:
 * - `gen2`: WEBDATA_API_GENERATION=2, the generation-2 routes and shapes (`{status, task}`
 *   submissions, flat crawl records, the sync map, templates with `published_version.input_schema`,
 *   typed SERP entities `OrganicResult[]`, driver knowledge `antibots`/`need_to_render`);
 * - `gen1 spec`: WEBDATA_API_GENERATION=1, the generation-1 routes in the shapes the spec shows;
 * - `gen1 live`: WEBDATA_API_GENERATION=1, the generation-1 routes in the shapes of the service's
 *   SDK (`{status, task}` submissions, `{data, pagination}` task lists, flat crawls, batch progress
 *   without `total`, agents managed by the operator's name, nulls, the SDK's error bodies…).
 * One parametrised suite: every scenario must give the same outcome on all three, and every
 * request must go to the target's generation (the routes of the other generation stay unused).
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
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

const TARGETS = [
  { name: "gen2", generation: 2, dialect: "live" },
  { name: "gen1 spec", generation: 1, dialect: "spec" },
  { name: "gen1 live", generation: 1, dialect: "live" },
] as const;

/** Generation-1 routes: `/v1/…` and the legacy endpoint (domain health has no generation 2). */
const isGeneration1Route = (path: string) => path.startsWith("/v1/") && path !== "/v1/domain-health/check";
/**
 * Routes that exist in generation 2 only (method, path): every `/v2` route but those the
 * generation-1 spec lists itself (SERP, template run/batch/versions, a job's runs, a download URL).
 */
const GENERATION2_ONLY: [string, RegExp][] = [
  ["POST", /^\/v2\/extract(\/async|\/batch)?$/],
  ["*", /^\/v2\/(tasks|batches|crawl)(\/.*)?$/],
  ["POST", /^\/v2\/map$/],
  ["GET", /^\/v2\/domain-knowledge\/driver$/],
  ["GET", /^\/v2\/extract\/templates$/],
  ["POST", /^\/v2\/extract\/templates\/async$/],
  ["GET", /^\/v2\/extract\/templates\/(?!generations$)[^/]+$/],
  ["*", /^\/v2\/extract\/templates\/generations(\/[^/]+)?$/],
  ["PATCH", /^\/v2\/extract\/templates\/[^/]+$/],
  ["DELETE", /^\/v2\/extract\/templates\/[^/]+$/],
  ["POST", /^\/v2\/search$/],
  ["POST", /^\/v2\/(fast-serp|serp\/batch|serp\/async)$/],
  ["*", /^\/v2\/agents(\/.*)?$/],
  ["*", /^\/v2\/media(\/async)?$/],
  ["*", /^\/v2\/jobs(\/job_[^/]+)?$/],
  ["POST", /^\/v2\/jobs\/[^/]+\/runs$/],
  ["*", /^\/v2\/jobs\/runs\/[^/]+(\/cancel|\/artifacts(\/[^/]+(\/preview)?)?)?$/],
];
const isGeneration2Only = (method: string, path: string) =>
  GENERATION2_ONLY.some(([m, re]) => (m === "*" || m === method) && re.test(path));

describe.each(TARGETS)("target $name", ({ name: target, generation, dialect }) => {
  let sandbox: Sandbox;
  let server: StdioServer;
  /** A task id from an earlier call, for get_task and the task list. */
  let asyncTaskId: string | undefined;
  let from = 0;

  beforeAll(async () => {
    sandbox = await startTestSandbox({ dialect });
    server = await spawnAgainst(sandbox, {
      WEBDATA_AGENT_TOOLS: AGENT,
      WEBDATA_TOOLSETS: "all",
      WEBDATA_API_GENERATION: String(generation),
    });
  });
  afterAll(async () => {
    await server?.close();
    await sandbox?.close();
  });
  afterEach(() => {
    // Every request of the scenario went to the target's generation.
    const wrong = sandbox.requests
      .slice(from)
      .filter((r) => (generation === 2 ? isGeneration1Route(r.path) : isGeneration2Only(r.method, r.path)))
      .map((r) => `${r.method} ${r.path}`);
    expect(wrong, `requests to the other generation (${target})`).toEqual([]);
    from = sandbox.requests.length;
  });

  const ok = async (name: string, args: Record<string, unknown>) => {
    const r = await call(server, name, args);
    expect(r.isError, `${name} (${target}): ${textOf(r)}`).toBeFalsy();
    return r.structuredContent;
  };
  /** The scenario sent `route` (`METHOD /path` prefix) of its target's generation. */
  const sent = (since: number, gen2: string, gen1: string) => {
    const seen = requestsSince(sandbox, since).map((r) => `${r.method} ${r.path}`);
    const want = generation === 2 ? gen2 : gen1;
    expect(
      seen.some((p) => p.startsWith(want)),
      `${want} in ${seen.join(", ")}`,
    ).toBe(true);
  };

  it(`the sandbox answers in the target's shapes (${target})`, async () => {
    const path = generation === 2 ? "/v2/extract/async" : "/v1/extract/async";
    const res = await fetch(`${sandbox.url}${path}`, {
      method: "POST",
      headers: { authorization: `Bearer ${TEST_KEY}`, "content-type": "application/json" },
      body: JSON.stringify({ url: `${sandbox.siteUrl}/` }),
    });
    const body = (await res.json()) as Record<string, any>;
    if (target === "gen1 spec") {
      expect(body.task_id).toBeTypeOf("string");
    } else {
      expect(body.task_id).toBeUndefined();
      expect(body.task.id).toBeTypeOf("string");
      expect(body.status).toBe(generation === 2 ? "success" : "ok");
    }
  });

  it(`serp_search (${target})`, async () => {
    const s = await ok("serp_search", { search_engine: "engine1_search", query: "hiking boots" });
    expect(s.results.length).toBeGreaterThan(0);
    expect(s.results[0]).toMatchObject({ position: 1, url: expect.stringMatching(/^http/) });
  });

  it(`extract_page sync (${target})`, async () => {
    const since = sandbox.requests.length;
    const s = await ok("extract_page", { url: `${sandbox.siteUrl}/` });
    expect(s.status).toBe("done");
    expect(s.chars).toBeGreaterThan(0);
    sent(since, "POST /v2/extract", "POST /v1/extract");
  });

  it(`extract_page async (${target})`, async () => {
    const since = sandbox.requests.length;
    const s = await ok("extract_page", { url: `${sandbox.siteUrl}/`, render: true });
    expect(s.status).toBe("done");
    expect(s.chars).toBeGreaterThan(0);
    asyncTaskId = s.task_id;
    expect(asyncTaskId).toBeTypeOf("string");
    sent(since, "POST /v2/extract/async", "POST /v1/extract/async");
    sent(since, "GET /v2/tasks/", "GET /v1/tasks/");
  });

  it(`get_task task (${target})`, async () => {
    const s = await ok("get_task", { task_id: asyncTaskId });
    expect(s).toMatchObject({ status: "done", state: "success" });
    expect(s.chars).toBeGreaterThan(0);
  });

  it(`get_task list (${target})`, async () => {
    const s = await ok("get_task", { limit: 50 });
    expect(s.tasks.map((t: { task_id: string }) => t.task_id)).toContain(asyncTaskId);
    expect(textOf(await call(server, "get_task", {}))).toContain("recent task");
  });

  it(`a failed task answers at once with the service's message (${target})`, async () => {
    const match = generation === 2 ? "POST /v2/extract/async" : "POST /v1/extract/async";
    sandbox.faults.add({ kind: "task_error", match, count: 1 });
    const r = await call(server, "extract_page", { url: `${sandbox.siteUrl}/about?fails`, render: true });
    sandbox.faults.clear();
    expect(r.isError).toBe(true);
    expect(textOf(r)).toContain("Target responded with a fatal error");
  });

  it(`extract_batch and get_task batch (${target})`, async () => {
    const since = sandbox.requests.length;
    const urls = [`${sandbox.siteUrl}/`, `${sandbox.siteUrl}/about`];
    const s = await ok("extract_batch", { inputs: urls.map((url) => ({ url })) });
    expect(s.status).toBe("done");
    expect(s.pages).toHaveLength(2);
    expect(s.completed).toBe(2);
    expect(s.pages[0].chars).toBeGreaterThan(0);
    const b = await ok("get_task", { batch_id: s.batch_id });
    expect(b.status).toBe("done");
    expect(b.pages.length).toBe(2);
    sent(since, "POST /v2/extract/batch", "POST /v1/extract/batch");
    sent(since, "GET /v2/batches/", "GET /v1/batches/");
  });

  it(`run_agent (${target})`, async () => {
    const since = sandbox.requests.length;
    const s = await ok("run_agent", { agent: AGENT, params: { query: "laptop" } });
    expect(s).toMatchObject({ status: "done", agent: AGENT });
    expect(s.parsing).toBeTypeOf("object");
    sent(since, "POST /v2/extract/templates/run", "POST /v1/agents/run");
  });

  it(`run_agent async with pages (${target})`, async () => {
    const since = sandbox.requests.length;
    const s = await ok("run_agent", { agent: AGENT, params: { query: "usb cable" }, pages: 2 });
    expect(s.status).toBe("done");
    expect(s.pages.map((p: { page: number }) => p.page)).toEqual([1, 2]);
    sent(since, "POST /v2/extract/templates/async", "POST /v1/agent/async");
  });

  it(`run_agent refuses bad params before any run, in the agent's words (${target})`, async () => {
    const since = sandbox.requests.length;
    const r = await call(server, "run_agent", { agent: AGENT, params: { page: 2 } });
    expect(r.isError).toBe(true);
    expect(textOf(r)).toMatch(/query/);
    expect(requestsSince(sandbox, since).filter((q) => q.method === "POST")).toEqual([]);
  });

  it(`dedicated agent tool (${target})`, async () => {
    const s = await ok(`agent_${AGENT}`, { query: "laptop" });
    const fields = (await ok("list_agents", { name: AGENT })).agent.output_fields;
    expect(Object.keys(s).length).toBeGreaterThan(0);
    for (const k of Object.keys(s)) expect(fields).toContain(k);
    const listed = (await server.client.listTools()).tools.find((t) => t.name === `agent_${AGENT}`);
    expect(Object.keys(listed?.inputSchema.properties ?? {})).toEqual(
      expect.arrayContaining(["query", "page"]),
    );
  });

  it(`list_agents (${target})`, async () => {
    const s = await ok("list_agents", {});
    expect(s.agents.length).toBeGreaterThan(0);
    const one = await ok("list_agents", { name: AGENT });
    expect(one.agent.name).toBe(AGENT);
  });

  it(`run_template run and versions (${target})`, async () => {
    const s = await ok("run_template", {
      template: "ecommerce_product",
      params: { url: "https://shop.example.com/p/1" },
    });
    expect(s.status).toBe("done");
    const v = await ok("run_template", { template: "ecommerce_product", list_versions: true });
    expect(v.versions.map((x: { version_number: number }) => x.version_number).sort()).toEqual([1, 2]);
  });

  it(`crawl_site and get_task crawl (${target})`, async () => {
    const since = sandbox.requests.length;
    const s = await ok("crawl_site", { url: `${sandbox.siteUrl}/`, limit: 3 });
    expect(s.status).toBe("done");
    expect(s.pages.length).toBeGreaterThan(0);
    expect(s.pages[0].chars).toBeGreaterThan(0);
    const c = await ok("get_task", { crawl_id: s.crawl_id });
    expect(c.status).toBe("done");
    expect(c.pages.length).toBe(s.pages.length);
    sent(since, "POST /v2/crawl", "POST /v1/crawl");
  });

  it(`map_site (${target})`, async () => {
    const since = sandbox.requests.length;
    const s = await ok("map_site", { url: `${sandbox.siteUrl}/` });
    expect(s.status).toBe("done");
    expect(s.urls.length).toBeGreaterThan(3);
    for (const u of s.urls) expect(u).toMatch(/^http/);
    sent(since, "POST /v2/map", target === "gen1 live" ? "POST /v1/map" : "POST /v1/map/async");
  });

  it(`check_domain_health (${target})`, async () => {
    const since = sandbox.requests.length;
    const s = await ok("check_domain_health", {
      domains: ["example.com", "shop.example.com"],
      include_driver: true,
    });
    expect(s.domains[0]).toMatchObject({ domain: "example.com", status: expect.any(String) });
    const drivers = s.domains.map((d: { driver: { driver: string; antibot_systems: string[] } }) => d.driver);
    for (const d of drivers)
      expect(d).toMatchObject({
        driver: expect.stringMatching(/^vx/),
        requires_js_rendering: expect.any(Boolean),
      });
    sent(since, "GET /v2/domain-knowledge/driver", "GET /v1/domain-knowledge/driver");
    sent(since, "POST /v1/domain-health/check", "POST /v1/domain-health/check");
  });

  it(`job_runs, a run's artifacts and a download URL (${target})`, async () => {
    const s = await ok("job_runs", { job_id: "job_daily_prices" });
    expect(s.runs.length).toBeGreaterThan(0);
    const run = s.runs.find((x: { artifact_ids?: string[] }) => x.artifact_ids?.length);
    const listed = await ok("job_runs", { job_id: "job_daily_prices", run_id: run.id });
    expect(listed.artifacts.map((a: { id: string }) => a.id)).toEqual(run.artifact_ids);
    const d = await ok("job_runs", { run_id: run.id, artifact_id: listed.artifacts[0].id });
    expect(d.download.url).toMatch(/^http/);
  });

  it(`a submission that may have been accepted is found through get_task {} (${target})`, async () => {
    const url = `${sandbox.siteUrl}/about?maybe=${target.replace(" ", "-")}`;
    const match = generation === 2 ? "POST /v2/extract/async" : "POST /v1/extract/async";
    sandbox.faults.add({ kind: "reset", after: "accept", match, count: 1 });
    const r = await call(server, "extract_page", { url, render: true });
    sandbox.faults.clear();
    expect(r.isError).toBe(true);
    expect(textOf(r)).toContain("get_task {}");
    const list = await ok("get_task", { limit: 100 });
    expect(list.tasks.some((t: { url?: string }) => t.url === url)).toBe(true);
  });

  it(`get_task refuses ids that would change the path (${target})`, async () => {
    for (const id of ["..", ".", "  "]) {
      const since = sandbox.requests.length;
      const r = await call(server, "get_task", { task_id: id });
      expect(r.isError).toBe(true);
      expect(textOf(r)).toMatch(/invalid_argument/);
      expect(requestsSince(sandbox, since)).toEqual([]);
    }
  });
});
