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

describe("extract_page", () => {
  it("extract_page(default): sync endpoint, Markdown", async () => {
    const from = sandbox.requests.length;
    const r = await call(server, "extract_page", { url: `${sandbox.siteUrl}/` });
    expect(r.isError).toBeFalsy();
    expect(r.structuredContent).toMatchObject({
      status: "done",
      format: "markdown",
      status_code: 200,
      url: `${sandbox.siteUrl}/`,
    });
    expect(textOf(r)).toContain("# Welcome to Acme Outfitters");
    // The body is in both parts (a framework hands its model one or the other), the same words;
    // the rest of the text (its heading line) is not in structuredContent, which has the URL.
    expect(textOf(r)).toContain(r.structuredContent.content);
    expect(r.structuredContent.content).toContain("# Welcome to Acme Outfitters");
    expect(r.structuredContent.chars).toBe(r.structuredContent.content.length);
    expect(r.structuredContent.chars).toBeGreaterThan(0);
    expect(paths(from)).toEqual(["POST /v2/extract"]);
  });

  it("extract_page(render): async endpoint and task polling", async () => {
    const from = sandbox.requests.length;
    const r = await call(server, "extract_page", { url: `${sandbox.siteUrl}/`, render: true });
    expect(r.structuredContent).toMatchObject({ status: "done", format: "markdown" });
    const seen = paths(from);
    expect(seen[0]).toBe("POST /v2/extract/async");
    expect(seen).toContain("GET /v2/tasks/:id");
    expect(seen.at(-1)).toBe("GET /v2/tasks/:id/results");
    expect(seen).not.toContain("POST /v2/extract");
  });

  it("extract_page(screenshot): PNG image content", async () => {
    const from = sandbox.requests.length;
    const r = await call(server, "extract_page", { url: `${sandbox.siteUrl}/`, formats: ["screenshot"] });
    expect(paths(from)[0]).toBe("POST /v2/extract/async");
    const image = r.content.find((c) => c.type === "image") as { data: string; mimeType: string };
    expect(image.mimeType).toBe("image/png");
    expect(Buffer.from(image.data, "base64").subarray(1, 4).toString()).toBe("PNG");
  });

  it("extract_page(headers, links, html)", async () => {
    const r = await call(server, "extract_page", {
      url: `${sandbox.siteUrl}/`,
      formats: ["html", "headers", "links"],
    });
    expect(r.structuredContent.format).toBe("html");
    expect(textOf(r)).toContain("<");
    expect(textOf(r)).toMatch(/- content-type: text\/html/);
    expect(r.structuredContent.headers_count).toBeGreaterThan(0);
    expect(r.structuredContent.links_count).toBeGreaterThan(0);
    const listed = textOf(r)
      .split("Links")[1]
      .split("\n")
      .filter((l) => l.startsWith("- "));
    expect(listed.length).toBe(Math.min(50, r.structuredContent.links_count));
    // Headers and links are in the text only (their counts are structured); the HTML body in both.
    const { content, ...rest } = r.structuredContent;
    expect(content).toContain("<");
    expect(JSON.stringify(rest)).not.toContain("<");
    expect(JSON.stringify(r.structuredContent)).not.toMatch(/content-type/);
  });

  it("extract_page(max_chars): cuts and tells how to read on with get_task", async () => {
    const r = await call(server, "extract_page", { url: `${sandbox.siteUrl}/`, max_chars: 200 });
    const s = r.structuredContent;
    expect(s.chars).toBe(200);
    expect(s.next_offset).toBe(200);
    expect(s.total_chars).toBeGreaterThan(200);
    expect(textOf(r)).toContain(`get_task {"task_id":"${s.task_id}","offset":200`);
    const next = await call(server, "get_task", { task_id: s.task_id, offset: 200, max_chars: 200 });
    expect(next.structuredContent.status).toBe("done");
    const whole = await call(server, "extract_page", { url: `${sandbox.siteUrl}/` });
    /** The body as the text carries it (after the heading line and a blank line). */
    const body = (t: string) => t.split("\n").slice(2).join("\n");
    const first = body(textOf(r)).slice(0, 200);
    const second = textOf(next).split("\n").slice(3).join("\n").slice(0, 200);
    expect(first + second).toBe(body(textOf(whole)).slice(0, 400));
  });

  it.each([
    ["a malformed URL", { url: "not a url" }, "url"],
    ["a non-http URL", { url: "ftp://example.com/x" }, "url"],
    ["a number as URL", { url: 42 }, "url"],
    ["a missing URL", {}, "url"],
    ["a string as render", { url: "https://example.com", render: "yes" }, "render"],
    ["an unknown format", { url: "https://example.com", formats: ["pdf"] }, "formats"],
    ["an empty formats list", { url: "https://example.com", formats: [] }, "formats"],
    ["a 3-letter country", { url: "https://example.com", country: "USA" }, "country"],
    ["a tiny max_chars", { url: "https://example.com", max_chars: 10 }, "max_chars"],
  ])("extract_page(rejects %s) without calling the API", async (_name, args, field) => {
    const from = sandbox.requests.length;
    const r = await call(server, "extract_page", args as Record<string, unknown>);
    expect(r.isError).toBe(true);
    expect(textOf(r)).toContain("Invalid arguments for extract_page");
    expect(r._meta?.["web-data/error"]).toMatchObject({ code: "invalid_argument" });
    expect(textOf(r)).toContain(field);
    expect(requestsSince(sandbox, from)).toEqual([]);
  });
});
