import { describe, expect, it } from "vitest";
import type { Sandbox } from "../../src/sandbox/index.js";
import { inProcessAgainst } from "../helpers/in-process.js";
import { call, type McpSession, pathsSince, requestsSince, serverForFile, textOf } from "../helpers/mcp.js";

let sandbox: Sandbox;
let server: McpSession;

serverForFile(
  (started) => {
    ({ sandbox, server } = started);
  },
  {},
  inProcessAgainst,
);

describe("serp_search", () => {
  it("serp_search(default): organic results reduced to position, title, url, snippet", async () => {
    const from = sandbox.requests.length;
    const r = await call(server, "serp_search", { search_engine: "engine1_search", query: "hiking boots" });
    expect(r.isError).toBeFalsy();
    const s = r.structuredContent;
    expect(s.status).toBe("success");
    expect(s.results.length).toBeGreaterThan(0);
    for (const item of s.results) {
      expect(Object.keys(item).sort()).toEqual(expect.arrayContaining(["position", "title", "url"]));
      for (const k of Object.keys(item)) expect(["position", "title", "url"]).toContain(k);
    }
    expect(s.sections).toBeUndefined();
    expect(textOf(r)).toContain(`1. ${s.results[0].title} — ${s.results[0].url}`);
    expect(pathsSince(sandbox, from)).toEqual(["POST /v2/serp"]);
  });

  it("serp_search(num_results)", async () => {
    const r = await call(server, "serp_search", {
      search_engine: "engine1_search",
      query: "camping",
      num_results: 3,
    });
    expect(r.structuredContent.results).toHaveLength(3);
  });

  it("serp_search(full): the other parsed sections too", async () => {
    const r = await call(server, "serp_search", {
      search_engine: "engine1_search",
      query: "hiking boots",
      full: true,
    });
    const sections = Object.keys(r.structuredContent.sections ?? {});
    expect(sections.length).toBeGreaterThan(0);
    expect(sections).not.toContain("organic");
    expect(textOf(r)).toContain(`Other sections: ${sections.join(", ")}`);
  });

  it("serp_search(parse false): the page text instead of results", async () => {
    const r = await call(server, "serp_search", {
      search_engine: "engine1_search",
      query: "tent",
      parse: false,
      max_chars: 500,
    });
    expect(r.isError).toBeFalsy();
    expect(r.structuredContent.results).toEqual([]);
    expect(r.structuredContent.chars ?? 0).toBeLessThanOrEqual(500);
  });

  it.each([
    ["a missing engine", { query: "x" }, "search_engine"],
    ["an unknown engine", { search_engine: "engine9_search", query: "x" }, "search_engine"],
    ["num_results 0", { search_engine: "engine1_search", num_results: 0 }, "num_results"],
    ["num_results 101", { search_engine: "engine1_search", num_results: 101 }, "num_results"],
    ["a fractional page", { search_engine: "engine1_search", page: 1.5 }, "page"],
    ["page 0", { search_engine: "engine1_search", page: 0 }, "page"],
    ["an unknown device", { search_engine: "engine1_search", device: "tablet" }, "device"],
    ["a country name", { search_engine: "engine1_search", country: "France" }, "country"],
    ["a string as parse", { search_engine: "engine1_search", parse: "no" }, "parse"],
    ["an empty query", { search_engine: "engine1_search", query: "" }, "query"],
  ])("serp_search(rejects %s) without calling the API", async (_n, args, field) => {
    const from = sandbox.requests.length;
    const r = await call(server, "serp_search", args as Record<string, unknown>);
    expect(r.isError).toBe(true);
    expect(textOf(r)).toContain("Invalid arguments for serp_search");
    expect(r._meta?.["web-data/error"]).toMatchObject({ code: "invalid_argument" });
    expect(textOf(r)).toContain(field);
    expect(requestsSince(sandbox, from)).toEqual([]);
  });
});
