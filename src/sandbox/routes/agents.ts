/**
 * Agents: GET /v1/agents, GET /v1/agents/{name}, POST /v1/agents/run (sync),
 * /v1/agent/async and /v1/agents/async, /v1/agents/batch.
 */
import { Hono } from "hono";
import type { ValidationDetail } from "../../api/schemas.js";
import { AgentBatchRequestSchema, AgentListQuerySchema, AgentRunRequestSchema } from "../../api/schemas.js";
import { agentRecord } from "../agents/catalog.js";
import { GenerationRequestSchema, generatedAgent, outputSchemaProblems } from "../agents/generation.js";
import { checkParams } from "../agents/params.js";
import { type AgentRunInput, createAgentTask } from "../agents/run.js";
import type { SandboxState } from "../context.js";
import { staggeredDelay } from "../extract.js";
import { FAULT_HEADER } from "../faults.js";
import { type Ctx, notFound, parseBody, parseQuery, type SandboxEnv, validationResponse } from "../http.js";
import { stripUndefined } from "./extract.js";

const submission = (c: Ctx) => ({
  target: `${c.req.method} ${c.req.path}`,
  faultHeader: c.req.header(FAULT_HEADER),
});

type Resolved = {
  ok: true;
  input: AgentRunInput;
  agent: NonNullable<ReturnType<SandboxState["catalog"]["get"]>>;
};

/** Finds the agent and checks its params; `loc` is where the run sits in the body. */
function resolveRun(
  state: SandboxState,
  run: { agent?: string; params?: Record<string, unknown>; formats?: string[] },
  loc: (string | number)[],
): Resolved | { ok: false; detail: ValidationDetail[]; unknownAgent?: string } {
  if (!run.agent)
    return { ok: false, detail: [{ loc: [...loc, "agent"], msg: "Field required", type: "missing" }] };
  const agent = state.catalog.get(run.agent);
  if (!agent) {
    return {
      ok: false,
      unknownAgent: run.agent,
      detail: [
        {
          loc: [...loc, "agent"],
          msg: `Agent '${run.agent}' not found`,
          type: "value_error",
          input: run.agent,
        },
      ],
    };
  }
  const checked = checkParams(agent.name, agent.input_properties, run.params ?? {}, [...loc, "params"]);
  if (checked.detail.length > 0) return { ok: false, detail: checked.detail };
  return { ok: true, agent, input: { agent: agent.name, params: checked.params, formats: run.formats } };
}

export function agentRoutes(state: SandboxState) {
  const r = new Hono<SandboxEnv>();
  const delay = () => state.timers.sleep(state.config.catalogDelayMs);

  r.get("/v1/agents", async (c) => {
    const query = parseQuery(c, AgentListQuerySchema);
    if (!query.ok) return query.response;
    await delay();
    const { privacy, managed_by, limit, offset } = query.data;
    const agents = state.catalog
      .all()
      .filter((a) => privacy === "all" || a.is_public === (privacy === "public"))
      .filter((a) => managed_by === undefined || a.managed_by === managed_by);
    return c.json(agents.slice(offset, offset + limit).map(agentRecord));
  });

  r.get("/v1/agents/:name", async (c) => {
    await delay();
    const agent = state.catalog.get(c.req.param("name"));
    return agent ? c.json(agent) : notFound(c, `Agent '${c.req.param("name")}'`);
  });

  r.post("/v1/agents/run", async (c) => {
    const body = await parseBody(c, AgentRunRequestSchema);
    if (!body.ok) return body.response;
    const run = resolveRun(state, body.data, ["body"]);
    if (!run.ok)
      return run.unknownAgent
        ? notFound(c, `Agent '${run.unknownAgent}'`)
        : validationResponse(c, run.detail);
    const task = createAgentTask(state, run.agent, run.input, { ...submission(c), delayMs: 0 });
    return c.json(state.tasks.result(task));
  });

  const runAsync = async (c: Ctx) => {
    const body = await parseBody(c, AgentRunRequestSchema);
    if (!body.ok) return body.response;
    const run = resolveRun(state, body.data, ["body"]);
    if (!run.ok)
      return run.unknownAgent
        ? notFound(c, `Agent '${run.unknownAgent}'`)
        : validationResponse(c, run.detail);
    const task = createAgentTask(state, run.agent, run.input, {
      ...submission(c),
      delayMs: state.config.taskLatencyMs,
    });
    return c.json({ task_id: task.id });
  };
  r.post("/v1/agent/async", runAsync);
  r.post("/v1/agents/async", runAsync);

  r.post("/v1/agents/batch", async (c) => {
    const body = await parseBody(c, AgentBatchRequestSchema);
    if (!body.ok) return body.response;
    const { inputs, shared_inputs } = body.data;
    const runs: Resolved[] = [];
    const detail: ValidationDetail[] = [];
    inputs.forEach((item, i) => {
      const merged = {
        ...shared_inputs,
        ...stripUndefined(item),
        params: { ...shared_inputs.params, ...item.params },
      };
      const run = resolveRun(state, merged, ["body", "inputs", i]);
      if (run.ok) runs.push(run);
      else detail.push(...run.detail);
    });
    if (detail.length > 0) return validationResponse(c, detail);
    const batchId = state.batches.newId();
    const latency = state.config.taskLatencyMs;
    const tasks = runs.map((run, i) =>
      createAgentTask(state, run.agent, run.input, {
        ...submission(c),
        batchId,
        delayMs: staggeredDelay(latency, i, runs.length),
      }),
    );
    return c.json(state.batches.submit(batchId, "agent", tasks));
  });

  r.post("/v1/agents/generations", async (c) => {
    const body = await parseBody(c, GenerationRequestSchema);
    if (!body.ok) return body.response;
    const problems = outputSchemaProblems(body.data.output_schema);
    const name = body.data.name ?? `custom_agent_${state.catalog.all().length + 1}`;
    if (state.catalog.get(name)) {
      problems.push({
        loc: ["body", "name"],
        msg: `Value error, agent '${name}' already exists`,
        type: "value_error",
        input: name,
      });
    }
    if (problems.length > 0) return validationResponse(c, problems);
    const agent = generatedAgent(body.data, name);
    state.catalog.add(agent);
    return c.json(agent);
  });

  return r;
}
