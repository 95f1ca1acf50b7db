/**
 * `manage_job`: create (`POST /v2/jobs`), update (`PATCH /v2/jobs/{id}`), delete or trigger
 * (`POST /v2/jobs/{id}/runs`) a recurring job; generation 1 `/v1/jobs…` with `agent_name`.
 * Creating and triggering bill: each is sent once, never retried.
 */
import { z } from "zod";
import { createOnce } from "./creation.js";
import { ToolError } from "./errors.js";
import { defineTool } from "./tool.js";

export const manageJob = defineTool({
  name: "manage_job",
  title: "Create, change, delete or trigger a job",
  description:
    "Recurring jobs running a template over inputs: create, update, delete, or trigger a run. Follow runs with job_runs; stop one with cancel.",
  toolset: "manage",
  routes: ["createJob", "updateJob", "deleteJob", "triggerJob"],
  examples: [{ action: "trigger", job_id: "job_daily_prices" }],
  input: () => ({
    action: z.enum(["create", "update", "delete", "trigger"]).describe("trigger: run now"),
    job_id: z.string().min(1).optional().describe("For update, delete, trigger"),
    name: z.string().min(1).optional().describe("create"),
    extract_template_name: z.string().min(1).optional().describe("create"),
    display_name: z.string().optional().describe("Shown name"),
    description: z.string().optional().describe("What the job is for"),
    schedule: z
      .object({
        cron: z.string().min(1).describe("Cron expression, e.g. 0 6 * * *"),
        enabled: z.boolean().describe("Runs on schedule"),
      })
      .optional()
      .describe("When it runs"),
    inputs: z
      .object({
        type: z.enum(["s3", "inline", "file"]).describe("Where inputs come from"),
        data: z
          .array(z.record(z.string(), z.unknown()))
          .optional()
          .describe("inline: one params object per run"),
        file_path: z.string().optional().describe("s3, file: location"),
      })
      .optional()
      .describe("The template's params for each run"),
    destination: z
      .object({
        type: z.enum(["file", "s3"]).describe("Where results go"),
        path: z.string().describe("File or S3 path"),
        format: z.enum(["jsonl", "csv", "parquet"]).optional().describe("File format"),
      })
      .optional()
      .describe("Where results go"),
  }),
  output: () => ({
    action: z.string(),
    job_id: z.string(),
    run_id: z.string().optional(),
    status: z.string().optional(),
  }),
  readOnly: false,
  destructive: true,
  async handler(args, ctx) {
    const opts = { signal: ctx.signal };
    const { action, job_id, name, extract_template_name, ...fields } = args;
    if (action === "create") {
      if (!name || !extract_template_name)
        throw new ToolError(
          "invalid_argument",
          ["name, extract_template_name: both needed to create a job"].join(" "),
        );
      // The client takes the generation-1 name (agent_name); generation 2 sends extract_template_name.
      const job = await createOnce("job", `job_runs {} (the job list: a job named "${name}")`, () =>
        ctx.client.createJob({ name, agent_name: extract_template_name, ...fields }, opts),
      );
      return { structured: { action, job_id: job.id }, text: `Job ${job.id} (${name}) created.` };
    }
    if (!job_id) throw new ToolError("invalid_argument", [`job_id: needed to ${action} a job`].join(" "));
    if (action === "update") {
      await ctx.client.updateJob(job_id, fields, opts);
      return { structured: { action, job_id }, text: `Job ${job_id} updated.` };
    }
    if (action === "delete") {
      await ctx.client.deleteJob(job_id, opts);
      return { structured: { action, job_id }, text: `Job ${job_id} deleted.` };
    }
    const run = await createOnce(
      "job run",
      `job_runs {"job_id":"${job_id}"} (its runs, newest first)`,
      () => ctx.client.triggerJob(job_id, opts),
      job_id,
    );
    return {
      structured: { action, job_id, run_id: run.id, status: run.status },
      text: `Run ${run.id} of job ${job_id} started (${run.status}). Follow it: job_runs {"run_id":"${run.id}","job_id":"${job_id}"}; stop it: cancel {"run_id":"${run.id}","job_id":"${job_id}"}.`,
    };
  },
});
