/**
 * `cancel`: ends running work by the kind of its id: a crawl (`DELETE /v2/crawl/{id}`, generation 1
 * `/v1/crawl/{id}`), a job run (`POST /v2/jobs/runs/{id}/cancel`, generation 1 under its job) or
 * an MCP task of the caller (`task_id`, as `tasks/cancel` does: its work stops; over HTTP only the
 * caller's session's tasks are found). API tasks and research runs have no cancel route.
 */
import { z } from "zod";
import { ToolError } from "./errors.js";
import { defineTool, type ToolContext } from "./tool.js";

/** An MCP task of the caller's, by its task id. */
async function cancelTask(taskId: string, ctx: ToolContext) {
  const ended = await ctx.tasks?.cancel(taskId);
  if (!ended) {
    throw new ToolError(
      "not_found",
      `No MCP task ${taskId} of yours (tasks/list lists them). For a crawl pass crawl_id, for a job run run_id.`,
    );
  }
  return {
    structured: { kind: "task" as const, id: taskId, status: ended.status },
    text: ended.ended
      ? `MCP task ${taskId} had already ended (${ended.status}); nothing to stop.`
      : `MCP task ${taskId}: cancelled; its work stopped.`,
  };
}

export const cancel = defineTool({
  name: "cancel",
  title: "Cancel work",
  description: "Stop a running crawl, job run or MCP task: pass crawl_id, run_id or task_id.",
  toolset: "tasks",
  routes: ["cancelCrawl", "cancelJobRun"],
  examples: [{ crawl_id: "00000000-0000-4000-a000-00000000c0de" }],
  input: () => ({
    crawl_id: z.string().min(1).optional().describe("Crawl to stop"),
    run_id: z.string().min(1).optional().describe("Job run to stop"),
    job_id: z.string().min(1).optional().describe("The run's job (API generation 1)"),
    task_id: z.string().min(1).optional().describe("MCP task to stop (its taskId)"),
  }),
  output: () => ({
    kind: z.enum(["crawl", "job_run", "task"]),
    id: z.string(),
    status: z.string(),
  }),
  readOnly: false,
  idempotent: true,
  destructive: true,
  async handler(args, ctx) {
    const given = [args.crawl_id, args.run_id, args.task_id].filter((x) => x !== undefined).length;
    if (given !== 1) {
      throw new ToolError(
        "invalid_argument",
        ["crawl_id, run_id, task_id: pass exactly one (the id of the work to stop)"].join(" "),
      );
    }
    if (args.task_id) return cancelTask(args.task_id, ctx);
    if (args.crawl_id) {
      const ended = await ctx.client.cancelCrawl(args.crawl_id, { signal: ctx.signal });
      return {
        structured: { kind: "crawl" as const, id: args.crawl_id, status: ended.status },
        text: `Crawl ${args.crawl_id}: ${ended.status}. Its pages so far: get_task {"crawl_id":"${args.crawl_id}"}.`,
      };
    }
    const run = args.run_id as string;
    const ended = await ctx.client.cancelJobRun(run, args.job_id, { signal: ctx.signal });
    return {
      structured: { kind: "job_run" as const, id: run, status: ended.status },
      text: `Job run ${run}: ${ended.status}.`,
    };
  },
});
