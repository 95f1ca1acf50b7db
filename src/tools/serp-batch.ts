/**
 * `serp_search`'s batch mode: many queries in one POST /v2/serp/batch (generation 1:
 * /v1/serp/batch), sent once, waited on through the one waiting mechanism (progress per query
 * done), then each query's organic results read back. At the deadline the answer is a handle
 * that `serp_search {batch_id}` resumes with the same reading.
 */
import { z } from "zod";
import { ApiError } from "../api/errors.js";
import { buildOnce } from "../api/lazy-schema.js";
import type { SerpRequest } from "../api/schemas.js";
import { forEachLimit } from "../async/pool.js";
import { succeeded } from "../async/states.js";
import { clip } from "./result.js";
import { organic, resultLines, type SerpItem } from "./serp-results.js";
import type { ToolContext, ToolResult } from "./tool.js";

/** Queries one call takes: their results together stay readable in one answer. */
export const BATCH_MAX = 50;
const CONCURRENCY = 6;

export const queryItem = buildOnce(() =>
  z.object({
    query: z.string(),
    task_id: z.string(),
    state: z.string(),
    error: z.string().optional(),
  }),
);
/** One query of a batch as `structuredContent` lists it. */
type ListedQuery = z.infer<ReturnType<typeof queryItem>>;
type QueryItem = ListedQuery & { results?: SerpItem[] };

export interface BatchOut {
  status: string;
  batch_id: string;
  state?: string;
  resume?: { tool: string; arguments: Record<string, string> };
  total?: number;
  completed?: number;
  queries?: ListedQuery[];
  results?: (Omit<SerpItem, "snippet"> & { query: string })[];
}

type Shared = Omit<SerpRequest, "query">;

/** Sends the batch (once: a submission is never retried) and reads it as `readSerpBatch` does. */
export async function runSerpBatch(
  queries: string[],
  shared: Shared,
  maxChars: number,
  ctx: ToolContext,
): Promise<ToolResult<BatchOut>> {
  const submission = await ctx.client.serpBatch(
    { inputs: queries.map((query) => ({ query })), shared_inputs: shared },
    { signal: ctx.signal },
  );
  const byTask = new Map<string, string>();
  submission.tasks?.forEach((t, i) => {
    if (t?.id && queries[i] !== undefined) byTask.set(t.id, queries[i]);
  });
  return readSerpBatch(submission.batch_id, maxChars, ctx, byTask);
}

/** The query a task ran: as submitted, else its echoed input, else the `q` of its engine URL. */
function queryOf(task: { id: string; input?: unknown }, url: string | undefined, known: Map<string, string>) {
  const echoed = (task.input as { query?: unknown } | undefined)?.query;
  if (known.has(task.id)) return known.get(task.id) as string;
  if (typeof echoed === "string") return echoed;
  const q = url && URL.canParse(url) ? new URL(url).searchParams.get("q") : null;
  return q ?? "";
}

/** Waits for a SERP batch, then lists each query's organic results. */
export async function readSerpBatch(
  batchId: string,
  maxChars: number,
  ctx: ToolContext,
  known = new Map<string, string>(),
): Promise<ToolResult<BatchOut>> {
  const outcome = await ctx.wait({ kind: "batch", id: batchId });
  if (outcome.status === "pending") {
    const resume = { tool: "serp_search", arguments: { batch_id: batchId } };
    return {
      structured: { status: "pending", batch_id: batchId, state: outcome.state, resume },
      text: [
        `Still running (batch state: ${outcome.state}).`,
        `batch_id: ${batchId}`,
        `Continue with: serp_search ${JSON.stringify(resume.arguments)}`,
      ].join("\n"),
    };
  }
  const detail = await ctx.client.getBatch(batchId, { signal: ctx.signal });
  const items: QueryItem[] = detail.tasks.map((t) => ({
    query: known.get(t.id) ?? "",
    task_id: t.id,
    state: t.state,
    ...(t.error ? { error: t.error } : {}),
  }));
  await forEachLimit(
    items.filter((i) => succeeded("item", i.state)),
    CONCURRENCY,
    async (item) => {
      try {
        const answer = await ctx.client.getTaskResults(item.task_id, { signal: ctx.signal });
        item.query = queryOf(detail.tasks.find((t) => t.id === item.task_id)!, answer.url, known);
        item.results = organic(answer);
      } catch (error) {
        // One unreadable answer must not sink the others; an abort or a dead key ends it all.
        if (!(error instanceof ApiError) || error.code === "aborted" || error.code === "unauthorized")
          throw error;
        item.error = `results not readable: ${error.message}`;
      }
    },
  );
  return batchResult(batchId, outcome.state, items, maxChars);
}

/** The listing cut at `max_chars`, saying where the rest is. */
function clipped(text: string, maxChars: number): string {
  const part = clip(text, maxChars);
  return part.next_offset === undefined
    ? part.text
    : `${part.text}\n[cut at ${part.next_offset} of ${part.total_chars} chars; every result is in structuredContent.results, or raise max_chars]`;
}

function batchResult(
  batchId: string,
  state: string,
  items: QueryItem[],
  maxChars: number,
): ToolResult<BatchOut> {
  const ok = items.filter((i) => i.results !== undefined).length;
  const lines = [`# SERP batch ${batchId}: ${ok}/${items.length} queries answered`];
  for (const item of items) {
    lines.push("", `## "${item.query}" — ${item.state} (task_id ${item.task_id})`);
    if (item.error) lines.push(`Error: ${item.error}`);
    if (item.results) lines.push(...(item.results.length > 0 ? resultLines(item.results) : ["No results."]));
  }
  return {
    structured: {
      status: "done",
      batch_id: batchId,
      state,
      total: items.length,
      completed: ok,
      queries: items.map(({ results: _listed, ...q }) => q),
      results: items.flatMap((i) =>
        (i.results ?? []).map(({ snippet: _inText, ...r }) => ({ ...r, query: i.query })),
      ),
    },
    text: clipped(lines.join("\n"), maxChars),
  };
}
