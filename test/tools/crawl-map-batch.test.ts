import { describe, expect, it } from "vitest";
import type { Sandbox } from "../../src/sandbox/index.js";
import { inProcessAgainst } from "../helpers/in-process.js";
import { call, type McpSession, pathsSince, requestsSince, serverForFile, textOf } from "../helpers/mcp.js";

let sandbox: Sandbox;
let server: McpSession;
const paths = (from: number) => pathsSince(sandbox, from);

serverForFile(
  (started) => {
    ({ sandbox, server } = started);
  },
  {},
  inProcessAgainst,
);

async function rejects(tool: string, args: Record<string, unknown>, field: string) {
  const from = sandbox.requests.length;
  const r = await call(server, tool, args);
  expect(r.isError).toBe(true);
  expect(textOf(r)).toContain(field);
  expect(requestsSince(sandbox, from)).toEqual([]);
}

describe("crawl_site", () => {
  it("crawl_site(default): each page's url, state, task id and Markdown", async () => {
    const from = sandbox.requests.length;
    const r = await call(server, "crawl_site", { url: `${sandbox.siteUrl}/`, limit: 4 });
    expect(r.isError).toBeFalsy();
    const s = r.structuredContent;
    expect(s).toMatchObject({ status: "done", state: "succeeded", crawl_id: expect.any(String) });
    expect(s.pages.length).toBeGreaterThan(0);
    expect(s.pages.length).toBeLessThanOrEqual(4);
    for (const p of s.pages)
      expect(p).toMatchObject({ task_id: expect.any(String), state: "completed", url: expect.any(String) });
    expect(s.pages[0].chars).toBeGreaterThan(0);
    expect(paths(from)[0]).toBe("POST /v2/crawl");
    expect(textOf(r)).toContain(s.pages[0].task_id);
  });

  it("crawl_site(max_chars): the first page inline, the others linked and readable through get_task", async () => {
    const r = await call(server, "crawl_site", { url: `${sandbox.siteUrl}/`, limit: 8, max_chars: 400 });
    const s = r.structuredContent;
    expect(s.pages[0].chars).toBeGreaterThan(0);
    expect(s.pages[0].chars).toBeLessThanOrEqual(400);
    const linked = s.pages.slice(1);
    for (const p of linked) expect(p.chars).toBeUndefined();
    expect(s.linked).toBe(linked.length);
    const links = r.content.filter((c) => c.type === "resource_link");
    expect(links.map((l) => l.uri)).toEqual(
      linked.map((p: { task_id: string }) => `webdata://task/${p.task_id}`),
    );
    const page = await call(server, "get_task", { task_id: linked[0].task_id });
    expect(page.structuredContent).toMatchObject({ status: "done", format: "markdown" });
    const listing = await call(server, "get_task", { crawl_id: s.crawl_id });
    expect(listing.structuredContent.pages.map((p: { task_id: string }) => p.task_id)).toEqual(
      s.pages.map((p: { task_id: string }) => p.task_id),
    );
  });

  it.each([
    ["a malformed URL", { url: "example" }, "url"],
    ["limit 0", { url: "https://example.com", limit: 0 }, "limit"],
    ["limit 1001", { url: "https://example.com", limit: 1001 }, "limit"],
    ["a string limit", { url: "https://example.com", limit: "5" }, "limit"],
  ])("crawl_site(rejects %s)", (_n, args, field) => rejects("crawl_site", args, field));
});

describe("map_site", () => {
  it("map_site(default): the URL list", async () => {
    const from = sandbox.requests.length;
    const r = await call(server, "map_site", { url: `${sandbox.siteUrl}/` });
    expect(r.isError).toBeFalsy();
    const s = r.structuredContent;
    expect(s.status).toBe("done");
    expect(s.urls.length).toBeGreaterThan(3);
    expect(s.total).toBe(s.urls.length);
    expect(paths(from)[0]).toBe("POST /v2/map");
    expect(textOf(r)).toContain(s.urls[0]);
  });

  it("map_site(max_chars): the rest through get_task with offset", async () => {
    const r = await call(server, "map_site", { url: `${sandbox.siteUrl}/`, max_chars: 200 });
    const s = r.structuredContent;
    expect(s.next_offset).toBe(s.urls.length);
    const rest = await call(server, "get_task", {
      task_id: s.task_id,
      offset: s.next_offset,
      max_chars: 40_000,
    });
    expect(s.urls.length + rest.structuredContent.urls.length).toBe(s.total);
  });

  it.each([
    ["a malformed URL", { url: "http//x" }, "url"],
    ["limit 5001", { url: "https://example.com", limit: 5001 }, "limit"],
  ])("map_site(rejects %s)", (_n, args, field) => rejects("map_site", args, field));
});

describe("extract_batch", () => {
  it("extract_batch(default): the first page's Markdown within max_chars, the others as sized links", async () => {
    const urls = ["/", "/shop", "/blog", "/docs"].map((p) => `${sandbox.siteUrl}${p}`);
    const from = sandbox.requests.length;
    const r = await call(server, "extract_batch", { inputs: urls.map((url) => ({ url })), max_chars: 4000 });
    expect(r.isError).toBeFalsy();
    const s = r.structuredContent;
    expect(s).toMatchObject({ status: "done", total: 4, completed: 4, linked: 3 });
    expect(s.pages.map((p: { url: string }) => p.url)).toEqual(urls);
    expect(s.pages[0].chars).toBeGreaterThan(0);
    expect(s.pages[0].chars).toBeLessThanOrEqual(4000);
    for (const p of s.pages.slice(1)) expect(p.total_chars).toBeGreaterThan(0);
    const links = r.content.filter((c) => c.type === "resource_link");
    expect(links).toHaveLength(3);
    links.forEach((l, i) => {
      expect(l).toMatchObject({ uri: `webdata://task/${s.pages[i + 1].task_id}`, mimeType: "text/markdown" });
      expect(l.description).toContain(`${s.pages[i + 1].total_chars} chars`);
    });
    const seen = paths(from);
    expect(seen[0]).toBe("POST /v2/extract/batch");
    expect(seen.filter((p) => p === "GET /v2/tasks/:id/results")).toHaveLength(4);
  });

  it("extract_batch(shared_inputs): shared members apply, items override", async () => {
    const r = await call(server, "extract_batch", {
      inputs: [{ url: `${sandbox.siteUrl}/` }, { url: `${sandbox.siteUrl}/blog`, formats: ["html"] }],
      shared_inputs: { formats: ["markdown"] },
    });
    expect(r.isError).toBeFalsy();
    const [first, second] = textOf(r)
      .split(/^## \d+\. /m)
      .slice(1);
    expect(first.split("\n").slice(1).join("\n")).not.toMatch(/^\s*</);
    expect(second).toContain(
      `${r.structuredContent.pages[1].total_chars} chars at webdata://task/${r.structuredContent.pages[1].task_id}`,
    );
    const [link] = r.content.filter((c) => c.type === "resource_link");
    expect(link?.mimeType).toBe("text/html");
  });

  it("extract_batch(one result unreadable): that page carries the error, the others their content", async () => {
    sandbox.faults.add({ kind: "status", status: 404, match: "/results", count: 1 });
    const urls = ["/", "/blog"].map((p) => `${sandbox.siteUrl}${p}`);
    const r = await call(server, "extract_batch", { inputs: urls.map((url) => ({ url })) });
    sandbox.faults.clear();
    expect(r.isError).toBeFalsy();
    const pages = r.structuredContent.pages as Array<{ chars?: number; error?: string }>;
    expect(pages.filter((p) => p.error?.startsWith("results not readable"))).toHaveLength(1);
    expect(pages.filter((p) => p.chars)).toHaveLength(1);
    expect(r.structuredContent.linked).toBeUndefined();
  });

  it("get_task(batch_id): progress and the task list", async () => {
    const r = await call(server, "extract_batch", { inputs: [{ url: `${sandbox.siteUrl}/` }] });
    const g = await call(server, "get_task", { batch_id: r.structuredContent.batch_id });
    expect(g.structuredContent).toMatchObject({ status: "done", completed: 1, total: 1 });
    expect(g.structuredContent.pages[0].task_id).toBe(r.structuredContent.pages[0].task_id);
  });

  it.each([
    ["no inputs", { inputs: [] }, "inputs"],
    [
      "1001 inputs",
      { inputs: Array.from({ length: 1001 }, () => ({ url: "https://example.com" })) },
      "inputs",
    ],
    ["a malformed URL", { inputs: [{ url: "nope" }] }, "inputs"],
    [
      "an unknown shared format",
      { inputs: [{ url: "https://example.com" }], shared_inputs: { formats: ["pdf"] } },
      "formats",
    ],
    [
      "an unknown format in an item's override",
      { inputs: [{ url: "https://example.com" }, { url: "https://example.org", formats: ["pdf"] }] },
      "inputs[1].formats",
    ],
    [
      "an item member that is no shared_inputs member",
      { inputs: [{ url: "https://example.com", rendr: true }] },
      "`inputs[0].rendr` is not a member of `inputs[0]`; did you mean `render`?",
    ],
    [
      "a three-letter country in an item",
      { inputs: [{ url: "https://example.com", country: "usa" }] },
      "country",
    ],
  ])("extract_batch(rejects %s)", (_n, args, field) => rejects("extract_batch", args, field));
});

describe("get_task", () => {
  it.each([["two ids", { task_id: "a", batch_id: "b" }]])(
    "get_task(rejects %s) without calling the API",
    async (_n, args) => {
      const from = sandbox.requests.length;
      const r = await call(server, "get_task", args);
      expect(r.isError).toBe(true);
      expect(textOf(r)).toContain("one of task_id, batch_id, crawl_id, or none");
      expect(requestsSince(sandbox, from)).toEqual([]);
    },
  );

  it.each([
    ["a negative offset", { task_id: "x", offset: -1 }, "offset"],
    ["a numeric id", { task_id: 5 }, "task_id"],
  ])("get_task(rejects %s)", (_n, args, field) => rejects("get_task", args, field));

  it("get_task(unknown id): not found", async () => {
    const r = await call(server, "get_task", { task_id: "00000000-0000-4000-8000-000000000000" });
    expect(r.isError).toBe(true);
    expect(textOf(r)).toMatch(/404|not/i);
  });
});
