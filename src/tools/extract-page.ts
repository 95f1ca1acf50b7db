/**
 * `extract_page`: one page as Markdown. Sync `POST /v1/extract`, or `/v1/extract/async` plus
 * waiting when `render` is true or a screenshot is asked for.
 */
import { z } from "zod";
import { buildOnce } from "../api/lazy-schema.js";
import { EXTRACT_FORMATS, type TaskResult } from "../api/schemas.js";
import { pageShape, shapePage } from "./page-format.js";
import { assertResultOk, longToolShape, maxCharsArg, pendingResult, throwFailed } from "./result.js";
import { defineTool } from "./tool.js";

export const urlArg = buildOnce(() =>
  z.url({
    protocol: /^https?$/,
    error: (issue) =>
      issue.input === undefined
        ? "required"
        : "must be an absolute http(s) URL, e.g. https://example.com/page",
  }),
);

export const extractPage = defineTool({
  name: "extract_page",
  title: "Extract a web page",
  description:
    "Read one web page as Markdown (or HTML, headers, links, screenshot). Use render for JavaScript-heavy pages.",
  toolset: "extract",
  routes: ["extract", "extractAsync"],
  examples: [
    { url: "https://example.com/" },
    { url: "https://example.com/", formats: ["markdown", "links"], max_chars: 2000 },
  ],
  input: () => ({
    url: urlArg().describe("Absolute http(s) URL"),
    render: z.boolean().default(false).describe("Run JavaScript first (slower)"),
    formats: z
      .array(z.enum(EXTRACT_FORMATS))
      .min(1)
      .default(["markdown"])
      .describe("screenshot implies render"),
    country: z.string().length(2).optional().describe("ISO alpha-2"),
    max_chars: maxCharsArg(),
  }),
  output: () => ({ ...longToolShape(), ...pageShape() }),
  readOnly: true,
  longRunning: true,
  async handler(args, ctx) {
    const request = { url: args.url, render: args.render, formats: args.formats, country: args.country };
    let result: TaskResult;
    if (args.render || args.formats.includes("screenshot")) {
      const { task_id } = await ctx.client.extractAsync(request, { signal: ctx.signal });
      const outcome = await ctx.wait({ kind: "task", id: task_id });
      if (outcome.status === "pending") return pendingResult(outcome, { url: args.url });
      if (outcome.status === "failed") throwFailed(outcome);
      result = await ctx.client.getTaskResults(task_id, { signal: ctx.signal });
    } else {
      result = await ctx.client.extract(request, { signal: ctx.signal });
      assertResultOk(result, `extract of ${args.url}`);
    }
    const page = shapePage(result, args.max_chars);
    return { structured: { status: "done", ...page.structured }, text: page.text, images: page.images };
  },
});
