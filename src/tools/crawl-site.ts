/**
 * `crawl_site`: POST /v1/crawl, wait for the crawl, then each page's URL, state and task id and
 * the Markdown of as many pages as fit in `max_chars` (the rest through get_task).
 */
import { z } from "zod";
import type { CrawlStatus } from "../api/schemas.js";
import { collectPages, linkedShape, pagesPart, taskItem } from "./collect.js";
import { LIST_LIMIT } from "./extract-batch.js";
import { urlArg } from "./extract-page.js";
import { longToolShape, maxCharsArg, pendingResult, throwFailed } from "./result.js";
import { defineTool } from "./tool.js";

export const crawlSite = defineTool({
  name: "crawl_site",
  title: "Crawl a site",
  description:
    "Crawl a site from a start URL, following links: each page's URL and Markdown. For URLs only, use map_site.",
  toolset: "crawl",
  routes: ["crawl", "getCrawl"],
  examples: [{ url: "https://example.com/", limit: 5, max_chars: 3000 }],
  input: () => ({
    url: urlArg().describe("Start URL"),
    limit: z.number().int().min(1).max(1000).default(10).describe("Max pages"),
    include_paths: z.array(z.string()).max(100).optional().describe("Only paths matching these regexes"),
    exclude_paths: z.array(z.string()).max(100).optional().describe("Skip paths matching these regexes"),
    max_discovery_depth: z.number().int().min(1).max(20).optional().describe("Links deep from the start"),
    sitemap: z.enum(["skip", "include", "only"]).optional().describe("Use the sitemap's URLs"),
    allow_subdomains: z.boolean().optional().describe("Follow links to subdomains"),
    allow_external_links: z.boolean().optional().describe("Follow links to other sites"),
    crawl_entire_domain: z.boolean().optional().describe("Also sibling and parent paths"),
    ignore_query_parameters: z.boolean().optional().describe("Skip URLs differing only in query"),
    max_chars: maxCharsArg(),
  }),
  output: () => ({
    ...longToolShape(),
    crawl_id: z.string(),
    total: z.number().optional(),
    completed: z.number().optional(),
    pages: z.array(taskItem()).optional(),
    ...linkedShape(),
    next_offset: z.number().optional().describe("More pages: get_task with crawl_id and this offset"),
  }),
  readOnly: true,
  longRunning: true,
  async handler(args, ctx) {
    const { max_chars: _m, ...request } = args;
    const { crawl_id } = await ctx.client.crawl(request, { signal: ctx.signal });
    const outcome = await ctx.wait({ kind: "crawl", id: crawl_id });
    if (outcome.status === "pending") return pendingResult(outcome);
    if (outcome.status === "failed") throwFailed(outcome);
    const crawl = outcome.record as CrawlStatus["crawl"];
    const refs = crawl.tasks.map((t) => ({ id: t.id, state: t.state, url: t.url }));
    const items = await collectPages(ctx.client, refs.slice(0, LIST_LIMIT), args.max_chars, ctx.signal);
    const { markdown, links, ...listed } = pagesPart(items, "the crawl");
    const lines = [
      `# Crawl ${crawl_id} of ${args.url}: ${crawl.status}, ${crawl.completed}/${crawl.total} pages`,
    ];
    if (refs.length > LIST_LIMIT) {
      lines.push(
        `Listing ${LIST_LIMIT} of ${refs.length}; the rest: get_task {"crawl_id":"${crawl_id}","offset":${LIST_LIMIT}}`,
      );
    }
    lines.push("", markdown);
    return {
      structured: {
        status: "done" as const,
        state: crawl.status,
        crawl_id,
        total: crawl.total,
        completed: crawl.completed,
        ...listed,
        ...(refs.length > LIST_LIMIT ? { next_offset: LIST_LIMIT } : {}),
      },
      text: lines.join("\n"),
      links,
    };
  },
});
