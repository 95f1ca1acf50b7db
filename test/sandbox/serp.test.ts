import { describe, expect, it } from "vitest";
import { SerpOrganicSchema } from "../../src/api/schemas.js";
import { useSandbox } from "../helpers/sandbox.js";
import { call, shape } from "./helpers.js";
import { SerpResponseSchema } from "./spec-shapes.js";

describe("POST /v2/serp", () => {
  const sandbox = useSandbox();

  const serp = async (body: Record<string, unknown>) => {
    const r = await call(sandbox, "POST", "/v2/serp", { body: { search_engine: "engine1_search", ...body } });
    expect(r.status).toBe(200);
    return shape(SerpResponseSchema, r.body);
  };
  const organic = (res: Awaited<ReturnType<typeof serp>>) =>
    ((res.data.parsing as { entities: { organic: unknown[] } }).entities.organic ?? []).map((o) =>
      shape(SerpOrganicSchema, o),
    );

  it("ranks demo-site pages matching the query first", async () => {
    const res = await serp({ query: "hiking boots" });
    expect(res.status).toBe("success");
    const results = organic(res);
    expect(results).toHaveLength(10);
    expect(results[0].url.startsWith(`${sandbox.siteUrl}/`)).toBe(true);
    expect(results.slice(0, 3).some((r) => r.title.includes("Hiking Boots"))).toBe(true);
    expect(results.map((r) => r.position)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    expect(res.metadata).toMatchObject({ driver: "vx6" });
    expect(typeof res.metadata.query_duration).toBe("number");
    expect(res.pagination).toEqual({ next_page_params: { page: 2 } });
  });

  it("honours num_results and shifts the window with page", async () => {
    const first = organic(await serp({ query: "tent", num_results: 25 }));
    expect(first).toHaveLength(25);
    expect(new Set(first.map((r) => r.url)).size).toBe(25);
    const page2 = organic(await serp({ query: "tent", num_results: 5, page: 2 }));
    expect(page2.map((r) => r.url)).toEqual(first.slice(5, 10).map((r) => r.url));
    expect(page2[0].position).toBe(6);
  });

  it("stops offering a next page when the site is exhausted", async () => {
    const res = await serp({ query: "tent", num_results: 100 });
    expect(organic(res).length).toBeGreaterThanOrEqual(30);
    expect(res.pagination).toBeUndefined();
  });

  it("returns html and markdown instead of parsing when parse is false", async () => {
    const res = await serp({ query: "jacket", parse: false });
    expect(res.data.parsing).toBeUndefined();
    expect(res.data.html).toContain("<a href=");
    expect(res.data.markdown).toContain("Aurora Down Jacket");
  });

  it("is deterministic", async () => {
    const a = organic(await serp({ query: "water filter" }));
    const b = organic(await serp({ query: "water filter" }));
    expect(a).toEqual(b);
  });

  it("validates the documented ranges", async () => {
    for (const body of [
      { num_results: 0 },
      { num_results: 101 },
      { page: 0 },
      { search_engine: "engine9" },
      { device: "tv" },
    ]) {
      const r = await call(sandbox, "POST", "/v2/serp", {
        body: { search_engine: "engine1_search", ...body },
      });
      expect(r.status).toBe(422);
      expect(r.body.detail[0].loc[0]).toBe("body");
    }
  });
});

describe("POST /v2/fast-serp and /v2/serp/batch (and their /v1 forms)", () => {
  const sandbox = useSandbox({ taskLatencyMs: 0 });
  const organicUrls = (body: any) => body.data.parsing.entities.organic.map((o: { url: string }) => o.url);

  it.each(["/v2/fast-serp", "/v1/fast-serp"])("%s answers the SERP response /v2/serp gives", async (path) => {
    const req = { search_engine: "engine1_search", query: "hiking boots", num_results: 4 };
    const fast = await call(sandbox, "POST", path, { body: req });
    const plain = await call(sandbox, "POST", "/v2/serp", { body: req });
    expect(fast.status).toBe(200);
    shape(SerpResponseSchema, fast.body);
    expect(organicUrls(fast.body)).toEqual(organicUrls(plain.body));
    expect(organicUrls(fast.body)).toHaveLength(4);
  });

  it.each(["/v2/serp/batch", "/v1/serp/batch"])(
    "%s makes a task per query whose result is that query's SERP answer",
    async (path) => {
      const r = await call(sandbox, "POST", path, {
        body: {
          inputs: [{ query: "tent" }, { query: "jacket", num_results: 2 }],
          shared_inputs: { search_engine: "engine1_search", num_results: 3 },
        },
      });
      expect(r.status).toBe(200);
      expect(r.body.batch_size).toBe(2);
      expect(r.body.tasks).toHaveLength(2);
      const ids = r.body.tasks.map((t: { id: string }) => t.id);
      const progress = await call(sandbox, "GET", `/v2/batches/${r.body.batch_id}/progress`);
      expect(progress.body.completed).toBe(true);
      const answers = await Promise.all(
        ids.map((id: string) => call(sandbox, "GET", `/v2/tasks/${id}/results`)),
      );
      const expected = await Promise.all(
        [
          { query: "tent", num_results: 3 },
          { query: "jacket", num_results: 2 },
        ].map((q) => call(sandbox, "POST", "/v2/serp", { body: { search_engine: "engine1_search", ...q } })),
      );
      expect(answers.map((a) => organicUrls(a.body))).toEqual(expected.map((e) => organicUrls(e.body)));
      expect(r.body.tasks[0].api_type).toBe("serp");
    },
  );

  it("refuses a batch item with no search_engine in it or in shared_inputs (422)", async () => {
    const r = await call(sandbox, "POST", "/v2/serp/batch", {
      body: { inputs: [{ search_engine: "engine1_search", query: "a" }, { query: "b" }] },
    });
    expect(r.status).toBe(422);
    expect(r.body.detail[0].loc).toEqual(["body", "inputs", 1, "search_engine"]);
  });
});

describe("a sandbox with generation 1 only", () => {
  const sandbox = useSandbox({ generation2: false, taskLatencyMs: 0 });

  it("answers 404 on /v2/fast-serp and /v2/serp/batch, and serves their /v1 forms", async () => {
    const one = { search_engine: "engine1_search", query: "tent" };
    expect((await call(sandbox, "POST", "/v2/fast-serp", { body: one })).status).toBe(404);
    expect((await call(sandbox, "POST", "/v2/serp/batch", { body: { inputs: [one] } })).status).toBe(404);
    expect((await call(sandbox, "POST", "/v1/fast-serp", { body: one })).status).toBe(200);
    expect((await call(sandbox, "POST", "/v1/serp/batch", { body: { inputs: [one] } })).status).toBe(200);
    expect((await call(sandbox, "POST", "/v2/serp", { body: one })).status).toBe(200);
  });
});
