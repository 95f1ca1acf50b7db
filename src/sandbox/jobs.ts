/** Demo jobs with their runs and JSONL artifacts. */
import type { JobRun } from "../api/schemas.js";
import { seeded, stableUuid } from "./hash.js";

interface JobSpec {
  id: string;
  runs: number;
  everyHours: number;
  inputCount: number;
}

export const JOBS: JobSpec[] = [
  { id: "job_daily_prices", runs: 3, everyHours: 24, inputCount: 12 },
  { id: "job_weekly_reviews", runs: 2, everyHours: 168, inputCount: 5 },
  { id: "job_hourly_news", runs: 30, everyHours: 1, inputCount: 8 },
];

const EPOCH = Date.UTC(2026, 10, 1);
const HOUR = 3_600_000;

function runsOf(job: JobSpec): JobRun[] {
  return Array.from({ length: job.runs }, (_, i) => {
    const id = stableUuid(`${job.id}#${i}`);
    const created = EPOCH + i * job.everyHours * HOUR;
    const newest = i === job.runs - 1;
    const base = {
      id,
      job_id: job.id,
      created_at: new Date(created).toISOString(),
      triggered_by: i % 4 === 3 ? "manual" : "schedule",
      input_count: job.inputCount,
    };
    if (newest) return { ...base, status: "PENDING" };
    return {
      ...base,
      status: "SUCCEEDED",
      started_at: new Date(created + 5_000).toISOString(),
      finished_at: new Date(created + 95_000).toISOString(),
      result_count: job.inputCount,
      artifact_ids: [`${id.slice(0, 8)}-results`],
    };
  }).reverse();
}

const RUNS_BY_JOB = new Map(JOBS.map((j) => [j.id, runsOf(j)]));
const RUNS_BY_ID = new Map([...RUNS_BY_JOB.values()].flat().map((r) => [r.id, r]));

export const jobRuns = (jobId: string) => RUNS_BY_JOB.get(jobId);
export const jobRun = (runId: string) => RUNS_BY_ID.get(runId);

/** The artifact's JSONL: one line per result of the run. */
export function artifactJsonl(run: JobRun, artifactId: string): string {
  const random = seeded(`${run.id}|${artifactId}`);
  const lines = Array.from({ length: run.result_count ?? 0 }, (_, i) =>
    JSON.stringify({
      input: { url: `https://shop.example.com/p/${1000 + i}` },
      output: { title: `Product ${1000 + i}`, price: Math.round(random() * 20000) / 100 },
    }),
  );
  return `${lines.join("\n")}\n`;
}
