/**
 * `job_runs`: with no id the jobs (`GET /v2/jobs`); with `job_id` its runs
 * (`GET /v2/jobs/{job_id}/runs`, paginated); with `run_id` the run's detail and artifacts
 * (`GET /v2/jobs/runs/{run_id}`, `…/artifacts`); with `run_id` and `artifact_id` the artifact's
 * download URL and, with `preview`, its first rows (`…/download-url`, `…/preview`).
 * Generation 1 nests run routes under the job: pass `job_id` with `run_id` there.
 * The run's detail and the preview are auxiliary reads: when one fails, the answer still gives
 * what did arrive (the artifacts, the download URL) and says, in `unread`, what could not be read.
 */
import { z } from "zod";
import { ApiError } from "../api/errors.js";
import { ToolError } from "./errors.js";
import { artifactUri } from "./resources.js";
import { plural } from "./result.js";
import { defineTool, type ToolContext } from "./tool.js";

const run = () => z.looseObject({ id: z.string(), status: z.string() });
type Run = {
  id: string;
  job_id?: string;
  /** PENDING, RUNNING, SUCCESS, FAILED, CANCELLED, TIMEOUT, WARNING or another word; "unknown" when not given. */
  status: string;
  triggered_by?: string;
  created_at?: string;
  started_at?: string;
  finished_at?: string;
  input_count?: number;
  result_count?: number;
  artifact_ids?: string[];
};

const idArg = () => z.string().trim().min(1).max(200);

const input = () => ({
  job_id: idArg().optional().describe("List this job's runs"),
  limit: z.number().int().min(1).max(200).default(20).describe("Runs per page"),
  offset: z.number().int().min(0).default(0).describe("Runs to skip"),
  run_id: idArg().optional().describe("A run: its detail and artifacts"),
  artifact_id: idArg().optional().describe("With run_id: its download URL"),
  preview: z.boolean().default(false).describe("With artifact_id: also its first rows"),
});
type Args = z.output<z.ZodObject<ReturnType<typeof input>>>;

export const jobRuns = defineTool({
  name: "job_runs",
  title: "Job runs and artifacts",
  description: "Runs and artifacts of recurring jobs; no id lists the jobs.",
  toolset: "jobs",
  routes: ["listJobs", "jobRuns", "getJobRun", "listArtifacts", "artifactPreview", "artifactDownloadUrl"],
  examples: [{ job_id: "job_daily_prices", limit: 5 }],
  input,
  output: () => ({
    job_id: z.string().optional(),
    runs: z.array(run()).optional().describe("Also: created_at, finished_at, result_count, artifact_ids"),
    total: z.number().optional(),
    offset: z.number().optional(),
    next_offset: z.number().optional(),
    download: z.looseObject({ url: z.string(), expires_at: z.string().optional() }).optional(),
    jobs: z.array(z.record(z.string(), z.unknown())).optional(),
    run: z.record(z.string(), z.unknown()).optional(),
    artifacts: z.array(z.record(z.string(), z.unknown())).optional(),
    unread: z.array(z.string()).optional().describe("Parts that could not be read, and why"),
  }),
  readOnly: true,
  async handler(args, ctx) {
    const { run_id, artifact_id, job_id } = args;
    if (artifact_id !== undefined && run_id === undefined) {
      throw new ToolError("invalid_argument", "Pass run_id with artifact_id (the artifact's run).");
    }
    if (run_id !== undefined && artifact_id !== undefined)
      return artifactDownload({ ...args, run_id, artifact_id }, ctx);
    if (run_id !== undefined) return runDetail(run_id, job_id, ctx);
    if (job_id !== undefined) return jobRunsPage({ ...args, job_id }, ctx);
    return listJobs(args, ctx);
  },
});

/**
 * An auxiliary read: its API failure is noted in `unread` (what, and why) and gives undefined,
 * so the answer keeps what did arrive; a cancelled call still ends.
 */
async function auxiliary<T>(what: string, read: Promise<T>, unread: string[]): Promise<T | undefined> {
  try {
    return await read;
  } catch (e) {
    if (!(e instanceof ApiError) || e.code === "aborted") throw e;
    unread.push(`${what}: ${e.status ? `${e.status} ` : ""}${e.code}: ${e.message}`);
    return undefined;
  }
}

/** The text's note of what could not be read, and what of the answer stands. */
const unreadText = (unread: string[], kept: string) =>
  unread.length > 0 ? `\nNot read: ${unread.join("; ")}. ${kept}; call again for the rest.` : "";

/** A run's artifacts and its detail (auxiliary: a failed read of it keeps the artifacts). */
async function runDetail(runId: string, jobId: string | undefined, ctx: ToolContext) {
  const opts = { signal: ctx.signal };
  const unread: string[] = [];
  const [detail, artifacts] = await Promise.all([
    auxiliary("the run's detail", ctx.client.getJobRun(runId, jobId, opts), unread),
    ctx.client.listArtifacts(runId, jobId, opts),
  ]);
  const items = artifacts.items.map((a) => ({ ...a }));
  const lines = [`Run ${runId}: ${detail ? detail.status : "status not read"}.`];
  for (const a of items)
    lines.push(
      `- artifact ${a.id}${a.type ? ` (${a.type})` : ""}${a.description ? `: ${a.description}` : ""}, at ${artifactUri(runId, a.id)}`,
    );
  if (items.length > 0)
    lines.push(
      "Download or preview one: job_runs with run_id and artifact_id (preview: true); or read its URI.",
    );
  const count = (detail as { summary?: { result_count?: unknown } } | undefined)?.summary?.result_count;
  const rows = typeof count === "number" ? `, ${plural(count, "row")}` : "";
  const links = items.map((a) => ({
    uri: artifactUri(runId, a.id),
    name: a.id,
    description: `${a.type ? `${a.type} artifact` : "Artifact"} of the run, JSONL${rows}`,
    mimeType: "application/jsonl",
  }));
  return {
    structured: {
      ...(jobId ? { job_id: jobId } : {}),
      ...(detail ? { run: { ...detail } } : {}),
      artifacts: items,
      ...(unread.length > 0 ? { unread } : {}),
    },
    text: lines.join("\n") + unreadText(unread, "The artifact list above is complete"),
    links,
  };
}

/** The jobs, one line each (no id given). */
async function listJobs(args: Args, ctx: ToolContext) {
  const page = await ctx.client.listJobs({ limit: args.limit, offset: args.offset }, { signal: ctx.signal });
  const jobs = page.items.map((j) => ({ ...j }));
  const lines = [`${plural(jobs.length, "job")}${page.total !== undefined ? ` of ${page.total}` : ""}:`];
  for (const j of page.items)
    lines.push(
      `- ${j.id} (${j.name ?? ""}): template ${j.extract_template_name ?? j.agent_name ?? "?"}, schedule ${j.schedule?.cron ?? "none"}${j.last_run_status ? `, last run ${j.last_run_status}` : ""}`,
    );
  return {
    structured: { jobs, ...(page.total !== undefined ? { total: page.total } : {}) },
    text: lines.join("\n"),
  };
}

/** The fields of a run the answer keeps, in this order. */
const RUN_FIELDS = [
  "job_id",
  "triggered_by",
  "created_at",
  "started_at",
  "finished_at",
  "input_count",
  "result_count",
  "artifact_ids",
] as const;

/** A run as the answer shows it: its id, its status ("unknown" when not given) and the fields given. */
function runRow(
  r: { id: string; status?: string } & Partial<Record<(typeof RUN_FIELDS)[number], unknown>>,
): Run {
  const row: Run = { id: r.id, status: r.status ?? "unknown" };
  for (const k of RUN_FIELDS) {
    if (r[k] !== undefined) (row as Record<string, unknown>)[k] = r[k];
  }
  return row;
}

/** One page of a job's runs, with the offset of the next page when there is one. */
async function jobRunsPage(args: Args & { job_id: string }, ctx: ToolContext) {
  const page = { limit: args.limit, offset: args.offset };
  const list = await ctx.client.jobRuns(args.job_id, page, { signal: ctx.signal });
  const runs = list.items.map(runRow);
  const offset = list.offset ?? args.offset;
  const total = list.total ?? offset + runs.length;
  const next = offset + runs.length < total ? offset + runs.length : undefined;
  const lines = [
    `Job ${args.job_id}: ${list.total !== undefined ? plural(list.total, "run") : "? runs"}; showing ${runs.length} from offset ${offset}.`,
  ];
  for (const r of runs) {
    const counts = r.result_count !== undefined ? `, ${plural(r.result_count, "result")}` : "";
    const arts = r.artifact_ids?.length ? `, artifacts: ${r.artifact_ids.join(", ")}` : "";
    lines.push(`- ${r.id}: ${r.status} (${r.triggered_by}, ${r.created_at}${counts}${arts})`);
  }
  if (next !== undefined) lines.push(`More: offset ${next}.`);
  return {
    structured: {
      job_id: args.job_id,
      runs,
      total: list.total,
      offset: list.offset,
      ...(next !== undefined ? { next_offset: next } : {}),
    },
    text: lines.join("\n"),
  };
}

/** An artifact's download URL and, with `preview`, its first rows (auxiliary: a failed preview keeps the URL). */
async function artifactDownload(args: Args & { run_id: string; artifact_id: string }, ctx: ToolContext) {
  const opts = { signal: ctx.signal };
  const unread: string[] = [];
  const d = await ctx.client.artifactDownloadUrl(args.run_id, args.artifact_id, opts);
  const rows = args.preview
    ? await auxiliary(
        "the preview",
        ctx.client.artifactPreview(args.run_id, args.artifact_id, args.job_id, opts),
        unread,
      )
    : undefined;
  const download = {
    url: d.url,
    expires_at: d.expires_at,
    run_id: args.run_id,
    artifact_id: args.artifact_id,
  };
  const preview = rows && {
    columns: rows.columns ?? [],
    rows: rows.rows.slice(0, 10),
    row_count: rows.row_count,
  };
  const previewText = preview
    ? `\nPreview (${preview.rows.length} of ${rows?.row_count ?? "?"} rows):\n${preview.rows.map((r) => JSON.stringify(r)).join("\n")}`
    : "";
  return {
    structured: {
      ...(args.job_id ? { job_id: args.job_id } : {}),
      download: { ...download, ...(preview ? { preview } : {}) },
      ...(unread.length > 0 ? { unread } : {}),
    },
    text: `Download URL for artifact ${args.artifact_id} of run ${args.run_id} (expires ${d.expires_at}):\n${d.url}${previewText}${unreadText(unread, "The download URL above stands")}`,
  };
}
