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
