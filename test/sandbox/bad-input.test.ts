import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { GenericErrorBodySchema } from "../../src/api/schemas.js";
import { useSandbox } from "../helpers/sandbox.js";
import { webUrl } from "../helpers/unicode-arbitraries.js";
import { call, shape } from "./helpers.js";
import { ValidationErrorBodySchema } from "./spec-shapes.js";

const POST_ENDPOINTS = [
  "/v2/serp",
  "/v1/extract",
  "/v1/extract/async",
  "/v1/extract/batch",
  "/v1/agents/run",
  "/v1/agent/async",
  "/v1/agents/async",
  "/v1/agents/batch",
  "/v2/extract/templates/run",
  "/v2/extract/templates/batch",
  "/v1/crawl",
  "/v1/map/async",
  "/v1/domain-health/check",
  "/v1/search/async",
  "/v1/agents/generations",
  "/v2/search",
  "/v2/extract/templates/generations",
  "/v2/agents/runs",
  "/v2/jobs",
  "/v2/media",
];

/** Bodies every POST endpoint must refuse with a 422, whatever it expects. */
const BAD_BODIES: [string, string][] = [
  ["an empty body", ""],
  ["invalid JSON", "{oops"],
  ["truncated JSON", '{"url": "http://a.com"'],
  ["null", "null"],
  ["an array", "[]"],
  ["a string", '"hello"'],
  ["a number", "42"],
  ["an empty object", "{}"],
];

/** Per endpoint: a body with one wrong member, and the loc the 422 must name. */
const WRONG_MEMBER: [string, unknown, (string | number)[]][] = [
  ["/v2/serp", { search_engine: "engine1_search", num_results: "ten" }, ["body", "num_results"]],
  ["/v2/serp", { search_engine: "engine1_search", page: 0 }, ["body", "page"]],
  ["/v1/extract", { url: "not a url" }, ["body", "url"]],
  ["/v1/extract", { url: "https://a.com", formats: ["pdf"] }, ["body", "formats", 0]],
  ["/v1/extract", { url: "https://a.com", render: "yes" }, ["body", "render"]],
  ["/v1/extract/async", { url: "https://a.com", callback_url: "nope" }, ["body", "callback_url"]],
  ["/v1/extract/batch", { inputs: [], shared_inputs: {} }, ["body", "inputs"]],
  ["/v1/extract/batch", { inputs: [{ url: 1 }] }, ["body", "inputs", 0, "url"]],
  ["/v1/agents/run", { agent: "", params: {} }, ["body", "agent"]],
  ["/v1/agents/run", { agent: "news_article", params: [] }, ["body", "params"]],
  ["/v1/agent/async", { agent: "news_article", params: { url: 7 } }, ["body", "params", "url"]],
  ["/v1/agents/async", { agent: "news_article", formats: ["pdf"] }, ["body", "formats", 0]],
  ["/v1/agents/batch", { inputs: [], shared_inputs: {} }, ["body", "inputs"]],
  ["/v2/extract/templates/run", { template: 5 }, ["body", "template"]],
  ["/v2/extract/templates/batch", { inputs: [{}] }, ["body", "shared_inputs"]],
  ["/v1/crawl", { url: "https://a.com", limit: 0 }, ["body", "limit"]],
  ["/v1/crawl", { url: "https://a.com", limit: 1001 }, ["body", "limit"]],
  ["/v1/crawl", { url: "https://a.com", callback: { url: "x" } }, ["body", "callback", "url"]],
  [
    "/v1/crawl",
    { url: "https://a.com", callback: { url: "http://h.com", events: ["done"] } },
    ["body", "callback", "events", 0],
  ],
  ["/v1/map/async", { url: "https://a.com", limit: -1 }, ["body", "limit"]],
  ["/v1/domain-health/check", { domains: ["http://a.com"] }, ["body", "domains", 0]],
  ["/v1/search/async", { search_engine: "engine1_search", num_results: 101 }, ["body", "num_results"]],
  ["/v1/agents/generations", { description: "d", output_schema: "x" }, ["body", "output_schema"]],
  ["/v1/agents/generations", { description: "d", output_schema: {}, name: "A!" }, ["body", "name"]],
];

describe("bad input never crashes the sandbox", () => {
  const sandbox = useSandbox({ taskLatencyMs: 10, rateLimit: 100_000 });

  for (const path of POST_ENDPOINTS) {
    for (const [label, raw] of BAD_BODIES) {
      it(`${path}(${label}) → 422 detail`, async () => {
        const r = await call(sandbox, "POST", path, { raw });
        expect(r.status).toBe(422);
        const body = shape(ValidationErrorBodySchema, r.body);
        expect(body.detail[0].loc[0]).toBe("body");
      });
    }
  }

  for (const [path, body, loc] of WRONG_MEMBER) {
    it(`${path}(${JSON.stringify(body)}) → 422 at ${loc.join(".")}`, async () => {
      const r = await call(sandbox, "POST", path, { body });
      expect(r.status).toBe(422);
      expect(shape(ValidationErrorBodySchema, r.body).detail.map((d) => d.loc)).toContainEqual(loc);
    });
  }

  it("words 422 details the way pydantic does", async () => {
    const detail = async (raw: string) => (await call(sandbox, "POST", "/v2/serp", { raw })).body.detail[0];
    expect(await detail("")).toEqual({ loc: ["body"], msg: "Field required", type: "missing" });
    expect(await detail("[]")).toMatchObject({ loc: ["body"], type: "model_attributes_type" });
    expect(await detail("{")).toMatchObject({ type: "json_invalid", msg: "JSON decode error" });
    expect(await detail("{}")).toEqual({
      loc: ["body", "search_engine"],
      msg: "Field required",
      type: "missing",
    });
    expect(await detail('{"search_engine":"engine1_search","num_results":500}')).toEqual({
      loc: ["body", "num_results"],
      msg: "Input should be less than or equal to 100",
      type: "less_than_equal",
      ctx: { le: 100 },
      input: 500,
    });
    expect(await detail('{"search_engine":"engine1_search","parse":"yes"}')).toMatchObject({
      loc: ["body", "parse"],
      msg: "Input should be a valid boolean",
      type: "bool_type",
      input: "yes",
    });
  });

  it("ignores unknown request members", async () => {
    const r = await call(sandbox, "POST", "/v1/extract", {
      body: { url: `${sandbox.siteUrl}/`, surprise: true },
    });
    expect(r.status).toBe(200);
  });

  it("answers GET endpoints' bad queries and unknown ids with documented bodies", async () => {
    const cases: [string, number][] = [
      ["/v1/tasks?limit=abc", 422],
      ["/v1/tasks/not-a-task", 404],
      ["/v1/tasks/not-a-task/results", 404],
      ["/v1/batches/nope", 404],
      ["/v1/agents?limit=x", 422],
      ["/v2/jobs/job_daily_prices/runs?offset=x", 422],
      ["/v1/domain-knowledge/driver?url=%20", 422],
      ["/v1/crawl/x", 404],
    ];
    for (const [path, status] of cases) {
      const r = await call(sandbox, "GET", path);
      expect(r.status, path).toBe(status);
      if (status === 422) shape(ValidationErrorBodySchema, r.body);
      else shape(GenericErrorBodySchema, r.body);
    }
  });

  it("answers arbitrary JSON on every POST endpoint with a 2xx or 4xx, never a 5xx", async () => {
    const member = fc.oneof(
      fc.string(),
      fc.integer(),
      fc.double(),
      fc.boolean(),
      fc.constant(null),
      webUrl(),
      fc.array(fc.oneof(fc.string(), webUrl(), fc.integer()), { maxLength: 3 }),
      fc.dictionary(fc.string({ maxLength: 8 }), fc.oneof(fc.string(), fc.integer()), { maxKeys: 3 }),
    );
    const key = fc.constantFrom(
      "url",
      "search_engine",
      "query",
      "inputs",
      "shared_inputs",
      "agent",
      "template",
      "params",
      "formats",
      "domains",
      "limit",
      "callback",
      "num_results",
      "page",
    );
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...POST_ENDPOINTS),
        fc.dictionary(key, member, { maxKeys: 5 }),
        async (path, body) => {
          const r = await call(sandbox, "POST", path, { body });
          expect(r.status, `${path} ${JSON.stringify(body)}`).toBeLessThan(500);
        },
      ),
      { numRuns: 50 },
    );
  });
});
