import { describe, expect, it } from "vitest";
import { useSandbox } from "../helpers/sandbox.js";
import { call, shape, until } from "./helpers.js";
import {
  ArtifactDownloadSchema,
  BatchSubmissionSchema,
  JobRunListSchema,
  TaskResultSchema,
  TemplateVersionListSchema,
} from "./spec-shapes.js";

describe("templates (v2) and jobs", () => {
  const sandbox = useSandbox({ taskLatencyMs: 20 });

  it("lists template versions newest first, with or without a bearer key", async () => {
    const withKey = shape(
      TemplateVersionListSchema,
      (await call(sandbox, "GET", "/v2/extract/templates/serp_listing/versions")).body,
    );
    expect(withKey.total).toBeGreaterThanOrEqual(2);
    expect(withKey).toMatchObject({ limit: 20, offset: 0 });
    expect(withKey.items.map((v) => v.version_number)).toEqual([3, 2, 1]);
    expect(withKey.items[0].input_schema).toMatchObject({ type: "object", required: ["query"] });
    const anonymous = await call(
      sandbox,
      "GET",
      "/v2/extract/templates/serp_listing/versions?limit=1&offset=1",
      { auth: null },
    );
    const page = shape(TemplateVersionListSchema, anonymous.body);
    expect(page.items.map((v) => v.version_number)).toEqual([2]);
    expect((await call(sandbox, "GET", "/v2/extract/templates/serp_listing/versions?limit=201")).status).toBe(
      422,
    );
    expect((await call(sandbox, "GET", "/v2/extract/templates/serp_listing/versions?offset=-1")).status).toBe(
      422,
    );
    expect((await call(sandbox, "GET", "/v2/extract/templates/nope/versions")).status).toBe(404);
  });

  it("runs a template synchronously with data.parsing from its output schema", async () => {
    const r = await call(sandbox, "POST", "/v2/extract/templates/run", {
      body: {
        template: "ecommerce_product",
        params: { url: "https://shop.example.com/p/1", country: "us" },
        formats: ["markdown"],
      },
    });
    expect(r.status).toBe(200);
    const result = shape(TaskResultSchema, r.body);
    const parsing = result.data.parsing as Record<string, unknown>;
    expect(Object.keys(parsing).sort()).toEqual([
      "currency",
      "images",
      "in_stock",
      "price",
      "rating",
      "title",
    ]);
    expect(result.data.markdown).toBeTypeOf("string");
  });

  it("validates template params against the current input_schema", async () => {
    const bad = async (params: unknown) =>
      (
        await call(sandbox, "POST", "/v2/extract/templates/run", {
          body: { template: "serp_listing", params },
        })
      ).body.detail;
    expect((await bad({}))[0]).toMatchObject({ loc: ["body", "params", "query"], type: "missing" });
    expect((await bad({ query: "x", page: 0 }))[0].type).toBe("greater_than_equal");
    expect((await bad({ query: "x", device: "tv" }))[0].type).toBe("enum");
    expect((await bad({ query: "x", extra: 1 }))[0].type).toBe("extra_forbidden");
    expect(
      (await call(sandbox, "POST", "/v2/extract/templates/run", { body: { template: "nope" } })).status,
    ).toBe(404);
  });

  it("runs a template batch", async () => {
    const r = await call(sandbox, "POST", "/v2/extract/templates/batch", {
      body: {
        shared_inputs: { template: "news_article", formats: ["html"] },
        inputs: [
          { params: { url: "https://news.example.com/1" } },
          { params: { url: "https://news.example.com/2" } },
        ],
      },
    });
    const batch = shape(BatchSubmissionSchema, r.body);
    expect(batch.batch_size).toBe(2);
    await until(
      () => call(sandbox, "GET", `/v1/batches/${batch.batch_id}/progress`),
      (p) => p.body.completed,
    );
    const result = shape(
      TaskResultSchema,
      (await call(sandbox, "GET", `/v1/tasks/${batch.tasks![1].id}/results`)).body,
    );
    expect(result.data.html).toContain("<html");
    expect(Object.keys(result.data.parsing as object)).toContain("headline");
    const invalid = await call(sandbox, "POST", "/v2/extract/templates/batch", {
      body: { shared_inputs: { template: "news_article" }, inputs: [{ params: { url: "nope" } }] },
    });
    expect(invalid.body.detail[0].loc).toEqual(["body", "inputs", 0, "params", "url"]);
  });

  it("pages job runs and 404s an unknown job", async () => {
    const first = shape(JobRunListSchema, (await call(sandbox, "GET", "/v2/jobs/job_hourly_news/runs")).body);
    expect(first).toMatchObject({ limit: 20, offset: 0, total: 30 });
    expect(first.items).toHaveLength(20);
    expect(first.items[0].status).toBe("PENDING");
    const rest = shape(
      JobRunListSchema,
      (await call(sandbox, "GET", "/v2/jobs/job_hourly_news/runs?limit=200&offset=20")).body,
    );
    expect(rest.items).toHaveLength(10);
    expect((await call(sandbox, "GET", "/v2/jobs/job_hourly_news/runs?limit=0")).status).toBe(422);
    expect((await call(sandbox, "GET", "/v2/jobs/job_nope/runs")).status).toBe(404);
  });

  it("gives a download URL that serves the run's JSONL artifact", async () => {
    const runs = shape(JobRunListSchema, (await call(sandbox, "GET", "/v2/jobs/job_daily_prices/runs")).body);
    const finished = runs.items.find((r) => r.artifact_ids?.length)!;
    const artifact = finished.artifact_ids![0];
    const link = shape(
      ArtifactDownloadSchema,
      (await call(sandbox, "GET", `/v2/jobs/runs/${finished.id}/artifacts/${artifact}/download-url`)).body,
    );
    expect(Date.parse(link.expires_at ?? "")).toBeGreaterThan(Date.now());
    const file = await call(sandbox, "GET", link.url, { auth: null });
    expect(file.status).toBe(200);
    const lines = file.text
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l));
    expect(lines).toHaveLength(finished.result_count!);
    expect(
      (await call(sandbox, "GET", `/v2/jobs/runs/${finished.id}/artifacts/nope/download-url`)).status,
    ).toBe(404);
    expect((await call(sandbox, "GET", "/v2/jobs/runs/nope/artifacts/x/download-url")).status).toBe(404);
  });
});
