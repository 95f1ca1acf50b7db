/**
 * `run_template`: runs a v2 extract template (`POST /v2/extract/templates/run`), or one task per
 * item of `inputs` (`POST /v2/extract/templates/batch` + waiting). Params are checked against the
 * template version's JSON-Schema `input_schema` first (`version`, default the latest). Without
 * params it shows the input schema; `list_versions` lists the versions page by page.
 */
import { z } from "zod";
import type { TaskResult, TemplateVersion } from "../api/schemas.js";
import { phaseOf, succeeded } from "../async/states.js";
import { ToolError } from "./errors.js";
import {
  assertResultOk,
  clip,
  longToolShape,
  maxCharsArg,
  pendingResult,
  plural,
  throwFailed,
} from "./result.js";
import { assertTemplateParams, describeTemplateInput, pickVersion } from "./template-params.js";
import { defineTool, type ToolContext } from "./tool.js";

const FORMATS = ["html", "markdown"] as const;
const MAX_BATCH_RESULTS = 50;

const input = () => ({
  template: z.string().min(1).describe("Template name"),
  params: z.record(z.string(), z.unknown()).optional().describe("The template's params"),
  inputs: z
    .array(z.strictObject({ params: z.record(z.string(), z.unknown()).describe("This run's params") }))
    .min(1)
    .max(1000)
    .optional()
    .describe("Batch: one run each"),
  formats: z.array(z.enum(FORMATS)).optional().describe("Also return page bodies"),
  localization: z.boolean().optional().describe("Localize the run"),
  version: z.number().int().min(1).optional().describe("Default: latest"),
  list_versions: z.boolean().default(false).describe("List the template's versions instead"),
  limit: z.number().int().min(1).max(200).default(20).describe("Versions per page"),
  offset: z.number().int().min(0).default(0).describe("Versions to skip"),
  max_chars: maxCharsArg(),
});
type Args = z.output<z.ZodObject<ReturnType<typeof input>>>;

export const runTemplate = defineTool({
  name: "run_template",
  title: "Run an extract template",
  description: "Structured JSON from a pre-built extract template. Omit params to see its input schema.",
  toolset: "templates",
  routes: ["runTemplate", "templatesBatch", "listTemplateVersions"],
  examples: [
    { template: "ecommerce_product" },
    { template: "ecommerce_product", params: { url: "https://shop.example.com/p/1" } },
  ],
  input,

  output: () => ({
    ...longToolShape(),
    template: z.string(),
    version: z.number().optional(),
    task_id: z.string().optional(),
    batch_id: z.string().optional(),
    parsing: z.unknown().optional(),
    content: z.string().optional().describe("formats: the page body, cut at max_chars as in the text"),
    chars: z.number().optional().describe("Characters of content"),
    results: z
      .array(z.looseObject({ index: z.number(), state: z.string() }))
      .optional()
      .describe("Batch: task_id, state, parsing or error per input"),
    input_schema: z.record(z.string(), z.unknown()).optional(),
    versions: z.array(z.looseObject({ version_number: z.number() })).optional(),
    total: z.number().optional(),
    next_offset: z.number().optional(),
    notes: z.array(z.string()).optional(),
  }),
  readOnly: true,
  longRunning: true,
  async handler(args, ctx) {
    const { template } = args;
    if (args.list_versions) return listVersions(ctx, template, args.limit, args.offset);
    if (args.params && args.inputs) {
      throw new ToolError("invalid_argument", "Pass either params (one run) or inputs (a batch), not both.");
    }
    const v = await pickVersion(ctx.client, template, args.version, ctx.signal);
    if (args.inputs) return runBatch({ ...args, inputs: args.inputs }, v, ctx);
    if (args.params) return runOne({ ...args, params: args.params }, v, ctx);
    return {
      structured: {
        status: "done" as const,
        template,
        version: v.version_number,
        input_schema: v.input_schema,
      },
      text: `Template ${template} v${v.version_number} takes:\n${describeTemplateInput(v, template)}\nCall again with params.`,
    };
  },
});

const notesOf = (notes: string[]) => (notes.length > 0 ? { notes } : {});

function single(
  result: TaskResult,
  common: { template: string; version: number },
  maxChars: number,
  notes: string[],
) {
  const parsing = result.data?.parsing;
  const structured: Record<string, unknown> = { status: "done", ...common, parsing, ...notesOf(notes) };
  if (result.task_id) structured.task_id = result.task_id;
  const lines = [
    `Template ${common.template} v${common.version}:`,
    clip(JSON.stringify(parsing ?? null, null, 1), maxChars).text,
  ];
  const body = result.data?.markdown ?? result.data?.html;
  if (body) {
    // In both parts: a framework hands its model one or the other (src/tools/page-format.ts).
    const text = clip(body, maxChars).text;
    structured.content = text;
    structured.chars = text.length;
    lines.push("", text);
  }
  return { structured: structured as { status: "done"; template: string }, text: lines.join("\n") };
}

async function collect(ctx: ToolContext, batchId: string, ids?: string[]) {
  const taskIds =
    ids && ids.length > 0
      ? ids
      : (await ctx.client.getBatch(batchId, { signal: ctx.signal })).tasks.map((t) => t.id);
  const out = [];
  for (const [index, task_id] of taskIds.slice(0, MAX_BATCH_RESULTS).entries()) {
    try {
      const r = (await ctx.client.getTaskResults(task_id, { signal: ctx.signal })) as TaskResult & {
        error?: string;
      };
      const state = r.task?.state ?? (r.status === "error" ? "error" : "success");
      if (phaseOf("item", state) === "failed")
        out.push({ index, task_id, state, error: r.error ?? "task failed" });
      else out.push({ index, task_id, state, parsing: r.data?.parsing });
    } catch (e) {
      out.push({ index, task_id, state: "error", error: e instanceof Error ? e.message : String(e) });
    }
  }
  return out;
}

async function listVersions(ctx: ToolContext, template: string, limit: number, offset: number) {
  const list = await ctx.client.listTemplateVersions(template, { limit, offset }, { signal: ctx.signal });
  const versions = list.items.map((v) => ({
    version_number: v.version_number,
    id: v.id,
    created_at: v.created_at,
    ...(v.metadata?.description ? { description: v.metadata.description } : {}),
  }));
  const at = list.offset ?? offset;
  const total = list.total ?? at + list.items.length;
  const next = at + list.items.length < total ? at + list.items.length : undefined;
  const lines = [
    `Template ${template}: ${list.total !== undefined ? plural(list.total, "version") : "? versions"}; showing ${versions.length} from offset ${at}.`,
  ];
  for (const v of versions)
    lines.push(`- v${v.version_number} (${v.created_at})${v.description ? ` ${v.description}` : ""}`);
  if (next !== undefined) lines.push(`More: offset ${next}.`);
  return {
    structured: {
      status: "done" as const,
      template,
      versions,
      total: list.total,
      ...(next !== undefined ? { next_offset: next } : {}),
    },
    text: lines.join("\n"),
  };
}

/** One run with `params`, checked against the version's input schema first. */
async function runOne(
  args: Args & { params: Record<string, unknown> },
  v: TemplateVersion,
  ctx: ToolContext,
) {
  const { template } = args;
  const notes = assertTemplateParams(v, args.params);
  const result = await ctx.client.runTemplate(
    { template, params: args.params, formats: args.formats, localization: args.localization },
    { signal: ctx.signal },
  );
  assertResultOk(result, `run of template ${template}`);
  return single(result, { template, version: v.version_number }, args.max_chars, notes);
}

/** A batch, one task per item of `inputs` (each checked first): waits for it, then collects its results. */
async function runBatch(
  args: Args & { inputs: { params: Record<string, unknown> }[] },
  v: TemplateVersion,
  ctx: ToolContext,
) {
  const { template } = args;
  const common = { template, version: v.version_number };
  let notes: string[] = [];
  args.inputs.forEach((item, i) => {
    notes = assertTemplateParams(v, item.params, `inputs[${i}].params`);
  });
  const submitted = await ctx.client.templatesBatch(
    {
      inputs: args.inputs.map((item) => ({ params: item.params })),
      shared_inputs: { template, formats: args.formats, localization: args.localization },
    },
    { signal: ctx.signal },
  );
  const outcome = await ctx.wait({ kind: "batch", id: submitted.batch_id });
  if (outcome.status === "pending") return pendingResult(outcome, common);
  if (outcome.status === "failed") throwFailed(outcome);
  const taskIds = submitted.tasks?.flatMap((t) => (t.id ? [t.id] : []));
  const results = await collect(ctx, submitted.batch_id, taskIds);
  const ok = results.filter((r) => succeeded("item", r.state)).length;
  const text = [
    `Template ${template} batch ${submitted.batch_id}: ${ok}/${results.length} succeeded.`,
    clip(JSON.stringify(results, null, 1), args.max_chars).text,
  ].join("\n");
  return {
    structured: {
      status: "done" as const,
      ...common,
      batch_id: submitted.batch_id,
      results,
      ...notesOf(notes),
    },
    text,
  };
}
