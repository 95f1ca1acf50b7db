/**
 * Issue 22 §3 / issue 24 §7: the bulky parts of results go out as `resource_link` items with
 * `webdata://` URIs, and `resources/read` serves them paged, re-read from the API by id: crawl
 * and batch pages beyond the first, a job run's artifacts, a media file that is not inlined. An
 * unknown or malformed URI is "Resource not found" (-32002). Over stdio against the sandbox.
 */
import type { ReadResourceResult } from "@modelcontextprotocol/sdk/types.js";
import { describe, expect, it } from "vitest";
import type { Sandbox } from "../../src/sandbox/index.js";
import { withLinksInText } from "../../src/tools/resources.js";
import { inProcessAgainst } from "../helpers/in-process.js";
import { call, type McpSession, serverForFile, textOf } from "../helpers/mcp.js";

let sandbox: Sandbox;
let server: McpSession;

serverForFile(
  (started) => {
    ({ sandbox, server } = started);
  },
  { WEBDATA_TOOLSETS: "all" },
  inProcessAgainst,
);

type Link = { type: "resource_link"; uri: string; name: string; description?: string; mimeType?: string };
const linksOf = (r: { content: Array<{ type: string }> }) =>
  r.content.filter((c): c is Link => c.type === "resource_link");
const read = (uri: string) => server.client.readResource({ uri });
const textIn = (r: ReadResourceResult) => {
  const [c] = r.contents;
  return c && "text" in c ? c.text : "";
};
const pageMeta = (r: ReadResourceResult) =>
  r.contents[0]?._meta?.["web-data/page"] as
    | { offset: number; chars: number; total_chars: number; next_offset?: number; next_uri?: string }
    | undefined;

/** Reads a text resource page by page from `uri` (following next_uri) and joins the bodies. */
async function readAll(uri: string): Promise<{ body: string; pages: number }> {
  let body = "";
  let pages = 0;
  let next: string | undefined = uri;
  while (next) {
    const r = await read(next);
    const meta = pageMeta(r);
    expect(meta?.offset).toBe(body.length);
    body += textIn(r).slice(0, meta?.chars);
    pages += 1;
    next = meta?.next_uri;
  }
  return { body, pages };
}

describe("webdata:// resources", () => {
  it("lists the templates and no resources", async () => {
    const templates = await server.client.listResourceTemplates();
    expect(templates.resourceTemplates.map((t) => t.uriTemplate)).toEqual([
      "webdata://task/{task_id}{?offset,max_chars}",
      "webdata://media/{task_id}{?offset,max_chars}",
      "webdata://run/{run_id}/artifact/{artifact_id}{?offset,max_chars}",
    ]);
    expect((await server.client.listResources()).resources).toEqual([]);
  });

  it("crawl_site: pages beyond the first are links whose pages read back the whole body", async () => {
    const r = await call(server, "crawl_site", { url: `${sandbox.siteUrl}/`, limit: 4, max_chars: 300 });
    expect(r.isError, textOf(r)).toBeFalsy();
    const links = linksOf(r);
    const pages = r.structuredContent.pages as Array<{ task_id: string; url: string; total_chars: number }>;
    expect(links).toHaveLength(pages.length - 1);
    expect(links.length).toBeGreaterThan(0);
    const [link] = links;
    const page = pages[1]!;
    expect(link).toMatchObject({ uri: `webdata://task/${page.task_id}`, mimeType: "text/markdown" });
    expect(link).toMatchObject({
      name: page.url,
      description: `Page 2 of the crawl, ${page.total_chars} chars of Markdown`,
    });
    const whole = await call(server, "get_task", { task_id: page.task_id, max_chars: 40_000 });
    const { body, pages: reads } = await readAll(`${link!.uri}?max_chars=200`);
    expect(body).toHaveLength(page.total_chars);
    expect(reads).toBe(Math.ceil(page.total_chars / 200));
    expect(textOf(whole)).toContain(body.slice(0, 150));
    const last = await read(`${link!.uri}?offset=${page.total_chars - 10}`);
    expect(pageMeta(last)).toEqual({
      offset: page.total_chars - 10,
      chars: 10,
      total_chars: page.total_chars,
    });
  });

  it("a linked page's body is not in the text, and the first page is not linked", async () => {
    const r = await call(server, "extract_batch", {
      inputs: ["/", "/shop", "/blog"].map((p) => ({ url: `${sandbox.siteUrl}${p}` })),
    });
    const links = linksOf(r);
    expect(links.map((l) => l.uri)).toEqual(
      r.structuredContent.pages.slice(1).map((p: { task_id: string }) => `webdata://task/${p.task_id}`),
    );
    for (const link of links) {
      const body = textIn(await read(link.uri));
      expect(body.length).toBeGreaterThan(400);
      // From the middle: the demo pages share their navigation and footer.
      const part = body.slice(Math.floor(body.length / 2), Math.floor(body.length / 2) + 100);
      expect(textOf(r)).not.toContain(part);
      expect(JSON.stringify(r.structuredContent)).not.toContain(part);
    }
  });

  it("job_runs: a run's artifacts are links that read the artifact's JSONL", async () => {
    const list = await call(server, "job_runs", { job_id: "job_daily_prices" });
    const run = list.structuredContent.runs.find((x: { artifact_ids?: string[] }) => x.artifact_ids?.length);
    const r = await call(server, "job_runs", { run_id: run.id });
    expect(r.isError, textOf(r)).toBeFalsy();
    const [link] = linksOf(r);
    const artifactId = run.artifact_ids[0];
    expect(link).toMatchObject({
      uri: `webdata://run/${run.id}/artifact/${artifactId}`,
      mimeType: "application/jsonl",
    });
    expect(link!.description).toContain(`${run.result_count} rows`);
    const { body } = await readAll(link!.uri);
    const rows = body
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line));
    expect(rows).toHaveLength(run.result_count);
    expect(rows[0]).toMatchObject({ input: { url: expect.any(String) }, output: expect.any(Object) });
  });

  it("every link's URI is in the text too (LangChain and Mastra show their model the text only)", async () => {
    const jobs = await call(server, "job_runs", { job_id: "job_daily_prices" });
    const run = jobs.structuredContent.runs.find((x: { artifact_ids?: string[] }) => x.artifact_ids?.length);
    const results = [
      await call(server, "crawl_site", { url: `${sandbox.siteUrl}/`, limit: 3 }),
      await call(server, "extract_batch", {
        inputs: ["/", "/shop"].map((p) => ({ url: `${sandbox.siteUrl}${p}` })),
      }),
      await call(server, "job_runs", { run_id: run.id }),
      await call(server, "download_media", { url: "https://cdn.example.com/manual.pdf" }),
    ];
    for (const r of results) {
      const links = linksOf(r);
      expect(links.length, textOf(r)).toBeGreaterThan(0);
      for (const link of links) expect(textOf(r)).toContain(link.uri);
    }
  });

  it("a link the tool's text does not name gets one line with its description; a named one is not repeated", () => {
    const link = {
      uri: "webdata://task/t2",
      name: "http://a/2",
      description: "Page 2, 10 chars",
      mimeType: "text/markdown",
    };
    const named = { ...link, uri: "webdata://task/t1" };
    const text = withLinksInText("Page 1 at webdata://task/t1", [named, link]);
    expect(text.split("webdata://task/t1")).toHaveLength(2);
    expect(text).toContain("[http://a/2: Page 2, 10 chars; read it as webdata://task/t2]");
    expect(withLinksInText("no links")).toBe("no links");
  });

  it("download_media: a file that is not an image or text is a link that reads as a blob", async () => {
    const r = await call(server, "download_media", { url: "https://cdn.example.com/manual.pdf" });
    expect(r.isError, textOf(r)).toBeFalsy();
    expect(r.structuredContent).toMatchObject({ inline: "link", content_type: "application/pdf" });
    const [link] = linksOf(r);
    expect(link).toMatchObject({
      uri: `webdata://media/${r.structuredContent.task_id}`,
      mimeType: "application/pdf",
    });
    const [file] = (await read(link!.uri)).contents;
    expect(file && "blob" in file ? Buffer.from(file.blob, "base64").toString() : "").toMatch(/^%PDF-1\.4\n/);
    expect(file?.mimeType).toBe("application/pdf");
  });

  it("download_media: a text file is inline once, in the text only", async () => {
    const r = await call(server, "download_media", { url: `${sandbox.siteUrl}/` });
    expect(r.structuredContent.inline).toBe("text");
    expect(r.structuredContent.chars).toBeGreaterThan(100);
    expect(JSON.stringify(r.structuredContent)).not.toContain("<html");
    expect(textOf(r)).toContain("<html");
    expect(linksOf(r)).toEqual([]);
  });

  it.each([
    ["an unknown task", "webdata://task/00000000-0000-4000-a000-0000000000ff"],
    ["another scheme", "https://example.com/"],
    ["an unknown kind", "webdata://crawl/abc"],
    ["a bad offset", "webdata://task/abc?offset=-3"],
    ["an unknown query member", "webdata://task/abc?page=2"],
  ])("%s is Resource not found", async (_what, uri) => {
    await expect(read(uri)).rejects.toMatchObject({
      code: -32002,
      message: expect.stringContaining(`Resource not found: ${uri}`),
    });
  });
});
