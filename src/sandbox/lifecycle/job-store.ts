/**
 * Jobs one sandbox holds (§15; generation 1 §18): the demo jobs of jobs.ts with their fixed
 * runs, plus jobs and runs made through the API. A triggered run is PENDING for one
 * `taskLatencyMs`, RUNNING for seven more, then SUCCESS with one `results` artifact (FAILED when
 * the triggering request took a `task_error` fault); a cancel while it is active makes it CANCELLED.
 */
import type { JobRun } from "../../api/schemas.js";
import type { SandboxState } from "../context.js";
import { artifactJsonl, JOBS, jobRun, jobRuns } from "../jobs.js";

export interface Job {
  id: string;
  name: string;
  display_name?: string;
  description?: string;
  extract_template_name: string;
  inputs?: unknown;
  destination?: unknown;
  schedule?: { cron: string; enabled: boolean };
  created_at: string;
  updated_at: string;
}

interface TriggeredRun {
  id: string;
  job_id: string;
  createdAt: number;
  fails: boolean;
  cancelledAt?: number;
}

const RUNNING_STEPS = 8;
const iso = (ms: number) => new Date(ms).toISOString();

export class JobStore {
  private readonly jobs = new Map<string, Job>();
  private readonly triggered = new Map<string, TriggeredRun>();
  private next = 1;

  constructor(private readonly state: SandboxState) {
    for (const spec of JOBS) {
      const at = "2026-10-01T00:00:00.000Z";
      this.jobs.set(spec.id, {
        id: spec.id,
        name: spec.id.replace(/^job_/, ""),
        extract_template_name: "ecommerce_product",
        schedule: { cron: `0 */${Math.min(spec.everyHours, 24)} * * *`, enabled: true },
        created_at: at,
        updated_at: at,
      });
    }
  }

  list(): Job[] {
    return [...this.jobs.values()];
  }

  get(id: string): Job | undefined {
    return this.jobs.get(id);
  }

  create(body: Omit<Job, "id" | "created_at" | "updated_at">): Job {
    const now = new Date().toISOString();
    const job = { ...body, id: `job_${this.next++}`, created_at: now, updated_at: now };
    this.jobs.set(job.id, job);
    return job;
  }

  update(id: string, changes: Partial<Job>): Job | undefined {
    const job = this.jobs.get(id);
    if (!job) return undefined;
    Object.assign(job, changes, { updated_at: new Date().toISOString() });
    return job;
  }

  delete(id: string): boolean {
    return this.jobs.delete(id);
  }

  trigger(jobId: string, fails: boolean): JobRun {
    const run: TriggeredRun = { id: `run_${this.next++}`, job_id: jobId, createdAt: Date.now(), fails };
    this.triggered.set(run.id, run);
    return this.summary(run);
  }

  /** Runs of a job, newest first (triggered ones, then the demo runs). */
  runsOf(jobId: string): JobRun[] | undefined {
    if (!this.jobs.has(jobId)) return undefined;
    const made = [...this.triggered.values()].filter((r) => r.job_id === jobId).reverse();
    return [...made.map((r) => this.summary(r)), ...(jobRuns(jobId) ?? [])];
  }

  run(runId: string): JobRun | undefined {
    const made = this.triggered.get(runId);
    return made ? this.summary(made) : jobRun(runId);
  }

  /** Cancels an active run; undefined when unknown, the run unchanged when it had finished. */
  cancel(runId: string): { run: JobRun; cancelled: boolean } | undefined {
    const made = this.triggered.get(runId);
    if (!made) {
      const fixed = jobRun(runId);
      return fixed && { run: fixed, cancelled: false };
    }
    const active = ["PENDING", "RUNNING"].includes(this.summary(made).status ?? "");
    if (active) made.cancelledAt = Date.now();
    return { run: this.summary(made), cancelled: active };
  }

  /** The run detail of §15. */
  detail(runId: string) {
    const run = this.run(runId);
    if (!run) return undefined;
    const job = this.jobs.get(run.job_id ?? "");
    const { job_id: _j, input_count, result_count, artifact_ids: _a, ...rest } = run;
    return {
      ...rest,
      job: job && {
        id: job.id,
        name: job.name,
        display_name: job.display_name,
        extract_template_name: job.extract_template_name,
        schedule: job.schedule,
      },
      summary: {
        input_count: input_count ?? 0,
        result_count: result_count ?? 0,
        match_rate: input_count ? (result_count ?? 0) / input_count : 0,
      },
      ...(run.status === "FAILED"
        ? { error: { message: "The job's input could not be read", step: "inputs", errors_sample: [] } }
        : {}),
    };
  }

  artifacts(runId: string) {
    const run = this.run(runId);
    if (!run) return undefined;
    return (run.artifact_ids ?? []).map((id) => ({
      id,
      type: "results",
      description: `Results of run ${run.id} (JSONL)`,
      created_at: run.finished_at ?? run.created_at,
    }));
  }

  /** Columns and the first `limit` rows of an artifact; undefined when unknown. */
  preview(runId: string, artifactId: string, limit = 10) {
    const run = this.run(runId);
    if (!run?.artifact_ids?.includes(artifactId)) return undefined;
    const rows = artifactJsonl(run, artifactId)
      .split("\n")
      .filter((l) => l.trim() !== "")
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    return { columns: Object.keys(rows[0] ?? {}), rows: rows.slice(0, limit), row_count: rows.length };
  }

  private summary(run: TriggeredRun, now = Date.now()): JobRun {
    const latency = Math.max(1, this.state.config.taskLatencyMs);
    const steps = Math.floor((now - run.createdAt) / latency);
    const base = {
      id: run.id,
      job_id: run.job_id,
      created_at: iso(run.createdAt),
      triggered_by: "manual",
      input_count: 5,
    };
    if (run.cancelledAt !== undefined)
      return {
        ...base,
        status: "CANCELLED",
        finished_at: iso(run.cancelledAt),
        ...(steps >= 1 ? { started_at: iso(run.createdAt + latency) } : {}),
      };
    if (steps < 1) return { ...base, status: "PENDING" };
    const started = { ...base, started_at: iso(run.createdAt + latency) };
    if (steps < RUNNING_STEPS) return { ...started, status: "RUNNING" };
    const finished = { ...started, finished_at: iso(run.createdAt + RUNNING_STEPS * latency) };
    if (run.fails) return { ...finished, status: "FAILED", result_count: 0 };
    return { ...finished, status: "SUCCESS", result_count: 5, artifact_ids: [`${run.id}-results`] };
  }
}
