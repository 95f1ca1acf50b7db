/**
 * Extract templates (v2): POST /v2/extract/templates/run (sync), /async, /batch and GET
 * /v2/extract/templates/{name}/versions (bearer optional: the spec's samples send none). All but
 * /async are listed by the generation-1 spec too (`specV2`, the live dialect's shapes). A run
 * names a template of the store or an agent of the catalog (generation 2 calls agents templates).
 * Params are checked against the current version's input_schema (the published one, else the newest).
 */
import type { AgentDetail, OutputFragment, TemplateVersion, ValidationDetail } from "../../api/schemas.js";
import { pageQuery, TemplateBatchRequestSchema, TemplateRunRequestSchema } from "../../api/schemas.js";
import { checkParams } from "../agents/params.js";
import { createAgentTask } from "../agents/run.js";
import type { SandboxState } from "../context.js";
import * as live from "../dialect.js";
import { staggeredDelay } from "../extract.js";
import * as v2 from "../generation2.js";
import { type Ctx, notFound, parseBody, parseQuery, validationResponse } from "../http.js";
import type { Route } from "../routing.js";
import { agentVersion } from "../templates/as-template.js";
import { checkJsonSchema } from "../templates/json-schema.js";
import { stripUndefined, submission } from "./extract.js";

/** The listing's limit/offset query (one schema, built once: zod compiles each on first use). */
const VERSIONS_QUERY = pageQuery(200, 20);

/** A template's current version, seen as an agent so runs share the agent machinery. */
function asAgent(version: TemplateVersion): AgentDetail {
  const m = version.metadata;
  return {
    name: version.name,
    is_public: true,
    display_name: m.display_name ?? version.name,
    vertical: m.vertical ?? null,
    entity_type: m.entity_type ?? null,
    domain: m.domain ?? null,
    output_schema: (version.output_schema.properties ?? {}) as Record<string, OutputFragment>,
  };
}

interface TemplateRun {
  template?: string;
  params?: Record<string, unknown>;
  formats?: string[];
  localization?: boolean;
}

/**
 * The template a run names, with its params checked: a template of the store (against its
 * current version's input_schema) or an agent of the catalog (generation 2 calls agents
 * templates; checked as the agent checks them).
 */
function resolve(state: SandboxState, run: TemplateRun, loc: (string | number)[]) {
  const version = run.template ? state.templates.current(run.template) : undefined;
  if (version) {
    const detail: ValidationDetail[] = checkJsonSchema(version.input_schema, run.params ?? {}, [
      ...loc,
      "params",
    ]);
    return { ok: true as const, agent: asAgent(version), params: run.params ?? {}, detail };
  }
  const agent = run.template ? state.catalog.get(run.template) : undefined;
  if (!agent) return { ok: false as const, unknown: run.template };
  const checked = checkParams(agent.name, agent.input_properties, run.params ?? {}, [...loc, "params"]);
  return { ok: true as const, agent, params: checked.params, detail: checked.detail };
}

/** One checked template run (`delayMs` 0: the sync run), or the error response. */
async function runOne(c: Ctx, state: SandboxState, delayMs: number) {
  const body = await parseBody(c, TemplateRunRequestSchema);
  if (!body.ok) return body.response;
  const found = resolve(state, body.data, ["body"]);
  if (!found.ok) return notFound(c, `Template '${found.unknown}'`);
  if (found.detail.length > 0) return validationResponse(c, found.detail);
  const callback = body.data.callback_url;
  const params = typeof callback === "string" ? { callback_url: callback, ...found.params } : found.params;
  const input = { ...body.data, agent: found.agent.name, params };
  return createAgentTask(state, found.agent, input, { ...submission(c), delayMs }, "template", body.data);
}

/** A template that is neither in the store nor an agent of the catalog. */
const unknownTemplate = (template: string) => [
  {
    loc: ["body", "shared_inputs", "template"],
    msg: `Template '${template}' not found`,
    type: "value_error",
    input: template,
  },
];

const batch: Route["handle"] = async (c, { state }) => {
  const body = await parseBody(c, TemplateBatchRequestSchema);
  if (!body.ok) return body.response;
  const { inputs, shared_inputs } = body.data;
  if (!state.templates.current(shared_inputs.template) && !state.catalog.get(shared_inputs.template))
    return validationResponse(c, unknownTemplate(shared_inputs.template));
  const runs = inputs.map((item) => ({
    ...shared_inputs,
    ...stripUndefined(item),
    params: { ...shared_inputs.params, ...item.params },
  }));
  const found = runs.map((run, i) => resolve(state, run, ["body", "inputs", i]));
  const detail = found.flatMap((f, i) =>
    f.ok
      ? f.detail
      : [
          {
            loc: ["body", "inputs", i, "template"],
            msg: `Template '${String(f.unknown)}' not found`,
            type: "value_error",
            input: f.unknown,
          },
        ],
  );
  if (detail.length > 0) return validationResponse(c, detail);
  const batchId = state.batches.newId();
  const latency = state.config.taskLatencyMs;
  const tasks = runs.map((run, i) => {
    const f = found[i] as Extract<(typeof found)[number], { ok: true }>;
    return createAgentTask(
      state,
      f.agent,
      { ...run, agent: f.agent.name, params: f.params },
      { ...submission(c), batchId, delayMs: staggeredDelay(latency, i, runs.length) },
      "template",
      run,
    );
  });
  return state.batches.submit(batchId, "template", tasks);
};

export const TEMPLATE_ROUTES: Route[] = [
  {
    method: "GET",
    2: { path: "/v2/extract/templates/:name/versions", specV2: true, live: live.templateVersions },
    handle: (c, { state }) => {
      const query = parseQuery(c, VERSIONS_QUERY);
      if (!query.ok) return query.response;
      const name = c.req.param("name") ?? "";
      const agent = state.catalog.get(name);
      const versions = state.templates.versionsOf(name) ?? (agent ? [agentVersion(agent)] : undefined);
      if (!versions) return notFound(c, `Template '${name}'`);
      const { limit, offset } = query.data;
      return { items: versions.slice(offset, offset + limit), limit, offset, total: versions.length };
    },
  },
  {
    method: "POST",
    2: { path: "/v2/extract/templates/run", specV2: true, live: live.taskResult },
    handle: async (c, { state }) => {
      const task = await runOne(c, state, 0);
      return task instanceof Response ? task : state.tasks.result(task);
    },
  },
  {
    method: "POST",
    2: { path: "/v2/extract/templates/async", reply: v2.submitted },
    handle: async (c, { state }) => {
      const task = await runOne(c, state, state.config.taskLatencyMs);
      return task instanceof Response ? task : { task_id: task.id };
    },
  },
  {
    method: "POST",
    2: { path: "/v2/extract/templates/batch", specV2: true, live: live.batchSubmission },
    handle: batch,
  },
];
