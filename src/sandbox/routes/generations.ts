/**
 * Template generations and template administration: POST/GET /v2/extract/templates/generations
 * (generation 1: /v1/agents/generations with `from_agent` and `agent_name`), and
 * GET /v2/extract/templates, GET/PATCH/DELETE /v2/extract/templates/{name} (JSON Patch on the
 * record's `published_version_id`, `display_name`, `description`). A delete also removes the
 * template from the agent catalog. `POST /v1/agents/generations` in the spec's own request shape
 * (no `prompt`) is still the immediate custom-agent creation of routes/agents.ts.
 */
import { Hono } from "hono";
import { pageQuery } from "../../api/schemas.js";
import {
  JsonPatchSchema,
  NewGenerationSchema,
  RefineGenerationV1Schema,
  RefineGenerationV2Schema,
} from "../../api/schemas-v2.js";
import type { SandboxState } from "../context.js";
import { FAULT_HEADER } from "../faults.js";
import { type Ctx, notFound, parseBody, parseQuery, type SandboxEnv, validationResponse } from "../http.js";
import { type GenerationInput, GenerationStore } from "../lifecycle/generations.js";
import { agentTemplateRecord, templateRecords } from "../templates/as-template.js";

const PATCHABLE = ["/published_version_id", "/display_name", "/description"];

export function generationRoutes(state: SandboxState) {
  const r = new Hono<SandboxEnv>();
  const generations = new GenerationStore(state);

  const create = (generation: 1 | 2) => async (c: Ctx) => {
    const raw = await c.req.raw
      .clone()
      .json()
      .catch(() => undefined);
    const refineKey = generation === 1 ? "from_agent" : "from_extract_template";
    const refining = typeof raw === "object" && raw !== null && refineKey in raw;
    let input: GenerationInput;
    if (refining) {
      const body = await parseBody(c, generation === 1 ? RefineGenerationV1Schema : RefineGenerationV2Schema);
      if (!body.ok) return body.response;
      const from = "from_agent" in body.data ? body.data.from_agent : body.data.from_extract_template;
      input = { kind: "refine", from, prompt: body.data.prompt };
    } else {
      const body = await parseBody(c, NewGenerationSchema);
      if (!body.ok) return body.response;
      input = { kind: "new", ...body.data };
    }
    const fails = state.faults.take(
      ["task_error"],
      `${c.req.method} ${c.req.path}`,
      c.req.header(FAULT_HEADER),
    );
    const g = generations.create(input, fails !== undefined);
    if (!g) return notFound(c, `Template '${(input as { from: string }).from}'`);
    return c.json(generations.record(g, generation));
  };
  const read = (generation: 1 | 2) => (c: Ctx) => {
    const g = generations.read(c.req.param("id") ?? "");
    return g ? c.json(generations.record(g, generation)) : notFound(c, "Generation");
  };
  r.post("/v2/extract/templates/generations", create(2));
  r.get("/v2/extract/templates/generations/:id", read(2));
  r.post("/v1/agents/generations", async (c, next) => {
    const raw = await c.req.raw
      .clone()
      .json()
      .catch(() => undefined);
    const sdkShape = typeof raw === "object" && raw !== null && "prompt" in raw;
    return sdkShape ? create(1)(c) : next();
  });
  r.get("/v1/agents/generations/:id", read(1));

  r.get("/v2/extract/templates", async (c) => {
    const query = parseQuery(c, pageQuery(250, 20));
    if (!query.ok) return query.response;
    await state.timers.sleep(state.config.catalogDelayMs);
    const { limit, offset } = query.data;
    const all = templateRecords(state);
    return c.json({ items: all.slice(offset, offset + limit), limit, offset, total: all.length });
  });

  r.get("/v2/extract/templates/:name", async (c) => {
    await state.timers.sleep(state.config.catalogDelayMs);
    const name = c.req.param("name");
    const record = state.templates.record(name) ?? agentTemplateRecord(state, name);
    return record ? c.json(record) : notFound(c, `Template '${name}'`);
  });

  r.patch("/v2/extract/templates/:name", async (c) => {
    const name = c.req.param("name");
    if (!state.templates.record(name)) return notFound(c, `Template '${name}'`);
    const body = await parseBody(c, JsonPatchSchema);
    if (!body.ok) return body.response;
    const changes: Record<string, unknown> = {};
    const detail = [];
    for (const [i, op] of body.data.entries()) {
      const at = ["body", i, "path"];
      if (!PATCHABLE.includes(op.path) || !["add", "replace", "remove"].includes(op.op)) {
        detail.push({
          loc: at,
          msg: `Value error, ${op.op} ${op.path} is not supported; patch ${PATCHABLE.join(", ")}`,
          type: "value_error",
        });
        continue;
      }
      const key = op.path.slice(1);
      if (key === "published_version_id" && op.op !== "remove") {
        const known = state.templates.versionsOf(name)?.some((v) => v.id === op.value);
        if (!known)
          detail.push({
            loc: ["body", i, "value"],
            msg: "Value error, no such version of this template",
            type: "value_error",
          });
      } else if (op.op !== "remove" && typeof op.value !== "string") {
        detail.push({ loc: ["body", i, "value"], msg: "Value error, must be a string", type: "value_error" });
      }
      changes[key] = op.op === "remove" ? undefined : op.value;
    }
    if (detail.length > 0) return validationResponse(c, detail);
    return c.json(state.templates.update(name, changes));
  });

  r.delete("/v2/extract/templates/:name", (c) => {
    const name = c.req.param("name");
    if (!state.templates.delete(name)) return notFound(c, `Template '${name}'`);
    state.catalog.remove(name);
    return c.body(null, 204);
  });

  return r;
}
