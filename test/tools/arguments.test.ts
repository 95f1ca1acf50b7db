/**
 * Bad arguments are tool results a model corrects itself from (issue 22 item 2): `isError`,
 * before any request, naming each argument with what it must be, and for an unknown name the
 * nearest real one. And what strict mode sends is taken: `null` for an optional argument, a
 * map as JSON text.
 */
import { CallToolResultSchema } from "@modelcontextprotocol/sdk/types.js";
import { describe, expect, it } from "vitest";
import type { Sandbox } from "../../src/sandbox/index.js";
import { inProcessAgainst } from "../helpers/in-process.js";
import { call, type McpSession, serverForFile, textOf } from "../helpers/mcp.js";

let sandbox: Sandbox;
let server: McpSession;
serverForFile(
  (started) => {
    ({ sandbox, server } = started);
  },
  {},
  inProcessAgainst,
);

/** Requests since `from`, but the agent catalog the server reads in the background (gen 1 /v1/agents, gen 2 the templates listing). */
const apiCalls = (from: number) =>
  sandbox.requests
    .slice(from)
    .filter(
      (q) =>
        !q.path.startsWith("/v1/agents") &&
        !(q.method === "GET" && q.path.startsWith("/v2/extract/templates")),
    );

const SEARCH = { search_engine: "engine1_search", query: "boots" };

async function refused(tool: string, args: Record<string, unknown>): Promise<string> {
  const from = sandbox.requests.length;
  const r = await call(server, tool, args);
  expect(r.isError).toBe(true);
  expect(r._meta?.["web-data/error"]).toMatchObject({ code: "invalid_argument" });
  expect(apiCalls(from)).toEqual([]);
  return textOf(r);
}

describe("bad arguments are isError results naming each argument", () => {
  it("an unknown name gets the nearest real one", async () => {
    const text = await refused("serp_search", { ...SEARCH, num_result: 5 });
    expect(text).toContain("`num_result` is not an argument of serp_search; did you mean `num_results`?");
  });

  it("a name near none lists the arguments instead", async () => {
    const text = await refused("serp_search", { ...SEARCH, zzzzzz: 5 });
    expect(text).toMatch(
      /`zzzzzz` is not an argument of serp_search; the arguments are: search_engine, query, /,
    );
  });

  it("a range names the range and the value given", async () => {
    const text = await refused("serp_search", { ...SEARCH, num_results: 500 });
    expect(text).toContain("`num_results` must be an integer (1–100), not 500");
  });

  it("an enum names its values", async () => {
    const text = await refused("serp_search", { ...SEARCH, device: "tablet" });
    expect(text).toContain('`device` must be one of: desktop, mobile, not "tablet"');
  });

  it("a missing required argument says so: web_search needs a query", async () => {
    const text = await refused("web_search", { search_depth: "fast" });
    expect(text).toContain("`query` is required: a string (1–2000 characters) — A question or keywords");
  });

  it("a missing choice says it is required and lists the choices, never 'not undefined'", async () => {
    const text = await refused("serp_search", { query: "boots" });
    expect(text).toMatch(/^- `search_engine` is required \(one of: engine1_search, engine1_sge, .*\)$/m);
    expect(text).not.toContain("undefined");
  });

  it("a missing URL or member is required whatever its own error wording", async () => {
    const page = await refused("extract_page", {});
    expect(page).toMatch(/^- `url` is required: a string — Absolute http\(s\) URL$/m);
    const batch = await refused("extract_batch", { inputs: [{ url: "https://example.com/" }, {}] });
    expect(batch).toMatch(/^- `inputs\[1\]\.url` is required: /m);
    expect(`${page}\n${batch}`).not.toMatch(/: required$|not undefined/m);
  });

  it("a wrong type names the type, and every problem is listed", async () => {
    const text = await refused("extract_page", { url: "not a url", render: "yes", formats: [] });
    expect(text).toMatch(/`url`: must be an absolute http\(s\) URL.*\(got "not a url"\)/);
    expect(text).toContain('`render` must be true or false, not "yes"');
    expect(text).toContain("`formats` must be a list of values among html, markdown");
  });

  it("an unknown member of an item names the item", async () => {
    const text = await refused("extract_batch", { inputs: [{ url: "https://example.com/", rendr: true }] });
    expect(text).toContain("`inputs[0].rendr` is not a member of `inputs[0]`; did you mean `render`?");
  });
});

describe("what strict mode sends is taken", () => {
  it("null for every optional argument means not given", async () => {
    const r = await call(server, "serp_search", {
      ...SEARCH,
      country: null,
      device: null,
      domain: null,
      locale: null,
      location: null,
      num_results: null,
      page: null,
      parse: null,
      render: null,
      resolve_url: null,
      show_hidden_results: null,
      full: null,
      max_chars: null,
    });
    expect(r.isError).toBeFalsy();
    expect((r.structuredContent as { results: unknown[] }).results.length).toBeGreaterThan(0);
  });

  it("null for a required argument is refused", async () => {
    const text = await refused("web_search", { query: null });
    expect(text).toContain("`query` is required and cannot be null");
  });

  it("run_agent takes params as JSON text as well as an object", async () => {
    const params = { url: "https://shop.example.com/p/123" };
    const asText = await call(server, "run_agent", {
      agent: "ecommerce_product_page",
      params: JSON.stringify(params),
    });
    const asObject = await call(server, "run_agent", { agent: "ecommerce_product_page", params });
    expect(asText.isError).toBeFalsy();
    const parsing = (r: typeof asText) => (r.structuredContent as { parsing: unknown }).parsing;
    expect(parsing(asText)).toEqual(parsing(asObject));
    expect(parsing(asText)).toBeTruthy();
  });

  it("params text that is no JSON object is refused, saying what it must be", async () => {
    const text = await refused("run_agent", { agent: "ecommerce_product_page", params: "url=x" });
    expect(text).toContain("`params` must be a JSON object (as text");
  });
});

describe("a task-augmented call with bad arguments", () => {
  it("is a failed task whose result is the same isError text, and nothing is sent", async () => {
    const from = sandbox.requests.length;
    const stream = server.client.experimental.tasks.callToolStream(
      { name: "extract_page", arguments: { url: "https://example.com/", max_char: 500 } },
      CallToolResultSchema,
      { task: { ttl: 60_000 } },
    );
    const messages: Array<{ type: string; task?: { taskId: string; status: string } }> = [];
    for await (const m of stream) messages.push(m as never);
    const created = messages.find((m) => m.type === "taskCreated");
    expect(created?.task?.status).toBe("failed");
    const result = await server.client.experimental.tasks.getTaskResult(
      created?.task?.taskId ?? "",
      CallToolResultSchema,
    );
    expect(result.isError).toBe(true);
    expect(textOf(result)).toContain(
      "`max_char` is not an argument of extract_page; did you mean `max_chars`?",
    );
    expect(apiCalls(from)).toEqual([]);
  });
});
