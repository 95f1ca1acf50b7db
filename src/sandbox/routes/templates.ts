/**
 * Extract templates (v2): POST /v2/extract/templates/run (sync), /v2/extract/templates/batch and
 * GET /v2/extract/templates/{name}/versions (bearer optional: the spec's samples send none).
 * Params are checked against the current version's input_schema (the published one, else the newest).
 */
import { Hono } from "hono";
import type { AgentDetail, OutputFragment, TemplateVersion, ValidationDetail } from "../../api/schemas.js";
import { pageQuery, TemplateBatchRequestSchema, TemplateRunRequestSchema } from "../../api/schemas.js";
import { createAgentTask } from "../agents/run.js";
import type { SandboxState } from "../context.js";
import { staggeredDelay } from "../extract.js";
import { FAULT_HEADER } from "../faults.js";
import { type Ctx, notFound, parseBody, parseQuery, type SandboxEnv, validationResponse } from "../http.js";
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

function resolve(state: SandboxState, run: TemplateRun, loc: (string | number)[]) {
  const version = run.template ? state.templates.current(run.template) : undefined;
  if (!version) return { ok: false as const, unknown: run.template };
  const detail: ValidationDetail[] = checkJsonSchema(version.input_schema, run.params ?? {}, [
    ...loc,
    "params",
  ]);
  return { ok: true as const, version, detail };
}

export function templateRoutes(state: SandboxState) {
  const r = new Hono<SandboxEnv>();

  r.get("/v2/extract/templates/:name/versions", (c) => {
    const query = parseQuery(c, pageQuery(200, 20));
    if (!query.ok) return query.response;
    const versions = state.templates.versionsOf(c.req.param("name"));
    if (!versions) return notFound(c, `Template '${c.req.param("name")}'`);
    const { limit, offset } = query.data;
    return c.json({ items: versions.slice(offset, offset + limit), limit, offset, total: versions.length });
  });

  r.post("/v2/extract/templates/run", async (c) => {
    const body = await parseBody(c, TemplateRunRequestSchema);
    if (!body.ok) return body.response;
    const found = resolve(state, body.data, ["body"]);
    if (!found.ok) return notFound(c, `Template '${found.unknown}'`);
    if (found.detail.length > 0) return validationResponse(c, found.detail);
    const input = { ...body.data, agent: body.data.template };
    const sub = { ...submission(c), delayMs: 0 };
    const task = createAgentTask(state, asAgent(found.version), input, sub, "template", body.data);
    return c.json(state.tasks.result(task));
  });

  r.post("/v2/extract/templates/batch", async (c) => {
    const body = await parseBody(c, TemplateBatchRequestSchema);
    if (!body.ok) return body.response;
    const { inputs, shared_inputs } = body.data;
    const current = state.templates.current(shared_inputs.template);
    if (!current) {
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
    const detail = runs.flatMap((run, i) => resolve(state, run, ["body", "inputs", i]).detail ?? []);
    if (detail.length > 0) return validationResponse(c, detail);
    const batchId = state.batches.newId();
    const agent = asAgent(current);
    const latency = state.config.taskLatencyMs;
    const tasks = runs.map((run, i) =>
      createAgentTask(
        state,
        agent,
        { ...run, agent: run.template },
        { ...submission(c), batchId, delayMs: staggeredDelay(latency, i, runs.length) },
        "template",
        run,
      ),
    );
    return c.json(state.batches.submit(batchId, "template", tasks));
  });

  return r;
}
