/**
 * serp_search's fast and batch modes as a unit: the request each sends on generation 2 and on
 * generation 1 (route and body, against a scripted upstream), and the argument combinations
 * refused before anything is sent. The end-to-end runs are in test/e2e/lifecycle.e2e.test.ts.
 */
import { afterEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { WebDataClient } from "../../src/api/client.js";
import { loadConfig } from "../../src/config.js";
import type { Logger } from "../../src/logger.js";
import { runTool } from "../../src/server/run-tool.js";
import { serpSearch } from "../../src/tools/serp-search.js";
import {
  type FakeServer,
  type Handler,
  json,
  type SeenRequest,
  startFakeServer,
} from "../helpers/fake-upstream.js";

const quiet: Logger = { debug() {}, info() {}, warning() {}, error() {} };
const KEY = "k_serp_modes";
const ORGANIC = [{ position: 1, title: "Tent", url: "https://shop.example/tent", snippet: "A tent" }];
const answer = (query: string) => ({
  task_id: `t-${query}`,
  url: `https://www.engine1.com/search?q=${encodeURIComponent(query)}`,
  status: "success",
  data: { parsing: { status: "success", entities: { OrganicResult: ORGANIC } } },
  metadata: {},
});

/** The API as far as these modes read it: SERP answers, a two-task batch done at once. */
function reply(req: SeenRequest): [number, unknown] {
  const path = req.url.split("?")[0];
  if (/^\/v[12]\/(fast-)?serp$/.test(path)) return [200, answer(JSON.parse(req.body).query)];
  if (/^\/v[12]\/serp\/batch$/.test(path)) {
    const ids = JSON.parse(req.body).inputs.map((_: unknown, i: number) => `task-${i}`);
    return [200, { batch_id: "b1", batch_size: ids.length, tasks: ids.map((id: string) => ({ id })) }];
  }
  if (/\/batches\/b1\/progress$/.test(path))
    return [200, { completed: true, completed_count: 2, total: 2, progress: 1 }];
  if (/\/batches\/b1$/.test(path))
    return [200, { batch_id: "b1", tasks: [0, 1].map((i) => ({ id: `task-${i}`, state: "success" })) }];
  const result = path.match(/\/tasks\/task-(\d)\/results$/);
  if (result) return [200, answer(["tent", "boots"][Number(result[1])])];
  return [404, { detail: `no ${path}` }];
}
const upstream: Handler = (req, res) => json(res, ...reply(req));

let server: FakeServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function run(
  generation: 1 | 2,
  args: Record<string, unknown>,
  { handler = upstream, deadlineMs = 10_000 } = {},
) {
  server = await startFakeServer(handler);
  const client = new WebDataClient({ generation, baseUrl: server.url, apiKey: KEY });
  const config = loadConfig({ WEBDATA_API_KEY: KEY, WEBDATA_BASE_URL: server.url });
  const result = await runTool(
    serpSearch,
    z.object(serpSearch.input).parse(args),
    { config, client, services: {}, log: quiet, redact: (s) => s },
    {
      signal: new AbortController().signal,
      deadline: Date.now() + deadlineMs,
      sendNotification: async () => {},
    },
  );
  await client.close();
  const sent = server.requests.map((r) => ({ route: `${r.method} ${r.url.split("?")[0]}`, body: r.body }));
  return { result, sent, structured: result.structuredContent as Record<string, any> };
}

describe.each([2, 1] as const)("generation %i", (gen) => {
  it("mode fast: one POST to the fast SERP route with the SERP fields", async () => {
    const { result, sent, structured } = await run(gen, {
      search_engine: "engine1_search",
      query: "tent",
      mode: "fast",
      num_results: 3,
    });
    expect(result.isError).toBeFalsy();
    expect(sent.map((s) => s.route)).toEqual([`POST /v${gen}/fast-serp`]);
    expect(JSON.parse(sent[0].body)).toEqual({
      search_engine: "engine1_search",
      query: "tent",
      num_results: 3,
      domain: "com",
      parse: true,
      render: false,
      resolve_url: false,
    });
    expect(structured.results).toEqual([{ position: 1, title: "Tent", url: "https://shop.example/tent" }]);
  });

  it("queries: one batch POST (each query an item, the rest shared), then its results per query", async () => {
    const { result, sent, structured } = await run(gen, {
      search_engine: "engine1_search",
      queries: ["tent", "boots"],
      country: "DE",
    });
    expect(result.isError, JSON.stringify(result.content)).toBeFalsy();
    const posts = sent.filter((s) => s.route.startsWith("POST "));
    expect(posts.map((s) => s.route)).toEqual([`POST /v${gen}/serp/batch`]);
    expect(JSON.parse(posts[0].body)).toEqual({
      inputs: [{ query: "tent" }, { query: "boots" }],
      shared_inputs: {
        search_engine: "engine1_search",
        country: "DE",
        domain: "com",
        parse: true,
        render: false,
        resolve_url: false,
      },
    });
    expect(sent.every((s) => s.route.includes(`/v${gen}/`))).toBe(true);
    expect(structured).toMatchObject({ status: "done", batch_id: "b1", total: 2, completed: 2 });
    expect(structured.queries.map((q: { query: string }) => q.query)).toEqual(["tent", "boots"]);
    expect(structured.results.map((r: { query: string }) => r.query)).toEqual(["tent", "boots"]);
  });

  it("batch_id: reads the batch again without sending anything new", async () => {
    const { result, sent, structured } = await run(gen, { search_engine: "engine1_search", batch_id: "b1" });
    expect(result.isError).toBeFalsy();
    expect(sent.filter((s) => s.route.startsWith("POST "))).toEqual([]);
    // the queries come back from the engine URL of each answer when the submission is not at hand
    expect(structured.queries.map((q: { query: string }) => q.query)).toEqual(["tent", "boots"]);
  });
});

describe("a batch still running at the deadline", () => {
  /** The batch never completes. */
  const running: Handler = (req, res) =>
    /\/progress$/.test(req.url)
      ? json(res, 200, { completed: false, completed_count: 1, total: 2, progress: 0.5 })
      : json(res, ...reply(req));

  it("answers the handle serp_search {batch_id} resumes, after one POST", async () => {
    const { result, sent, structured } = await run(
      2,
      { search_engine: "engine1_search", queries: ["tent", "boots"] },
      { handler: running, deadlineMs: 1_500 },
    );
    expect(result.isError).toBeFalsy();
    expect(structured).toMatchObject({
      status: "pending",
      batch_id: "b1",
      resume: { tool: "serp_search", arguments: { batch_id: "b1" } },
    });
    expect((result.content[0] as { text: string }).text).toContain(
      'Continue with: serp_search {"batch_id":"b1"}',
    );
    expect(sent.filter((s) => s.route.startsWith("POST "))).toHaveLength(1);
  });
});

describe("argument combinations (refused, nothing sent)", () => {
  it.each([
    ["neither query nor queries", {}, /exactly one of query .*queries .*batch_id .*got none/],
    ["both", { query: "a", queries: ["b"] }, /exactly one of query .*got query, queries/],
    ["fast with queries", { queries: ["a", "b"], mode: "fast" }, /mode "fast" takes one query/],
  ])("%s", async (_name, extra, message) => {
    const { result, sent } = await run(2, { search_engine: "engine1_search", ...extra });
    expect(result.isError).toBe(true);
    expect((result.content[0] as { text: string }).text).toMatch(message);
    expect(result._meta?.["web-data/error"]).toMatchObject({ code: "invalid_argument" });
    expect(sent).toEqual([]);
  });
});
