/**
 * `map_site`: the site's URL list. The sync map (`POST /v2/map`, or the SDK's `POST /v1/map`)
 * answers with the links inline; where the service has neither (the generation-1 spec knows only
 * the async map), `POST /v1/map/async` is submitted and waited for. A client whose sync map
 * answered 404/405 goes to the async map directly from then on.
 */
import { z } from "zod";
import type { WebDataClient } from "../api/client.js";
import { isApiError } from "../api/errors.js";
import type { MapResponse, TaskResult } from "../api/schemas.js";
import { ToolError } from "./errors.js";
import { urlArg } from "./extract-page.js";
import { longToolShape, maxCharsArg, pendingResult, plural, TOKEN_CAP, throwFailed } from "./result.js";
import { defineTool } from "./tool.js";

/** The URLs in a map task's result (`data.links`; other spellings tolerated). */
export function mapUrls(result: TaskResult): string[] {
  const data = result.data as Record<string, unknown>;
  const parsing = data.parsing as Record<string, unknown> | undefined;
  const list = data.links ?? data.urls ?? parsing?.urls ?? parsing?.links ?? [];
  if (!Array.isArray(list)) return [];
  return list.flatMap((u) =>
    typeof u === "string" ? [u] : typeof u?.url === "string" ? [u.url as string] : [],
  );
}

/** As many URLs as fit in `maxChars` (one per line; at most ~3 chars per capped token), from `offset`. */
export function urlPage(urls: readonly string[], maxChars: number, offset = 0) {
  maxChars = Math.min(maxChars, TOKEN_CAP * 3);
  const page: string[] = [];
  let used = 0;
  for (let i = offset; i < urls.length; i++) {
    if (used + urls[i].length + 1 > maxChars && page.length > 0) break;
    page.push(urls[i]);
    used += urls[i].length + 1;
  }
  const end = offset + page.length;
  return { page, next_offset: end < urls.length ? end : undefined };
}

/** Clients whose service has no sync map. */
const withoutSyncMap = new WeakSet<WebDataClient>();

/** The sync map's answer, or undefined when the service has no sync map. */
async function syncMap(client: WebDataClient, body: { url: string; limit?: number }, signal: AbortSignal) {
  if (withoutSyncMap.has(client)) return undefined;
  try {
    return await client.map(body, { signal });
  } catch (error) {
    if (!isApiError(error) || (error.status !== 404 && error.status !== 405)) throw error;
    withoutSyncMap.add(client);
    return undefined;
  }
}

const linkUrls = (answer: MapResponse) =>
  answer.links.map((l) => (typeof l === "string" ? l : l.url)).filter((u) => u !== "");

export const mapSite = defineTool({
  name: "map_site",
  title: "Map a site's URLs",
  description: "List a site's URLs (its map) without their content. Use before extract_batch.",
  toolset: "crawl",
  routes: ["map", "mapAsync"],
  examples: [{ url: "https://example.com/", limit: 20 }],
  input: () => ({
    url: urlArg().describe("Site URL"),
    limit: z.number().int().min(1).max(5000).optional().describe("Max URLs"),
    max_chars: maxCharsArg(),
  }),
  output: () => ({
    ...longToolShape(),
    task_id: z.string(),
    url: z.string().optional(),
    urls: z.array(z.string()).optional(),
    total: z.number().optional(),
    next_offset: z.number().optional().describe("More URLs: get_task with task_id and this offset"),
  }),
  readOnly: true,
  longRunning: true,
  async handler(args, ctx) {
    const body = { url: args.url, limit: args.limit };
    const sync = await syncMap(ctx.client, body, ctx.signal);
    if (sync?.success === false) {
      throw new ToolError(
        "task_failed",
        `Mapping ${args.url} failed: ${sync.error ?? "no error text"}. Check the URL, then try again.`,
        { error: sync.error, ...(sync.task_id ? { id: sync.task_id } : {}) },
      );
    }
    let urls: string[];
    let task_id: string;
    if (sync) {
      urls = linkUrls(sync);
      task_id = sync.task_id ?? "";
    } else {
      ({ task_id } = await ctx.client.mapAsync(body, { signal: ctx.signal }));
      const outcome = await ctx.wait({ kind: "task", id: task_id });
      if (outcome.status === "pending") return pendingResult(outcome, { url: args.url });
      if (outcome.status === "failed") throwFailed(outcome);
      urls = mapUrls(await ctx.client.getTaskResults(task_id, { signal: ctx.signal }));
    }
    const { page, next_offset } = urlPage(urls, args.max_chars);
    const lines = [`# Map of ${args.url}: ${plural(urls.length, "URL")}`, ...page];
    if (next_offset !== undefined) {
      lines.push(
        `[${urls.length - next_offset} more; get_task {"task_id":"${task_id}","offset":${next_offset}}]`,
      );
    }
    return {
      structured: {
        status: "done" as const,
        state: "success",
        task_id,
        url: args.url,
        urls: page,
        total: urls.length,
        ...(next_offset !== undefined ? { next_offset } : {}),
      },
      text: lines.join("\n"),
    };
  },
});
