/**
 * The one place that decides whether a task, batch, crawl, run or generation (or one task listed
 * inside a batch or crawl) is still running, done, failed or canceled. The waiting mechanism,
 * `get_task`, progress and webhook completion all ask here, so a new state word is taught in one
 * place.
 *
 * Every spelling of both API generations (web-data-api-v2.md §16): tasks `pending`, `queued`,
 * `in_progress`, `success`, `error`; crawls `queued`, `running`, `succeeded`, `failed`,
 * `canceled`; tasks listed in a crawl `pending`, `completed`, `failed`; crawl callback events
 * `started`, `page`, `completed`, `failed`; template generations (a free string: `queued` …
 * `success`); research runs `queued`, `running`, `completed`, `failed`, `cancelled`; job runs
 * `PENDING`, `RUNNING`, `SUCCESS`, `FAILED`, `CANCELLED`, `TIMEOUT`, `WARNING` (case is ignored).
 * A word that can only mean the end is terminal wherever it appears, whatever the kind: a failed
 * task answers at once instead of waiting out the deadline. An unknown word counts as still
 * running (the wait stays bounded by its deadline) and is logged once per client runtime.
 */
import type { UnknownStates } from "../api/unknown-states.js";

export type Phase = "running" | "done" | "failed" | "canceled";
export type StateKind = "task" | "crawl" | "item" | "run" | "generation" | "research" | "job_run";

const words = (phase: Phase, list: string[]) => list.map((w) => [w, phase] as const);

const PHASES: ReadonlyMap<string, Phase> = new Map([
  ...words("running", [
    "pending",
    "queued",
    "in_progress",
    "running",
    "started",
    "page",
    "processing",
    "scheduled",
  ]),
  // WARNING (job runs): finished, with warnings about some inputs
  ...words("done", ["success", "succeeded", "completed", "complete", "done", "finished", "warning"]),
  ...words("failed", ["error", "failed", "failure", "fatal", "timeout", "timed_out"]),
  ...words("canceled", ["canceled", "cancelled"]),
]);

/**
 * The phase of a state word; `undefined`/`null` (not reported yet) and unknown words are running.
 * An unknown word is noted once in `unknown` when given (the client runtime's, `client.runtime.
 * unknownStates`: the wait and `get_task` pass it); this module keeps no state of its own.
 */
export function phaseOf(kind: StateKind, state: unknown, unknown?: UnknownStates): Phase {
  if (typeof state !== "string" || state === "unknown") return "running";
  const phase = PHASES.get(state) ?? PHASES.get(state.toLowerCase());
  if (phase) return phase;
  unknown?.note(kind, state);
  return "running";
}

export const isFinal = (phase: Phase): boolean => phase !== "running";

/** True when a task (or a listed task) ended with a readable result. */
export const succeeded = (kind: StateKind, state: unknown): boolean => phaseOf(kind, state) === "done";

/**
 * The phase of a batch from its progress record: `completed: true`, or every task counted
 * (`completed_count >= total`), or a `progress` fraction of 1 means done.
 */
export function batchPhase(progress: {
  completed?: boolean | null;
  completed_count?: number | null;
  total?: number | null;
  progress?: number | null;
}): Phase {
  if (progress.completed === true) return "done";
  if (progress.completed === false) return "running";
  const { completed_count: done, total, progress: fraction } = progress;
  if (typeof done === "number" && typeof total === "number" && total > 0 && done >= total) return "done";
  if (typeof fraction === "number" && fraction >= 1) return "done";
  return "running";
}

/**
 * Completed and total tasks of a batch from its progress record; `total` may be missing, then
 * it is derived from `completed_count` and a `progress` fraction when both are there.
 */
export function batchCounts(progress: {
  completed_count?: number | null;
  total?: number | null;
  progress?: number | null;
}): { completed?: number; total?: number } {
  const completed = typeof progress.completed_count === "number" ? progress.completed_count : undefined;
  let total = typeof progress.total === "number" ? progress.total : undefined;
  const fraction = progress.progress;
  if (total === undefined && completed !== undefined && typeof fraction === "number" && fraction > 0) {
    total = Math.round(completed / Math.min(1, fraction));
  }
  return { ...(completed !== undefined ? { completed } : {}), ...(total !== undefined ? { total } : {}) };
}
