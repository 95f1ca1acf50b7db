/**
 * Extract templates (v2): POST /v2/extract/templates/run (sync), /async, /batch and GET
 * /v2/extract/templates/{name}/versions (bearer optional: the spec's samples send none). A run
 * names a template of the store or an agent of the catalog (generation 2 calls agents templates).
 * Params are checked against the current version's input_schema (the published one, else the newest).
 */
import { Hono } from "hono";
import type { AgentDetail, OutputFragment, TemplateVersion, ValidationDetail } from "../../api/schemas.js";
import { pageQuery, TemplateBatchRequestSchema, TemplateRunRequestSchema } from "../../api/schemas.js";
import { checkParams } from "../agents/params.js";
import { createAgentTask } from "../agents/run.js";
import type { SandboxState } from "../context.js";
import { staggeredDelay } from "../extract.js";
import { FAULT_HEADER } from "../faults.js";
import { type Ctx, notFound, parseBody, parseQuery, type SandboxEnv, validationResponse } from "../http.js";
import { agentVersion } from "../templates/as-template.js";
import { checkJsonSchema } from "../templates/json-schema.js";
import { stripUndefined } from "./extract.js";

const submission = (c: Ctx) => ({
  target: `${c.req.method} ${c.req.path}`,
  faultHeader: c.req.header(FAULT_HEADER),
});

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

export function templateRoutes(state: SandboxState) {
  const r = new Hono<SandboxEnv>();

  r.get("/v2/extract/templates/:name/versions", (c) => {
    const query = parseQuery(c, pageQuery(200, 20));
    if (!query.ok) return query.response;
    const agent = state.catalog.get(c.req.param("name"));
    const versions =
      state.templates.versionsOf(c.req.param("name")) ?? (agent ? [agentVersion(agent)] : undefined);
    if (!versions) return notFound(c, `Template '${c.req.param("name")}'`);
    const { limit, offset } = query.data;
    return c.json({ items: versions.slice(offset, offset + limit), limit, offset, total: versions.length });
  });

  const run = async (c: Ctx, delayMs: number) => {
    const body = await parseBody(c, TemplateRunRequestSchema);
    if (!body.ok) return { response: body.response };
    const found = resolve(state, body.data, ["body"]);
    if (!found.ok) return { response: notFound(c, `Template '${found.unknown}'`) };
    if (found.detail.length > 0) return { response: validationResponse(c, found.detail) };
    const callback = body.data.callback_url;
    const params = typeof callback === "string" ? { callback_url: callback, ...found.params } : found.params;
    const input = { ...body.data, agent: found.agent.name, params };
    const sub = { ...submission(c), delayMs };
    return { task: createAgentTask(state, found.agent, input, sub, "template", body.data) };
  };

  r.post("/v2/extract/templates/run", async (c) => {
    const done = await run(c, 0);
    return done.response ?? c.json(state.tasks.result(done.task));
  });

  r.post("/v2/extract/templates/async", async (c) => {
    const done = await run(c, state.config.taskLatencyMs);
    return done.response ?? c.json({ task_id: done.task.id });
  });

  r.post("/v2/extract/templates/batch", async (c) => {
    const body = await parseBody(c, TemplateBatchRequestSchema);
    if (!body.ok) return body.response;
    const { inputs, shared_inputs } = body.data;
    if (!state.templates.current(shared_inputs.template) && !state.catalog.get(shared_inputs.template)) {
      const detail = [
        {
          loc: ["body", "shared_inputs", "template"],
          msg: `Template '${shared_inputs.template}' not found`,
          type: "value_error",
          input: shared_inputs.template,
        },
      ];
      return validationResponse(c, detail);
    }
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
    return c.json(state.batches.submit(batchId, "template", tasks));
  });

  return r;
}
