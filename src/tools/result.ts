/**
 * Helpers that shape results for a model's context: text clipping with a way to read on, the
 * "still running" handle a long tool returns at its deadline, and failed-task errors.
 */
import { z } from "zod";
import { buildOnce } from "../api/lazy-schema.js";
import type { TaskResult } from "../api/schemas.js";
import { phaseOf } from "../async/states.js";
import { splitId } from "../async/targets.js";
import type { WaitOutcome, WaitTarget } from "../async/wait.js";
import { ToolError } from "./errors.js";
import type { ToolResult } from "./tool.js";

export const DEFAULT_MAX_CHARS = 20_000;

/** `1 page`, `2 pages`: a count with its word, singular for one. */
export const plural = (n: number, word: string, many = `${word}s`) => `${n} ${n === 1 ? word : many}`;

/** The `max_chars` argument every reading tool takes. */
export const maxCharsArg = buildOnce(() =>
  z.number().int().min(200).max(40_000).default(DEFAULT_MAX_CHARS).describe("Max text chars"),
);

export const offsetArg = buildOnce(() => z.number().int().min(0).default(0));

export interface Clip {
  text: string;
  total_chars: number;
  /** Where the next read starts; absent when the end was reached. */
  next_offset?: number;
}

/**
 * Most estimated tokens one clipped text may hold. A result carries its text twice (content and
 * structuredContent), so this keeps every result well under 25,000 tokens.
 */
export const TOKEN_CAP = 9_000;

/** Cheap token estimate: ~4 ASCII characters per token, one token per other character (CJK…). */
export function estimateTokens(text: string): number {
  let tokens = 0;
  for (let i = 0; i < text.length; i++) tokens += text.charCodeAt(i) < 128 ? 0.25 : 1;
  return Math.ceil(tokens);
}

/** Length of the longest prefix of `text` whose estimate stays within `tokens`. */
function fitTokens(text: string, tokens: number): number {
  let used = 0;
  for (let i = 0; i < text.length; i++) {
    used += text.charCodeAt(i) < 128 ? 0.25 : 1;
    if (used > tokens) return i;
  }
  return text.length;
}

/** `maxChars` characters from `offset`, fewer when they would exceed `maxTokens` estimated tokens. */
export function clip(text: string, maxChars: number, offset = 0, maxTokens = TOKEN_CAP): Clip {
  let slice = text.slice(offset, offset + maxChars);
  slice = slice.slice(0, fitTokens(slice, maxTokens));
  const end = offset + slice.length;
  return end < text.length
    ? { text: slice, total_chars: text.length, next_offset: end }
    : { text: slice, total_chars: text.length };
}

export const ID_FIELD = {
  task: "task_id",
  batch: "batch_id",
  crawl: "crawl_id",
  generation: "generation_id",
  research: "run_id",
  job_run: "run_id",
} as const;
export type IdField = (typeof ID_FIELD)[keyof typeof ID_FIELD];

export const resumeSchema = buildOnce(() =>
  z
    .object({ tool: z.string(), arguments: z.record(z.string(), z.string()) })
    .describe("The call that continues this work"),
);

/** Members every long tool's output has, so the deadline handle fits its schema. */
export const longToolShape = buildOnce(() => ({
  status: z.enum(["done", "pending"]),
  state: z.string().optional(),
  resume: resumeSchema().optional(),
}));

/** The call that resumes waiting for a target: get_task for tasks, batches and crawls, else the tool that started it. */
export function resumeFor(target: WaitTarget): { tool: string; arguments: Record<string, string> } {
  const [parent, child] = splitId(target.id);
  switch (target.kind) {
    case "generation":
      return { tool: "generate_template", arguments: { generation_id: target.id } };
    case "research":
      return { tool: "research", arguments: { agent_id: parent, run_id: child } };
    case "job_run":
      return {
        tool: "job_runs",
        arguments: { run_id: child, ...(parent !== "-" ? { job_id: parent } : {}) },
      };
    default:
      return { tool: "get_task", arguments: { [ID_FIELD[target.kind]]: target.id } };
  }
}

/**
 * The one pending handle: what a long tool returns when its wait reached the deadline, and what
 * get_task returns for work still running (`elapsedMs` then unknown). `extra` joins the
 * structured result; its `completed`/`total` counts are also said in the text.
 */
export function pendingResult(
  outcome: { target: WaitTarget; state: string; elapsedMs?: number },
  extra: Record<string, unknown> = {},
): ToolResult<any> {
  const field = ID_FIELD[outcome.target.kind];
  const resume = resumeFor(outcome.target);
  const id = resume.arguments[field] ?? outcome.target.id;
  const after = outcome.elapsedMs !== undefined ? ` after ${Math.round(outcome.elapsedMs / 1000)} s` : "";
  const done =
    typeof extra.completed === "number" && typeof extra.total === "number"
      ? `, ${extra.completed}/${extra.total} done`
      : "";
  const text = [
    `Still running${after} (${outcome.target.kind} state: ${outcome.state}${done}).`,
    `${field}: ${id}`,
    `Continue with: ${resume.tool} ${JSON.stringify(resume.arguments)}`,
  ].join("\n");
  return {
    structured: { status: "pending", [field]: id, state: outcome.state, resume, ...extra },
    text,
  };
}

/**
 * The one sync-failure check: a sync run (extract, agent, template) whose task failed answers with a result of `status: "error"` (and `error`,
 * `error_type`) instead of data: that is a `task_failed` error, not an empty success.
 */
export function assertResultOk(result: TaskResult, what: string): void {
  const r = result as TaskResult & { error?: string; error_type?: string };
  if (r.status !== "error" && phaseOf("task", r.task?.state) !== "failed") return;
  const reason = r.error ?? "no error text";
  const type = r.error_type ? ` (error_type: ${r.error_type})` : "";
  throw new ToolError(
    "task_failed",
    `The ${what} failed: ${reason}${type}. Check the params, then run it again.`,
    {
      error: r.error,
      errorType: r.error_type,
      id: r.task_id,
    },
  );
}

/** Throws `task_failed` with the task's error and error_type. */
export function throwFailed(outcome: Extract<WaitOutcome, { status: "failed" }>): never {
  const what = `${outcome.target.kind} ${outcome.target.id}`;
  const reason = outcome.error ?? "no error text";
  const type = outcome.error_type ? ` (error_type: ${outcome.error_type})` : "";
  throw new ToolError(
    "task_failed",
    `The ${what} failed: ${reason}${type}. Check the input, then submit again.`,
    {
      error: outcome.error,
      errorType: outcome.error_type,
      id: outcome.target.id,
    },
  );
}
