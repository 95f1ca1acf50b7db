/**
 * Template generations and template administration: POST/GET /v2/extract/templates/generations
 * (generation 1: /v1/agents/generations with `from_agent` and `agent_name`), and
 * GET /v2/extract/templates, GET/PATCH/DELETE /v2/extract/templates/{name} (JSON Patch on the
 * record's `published_version_id`, `display_name`, `description`). A delete also removes the
 * template from the agent catalog. `POST /v1/agents/generations` in the spec's own request shape
 * (no `prompt`) is still the immediate custom-agent creation of routes/agents.ts (`NEXT`).
 */
import { pageQuery } from "../../api/schemas.js";
import {
  JsonPatchSchema,
  NewGenerationSchema,
  RefineGenerationV1Schema,
  RefineGenerationV2Schema,
} from "../../api/schemas-v2.js";
import type { SandboxState } from "../context.js";
import { FAULT_HEADER } from "../faults.js";
import { type Ctx, notFound, parseBody, parseQuery, validationResponse } from "../http.js";
import type { GenerationInput } from "../lifecycle/generations.js";
import { type AnyRoute, NEXT, route } from "../routing.js";
import { agentTemplateRecord, templateRecords } from "../templates/as-template.js";

/** The listing's limit/offset query (one schema, built once: zod compiles each on first use). */
const GENERATIONS_QUERY = pageQuery(250, 20);

const PATCHABLE = ["/published_version_id", "/display_name", "/description"];

/** What a generation request names the template (or agent) it refines, per generation. */
type GenerationSide = {
  refine: "from_agent" | "from_extract_template";
  schema: typeof RefineGenerationV1Schema | typeof RefineGenerationV2Schema;
  /** Generation 1: only the SDK's request shape (with `prompt`) is a polled generation. */
  sdkShapeOnly?: true;
};

const rawBody = (c: Ctx): Promise<unknown> =>
  c.req.raw
    .clone()
    .json()
    .catch(() => undefined);
const has = (raw: unknown, key: string) => typeof raw === "object" && raw !== null && key in raw;

/** The generation asked for: a refinement of a template, or a new one. */
async function generationInput(c: Ctx, side: GenerationSide): Promise<GenerationInput | Response> {
  if (has(await rawBody(c), side.refine)) {
    const body = await parseBody(c, side.schema);
    if (!body.ok) return body.response;
    const from = "from_agent" in body.data ? body.data.from_agent : body.data.from_extract_template;
    return { kind: "refine", from, prompt: body.data.prompt };
  }
  const body = await parseBody(c, NewGenerationSchema);
  return body.ok ? { kind: "new", ...body.data } : body.response;
}

/** Each generation's record shape of a generation (store.record). */
const recordOf = (gen: 1 | 2) => ({
  reply: (g: Parameters<SandboxState["generations"]["record"]>[0], { state }: { state: SandboxState }) =>
    state.generations.record(g, gen),
});

/** The JSON Patch's problems for template `name` (what may change, and to what). */
function patchProblems(
  state: SandboxState,
  name: string,
  ops: { op: string; path: string; value?: unknown }[],
) {
  const detail = [];
  for (const [i, op] of ops.entries()) {
    if (!PATCHABLE.includes(op.path) || !["add", "replace", "remove"].includes(op.op)) {
      detail.push({
        loc: ["body", i, "path"],
        msg: `Value error, ${op.op} ${op.path} is not supported; patch ${PATCHABLE.join(", ")}`,
        type: "value_error",
      });
    } else if (op.path === "/published_version_id" && op.op !== "remove") {
      if (!state.templates.versionsOf(name)?.some((v) => v.id === op.value))
        detail.push({
          loc: ["body", i, "value"],
          msg: "Value error, no such version of this template",
          type: "value_error",
        });
    } else if (op.op !== "remove" && typeof op.value !== "string") {
      detail.push({ loc: ["body", i, "value"], msg: "Value error, must be a string", type: "value_error" });
    }
  }
  return detail;
}

const templateName = (c: Ctx) => c.req.param("name") ?? "";

export const GENERATION_ROUTES: AnyRoute[] = [
  route<GenerationSide>({
    method: "POST",
    1: {
      path: "/v1/agents/generations",
      refine: "from_agent",
      schema: RefineGenerationV1Schema,
      sdkShapeOnly: true,
      ...recordOf(1),
    },
    2: {
      path: "/v2/extract/templates/generations",
      refine: "from_extract_template",
      schema: RefineGenerationV2Schema,
      ...recordOf(2),
    },
    handle: async (c, { state, side }) => {
      if (side.sdkShapeOnly && !has(await rawBody(c), "prompt")) return NEXT;
      const input = await generationInput(c, side);
      if (input instanceof Response) return input;
      const fails = state.faults.take(
        ["task_error"],
        `${c.req.method} ${c.req.path}`,
        c.req.header(FAULT_HEADER),
      );
      const g = state.generations.create(input, fails !== undefined);
      return g ?? notFound(c, `Template '${(input as { from: string }).from}'`);
    },
  }),
  {
    method: "GET",
    1: { path: "/v1/agents/generations/:id", ...recordOf(1) },
    2: { path: "/v2/extract/templates/generations/:id", ...recordOf(2) },
    handle: (c, { state }) => state.generations.read(c.req.param("id") ?? "") ?? notFound(c, "Generation"),
  },
  {
    method: "GET",
    2: { path: "/v2/extract/templates" },
    handle: async (c, { state }) => {
      const query = parseQuery(c, GENERATIONS_QUERY);
      if (!query.ok) return query.response;
      await state.timers.sleep(state.config.catalogDelayMs);
      const { limit, offset } = query.data;
      const all = templateRecords(state);
      return { items: all.slice(offset, offset + limit), limit, offset, total: all.length };
    },
  },
  {
    method: "GET",
    2: { path: "/v2/extract/templates/:name" },
    handle: async (c, { state }) => {
      await state.timers.sleep(state.config.catalogDelayMs);
      const name = templateName(c);
      return (
        state.templates.record(name) ?? agentTemplateRecord(state, name) ?? notFound(c, `Template '${name}'`)
      );
    },
  },
  {
    method: "PATCH",
    2: { path: "/v2/extract/templates/:name" },
    handle: async (c, { state }) => {
      const name = templateName(c);
      if (!state.templates.record(name)) return notFound(c, `Template '${name}'`);
      const body = await parseBody(c, JsonPatchSchema);
      if (!body.ok) return body.response;
      const detail = patchProblems(state, name, body.data);
      if (detail.length > 0) return validationResponse(c, detail);
      const changes = Object.fromEntries(
        body.data.map((op) => [op.path.slice(1), op.op === "remove" ? undefined : op.value]),
      );
      return state.templates.update(name, changes);
    },
  },
  {
    method: "DELETE",
    2: { path: "/v2/extract/templates/:name" },
    handle: (c, { state }) => {
      const name = templateName(c);
      if (!state.templates.delete(name)) return notFound(c, `Template '${name}'`);
      state.catalog.remove(name);
      return c.body(null, 204);
    },
  },
];
