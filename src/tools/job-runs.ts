/**
 * `job_runs`: the runs of a job (`GET /v2/jobs/{job_id}/runs`, paginated), or with `run_id` and
 * `artifact_id` the download URL of one run artifact
 * (`GET /v2/jobs/runs/{run_id}/artifacts/{artifact_id}/download-url`).
 */
import { z } from "zod";
import { ToolError } from "./errors.js";
import { plural } from "./result.js";
import { defineTool } from "./tool.js";

const run = z.looseObject({ id: z.string(), status: z.string() });
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

export const jobRuns = defineTool({
  name: "job_runs",
  title: "Job runs and artifacts",
  description:
    "List the runs of a recurring job (status, counts, artifacts), page by page. With run_id and artifact_id, get a temporary download URL for that run's artifact.",
  toolset: "jobs",
  examples: [{ job_id: "job_daily_prices", limit: 5 }],
  input: {
    job_id: idArg().optional().describe("List this job's runs"),
    limit: z.number().int().min(1).max(200).default(20).describe("Runs per page"),
    offset: z.number().int().min(0).default(0).describe("Runs to skip"),
    run_id: idArg().optional().describe("With artifact_id: the run the artifact belongs to"),
    artifact_id: idArg().optional().describe("With run_id: get this artifact's download URL"),
  },
  output: {
    job_id: z.string().optional(),
    runs: z.array(run).optional().describe("Also: created_at, finished_at, result_count, artifact_ids"),
    total: z.number().optional(),
    offset: z.number().optional(),
    next_offset: z.number().optional(),
    download: z.looseObject({ url: z.string(), expires_at: z.string().optional() }).optional(),
  },
  readOnly: true,
  async handler(args, ctx) {
    const opts = { signal: ctx.signal };
    if (args.run_id !== undefined || args.artifact_id !== undefined) {
      if (args.run_id === undefined || args.artifact_id === undefined) {
        throw new ToolError(
          "invalid_argument",
          "Pass both run_id and artifact_id to get an artifact's download URL.",
        );
      }
      const d = await ctx.client.artifactDownloadUrl(args.run_id, args.artifact_id, opts);
      const download = {
        url: d.url,
        expires_at: d.expires_at,
        run_id: args.run_id,
        artifact_id: args.artifact_id,
      };
      return {
        structured: { ...(args.job_id ? { job_id: args.job_id } : {}), download },
        text: `Download URL for artifact ${args.artifact_id} of run ${args.run_id} (expires ${d.expires_at}):\n${d.url}`,
      };
    }
    if (args.job_id === undefined) {
      throw new ToolError(
        "invalid_argument",
        "Pass job_id to list runs, or run_id and artifact_id for a download URL.",
      );
    }
    const list = await ctx.client.jobRuns(args.job_id, { limit: args.limit, offset: args.offset }, opts);
    const runs = list.items.map((r) => {
      const row: Run = { id: r.id, status: r.status ?? "unknown" };
      for (const k of [
        "job_id",
        "triggered_by",
        "created_at",
        "started_at",
        "finished_at",
        "input_count",
        "result_count",
        "artifact_ids",
      ] as const) {
        if (r[k] !== undefined) (row as Record<string, unknown>)[k] = r[k];
      }
      return row;
    });
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
  },
});
