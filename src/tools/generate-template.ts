/**
 * `generate_template`: POST /v2/extract/templates/generations (generation 1
 * /v1/agents/generations), create from a prompt and an example page, or refine an existing
 * template; polls the generation with progress and returns the generated version with a ready
 * `run_template` call. The creating POST is sent once, never retried.
 */
import { z } from "zod";
import { templateExampleParams } from "../agents/example-params.js";
import type { GenerationRecord } from "../api/schemas-v2.js";
import { createOnce, refreshCatalog } from "./creation.js";
import { ToolError } from "./errors.js";
import { urlArg } from "./extract-page.js";
import { longToolShape, pendingResult } from "./result.js";
import { defineTool } from "./tool.js";

const schemaArg = () => z.record(z.string(), z.unknown());

/**
 * The new version's example params (src/agents/example-params.ts: each value passes its
 * input_schema), with the example page for a `url` param the schema accepts; undefined when a
 * required param has no value that passes (the call then shows the schema instead).
 */
function exampleParams(inputSchema: Record<string, unknown> | undefined, url: string | undefined) {
  const version = {
    name: "",
    version_number: 1,
    input_schema: inputSchema ?? {},
    output_schema: {},
    metadata: {},
  };
  const built = templateExampleParams(version);
  if (built.missing.length > 0) return undefined;
  const props = inputSchema?.properties;
  if (!url || typeof props !== "object" || props === null || !("url" in props)) return built.params;
  return templateExampleParams({ ...version, samples: [{ input: { ...built.params, url } }] }).params;
}

function doneResult(g: GenerationRecord, url: string | undefined) {
  const v = g.generated_version;
  if (!v)
    throw new ToolError(
      "invalid_response",
      `Generation ${g.id} ended ${g.status} without a generated version.`,
    );
  const name = v.name ?? g.name ?? "";
  const params = exampleParams(v.input_schema, url);
  const call = { tool: "run_template", arguments: { template: name, ...(params ? { params } : {}) } };
  const fields = Object.keys((v.output_schema?.properties as object) ?? {});
  const versionId = v.id ?? g.generated_version_id ?? "";
  const structured = {
    status: "done" as const,
    state: g.status,
    generation_id: g.id,
    template: name,
    generated_version_id: versionId,
    ...(v.version_number !== undefined ? { version_number: v.version_number } : {}),
    ...(g.source_version_id ? { source_version_id: g.source_version_id } : {}),
    version: {
      id: versionId,
      version_number: v.version_number,
      input_schema: v.input_schema ?? {},
      output_schema: v.output_schema ?? {},
    },
    ...(g.summary ? { summary: g.summary } : {}),
    run: call,
  };
  const publish = { action: "update", template: name, published_version_id: versionId };
  const text = [
    `Template ${name} v${v.version_number ?? "?"} generated (generation ${g.id}): generated_version_id ${versionId || "not given"}${g.source_version_id ? `, refined from version ${g.source_version_id}` : ""}.`,
    ...(g.summary ? [g.summary] : []),
    `Output fields: ${fields.join(", ") || "(none)"}`,
    `Run it: run_template ${JSON.stringify(call.arguments)}`,
    ...(versionId ? [`Publish this version: manage_template ${JSON.stringify(publish)}`] : []),
    `Refine it: generate_template {"from_extract_template":${JSON.stringify(name)},"prompt":"…"}`,
  ].join("\n");
  return { structured, text };
}

export const generateTemplate = defineTool({
  name: "generate_template",
  title: "Generate a template",
  description:
    "Create an extract template from a prompt and example page, or refine one. Billed: look for an existing one with list_agents first.",
  toolset: "templates",
  optIn: true,
  routes: ["createGeneration", "getGeneration"],
  longRunning: true,
  examples: [{ prompt: "Extract the title, price and rating", url: "https://shop.example.com/p/1" }],
  input: () => ({
    prompt: z.string().min(1).max(10_000).optional().describe("What to extract, or to change"),
    url: urlArg().optional().describe("Example page (new)"),
    name: z.string().min(3).max(64).optional().describe("a-z, 0-9, _"),
    output_schema: schemaArg().optional().describe("JSON Schema of the fields to extract"),
    input_schema: schemaArg().optional().describe("JSON Schema of the run params"),
    from_extract_template: z.string().min(1).optional().describe("Template to refine"),
    generation_id: z.string().min(1).optional().describe("Resume waiting on this generation"),
  }),
  output: () => ({
    ...longToolShape(),
    generation_id: z.string(),
    template: z.string().optional(),
    generated_version_id: z.string().optional().describe("Publish with manage_template published_version_id"),
    version_number: z.number().optional(),
    source_version_id: z.string().optional().describe("The version a refinement started from"),
    version: z.looseObject({ id: z.string() }).optional(),
    summary: z.string().optional(),
    run: z.object({ tool: z.string(), arguments: z.record(z.string(), z.unknown()) }).optional(),
  }),
  readOnly: false,
  async handler(args, ctx) {
    let id = args.generation_id;
    if (!id) {
      const body = requestBody(args);
      const created = await createOnce("template generation", generationCheck(args), () =>
        ctx.client.createGeneration(body, { signal: ctx.signal }),
      );
      id = created.id;
      await ctx.progress({ progress: 0, message: `generation ${id}: ${created.status}` });
    }
    const outcome = await ctx.wait({ kind: "generation", id });
    if (outcome.status === "pending") return pendingResult(outcome);
    const record = outcome.record as GenerationRecord;
    if (outcome.status === "failed") {
      throw new ToolError(
        "task_failed",
        `Generation ${id} ${outcome.state}: ${outcome.error ?? "no reason given"}.`,
        {
          id,
          error: outcome.error,
        },
      );
    }
    // The new template (or version) is in the catalog now: agent tools and list_agents follow.
    const done = doneResult(record, args.url);
    const note = await refreshCatalog(ctx.services);
    return note ? { ...done, text: `${done.text}\n${note}` } : done;
  },
});

function requestBody(args: {
  prompt?: string;
  url?: string;
  name?: string;
  output_schema?: Record<string, unknown>;
  input_schema?: Record<string, unknown>;
  from_extract_template?: string;
}): Record<string, unknown> {
  const problems: string[] = [];
  if (!args.prompt) problems.push("prompt: required to create or refine a template");
  if (args.from_extract_template) {
    for (const k of ["url", "name", "output_schema", "input_schema"] as const)
      if (args[k] !== undefined)
        problems.push(`${k}: not with from_extract_template (a refinement takes only prompt)`);
    if (problems.length) throw new ToolError("invalid_argument", problems.join("\n"), { fields: problems });
    // The client takes generation-1 names; generation 2 sends from_extract_template.
    return { from_agent: args.from_extract_template, prompt: args.prompt };
  }
  if (!args.url) problems.push("url: the example page a new template is generated from");
  if (problems.length)
    throw new ToolError("invalid_argument", [...problems, "Or pass generation_id to resume."].join("\n"), {
      fields: problems,
    });
  const { from_extract_template: _f, ...body } = args;
  return body;
}

/** What settles a generation in doubt (the service has no listing of generations). */
function generationCheck(args: { name?: string; url?: string; from_extract_template?: string }): string {
  if (args.from_extract_template)
    return `list_agents {"name":"${args.from_extract_template}"} (a new version of that template)`;
  if (args.name) return `list_agents {"name":"${args.name}"} (the template it makes)`;
  return `list_agents {"privacy":"private"} (the account's own templates: a new one for ${args.url})`;
}
