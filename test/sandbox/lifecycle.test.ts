/**
 * The generation-2 capabilities the sandbox emulates, in both generations: agent search with an
 * answer and citations, template generations that take a few polls (create, refine) and template
 * administration, research agents and runs (event stream, 409/408 while running), crawl listing
 * and termination, jobs CRUD with runs, run cancel and artifacts, media download.
 */
import { describe, expect, it } from "vitest";
import {
  ArtifactPreviewSchema,
  CrawlListSchema,
  GenerationRecordSchema,
  JobSchema,
  ResearchResultSchema,
  ResearchRunSchema,
  SearchResponseSchema,
} from "../../src/api/schemas-v2.js";
import { useSandbox } from "../helpers/sandbox.js";
import { call, shape, until } from "./helpers.js";

const sandbox = useSandbox({ taskLatencyMs: 20, crawlPageMs: 20 });
/** Job runs stay PENDING for an hour here, so a cancel always finds one running, however slow the machine. */
const holding = useSandbox({ taskLatencyMs: 3_600_000 });

describe.each([2, 1])("generation %i", (gen) => {
  const v = `/v${gen}`;

  it("search: results sized by depth, an answer whose citations point into the results", async () => {
    const lite = shape(
      SearchResponseSchema,
      (await call(sandbox, "POST", `${v}/search`, { body: { query: "tent" } })).body,
    );
    expect(lite.results).toHaveLength(3);
    expect(lite.results.every((r) => r.content === "")).toBe(true);
    const deep = await call(sandbox, "POST", `${v}/search`, {
      body: { query: "tent", search_depth: "fast", include_answer: true, max_results: 5 },
    });
    const body = shape(SearchResponseSchema, deep.body);
    expect(body.results).toHaveLength(5);
    expect(body.results[0].content?.length).toBeGreaterThan(100);
    expect(body.results[0].content?.length).toBeLessThanOrEqual(2000);
    expect(body.answer).toMatch(/\[1\]/);
    for (const c of body.answer_citations ?? []) expect(body.results[c.result_index]).toBeDefined();
    const excluded = await call(sandbox, "POST", `${v}/search`, {
      body: { query: "tent", exclude_domains: ["127.0.0.1"] },
    });
    expect(excluded.body.results).toEqual([]);
    const both = await call(sandbox, "POST", `${v}/search`, {
      body: { query: "tent", time_range: "day", start_date: "2026-01-01" },
    });
    expect(both.status).toBe(422);
  });

  it("template generation: a few polls, then a version; refining adds a version", async () => {
    const base = gen === 2 ? "/v2/extract/templates/generations" : "/v1/agents/generations";
    const nameKey = gen === 2 ? "name" : "agent_name";
    const created = await call(sandbox, "POST", base, {
      body: {
        prompt: "Extract the title, price and rating",
        url: "https://shop.example.com/p/1",
        name: `gen${gen}_product`,
      },
    });
    expect(created.status, created.text).toBe(200);
    const record = shape(GenerationRecordSchema, created.body);
    expect(record.status).toBe("queued");
    const statuses: string[] = [];
    const done = await until(
      () => call(sandbox, "GET", `${base}/${record.id}`),
      (r) => {
        statuses.push(r.body.status);
        return r.body.status === "success";
      },
    );
    expect(statuses).toEqual(["running", "running", "success"]);
    const version = shape(GenerationRecordSchema, done.body).generated_version!;
    expect(version[nameKey as "name"]).toBe(`gen${gen}_product`);
    expect(Object.keys((version.output_schema as { properties: object }).properties)).toEqual([
      "title",
      "price",
      "rating",
    ]);
    expect((await call(sandbox, "GET", `/v1/agents/gen${gen}_product`)).status).toBe(200);

    const refineKey = gen === 2 ? "from_extract_template" : "from_agent";
    const refine = await call(sandbox, "POST", base, {
      body: { [refineKey]: `gen${gen}_product`, prompt: "Also capture the currency" },
    });
    const refined = await until(
      () => call(sandbox, "GET", `${base}/${refine.body.id}`),
      (r) => r.body.status === "success",
    );
    expect(refined.body.source_version_id).toBe(version.id);
    expect(refined.body.generated_version.version_number).toBe(2);
    expect(Object.keys(refined.body.generated_version.output_schema.properties)).toContain("currency");
    const run = await call(sandbox, "POST", "/v2/extract/templates/run", {
      body: { template: `gen${gen}_product`, params: { url: "https://shop.example.com/p/1" } },
    });
    expect(Object.keys(run.body.data.parsing)).toContain("currency");
  });

  it("research: the run is active (409 / 408 on its result) until done; events only with enable_events", async () => {
    const base = gen === 2 ? "/v2/agents" : "/v1/task-agents";
    // Long enough that the result read right after the POST finds the run active on a busy machine.
    sandbox.configure({ taskLatencyMs: 400 });
    const agent = await call(sandbox, "POST", base, { body: { template: "market_research" } });
    expect(agent.status).toBe(200);
    expect(agent.body[gen === 2 ? "skill" : "domain_expertise"]).toBe("market analyst");
    const started = await call(sandbox, "POST", `${base}/${agent.body.id}/runs`, {
      body: { input: "tent market", enable_events: true },
    });
    const run = shape(ResearchRunSchema, started.body);
    const early = await call(sandbox, "GET", `${base}/${run.web_search_agent_id}/runs/${run.id}/result`);
    expect(early.status).toBe(gen === 2 ? 409 : 408);
    const events = await call(sandbox, "GET", `${base}/${run.web_search_agent_id}/runs/${run.id}/events`);
    expect(events.headers.get("content-type")).toMatch(/text\/event-stream/);
    expect(events.text.match(/^event: /gm)).toHaveLength(4);
    expect(events.text).toContain("event: run.completed");
    const result = shape(
      ResearchResultSchema,
      (await call(sandbox, "GET", `${base}/${run.web_search_agent_id}/runs/${run.id}/result`)).body,
    );
    expect(result.run?.status).toBe("completed");
    expect(result.output?.trust?.claims?.[0].citations?.[0].url).toMatch(/^http/);
    const quiet = await call(sandbox, "POST", `${base}/${agent.body.id}/runs`, { body: { input: "x" } });
    expect((await call(sandbox, "GET", `${base}/${agent.body.id}/runs/${quiet.body.id}/events`)).status).toBe(
      404,
    );
    expect((await call(sandbox, "DELETE", `${base}/${agent.body.id}`)).status).toBe(204);
    expect((await call(sandbox, "GET", `${base}/${agent.body.id}`)).body.is_active).toBe(false);
    sandbox.configure({ taskLatencyMs: 20 });
  });

  it("crawl: listed while running, ended by DELETE (canceled), and the filters apply", async () => {
    const started = await call(sandbox, "POST", "/v1/crawl", {
      body: { url: `${sandbox.siteUrl}/`, limit: 50, include_paths: ["^/site/(blog|)"] },
    });
    const id = started.body.crawl_id;
    const listed = shape(CrawlListSchema, (await call(sandbox, "GET", `${v}/crawl?status=running`)).body);
    expect(listed.data.map((c) => c.crawl_id)).toContain(id);
    expect((await call(sandbox, "DELETE", `${v}/crawl/${id}`)).body).toEqual({ status: "canceled" });
    expect((await call(sandbox, "GET", `/v1/crawl/${id}`)).body.crawl.status).toBe("canceled");
    expect((await call(sandbox, "DELETE", `${v}/crawl/00000000-0000-4000-8000-00000000dead`)).status).toBe(
      404,
    );
  });

  const makeJob = async (target: typeof sandbox) => {
    const key = gen === 2 ? "extract_template_name" : "agent_name";
    const made = await call(target, "POST", `${v}/jobs`, {
      body: { name: `prices${gen}`, [key]: "ecommerce_product" },
    });
    expect(made.status, made.text).toBe(200);
    return shape(JobSchema, made.body);
  };
  const runPathOf = (job: string, run: string) =>
    gen === 2 ? `/v2/jobs/runs/${run}` : `/v1/jobs/${job}/runs/${run}`;

  it("jobs: update, trigger a run and cancel it while it is pending", async () => {
    const job = await makeJob(holding);
    const updated = await call(holding, "PATCH", `${v}/jobs/${job.id}`, {
      body: { schedule: { cron: "0 6 * * *", enabled: true } },
    });
    expect(updated.body.schedule).toEqual({ cron: "0 6 * * *", enabled: true });
    const run = await call(holding, "POST", `${v}/jobs/${job.id}/runs`);
    expect(run.body.status).toBe("PENDING");
    const runPath = runPathOf(job.id, run.body.id);
    const cancelled = await call(holding, "POST", `${runPath}/cancel`);
    expect(cancelled.body).toEqual({ id: run.body.id, status: "CANCELLED" });
    expect((await call(holding, "POST", `${runPath}/cancel`)).status).toBe(409);
  });

  it("jobs: a run that finishes has artifacts with a preview; delete", async () => {
    const job = await makeJob(sandbox);
    const run = await call(sandbox, "POST", `${v}/jobs/${job.id}/runs`);
    const runPath = runPathOf(job.id, run.body.id);
    const finished = await until(
      () => call(sandbox, "GET", runPath),
      (r) => r.body.status === "SUCCESS",
    );
    expect(finished.body.job.id).toBe(job.id);
    const artifacts = (await call(sandbox, "GET", `${runPath}/artifacts`)).body.items;
    expect(artifacts).toHaveLength(1);
    const preview = shape(
      ArtifactPreviewSchema,
      (await call(sandbox, "GET", `${runPath}/artifacts/${artifacts[0].id}/preview`)).body,
    );
    expect(preview.row_count).toBe(5);
    expect(preview.columns).toEqual(["input", "output"]);
    expect((await call(sandbox, "DELETE", `${v}/jobs/${job.id}`)).status).toBe(204);
    expect((await call(sandbox, "GET", `${v}/jobs/${job.id}`)).status).toBe(404);
  });

  it("media: an image download, sync and async, served at its download URL", async () => {
    const sync = await call(sandbox, "POST", `${v}/media`, {
      body: { url: "https://cdn.example.com/boots.png" },
    });
    expect(sync.body.data).toMatchObject({ content_type: "image/png", file_name: "boots.png" });
    const file = await fetch(sync.body.data.download_url);
    expect(file.headers.get("content-type")).toBe("image/png");
    expect((await file.arrayBuffer()).byteLength).toBe(sync.body.data.size_bytes);
    const async = await call(sandbox, "POST", `${v}/media/async`, {
      body: { url: `${sandbox.siteUrl}/about` },
    });
    const taskId = gen === 2 ? async.body.task.id : async.body.task_id;
    const done = await until(
      () => call(sandbox, "GET", `/v1/tasks/${taskId}`),
      (r) => r.body.task.state !== "pending",
    );
    expect(done.body.task.state).toBe("success");
  });
});

describe("template administration (generation 2)", () => {
  it("publishes an older version (runs use it), refuses other paths, deletes", async () => {
    const versions = (await call(sandbox, "GET", "/v2/extract/templates/ecommerce_product/versions")).body
      .items;
    const oldest = versions[versions.length - 1];
    const patched = await call(sandbox, "PATCH", "/v2/extract/templates/ecommerce_product", {
      body: [{ op: "replace", path: "/published_version_id", value: oldest.id }],
    });
    expect(patched.body.published_version.version_number).toBe(1);
    const run = await call(sandbox, "POST", "/v2/extract/templates/run", {
      body: { template: "ecommerce_product", params: { url: "https://shop.example.com/p/1" } },
    });
    expect(Object.keys(run.body.data.parsing).sort()).toEqual(["currency", "price", "title"]);
    const bad = await call(sandbox, "PATCH", "/v2/extract/templates/ecommerce_product", {
      body: [{ op: "replace", path: "/id", value: "x" }],
    });
    expect(bad.status).toBe(422);
    expect((await call(sandbox, "DELETE", "/v2/extract/templates/ecommerce_product")).status).toBe(204);
    expect((await call(sandbox, "GET", "/v2/extract/templates/ecommerce_product")).status).toBe(404);
  });
});
