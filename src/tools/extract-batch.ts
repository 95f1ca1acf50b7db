/** `extract_batch`: many pages at once through POST /v1/extract/batch, waited on and summarised. */
import { z } from "zod";
import { buildOnce } from "../api/lazy-schema.js";
import { EXTRACT_FORMATS } from "../api/schemas.js";
import { succeeded } from "../async/states.js";
import { argumentProblems } from "./argument-errors.js";
import { collectPages, linkedShape, pagesPart, type TaskRef, taskItem } from "./collect.js";
import { invalidArguments } from "./errors.js";
import { urlArg } from "./extract-page.js";
import { normalizeArgs } from "./normalize-args.js";
import { longToolShape, maxCharsArg, pendingResult } from "./result.js";
import { defineTool } from "./tool.js";

/** Pages listed in one result; the rest are paged through get_task. */
export const LIST_LIMIT = 50;

const options = buildOnce(() => ({
  render: z.boolean().optional().describe("Run JavaScript first (slower)"),
  formats: z.array(z.enum(EXTRACT_FORMATS)).min(1).optional().describe("What to return"),
  country: z.string().length(2).optional().describe("ISO alpha-2"),
}));
const item = buildOnce(() => z.strictObject({ url: urlArg(), ...options() }));
const itemJson = buildOnce(
  () => z.toJSONSchema(item(), { target: "draft-7", io: "input" }) as Record<string, unknown>,
);

/**
 * Items are listed as `{url}` (closed, as strict mode needs) but accept `shared_inputs`' members
 * as overrides too, checked here: spelling the three members out again in every item's schema
 * would cost ~65 tokens of tools/list in every conversation for a rarely used option.
 */
function checkOverrides(inputs: ReadonlyArray<Record<string, unknown>>): void {
  const schema = item();
  const problems = inputs.flatMap((given, i) => {
    const checked = schema.safeParse(normalizeArgs(schema, given));
    return checked.success
      ? []
      : argumentProblems(checked.error, { prefix: `inputs[${i}]`, json: itemJson(), args: given });
  });
  if (problems.length > 0) {
    throw invalidArguments(
      "extract_batch",
      problems,
      "An item takes url and, to override shared_inputs, render, formats or country.",
    );
  }
}

export const extractBatch = defineTool({
  name: "extract_batch",
  title: "Extract many pages",
  description: "Read many pages at once as Markdown; prefer over repeated extract_page.",
  toolset: "extract",
  routes: ["extractBatch"],
  examples: [
    { inputs: [{ url: "https://example.com/a" }, { url: "https://example.com/b" }], max_chars: 4000 },
  ],
  input: () => ({
    inputs: z
      .array(z.looseObject({ url: urlArg().describe("Absolute http(s) URL") }))
      .min(1)
      .max(1000)
      .describe("Each {url}, may override shared_inputs"),
    shared_inputs: z.strictObject(options()).optional().describe("Options for every item"),
    max_chars: maxCharsArg(),
  }),
  output: () => ({
    ...longToolShape(),
    batch_id: z.string(),
    total: z.number().optional(),
    completed: z.number().optional(),
    pages: z.array(taskItem()).optional(),
    ...linkedShape(),
    next_offset: z.number().optional().describe("More pages: get_task with batch_id and this offset"),
  }),
  readOnly: true,
  longRunning: true,
  async handler(args, ctx) {
    checkOverrides(args.inputs);
    const submission = await ctx.client.extractBatch(
      { inputs: args.inputs, shared_inputs: args.shared_inputs ?? {} },
      { signal: ctx.signal },
    );
    const { batch_id } = submission;
    const outcome = await ctx.wait({ kind: "batch", id: batch_id });
    if (outcome.status === "pending") return pendingResult(outcome, { total: submission.batch_size });

    const urls = new Map<string, string>();
    submission.tasks?.forEach((t, i) => {
      const input = t.input as { url?: unknown } | undefined;
      const url = typeof input?.url === "string" ? input.url : args.inputs[i]?.url;
      if (url && t.id) urls.set(t.id, url);
    });
    const detail = await ctx.client.getBatch(batch_id, { signal: ctx.signal });
    const refs: TaskRef[] = detail.tasks.map((t) => ({
      id: t.id,
      state: t.state,
      url: urls.get(t.id) ?? (typeof t.url === "string" ? t.url : undefined),
      error: typeof t.error === "string" ? t.error : undefined,
    }));
    const listed = refs.slice(0, LIST_LIMIT);
    const items = await collectPages(ctx.client, listed, args.max_chars, ctx.signal);
    const { markdown, links, ...part } = pagesPart(items, "the batch");
    const ok = refs.filter((r) => succeeded("item", r.state)).length;
    const lines = [`# Batch ${batch_id}: ${ok}/${refs.length} pages succeeded`];
    if (refs.length > LIST_LIMIT) {
      lines.push(
        `Listing ${LIST_LIMIT} of ${refs.length}; the rest: get_task {"batch_id":"${batch_id}","offset":${LIST_LIMIT}}`,
      );
    }
    lines.push("", markdown);
    return {
      structured: {
        status: "done" as const,
        state: outcome.state,
        batch_id,
        total: refs.length,
        completed: ok,
        ...part,
        ...(refs.length > LIST_LIMIT ? { next_offset: LIST_LIMIT } : {}),
      },
      text: lines.join("\n"),
      links,
    };
  },
});
