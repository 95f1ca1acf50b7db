/**
 * The generation-2 capabilities end to end, over stdio against the sandbox, once with
 * WEBDATA_API_GENERATION=2 and once with 1: web_search, generate_template (then refine, then
 * run), manage_template (generation 2 only: on 1 a clear refusal, nothing sent), research
 * (progress from its event stream), list_research_agents, manage_research_agent, cancel (a crawl,
 * a job run), manage_job and job_runs (artifacts, preview), download_media, crawl_site's
 * filters, and serp_search's fast mode and batch (progress per query). After each scenario every request went to the target's generation: on 2 no `/v1/`
 * route; on 1 no `/v2/` route but those the generation-1 spec itself lists (§17.1).
 */
import {
  CallToolResultSchema,
  CreateTaskResultSchema,
  GetTaskResultSchema,
} from "@modelcontextprotocol/sdk/types.js";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import type { Sandbox } from "../../src/sandbox/index.js";
import {
  call,
  type StdioServer,
  spawnAgainst,
  startTestSandbox,
  TEST_KEY,
  type ToolCall,
  textOf,
  until,
} from "../helpers/mcp.js";

/** The `/v2` routes the generation-1 spec lists itself (§17.1): SERP, template run/batch/versions, job runs. */
const GEN1_SPEC_V2 = [
  /^POST \/v2\/serp$/,
  /^POST \/v2\/extract\/templates\/(run|batch)$/,
  /^GET \/v2\/extract\/templates\/[^/]+\/versions$/,
  /^GET \/v2\/jobs\/[^/]+\/runs$/,
  /^GET \/v2\/jobs\/runs\/[^/]+\/artifacts\/[^/]+\/download-url$/,
];
const otherGeneration = (gen: number, route: string) =>
  gen === 2
    ? / \/v1\//.test(route) && route !== "POST /v1/domain-health/check"
    : / \/v2\//.test(route) && !GEN1_SPEC_V2.some((re) => re.test(route));

describe.each([2, 1])("generation %i", (gen) => {
  let sandbox: Sandbox;
  let server: StdioServer;
  let checked = 0;
  const v = `/v${gen}`;
  beforeAll(async () => {
    sandbox = await startTestSandbox({ taskLatencyMs: 60 });
    server = await spawnAgainst(sandbox, { WEBDATA_TOOLSETS: "all", WEBDATA_API_GENERATION: String(gen) });
  });
  afterAll(async () => {
    await server?.close();
    await sandbox?.close();
  });
  afterEach(() => {
    const wrong = sandbox.requests
      .slice(checked)
      .map((r) => `${r.method} ${r.path}`)
      .filter((route) => otherGeneration(gen, route));
    checked = sandbox.requests.length;
    expect(wrong, `requests to the other generation than ${gen}`).toEqual([]);
  });
  const posts = (path: string, from: number) =>
    sandbox.requests.slice(from).filter((r) => r.method === "POST" && r.path === path).length;
  const withProgress = async (name: string, args: Record<string, unknown>) => {
    const progress: Array<{ progress: number; total?: number; message?: string }> = [];
    const r = (await server.client.callTool({ name, arguments: args }, CallToolResultSchema, {
      onprogress: (p) => progress.push(p),
    })) as ToolCall;
    return { r, progress };
  };

  it("web_search: an answer whose citations are result URLs", async () => {
    const from = sandbox.requests.length;
    const r = await call(server, "web_search", { query: "tent", include_answer: true, search_depth: "fast" });
    expect(r.isError, textOf(r)).toBeFalsy();
    const s = r.structuredContent;
    expect(s.answer).toMatch(/\[1\]/);
    const urls = s.results.map((x: { url: string }) => x.url);
    for (const c of s.citations) expect(urls).toContain(c.url);
    expect(s.results[0].content.length).toBeGreaterThan(100);
    expect(posts(`${v}/search`, from)).toBe(1);
  });

  it("generate_template, then refine it, then run it: one POST each, progress while polling", async () => {
    const base = gen === 2 ? "/v2/extract/templates/generations" : "/v1/agents/generations";
    const from = sandbox.requests.length;
    const { r, progress } = await withProgress("generate_template", {
      prompt: "Extract the title, price and rating",
      url: "https://shop.example.com/p/1",
      name: `trail_product_${gen}`,
    });
    expect(r.isError, textOf(r)).toBeFalsy();
    expect(r.structuredContent).toMatchObject({ status: "done", template: `trail_product_${gen}` });
    expect(r.structuredContent.version.version_number).toBe(1);
    expect(progress.length).toBeGreaterThanOrEqual(2);
    expect(posts(base, from)).toBe(1);
    const run = r.structuredContent.run;
    expect(run.tool).toBe("run_template");
    const ran = await call(server, run.tool, run.arguments);
    expect(ran.isError, textOf(ran)).toBeFalsy();

    const refined = await call(server, "generate_template", {
      from_extract_template: `trail_product_${gen}`,
      prompt: "Also capture the currency",
    });
    expect(refined.isError, textOf(refined)).toBeFalsy();
    expect(refined.structuredContent.version.version_number).toBe(2);
    expect(Object.keys(refined.structuredContent.version.output_schema.properties)).toContain("currency");
    expect(posts(base, from)).toBe(2);
  });

  it("manage_template: publish a version, then delete (generation 1: refused, nothing sent)", async () => {
    const name = `trail_product_${gen}`;
    const from = sandbox.requests.length;
    const updated = await call(server, "manage_template", {
      action: "update",
      template: name,
      patch: [{ op: "replace", path: "/display_name", value: "Trail product" }],
    });
    const deleted = await call(server, "manage_template", { action: "delete", template: name });
    const sent = sandbox.requests.slice(from).filter((q) => q.path.startsWith("/v2/extract/templates/"));
    if (gen === 1) {
      for (const r of [updated, deleted]) {
        expect(r.isError).toBe(true);
        expect(textOf(r)).toMatch(/generation 1 has no route.*WEBDATA_API_GENERATION=2/);
      }
      expect(sent).toEqual([]);
      return;
    }
    expect(updated.isError, textOf(updated)).toBeFalsy();
    expect(deleted.isError, textOf(deleted)).toBeFalsy();
    expect(sent.map((q) => q.method)).toEqual(["PATCH", "DELETE"]);
    const gone = await call(server, "run_template", {
      template: name,
      params: { url: "https://shop.example.com/p/1" },
    });
    expect(gone.isError).toBe(true);
  });

  it("research: progress comes from the run's event stream; the answer has citations", async () => {
    const from = sandbox.requests.length;
    const { r, progress } = await withProgress("research", { input: "winter tents" });
    expect(r.isError, textOf(r)).toBeFalsy();
    expect(r.structuredContent.status).toBe("done");
    expect(r.structuredContent.citations.length).toBeGreaterThan(0);
    expect(r.structuredContent.confidence).toBe("high");
    const messages = progress.map((p) => p.message ?? "");
    expect(messages.some((m) => m.includes("Searching sources"))).toBe(true);
    expect(progress.at(-1)).toMatchObject({ progress: 4, total: 4 });
    const seen = sandbox.requests.slice(from).map((q) => `${q.method} ${q.path}`);
    expect(seen.some((q) => q.startsWith("GET ") && q.endsWith("/events"))).toBe(true);
    if (gen === 2) expect(seen.filter((q) => q === "POST /v2/agents/runs")).toHaveLength(1);
    else {
      expect(seen.filter((q) => q === "POST /v1/task-agents")).toHaveLength(1);
      expect(seen.filter((q) => /^POST \/v1\/task-agents\/[^/]+\/runs$/.test(q))).toHaveLength(1);
    }
  });

  it("list_research_agents: the account's agents and the agent templates", async () => {
    const r = await call(server, "list_research_agents", {});
    expect(r.isError, textOf(r)).toBeFalsy();
    expect(r.structuredContent.templates.map((t: { template_name: string }) => t.template_name)).toContain(
      "market_research",
    );
    expect(r.structuredContent.agents.length).toBeGreaterThan(0);
  });

  it("manage_research_agent: create from a template, run it, update, delete", async () => {
    const made = await call(server, "manage_research_agent", {
      action: "create",
      template: "market_research",
      agent_name: `tents_${gen}`,
    });
    expect(made.isError, textOf(made)).toBeFalsy();
    const agent = made.structuredContent.agent_id;
    const ran = await call(server, "research", { agent_id: agent, input: "tent prices" });
    expect(ran.isError, textOf(ran)).toBeFalsy();
    expect(ran.structuredContent.status).toBe("done");
    const from = sandbox.requests.length;
    const updated = await call(server, "manage_research_agent", {
      action: "update",
      agent_id: agent,
      patch: [{ op: "replace", path: "/description", value: "Tents" }],
    });
    expect(updated.isError, textOf(updated)).toBeFalsy();
    const deleted = await call(server, "manage_research_agent", { action: "delete", agent_id: agent });
    expect(deleted.isError, textOf(deleted)).toBeFalsy();
    const base = gen === 2 ? "/v2/agents" : "/v1/task-agents";
    expect(sandbox.requests.slice(from).map((q) => `${q.method} ${q.path}`)).toEqual([
      `PATCH ${base}/${agent}`,
      `DELETE ${base}/${agent}`,
    ]);
    // A soft delete (§2.4): the agent stays listed, deactivated, and starts no new run.
    const listed = await call(server, "list_research_agents", { agent_id: agent });
    expect(listed.structuredContent.agent).toMatchObject({ id: agent, is_active: false });
    const refused = await call(server, "research", { agent_id: agent, input: "tent prices" });
    expect(refused.isError).toBe(true);
  });

  it("cancel of a running crawl: canceled, by a DELETE on its generation's route", async () => {
    sandbox.configure({ crawlPageMs: 5_000 });
    try {
      const res = await fetch(`${sandbox.url}${v}/crawl`, {
        method: "POST",
        headers: { authorization: `Bearer ${TEST_KEY}`, "content-type": "application/json" },
        body: JSON.stringify({ url: `${sandbox.siteUrl}/`, limit: 20 }),
      });
      const { crawl_id } = (await res.json()) as { crawl_id: string };
      const from = sandbox.requests.length;
      const r = await call(server, "cancel", { crawl_id });
      expect(r.isError, textOf(r)).toBeFalsy();
      expect(r.structuredContent).toEqual({ kind: "crawl", id: crawl_id, status: "canceled" });
      expect(
        sandbox.requests
          .slice(from)
          .some((q) => q.method === "DELETE" && q.path === `${v}/crawl/${crawl_id}`),
      ).toBe(true);
      const listed = await call(server, "get_task", { list: "crawls", limit: 50 });
      expect(listed.isError, textOf(listed)).toBeFalsy();
      expect(listed.structuredContent.crawls).toContainEqual(
        expect.objectContaining({ crawl_id, status: "canceled" }),
      );
      expect(sandbox.requests.some((q) => q.method === "GET" && q.path === `${v}/crawl`)).toBe(true);
    } finally {
      sandbox.configure({ crawlPageMs: 20 });
    }
  });

  it("cancel of an MCP task by its task id: tasks/get says cancelled, a second cancel says it ended", async () => {
    sandbox.configure({ taskLatencyMs: 120_000 });
    try {
      const from = sandbox.requests.length;
      const created = await server.client.request(
        {
          method: "tools/call",
          params: { name: "extract_page", arguments: { url: `${sandbox.siteUrl}/`, render: true }, task: {} },
        },
        CreateTaskResultSchema,
      );
      const taskId = created.task.taskId;
      await until(
        async () => sandbox.requests.slice(from).filter((q) => q.method === "GET").length,
        (polls) => polls > 0,
      );
      const r = await call(server, "cancel", { task_id: taskId });
      expect(r.isError, textOf(r)).toBeFalsy();
      expect(r.structuredContent).toEqual({ kind: "task", id: taskId, status: "cancelled" });
      const got = await server.client.request(
        { method: "tasks/get", params: { taskId } },
        GetTaskResultSchema,
      );
      expect(got.status).toBe("cancelled");
      const again = await call(server, "cancel", { task_id: taskId });
      expect(textOf(again)).toContain("already ended (cancelled)");
      const unknown = await call(server, "cancel", { task_id: "no-such-task" });
      expect(unknown.isError).toBe(true);
      expect(textOf(unknown)).toContain("No MCP task no-such-task of yours");
    } finally {
      sandbox.configure({ taskLatencyMs: 60 });
    }
  });

  it("crawl_site with filters: only the paths asked for", async () => {
    const r = await call(server, "crawl_site", {
      url: `${sandbox.siteUrl}/`,
      limit: 6,
      include_paths: ["^/site/blog"],
      max_chars: 500,
    });
    expect(r.isError, textOf(r)).toBeFalsy();
    const urls = r.structuredContent.pages.map((p: { url: string }) => p.url);
    expect(urls.length).toBeGreaterThan(1);
    for (const u of urls.slice(1)) expect(u).toMatch(/\/site\/blog/);
  });

  it("jobs: create, trigger, cancel the run, trigger again, read its artifact, delete", async () => {
    const made = await call(server, "manage_job", {
      action: "create",
      name: `prices_${gen}`,
      extract_template_name: "ecommerce_product",
      schedule: { cron: "0 6 * * *", enabled: true },
    });
    expect(made.isError, textOf(made)).toBeFalsy();
    const job = made.structuredContent.job_id;
    const first = await call(server, "manage_job", { action: "trigger", job_id: job });
    const runId = first.structuredContent.run_id;
    const cancelled = await call(server, "cancel", { run_id: runId, job_id: job });
    expect(cancelled.isError, textOf(cancelled)).toBeFalsy();
    expect(cancelled.structuredContent.status).toBe("CANCELLED");
    const second = await call(server, "manage_job", { action: "trigger", job_id: job });
    const done = await until(
      () => call(server, "job_runs", { run_id: second.structuredContent.run_id, job_id: job }),
      (r) => r.structuredContent?.run?.status === "SUCCESS",
    );
    const artifact = done.structuredContent.artifacts[0].id;
    const preview = await call(server, "job_runs", {
      run_id: second.structuredContent.run_id,
      job_id: job,
      artifact_id: artifact,
      preview: true,
    });
    expect(preview.isError, textOf(preview)).toBeFalsy();
    expect(preview.structuredContent.download.url).toMatch(/^http/);
    expect(preview.structuredContent.download.preview.rows.length).toBe(5);
    const listed = await call(server, "job_runs", {});
    expect(listed.structuredContent.jobs.map((j: { id: string }) => j.id)).toContain(job);
    const deleted = await call(server, "manage_job", { action: "delete", job_id: job });
    expect(deleted.isError, textOf(deleted)).toBeFalsy();
  });

  it("serp_search mode fast: one POST to the fast route, the same results as the plain SERP", async () => {
    const from = sandbox.requests.length;
    const args = { search_engine: "engine1_search", query: "hiking boots", num_results: 3 };
    const fast = await call(server, "serp_search", { ...args, mode: "fast" });
    expect(fast.isError, textOf(fast)).toBeFalsy();
    expect(posts(`${v}/fast-serp`, from)).toBe(1);
    const plain = await call(server, "serp_search", args);
    expect(fast.structuredContent.results).toHaveLength(3);
    expect(fast.structuredContent.results).toEqual(plain.structuredContent.results);
  });

  it("serp_search queries: one batch POST, progress per query, each query's results", async () => {
    const from = sandbox.requests.length;
    const queries = ["tent", "hiking boots", "down jacket"];
    const { r, progress } = await withProgress("serp_search", {
      search_engine: "engine1_search",
      queries,
      num_results: 2,
    });
    expect(r.isError, textOf(r)).toBeFalsy();
    expect(posts(`${v}/serp/batch`, from)).toBe(1);
    const s = r.structuredContent;
    expect(s).toMatchObject({ status: "done", total: 3, completed: 3 });
    expect(s.queries.map((q: { query: string }) => q.query)).toEqual(queries);
    for (const q of queries) {
      const single = await call(server, "serp_search", {
        search_engine: "engine1_search",
        query: q,
        num_results: 2,
      });
      const mine = s.results
        .filter((x: { query: string }) => x.query === q)
        .map(({ query: _q, ...x }: any) => x);
      expect(mine).toEqual(single.structuredContent.results);
      expect(textOf(r)).toContain(`## "${q}"`);
    }
    expect(progress.length).toBeGreaterThan(0);
    expect(progress.at(-1)?.total).toBe(3);
    // resumable by its batch id: the same reading, nothing sent again
    const again = await call(server, "serp_search", {
      search_engine: "engine1_search",
      batch_id: s.batch_id,
    });
    expect(again.structuredContent.results).toEqual(s.results);
    expect(posts(`${v}/serp/batch`, from)).toBe(1);
  });

  it("download_media: an image comes back as an image", async () => {
    const r = await call(server, "download_media", { url: "https://cdn.example.com/boots.png" });
    expect(r.isError, textOf(r)).toBeFalsy();
    expect(r.structuredContent.inline).toBe("image");
    expect(r.content.some((c) => c.type === "image" && c.mimeType === "image/png")).toBe(true);
  });
});
