/**
 * `get_task`: the state of a task, batch or crawl, and its results once done — the way to
 * resume any long tool's handle and to read on past `max_chars` (with `offset`). Without an id
 * it lists recent tasks or crawls (`work-lists.ts`): the way to find a submission that may have
 * been accepted although its call failed. Whether something is still running,
 * done, failed or canceled is decided by async/states.ts.
 */
import { z } from "zod";
import type { TaskResult } from "../api/schemas.js";
import { batchCounts, batchPhase, phaseOf } from "../async/states.js";
import { WAIT_ROUTES } from "../async/targets.js";
import { itemsMarkdown, listedItems, taskItem } from "./collect.js";
import { ToolError } from "./errors.js";
import { LIST_LIMIT } from "./extract-batch.js";
import { mapUrls, urlPage } from "./map-site.js";
import { pageShape, shapePage } from "./page-format.js";
import { longToolShape, maxCharsArg, offsetArg, pendingResult, plural, throwFailed } from "./result.js";
import { organic, resultLines } from "./serp-results.js";
import { defineTool, type ToolContext, type ToolResult } from "./tool.js";
import { LIST_DEFAULT, listCrawls, listTasks } from "./work-lists.js";

const idArg = () => z.string().min(1).max(200);

/** Checked against the output schema at run time (runTool); handles and listings share it. */
type Out = any;

async function readTask(
  id: string,
  offset: number,
  maxChars: number,
  ctx: ToolContext,
): Promise<ToolResult<Out>> {
  const { task } = await ctx.client.getTask(id, { signal: ctx.signal });
  const state = task.state ?? "unknown";
  const phase = phaseOf("task", task.state, ctx.client.runtime.unknownStates);
  if (phase === "failed" || phase === "canceled") {
    throwFailed({
      status: "failed",
      target: { kind: "task", id },
      state,
      error: task.error ?? (phase === "canceled" ? `the task was ${state}` : undefined),
      error_type: task.error_type,
      record: task,
    });
  }
  if (phase !== "done") return pendingResult({ target: { kind: "task", id }, state });
  const result = await ctx.client.getTaskResults(id, { signal: ctx.signal });
  const data = result.data ?? {};
  if (data.markdown === undefined && data.html === undefined && mapUrls(result).length > 0) {
    const urls = mapUrls(result);
    const { page, next_offset } = urlPage(urls, maxChars, offset);
    const more =
      next_offset !== undefined ? `\n[more: get_task {"task_id":"${id}","offset":${next_offset}}]` : "";
    return {
      structured: {
        status: "done",
        state,
        task_id: id,
        url: result.url,
        urls: page,
        total: urls.length,
        next_offset,
      },
      text: `# ${result.url}: ${plural(urls.length, "URL")} (from ${offset})\n${page.join("\n")}${more}`,
    };
  }
  const shaped = shapePage(asSerpListing(result), maxChars, offset);
  return {
    structured: { status: "done", state, ...shaped.structured },
    text: shaped.text,
    images: shaped.images,
  };
}

/**
 * A SERP task (a serp_search batch's, an async SERP's) answers with parsed entities: its organic
 * results are the page to read (as serp_search lists them), ahead of the engine page's HTML.
 */
function asSerpListing(result: TaskResult): TaskResult {
  const results = organic(result);
  if (results.length === 0) return result;
  return { ...result, data: { ...result.data, markdown: resultLines(results).join("\n") } };
}

async function readBatch(id: string, offset: number, ctx: ToolContext): Promise<ToolResult<Out>> {
  const progress = await ctx.client.getBatchProgress(id, { signal: ctx.signal });
  const counts = batchCounts(progress);
  if (batchPhase(progress) !== "done")
    return pendingResult({ target: { kind: "batch", id }, state: "running" }, counts);
  const detail = await ctx.client.getBatch(id, { signal: ctx.signal });
  return listing({ kind: "batch", id }, "completed", detail.tasks, offset, counts);
}

async function readCrawl(id: string, offset: number, ctx: ToolContext): Promise<ToolResult<Out>> {
  const { crawl } = await ctx.client.getCrawl(id, { signal: ctx.signal });
  const state = crawl.status ?? "unknown";
  const phase = phaseOf("crawl", crawl.status, ctx.client.runtime.unknownStates);
  if (phase === "failed" || phase === "canceled") {
    throwFailed({
      status: "failed",
      target: { kind: "crawl", id },
      state,
      error: crawl.error ?? (phase === "canceled" ? `the crawl was ${state}` : undefined),
      record: crawl,
    });
  }
  const counts = {
    ...(crawl.completed !== undefined ? { completed: crawl.completed } : {}),
    ...(crawl.total !== undefined ? { total: crawl.total } : {}),
  };
  if (phase !== "done") return pendingResult({ target: { kind: "crawl", id }, state }, counts);
  return listing({ kind: "crawl", id }, state, crawl.tasks, offset, counts);
}

function listing(
  target: { kind: "batch" | "crawl"; id: string },
  state: string,
  tasks: ReadonlyArray<{ id: string; state: string; url?: unknown; error?: unknown }>,
  offset: number,
  counts: { completed?: number; total?: number },
): ToolResult<Out> {
  const slice = tasks.slice(offset, offset + LIST_LIMIT);
  const items = slice.map((t) => ({
    task_id: t.id,
    state: t.state,
    ...(typeof t.url === "string" ? { url: t.url } : {}),
    ...(typeof t.error === "string" ? { error: t.error } : {}),
  }));
  const end = offset + slice.length;
  const next_offset = end < tasks.length ? end : undefined;
  const lines = [
    `# ${target.kind} ${target.id}: ${state}, ${counts.completed ?? "?"}/${counts.total ?? tasks.length} done; tasks ${offset + 1}-${end} of ${tasks.length}`,
  ];
  lines.push("Read a page with get_task and its task_id.", "", itemsMarkdown(items));
  if (next_offset !== undefined)
    lines.push(`[more: get_task {"${target.kind}_id":"${target.id}","offset":${next_offset}}]`);
  return {
    structured: {
      status: "done",
      state,
      [`${target.kind}_id`]: target.id,
      ...counts,
      pages: listedItems(items),
      next_offset,
    },
    text: lines.join("\n"),
  };
}

export const getTask = defineTool({
  name: "get_task",
  title: "Get task, batch or crawl",
  description:
    "State and results of a task, batch or crawl (one id): resumes a long tool's handle; offset reads on past a cut. No id: recent tasks or crawls.",
  toolset: "tasks",
  routes: ["listTasks", "listCrawls", ...WAIT_ROUTES],
  examples: [{ task_id: "00000000-0000-4000-a000-000000000001" }, { limit: 10 }],
  input: () => ({
    task_id: idArg().optional().describe("From a result"),
    batch_id: idArg().optional().describe("From a result"),
    crawl_id: idArg().optional().describe("From a result"),
    offset: offsetArg().describe("Chars (page) or items (list) to skip"),
    max_chars: maxCharsArg(),
    list: z.enum(["tasks", "crawls"]).default("tasks").describe("No id: what to list"),
    cursor: z.string().min(1).max(500).optional().describe("No id: next_cursor of the last list"),
    limit: z.number().int().min(1).max(100).optional().describe("No id: how many to list (default 20)"),
  }),
  output: () => ({
    ...longToolShape(),
    ...pageShape(),
    batch_id: z.string().optional(),
    crawl_id: z.string().optional(),
    completed: z.number().optional(),
    total: z.number().optional(),
    pages: z.array(taskItem()).optional(),
    urls: z.array(z.string()).optional(),
    tasks: z
      .array(z.looseObject({ task_id: z.string(), state: z.string() }))
      .optional()
      .describe("No id: recent tasks, also url, created_at, error"),
    crawls: z
      .array(z.looseObject({ crawl_id: z.string(), status: z.string() }))
      .optional()
      .describe("list crawls: recent crawls, also url, completed, total"),
    next_cursor: z.string().optional(),
  }),
  readOnly: true,
  async handler(args, ctx) {
    const given = (["task_id", "batch_id", "crawl_id"] as const).filter((k) => args[k] !== undefined);
    if (given.length > 1) {
      throw new ToolError(
        "invalid_argument",
        `get_task takes one of task_id, batch_id, crawl_id, or none to list recent tasks (got ${given.join(", ")}).`,
      );
    }
    if (given.length === 0) {
      const list = args.list === "crawls" ? listCrawls : listTasks;
      return list(args.cursor, args.limit ?? LIST_DEFAULT, ctx);
    }
    if (args.task_id) return readTask(args.task_id, args.offset, args.max_chars, ctx);
    if (args.batch_id) return readBatch(args.batch_id, args.offset, ctx);
    return readCrawl(args.crawl_id!, args.offset, ctx);
  },
});
