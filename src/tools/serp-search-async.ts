/**
 * `serp_search_async`: one SERP query submitted as a task (POST /v2/serp/async, generation 1
 * /v1/serp/async) that answers at once with its task id; `get_task {task_id}` reads the organic
 * results once it is done. For work an agent starts now and reads later (a rendered SERP, several
 * searches side by side); `serp_search` waits for the answer instead. The submission is sent once
 * (it bills); over HTTP the task is its caller's and carries the server's webhook, both from the
 * route's entry in src/api/routes.ts.
 */
import { z } from "zod";
import { SEARCH_ENGINES } from "../api/schemas.js";
import { createOnce } from "./creation.js";
import { longToolShape, resumeFor } from "./result.js";
import { serpQueryOptions } from "./serp-search.js";
import { defineTool } from "./tool.js";

export const serpSearchAsync = defineTool({
  name: "serp_search_async",
  title: "Search engine results, as a task",
  description:
    "Start one search engine query as a task and get its task_id at once; get_task reads the results when done. For results now, use serp_search.",
  toolset: "search",
  optIn: true,
  routes: ["serpAsync"],
  examples: [{ search_engine: "engine1_search", query: "waterproof hiking boots", num_results: 5 }],
  input: () => ({
    search_engine: z.enum(SEARCH_ENGINES).describe("engine1_search: web search"),
    query: z.string().min(1).describe("What to search for"),
    ...serpQueryOptions(),
  }),
  output: () => ({ ...longToolShape(), task_id: z.string() }),
  readOnly: true,
  async handler(args, ctx) {
    const { task_id } = await createOnce("SERP task", "get_task {} (recent tasks, newest first)", () =>
      ctx.client.serpAsync(args, { signal: ctx.signal }),
    );
    const resume = resumeFor({ kind: "task", id: task_id });
    return {
      structured: { status: "pending" as const, task_id, resume },
      text: [
        `Submitted "${args.query}" on ${args.search_engine}.`,
        `task_id: ${task_id}`,
        `Read the results with: get_task ${JSON.stringify(resume.arguments)} (pending until the search is done)`,
      ].join("\n"),
    };
  },
});
