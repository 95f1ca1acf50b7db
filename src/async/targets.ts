/** One poll of each kind of target, read the same way: state, whether it ended, and progress. */
import type { WebDataClient } from "../api/client.js";
import type { RouteName } from "../api/routes.js";

/** What `waitFor` and the result collection read for any long tool (listed for `get_task`). */
export const WAIT_ROUTES: readonly RouteName[] = [
  "getTask",
  "getTaskResults",
  "getBatch",
  "getBatchProgress",
  "getCrawl",
];

import type { TargetKind } from "./schedule.js";
import { batchCounts, batchPhase, phaseOf } from "./states.js";

export interface WaitTarget {
  kind: TargetKind;
  id: string;
}

export interface PollReading {
  state: string;
  /** "done" / "failed" when the work ended; undefined while it runs. */
  end?: "done" | "failed";
  record: unknown;
  error?: string;
  error_type?: string;
  /** Completed units and their total, when the target reports them. */
  completed?: number;
  total?: number;
}

export type Poller = (client: WebDataClient, id: string, signal: AbortSignal) => Promise<PollReading>;

const pollTask: Poller = async (client, id, signal) => {
  const { task } = await client.getTask(id, { signal });
  const phase = phaseOf("task", task.state, client.runtime.unknownStates);
  const reading: PollReading = { state: task.state ?? "unknown", record: task };
  if (phase === "done") reading.end = "done";
  if (phase === "failed" || phase === "canceled") {
    reading.end = "failed";
    reading.error = task.error;
    reading.error_type = task.error_type;
  }
  return reading;
};

const pollBatch: Poller = async (client, id, signal) => {
  const progress = await client.getBatchProgress(id, { signal });
  const done = batchPhase(progress) === "done";
  const { completed, total } = batchCounts(progress);
  return {
    state: done ? "completed" : "running",
    end: done ? "done" : undefined,
    record: progress,
    completed,
    total,
  };
};

const pollCrawl: Poller = async (client, id, signal) => {
  const { crawl } = await client.getCrawl(id, { signal });
  const phase = phaseOf("crawl", crawl.status, client.runtime.unknownStates);
  const reading: PollReading = {
    state: crawl.status ?? "unknown",
    record: crawl,
    completed: crawl.completed,
    total: crawl.total,
  };
  if (phase === "done") reading.end = "done";
  if (phase === "failed" || phase === "canceled") {
    reading.end = "failed";
    reading.error = crawl.error ?? (phase === "canceled" ? `the crawl was ${crawl.status}` : undefined);
  }
  return reading;
};

/**
 * Ids of research runs and job runs name their parent too (`<agent id>:<run id>`, `<job id>:<run
 * id>`): generation 1 addresses a run under its agent or job.
 */
export const joinId = (parent: string, child: string) => `${parent}:${child}`;
export function splitId(id: string): [string, string] {
  const at = id.indexOf(":");
  return at < 0 ? ["-", id] : [id.slice(0, at), id.slice(at + 1)];
}

/** One reading of a record with a status word of `kind`, failed with `error` text when it has one. */
function statusReading(
  client: WebDataClient,
  kind: "generation" | "research" | "job_run",
  state: string,
  record: unknown,
  error?: string,
): PollReading {
  const phase = phaseOf(kind, state, client.runtime.unknownStates);
  const reading: PollReading = { state, record };
  if (phase === "done") reading.end = "done";
  if (phase === "failed" || phase === "canceled") {
    reading.end = "failed";
    reading.error = error ?? `it ended ${state}`;
  }
  return reading;
}

const pollGeneration: Poller = async (client, id, signal) => {
  const g = await client.getGeneration(id, { signal });
  return statusReading(client, "generation", g.status, g, g.error);
};

const pollResearch: Poller = async (client, id, signal) => {
  const [agent, run] = splitId(id);
  const r = await client.getResearchRun(agent, run, { signal });
  return statusReading(client, "research", r.status, r, r.error?.message);
};

const pollJobRun: Poller = async (client, id, signal) => {
  const [job, run] = splitId(id);
  const r = await client.getJobRun(run, job, { signal });
  const error = (r as { error?: { message?: string } }).error?.message;
  return statusReading(client, "job_run", r.status, r, error);
};

export const POLLERS: Record<TargetKind, Poller> = {
  task: pollTask,
  batch: pollBatch,
  crawl: pollCrawl,
  generation: pollGeneration,
  research: pollResearch,
  job_run: pollJobRun,
};

/** The progress message of one reading, for humans. */
export function describeReading(target: WaitTarget, reading: PollReading, elapsedMs: number): string {
  const seconds = (elapsedMs / 1000).toFixed(1);
  if (reading.completed !== undefined && reading.total !== undefined) {
    const noun = target.kind === "crawl" ? "pages" : "tasks";
    return `${target.kind} ${target.id}: ${reading.completed}/${reading.total} ${noun} done (${reading.state}, ${seconds} s)`;
  }
  return `${target.kind} ${target.id}: ${reading.state} after ${seconds} s`;
}
