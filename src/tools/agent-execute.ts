/**
 * Executes an agent run of one or more pages. One page: the sync `POST /v1/agents/run`. Several:
 * every page is submitted to `POST /v1/agent/async` first (the client's rate limiter paces
 * them), then each task is waited for in page order through `ctx.wait` (progress, cancellation,
 * deadline); the first page still running at the deadline makes the whole run "pending", with
 * every page's task id so `get_task` can collect them.
 */
import { z } from "zod";
import { buildOnce } from "../api/lazy-schema.js";
import type { TaskResult } from "../api/schemas.js";
import type { WaitOutcome } from "../async/wait.js";
import { mergePages, type PageOutcome, type ResolvedAgent } from "./agent-run.js";
import { ToolError } from "./errors.js";
import { assertResultOk } from "./result.js";
import type { ToolContext } from "./tool.js";

export const pagesOutputShape = buildOnce(() => ({
  agent: z.string(),
  task_id: z.string().optional(),
  parsing: z.unknown().optional().describe("data.parsing, pages merged"),
  pages: z
    .array(z.looseObject({ page: z.number(), items: z.number() }))
    .optional()
    .describe("Per page: task_id, status_code, items added to the merged arrays"),
  failures: z.array(z.looseObject({ page: z.number(), error: z.string() })).optional(),
  tasks: z.array(z.looseObject({ page: z.number(), task_id: z.string() })).optional(),
  content: z.string().optional().describe("formats: the page bodies, cut at max_chars as in the text"),
  chars: z.number().optional().describe("Characters of content"),
  notes: z.array(z.string()).optional(),
}));

export interface MergedRun {
  parsing?: unknown;
  provenance: Array<{ page: number; task_id?: string; status_code?: number; items: number }>;
  task_id?: string;
  failures: Array<{ page: number; task_id: string; error: string }>;
  tasks: Array<{ page: number; task_id: string }>;
  content?: string;
  pending?: Extract<WaitOutcome, { status: "pending" }>;
}

function pageNumber(agent: ResolvedAgent, params: Record<string, unknown>, i: number): number {
  const field = agent.compiled.params.paginationParam;
  const v = field ? Number(params[field]) : Number.NaN;
  return Number.isFinite(v) ? v : i + 1;
}

function body(result: TaskResult): string | undefined {
  return result.data?.markdown ?? result.data?.html;
}

export async function runAgentPages(
  ctx: ToolContext,
  agent: ResolvedAgent,
  list: Record<string, unknown>[],
  formats?: Formats,
): Promise<MergedRun> {
  if (list.length === 1) return runOnePage(ctx, agent, list[0], formats);
  const tasks = await submitPages(ctx, agent, list, formats);
  return collectPages(ctx, agent.detail.name, tasks);
}

type Formats = Array<"html" | "markdown" | "headers">;

/** One page: the sync run. */
async function runOnePage(
  ctx: ToolContext,
  agent: ResolvedAgent,
  params: Record<string, unknown>,
  formats?: Formats,
): Promise<MergedRun> {
  const name = agent.detail.name;
  const result = await ctx.client.runAgent({ agent: name, params, formats }, { signal: ctx.signal });
  assertResultOk(result, `run of agent ${name}`);
  const outcome: PageOutcome = {
    page: pageNumber(agent, params, 0),
    task_id: result.task_id,
    status_code: result.status_code,
    parsing: result.data?.parsing,
  };
  const merged = mergePages([outcome]);
  return { ...merged, task_id: result.task_id, failures: [], tasks: [], content: body(result) };
}

/** Every page submitted as an async task, in order (each submission sent once). */
async function submitPages(
  ctx: ToolContext,
  agent: ResolvedAgent,
  list: Record<string, unknown>[],
  formats?: Formats,
): Promise<MergedRun["tasks"]> {
  const tasks: MergedRun["tasks"] = [];
  for (const [i, params] of list.entries()) {
    const { task_id } = await ctx.client.runAgentAsync(
      { agent: agent.detail.name, params, formats },
      { signal: ctx.signal },
    );
    tasks.push({ page: pageNumber(agent, params, i), task_id });
  }
  return tasks;
}

/**
 * Waits for each page's task in page order and merges the pages that succeeded; pending as soon
 * as one is still running at the deadline, a failure when every page failed.
 */
async function collectPages(ctx: ToolContext, name: string, tasks: MergedRun["tasks"]): Promise<MergedRun> {
  const outcomes: PageOutcome[] = [];
  const failures: MergedRun["failures"] = [];
  const bodies: string[] = [];
  for (const [i, t] of tasks.entries()) {
    const outcome = await ctx.wait({ kind: "task", id: t.task_id });
    if (outcome.status === "pending") return { provenance: [], failures, tasks, pending: outcome };
    // The context keeps progress strictly increasing across these and the polls' updates.
    await ctx.progress({ progress: i + 1, total: tasks.length, message: `page ${t.page} of ${name} done` });
    if (outcome.status === "failed") {
      failures.push({ page: t.page, task_id: t.task_id, error: outcome.error ?? outcome.state });
      continue;
    }
    const result = await ctx.client.getTaskResults(t.task_id, { signal: ctx.signal });
    outcomes.push({
      page: t.page,
      task_id: t.task_id,
      status_code: result.status_code,
      parsing: result.data?.parsing,
    });
    const b = body(result);
    if (b) bodies.push(`--- page ${t.page} ---\n${b}`);
  }
  if (outcomes.length === 0) throw everyPageFailed(name, failures);
  const merged = mergePages(outcomes);
  return { ...merged, failures, tasks, content: bodies.length > 0 ? bodies.join("\n\n") : undefined };
}

/** The run's failure when no page succeeded: the first page's error. */
function everyPageFailed(name: string, failures: MergedRun["failures"]): ToolError {
  const first = failures[0];
  return new ToolError(
    "task_failed",
    `Every page of agent ${name} failed; page ${first.page}: ${first.error}`,
    {
      error: first.error,
      id: first.task_id,
    },
  );
}
